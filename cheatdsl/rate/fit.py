"""Ratings from a ladder's games: a Plackett-Luce fit by maximum likelihood, and its bootstrap.

A game of the family tells who won (first out) or who lost (last holding cards): one choice among the
seats, the first choice of a Plackett-Luce ranking. With strengths g, the chance that entrant i wins
a game among the set T is g_i / sum(g_T); in a last-holder-loses game, the chance that i loses is
(1/g_i) / sum(1/g_T). The fit maximises the likelihood of every decided game by Hunter's (2004)
minorize-maximize steps, with one half-won game of each entrant against a reference of strength 1
(so an entrant that never won keeps a finite rating). Unlike an online update (openskill, Elo) the
result does not depend on the order of the games, and a bootstrap of the games gives its intervals.

Ratings are printed on the Elo scale, 400 * log10(g), the mean entrant at 0.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .matches import Match

Outcome = tuple[tuple[int, ...], int, bool]  # (the entrants at the table, sorted; the one chosen; chosen as loser)
PRIOR = 0.5  # half a game won against a reference of strength 1, for every entrant
STEPS = 500
TOLERANCE = 1e-9


class Fit(NamedTuple):
    """Strengths of the entrants (geometric mean 1) and the Elo-scale ratings."""

    strengths: tuple[float, ...]

    @property
    def ratings(self) -> tuple[float, ...]:
        return tuple(400.0 * math.log10(g) for g in self.strengths)

    def spread(self) -> float:
        """The strongest entrant's rating less the weakest's, in Elo points (unbounded, unlike the skill index)."""
        r = self.ratings
        return max(r) - min(r)

    def skill_index(self) -> float:
        """2P - 1, where P is the chance the strongest entrant beats the weakest head to head: 0 for a coin flip."""
        hi, lo = max(self.strengths), min(self.strengths)
        return 2.0 * hi / (hi + lo) - 1.0


def outcomes(matches: Sequence[Match]) -> list[Outcome]:
    """The decided games as outcomes (unfinished games tell nothing about strength)."""
    out: list[Outcome] = []
    for m in matches:
        table = tuple(sorted(m.entrants))  # an entrant at two seats has two chances
        if m.winner >= 0:
            out.append((table, m.entrants[m.winner], False))
        elif m.loser >= 0:
            out.append((table, m.entrants[m.loser], True))
    return out


def fit(games: Sequence[Outcome], entrants: int) -> Fit:
    """The maximum-likelihood strengths of `entrants` entrants from `games`.

    A rulebook's games all choose a winner or all choose a loser; a loser is the first choice of the
    weaknesses 1/g, so both are fitted by the same steps (on weaknesses for losers, then inverted).
    """
    losers = any(as_loser for _, _, as_loser in games)
    g = _choice_fit(Counter((table, who) for table, who, _ in games), entrants)
    return Fit(tuple(1.0 / x for x in g) if losers else tuple(g))


def _choice_fit(counts: Counter[tuple[tuple[int, ...], int]], entrants: int) -> list[float]:
    """Hunter's MM steps for first choices: g_i <- (chosen_i + prior) / sum over i's tables of 1/sum(g)."""
    g = [1.0] * entrants
    tables = Counter()  # type: Counter[tuple[int, ...]]
    chosen = [PRIOR] * entrants
    for (table, who), k in counts.items():
        tables[table] += k
        chosen[who] += k
    for _ in range(STEPS):
        exposure = [PRIOR * 2.0 / (x + 1.0) for x in g]  # the reference game: one game, half of it won
        for table, k in tables.items():
            share = k / sum(g[j] for j in table)
            for j in table:
                exposure[j] += share
        new = [c / e for c, e in zip(chosen, exposure)]
        mean = math.exp(sum(math.log(x) for x in new) / entrants)
        new = [x / mean for x in new]
        done = max(abs(a - b) for a, b in zip(new, g)) < TOLERANCE
        g = new
        if done:
            break
    return g


def bootstrap(games: Sequence[Outcome], entrants: int, samples: int, rng: random.Random,
              groups: Sequence[int] | None = None) -> list[Fit]:
    """Fits of `samples` resamples of the games, drawn with replacement; with `groups` (each game's group: the
    deal it was dealt from), whole groups are drawn, so that games that hang together stay together."""
    if not games:
        return []
    by: dict[int, list[Outcome]] = {}
    for i, g in enumerate(games):
        by.setdefault(groups[i] if groups is not None else i, []).append(g)
    blocks = list(by.values())
    return [fit([g for _ in blocks for g in blocks[rng.randrange(len(blocks))]], entrants) for _ in range(samples)]


@dataclass(frozen=True)
class Estimate:
    """A figure with its 95% interval."""

    value: float
    low: float
    high: float

    def as_json(self) -> dict[str, float | None]:
        return {k: (None if v != v else round(v, 4)) for k, v in (("value", self.value), ("low", self.low),
                                                                    ("high", self.high))}


def interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """The central `level` share of `values` (percentile bootstrap interval)."""
    s = sorted(values)
    if not s:
        return (math.nan, math.nan)
    lo = s[int(math.floor((1 - level) / 2 * (len(s) - 1)))]
    hi = s[int(math.ceil((1 + level) / 2 * (len(s) - 1)))]
    return (lo, hi)
