"""Whether two formulas mean the same: by canonical text up to order, then, where cheap, by their values.

`{next(previous), prev(previous)}` and `{prev(previous), next(previous)}` are one rule; so are
`if players >= 5 then 2 else 1` and `1` for a game of two to four. Formulas about seats and hands
are compared by their text only.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..cards import ClaimSpace, Table, as_claims
from ..expr import ClaimFacts
from ..expr.ast import Expr, Logic, SetOf, unparse
from ..model import ClaimKind, Formula, Rulebook
from . import counts

# Where a formula stands, and how its values can be worked out without a game in progress.
TABLE_PLACES = {"deck.packs": "deck", "deck.ranks_used": "deck", "deal.set_aside": "set_aside",
                "deal.hand_size": "hand_size", "sets.size": "sets", "challenge.allowed_when": "players"}
CLAIM_PLACES = ("claim.first", "claim.follow", "claim.lead")


def normal(expr: Expr) -> str:
    """The canonical text with the members of sets and the operands of and/or in a fixed order."""
    return unparse(_rebuild(expr))


def _rebuild(expr: Expr) -> Expr:
    """`expr` with every set and and/or below it put in normal order (so unparse gives the normal text)."""
    if isinstance(expr, SetOf):
        return replace(expr, items=tuple(sorted((_rebuild(i) for i in expr.items), key=normal)))
    if isinstance(expr, Logic):
        return replace(expr, operands=tuple(sorted((_rebuild(o) for o in expr.operands), key=normal)))
    fields: dict[str, Any] = {}
    for name in ("args", "items", "operands"):
        if hasattr(expr, name):
            fields[name] = tuple(_rebuild(c) for c in getattr(expr, name))
    for name in ("condition", "then", "otherwise", "left", "right", "item", "collection", "operand"):
        if hasattr(expr, name):
            fields[name] = _rebuild(getattr(expr, name))
    return replace(expr, **fields) if fields else expr


def _name(rb: Rulebook, value: int) -> str:
    """A claim value as the rank's symbol (or the card's rank and suit), the same in any rulebook."""
    r = len(rb.deck.ranks)
    if rb.claim.kind is ClaimKind.CARD:
        return f"{rb.deck.ranks[value % r].symbol} {rb.deck.suits[value // r].name}"
    return rb.deck.ranks[value].symbol


def _claim_names(rb: Rulebook, values: Any) -> frozenset[str]:
    return frozenset(_name(rb, v) for v in as_claims(values))


def _same_claims(a_rb: Rulebook, a: Formula, b_rb: Rulebook, b: Formula, players: list[int]) -> bool | None:
    """Whether two claim formulas allow the same claims after every claim, at every count; None if unknown."""
    for n in players:
        try:
            sa, sb = ClaimSpace(Table(a_rb, n)), ClaimSpace(Table(b_rb, n))
            if a_rb.claim.kind is not b_rb.claim.kind or \
                    [_name(a_rb, v) for v in sa.order] != [_name(b_rb, v) for v in sb.order]:
                return None
            for prev_a, prev_b in [(None, None), *zip(sa.order, sb.order)]:
                if _claim_names(a_rb, a.code(ClaimFacts(sa, n, prev_a))) != \
                        _claim_names(b_rb, b.code(ClaimFacts(sb, n, prev_b))):
                    return False
        except Exception:  # a formula that cannot be worked out without a game: no verdict by value
            return None
    return True


def same(a_rb: Rulebook, a: Formula | None, b_rb: Rulebook, b: Formula | None, place: str) -> bool:
    """Whether formula `a` of `a_rb` and `b` of `b_rb`, standing at `place`, make the same rule."""
    if a is None or b is None:
        return a is b
    if a.canonical == b.canonical or normal(a.expr) == normal(b.expr):
        return True
    players = sorted(set(a_rb.players.counts()) | set(b_rb.players.counts()))
    if place in TABLE_PLACES:
        where = TABLE_PLACES[place]
        va, vb = counts.values(a_rb, a, where, players), counts.values(b_rb, b, where, players)
        return va is not None and va == vb
    if place in CLAIM_PLACES:
        return _same_claims(a_rb, a, b_rb, b, players) is True
    return False
