"""Z3 terms made through Z3's C interface: the same terms, made in the same order, as z3's Python operators
make, without the sort and context checks those run on every argument (which cost more than the terms
when a check makes thousands of them). Every argument is a term of one context, or a Python int where
an integer is compared; anything else (a Python bool, a term of another kind) goes to z3's own operator,
which makes the same term. `Raw` makes the same terms again as bare pointers, with no Python object per
term, and `int_value` reads a model's integer without one."""

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


# Z3's C functions behind z3core's wrappers, called without the wrappers' read of the error code after
# every call: the builders give them terms of the right sorts only, and a term not made (a null pointer)
# is refused at once. The same calls in the same order, so the same terms.
def c_function(fn: Any) -> Any:
    """The C function a z3core function calls, without the error check z3core makes after every call
    (z3core's own function where its bindings are made some other way)."""
    defaults = getattr(fn, "__defaults__", None) or (None,)
    elementaries = defaults[-1]
    return elementaries.f if isinstance(elementaries, z3core.Elementaries) else fn


_INC, _DEC = c_function(z3core.Z3_inc_ref), c_function(z3core.Z3_dec_ref)
_NUMERAL, _SYMBOL, _CONST = (c_function(f) for f in (z3core.Z3_mk_numeral, z3core.Z3_mk_string_symbol,
                                                       z3core.Z3_mk_const))
_TRUE, _FALSE, _NOT = (c_function(f) for f in (z3core.Z3_mk_true, z3core.Z3_mk_false, z3core.Z3_mk_not))
_GE, _GT, _LE, _LT, _EQ, _IMPLIES = (c_function(f) for f in (z3core.Z3_mk_ge, z3core.Z3_mk_gt, z3core.Z3_mk_le,
                                                             z3core.Z3_mk_lt, z3core.Z3_mk_eq, z3core.Z3_mk_implies))
_ADD, _SUB, _MUL, _AND, _OR = (c_function(f) for f in (z3core.Z3_mk_add, z3core.Z3_mk_sub, z3core.Z3_mk_mul,
                                                         z3core.Z3_mk_and, z3core.Z3_mk_or))
_ASSERT = c_function(z3core.Z3_solver_assert)
_NUMERAL_STRING = c_function(z3core.Z3_get_numeral_string)
_TRACK = c_function(z3core.Z3_solver_assert_and_track)
_DISTINCT = c_function(z3core.Z3_mk_distinct)
# The C function behind each z3core wrapper the z3-object builders below are handed.
_C = {z3core.Z3_mk_ge: _GE, z3core.Z3_mk_gt: _GT, z3core.Z3_mk_le: _LE, z3core.Z3_mk_lt: _LT, z3core.Z3_mk_eq: _EQ,
      z3core.Z3_mk_distinct: _DISTINCT, z3core.Z3_mk_add: _ADD, z3core.Z3_mk_sub: _SUB, z3core.Z3_mk_mul: _MUL,
      z3core.Z3_mk_and: _AND, z3core.Z3_mk_or: _OR, z3core.Z3_mk_not: _NOT, z3core.Z3_mk_implies: _IMPLIES}


def wrap(cls: Any, ptr: Any, ctx: z3.Context) -> Any:
    """`cls(ptr, ctx)`: a term object of class `cls` holding a reference to the new term, as z3 makes it."""
    if not ptr:
        raise z3.Z3Exception("Z3 did not make the term")
    out = object.__new__(cls)
    out.ast = ptr
    out.ctx = ctx
    _INC(ctx.ctx, ptr)
    return out


def _ast(ctx: z3.Context, x: Operand) -> Any:
    if isinstance(x, z3.ExprRef):
        return x.ast
    return _NUMERAL(ctx.ctx, str(int(x)).encode("ascii"), _int_sort(ctx))


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
    if type(a) is z3.ArithRef and type(b) is int:  # the common case, as the general one below makes it
        ctx = a.ctx
        c = ctx.ctx
        return wrap(z3.BoolRef, _C[make](c, a.ast, _NUMERAL(c, str(b).encode("ascii"), _int_sort(ctx))), ctx)  # type: ignore[no-any-return]
    if not _plain(a, b):
        return slow(a, b)  # type: ignore[no-any-return]
    if _reflected(a, b):
        a, b, make = b, a, _REFLECTED[make]
    ctx = a.ctx
    return wrap(z3.BoolRef, _C[make](ctx.ctx, a.ast, _ast(ctx, b)), ctx)  # type: ignore[no-any-return]


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
        return wrap(z3.BoolRef, _C[z3core.Z3_mk_eq](ctx.ctx, a.ast, b.ast), ctx)  # type: ignore[no-any-return]
    return _compare(z3core.Z3_mk_eq, operator.eq, a, b)


def ne(a: Term, b: Operand) -> z3.BoolRef:
    """`a != b` (Z3's `distinct` of the two, as z3's `!=` makes it)."""
    if not _plain(a, b):
        return a != b  # type: ignore[no-any-return]
    if _reflected(a, b):
        a, b = b, a
    ctx = a.ctx
    args = (z3.Ast * 2)(a.ast, _ast(ctx, b))
    return wrap(z3.BoolRef, _C[z3core.Z3_mk_distinct](ctx.ctx, 2, args), ctx)  # type: ignore[no-any-return]


def _arith(make: Any, slow: Callable[[Any, Any], Any], a: Term, b: Operand) -> z3.ArithRef:
    if not _plain(a, b):
        return slow(a, b)  # type: ignore[no-any-return]
    ctx = a.ctx
    args = (z3.Ast * 2)(a.ast, _ast(ctx, b))
    return wrap(z3.ArithRef, _C[make](ctx.ctx, 2, args), ctx)  # type: ignore[no-any-return]


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
    args = (z3.Ast * len(terms))(*[t.ast for t in terms])
    return _C[make](ctx.ctx, len(terms), args), ctx


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
    return wrap(z3.BoolRef, *_nary(z3core.Z3_mk_and, got))  # type: ignore[no-any-return]


def or_(*terms: Any) -> z3.BoolRef:
    """`z3.Or(*terms)`."""
    got = _booleans(terms)
    if got is None:
        return z3.Or(*terms)
    return wrap(z3.BoolRef, *_nary(z3core.Z3_mk_or, got))  # type: ignore[no-any-return]


def not_(t: Term) -> z3.BoolRef:
    """`z3.Not(t)`."""
    if not isinstance(t, z3.BoolRef):
        return z3.Not(t)
    return wrap(z3.BoolRef, _C[z3core.Z3_mk_not](t.ctx.ctx, t.ast), t.ctx)  # type: ignore[no-any-return]


def implies(a: Term, b: Term) -> z3.BoolRef:
    """`z3.Implies(a, b)`."""
    if not (isinstance(a, z3.BoolRef) and isinstance(b, z3.BoolRef)):
        return z3.Implies(a, b)
    ctx = a.ctx
    return wrap(z3.BoolRef, _C[z3core.Z3_mk_implies](ctx.ctx, a.ast, b.ast), ctx)  # type: ignore[no-any-return]


def add(terms: list[Term]) -> z3.ArithRef:
    """`z3.Sum(terms)` of integer terms (at least one)."""
    return wrap(z3.ArithRef, *_nary(z3core.Z3_mk_add, tuple(terms)))  # type: ignore[no-any-return]


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


_IS_NUMERAL, _SORT, _SORT_KIND = (c_function(f) for f in (z3core.Z3_is_numeral_ast, z3core.Z3_get_sort,
                                                            z3core.Z3_get_sort_kind))


def int_constant(term: Any) -> int | None:
    """The value of an integer numeral term (`z3.is_int_value`, `as_long`), else None."""
    if not isinstance(term, z3.ArithRef):
        return None
    ref = term.ctx.ctx
    a = term.ast
    if not _IS_NUMERAL(ref, a):
        return None
    if _SORT_KIND(ref, _SORT(ref, a)) != z3.Z3_INT_SORT:
        return None
    return int(_NUMERAL_STRING(ref, a))


def bool_val(value: bool) -> z3.BoolRef:
    """`z3.BoolVal(value)` in the main context."""
    ctx = z3.main_ctx()
    make = z3core.Z3_mk_true if value else z3core.Z3_mk_false
    return z3.BoolRef(make(ctx.ref()), ctx)




def _bool_sort(ctx: z3.Context) -> Any:
    """The Boolean sort of a context, kept on the context as `_int_sort` keeps the integer sort."""
    got = getattr(ctx, "cheatdsl_bool_sort", None)
    if got is None:
        got = ctx.cheatdsl_bool_sort = z3.BoolSort(ctx)  # type: ignore[attr-defined]
    return got.ast


class Raw:
    """Terms of the main context made as bare Z3 pointers, for a check that makes many small terms:
    the same terms in the same order as the functions above, with no Python object and no error check
    per term.

    Each method returns a pointer it owns (one reference taken); a pointer passed to a method is given
    up to it, and released there once the new term holds it, as the Python object of a part is dropped
    once its whole is made. A z3 term passed is only read, and a Python int is a numeral (only as the
    second operand of two, made just before the term that holds it). `formula` hands a pointer over to
    a z3 term. Every operand must be well sorted (integers compared and added, Booleans joined): nothing
    checks it.

    Z3 simplifies a term held more than once differently (it caches its result), so a term that z3's
    operators would leave held by a Python object while the solver reads it must be made a z3 term here
    too, and kept as long."""

    def __init__(self) -> None:
        self.ctx = z3.main_ctx()
        self.ref = self.ctx.ref()
        self.int_sort = _int_sort(self.ctx)

    def _binary(self, make: Any, a: Any, b: Any) -> Any:
        ref = self.ref
        a_owned = not isinstance(a, z3.AstRef)
        pa = a if a_owned else a.ast
        if type(b) is int:
            b_owned = False
            got = make(ref, pa, _NUMERAL(ref, str(b).encode(), self.int_sort))
        else:
            b_owned = not isinstance(b, z3.AstRef)
            got = make(ref, pa, b if b_owned else b.ast)
        _INC(ref, got)
        if a_owned:
            _DEC(ref, a)
        if b_owned:
            _DEC(ref, b)
        return got

    def _two(self, make: Any, a: Any, b: Any) -> Any:
        """An n-ary integer operation of two operands (the numeral, if one, made last as `_binary` makes it)."""
        ref = self.ref
        a_owned = not isinstance(a, z3.AstRef)
        pa = a if a_owned else a.ast
        b_owned = type(b) is not int and not isinstance(b, z3.AstRef)
        pb = _NUMERAL(ref, str(b).encode(), self.int_sort) if type(b) is int else b if b_owned else b.ast
        got = make(ref, 2, (z3.Ast * 2)(pa, pb))
        _INC(ref, got)
        if a_owned:
            _DEC(ref, a)
        if b_owned:
            _DEC(ref, b)
        return got

    def _nary(self, make: Any, terms: tuple[Any, ...] | list[Any]) -> Any:
        ref = self.ref
        args = (z3.Ast * len(terms))(*[t.ast if isinstance(t, z3.AstRef) else t for t in terms])
        got = make(ref, len(terms), args)
        _INC(ref, got)
        for t in terms:
            if not isinstance(t, z3.AstRef):
                _DEC(ref, t)
        return got

    def ge(self, a: Any, b: Any) -> Any:
        """`a >= b`."""
        return self._binary(_GE, a, b)

    def gt(self, a: Any, b: Any) -> Any:
        """`a > b`."""
        return self._binary(_GT, a, b)

    def le(self, a: Any, b: Any) -> Any:
        """`a <= b`."""
        return self._binary(_LE, a, b)

    def lt(self, a: Any, b: Any) -> Any:
        """`a < b`."""
        return self._binary(_LT, a, b)

    def eq(self, a: Any, b: Any) -> Any:
        """`a == b`."""
        return self._binary(_EQ, a, b)

    def implies(self, a: Any, b: Any) -> Any:
        """`z3.Implies(a, b)`."""
        return self._binary(_IMPLIES, a, b)

    def plus(self, a: Any, b: Any) -> Any:
        """`a + b`."""
        return self._two(_ADD, a, b)

    def minus(self, a: Any, b: Any) -> Any:
        """`a - b`."""
        return self._two(_SUB, a, b)

    def times(self, a: Any, b: Any) -> Any:
        """`a * b`."""
        return self._two(_MUL, a, b)

    def add(self, terms: list[Any]) -> Any:
        """`z3.Sum(terms)` of integer terms (at least one)."""
        return self._nary(_ADD, terms)

    def and_(self, *terms: Any) -> Any:
        """`z3.And(*terms)` of Boolean terms (one list stands for its items)."""
        return self._nary(_AND, terms[0] if len(terms) == 1 and isinstance(terms[0], list) else terms)

    def or_(self, *terms: Any) -> Any:
        """`z3.Or(*terms)`, as `and_`."""
        return self._nary(_OR, terms[0] if len(terms) == 1 and isinstance(terms[0], list) else terms)

    def not_(self, a: Any) -> Any:
        """`z3.Not(a)`."""
        ref = self.ref
        owned = not isinstance(a, z3.AstRef)
        got = _NOT(ref, a if owned else a.ast)
        _INC(ref, got)
        if owned:
            _DEC(ref, a)
        return got

    def bool_val(self, value: bool) -> Any:
        """`z3.BoolVal(value)`."""
        got = (_TRUE if value else _FALSE)(self.ref)
        _INC(self.ref, got)
        return got

    def formula(self, ast: Any) -> z3.BoolRef:
        """The z3 term of a pointer to a Boolean term: its reference passes to the z3 term."""
        t = z3.BoolRef.__new__(z3.BoolRef)
        t.ast, t.ctx = ast, self.ctx
        return t

    def int_var(self, name: str) -> z3.ArithRef:
        """`z3.Int(name)`."""
        return z3.ArithRef(_CONST(self.ref, _SYMBOL(self.ref, name.encode()), self.int_sort), self.ctx)

    def bool_var(self, name: str) -> z3.BoolRef:
        """`z3.Bool(name)`."""
        return z3.BoolRef(_CONST(self.ref, _SYMBOL(self.ref, name.encode()), _bool_sort(self.ctx)), self.ctx)

    def assert_(self, s: z3.Solver, *terms: Any) -> None:
        """`s.add(*terms)` of terms made before (pointers released once all are asserted)."""
        ref = self.ref
        for t in terms:
            _ASSERT(ref, s.solver, t.ast if isinstance(t, z3.AstRef) else t)
        for t in terms:
            if not isinstance(t, z3.AstRef):
                _DEC(ref, t)

    def track(self, s: z3.Solver, term: z3.BoolRef, label: z3.BoolRef) -> None:
        """`s.assert_and_track(term, label)`."""
        _TRACK(self.ref, s.solver, term.ast, label.ast)


_MODEL_EVAL = c_function(z3core.Z3_model_eval)


def int_value(model: z3.ModelRef | None, term: z3.ArithRef) -> int:
    """An integer term's value in a model, completed (`solver.num`) without a z3 object for the value:
    Z3 holds its latest result until it makes the next, which is as long as that object held it."""
    assert model is not None
    ref = model.ctx.ref()
    out = (z3.Ast * 1)()
    if not _MODEL_EVAL(ref, model.model, term.ast, True, out):
        raise z3.Z3Exception("failed to evaluate expression in the model")
    return int(_NUMERAL_STRING(ref, out[0]))
