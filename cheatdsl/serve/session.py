"""One game (or lesson) on the server: the engine's state, the computer seats, and the table's log."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine import CHANCE, Accept, Action, Challenge, ChanceCaller, Pass, Phase, Play, RevealRecord
from ..words.gaps import new_gaps
from ..words.notation import action_text, cards_text, why_illegal
from ..play.opponents import Opponent, make_opponent
from ..play.table import NAMES
from ..play.words import Voices, call_words, play_words, plural, set_words

if TYPE_CHECKING:
    from ..engine import Game, State
    from .lessons import Lesson

BOT_STEPS = 100_000  # a bound on computer moves per request; the game's turn cap ends games long before


class Refused(Exception):
    """A request that does not fit the game now; the message says why, and nothing changed."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


class Session:
    """A table: you at one seat, bots (or a lesson's script) at the others."""

    def __init__(self, game: Game, seed: int, bots: Sequence[str], entry: int, variations: tuple[str, ...] = (),
                 lesson: Lesson | None = None, seed_known: bool = False) -> None:
        self.game = game
        self.seed = seed
        self.seed_known = seed_known  # the player typed the seed: theirs to see while the game runs
        self.entry = entry
        self.variations = variations
        self.lesson = lesson
        self.lesson_step = 0
        self.acted = False  # whether you made the current lesson step's move
        self.state: State = game.new_initial_state() if lesson is None else lesson.start(game)
        self.chance = random.Random(seed)  # the deal, then any lot of who called first
        while self.state.current_player() == CHANCE:
            self.state.apply_action(self.state.chance_outcome(self.chance))
        first = self.state.current_player()
        self.you = lesson.you if lesson is not None else (first if first >= 0 else 0)
        names = [""] * game.players
        for i in range(1, game.players):
            names[game.rules.seat_after(self.you, i)] = NAMES[(i - 1) % len(NAMES)]
        self.voices = Voices(names, self.you)
        kinds = list(bots) or ["honest"]
        self.bots: dict[int, str] = {}
        self.opponents: dict[int, Opponent] = {}
        for i in range(1, game.players):
            seat = game.rules.seat_after(self.you, i)
            self.bots[seat] = kinds[(i - 1) % len(kinds)]
            self.opponents[seat] = make_opponent(self.bots[seat], seat, random.Random(seed * 1_000_003 + seat))
        self.id = ""
        self.log: list[dict[str, object]] = []
        self.plays_made = 0  # plays so far: the claim that accepts answer
        self.accepted: set[tuple[int, int]] = set()  # (play, seat) of the accepts said for the newest play
        self.held: list[dict[str, object]] = []  # answers to a claim, said once every responder has answered
        self.step = 0  # actions taken through the page: a request must name the step it answers
        self.reveal: RevealRecord | None = None  # a challenge's result waiting for Continue
        self.touched = time.monotonic()
        if lesson is not None:
            self._script(lesson.steps[0].moves)
        else:
            self.advance()

    # -- moves ---------------------------------------------------------------------------------

    def turn_order(self) -> list[int]:
        return [self.game.rules.seat_after(self.you, i) for i in range(self.game.players)]

    def waiting_for_you(self) -> bool:
        return (self.reveal is None and not self.state.is_terminal()
                and self.state.current_player() == self.you and not self.lesson_done())

    def lesson_done(self) -> bool:
        return self.lesson is not None and self.lesson_step >= len(self.lesson.steps)

    def act(self, action: Action | str) -> None:
        """Your move (an action, `continue` after a reveal, `next` in a lesson); Refused says why not."""
        self._act(action)
        self.step += 1

    def _act(self, action: Action | str) -> None:
        if action == "continue":
            if self.reveal is None:
                raise Refused("there is no challenge to continue from")
            self.reveal = None
            self._moved()
            return
        if self.reveal is not None:
            raise Refused("look at the challenge first: continue")
        if action == "next":
            if self.lesson is None or self.lesson_done() or self.lesson.steps[self.lesson_step].expect:
                raise Refused("there is no lesson step to move on to now")
            self._moved()
            return
        assert not isinstance(action, str)
        if self.state.is_terminal():
            raise Refused("the game is over")
        if self.state.current_player() != self.you:
            raise Refused("it is not your turn")
        why = why_illegal(self.state, action)
        if why:
            raise Refused(f"the rules do not allow that: {why}")
        if self.lesson is not None:
            expected = self.lesson.expected(self.game, self.lesson_step)
            if action not in expected:
                raise Refused(self.lesson.steps[self.lesson_step].hint or "the lesson expects another move")
        self._apply(self.you, action)
        self.acted = True
        if self.reveal is None:
            self._moved()

    def _moved(self) -> None:
        """After your move or a Continue: the lesson's next step, or the computer seats' turns."""
        if self.lesson is not None:
            if not self.lesson_done() and (self.acted or not self.lesson.steps[self.lesson_step].expect):
                self.lesson_step += 1
                if not self.lesson_done():
                    self._script(self.lesson.steps[self.lesson_step].moves)
            return
        self.advance()

    def _script(self, moves: Sequence[tuple[int, Action]]) -> None:
        self.acted = False
        for seat, action in moves:
            self._apply(seat, action)

    def advance(self) -> None:
        """The computer seats play until it is your turn, a challenge is to be seen, or the game ends."""
        for _ in range(BOT_STEPS):
            state = self.state
            if state.is_terminal() or self.reveal is not None or state.current_player() == self.you:
                return
            seat = state.current_player()
            if seat == CHANCE:
                self._apply(seat, state.chance_outcome(self.chance))
                continue
            self._apply(seat, self._computer(seat))

    def _computer(self, seat: int) -> Action:
        state = self.state
        action = self.opponents[seat].act(state)
        if why_illegal(state, action) is None:
            return action
        # A bot's mistake must not end the game: it plays a legal action instead.
        rng = random.Random(self.seed + state.turns)
        if state.phase is Phase.PLAY and state.count_play_actions():
            return state.sample_play(rng)
        actions = state.legal_actions()
        return actions[rng.randrange(len(actions))]

    # -- the log -------------------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> None:
        g, s, v = self.game, self.state, self.voices
        reveals, sets, out = len(s.reveals()), len(s.discarded_sets()), len(s.order_out())
        pile, leading, gaps = s.pile_size(), s.leading, s.rule_gaps
        s.apply_action(action)
        if isinstance(action, Play):
            self.plays_made += 1
            self.accepted.clear()
            self._say("play", play_words(g, v, seat, len(action.cards), action.claim, action.count,
                                         s.hand_size(seat) == 0), seat)
            if seat == self.you:
                self._say("own", f"Face down: {cards_text(g, action.cards)}.", seat)
        elif isinstance(action, Pass):
            self._say("pass", v.says(seat, "pass") + ".", seat)
        elif isinstance(action, Accept):
            # Where a pass opens the answers again on the same claim, a seat that accepted it is not
            # said to accept it twice.
            key = (self.plays_made, seat)
            if key not in self.accepted:
                self.accepted.add(key)
                self._answer("accept", v.says(seat, "accept") + ".", seat)
        elif isinstance(action, Challenge):
            self._answer("challenge", f"{v.name(seat)}: “{call_words(g, action.kind)}”", seat)
        if s.phase is not Phase.RESPOND and not s.callers():
            for held in self.held:
                self._write(held)
            self.held.clear()
        if isinstance(action, ChanceCaller):
            self._say("info", f"{v.name(action.seat)} called first.", action.seat)
        for r in s.reveals()[reveals:]:
            if s.is_in(self.you) or s.is_terminal():
                self.reveal = r  # shown until you continue; once you are out the others play on unwatched
            paid = v.says(r.loser, "collect", plural(r.taken, "card") + ".") if r.paid else \
                f"{v.possessive(r.challenger)} wrong call costs nothing."
            self._say("reveal", ("Caught: " if r.caught else "True: ") + paid, r.loser)
            for opponent in self.opponents.values():
                opponent.notify(r)
        for who, rank, cards in s.discarded_sets()[sets:]:
            self._say("set", set_words(g, v, who, rank, cards), who)
        if isinstance(action, Pass) and pile and not s.pile_size():
            self._say("info", f"Everyone passed: the pile of {pile} cards leaves the game unseen.", None)
        for who in s.order_out()[out:]:
            if not (g.rules.first_out and s.is_terminal()):
                self._say("info", f"{v.name(who)} {v.verb(who, 'are')} out of cards and out of the game.", who)
        for line in new_gaps(gaps, s.rule_gaps):
            self._say("info", line, None)
        if s.phase is Phase.PLAY and s.leading and not leading and not s.is_terminal():
            leader = s.current_player()
            self._say("info", f"A new round: {v.name(leader)} {v.verb(leader, 'lead')}.", leader)

    def _say(self, kind: str, text: str, seat: int | None) -> None:
        self._write({"kind": kind, "text": text, "seat": seat})

    def _write(self, line: dict[str, object]) -> None:
        """Add a line to the log with its number, which stays its number however long the log grows."""
        line["n"] = len(self.log) + 1
        self.log.append(line)

    def _answer(self, kind: str, text: str, seat: int) -> None:
        """An answer to a claim: said at once when answers are offered in turn; with calls made at once,
        kept until every responder has answered, so that no answer is seen before yours."""
        line = {"kind": kind, "text": text, "seat": seat}
        if self.game.rules.calls_at_once and (self.state.phase is Phase.RESPOND or self.state.callers()):
            self.held.append(line)
        else:
            for held in self.held:
                self._write(held)
            self.held.clear()
            self._write(line)

    def describe(self, action: Action) -> str:
        return action_text(self.game, action)
