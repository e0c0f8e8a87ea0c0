"""Issue 27, point 2: the verifier's Z3 shortcuts live in one module, each beside the plain z3 call it replaces.

(a) No module but `verifier/solving/shortcuts.py` names Z3's C interface (`z3core`, `Z3_`), `ctypes`, glibc's
malloc setting or z3's private main context, and the package `verifier/solving` (the bottom layer) imports
nothing else of `verifier`. (b) Each `NAME_fast` there makes what `NAME_plain` makes: the same term (z3's `eq`),
made by the same calls in the same order (the same Z3 ids in a fresh context), or the same answer
(`Raw`, the bare-pointer terms, against z3's operators: tests/test_verifier_raw_terms.py).
(c) The agreement tests' step (`tests/verifier_steps.py`) asks the verifier's seeded solvers.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import z3
from verifier_steps import Steps

from cheatdsl.load import load_rulebook
from verifier.solving import shortcuts
from verifier.solving.solver import fresh_context
from verifier.encoding.spec import build_spec

ROOT = Path(__file__).resolve().parent.parent
SHORTCUTS = ROOT / "verifier" / "solving" / "shortcuts.py"
# What only the shortcuts module may name (this test names them too, to look for them).
FENCED = re.compile(r"z3core|Z3_|ctypes|mallopt|_main_ctx")


def _sources(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py")
                  if not any(part.startswith(".") or part in ("node_modules", "__pycache__", "site")
                             for part in p.relative_to(root).parts))


def fenced_mentions(root: Path) -> list[str]:
    """`path:line` of every mention of Z3's C interface, ctypes, malloc or z3's main context outside the
    shortcuts module (and this test) under `root`."""
    out = []
    for path in _sources(root):
        rel = path.relative_to(root).as_posix()
        if rel in ("verifier/solving/shortcuts.py", "tests/test_verifier_shortcuts.py"):
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FENCED.search(line):
                out.append(f"{rel}:{i}: {line.strip()}")
    return out


def test_only_the_shortcuts_module_names_z3s_c_interface_ctypes_or_malloc() -> None:
    """Issue 27 point 2: "the only module that touches z3core, ctypes or malloc settings"."""
    assert SHORTCUTS.is_file()
    assert FENCED.search(SHORTCUTS.read_text(encoding="utf-8"))
    assert fenced_mentions(ROOT) == []


def test_the_solving_package_imports_nothing_else_of_the_verifier() -> None:
    """Issue 27 point 4: the Z3 access is the verifier's bottom layer."""
    upward = []
    for path in sorted((ROOT / "verifier" / "solving").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                name = node.module or ""
                if node.level > 1 or (node.level == 0 and name.split(".")[0] in ("verifier", "cheatdsl")):
                    upward.append(f"{path.name}: from {'.' * node.level}{name}")
            elif isinstance(node, ast.Import):
                upward += [f"{path.name}: import {a.name}" for a in node.names
                           if a.name.split(".")[0] in ("verifier", "cheatdsl")]
    assert upward == []


# -- each fast version against its plain version ------------------------------------------------------

def _ints() -> tuple[z3.ArithRef, z3.ArithRef, z3.ArithRef]:
    return z3.Int("x"), z3.Int("y"), z3.IntVal(3)


def _bools() -> tuple[z3.BoolRef, z3.BoolRef]:
    return z3.Bool("p"), z3.Bool("q")


def _binary_args() -> list[tuple[Any, ...]]:
    x, y, three = _ints()
    return [(x, y), (x, 3), (x, three), (three, x), (three, 5), (x + 1, y * 2), (x, -4)]


def _eq_args() -> list[tuple[Any, ...]]:
    p, q = _bools()
    return [*_binary_args(), (p, q), (p, True)]


def _connective_args() -> list[tuple[Any, ...]]:
    p, q = _bools()
    x = z3.Int("x")
    return [(p, q), (p, q, x > 2), ([p, q, x < 1],), ((p, q),), ([],), (p, True), ([p],)]


def _if_args() -> list[tuple[Any, ...]]:
    x, y, three = _ints()
    p, q = _bools()
    return [(p, x, y), (p, x, three), (p, three, x), (p, q, p), (p, x, x), (p, x, x + 0), (True, x, y),
            (False, x, y), (z3.BoolVal(True), x, y), (z3.BoolVal(False), x, y), (p, 3, x), (x > 1, y, 4)]


def _sum_args() -> list[tuple[Any, ...]]:
    x, y, three = _ints()
    return [([x],), ([x, y],), ([x, three, y + 1],)]


def _sum_nonzero_args() -> list[tuple[Any, ...]]:
    x, y, three = _ints()
    zero = z3.IntVal(0)
    return [([], zero), ([zero, zero], zero), ([x, zero], zero), ([zero, x, y], zero), ([x, three, y + 1], zero)]


def _name_args() -> list[tuple[Any, ...]]:
    return [("hand_0",), ("a b",), ("x",)]


def _constant_args() -> list[tuple[Any, ...]]:
    x, y, three = _ints()
    return [(three,), (z3.IntVal(-12),), (x,), (x + 1,), (z3.BoolVal(True),), (4,), (z3.Bool("p"),)]


def _variable_args() -> list[tuple[Any, ...]]:
    x, y, three = _ints()
    return [(x,), (three,), (x + y,), (z3.Bool("p"),), (z3.BoolVal(False),), (z3.Not(z3.Bool("p")),)]


# Each shortcut's inputs: a function (called in a fresh context) giving argument tuples.
TERMS: dict[str, Callable[[], list[tuple[Any, ...]]]] = {
    "ge": _binary_args, "gt": _binary_args, "le": _binary_args, "lt": _binary_args,
    "eq": _eq_args, "ne": _binary_args,
    "plus": _binary_args, "minus": _binary_args, "times": _binary_args,
    "mod": lambda: [(z3.Int("x"), 3), (z3.Int("x") - z3.Int("y"), 7)],
    "and": _connective_args, "or": _connective_args,
    "not": lambda: [(z3.Bool("p"),), (z3.Int("x") > 1,), (True,)],
    "implies": lambda: [(z3.Bool("p"), z3.Bool("q")), (z3.Int("x") > 1, z3.Bool("q")), (True, z3.Bool("q"))],
    "if": _if_args,
    "one_if": lambda: [(z3.Bool("p"),), (z3.Int("x") >= 2,)],
    "sum": _sum_args, "sum_nonzero": _sum_nonzero_args,
    "int_var": _name_args, "bool_var": _name_args,
    "bool_val": lambda: [(True,), (False,)],
    "int_constant": _constant_args, "is_variable": _variable_args,
}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, z3.AstRef) or isinstance(b, z3.AstRef):
        return type(a) is type(b) and a.eq(b)
    return type(a) is type(b) and a == b


def _built(name: str, version: str) -> tuple[list[str], list[int]]:
    """In a fresh context: what `NAME_version` makes of each input, and the Z3 ids of those terms and of
    terms made afterwards (which show the same calls were made in the same order)."""
    fresh_context()
    make = getattr(shortcuts, f"{name}_{version}")
    got = [make(*args) for args in TERMS[name]()]
    later = [z3.Int("later") * 4 + 11, z3.Int("later") - 13]
    ids = [t.get_id() for t in [*got, *later] if isinstance(t, z3.AstRef)]
    return [t.sexpr() if isinstance(t, z3.AstRef) else repr(t) for t in got], ids


@pytest.mark.parametrize("name", sorted(TERMS))
def test_a_fast_term_is_the_term_its_plain_version_makes(name: str) -> None:
    """Issue 27 point 2 ("the plain z3 call beside each"): equal terms, made in the same order."""
    fresh_context()
    fast, plain = getattr(shortcuts, f"{name}_fast"), getattr(shortcuts, f"{name}_plain")
    for args in TERMS[name]():
        a, b = fast(*args), plain(*args)
        assert _same(a, b), (name, args, a, b)
    assert _built(name, "fast") == _built(name, "plain")


def _problem() -> tuple[z3.ArithRef, z3.ArithRef, list[z3.BoolRef]]:
    x, y = z3.Int("x"), z3.Int("y")
    return x, y, [x + y == 10, x >= 3, y >= x]


def _solved(s: z3.Solver) -> tuple[str, int, int]:
    x, y, facts = _problem()
    s.add(*facts)
    s.set("random_seed", 7)
    result = s.check()
    m = s.model()
    return str(result), m.eval(x, model_completion=True).as_long(), m.eval(y, model_completion=True).as_long()


def test_a_fast_solver_is_the_plain_solver() -> None:
    fresh_context()
    ctx = z3.main_ctx()
    fast = shortcuts.simple_solver_fast(ctx)
    assert isinstance(fast, shortcuts.Solver)
    assert _solved(fast) == _solved(shortcuts.simple_solver_plain(ctx))
    tactic = z3.Then("simplify", "solve-eqs", "smt")
    assert isinstance(shortcuts.tactic_solver_fast(tactic), shortcuts.Solver)
    assert _solved(shortcuts.tactic_solver_fast(tactic)) == _solved(shortcuts.tactic_solver_plain(tactic))


def test_a_fast_check_answers_as_the_plain_check() -> None:
    fresh_context()
    x, y, facts = _problem()
    for assumptions in [(), (x == 5,), (x == 5, y == 4), (y < 3,), (x == 2,)]:
        answers = []
        for check in (shortcuts.check_fast, shortcuts.check_plain):
            s = shortcuts.simple_solver_fast(z3.main_ctx())
            s.add(*facts)
            answers.append(check(s, *assumptions))
        assert answers[0] == answers[1], assumptions
        assert isinstance(answers[0], z3.CheckSatResult)


def test_a_fast_model_reading_is_the_plain_one() -> None:
    fresh_context()
    x, y, facts = _problem()
    s = shortcuts.simple_solver_fast(z3.main_ctx())
    s.add(*facts, x == 4)
    assert s.check() == z3.sat
    m = s.model()
    for term in (x, y, x * 2 - y, z3.Int("unused")):
        assert shortcuts.int_value_fast(m, term) == shortcuts.int_value_plain(m, term)


def test_a_value_set_fast_in_a_model_is_the_value_set_plainly() -> None:
    fresh_context()
    x, p = z3.Int("x"), z3.Bool("p")
    models = [z3.Model(), z3.Model()]
    for m, put in zip(models, (shortcuts.set_value_fast, shortcuts.set_value_plain)):
        put(m, x.decl(), z3.IntVal(6))
        put(m, p.decl(), z3.BoolVal(True))
    for term in (x, x + 1, z3.And(p, x > 5), z3.Or(z3.Not(p), x < 0)):
        assert _same(models[0].eval(term), models[1].eval(term))


CHECKED_ELSEWHERE = {"simple_solver", "tactic_solver", "check", "int_value", "set_value"}


def test_every_shortcut_has_its_plain_version_beside_it_and_is_checked() -> None:
    names = {k[:-len("_fast")] for k in vars(shortcuts) if k.endswith("_fast")}
    assert names == set(TERMS) | CHECKED_ELSEWHERE
    for name in names:
        fast, plain = getattr(shortcuts, f"{name}_fast"), getattr(shortcuts, f"{name}_plain")
        assert f"{name}_plain" in (fast.__doc__ or ""), f"{name}_fast's docstring names its plain version"
        assert plain.__doc__, name


# -- the agreement tests' step --------------------------------------------------------------------------

def test_the_agreement_step_asks_the_verifiers_seeded_solvers() -> None:
    """Issue 27 point 4: `Steps`' two solvers are the verifier's (`new_solver`: a fixed seed and limits)."""
    fresh_context()
    spec = build_spec(load_rulebook(str(ROOT / "rulebooks" / "standard.yaml")), 2)
    steps = Steps(spec)
    assert steps.solver is None and steps.deal_solver is None
    values = {name: 0 for _, name, _ in steps.s.items()}
    steps.deal_problems({**values, "over": False})
    assert isinstance(steps.deal_solver, shortcuts.Solver)
