"""The kernel's bots held against the Python bots from the same observed states (issue 40, point 2).

A game is dealt by the Python engine (its own dealing, the turn-start rules applied), played on by the kernel
with its action log (`compiled.replay.play_logged_from`), and replayed by the Python engine, which checks
every action against the rules and the pile and hands after it. At each decision of the replay the Python bot
of that seat, its memory brought to the same point as its `act` would (a `counter` remembers the kernel's own
plays), is asked DRAWS times, each with a fresh random stream, what it would do:

- **exact**: where it gave the same action every time, and the decision is one its rules take without a draw
  (a play or a pass by `greedy`, `honest` or `counter` holding a card of a claim allowed, or passing), the
  kernel must have taken that action;
- **drawn**: everywhere else the kernel's action is one draw from its own bot. Pooled over the decisions:
  how often it equals the Python bot's first answer, against how often the Python bot's other answers do (a
  collision test: equal distributions give equal rates), the cards it put down against the Python answers'
  mean, and how often it challenged against the Python answers' share (apart where half the Python answers
  called every time, never, or sometimes, the share taken from the other half). Each is a sum of independent
  differences with mean 0 when the bots decide alike, held within `SIGMAS` standard deviations.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from cheatdsl.bots import make_bot
from cheatdsl.bots.counter import CounterBot
from cheatdsl.bots.honest import HonestBot
from cheatdsl.compiled.replay import actions_of, play_logged_from
from cheatdsl.compiled.run import CompiledTable
from cheatdsl.engine import CHANCE, Challenge, Game, Pass, Phase, Play, State

DRAWS = 16
SIGMAS = 4.5
RATE = 0.15


@dataclass
class Pooled:
    """A sum of independent differences with mean 0 when the engines' bots decide alike."""

    total: float = 0.0
    variance: float = 0.0
    count: int = 0

    def add(self, difference: float, variance: float) -> None:
        self.total += difference
        self.variance += variance
        self.count += 1

    def within(self, sigmas: float = SIGMAS) -> bool:
        """Whether the sum lies within `sigmas` standard deviations of 0 (one decision's worth of slack)."""
        return abs(self.total) <= sigmas * math.sqrt(self.variance) + 1.0

    def __str__(self) -> str:
        sd = math.sqrt(self.variance)
        return f"{self.total:+.1f} over {self.count} decisions (sd {sd:.1f})"


@dataclass
class Decisions:
    """What the kernel's decisions showed, by bot."""

    exact: int = 0
    mismatches: list[str] = field(default_factory=list)
    same_answer: dict[str, Pooled] = field(default_factory=dict)
    cards: dict[str, Pooled] = field(default_factory=dict)
    calls: dict[str, Pooled] = field(default_factory=dict)
    games: int = 0

    def pooled(self) -> dict[str, Pooled]:
        """Every pooled test by name (`bot: what`)."""
        out: dict[str, Pooled] = {}
        for what, tests in (("same answer", self.same_answer), ("cards put down", self.cards),
                            ("challenges", self.calls)):
            for bot, p in tests.items():
                out[f"{bot}: {what}"] = p
        return out

    def failures(self) -> list[str]:
        """The exact mismatches and the pooled tests outside their bounds, in words."""
        out = list(self.mismatches)
        out += [f"{name}: {p}" for name, p in self.pooled().items() if not p.within()]
        return out


def _mean_var(xs: Sequence[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    return m, sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1)


def _share_variance(hits: int, draws: int) -> float:
    """The variance of one draw less the share `hits / draws` of `draws` more, the chance estimated with half a
    hit and half a miss added, so that a chance no draw showed still counts (a small chance drawn 0 times)."""
    p = (hits + 0.5) / (draws + 1)
    return p * (1 - p) * (1 + 1 / draws)


def _asks(name: str, seat: int, memory_of: CounterBot | None, state: State, draw: int, tag: tuple) -> object:
    """The Python bot `name`'s answer at `state` for `seat` with a fresh random stream."""
    view = state.view(seat)
    rng = random.Random(repr((*tag, draw)))
    if name != "counter":
        return make_bot(name, seat, rng, **({} if name == "random" else {"challenge_rate": RATE})).act(view)
    bot = CounterBot(seat, rng, RATE)
    bot.memory = memory_of.memory if memory_of is not None else None
    bot._remember(view)
    if state.phase is Phase.PLAY:
        return HonestBot.act(bot, view)  # `act` would also note the play in the shared memory
    return bot.act(view)


def _holds_a_claim(state: State, seat: int) -> bool:
    rules = state.game.rules
    hand = state.hand(seat)
    return any(rules.count_matching(hand, frozenset([c])) for c in state.required)


def check_game(game: Game, bots: Sequence[str], seed: int, index: int, out: Decisions,
               kernel_rate: float = RATE) -> None:
    """Deal game `index` with the Python engine, let the kernel play it with `bots`, and hold each of the
    kernel's decisions against the Python bot of its seat (adding to `out`). The replay raises
    `replay.Disagreement` where the kernel broke a rule. `kernel_rate` is the kernel's bots' challenge rate (the
    Python bots' is RATE): another one shows that the check can fail."""
    from cheatdsl.compiled.replay import Disagreement

    table = CompiledTable(game, bots, seed, kernel_rate)
    # Every table and game draws its own deal and its own kernel stream: a stream shared by the tables of a run
    # would make their pooled differences hang together.
    table_tag = (game.rulebook.name, game.players, tuple(bots), seed, index)
    state = game.new_initial_state()
    rng = random.Random(repr(("deal", *table_tag)))
    while state.is_chance_node():
        state.apply_action(state.chance_outcome(rng))
    if state.is_terminal():
        return
    out.games += 1
    stream = int.from_bytes(hashlib.blake2b(repr(("kernel", *table_tag)).encode(), digest_size=8).digest(), "big")
    logged = play_logged_from(table, state.clone(), stream >> 1)
    counters = {s: CounterBot(s, random.Random(s), RATE) for s, b in enumerate(bots) if b == "counter"}
    for i, (seat, action) in enumerate(actions_of(game, logged)):
        if seat == CHANCE:
            state.apply_action(action)
            continue
        if state.current_player() != seat:
            raise Disagreement(f"action {i}: the kernel's seat {seat} acts, the engine's {state.current_player()}")
        name = bots[seat]
        memory = counters.get(seat)
        if memory is not None:
            memory._remember(state.view(seat))  # what `act` does first
        if state.phase in (Phase.PLAY, Phase.RESPOND):
            tag = (*table_tag, i)  # a draw of its own each decision
            answers = [_asks(name, seat, memory, state, k, tag) for k in range(DRAWS)]
            exact = (state.phase is Phase.PLAY and name != "random" and len(set(answers)) == 1
                     and (_holds_a_claim(state, seat) or answers[0] is not None and isinstance(answers[0], Pass)))
            if exact:
                out.exact += 1
                if answers[0] != action:
                    out.mismatches.append(f"{game.rulebook.name} at {game.players}, game {index}, action {i}: "
                                          f"seat {seat} ({name}) did {action}, the Python bot {answers[0]}")
            else:
                same = sum(a == answers[0] for a in answers[1:])
                out.same_answer.setdefault(name, Pooled()).add(float(action == answers[0]) - same / (DRAWS - 1),
                                                               _share_variance(same, DRAWS - 1))
                if state.phase is Phase.PLAY:
                    sizes = [len(a.cards) if isinstance(a, Play) else 0 for a in answers]
                    m, v = _mean_var(sizes)
                    mine = len(action.cards) if isinstance(action, Play) else 0
                    out.cards.setdefault(name, Pooled()).add(mine - m, v * (1 + 1 / DRAWS) + 1e-3)
                else:
                    # Pooled apart by what the Python bot answered in half its draws, so that a kernel that calls
                    # too often where the Python bot never does cannot hide behind one that calls too seldom where it
                    # always does; its share of calls comes from the other half (sorting by the same draws would
                    # expect too few calls where it never called, and too many where it always did).
                    half = DRAWS // 2
                    sorting = sum(isinstance(a, Challenge) for a in answers[:half])
                    calls = sum(isinstance(a, Challenge) for a in answers[half:])
                    bucket = "always" if sorting == half else "never" if sorting == 0 else "sometimes"
                    out.calls.setdefault(f"{name} ({bucket} called)", Pooled()).add(
                        float(isinstance(action, Challenge)) - calls / (DRAWS - half),
                        _share_variance(calls, DRAWS - half))
        state.apply_action(action)
        if memory is not None and isinstance(action, Play):
            memory.memory.played(action)  # type: ignore[union-attr]
