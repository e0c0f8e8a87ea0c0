"""A game at the terminal: you at one seat, computer players at the others, every event told in words."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine import CHANCE, KEEP, Accept, Action, Challenge, ChanceCaller, DiscardSet, Pass, Phase, Play
from ..words.gaps import new_gaps
from ..words.notation import action_text, why_illegal
from .console import Console, Quit
from .human import HumanSeat
from .opponents import Opponent, make_opponent
from .screen import rule
from .words import Voices, call_words, hand_words, play_words, result_lines, reveal_lines, set_words

if TYPE_CHECKING:
    from ..engine import Game, State

NAMES = ("Robin", "Alex", "Sam", "Jo", "Kim", "Lee", "Max", "Pat", "Ray", "Ash", "Kit")


class Table:
    """One game: the deal from `seed`, then turns until the game ends or you leave."""

    def __init__(self, game: Game, console: Console, seed: int, seat: int | None = None,
                 bots: Sequence[str] = ("honest",), start: State | None = None) -> None:
        self.game = game
        self.console = console
        self.seed = seed
        # `start` sits down at a game already under way (a position), instead of a fresh deal.
        self.state = game.new_initial_state() if start is None else start
        self.chance = random.Random(seed)  # the deal, then any lot of who called first
        self.held: list[str] = []  # answers to a claim, said once every responder has answered
        while self.state.current_player() == CHANCE:
            self.state.apply_action(self.state.chance_outcome(self.chance))
        first = self.state.current_player()
        # You sit where the first play is made unless you choose a seat (seed 003: you start).
        self.you = seat if seat is not None else (first if first >= 0 else 0)
        names = [""] * game.players
        for i in range(1, game.players):
            names[game.rules.seat_after(self.you, i)] = NAMES[(i - 1) % len(NAMES)]
        self.v = Voices(names, self.you)
        self.human = HumanSeat(console, self.you, self.v)
        kinds = list(bots) or ["honest"]
        self.opponents: dict[int, Opponent] = {}
        for i in range(1, game.players):
            seat = game.rules.seat_after(self.you, i)
            kind = kinds[(i - 1) % len(kinds)]
            self.opponents[seat] = make_opponent(kind, seat, random.Random(seed * 1_000_003 + seat))

    # -- the game ------------------------------------------------------------------------------

    def run(self) -> int:
        """Play to the end; 0 when the game ends or you leave."""
        try:
            self.introduce()
            while not self.state.is_terminal():
                self.step()
            self.finish()
        except Quit:
            self.console.say("", f"You leave the table. (Replay this deal with --seed {self.seed}.)")
        return 0

    def introduce(self) -> None:
        g, s, v = self.game, self.state, self.v
        rb = g.rulebook
        c = self.console
        c.say(rule(rb.title.upper()), f"Rulebook: {rb.name}" + (" with " + ", ".join(rb.active_variations)
                                                                if rb.active_variations else "") + ".")
        order = " → ".join(f"{v.name(seat)} ({s.hand_size(seat)})" for seat in self._turn_order())
        c.say(f"Seats in turn order: {order}.")
        c.say("Computer seats: " + ", ".join(f"{v.name(seat)} plays {self.opponents[seat].name}"
                                             for seat in self._turn_order() if seat != self.you) + ".")
        c.say(f"Deal number {self.seed}: replay this deal with --seed {self.seed}.",
              "Type `help` at your turn for how to play, `quit` to leave.")
        if s.is_terminal():
            return
        c.say(f"{v.name(s.current_player())} {v.verb(s.current_player(), 'play')} first.")

    def _turn_order(self) -> list[int]:
        return [self.game.rules.seat_after(self.you, i) for i in range(self.game.players)]

    def step(self) -> None:
        state = self.state
        seat = state.current_player()
        before = state.clone()
        if seat == CHANCE:
            action = state.chance_outcome(self.chance)
        elif seat == self.you:
            action = self.human.act(state)
        else:
            action = self._computer(seat)
        state.apply_action(action)
        self.tell(before, action, seat)

    def _computer(self, seat: int) -> Action:
        opponent = self.opponents[seat]
        action = opponent.act(self.state)
        why = why_illegal(self.state, action)
        if why is None:
            return action
        # A bot's mistake must not end your game: say so, and play a legal action for it.
        self.console.say(f"({self.v.name(seat)}'s bot chose `{action_text(self.game, action)}`, which the rules "
                         f"refuse: {why}. It plays a random legal action instead.)")
        rng = random.Random(self.seed + self.state.turns)
        if self.state.phase is Phase.PLAY and self.state.count_play_actions():
            return self.state.sample_play(rng)
        actions = self.state.legal_actions()
        return actions[rng.randrange(len(actions))]

    # -- telling the table what happened -------------------------------------------------------

    def answer(self, line: str) -> None:
        """An answer to a claim: said at once when answers are offered in turn; with calls made at once,
        kept until every responder has answered, so that no answer is seen before yours."""
        if self.game.rules.calls_at_once and (self.state.phase is Phase.RESPOND or self.state.callers()):
            self.held.append(line)
        else:
            self.console.say(*self.held, line)
            self.held.clear()

    def tell(self, before: State, action: Action, seat: int) -> None:
        g, after, v = self.game, self.state, self.v
        c = self.console
        if isinstance(action, Play):
            last = after.hand_size(seat) == 0
            c.say(play_words(g, v, seat, len(action.cards), action.claim, action.count, last))
            if seat == self.you:
                c.say(f"  (face down: {hand_words(g, action.cards)})")
        elif isinstance(action, Pass):
            c.say(v.says(seat, "pass") + ".")
        elif isinstance(action, Accept):
            self.answer(v.says(seat, "accept") + ".")
        elif isinstance(action, Challenge):
            self.answer(f"{v.name(seat)}: “{call_words(g, action.kind)}”")
        if after.phase is not Phase.RESPOND and not after.callers():
            c.say(*self.held)
            self.held.clear()
        if isinstance(action, ChanceCaller):
            c.say(f"{v.name(action.seat)} called first.")
        elif isinstance(action, DiscardSet) or action == KEEP:
            pass
        for r in after.reveals()[len(before.reveals()):]:
            c.say("", *("  " + line for line in reveal_lines(g, r, v)), "")
            for opponent in self.opponents.values():
                opponent.notify(r)
        for who, rank, cards in after.discarded_sets()[len(before.discarded_sets()):]:
            c.say(set_words(g, v, who, rank, cards))
        if isinstance(action, Pass) and before.pile_size() and not after.pile_size():
            c.say(f"Everyone passed: the pile of {before.pile_size()} cards leaves the game unseen.")
        for who in after.order_out()[len(before.order_out()):]:
            if not (g.rules.first_out and after.is_terminal()):
                c.say(f"{v.name(who)} {v.verb(who, 'are')} out of cards and out of the game!")
        for line in new_gaps(before.rule_gaps, after.rule_gaps):
            c.say(line)
        if after.phase is Phase.PLAY and after.leading and not before.leading:
            leader = after.current_player()
            c.say(f"A new round: {v.name(leader, False) if leader != self.you else 'you'} "
                  f"{v.verb(leader, 'lead')}.")

    def finish(self) -> None:
        state, v = self.state, self.v
        result = state.result()
        assert result is not None
        c = self.console
        c.say("", rule("THE END"))
        c.say(*result_lines(self.game, result, v, state.hand_sizes(), self._turn_order()))
        if result.winner == self.you and not result.capped:
            c.say("Well played!")
        c.say(f"(Replay this deal with --seed {self.seed}.)")


def play_game(game: Game, console: Console, seed: int, seat: int | None = None,
              bots: Sequence[str] = ("honest",)) -> int:
    """Play one game of `game` at the console; returns the exit status (0)."""
    return Table(game, console, seed, seat, bots).run()
