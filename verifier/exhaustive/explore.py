"""Every state reachable from every deal, under every legal action of every seat, stepped by the interpreter.

A depth-first search from each deal (`deals.every_deal`): each state's legal actions (each choice of cards
and claim and count, each answer to a claim, each call, pass, set discard and, where several seats called at
once, each seat the lot can pick) are applied to a copy by the interpreter's `apply_action`, and a state
whose position (`positions.py`) was met before is not explored again. Where every seat is alike and the
dealer is drawn by lot (`rotation.worth_turning`) a position met turned round the table counts as met too, and
the step to it is kept with how far it is turned (`Exploration.turned_steps`). A position met again while it
is still on the search's path is a cycle: play that can go round for ever (turned: it comes back exactly after
as many rounds as make a whole turn). The search counts states as it goes and stops past its budget
(`Exploration.complete` is then false: what it met is still true of real games, but what it did not meet is
not decided).

As it goes it keeps the play facts the verdicts rest on (`Facts`), each with the step that first showed it
(a path from a deal: `Exploration.path`).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from cheatdsl.engine import Action, Ending, Game, Phase, RuleGap, State, TooManyActions

from ..properties.gaps import round_gaps
from .deals import Deal, every_deal
from .positions import Positions
from .rotation import turned_move, worth_turning

_PLAY, _CHANCE, _TERMINAL, _RESPOND = Phase.PLAY, Phase.CHANCE, Phase.TERMINAL, Phase.RESPOND
ON_PATH, DONE = 1, 2

# A step that showed a fact: the state it left (a node) and the action taken there; an action None is the
# state itself.
Step = tuple[int, Action | None]


@dataclass
class Facts:
    """What the judge met in play, each with the first step that showed it."""

    # seat -> a game it won (where the last holder loses: went out first, which the rules' result calls winning)
    wins: dict[int, Step] = field(default_factory=dict)
    stuck: Step | None = None  # a game ended because the seat to act had no legal action
    no_first: Step | None = None  # a deal that names no first player
    capped: Step | None = None  # a game stopped by the turn cap
    lost_card: Step | None = None  # the cards everywhere differ from the deck
    out_plays: Step | None = None  # a seat that is out is asked to play
    out_regains: Step | None = None  # a seat out gets cards back
    wrong_winner: Step | None = None  # a winner other than the first seat out, or a finished game with no loser
    void: Step | None = None  # a challenge's loser picks up nothing
    judged_true: dict[str, tuple[int, Step]] = field(default_factory=dict)  # kind -> largest count judged true
    truly_played: tuple[int, Step] | None = None  # the largest play whose cards all pass as its claim
    dead_rank_true: Step | None = None  # a claim of a rank whose set is out judged true
    asked: set[tuple[int, int]] = field(default_factory=set)  # (seat counted from the first player, claim)
    lot: Step | None = None  # several seats called at once and the lot picks whose call is heard
    lot_callers: tuple[int, ...] = ()  # the seats that called at once there
    win_order: tuple[int, ...] = ()  # the order out of the game the lowest seat won (`wins`)
    calls_at_once: Step | None = None  # a play answered by two or more seats that may call
    calls_offered: Step | None = None  # a call was open to some seat
    passes: Step | None = None  # a seat may pass
    caught: Step | None = None  # a lie was caught
    survived: Step | None = None  # a call showed a claim true
    round_gap: Step | None = None  # a round ended with no seat named to lead, or no claim to lead
    round_gap_kind: RuleGap | None = None  # which of those it was
    round_gaps_met: frozenset[RuleGap] = frozenset()  # every gap its game had met by then


@dataclass
class Exploration:
    """The states explored at one table: how many, whether every one was, and the facts met."""

    game: Game
    budget: int
    complete: bool = False
    stopped: str = ""  # why the search stopped early ("" when complete)
    states: int = 0
    edges: int = 0
    deals: int = 0
    seconds: float = 0.0
    facts: Facts = field(default_factory=Facts)
    cycle: tuple[int, int, Action] | None = None  # (node on the path, node it leaves from, action back to it)
    cycle_turn: int = 0  # how far round the table the cycle's last step comes back turned (0: the same state)
    turns: bool = False  # states alike but turned round the table were explored once (`rotation.py`)
    turn: bytearray = field(default_factory=bytearray)  # node -> places its state is turned to its key
    # Steps to a state met before, with how far the state reached is turned from the one explored: (from node,
    # seat acting, action, to node, turn); kept where `turns` only.
    turned_steps: list[tuple[int, int, Action, int, int]] = field(default_factory=list)
    # node -> (the seat that won, the order out) where a state shows a win; kept where `turns` only.
    win_nodes: dict[int, tuple[int, tuple[int, ...]]] = field(default_factory=dict)
    # (node, turn) -> a deal whose state is that node's turned that far (a deal met turned); `turns` only.
    turned_deals: dict[tuple[int, int], Deal] = field(default_factory=dict)
    parent: list[int] = field(default_factory=list)
    via: list[Action | None] = field(default_factory=list)
    actor: list[int] = field(default_factory=list)  # the seat that took `via` (CHANCE for the lot)
    roots: dict[int, Deal] = field(default_factory=dict)  # node -> the deal it is

    def path(self, step: Step) -> tuple[Deal, list[tuple[int, Action]]]:
        """The deal and the actions (seat, action) from it that reach `step`."""
        node, last = step
        moves: list[tuple[int, Action]] = []
        if last is not None:
            moves.append((self._seat_at[node], last))
        while self.parent[node] >= 0:
            via = self.via[node]
            assert via is not None
            moves.append((self.actor[node], via))
            node = self.parent[node]
        moves.reverse()
        return self.roots[node], moves

    _seat_at: dict[int, int] = field(default_factory=dict)  # node -> the seat to act there, for steps kept

    def seat_games(self) -> dict[int, tuple[Deal, list[tuple[int, Action]], tuple[int, ...]]]:
        """Every seat that wins some game met, with that game (its deal and moves) and its order out: where states
        were explored once for every turn of the table (`turns`), the wins met turned as far as each state is
        reached turned; else the wins met."""
        n = self.game.players
        out: dict[int, tuple[Deal, list[tuple[int, Action]], tuple[int, ...]]] = {}
        if not self.turns:
            for seat, step in self.facts.wins.items():
                deal, moves = self.path(step)
                out[seat] = (deal, moves, self.facts.win_order if seat == min(self.facts.wins) else ())
            return out
        # (node, turn): the node's state turned that far is reached; each pair once, from the pair it came from.
        children: dict[int, list[tuple[int, int, Action | None, int]]] = {}
        for node in range(1, len(self.parent)):
            if self.parent[node] >= 0:
                children.setdefault(self.parent[node], []).append((self.actor[node], self.via[node], node, 0))
        starts: list[tuple[int, int]] = [(root, 0) for root in self.roots] + list(self.turned_deals)
        for src, seat, action, dst, t in self.turned_steps:
            children.setdefault(src, []).append((seat, action, dst, t))
        came: dict[tuple[int, int], tuple[tuple[int, int], int, Action | None] | None] = {s: None for s in starts}
        queue = deque(starts)
        while queue and len(out) < n:
            pair = queue.popleft()
            node, r = pair
            won = self.win_nodes.get(node)
            if won is not None and (won[0] + r) % n not in out:
                out[(won[0] + r) % n] = self._turned_game(pair, came, tuple((s + r) % n for s in won[1]))
            for seat, action, dst, t in children.get(node, ()):
                nxt = (dst, (r + t) % n)
                if nxt not in came:
                    came[nxt] = (pair, seat, action)
                    queue.append(nxt)
        return out

    def _turned_game(self, pair: tuple[int, int], came: dict[tuple[int, int], Any], order: tuple[int, ...]
                     ) -> tuple[Deal, list[tuple[int, Action]], tuple[int, ...]]:
        """The game that reaches the state of `pair` (a node turned some places): its deal and moves, each move
        turned as far as the state it is taken at."""
        n = self.game.players
        moves: list[tuple[int, Action]] = []
        while came[pair] is not None:
            before, seat, action = came[pair]
            r = before[1]
            assert action is not None
            moves.append(turned_move(seat, action, n, r))
            pair = before
        moves.reverse()
        deal = self.turned_deals.get(pair) or self.roots[pair[0]]
        return deal, moves, order


def _cards_everywhere(st: State) -> list[int]:
    """How many cards of each value are anywhere at the table: hands, pile, stock, aside, gone and sets."""
    out = list(map(sum, zip(*map(st.hand, range(st.game.players)))))
    for c in st.pile_cards() + st.stock() + st.aside() + st.gone():
        out[c] += 1
    for _, _, cards in st.discarded_sets():
        for c in cards:
            out[c] += 1
    return out


class _Search:
    """One table's depth-first search, keeping the facts as it meets them."""

    def __init__(self, game: Game, budget: int, seconds: float | None, origin: bool, turns: bool) -> None:
        self.game = game
        self.rules = game.rules
        self.x = Exploration(game, budget, turns=turns)
        self.positions = Positions(game, origin, turns)
        self.index: dict[tuple[Any, ...], int] = {}
        self.colour = bytearray()
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.deck = list(self.rules.deck_counts)
        self.step = self.rules.step
        self.n = game.players
        self.round_gaps = round_gaps(self.rules)

    def keep(self, node: int, st: State) -> None:
        self.x._seat_at.setdefault(node, st.current_player())

    def add(self, st: State, parent: int, via: Action | None, actor: int, first: int, turn: int) -> int:
        x = self.x
        node = len(x.parent)
        x.parent.append(parent)
        x.via.append(via)
        x.actor.append(actor)
        x.turn.append(turn)
        self.colour.append(0)
        self.look(node, st, first)
        return node

    def look(self, node: int, st: State, first: int) -> None:
        """The facts a state shows by itself."""
        f = self.x.facts
        phase = st.phase
        here: Step = (node, None)
        if f.lost_card is None and _cards_everywhere(st) != self.deck:
            f.lost_card = here
        if not self.rules.first_out and st.order_out():
            # The last holder loses: the first seat out is the winner and stays so (`winner`), even where the
            # game then stops short of its end (the turn cap, or a seat left with no legal action).
            out = st.order_out()
            if self.x.turns:
                self.x.win_nodes[node] = (out[0], tuple(out))
            if out[0] not in f.wins:
                f.wins[out[0]] = here
                if out[0] == min(f.wins):
                    f.win_order = out
        if phase is _TERMINAL:
            r = st.result()
            assert r is not None
            if r.ending is Ending.NO_LEGAL_ACTION and f.stuck is None:
                f.stuck = here
            elif r.ending is Ending.NO_FIRST_PLAYER and f.no_first is None:
                f.no_first = here
            elif r.ending is Ending.TURN_CAP and f.capped is None:
                f.capped = here
            if self.x.turns and not r.capped and r.winner is not None:
                self.x.win_nodes[node] = (r.winner, tuple(r.order_out))
            if not r.capped and r.winner is not None and r.winner not in f.wins:
                f.wins[r.winner] = here
                if r.winner == min(f.wins):
                    f.win_order = r.order_out
            if f.wrong_winner is None and not r.capped:
                if self.rules.first_out and r.winner is not None and r.order_out and r.winner != r.order_out[0]:
                    f.wrong_winner = here
                if r.ending is Ending.LAST_HOLDER and r.loser is None:
                    f.wrong_winner = here
            return
        if phase is _PLAY:
            seat = st.to_act
            if f.out_plays is None and not st.is_in(seat):
                f.out_plays = here
            if f.passes is None and st.can_pass():
                f.passes = here
            required = st.required
            if len(required) == 1 and st.players_in == self.n and first >= 0:
                f.asked.add((((seat - first) * self.step) % self.n, required[0]))
        elif phase is _CHANCE and len(st.callers()) > 1 and f.lot is None:
            f.lot = here
            f.lot_callers = tuple(sorted(st.callers()))
        elif phase is _RESPOND and st.game.rules.kinds:
            if f.calls_offered is None:
                f.calls_offered = here
            if f.calls_at_once is None and self.rules.calls_at_once and len(self._responders(st)) > 1:
                f.calls_at_once = here
            self.truth(node, st)

    def _responders(self, st: State) -> tuple[int, ...]:
        claimant = st.claimant
        return () if claimant is None else tuple(s for s in range(self.n) if s != claimant and st.is_in(s))

    def truth(self, node: int, st: State) -> None:
        """The largest play made whose cards all pass as its claim (what the cards allow, whatever a call sees)."""
        f = self.x.facts
        play = st.pending_play()
        if play is None:
            return
        rules = self.rules
        if len(play.cards) != play.count:
            return
        passes = rules.passes_as
        if all(play.claim in passes(c) for c in play.cards):
            if f.truly_played is None or play.count > f.truly_played[0]:
                f.truly_played = (play.count, (node, None))

    def edge(self, node: int, before: State, action: Action, after: State) -> None:
        """The facts a step shows."""
        f = self.x.facts
        step: Step = (node, action)
        records = after.records
        if records:
            rec = records[-1]
            self.keep(node, before)
            if rec.taken == 0 and rec.paid and f.void is None:
                f.void = step
            if rec.caught:
                if f.caught is None:
                    f.caught = step
            else:
                if f.survived is None:
                    f.survived = step
                best = f.judged_true.get(rec.kind)
                if best is None or rec.count > best[0]:
                    f.judged_true[rec.kind] = (rec.count, step)
                if f.dead_rank_true is None and before.set_count():
                    rank = rec.claim % self.rules.rank_count
                    if any(r == rank for _, r, _ in before.discarded_sets()):
                        f.dead_rank_true = step
        if f.round_gap is None and after.rule_gaps is not before.rule_gaps:
            new = (after.rule_gaps - before.rule_gaps) & self.round_gaps
            if new:
                self.keep(node, before)
                f.round_gap, f.round_gap_kind = step, min(new, key=lambda g: g.value)
                f.round_gaps_met = after.rule_gaps
        if f.out_regains is None and before.players_in < self.n:
            for seat in range(self.n):
                if not before.is_in(seat) and after.hand_size(seat) > before.hand_size(seat):
                    self.keep(node, before)
                    f.out_regains = step
                    break

    def run(self) -> Exploration:
        x = self.x
        start = time.perf_counter()
        try:
            self._deals()
            x.complete = not x.stopped
        finally:
            x.states = len(x.parent)
            x.seconds = time.perf_counter() - start
        return x

    def _over(self) -> bool:
        x = self.x
        if len(x.parent) > x.budget:
            x.stopped = f"more than {x.budget:,} states"
            return True
        if self.deadline is not None and time.perf_counter() > self.deadline:
            x.stopped = "out of time"
            return True
        return False

    def _deals(self) -> None:
        x = self.x
        for deal in every_deal(self.game):
            x.deals += 1
            st = deal.state.bare_copy()
            first = st.to_act if st.phase is _PLAY else -1
            key, turn = self.positions.key(st, first)
            j = self.index.get(key)
            if j is not None:
                if x.turns:  # a deal met before turned: its games are that node's, turned as far
                    x.turned_deals.setdefault((j, (x.turn[j] - turn) % self.n), deal)
                continue
            root = self.add(st, -1, None, -1, first, turn)
            self.index[key] = root
            x.roots[root] = deal
            if not self._from(root, st, first):
                return

    def _actions(self, st: State) -> list[Action] | None:
        if st.phase is _TERMINAL:
            return []
        try:
            return st.legal_actions()
        except TooManyActions as exc:
            self.x.stopped = f"a seat has {exc.count:,} legal plays"
            return None

    def _from(self, root: int, st: State, first: int) -> bool:
        """Explore every state reachable from `root`; False when the search stopped early."""
        x = self.x
        index, colour, positions = self.index, self.colour, self.positions
        acts = self._actions(st)
        if acts is None:
            return False
        stack: list[tuple[int, State, list[Action], int]] = [(root, st, acts, 0)]
        colour[root] = ON_PATH
        while stack:
            node, here, acts, i = stack[-1]
            if i == len(acts):
                colour[node] = DONE
                stack.pop()
                continue
            stack[-1] = (node, here, acts, i + 1)
            action = acts[i]
            child = here.bare_copy()
            child.apply_action(action)
            x.edges += 1
            self.edge(node, here, action, child)
            key, turn = positions.key(child, first)
            j = index.get(key)
            if j is None:
                if self._over():
                    return False
                j = self.add(child, node, action, here.current_player(), first, turn)
                index[key] = j
                more = self._actions(child)
                if more is None:
                    return False
                if more:
                    colour[j] = ON_PATH
                    stack.append((j, child, more, 0))
                else:
                    colour[j] = DONE
            else:
                # The child is node j's state turned t places (0: the same state).
                t = (x.turn[j] - turn) % self.n if x.turns else 0
                if x.turns:
                    x.turned_steps.append((node, here.current_player(), action, j, t))
                if colour[j] == ON_PATH and x.cycle is None:
                    self.keep(node, here)
                    x.cycle, x.cycle_turn = (j, node, action), t
        return True


def explore(game: Game, budget: int, seconds: float | None = None, origin: bool = False,
            turns: bool | None = None) -> Exploration:
    """Every state reachable at `game`'s table, up to `budget` states (and `seconds`, where given); with
    `origin`, positions count seats from each deal's first player (for seat fairness). With `turns` (by default,
    where every seat is alike and the dealer is drawn by lot: `rotation.worth_turning`) states alike but turned
    round the table are explored once."""
    return _Search(game, budget, seconds, origin, worth_turning(game) if turns is None else turns).run()
