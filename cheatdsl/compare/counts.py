"""Formulas that depend only on the table (players, cards, copies), worked out at every player count."""

from __future__ import annotations

from typing import Any, TypeVar

from ..cards import Table
from ..expr import TableFacts
from ..model import Formula, Rulebook

T = TypeVar("T")

# Which facts a table formula at each place may read (docs/language.md, "Each place a formula stands").
PLACES = ("deck", "set_aside", "hand_size", "sets", "players")


def facts(rulebook: Rulebook, players: int, place: str) -> TableFacts:
    """The facts a formula at `place` reads at a table of `players`."""
    if place in ("deck", "players"):
        return TableFacts(players)
    table = Table(rulebook, players)
    if place == "set_aside":
        return TableFacts(players, cards=len(table.deck))
    if place == "hand_size":
        return TableFacts(players, cards=len(table.deck) - table.set_aside)
    return TableFacts(players, copies=table.copies)


def values(rulebook: Rulebook, formula: Formula, place: str,
           counts: range | list[int] | None = None) -> dict[int, Any] | None:
    """The formula's value at each player count (the rulebook's own by default), or None if it cannot be worked out."""
    out: dict[int, Any] = {}
    for n in counts if counts is not None else rulebook.players.counts():
        try:
            out[n] = formula.code(facts(rulebook, n, place))
        except Exception:  # a formula that reads more than the table's facts: no table of values
            return None
    return out


def runs(by_count: dict[int, T]) -> list[tuple[int, int, T]]:
    """Consecutive player counts with the same value: {3: 1, 4: 1, 5: 2} is [(3, 4, 1), (5, 5, 2)]."""
    out: list[tuple[int, int, T]] = []
    for n in sorted(by_count):
        value = by_count[n]
        if out and out[-1][2] == value and out[-1][1] == n - 1:
            out[-1] = (out[-1][0], n, value)
        else:
            out.append((n, n, value))
    return out


def constant(by_count: dict[int, T] | None) -> T | None:
    """The one value a formula has at every count, or None when it varies or is unknown."""
    if not by_count:
        return None
    first = next(iter(by_count.values()))
    return first if all(v == first for v in by_count.values()) else None
