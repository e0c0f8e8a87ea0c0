"""Z3 terms made through Z3's C interface: the same terms, made in the same order, as z3's Python operators
make, without the sort and context checks those run on every argument (which cost more than the terms
when a check makes thousands of them). Every argument is a term of one context, or a Python int where
an integer is compared."""

from __future__ import annotations

from typing import Any

import z3
from z3 import z3core

Term = Any
Operand = Any  # a Z3 term, or a Python int compared with an integer term



def _ast(ctx: z3.Context, x: Operand) -> Any:
    if isinstance(x, z3.ExprRef):
        return x.as_ast()
    ref = ctx.ref()
    return z3core.Z3_mk_numeral(ref, str(int(x)), z3core.Z3_mk_int_sort(ref))


def _compare(make: Any, a: Term, b: Operand) -> z3.BoolRef:
    ctx = a.ctx
    return z3.BoolRef(make(ctx.ref(), a.as_ast(), _ast(ctx, b)), ctx)


def ge(a: Term, b: Operand) -> z3.BoolRef:
    """`a >= b`."""
    return _compare(z3core.Z3_mk_ge, a, b)


def gt(a: Term, b: Operand) -> z3.BoolRef:
    """`a > b`."""
    return _compare(z3core.Z3_mk_gt, a, b)


def le(a: Term, b: Operand) -> z3.BoolRef:
    """`a <= b`."""
    return _compare(z3core.Z3_mk_le, a, b)


def lt(a: Term, b: Operand) -> z3.BoolRef:
    """`a < b`."""
    return _compare(z3core.Z3_mk_lt, a, b)


def eq(a: Term, b: Operand) -> z3.BoolRef:
    """`a == b`."""
    return _compare(z3core.Z3_mk_eq, a, b)


def ne(a: Term, b: Operand) -> z3.BoolRef:
    """`a != b` (Z3's `distinct` of the two, as z3's `!=` makes it)."""
    ctx = a.ctx
    args = (z3.Ast * 2)(a.as_ast(), _ast(ctx, b))
    return z3.BoolRef(z3core.Z3_mk_distinct(ctx.ref(), 2, args), ctx)


def _nary(make: Any, terms: tuple[Term, ...], ctx: z3.Context | None = None) -> Any:
    ctx = ctx or terms[0].ctx
    args = (z3.Ast * len(terms))(*[t.as_ast() for t in terms])
    return make(ctx.ref(), len(terms), args), ctx


def and_(*terms: Term) -> z3.BoolRef:
    """`z3.And(*terms)` (at least one term)."""
    return z3.BoolRef(*_nary(z3core.Z3_mk_and, terms))


def or_(*terms: Term) -> z3.BoolRef:
    """`z3.Or(*terms)` (at least one term)."""
    return z3.BoolRef(*_nary(z3core.Z3_mk_or, terms))


def not_(t: Term) -> z3.BoolRef:
    """`z3.Not(t)`."""
    return z3.BoolRef(z3core.Z3_mk_not(t.ctx.ref(), t.as_ast()), t.ctx)


def add(terms: list[Term]) -> z3.ArithRef:
    """`z3.Sum(terms)` of integer terms (at least one)."""
    return z3.ArithRef(*_nary(z3core.Z3_mk_add, tuple(terms)))
