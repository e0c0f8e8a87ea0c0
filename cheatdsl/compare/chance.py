"""Whether two columns' figures differ beyond chance: the difference of two figures with its own 95% interval.

A comparison marks a statistic or a rating as different only where the difference between some two columns
has a 95% interval that leaves out 0: two shares by the normal interval of a difference of proportions, two
means by their standard errors, and two figures that come with their own 95% intervals (the ratings) by
half-widths added in quadrature (each interval's half-width taken as 1.96 standard errors). Counts a game
(challenges, forced bluffs) are taken as Poisson, whose variance is their mean: a rough interval, said so. A
figure of many events a game (the share of challenges that catch a lie, the cards at a pickup) counts games,
not events, as its independent draws.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..tally import Spread

Z95 = 1.96


@dataclass(frozen=True)
class Figure:
    """A figure and its standard error (None: no figure in this column)."""

    value: float
    error: float


def share(hits: int, trials: int, independent: int | None = None) -> Figure | None:
    """A share of `trials`, with the standard error of a proportion (none without a trial). Where the trials come
    in `independent` groups that may hang together (the challenges of one game), the error counts the groups,
    not the trials: wider, so that no difference is marked on the strength of one game's many challenges."""
    if trials <= 0:
        return None
    p = hits / trials
    n = min(trials, independent) if independent else trials
    return Figure(p, math.sqrt(max(p * (1 - p), 0.25 / trials) / n))


def mean_of(histogram: Sequence[tuple[int, int]]) -> Figure | None:
    """The mean of whole numbers given as (value, times) pairs, with its standard error."""
    n = sum(k for _, k in histogram)
    if n <= 1:
        return None
    mean = sum(v * k for v, k in histogram) / n
    var = sum(k * (v - mean) ** 2 for v, k in histogram) / (n - 1)
    return Figure(mean, math.sqrt(var / n))


def spread_mean(spread: Spread, count: int) -> Figure | None:
    """The mean of `count` whole numbers known by their quartiles, its standard error from the spread between
    them (a normal law's quartiles lie 1.349 standard deviations apart)."""
    if count <= 1:
        return None
    return Figure(spread.mean, max((spread.q3 - spread.q1) / 1.349, 0.5) / math.sqrt(count))


def rate(total: int, games: int) -> Figure | None:
    """Events a game, taken as Poisson: the standard error of the mean is sqrt(total) / games."""
    if games <= 0:
        return None
    return Figure(total / games, math.sqrt(max(total, 1)) / games)


def from_interval(value: float, low: float, high: float) -> Figure:
    """A figure given with its 95% interval."""
    return Figure(value, max(high - value, value - low, 0.0) / Z95)


def apart(a: Figure | None, b: Figure | None) -> bool:
    """Whether the difference of two figures has a 95% interval that leaves out 0."""
    if a is None or b is None:
        return False
    return abs(a.value - b.value) > Z95 * math.hypot(a.error, b.error)


def any_apart(figures: Sequence[Figure | None]) -> bool:
    """Whether some two of the columns' figures differ beyond chance."""
    return any(apart(a, b) for i, a in enumerate(figures) for b in figures[i + 1:])
