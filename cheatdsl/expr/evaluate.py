"""Turning a checked formula into a plain Python closure, compiled once and called many times.

A closure takes one argument, the context: an object with the formula's variables as attributes
and the built-in functions as methods (`context.FormulaContext`). Each back end supplies a context
implementing that protocol; the formula means the same in all of them.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from . import ast
from .context import FormulaContext
from .types import FUNCTIONS, Scope

Closure = Callable[[FormulaContext], Any]

_ARITH: dict[str, Callable[[int, int], int]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "//": lambda a, b: a // b if b else 0,
    "%": lambda a, b: a % b if b else 0,
}
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}



def _as_set(value: Any) -> frozenset[int]:
    if isinstance(value, frozenset):
        return value
    return frozenset() if value is None else frozenset((value,))


def compile_expression(expr: ast.Expr, scope: Scope) -> Closure:
    """A closure computing `expr` in a context; `expr` must have passed `check_expression`."""
    if isinstance(expr, ast.Number):
        value = expr.value
        return lambda c: value
    if isinstance(expr, ast.Name):
        name = expr.name
        if name in scope.variables:
            return operator.attrgetter(name)
        if name == "any":
            return operator.attrgetter("all_claims")
        if name in ("true", "false"):
            truth = name == "true"
            return lambda c: truth
        rank = scope.ranks[name]
        return lambda c: rank
    if isinstance(expr, ast.CardLiteral):
        card = scope.suits[expr.suit] * scope.rank_count + scope.ranks[expr.rank]
        return lambda c: card
    if isinstance(expr, ast.Call):
        args = [compile_expression(a, scope) for a in expr.args]
        if expr.function in ("min", "max"):
            pick = min if expr.function == "min" else max
            a0, a1 = args
            return lambda c: pick(a0(c), a1(c))
        method = FUNCTIONS[expr.function].method
        (arg,) = args
        if expr.function == "holds":
            return lambda c: c.holds(_as_set(arg(c)))
        return lambda c: getattr(c, method)(arg(c))
    if isinstance(expr, ast.SetOf):
        items = [compile_expression(i, scope) for i in expr.items]
        return lambda c: frozenset(v for v in (i(c) for i in items) if v is not None)
    if isinstance(expr, ast.IfThenElse):
        cond, then, otherwise = (compile_expression(x, scope) for x in (expr.condition, expr.then, expr.otherwise))
        return lambda c: then(c) if cond(c) else otherwise(c)
    if isinstance(expr, ast.Arith):
        fn = _ARITH[expr.op]
        left, right = compile_expression(expr.left, scope), compile_expression(expr.right, scope)
        return lambda c: fn(left(c), right(c))
    if isinstance(expr, ast.Negate):
        inner = compile_expression(expr.operand, scope)
        return lambda c: -inner(c)
    if isinstance(expr, ast.Compare):
        cmp = _COMPARE[expr.op]
        left, right = compile_expression(expr.left, scope), compile_expression(expr.right, scope)
        if expr.op in ("==", "!="):
            return lambda c: cmp(_as_set(left(c)), _as_set(right(c)))
        return lambda c: cmp(left(c), right(c))
    if isinstance(expr, ast.Member):
        item, collection = compile_expression(expr.item, scope), compile_expression(expr.collection, scope)
        return lambda c: item(c) in _as_set(collection(c))
    if isinstance(expr, ast.Logic):
        parts = [compile_expression(o, scope) for o in expr.operands]
        if expr.op == "and":
            return lambda c: all(p(c) for p in parts)
        return lambda c: any(p(c) for p in parts)
    inner = compile_expression(expr.operand, scope)
    return lambda c: not inner(c)
