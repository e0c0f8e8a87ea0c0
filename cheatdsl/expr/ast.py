"""The formula tree: frozen nodes, each with the span of its text in the rulebook."""

from __future__ import annotations

from dataclasses import dataclass

from ..source import Span


@dataclass(frozen=True)
class Number:
    """A whole number."""

    value: int
    span: Span


@dataclass(frozen=True)
class Name:
    """A named value: a rank, a suit, a seat role or a fact of the game."""

    name: str
    span: Span


@dataclass(frozen=True)
class CardLiteral:
    """One exact card, such as `ace of hearts`."""

    rank: str
    suit: str
    span: Span


@dataclass(frozen=True)
class Call:
    """A built-in function applied to arguments, such as `next(previous)`."""

    function: str
    args: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True)
class SetOf:
    """A set of claims, such as `{previous, next(previous)}`."""

    items: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True)
class IfThenElse:
    """`if condition then a else b`."""

    condition: Expr
    then: Expr
    otherwise: Expr
    span: Span


@dataclass(frozen=True)
class Arith:
    """Whole-number arithmetic: + - * // %."""

    op: str
    left: Expr
    right: Expr
    span: Span


@dataclass(frozen=True)
class Negate:
    """A negated number."""

    operand: Expr
    span: Span


@dataclass(frozen=True)
class Compare:
    """A comparison of two numbers, or equality of any two values of one type."""

    op: str
    left: Expr
    right: Expr
    span: Span


@dataclass(frozen=True)
class Member:
    """`claim in claims`."""

    item: Expr
    collection: Expr
    span: Span


@dataclass(frozen=True)
class Logic:
    """`a and b and ...` or `a or b or ...`."""

    op: str
    operands: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True)
class Not:
    """`not a`."""

    operand: Expr
    span: Span


Expr = Number | Name | CardLiteral | Call | SetOf | IfThenElse | Arith | Negate | Compare | Member | Logic | Not


def unparse(expr: Expr) -> str:
    """The formula as text the parser reads back to the same tree."""
    if isinstance(expr, Number):
        return str(expr.value)
    if isinstance(expr, Name):
        return expr.name
    if isinstance(expr, CardLiteral):
        return f"{expr.rank} of {expr.suit}"
    if isinstance(expr, Call):
        return f"{expr.function}({', '.join(unparse(a) for a in expr.args)})"
    if isinstance(expr, SetOf):
        return "{" + ", ".join(unparse(a) for a in expr.items) + "}"
    if isinstance(expr, IfThenElse):
        return f"if {unparse(expr.condition)} then {unparse(expr.then)} else {unparse(expr.otherwise)}"
    if isinstance(expr, Arith):
        return f"({unparse(expr.left)} {expr.op} {unparse(expr.right)})"
    if isinstance(expr, Negate):
        return f"-{unparse(expr.operand)}"
    if isinstance(expr, Compare):
        return f"({unparse(expr.left)} {expr.op} {unparse(expr.right)})"
    if isinstance(expr, Member):
        return f"({unparse(expr.item)} in {unparse(expr.collection)})"
    if isinstance(expr, Logic):
        return "(" + f" {expr.op} ".join(unparse(a) for a in expr.operands) + ")"
    return f"(not {unparse(expr.operand)})"


def children(expr: Expr) -> tuple[Expr, ...]:
    """The formulas directly inside `expr`."""
    if isinstance(expr, Call):
        return expr.args
    if isinstance(expr, SetOf):
        return expr.items
    if isinstance(expr, IfThenElse):
        return (expr.condition, expr.then, expr.otherwise)
    if isinstance(expr, (Arith, Compare)):
        return (expr.left, expr.right)
    if isinstance(expr, Member):
        return (expr.item, expr.collection)
    if isinstance(expr, Logic):
        return expr.operands
    if isinstance(expr, (Negate, Not)):
        return (expr.operand,)
    return ()
