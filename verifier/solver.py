"""The one place the verifier makes Z3 solvers: a fixed seed, a timeout and a resource limit on each."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from enum import Enum
from typing import Any

import z3

from .terms import c_function

SEED = 7
# The resource limit decides when a query gives up, the same on every machine. No clock is set unless a
# caller asks for one (a search within its rulebook's budget): the runner's kill timer is the safety net,
# so that a loaded machine never turns a verdict into `unknown` (and no timer thread starts per query).
TIMEOUT_MS = 120_000
RLIMIT = 20_000_000


class Status(Enum):
    """A solver's answer."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Answer:
    """What a solver said (`status`), the reason when unknown, the model when sat."""

    status: Status
    reason: str = ""
    model: z3.ModelRef | None = None
    core: tuple[str, ...] = ()

    @property
    def sat(self) -> bool:
        return self.status is Status.SAT

    @property
    def unsat(self) -> bool:
        return self.status is Status.UNSAT

    @property
    def unknown(self) -> bool:
        return self.status is Status.UNKNOWN


def _limits(timeout_ms: int | None, rlimit: int) -> list[Any]:
    """The seed and limits as `set`'s arguments (name, value, name, value, ...)."""
    return ["random_seed", SEED, *(("timeout", timeout_ms) if timeout_ms is not None else ()), "rlimit", rlimit]


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
        import ctypes
        ctypes.CDLL(None).mallopt(_M_MMAP_THRESHOLD, MAP_THRESHOLD)
    except (OSError, AttributeError, TypeError):
        pass


def fresh_context() -> None:
    """Start a new Z3 context: what a check creates afterwards does not depend on what came before.

    Z3's search depends on the identities of terms, which depend on every term made earlier in the
    process; a verdict found in a fresh context is the same whichever checks ran first. Terms from
    before must not be used again after this."""
    old = z3.z3._main_ctx  # type: ignore[attr-defined]
    if old is not None:
        # The builders keep terms on their context (numerals, a sort, remembered terms), which refer back to
        # it: without them the old context goes with its last term, not when Python's cycle collector runs.
        for name in [k for k in vars(old) if k.startswith("cheatdsl_")]:
            delattr(old, name)
    z3.z3._main_ctx = None  # type: ignore[attr-defined]


_ASSERT = c_function(z3.z3core.Z3_solver_assert)


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


def new_solver(*, cores: bool = False, timeout_ms: int | None = None, rlimit: int = RLIMIT,
               tactics: bool = False, older_arith: bool = False) -> Solver:
    """A fresh solver with the fixed seed and limits; with `cores`, unsat cores are kept and minimised.

    The solver is Z3's incremental SMT core; with `older_arith`, deciding arithmetic with Z3's older
    solver (faster on the invariant proofs' and recurrent sets' queries); with `tactics`, one that first
    simplifies the whole problem and solves its definitions away (most of an unrolled step is
    `x == term`), then decides the rest with the older arithmetic solver: it pays for big one-shot queries
    such as an unrolled search (three to five times faster there than Z3's default solver); on the small
    queries that are most of them it costs more than they do."""
    params = _limits(timeout_ms, rlimit)
    if tactics or older_arith:
        params = ["arith.solver", 2, *params]
    ctx = z3.main_ctx()
    if tactics:
        tactic = z3.Then("simplify", "solve-eqs", "smt")
        s = Solver(z3.Z3_mk_solver_from_tactic(ctx.ref(), tactic.tactic), ctx)
    else:
        s = Solver(z3.Z3_mk_simple_solver(ctx.ref()), ctx)
    if cores:
        params += ["unsat_core", True, "core.minimize", True]
    s.set(*params)  # one call: Z3 merges each call's parameters into the solver's, the later winning
    return s


def _check(s: z3.Solver | z3.Optimize, assumptions: tuple[z3.BoolRef, ...]) -> int:
    """`s.check(*assumptions)` as Z3's number (1 sat, -1 unsat, 0 unknown); a solver given Boolean terms of
    its own context is checked directly (z3's `check` reads each assumption's sort first)."""
    if not isinstance(s, z3.Solver) or not all(type(a) is z3.BoolRef and a.ctx is s.ctx for a in assumptions):
        return int(s.check(*assumptions).r)
    ctx = s.ctx
    given = (z3.Ast * len(assumptions))(*[a.ast for a in assumptions])
    return int(z3.z3core.Z3_solver_check_assumptions(ctx.ref(), s.solver, len(assumptions), given))


def ask(s: z3.Solver | z3.Optimize, *assumptions: z3.BoolRef) -> Answer:
    """Check `s`; the model when sat, the names of the unsat core when unsat, the reason when unknown."""
    result = _check(s, assumptions)
    if result == z3.Z3_L_TRUE:
        return Answer(Status.SAT, model=s.model())
    if result == z3.Z3_L_FALSE:
        core: tuple[str, ...] = ()
        if isinstance(s, z3.Solver):
            try:
                # Only named labels: printing an assumption that is a whole formula can take seconds.
                core = tuple(sorted(str(c) for c in s.unsat_core() if z3.is_const(c)))
            except z3.Z3Exception:
                core = ()
        return Answer(Status.UNSAT, core=core)
    return Answer(Status.UNKNOWN, reason=s.reason_unknown() or "the solver gave no reason")


def all_of(terms: list[z3.BoolRef]) -> z3.BoolRef:
    """`z3.And(terms)` for Boolean terms of one context, made directly (z3.And checks every term's sort
    and context first, which costs more than the term when there are thousands)."""
    return _connective(terms, z3.Z3_mk_and, z3.And)


def any_of(terms: list[z3.BoolRef]) -> z3.BoolRef:
    """`z3.Or(terms)`, made as `all_of` makes `z3.And`."""
    return _connective(terms, z3.Z3_mk_or, z3.Or)


def _connective(terms: list[z3.BoolRef], make: Any, slow: Any) -> z3.BoolRef:
    if not terms or not all(isinstance(t, z3.BoolRef) and t.ctx is terms[0].ctx for t in terms):
        return slow(terms)  # type: ignore[no-any-return]
    ctx = terms[0].ctx
    args = (z3.Ast * len(terms))(*[t.as_ast() for t in terms])
    return z3.BoolRef(make(ctx.ref(), len(terms), args), ctx)


def num(model: z3.ModelRef | None, term: z3.ExprRef) -> int:
    """An integer term's value in a model."""
    assert model is not None
    return int(model.eval(term, model_completion=True).as_long())  # type: ignore[attr-defined]


def truth(model: z3.ModelRef | None, term: z3.ExprRef) -> bool:
    """A Boolean term's value in a model."""
    assert model is not None
    return bool(z3.is_true(model.eval(term, model_completion=True)))
