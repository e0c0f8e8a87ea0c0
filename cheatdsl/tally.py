"""A run's games as counted: one record a game, and their tally in memory that does not grow with the
number of games. Both engines (the Python one in cheatdsl/simulate, the compiled one in cheatdsl/compiled)
write these, so they sit below both.

Turns per game and cards per pickup are small whole numbers (at most the turn cap and the deck), so
they are kept as histograms: their means, medians, quartiles and percentiles come out exact, and two
tallies merge by adding counts, in any order, to the same result.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

Json = dict[str, Any]


class GameRecord(NamedTuple):
    """One finished game, as the statistics count it (seats are seat numbers)."""

    first: int            # the seat the rules named to play first, even where it won at its turn's start (-1: none)
    winner: int           # -1 when nobody won
    loser: int            # -1 when nobody lost (first-out games, unfinished games)
    capped: bool          # stopped by the turn cap
    stuck: bool           # stopped otherwise: a seat with no legal action, no first player
    turns: int            # plays and passes
    actions: int          # every decision: plays, passes, responses, set discards
    plays: int
    forced: int           # plays by a seat holding nothing that passes as any claim allowed
    challenges: int
    caught: int           # challenges that caught a lie
    pickups: tuple[int, ...]  # cards the loser of each challenge took (none for a wrong call that cost nothing)


@dataclass(frozen=True)
class Spread:
    """Whole numbers (turns a game, cards at a pickup) summed up: mean, median, quartiles, 95th percentile,
    least and most; every one 0 when there were none."""

    mean: float
    median: float
    q1: float
    q3: float
    p95: int
    least: int
    most: int

    def as_json(self) -> Json:
        return {"mean": self.mean, "median": self.median, "q1": self.q1, "q3": self.q3, "p95": self.p95,
                "min": self.least, "max": self.most}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Spread:
        return cls(data["mean"], data["median"], data["q1"], data["q3"], data["p95"], data["min"], data["max"])


EMPTY = Spread(0.0, 0.0, 0.0, 0.0, 0, 0, 0)


@dataclass
class Histogram:
    """How many times each whole number was seen."""

    counts: Counter[int] = field(default_factory=Counter)

    def add(self, value: int) -> None:
        self.counts[value] += 1

    def merge(self, other: Histogram) -> None:
        self.counts.update(other.counts)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def pairs(self) -> tuple[tuple[int, int], ...]:
        """(value, times seen) in value order."""
        return tuple((v, self.counts[v]) for v in sorted(self.counts))

    def nth(self, index: int) -> int:
        """The value at `index` (from 0) of the values in order, as if they were listed one by one."""
        seen = 0
        for value in sorted(self.counts):
            seen += self.counts[value]
            if index < seen:
                return value
        raise IndexError(index)

    def mean(self) -> float:
        n = self.total
        return sum(v * k for v, k in self.counts.items()) / n if n else 0.0

    def median(self) -> float:
        n = self.total
        if not n:
            return 0.0
        if n % 2:
            return float(self.nth(n // 2))
        return (self.nth(n // 2 - 1) + self.nth(n // 2)) / 2

    def percentile(self, q: float) -> int:
        """The nearest-rank percentile, q from 0 to 100; 0 when empty."""
        n = self.total
        if not n:
            return 0
        return self.nth(max(1, math.ceil(q / 100 * n)) - 1)

    def quartiles(self) -> tuple[float, float, float]:
        """The quartiles as `statistics.quantiles(values, n=4, method="inclusive")` gives them."""
        n = self.total
        if n == 0:
            return 0.0, 0.0, 0.0
        if n == 1:
            only = float(self.nth(0))
            return only, only, only
        out = []
        for i in (1, 2, 3):
            j, delta = divmod(i * (n - 1), 4)
            low = self.nth(j)
            high = self.nth(j + 1) if delta else low
            out.append((low * (4 - delta) + high * delta) / 4)
        return out[0], out[1], out[2]

    def spread(self) -> Spread:
        """Mean, median, quartiles, 95th percentile, least and most."""
        if not self.counts:
            return EMPTY
        q1, median, q3 = self.quartiles()
        return Spread(self.mean(), median, q1, q3, self.percentile(95), min(self.counts), max(self.counts))


@dataclass
class Tally:
    """Sums and histograms of a run's games, by seat where it matters."""

    players: int
    games: int = 0
    capped: int = 0
    stuck: int = 0
    actions: int = 0
    plays: int = 0
    forced: int = 0
    challenges: int = 0
    caught: int = 0
    decided: int = 0
    first_wins: int = 0
    turns: Histogram = field(default_factory=Histogram)
    pickups: Histogram = field(default_factory=Histogram)
    wins: list[int] = field(default_factory=list)
    by_position: list[int] = field(default_factory=list)
    losers: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        for seats in (self.wins, self.by_position, self.losers):
            seats.extend([0] * (self.players - len(seats)))

    def add(self, r: GameRecord) -> None:
        """Count one finished (or stopped) game."""
        self.games += 1
        self.capped += r.capped
        self.stuck += r.stuck
        self.actions += r.actions
        self.plays += r.plays
        self.forced += r.forced
        self.challenges += r.challenges
        self.caught += r.caught
        self.turns.add(r.turns)
        for taken in r.pickups:
            self.pickups.add(taken)
        if r.winner >= 0:
            self.decided += 1
            self.wins[r.winner] += 1
            if r.first >= 0:
                self.by_position[(r.winner - r.first) % self.players] += 1
                self.first_wins += r.winner == r.first
        if r.loser >= 0:
            self.losers[r.loser] += 1

    def add_all(self, records: Iterable[GameRecord]) -> Tally:
        for r in records:
            self.add(r)
        return self

    def merge(self, other: Tally) -> None:
        """Add another tally of the same table's games."""
        for name in ("games", "capped", "stuck", "actions", "plays", "forced", "challenges", "caught", "decided",
                     "first_wins"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.turns.merge(other.turns)
        self.pickups.merge(other.pickups)
        for mine, theirs in ((self.wins, other.wins), (self.by_position, other.by_position),
                             (self.losers, other.losers)):
            for seat, k in enumerate(theirs):
                mine[seat] += k
