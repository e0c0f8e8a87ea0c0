"""Terms made as bare pointers (`verifier.solving.shortcuts.Raw`) are the terms z3's operators make, with the same Z3
ids, and what they drop is freed at the same points: Z3's search depends on the ids, so the deal and
consistency checks find the same models either way.
"""

from __future__ import annotations

from collections.abc import Callable

import z3

from verifier.solving.shortcuts import Raw
from verifier.solving.terms import int_value
from verifier.solving.solver import fresh_context, new_solver, num


def _with_operators() -> list[z3.BoolRef]:
    h = [z3.Int(f"hand_{i}") for i in range(3)]
    x, p = z3.Int("surplus"), z3.Bool("plays")
    dropped = z3.And(x + 7 > 3, x - 2 < 9)  # made and dropped: its terms go back to Z3
    del dropped
    return [
        z3.Sum(h) + x == 52,
        z3.And(x >= 0, *[hi >= 1 for hi in h]),
        z3.And(h[0] <= h[-1] + 1, *[z3.And(h[i] >= h[i + 1], h[i + 1] >= h[i] - 1) for i in range(2)]),
        (x + 1) * 3 > 10,
        z3.Implies(p, z3.Or([x == c for c in (1, 5, 9)])),
        z3.Or(p, z3.BoolVal(False)),
        z3.Or([z3.Not(hi == 2) for hi in h]),
    ]


def _with_raw() -> list[z3.BoolRef]:
    r = Raw()
    h = [r.int_var(f"hand_{i}") for i in range(3)]
    x, p = r.int_var("surplus"), r.bool_var("plays")
    dropped = r.formula(r.and_(r.gt(r.plus(x, 7), 3), r.lt(r.minus(x, 2), 9)))
    del dropped
    return [
        r.formula(r.eq(r.plus(r.add(h), x), 52)),
        r.formula(r.and_(r.ge(x, 0), *[r.ge(hi, 1) for hi in h])),
        r.formula(r.and_(r.le(h[0], r.plus(h[-1], 1)),
                         *[r.and_(r.ge(h[i], h[i + 1]), r.ge(h[i + 1], r.minus(h[i], 1))) for i in range(2)])),
        r.formula(r.gt(r.times(r.plus(x, 1), 3), 10)),
        r.formula(r.implies(p, r.or_([r.eq(x, c) for c in (1, 5, 9)]))),
        r.formula(r.or_(p, r.bool_val(False))),
        r.formula(r.or_([r.not_(r.eq(hi, 2)) for hi in h])),
    ]


def _made(build: Callable[[], list[z3.BoolRef]]) -> tuple[list[str], list[tuple[int, str]], list[int]]:
    """In a fresh context: the terms `build` makes, the id of every part of them, and the ids of terms
    made after it (which take the ids of what it dropped)."""
    fresh_context()
    terms = build()
    parts: dict[int, str] = {}
    todo: list[z3.ExprRef] = list(terms)
    while todo:
        t = todo.pop()
        if t.get_id() not in parts:
            parts[t.get_id()] = t.sexpr()
            todo.extend(t.children())
    after = [z3.Int("later") * 4 + 11, z3.Int("later") - 13]
    return [t.sexpr() for t in terms], sorted(parts.items()), [t.get_id() for t in after]


def test_raw_terms_are_the_terms_z3s_operators_make_with_the_same_ids() -> None:
    assert _made(_with_raw) == _made(_with_operators)


def test_raw_assertions_are_the_solvers_own() -> None:
    def solve(raw: bool) -> tuple[str, str]:
        fresh_context()
        x, p = z3.Int("x"), z3.Bool("p")
        s = new_solver(cores=True)
        if raw:
            r = Raw()
            r.assert_(s, r.ge(x, 3), r.formula(r.le(x, 5)))
            r.track(s, r.formula(r.implies(p, r.eq(x, 4))), r.bool_var("r0"))
        else:
            s.add(x >= 3, x <= 5)
            s.assert_and_track(z3.Implies(p, x == 4), z3.Bool("r0"))
        s.add(p)
        assert s.check() == z3.sat
        return s.sexpr(), str(s.model())
    assert solve(True) == solve(False)


def test_int_value_reads_the_value_num_reads() -> None:
    fresh_context()
    x, y = z3.Ints("x y")
    s = new_solver()
    s.add(x == 5, y == -3)
    assert s.check() == z3.sat
    m = s.model()
    assert [int_value(m, t) for t in (x, y, x + y)] == [num(m, t) for t in (x, y, x + y)] == [5, -3, 2]
