"""The one place the verifier makes Z3 solvers: a fixed seed, a timeout and a resource limit on each."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

import z3

from .shortcuts import (
    Solver,
    check_fast,
    main_context_if_made,
    set_main_context,
    simple_solver_fast,
    tactic_solver_fast,
)

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


def fresh_context() -> None:
    """Start a new Z3 context: what a check creates afterwards does not depend on what came before.

    Z3's search depends on the identities of terms, which depend on every term made earlier in the
    process; a verdict found in a fresh context is the same whichever checks ran first. Terms from
    before must not be used again after this."""
    old = main_context_if_made()
    if old is not None:
        # The builders keep terms on their context (numerals, a sort, remembered terms), which refer back to
        # it: without them the old context goes with its last term, not when Python's cycle collector runs.
        for name in [k for k in vars(old) if k.startswith("cheatdsl_")]:
            delattr(old, name)
    set_main_context(None)


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
        s = tactic_solver_fast(tactic)
    else:
        s = simple_solver_fast(ctx)
    if cores:
        params += ["unsat_core", True, "core.minimize", True]
    s.set(*params)  # one call: Z3 merges each call's parameters into the solver's, the later winning
    return s


def ask(s: z3.Solver | z3.Optimize, *assumptions: z3.BoolRef) -> Answer:
    """Check `s`; the model when sat, the names of the unsat core when unsat, the reason when unknown."""
    result = check_fast(s, *assumptions)
    if result == z3.sat:
        return Answer(Status.SAT, model=s.model())
    if result == z3.unsat:
        core: tuple[str, ...] = ()
        if isinstance(s, z3.Solver):
            try:
                # Only named labels: printing an assumption that is a whole formula can take seconds.
                core = tuple(sorted(str(c) for c in s.unsat_core() if z3.is_const(c)))
            except z3.Z3Exception:
                core = ()
        return Answer(Status.UNSAT, core=core)
    return Answer(Status.UNKNOWN, reason=s.reason_unknown() or "the solver gave no reason")


def num(model: z3.ModelRef | None, term: z3.ExprRef) -> int:
    """An integer term's value in a model."""
    assert model is not None
    return int(model.eval(term, model_completion=True).as_long())  # type: ignore[attr-defined]


def truth(model: z3.ModelRef | None, term: z3.ExprRef) -> bool:
    """A Boolean term's value in a model."""
    assert model is not None
    return bool(z3.is_true(model.eval(term, model_completion=True)))
