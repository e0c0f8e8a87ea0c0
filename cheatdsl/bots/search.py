"""`search`: a bot that plays any rulebook by trying its choices on tables drawn to fit its own view.

At each decision with more than one sensible choice it lists a few candidates (see `_plays`),
draws `determinizations` tables (`steering` tables where a claim may be followed by a choice of claims,
see `Budget`) whose hidden cards fit what its seat knows (`search_belief`), and on
each table tries every candidate, then lets `honest` bots play on for `horizon` decisions
(`search_playout`), scoring the result for its seat; it takes the candidate with the best total.
Every candidate meets the same tables and the same playout random numbers, so the comparison is
between choices, not between luck. This is determinized Monte Carlo search (the flat form of
Information Set MCTS, Cowling, Powley and Whitehouse 2012), with an opponent model in the sampling:
the claim awaiting an answer is drawn as a lie as often as the seat's `counter` memory thinks likely,
tempered by how often the table's challenges have caught a lie (`_table_record`).

Certain things it does without searching, as `counter` would: it challenges a claim its memory proves
false, asks a claimant with no card left to show one, and puts out complete sets in the discard phase.
Where a wrong call costs nothing (`challenge.penalty.failed_call: free`) it lists its calls before
accepting, so that a call scoring as well as accepting on every table drawn is made.
Nothing here names a rulebook: the candidates come from the claims the rules allow, the table's own
passing, counts and challenge kinds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..engine import ACCEPT, PASS, Action, Phase, Play, View
from .base import bluff_play, count_to_call, discard_or_keep, pad_to_minimum, play_of
from .counter import CounterBot
from .search_belief import determinize, table_behind
from .search_playout import Playouts, PythonPlayouts

_PLAY, _RESPOND = Phase.PLAY, Phase.RESPOND


class Effort(Enum):
    """How hard the search bot thinks: tables drawn per decision and decisions played on each."""

    LOW = "low"
    DEFAULT = "default"
    HIGH = "high"


@dataclass(frozen=True)
class Budget:
    """Tables drawn per decision and decisions played on after each candidate; `steering` tables instead
    in a game where a claim may be followed by a choice of claims, so that the claim made steers the turns
    after it and each claim allowed brings a candidate of its own (docs/ratings.md, "Effort")."""

    determinizations: int
    horizon: int
    steering: int

    def tables(self, follow_choice: bool) -> int:
        """Tables drawn per decision in a game whose claims may (or may not) be followed by a choice."""
        return self.steering if follow_choice else self.determinizations


# More tables drawn, not longer playouts, is what made the bot stronger (docs/ratings.md, "Effort").
BUDGETS = {Effort.LOW: Budget(4, 30, 4), Effort.DEFAULT: Budget(48, 80, 96), Effort.HIGH: Budget(128, 80, 128)}


def budget_of(effort: str | Effort, determinizations: int | None = None, horizon: int | None = None) -> Budget:
    """The budget of a named effort, with either number given instead (`determinizations` given holds in
    every game, steering or not); ValueError for a bad value."""
    try:
        named = BUDGETS[effort if isinstance(effort, Effort) else Effort(effort)]
    except ValueError:
        raise ValueError(f"effort is one of {', '.join(e.value for e in Effort)}, not {effort!r}") from None
    h = named.horizon if horizon is None else horizon
    for name, n in (("determinizations", determinizations), ("horizon", h)):
        if n is not None and (not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 10_000):
            raise ValueError(f"{name} is a whole number from 1 to 10000, not {n!r}")
    if determinizations is None:
        return Budget(named.determinizations, h, named.steering)
    return Budget(determinizations, h, determinizations)


class SearchBot(CounterBot):
    """Tries its candidates on determinized tables played on by `honest` bots; `counter`'s memory and odds."""

    name = "search"
    options = ("challenge_rate", "effort", "determinizations", "horizon", "playouts", "truthful")

    def __init__(self, seat: int, rng: random.Random, challenge_rate: float = 0.15, effort: str | Effort = "default",
                 determinizations: int | None = None, horizon: int | None = None,
                 playouts: Playouts | None = None, truthful: bool = False, **options: Any) -> None:
        super().__init__(seat, rng, challenge_rate, **options)
        # With `truthful`, it never lies when a truthful play is open (what lying is worth: `rate`'s lie value).
        self.truthful = truthful
        self.budget = budget_of(effort, determinizations, horizon)
        self.playouts: Playouts = playouts if playouts is not None else PythonPlayouts(challenge_rate)
        self.searched = 0  # decisions that were searched (the rest had one sensible choice)
        self._own_top: Play | None = None  # its last play: the cards it knows are on top of the pile

    def act(self, view: View) -> Action:
        memory = self._remember(view)
        phase = view.phase
        if phase is _RESPOND:
            choices, lie = self._responses(view)
        elif phase is _PLAY:
            choices, lie = self._plays(view), 0.0
        else:
            return discard_or_keep(view)
        action = choices[0] if len(choices) == 1 else self._search(view, choices, lie)
        if isinstance(action, Play):
            memory.played(action)
            self._own_top = action
        return action

    # -- the candidates ------------------------------------------------------------------------

    def _responses(self, view: View) -> tuple[list[Action], float]:
        """Accept and each challenge kind, or the one certain answer; with the chance the claim is a lie."""
        challenge = self._challenge
        if challenge is None:
            return [ACCEPT], 0.0
        claimant = view.claimant
        assert claimant is not None
        claim, count, played, last = view.pending  # type: ignore[misc]
        if self._force is not None and (last or self._unmatched(view, claimant, claim) <= 0):
            return [self._force], 1.0
        lie = self.chance_of_lie(view, claimant, claim, count, played)
        if lie >= 1.0:
            return [challenge], 1.0
        odds = min(1.0, lie * self._table_record(view))
        if self._t.rules.failed_call_free:
            # A wrong call costs nothing: the calls come first, so that where one scores as well as accepting on
            # every table drawn (none drew a lie), the seat calls: it may catch a lie no table held.
            return [*view.responses[1:], ACCEPT], odds
        return [ACCEPT, *view.responses[1:]], odds

    def _table_record(self, view: View) -> float:
        """How much likelier than even a challenge at this table has been to catch a lie: the share of
        the game's challenges of other seats' claims that caught one (with one caught and one not
        added), over one half. `counter`'s odds assume a claimant without the card bluffs; where the
        rules let it pass instead, or its bots never bluff, the public record says so."""
        caught = seen = 0
        for r in self.memory.log if self.memory is not None else ():
            if r.claimant != self.seat:
                seen += 1
                caught += r.caught
        return 2.0 * (caught + 1) / (seen + 2)

    def _plays(self, view: View) -> list[Action]:
        """A few plays worth comparing: `honest`'s choice, the whole truth for each claim allowed,
        a bluff of the card it will miss least, the truth with that card slipped in, and a pass."""
        t = self._t
        rules = t.rules
        out: list[Action] = [self._play(view)]
        required = view.required
        hand = self._hand
        if required and view.hand_size >= rules.min_cards:
            state = table_behind(view)
            best, held_best = required[0], -1
            for claim in required[:4]:
                held = t.matching(hand, claim)
                if held > held_best:
                    best, held_best = claim, held
                if held:
                    most = min(held, t.cap)
                    naturals = min(hand[claim] if 0 <= claim < rules.values else 0, most)
                    jokers = min(hand[rules.joker], most - naturals) if rules.wild else 0
                    out.append(pad_to_minimum(view, t.truth(claim, naturals, jokers), self.rng))
            card = self._bluff_card(view, best)
            out.append(t.bluff(card, best) if rules.min_cards <= 1 else bluff_play(view, best, card, self.rng))
            if held_best > 0:
                truth = next((a for a in out[1:] if isinstance(a, Play) and a.claim == best), None)
                if truth is not None and len(truth.cards) < t.cap and hand[card] > truth.cards.count(card):
                    cards = tuple(sorted((*truth.cards, card)))
                    out.append(play_of(cards, best, count_to_call(view.game, len(cards))))
            out = [a for a in out if a is PASS or state.is_legal(a)]
        if view.may_pass:
            out.append(PASS)
        unique: list[Action] = []
        for a in out:
            if a not in unique:
                unique.append(a)
        if self.truthful:
            true = [a for a in unique if a is PASS or (isinstance(a, Play) and self._is_true(a))]
            if true:
                return true
        return unique

    def _is_true(self, play: Play) -> bool:
        """Whether every card of `play` passes as its claim and its count is the cards' (a true play)."""
        passes = self._t.rules.passes_as
        return play.count == len(play.cards) and all(play.claim in passes(c) for c in play.cards)

    # -- the search ----------------------------------------------------------------------------

    def _search(self, view: View, choices: list[Action], lie: float) -> Action:
        """The choice with the best total over the budget's tables (the first of equals)."""
        assert self.memory is not None
        self.searched += 1
        seat, rng, budget, value = self.seat, self.rng, self.budget, self.playouts.value
        totals = [0.0] * len(choices)
        for _ in range(budget.tables(self._t.follow_choice)):
            world = determinize(view, self.memory, lie, rng, self._own_top)
            seed = rng.getrandbits(64)
            for i, action in enumerate(choices):
                trial = world.clone()
                trial.apply_action(action)
                totals[i] += value(trial, seat, budget.horizon, random.Random(seed))
        return choices[max(range(len(choices)), key=totals.__getitem__)]
