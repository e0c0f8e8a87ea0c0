"""Every shortcut the verifier takes past z3's Python API, each beside the plain z3 call it replaces.

z3's Python operators check the sorts and contexts of their arguments and read Z3's error code after
every C call; the verifier makes hundreds of thousands of terms, where those checks cost more than the
terms. Each `NAME_fast` here makes the same term, by the same C calls in the same order, as `NAME_plain`
beside it (z3's own call, or the few lines of z3 it stands for), so that a reader sees both and the
solver, whose search depends on the order terms are made in, gives the same verdicts either way
(tests/test_verifier_shortcuts.py checks each pair). A fast version falls back to z3's own call for an
argument it does not handle (a Python bool, a term of another context).

The other modules call the fast versions (through `terms` and `solver`). This is the only module that
imports `z3core` or `ctypes`, calls Z3's C functions, reads a term's address, sets glibc's malloc or
replaces z3's main context.
"""

from __future__ import annotations

import ctypes
import operator
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any

import z3
from z3 import z3core

Term = Any
Operand = Any  # a Z3 term, or a Python int compared with an integer term


# -- the C functions ---------------------------------------------------------------------------------

def c_function(fn: Any) -> Any:
    """The C function a z3core function calls, without the error check z3core makes after every call
    (z3core's own function where its bindings are made some other way). The builders give it terms of
    the right sorts only, and `wrap` refuses a term not made (a null pointer)."""
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
_ITE = c_function(z3core.Z3_mk_ite)
_ASSERT = c_function(z3core.Z3_solver_assert)
_NUMERAL_STRING = c_function(z3core.Z3_get_numeral_string)
_TRACK = c_function(z3core.Z3_solver_assert_and_track)
_DISTINCT = c_function(z3core.Z3_mk_distinct)
_MODEL_EVAL = c_function(z3core.Z3_model_eval)
_IS_NUMERAL, _SORT, _SORT_KIND = (c_function(f) for f in (z3core.Z3_is_numeral_ast, z3core.Z3_get_sort,
                                                            z3core.Z3_get_sort_kind))
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


# -- what a context keeps ------------------------------------------------------------------------------

def _int_sort(ctx: z3.Context) -> Any:
    """The integer sort of a context, kept on the context (a sort Z3 has from the start: keeping it
    changes no term)."""
    got = getattr(ctx, "cheatdsl_int_sort", None)
    if got is None:
        got = ctx.cheatdsl_int_sort = z3.IntSort(ctx)  # type: ignore[attr-defined]
    return got.ast


def _bool_sort(ctx: z3.Context) -> Any:
    """The Boolean sort of a context, kept on the context as `_int_sort` keeps the integer sort."""
    got = getattr(ctx, "cheatdsl_bool_sort", None)
    if got is None:
        got = ctx.cheatdsl_bool_sort = z3.BoolSort(ctx)  # type: ignore[attr-defined]
    return got.ast


def truth_terms(ctx: z3.Context) -> tuple[z3.BoolRef, z3.BoolRef]:
    """`true` and `false` of a context, kept on it."""
    got: tuple[z3.BoolRef, z3.BoolRef] | None = getattr(ctx, "cheatdsl_truth_terms", None)
    if got is None:
        got = ctx.cheatdsl_truth_terms = (z3.BoolVal(True, ctx), z3.BoolVal(False, ctx))  # type: ignore[attr-defined]
    return got


def _truth_pointers(ctx: z3.Context) -> tuple[int, int]:
    """The addresses of `true` and `false` in a context (Z3 shares every term, so a term is `true`
    exactly when it is that term)."""
    got: tuple[int, int] | None = getattr(ctx, "cheatdsl_truths", None)
    if got is None:
        t, f = truth_terms(ctx)  # kept alive, so the addresses stay
        got = ctx.cheatdsl_truths = (t.as_ast().value, f.as_ast().value)  # type: ignore[attr-defined]
    return got


# -- comparisons and arithmetic ------------------------------------------------------------------------

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


def ge_plain(a: Term, b: Operand) -> z3.BoolRef:
    """`a >= b`."""
    return a >= b  # type: ignore[no-any-return]


def ge_fast(a: Term, b: Operand) -> z3.BoolRef:
    """`a >= b` as `ge_plain(a, b)` makes it, through Z3's C interface."""
    return _compare(z3core.Z3_mk_ge, operator.ge, a, b)


def gt_plain(a: Term, b: Operand) -> z3.BoolRef:
    """`a > b`."""
    return a > b  # type: ignore[no-any-return]


def gt_fast(a: Term, b: Operand) -> z3.BoolRef:
    """`a > b` as `gt_plain(a, b)` makes it, through Z3's C interface."""
    return _compare(z3core.Z3_mk_gt, operator.gt, a, b)


def le_plain(a: Term, b: Operand) -> z3.BoolRef:
    """`a <= b`."""
    return a <= b  # type: ignore[no-any-return]


def le_fast(a: Term, b: Operand) -> z3.BoolRef:
    """`a <= b` as `le_plain(a, b)` makes it, through Z3's C interface."""
    return _compare(z3core.Z3_mk_le, operator.le, a, b)


def lt_plain(a: Term, b: Operand) -> z3.BoolRef:
    """`a < b`."""
    return a < b  # type: ignore[no-any-return]


def lt_fast(a: Term, b: Operand) -> z3.BoolRef:
    """`a < b` as `lt_plain(a, b)` makes it, through Z3's C interface."""
    return _compare(z3core.Z3_mk_lt, operator.lt, a, b)


def eq_plain(a: Term, b: Operand) -> z3.BoolRef:
    """`a == b` (two integer terms, an integer term and an int, or two Boolean terms)."""
    return a == b  # type: ignore[no-any-return]


def eq_fast(a: Term, b: Operand) -> z3.BoolRef:
    """`a == b` as `eq_plain(a, b)` makes it, through Z3's C interface."""
    if type(a) is z3.BoolRef and type(b) is z3.BoolRef:
        ctx = a.ctx
        return wrap(z3.BoolRef, _EQ(ctx.ctx, a.ast, b.ast), ctx)  # type: ignore[no-any-return]
    return _compare(z3core.Z3_mk_eq, operator.eq, a, b)


def ne_plain(a: Term, b: Operand) -> z3.BoolRef:
    """`a != b` (Z3's `distinct` of the two)."""
    return a != b  # type: ignore[no-any-return]


def ne_fast(a: Term, b: Operand) -> z3.BoolRef:
    """`a != b` as `ne_plain(a, b)` makes it, through Z3's C interface."""
    if not _plain(a, b):
        return a != b  # type: ignore[no-any-return]
    if _reflected(a, b):
        a, b = b, a
    ctx = a.ctx
    args = (z3.Ast * 2)(a.ast, _ast(ctx, b))
    return wrap(z3.BoolRef, _DISTINCT(ctx.ctx, 2, args), ctx)  # type: ignore[no-any-return]


def _arith(make: Any, slow: Callable[[Any, Any], Any], a: Term, b: Operand) -> z3.ArithRef:
    if not _plain(a, b):
        return slow(a, b)  # type: ignore[no-any-return]
    ctx = a.ctx
    args = (z3.Ast * 2)(a.ast, _ast(ctx, b))
    return wrap(z3.ArithRef, _C[make](ctx.ctx, 2, args), ctx)  # type: ignore[no-any-return]


def plus_plain(a: Term, b: Operand) -> z3.ArithRef:
    """`a + b`."""
    return a + b  # type: ignore[no-any-return]


def plus_fast(a: Term, b: Operand) -> z3.ArithRef:
    """`a + b` as `plus_plain(a, b)` makes it, through Z3's C interface."""
    return _arith(z3core.Z3_mk_add, operator.add, a, b)


def minus_plain(a: Term, b: Operand) -> z3.ArithRef:
    """`a - b`."""
    return a - b  # type: ignore[no-any-return]


def minus_fast(a: Term, b: Operand) -> z3.ArithRef:
    """`a - b` as `minus_plain(a, b)` makes it, through Z3's C interface."""
    return _arith(z3core.Z3_mk_sub, operator.sub, a, b)


def times_plain(a: Term, b: Operand) -> z3.ArithRef:
    """`a * b`."""
    return a * b  # type: ignore[no-any-return]


def times_fast(a: Term, b: Operand) -> z3.ArithRef:
    """`a * b` as `times_plain(a, b)` makes it, through Z3's C interface."""
    return _arith(z3core.Z3_mk_mul, operator.mul, a, b)


def mod_plain(a: z3.ArithRef, b: int) -> z3.ArithRef:
    """`a % b` for an integer term and an int."""
    return a % b  # type: ignore[no-any-return]


def mod_fast(a: z3.ArithRef, b: int) -> z3.ArithRef:
    """`a % b` as `mod_plain(a, b)` makes it, through Z3's C interface."""
    return z3.ArithRef(z3core.Z3_mk_mod(a.ctx.ref(), a.as_ast(), z3.IntVal(b, a.ctx).as_ast()), a.ctx)


def _nary(make: Any, terms: tuple[Term, ...], ctx: z3.Context | None = None) -> Any:
    ctx = ctx or terms[0].ctx
    args = (z3.Ast * len(terms))(*[t.ast for t in terms])
    return _C[make](ctx.ctx, len(terms), args), ctx


def sum_plain(terms: list[Term]) -> z3.ArithRef:
    """`z3.Sum(terms)` of integer terms (at least one)."""
    return z3.Sum(terms)


def sum_fast(terms: list[Term]) -> z3.ArithRef:
    """`z3.Sum(terms)` as `sum_plain(terms)` makes it, through Z3's C interface."""
    return wrap(z3.ArithRef, *_nary(z3core.Z3_mk_add, tuple(terms)))  # type: ignore[no-any-return]


def sum_nonzero_plain(terms: Sequence[Term], zero: z3.ArithRef) -> Term:
    """The sum of the terms that are not the numeral `zero` as `z3.Sum` makes it: `zero` when none is left,
    the term itself when one is."""
    live = [t for t in terms if not (isinstance(t, z3.ExprRef) and t.eq(zero))]
    if not live:
        return zero
    if len(live) == 1:
        return live[0]
    return z3.Sum(live)


def sum_nonzero_fast(terms: Sequence[Term], zero: z3.ArithRef) -> Term:
    """`z3.Sum` of the terms but `zero`, as `sum_nonzero_plain(terms, zero)` makes it: a term is `zero` exactly
    when it is that term (Z3 shares terms), the sum made through Z3's C interface."""
    nought = zero.ast.value
    live = [t for t in terms if not (isinstance(t, z3.ExprRef) and t.ast.value == nought)]
    if not live:
        return zero
    if len(live) == 1:
        return live[0]
    ctx = live[0].ctx if isinstance(live[0], z3.ArithRef) else None
    if ctx is not None and all(isinstance(t, z3.ArithRef) and t.ctx is ctx for t in live):
        args = (z3.Ast * len(live))(*[t.ast for t in live])
        return wrap(z3.ArithRef, _ADD(ctx.ctx, len(live), args), ctx)
    return z3.Sum(live)


# -- Boolean connectives -------------------------------------------------------------------------------

def _booleans(terms: tuple[Any, ...]) -> tuple[Term, ...] | None:
    """The terms of `z3.And(*terms)` (one list or tuple stands for its items), or None where z3's own
    function is wanted (no term, or one that is not a Boolean term)."""
    if len(terms) == 1 and isinstance(terms[0], (list, tuple)):
        terms = tuple(terms[0])
    if not terms or not all(isinstance(t, z3.BoolRef) for t in terms):
        return None
    return terms


def and_plain(*terms: Any) -> z3.BoolRef:
    """`z3.And(*terms)` (one list stands for its items)."""
    return z3.And(*terms)


def and_fast(*terms: Any) -> z3.BoolRef:
    """`z3.And(*terms)` as `and_plain(*terms)` makes it, through Z3's C interface."""
    got = _booleans(terms)
    if got is None:
        return z3.And(*terms)
    return wrap(z3.BoolRef, *_nary(z3core.Z3_mk_and, got))  # type: ignore[no-any-return]


def or_plain(*terms: Any) -> z3.BoolRef:
    """`z3.Or(*terms)` (one list stands for its items)."""
    return z3.Or(*terms)


def or_fast(*terms: Any) -> z3.BoolRef:
    """`z3.Or(*terms)` as `or_plain(*terms)` makes it, through Z3's C interface."""
    got = _booleans(terms)
    if got is None:
        return z3.Or(*terms)
    return wrap(z3.BoolRef, *_nary(z3core.Z3_mk_or, got))  # type: ignore[no-any-return]


def not_plain(t: Term) -> z3.BoolRef:
    """`z3.Not(t)`."""
    return z3.Not(t)


def not_fast(t: Term) -> z3.BoolRef:
    """`z3.Not(t)` as `not_plain(t)` makes it, through Z3's C interface."""
    if not isinstance(t, z3.BoolRef):
        return z3.Not(t)
    return wrap(z3.BoolRef, _NOT(t.ctx.ctx, t.ast), t.ctx)  # type: ignore[no-any-return]


def implies_plain(a: Term, b: Term) -> z3.BoolRef:
    """`z3.Implies(a, b)`."""
    return z3.Implies(a, b)


def implies_fast(a: Term, b: Term) -> z3.BoolRef:
    """`z3.Implies(a, b)` as `implies_plain(a, b)` makes it, through Z3's C interface."""
    if not (isinstance(a, z3.BoolRef) and isinstance(b, z3.BoolRef)):
        return z3.Implies(a, b)
    ctx = a.ctx
    return wrap(z3.BoolRef, _IMPLIES(ctx.ctx, a.ast, b.ast), ctx)  # type: ignore[no-any-return]


# The class of `If(c, a, b)` for the classes of `a` and `b` an integer (a numeral or not) or a Boolean term.
_KINDS = {(z3.BoolRef, z3.BoolRef): z3.BoolRef, **{(x, y): z3.ArithRef for x in (z3.ArithRef, z3.IntNumRef)
                                                  for y in (z3.ArithRef, z3.IntNumRef)}}


def if_plain(cond: Term, a: Term, b: Term) -> Term:
    """`z3.If(cond, a, b)`, folded: `a` when the branches are the same term or the condition is true (or
    Python's True), `b` when it is false."""
    if a is b:
        return a
    if isinstance(cond, bool):
        return a if cond else b
    if z3.is_true(cond):
        return a
    if z3.is_false(cond):
        return b
    if z3.is_expr(a) and z3.is_expr(b) and a.eq(b):
        return a
    return z3.If(cond, a, b)


def if_fast(cond: Term, a: Term, b: Term) -> Term:
    """`z3.If(cond, a, b)`, folded, as `if_plain(cond, a, b)` makes it: terms compared by their addresses (Z3
    shares every term) instead of `z3.is_true` and `eq`, the term made through Z3's C interface."""
    if a is b:
        return a
    kind = _KINDS.get((type(a), type(b))) if type(cond) is z3.BoolRef else None
    if kind is not None:  # the common case, made as the general case below makes it
        ctx = cond.ctx
        got = getattr(ctx, "cheatdsl_truths", None) or _truth_pointers(ctx)
        c = cond.ast.value
        if c == got[0]:
            return a
        if c == got[1]:
            return b
        if a.ast.value == b.ast.value:
            return a
        if a.ctx is ctx and b.ctx is ctx:
            return wrap(kind, _ITE(ctx.ctx, cond.ast, a.ast, b.ast), ctx)
    if isinstance(cond, bool):
        return a if cond else b
    if isinstance(cond, z3.BoolRef) and isinstance(a, z3.ExprRef) and isinstance(b, z3.ExprRef):
        ctx = cond.ctx
        yes, no = _truth_pointers(ctx)
        c = cond.ast.value
        if c == yes:
            return a
        if c == no:
            return b
        if a.ast.value == b.ast.value:
            return a
        # The verifier's numbers are all integers, so two arithmetic terms have one sort, as two Booleans do.
        kind = z3.BoolRef if isinstance(a, z3.BoolRef) else z3.ArithRef if isinstance(a, z3.ArithRef) else None
        if kind is not None and isinstance(b, kind) and a.ctx is ctx and b.ctx is ctx:
            return wrap(kind, _ITE(ctx.ctx, cond.ast, a.ast, b.ast), ctx)
        return z3.If(cond, a, b)
    return if_plain(cond, a, b)


def one_if_plain(x: z3.BoolRef) -> z3.ArithRef:
    """`z3.If(x, 1, 0)`."""
    return z3.If(x, z3.IntVal(1, x.ctx), z3.IntVal(0, x.ctx))  # type: ignore[no-any-return]


def one_if_fast(x: z3.BoolRef) -> z3.ArithRef:
    """`z3.If(x, 1, 0)` as `one_if_plain(x)` makes it, through Z3's C interface."""
    ctx = x.ctx
    one, zero = z3.IntVal(1, ctx), z3.IntVal(0, ctx)
    return z3.ArithRef(z3core.Z3_mk_ite(ctx.ref(), x.as_ast(), one.as_ast(), zero.as_ast()), ctx)


# -- variables and constants ---------------------------------------------------------------------------

def int_var_plain(name: str) -> z3.ArithRef:
    """`z3.Int(name)` in the main context."""
    return z3.Int(name)


def int_var_fast(name: str) -> z3.ArithRef:
    """`z3.Int(name)` as `int_var_plain(name)` makes it, through Z3's C interface."""
    ctx = z3.main_ctx()
    ref = ctx.ref()
    symbol = z3core.Z3_mk_string_symbol(ref, name)
    return z3.ArithRef(z3core.Z3_mk_const(ref, symbol, _int_sort(ctx)), ctx)


def bool_var_plain(name: str) -> z3.BoolRef:
    """`z3.Bool(name)` in the main context."""
    return z3.Bool(name)


def bool_var_fast(name: str) -> z3.BoolRef:
    """`z3.Bool(name)` as `bool_var_plain(name)` makes it, through Z3's C interface."""
    ctx = z3.main_ctx()
    ref = ctx.ref()
    symbol = z3core.Z3_mk_string_symbol(ref, name)
    return z3.BoolRef(z3core.Z3_mk_const(ref, symbol, z3core.Z3_mk_bool_sort(ref)), ctx)


def bool_val_plain(value: bool) -> z3.BoolRef:
    """`z3.BoolVal(value)` in the main context."""
    return z3.BoolVal(value)


def bool_val_fast(value: bool) -> z3.BoolRef:
    """`z3.BoolVal(value)` as `bool_val_plain(value)` makes it, through Z3's C interface."""
    ctx = z3.main_ctx()
    make = z3core.Z3_mk_true if value else z3core.Z3_mk_false
    return z3.BoolRef(make(ctx.ref()), ctx)


def int_constant_plain(term: Any) -> int | None:
    """The value of an integer numeral term (`z3.is_int_value`, `as_long`), else None."""
    if isinstance(term, z3.ArithRef) and z3.is_int_value(term):
        return int(term.as_long())  # type: ignore[attr-defined]
    return None


def int_constant_fast(term: Any) -> int | None:
    """`term.as_long()` of an integer numeral, as `int_constant_plain(term)` reads it, through Z3's C interface."""
    if not isinstance(term, z3.ArithRef):
        return None
    ref = term.ctx.ctx
    a = term.ast
    if not _IS_NUMERAL(ref, a):
        return None
    if _SORT_KIND(ref, _SORT(ref, a)) != z3.Z3_INT_SORT:
        return None
    return int(_NUMERAL_STRING(ref, a))


def is_variable_plain(term: Term) -> bool:
    """Whether `term` is a variable (`z3.is_const` with an uninterpreted declaration), not a numeral or a
    truth value."""
    return z3.is_const(term) and term.decl().kind() == z3.Z3_OP_UNINTERPRETED


def is_variable_fast(term: Term) -> bool:
    """`z3.is_const(term)` with an uninterpreted declaration, as `is_variable_plain(term)` reads it, through Z3's
    C interface."""
    ctx, ast = term.ctx_ref(), term.as_ast()
    return (z3.Z3_get_app_num_args(ctx, ast) == 0  # type: ignore[no-any-return]
            and z3.Z3_get_decl_kind(ctx, z3.Z3_get_app_decl(ctx, ast)) == z3.Z3_OP_UNINTERPRETED)


# -- solvers -------------------------------------------------------------------------------------------

class Solver(z3.Solver):
    """z3's solver, whose `add` of Boolean terms of its own context asserts each directly (z3's `add` makes the
    Boolean sort and reads every term's sort first, which costs more than asserting it); anything else (a
    list, a Python bool, a term of another context) is added as z3 adds it, in the same order."""

    def assert_exprs(self, *args: Any) -> None:
        ctx = self.ctx
        if not all(type(t) is z3.BoolRef and t.ctx is ctx for t in args):
            super().assert_exprs(*args)
            return
        ref, solver = ctx.ref(), self.solver
        for t in args:
            _ASSERT(ref, solver, t.ast)


def simple_solver_plain(ctx: z3.Context) -> z3.Solver:
    """`z3.SimpleSolver(ctx)`: Z3's incremental SMT core."""
    return z3.SimpleSolver(ctx)


def simple_solver_fast(ctx: z3.Context) -> Solver:
    """`simple_solver_plain(ctx)`, as this module's `Solver` (its `add` asserts directly)."""
    return Solver(z3.Z3_mk_simple_solver(ctx.ref()), ctx)


def tactic_solver_plain(tactic: z3.Tactic) -> z3.Solver:
    """`tactic.solver()`."""
    return tactic.solver()


def tactic_solver_fast(tactic: z3.Tactic) -> Solver:
    """`tactic_solver_plain(tactic)`, as this module's `Solver`."""
    ctx = tactic.ctx
    return Solver(z3.Z3_mk_solver_from_tactic(ctx.ref(), tactic.tactic), ctx)


def check_plain(s: z3.Solver | z3.Optimize, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
    """`s.check(*assumptions)`."""
    return s.check(*assumptions)


def check_fast(s: z3.Solver | z3.Optimize, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
    """`check_plain(s, *assumptions)`; a solver given Boolean terms of its own context is checked directly
    (z3's `check` reads each assumption's sort first)."""
    if not isinstance(s, z3.Solver) or not all(type(a) is z3.BoolRef and a.ctx is s.ctx for a in assumptions):
        return s.check(*assumptions)
    ctx = s.ctx
    given = (z3.Ast * len(assumptions))(*[a.ast for a in assumptions])
    return z3.CheckSatResult(z3core.Z3_solver_check_assumptions(ctx.ref(), s.solver, len(assumptions), given))


# -- models --------------------------------------------------------------------------------------------

def int_value_plain(model: z3.ModelRef | None, term: z3.ArithRef) -> int:
    """An integer term's value in a model, completed: `model.eval(term, model_completion=True).as_long()`."""
    assert model is not None
    return int(model.eval(term, model_completion=True).as_long())  # type: ignore[attr-defined]


def int_value_fast(model: z3.ModelRef | None, term: z3.ArithRef) -> int:
    """`int_value_plain(model, term)` without a z3 object for the value: Z3 holds its latest result until it
    makes the next, which is as long as that object held it."""
    assert model is not None
    ref = model.ctx.ref()
    out = (z3.Ast * 1)()
    if not _MODEL_EVAL(ref, model.model, term.ast, True, out):
        raise z3.Z3Exception("failed to evaluate expression in the model")
    return int(_NUMERAL_STRING(ref, out[0]))


def set_value_plain(model: z3.ModelRef, decl: z3.FuncDeclRef, value: z3.ExprRef) -> None:
    """`model.update_value(decl, value)`: the constant `decl` has `value` in `model`."""
    model.update_value(decl, value)


def set_value_fast(model: z3.ModelRef, decl: z3.FuncDeclRef, value: z3.ExprRef) -> None:
    """`set_value_plain(model, decl, value)`, without z3's checks of the declaration and the value."""
    z3.Z3_add_const_interp(model.ctx.ref(), model.model, decl.ast, value.ast)


# -- terms as bare pointers ----------------------------------------------------------------------------

class Raw:
    """Terms of the main context made as bare Z3 pointers, for a check that makes many small terms:
    the same terms in the same order as the `_fast` functions above (and so as the `_plain` ones), with
    no Python object and no error check per term.

    Each method returns a pointer it owns (one reference taken); a pointer passed to a method is given
    up to it, and released there once the new term holds it, as the Python object of a part is dropped
    once its whole is made. A z3 term passed is only read, and a Python int is a numeral (only as the
    second operand of two, made just before the term that holds it). `formula` hands a pointer over to
    a z3 term. Every operand must be well sorted (integers compared and added, Booleans joined): nothing
    checks it.

    Z3 simplifies a term held more than once differently (it caches its result), so a term that z3's
    operators would leave held by a Python object while the solver reads it must be made a z3 term here
    too, and kept as long.

    Its plain version is the same formula written with z3's operators (or the `_plain` functions), which
    tests/test_verifier_raw_terms.py checks it against, ids included. The deal and consistency checks use
    it: written with the `_fast` functions instead they took 10% more CPU time (same verdicts)."""

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


# -- the process ---------------------------------------------------------------------------------------
# Settings of the whole process, not of a term: no plain z3 call makes them, and where they cannot be
# made (not Linux, not glibc) nothing is done, which is their plain version.

def main_context_if_made() -> z3.Context | None:
    """z3's main context, or None when z3 has made none since the last `set_main_context(None)`
    (`z3.main_ctx()` would make one)."""
    return z3.z3._main_ctx  # type: ignore[attr-defined,no-any-return]


def set_main_context(ctx: z3.Context | None) -> None:
    """Make `ctx` z3's main context (None: z3 makes a new one when next asked). z3 has no call for it: the
    plain way is to pass a context to every z3 call."""
    z3.z3._main_ctx = ctx  # type: ignore[attr-defined]


# A new Z3 context allocates a block of tens of megabytes. Past glibc's threshold for mapping memory that
# block is mapped afresh for every context and its pages faulted in again; below it the block comes from
# the heap, where the last context's is reused.
MAP_THRESHOLD = 64 << 20
_M_MMAP_THRESHOLD = -3  # mallopt's parameter number in glibc's malloc.h


def reuse_freed_blocks() -> None:
    """Let glibc's malloc serve blocks up to `MAP_THRESHOLD` from the heap, for a process that makes a context
    after context of small queries (the light checks): this halves a new context's cost there. The setting is
    the whole process's, for its life: workers forked from it afterwards (a replacement worker, those of a
    later `verify_all` in the same process) have it too, and measured no slower for it. The runner sets it
    only after forking its first workers, whose heavy checks fault more pages with it. Nothing where the C
    library is not glibc on Linux."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None).mallopt(_M_MMAP_THRESHOLD, MAP_THRESHOLD)
    except (OSError, AttributeError, TypeError):
        pass


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (prctl's PR_SET_PDEATHSIG); nothing elsewhere."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))
    except (OSError, AttributeError):
        pass
