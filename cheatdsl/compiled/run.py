"""Running games on the compiled kernel: the same `GameRecord`s, tally and statistics as the Python engine."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from ..engine import Game
from ..tally import GameRecord, Histogram, Tally
from .support import refusal
from .tables import KernelTables, NotTabulated, TooLarge, build

GREEDY, RANDOM, HONEST, COUNTER = 0, 1, 2, 3  # common.GREEDY, ... (the kernel's modules import numba)
_POLICIES = {"greedy": GREEDY, "random": RANDOM, "honest": HONEST, "counter": COUNTER}

_SEED_MASK = (1 << 64) - 1
_PICKUP_ROOM = 1 << 16  # pickups a batch of games may write before the batch stops early


class Refused(ValueError):
    """The kernel does not play this table with these bots; the message says why, naming --engine python."""


class RefusedForMemory(Refused):
    """The kernel would play these rules, but its tables for this table would take more memory than they may."""


def unsupported(game: Game, bots: Sequence[str]) -> str | None:
    """Why the kernel cannot play `game` with these bots (a sentence naming --engine python), or None. A
    caller that goes on to play should make the `CompiledTable` and catch `Refused` instead: the tables are
    then built once."""
    try:
        CompiledTable(game, bots, 0, 0.0)
    except Refused as exc:
        return str(exc)
    return None


class CompiledTable:
    """A run's fixed settings as kernel tables; `play(first, stop)` gives the games' records in order."""

    def __init__(self, game: Game, bots: Sequence[str], seed: int, challenge_rate: float) -> None:
        rules = game.rules
        why = refusal(rules, bots)
        if why is not None:
            raise Refused(why)
        try:
            self.tables: KernelTables = build(rules, game)
        except NotTabulated as exc:
            raise Refused(f"the compiled engine does not play {exc}: use --engine python") from None
        except TooLarge as exc:
            raise RefusedForMemory(f"{exc}: use --engine python") from None
        self.game = game
        self.bots = tuple(bots)
        self.seed = seed
        self.challenge_rate = challenge_rate
        # The random bot picks one of its responses (accept, or the one challenge kind) uniformly.
        self.rates = np.array([0.5 if b == "random" else challenge_rate for b in bots], dtype=np.float64)
        self.policies = np.array([_POLICIES[b] for b in bots], dtype=np.int64)

    def play(self, first: int, stop: int) -> list[GameRecord]:
        """Games first..stop-1 of the run, in order."""
        return list(self.records(first, stop))

    def tally(self, first: int, stop: int) -> Tally:
        """The tally of games first..stop-1, counted from the kernel's arrays without a record a game."""
        from collections import Counter

        from .common import ACTIONS, CAPPED, CAUGHT, CHALLENGES, FIRST, FORCED, LOSER, PLAYS, STUCK, TURNS, WINNER
        n = self.tables.rules.players
        tally = Tally(n)
        for rows, taken in self._batches(first, stop):
            won = rows[:, WINNER] >= 0
            winners = rows[won, WINNER]
            firsts = rows[won, FIRST]
            part = Tally(n, games=len(rows), capped=int(rows[:, CAPPED].sum()), stuck=int(rows[:, STUCK].sum()),
                         actions=int(rows[:, ACTIONS].sum()), plays=int(rows[:, PLAYS].sum()),
                         forced=int(rows[:, FORCED].sum()), challenges=int(rows[:, CHALLENGES].sum()),
                         caught=int(rows[:, CAUGHT].sum()), decided=int(won.sum()),
                         first_wins=int((winners == firsts).sum()),
                         turns=Histogram(Counter(dict(zip(*(a.tolist() for a in np.unique(rows[:, TURNS],
                                                                                            return_counts=True)))))),
                         pickups=Histogram(Counter({v: k for v, k in enumerate(np.bincount(taken).tolist()) if k})),
                         wins=np.bincount(winners, minlength=n).tolist(),
                         losers=np.bincount(rows[rows[:, LOSER] >= 0, LOSER], minlength=n).tolist(),
                         by_position=np.bincount((winners - firsts) % n, minlength=n).tolist())
            tally.merge(part)
        return tally

    def _batches(self, first: int, stop: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """The kernel's record rows and pickups for games first..stop-1, a batch at a time."""
        from .common import PICKUPS, RECORD_WIDTH
        from .kernel import play_games
        t = self.tables
        pickups = np.zeros(max(_PICKUP_ROOM, 2 * t.rules.turn_cap), dtype=np.int64)
        while first < stop:
            rows = np.zeros((stop - first, RECORD_WIDTH), dtype=np.int64)
            done = play_games(t, np.uint64(self.seed & _SEED_MASK), first, stop - first, self.rates, self.policies,
                              rows, pickups)
            rows = rows[:done]
            yield rows, pickups[:int(rows[:, PICKUPS].sum())].copy()
            first += done

    def records(self, first: int, stop: int) -> Iterator[GameRecord]:
        """Games first..stop-1 of the run, in order, played in batches."""
        from .common import CAPPED, FIRST, LOSER, PICKUPS, STUCK, WINNER
        for rows, pickups in self._batches(first, stop):
            at = 0
            for row in rows.tolist():
                taken = tuple(pickups[at:at + row[PICKUPS]].tolist())
                at += row[PICKUPS]
                yield GameRecord(row[FIRST], row[WINNER], row[LOSER], bool(row[CAPPED]), bool(row[STUCK]),
                                 *row[CAPPED + 2:PICKUPS], taken)
