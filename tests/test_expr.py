"""Rule formulas: parsed by our grammar, checked for names and kinds, computed by our closures."""

from __future__ import annotations

import pytest

from cheatdsl.diagnostics import Diagnostics
from cheatdsl.expr import Scope, Type, check_expression, compile_expression, parse_expression
from cheatdsl.expr.ast import unparse
from cheatdsl.source import Span

RANKS = {name: i for i, name in enumerate(["ace", "two", "three", "four", "five", "six", "seven", "eight",
                                           "nine", "ten", "jack", "queen", "king"])}
RANKS.update({"aces": 0, "sevens": 6, "kings": 12})
AT = Span("t.yaml", 4, 11)


def scope(**variables: Type) -> Scope:
    return Scope(variables=dict(variables), ranks=RANKS, suits={"clubs": 0, "hearts": 2}, rank_count=13)


class Ctx:
    """A tiny context: thirteen ranks in a wrapping cycle, four seats round a table."""

    all_claims = frozenset(range(13))

    def __init__(self, **facts: object) -> None:
        self.__dict__.update(facts)

    def next_claim(self, c: int) -> int:
        return (c + 1) % 13

    def prev_claim(self, c: int) -> int:
        return (c - 1) % 13

    def above(self, c: int) -> frozenset[int]:
        return frozenset(range(c + 1, 13))

    def below(self, c: int) -> frozenset[int]:
        return frozenset(range(c))

    def left(self, s: int) -> int:
        return (s + 1) % 4

    def right(self, s: int) -> int:
        return (s - 1) % 4

    def seat(self, n: int) -> int:
        return n

    def holder(self, card: int) -> int:
        return card % 4

    def holds(self, claims: frozenset[int]) -> int:
        return sum(1 for c in getattr(self, "hand_cards", ()) if c in claims)


def run(text: str, wanted: Type, sc: Scope, **facts: object) -> object:
    d = Diagnostics()
    expr = parse_expression(text, AT, d)
    assert expr is not None, d.render()
    assert check_expression(expr, wanted, sc, d, "test"), d.render()
    return compile_expression(expr, sc)(Ctx(**facts))


@pytest.mark.parametrize(
    "text,facts,expected",
    [
        ("next(previous)", {"previous": 12}, 0),  # seed 000: after K comes A again
        ("prev(previous)", {"previous": 0}, 12),  # seed 001 counting down: ace, king, queen
        ("{prev(previous), next(previous)}", {"previous": 9}, frozenset({8, 10})),  # up or down: after tens, 9s or jacks
        ("{previous, prev(previous), next(previous)}", {"previous": 9}, frozenset({8, 9, 10})),  # same again
        ("aces", {}, 0),
        ("any", {}, frozenset(range(13))),
        ("above(previous)", {"previous": 10}, frozenset({11, 12})),
    ],
)
def test_claim_formulas(text: str, facts: dict[str, object], expected: object) -> None:
    """The claim formulas the shipped profiles use compute the claims the sources state."""
    assert run(text, Type.CLAIMS, scope(previous=Type.CLAIM), **facts) == expected


def test_seat_formula_after_a_challenge() -> None:
    """One rank a round (seed 001): wrong rank, the challenger leads; right rank, the claimant leads."""
    sc = scope(claimant=Type.SEAT, challenger=Type.SEAT, caught=Type.BOOL)
    text = "if caught then challenger else claimant"
    assert run(text, Type.SEAT, sc, claimant=1, challenger=3, caught=True) == 3
    assert run(text, Type.SEAT, sc, claimant=1, challenger=3, caught=False) == 1
    assert run("left(claimant)", Type.SEAT, sc, claimant=3, challenger=0, caught=False) == 0


def test_turn_start_win_formula() -> None:
    """Seed 001: you win when your turn comes holding one card of the rank in play, or one card with the lead."""
    sc = scope(hand=Type.NUMBER, leading=Type.BOOL, required=Type.CLAIMS)
    text = "hand == 1 and (leading or holds(required) == 1)"
    assert run(text, Type.BOOL, sc, hand=1, leading=False, required=frozenset({6}), hand_cards=(6,)) is True
    assert run(text, Type.BOOL, sc, hand=1, leading=False, required=frozenset({6}), hand_cards=(5,)) is False
    assert run(text, Type.BOOL, sc, hand=1, leading=True, required=frozenset({6}), hand_cards=(5,)) is True
    assert run(text, Type.BOOL, sc, hand=2, leading=True, required=frozenset({6}), hand_cards=(5, 6)) is False


def test_arithmetic_and_card_literal() -> None:
    """Packs by player count (seed 001 big table) and exact cards (Mogeln's ace of hearts)."""
    assert run("if players >= 5 then 2 else 1", Type.NUMBER, scope(players=Type.NUMBER), players=5) == 2
    assert run("players + 2", Type.NUMBER, scope(players=Type.NUMBER), players=4) == 6
    assert run("7 // 2 - -1", Type.NUMBER, scope()) == 4
    sc = Scope(variables={}, ranks=RANKS, suits={"clubs": 0, "hearts": 2}, claims_are_cards=True, rank_count=13)
    assert run("ace of hearts", Type.CLAIM, sc) == 26


@pytest.mark.parametrize(
    "text,wanted,code,fragment",
    [
        ("nxt(previous)", Type.CLAIMS, "E113", "did you mean `next`?"),
        ("previos", Type.CLAIMS, "E110", "did you mean `previous`?"),
        ("next(previous, previous)", Type.CLAIMS, "E114", "takes 1"),
        ("previous + 1", Type.CLAIMS, "E111", "must be a number"),
        ("if previous then aces else kings", Type.CLAIMS, "E111", "must be true or false"),
        ("aces", Type.SEAT, "E111", "must be a seat"),
        ("ace of hats", Type.CLAIM, "E110", "unknown suit"),
        ("hearts", Type.CLAIMS, "E112", "is a suit"),
        ("next(", Type.CLAIMS, "E105", "ends too early"),
        ("previous $ 2", Type.CLAIMS, "E104", "unexpected character"),
        ("", Type.CLAIMS, "E103", "empty"),
    ],
)
def test_formula_errors(text: str, wanted: Type, code: str, fragment: str) -> None:
    """Every formula mistake is a located diagnostic with a stable code."""
    d = Diagnostics()
    expr = parse_expression(text, AT, d)
    if expr is not None:
        check_expression(expr, wanted, scope(previous=Type.CLAIM), d, "test")
    assert any(x.code == code and (fragment in x.message or fragment in x.hint) for x in d.items), d.render()
    assert all(x.span.line == 4 and x.span.column >= 11 for x in d.items)


def test_error_column_points_inside_the_formula() -> None:
    """The caret lands on the bad name, not the start of the formula."""
    d = Diagnostics()
    expr = parse_expression("{previous, nxet(previous)}", AT, d)
    assert expr is not None
    check_expression(expr, Type.CLAIMS, scope(previous=Type.CLAIM), d, "test")
    assert d.items[0].span.column == 11 + len("{previous, ")


def test_deep_nesting_is_refused_not_recursed() -> None:
    """Formulas nested thousands deep give a diagnostic, never a RecursionError."""
    d = Diagnostics()
    assert parse_expression("(" * 5000 + "1" + ")" * 5000, AT, d) is None
    assert d.items[0].code in ("E101", "E102")
    d = Diagnostics()
    assert parse_expression("not " * 300 + "true", AT, d) is None or not d.has_errors()


def test_unparse_round_trips() -> None:
    """The canonical text of a formula reads back to the same canonical text."""
    for text in ["if caught then challenger else left(claimant)", "{previous, next(previous)}",
                 "hand == 1 and (leading or holds(required) == 1)", "not (players in any)", "-3 + 4 * 2"]:
        d = Diagnostics()
        first = parse_expression(text, AT, d)
        assert first is not None
        again = parse_expression(unparse(first), AT, d)
        assert again is not None and unparse(again) == unparse(first)
