"""What differs beyond chance between a sweep's cells, in one sentence: each cell set against the first.

A figure is said to differ only where the difference of the two cells' figures has a 95% interval that leaves
out 0 (`cheatdsl.compare.chance`, as `compare` marks its rows): game length, the first player's share of wins,
the share of challenges that caught a lie, and, for rated cells, the skill edge, the luck share and the lie
value. The summary leads the sweep's report; a sweep whose cells differ in nothing beyond chance says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..compare import chance
from ..rate.headline import figure_in
from ..simulate import Statistics

Pick = Callable[[Statistics | None, Mapping[str, Any]], chance.Figure | None]


def _turns(sim: Statistics | None, _: Mapping[str, Any]) -> chance.Figure | None:
    return chance.mean_of(sim.turns_histogram) if sim is not None else None


def _first(sim: Statistics | None, _: Mapping[str, Any]) -> chance.Figure | None:
    return chance.share(sim.first_player.wins, sim.first_player.games) if sim is not None else None


def _caught(sim: Statistics | None, _: Mapping[str, Any]) -> chance.Figure | None:
    if sim is None:
        return None
    c = sim.challenges
    return chance.share(c.caught, c.total, independent=sim.games)


def _rated(key: str) -> Pick:
    def pick(_: Statistics | None, rating: Mapping[str, Any]) -> chance.Figure | None:
        figure = figure_in(rating, key)
        if not figure or figure.get("value") is None or figure.get("low") is None:
            return None
        return chance.from_interval(figure["value"], figure["low"], figure["high"])
    return pick


# (name in the sentence, the figure, how it is written)
FIGURES: tuple[tuple[str, Pick, str], ...] = (
    ("games last", _turns, "{:.0f} turns"),
    ("the first player wins", _first, "{:.0%}"),
    ("challenges catch a lie", _caught, "{:.0%}"),
    ("skill edge", _rated("skill_edge"), "{:+.2f}"),
    ("luck share", _rated("luck_share"), "{:.2f}"),
    ("lie value", _rated("lie_value"), "{:+.2f}"),
)


def differences(names: Sequence[str], sims: Sequence[Statistics | None],
                ratings: Sequence[Mapping[str, Any]]) -> str:
    """One sentence: for each cell after the first, the figures that differ from the first cell's beyond chance."""
    if len(names) < 2:
        return ""
    parts = []
    for i in range(1, len(names)):
        said = []
        for words, pick, form in FIGURES:
            a, b = pick(sims[0], ratings[0]), pick(sims[i], ratings[i])
            if a is not None and b is not None and chance.apart(a, b):
                said.append(f"{words} {form.format(b.value)} against {form.format(a.value)}")
        if said:
            parts.append(f"{names[i]}: " + ", ".join(said))
    if not parts:
        return (f"No figure of any cell differs from {names[0]}'s beyond chance (95% intervals of the "
                "differences).")
    return (f"Beyond chance, against {names[0]} (95% intervals of the differences): " + "; ".join(parts) + ".")
