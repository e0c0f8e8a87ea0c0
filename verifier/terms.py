"""Z3 terms made through Z3's C interface: the same terms, made in the same order, as z3's Python operators
make, without the sort and context checks those run on every argument (which cost more than the terms
when a check makes thousands of them). Every argument is a term of one context, or a Python int where
an integer is compared; anything else (a Python bool, a term of another kind) goes to z3's own operator,
which makes the same term."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import z3
from z3 import z3core

Term = Any
Operand = Any  # a Z3 term, or a Python int compared with an integer term


def _int_sort(ctx: z3.Context) -> Any:
    """The integer sort of a context, kept on the context (a sort Z3 has from the start: keeping it
    changes no term)."""
    got = getattr(ctx, "cheatdsl_int_sort", None)
    if got is None:
        got = ctx.cheatdsl_int_sort = z3.IntSort(ctx)  # type: ignore[attr-defined]
    return got.ast


def _ast(ctx: z3.Context, x: Operand) -> Any:
    if isinstance(x, z3.ExprRef):
        return x.as_ast()
    return z3core.Z3_mk_numeral(ctx.ref(), str(int(x)), _int_sort(ctx))


def _plain(a: Term, b: Operand) -> bool:
    """Whether `a` is an integer term and `b` one too or a Python int (the verifier has no reals)."""
    return isinstance(a, z3.ArithRef) and (isinstance(b, z3.ArithRef) or (type(b) is int))


# Python asks the right operand first when its class is a subclass of the left's (a numeral `IntNumRef`
# right of a plain integer term): `x >= 3` made with the numeral term 3 is `3 <= x`.
_REFLECTED = {z3core.Z3_mk_ge: z3core.Z3_mk_le, z3core.Z3_mk_le: z3core.Z3_mk_ge,
              z3core.Z3_mk_gt: z3core.Z3_mk_lt, z3core.Z3_mk_lt: z3core.Z3_mk_gt, z3core.Z3_mk_eq: z3core.Z3_mk_eq}


def _reflected(a: Term, b: Operand) -> bool:
    """Whether Python makes `a OP b` as `b ROP a` (`b` a term of a subclass of `a`'s class)."""
    return type(b) is not type(a) and isinstance(b, type(a))


def _compare(make: Any, slow: Callable[[Any, Any], Any], a: Term, b: Operand) -> z3.BoolRef:
    if not _plain(a, b):
        return slow(a, b)  # type: ignore[no-any-return]
    if _reflected(a, b):
        a, b, make = b, a, _REFLECTED[make]
    ctx = a.ctx
    return z3.BoolRef(make(ctx.ref(), a.as_ast(), _ast(ctx, b)), ctx)


def ge(a: Term, b: Operand) -> z3.BoolRef:
    """`a >= b`."""
    return _compare(z3core.Z3_mk_ge, operator.ge, a, b)


def gt(a: Term, b: Operand) -> z3.BoolRef:
    """`a > b`."""
    return _compare(z3core.Z3_mk_gt, operator.gt, a, b)


def le(a: Term, b: Operand) -> z3.BoolRef:
    """`a <= b`."""
    return _compare(z3core.Z3_mk_le, operator.le, a, b)


def lt(a: Term, b: Operand) -> z3.BoolRef:
    """`a < b`."""
    return _compare(z3core.Z3_mk_lt, operator.lt, a, b)


def eq(a: Term, b: Operand) -> z3.BoolRef:
    """`a == b` (two integer terms, an integer term and an int, or two Boolean terms)."""
    if type(a) is z3.BoolRef and type(b) is z3.BoolRef:
        ctx = a.ctx
        return z3.BoolRef(z3core.Z3_mk_eq(ctx.ref(), a.as_ast(), b.as_ast()), ctx)
    return _compare(z3core.Z3_mk_eq, operator.eq, a, b)


def ne(a: Term, b: Operand) -> z3.BoolRef:
    """`a != b` (Z3's `distinct` of the two, as z3's `!=` makes it)."""
    if not _plain(a, b):
        return a != b  # type: ignore[no-any-return]
    if _reflected(a, b):
        a, b = b, a
    ctx = a.ctx
    args = (z3.Ast * 2)(a.as_ast(), _ast(ctx, b))
    return z3.BoolRef(z3core.Z3_mk_distinct(ctx.ref(), 2, args), ctx)


def _arith(make: Any, slow: Callable[[Any, Any], Any], a: Term, b: Operand) -> z3.ArithRef:
    if not _plain(a, b):
        return slow(a, b)  # type: ignore[no-any-return]
    ctx = a.ctx
    args = (z3.Ast * 2)(a.as_ast(), _ast(ctx, b))
    return z3.ArithRef(make(ctx.ref(), 2, args), ctx)


def plus(a: Term, b: Operand) -> z3.ArithRef:
    """`a + b`."""
    return _arith(z3core.Z3_mk_add, operator.add, a, b)


def minus(a: Term, b: Operand) -> z3.ArithRef:
    """`a - b`."""
    return _arith(z3core.Z3_mk_sub, operator.sub, a, b)


def times(a: Term, b: Operand) -> z3.ArithRef:
    """`a * b`."""
    return _arith(z3core.Z3_mk_mul, operator.mul, a, b)


def _nary(make: Any, terms: tuple[Term, ...], ctx: z3.Context | None = None) -> Any:
    ctx = ctx or terms[0].ctx
    args = (z3.Ast * len(terms))(*[t.as_ast() for t in terms])
    return make(ctx.ref(), len(terms), args), ctx


def _booleans(terms: tuple[Any, ...]) -> tuple[Term, ...] | None:
    """The terms of `z3.And(*terms)` (one list or tuple stands for its items), or None where z3's own
    function is wanted (no term, or one that is not a Boolean term)."""
    if len(terms) == 1 and isinstance(terms[0], (list, tuple)):
        terms = tuple(terms[0])
    if not terms or not all(isinstance(t, z3.BoolRef) for t in terms):
        return None
    return terms


def and_(*terms: Any) -> z3.BoolRef:
    """`z3.And(*terms)`."""
    got = _booleans(terms)
    if got is None:
        return z3.And(*terms)
    return z3.BoolRef(*_nary(z3core.Z3_mk_and, got))


def or_(*terms: Any) -> z3.BoolRef:
    """`z3.Or(*terms)`."""
    got = _booleans(terms)
    if got is None:
        return z3.Or(*terms)
    return z3.BoolRef(*_nary(z3core.Z3_mk_or, got))


def not_(t: Term) -> z3.BoolRef:
    """`z3.Not(t)`."""
    if not isinstance(t, z3.BoolRef):
        return z3.Not(t)
    return z3.BoolRef(z3core.Z3_mk_not(t.ctx.ref(), t.as_ast()), t.ctx)


def implies(a: Term, b: Term) -> z3.BoolRef:
    """`z3.Implies(a, b)`."""
    if not (isinstance(a, z3.BoolRef) and isinstance(b, z3.BoolRef)):
        return z3.Implies(a, b)
    ctx = a.ctx
    return z3.BoolRef(z3core.Z3_mk_implies(ctx.ref(), a.as_ast(), b.as_ast()), ctx)


def add(terms: list[Term]) -> z3.ArithRef:
    """`z3.Sum(terms)` of integer terms (at least one)."""
    return z3.ArithRef(*_nary(z3core.Z3_mk_add, tuple(terms)))


def int_var(name: str) -> z3.ArithRef:
    """`z3.Int(name)` in the main context."""
    ctx = z3.main_ctx()
    ref = ctx.ref()
    symbol = z3core.Z3_mk_string_symbol(ref, name)
    return z3.ArithRef(z3core.Z3_mk_const(ref, symbol, _int_sort(ctx)), ctx)


def bool_var(name: str) -> z3.BoolRef:
    """`z3.Bool(name)` in the main context."""
    ctx = z3.main_ctx()
    ref = ctx.ref()
    symbol = z3core.Z3_mk_string_symbol(ref, name)
    return z3.BoolRef(z3core.Z3_mk_const(ref, symbol, z3core.Z3_mk_bool_sort(ref)), ctx)


def int_constant(term: Any) -> int | None:
    """The value of an integer numeral term (`z3.is_int_value`, `as_long`), else None."""
    if not isinstance(term, z3.ArithRef):
        return None
    ref = term.ctx.ref()
    a = term.as_ast()
    if not z3core.Z3_is_numeral_ast(ref, a):
        return None
    if z3core.Z3_get_sort_kind(ref, z3core.Z3_get_sort(ref, a)) != z3.Z3_INT_SORT:
        return None
    return int(z3core.Z3_get_numeral_string(ref, a))


def bool_val(value: bool) -> z3.BoolRef:
    """`z3.BoolVal(value)` in the main context."""
    ctx = z3.main_ctx()
    make = z3core.Z3_mk_true if value else z3core.Z3_mk_false
    return z3.BoolRef(make(ctx.ref()), ctx)


def _c_function(fn: Any) -> Any:
    """The C function a z3core function calls, without the error check z3core makes after every call
    (z3core's own function where its bindings are made some other way)."""
    defaults = getattr(fn, "__defaults__", None) or (None,)
    elementaries = defaults[-1]
    return elementaries.f if isinstance(elementaries, z3core.Elementaries) else fn


_INC, _DEC = _c_function(z3core.Z3_inc_ref), _c_function(z3core.Z3_dec_ref)
_NUMERAL, _SYMBOL, _CONST = (_c_function(f) for f in (z3core.Z3_mk_numeral, z3core.Z3_mk_string_symbol,
                                                       z3core.Z3_mk_const))
_TRUE, _FALSE, _NOT = (_c_function(f) for f in (z3core.Z3_mk_true, z3core.Z3_mk_false, z3core.Z3_mk_not))
_BINARY = {name: _c_function(f) for name, f in (("ge", z3core.Z3_mk_ge), ("gt", z3core.Z3_mk_gt),
                                                ("le", z3core.Z3_mk_le), ("lt", z3core.Z3_mk_lt),
                                                ("eq", z3core.Z3_mk_eq), ("implies", z3core.Z3_mk_implies))}
_NARY = {name: _c_function(f) for name, f in (("add", z3core.Z3_mk_add), ("sub", z3core.Z3_mk_sub),
                                              ("mul", z3core.Z3_mk_mul), ("and", z3core.Z3_mk_and),
                                              ("or", z3core.Z3_mk_or))}
_ASSERT = _c_function(z3core.Z3_solver_assert)
_TRACK = _c_function(z3core.Z3_solver_assert_and_track)


class Raw:
    """Terms of the main context made as bare Z3 pointers, for a check that makes many small terms:
    the same terms in the same order as the functions above, made and freed at the same points, with
    no Python object and no error check per term.

    Each method returns a pointer it owns (one reference taken); a pointer passed to a method is given
    up to it, and freed there once the new term holds it, as the Python object of a part is dropped
    once its whole is made. A z3 term passed is only read, and a Python int is a numeral (only as the
    second operand of two, made just before the term that holds it). `formula` hands a pointer over to a
    z3 term. Every operand must be well sorted (integers compared and added, Booleans joined): nothing
    checks it."""

    def __init__(self) -> None:
        self.ctx = z3.main_ctx()
        self.ref = self.ctx.ref()
        self.int_sort = _int_sort(self.ctx)

    def _take(self, ast: Any) -> Any:
        _INC(self.ref, ast)
        return ast

    def _drop(self, x: Any) -> None:
        if not isinstance(x, z3.AstRef):
            _DEC(self.ref, x)

    def _ptr(self, x: Any) -> Any:
        return x.ast if isinstance(x, z3.AstRef) else x

    def _second(self, x: Any) -> Any:
        if type(x) is int:
            return _NUMERAL(self.ref, str(x).encode(), self.int_sort)
        return self._ptr(x)

    def _binary(self, name: str, a: Any, b: Any) -> Any:
        got = self._take(_BINARY[name](self.ref, self._ptr(a), self._second(b)))
        self._drop(a)
        if type(b) is not int:
            self._drop(b)
        return got

    def _nary(self, name: str, terms: Any) -> Any:
        terms = list(terms)
        args = (z3.Ast * len(terms))(*[self._ptr(t) for t in terms])
        got = self._take(_NARY[name](self.ref, len(terms), args))
        for t in terms:
            self._drop(t)
        return got

    def ge(self, a: Any, b: Any) -> Any:
        """`a >= b`."""
        return self._binary("ge", a, b)

    def gt(self, a: Any, b: Any) -> Any:
        """`a > b`."""
        return self._binary("gt", a, b)

    def le(self, a: Any, b: Any) -> Any:
        """`a <= b`."""
        return self._binary("le", a, b)

    def lt(self, a: Any, b: Any) -> Any:
        """`a < b`."""
        return self._binary("lt", a, b)

    def eq(self, a: Any, b: Any) -> Any:
        """`a == b`."""
        return self._binary("eq", a, b)

    def implies(self, a: Any, b: Any) -> Any:
        """`z3.Implies(a, b)`."""
        return self._binary("implies", a, b)

    def plus(self, a: Any, b: Any) -> Any:
        """`a + b`."""
        return self._two("add", a, b)

    def minus(self, a: Any, b: Any) -> Any:
        """`a - b`."""
        return self._two("sub", a, b)

    def times(self, a: Any, b: Any) -> Any:
        """`a * b`."""
        return self._two("mul", a, b)

    def _two(self, name: str, a: Any, b: Any) -> Any:
        args = (z3.Ast * 2)(self._ptr(a), self._second(b))
        got = self._take(_NARY[name](self.ref, 2, args))
        self._drop(a)
        if type(b) is not int:
            self._drop(b)
        return got

    def add(self, terms: Any) -> Any:
        """`z3.Sum(terms)` of integer terms (at least one)."""
        return self._nary("add", terms)

    def and_(self, *terms: Any) -> Any:
        """`z3.And(*terms)` of Boolean terms (at least one; one list stands for its items)."""
        return self._nary("and", terms[0] if len(terms) == 1 and isinstance(terms[0], list) else terms)

    def or_(self, *terms: Any) -> Any:
        """`z3.Or(*terms)`, as `and_`."""
        return self._nary("or", terms[0] if len(terms) == 1 and isinstance(terms[0], list) else terms)

    def not_(self, a: Any) -> Any:
        """`z3.Not(a)`."""
        got = self._take(_NOT(self.ref, self._ptr(a)))
        self._drop(a)
        return got

    def bool_val(self, value: bool) -> Any:
        """`z3.BoolVal(value)`."""
        return self._take((_TRUE if value else _FALSE)(self.ref))

    def formula(self, ast: Any) -> z3.BoolRef:
        """The z3 term of a pointer to a Boolean term, which it now owns."""
        t = z3.BoolRef(ast, self.ctx)
        _DEC(self.ref, ast)
        return t

    def int_var(self, name: str) -> z3.ArithRef:
        """`z3.Int(name)`."""
        ast = _CONST(self.ref, _SYMBOL(self.ref, name.encode()), self.int_sort)
        return z3.ArithRef(ast, self.ctx)

    def bool_var(self, name: str) -> z3.BoolRef:
        """`z3.Bool(name)`."""
        ast = _CONST(self.ref, _SYMBOL(self.ref, name.encode()), z3core.Z3_mk_bool_sort(self.ref))
        return z3.BoolRef(ast, self.ctx)

    def assert_(self, s: z3.Solver, *terms: Any) -> None:
        """`s.add(*terms)` of terms made before."""
        for t in terms:
            _ASSERT(self.ref, s.solver, self._ptr(t))
        for t in terms:
            self._drop(t)

    def track(self, s: z3.Solver, term: Any, label: z3.BoolRef) -> None:
        """`s.assert_and_track(term, label)`."""
        _TRACK(self.ref, s.solver, self._ptr(term), label.ast)
        self._drop(term)
