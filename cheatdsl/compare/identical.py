"""Rulebooks whose simulated games came out identical, and the rules that differ without changing them.

Two columns played identical games when their statistics are equal once the rulebook's name, how it
was named, its variations and the number of worker processes are left out (every count, every game's
length, every seat's wins). The rules that differ between them are found as `cheatdsl diff` finds them; a reason is given only where
one can be shown (a range of player counts that holds the table, a table formula with the same value
at this count); the other differences are said to have changed none of these games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..model import Formula, Rulebook
from ..simulate import Statistics
from . import counts
from .diff import diff
from .meaning import TABLE_PLACES

if TYPE_CHECKING:
    from .statistics import Simulated


def fingerprint(d: Simulated) -> Statistics | None:
    """The statistics that make the games, without the names; None for a column with no games."""
    if not isinstance(d, Statistics) or not d.games:
        return None
    return replace(d, settings=replace(d.settings, rulebook="", reference="", variations=(), jobs=1))


def groups(data: Sequence[Simulated]) -> list[list[int]]:
    """Columns (by index) with identical statistics, in groups of two or more, in column order."""
    found: dict[Statistics, list[int]] = {}
    for i, d in enumerate(data):
        key = fingerprint(d)
        if key is not None:
            found.setdefault(key, []).append(i)
    return [g for g in found.values() if len(g) > 1]


def _value(rb: Rulebook, path: str) -> Any:
    obj: Any = rb
    for part in path.split("."):
        obj = getattr(obj, part, None)
    return obj


def _why(field: str, a: Rulebook, b: Rulebook, players: int) -> str:
    """Why a changed field makes no difference at `players` seats, or "" when that cannot be shown."""
    if field == "players":
        if players in a.players.counts() and players in b.players.counts():
            return f"the range of player counts differs, and each allows the {players} played here"
        return ""
    place = TABLE_PLACES.get(field)
    fa, fb = _value(a, field), _value(b, field)
    if place and isinstance(fa, Formula) and isinstance(fb, Formula):
        va, vb = counts.values(a, fa, place, [players]), counts.values(b, fb, place, [players])
        if va is not None and va == vb:
            return f"`{field}` differs only at other player counts: {va[players]} in each at {players} players"
    return ""


def differences(rulebooks: Sequence[Rulebook], players: int) -> tuple[list[str], list[str]]:
    """The rule dimensions that differ within a group: (those with a reason, as sentences; those without)."""
    first = rulebooks[0]
    reasons: dict[str, list[str]] = {}
    for other in rulebooks[1:]:
        for change in diff(first, other).changes:
            reasons.setdefault(change.label, []).append(_why(change.field, first, other, players))
    shown = [f"{label} ({why[0]})" for label, why in reasons.items() if all(why) and len(set(why)) == 1]
    bare = [label for label, why in reasons.items() if not (all(why) and len(set(why)) == 1)]
    return shown, bare


def names(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def sentence(headings: Sequence[str], rulebooks: Sequence[Rulebook | None], players: int, bots: str) -> str:
    """One finding: these columns played identical games, which of their rules differ, and why that did not matter."""
    out = (f"{names(headings)} played identical games here: every statistic alike, down to each game's length "
           f"and each seat's wins, at {players} players between {bots} bots.")
    if any(rb is None for rb in rulebooks):
        return out + " Their rules could not be set side by side."
    shown, bare = differences([rb for rb in rulebooks if rb is not None], players)
    if not shown and not bare:
        return out + " No rule differs between them: they are one game."
    if shown:
        out += " Rules that differ without changing play at this table: " + "; ".join(shown) + "."
    if bare:
        said = "the rules" if not shown else "the other rules"
        out += f" {said.capitalize()} that differ ({', '.join(bare)}) did not change any of these games."
    return out
