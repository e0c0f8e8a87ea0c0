"""Issue 27 point 3: the verifier's settings and caches are objects the caller makes and passes down
(`verifier/properties/settings.py`); they reach the worker processes as arguments, and two runs in one process with
different settings do not leak into each other.

The fixture: emptied-stays-in.yaml's no-deadlock fails induction; with one counterexample search
(`--searches 1`, the default) the play is found and replayed (refuted), with none (`--searches 0`) the
verdict is unknown, "not searched" (cheatdsl verify --help: "where none is made a failed induction is
unknown, never a pass").
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from cheatdsl.load import load_rulebook
from verifier.api import Request, Settings, verify, verify_many
from verifier.properties.settings import Caches
from verifier.properties.analysis import SEARCH_DEPTH, search_depth
from verifier.properties.verdict import Result, Verdict

FIXTURE = Path(__file__).parent / "fixtures" / "emptied-stays-in.yaml"


def _no_deadlock(settings: Settings, caches: Caches | None = None) -> Result:
    (timed,) = verify(load_rulebook(str(FIXTURE)), settings, ["no-deadlock"], caches=caches)
    return timed.result


def test_searches_reach_the_worker_that_runs_the_heavy_checks() -> None:
    """`--searches 0`: the failed induction is unknown, not searched; the default searches and refutes."""
    none = _no_deadlock(Settings(searches=0))
    assert none.verdict is Verdict.UNKNOWN and "not searched" in none.summary
    assert _no_deadlock(Settings()).verdict is Verdict.REFUTED


def test_two_runs_in_one_process_with_different_settings_do_not_leak() -> None:
    """A run with no searches, then one with the default, then none again: each reads as it would alone,
    with new caches each time or with one set of caches passed to all three."""
    for shared in (None, Caches()):
        first = _no_deadlock(Settings(searches=0), shared)
        default = _no_deadlock(Settings(), shared)
        again = _no_deadlock(Settings(searches=0), shared)
        assert default.verdict is Verdict.REFUTED
        assert (again.verdict, again.summary) == (first.verdict, first.summary)


def test_without_fork_a_run_in_this_process_reads_the_same_and_leaks_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where processes cannot be forked the heavy checks run here, each from a copy of the caches as a worker
    would: the same verdicts, and a search made under one setting is not reused under another."""
    import multiprocessing

    from verifier import runner

    def no_fork(method: str | None = None) -> object:
        raise ValueError("no fork here")
    monkeypatch.setattr(runner.multiprocessing, "get_context", no_fork)
    caches = Caches()
    assert _no_deadlock(Settings(), caches).verdict is Verdict.REFUTED
    none = _no_deadlock(Settings(searches=0), caches)
    assert none.verdict is Verdict.UNKNOWN and "not searched" in none.summary
    assert caches.analyses == {}
    assert multiprocessing.get_context is no_fork  # the path above was the one without workers


def test_rulebooks_verified_together_each_get_the_settings() -> None:
    rb = load_rulebook(str(FIXTURE))
    runs = verify_many([Request(rb, ("no-deadlock",)), Request(rb, ("no-deadlock", "deal"))], Settings(searches=0))
    assert [t.result.verdict for t in runs[0]] == [Verdict.UNKNOWN]
    assert [t.result.verdict for t in runs[1]] == [Verdict.UNKNOWN, Verdict.PROVED]


def test_the_verified_found_are_given_back_in_the_callers_caches() -> None:
    """Verdicts that no budget could change, found by a worker, are kept in the caches the caller passed."""
    caches = Caches()
    verify(load_rulebook(str(FIXTURE)), Settings(), ["card-conservation"], caches=caches)
    assert {pid for pid, _ in caches.known} >= {"card-conservation"}


def test_settings_are_frozen_and_keep_the_command_lines_bounds() -> None:
    settings = Settings(searches=-3, effort=0.0)
    assert (settings.searches, settings.effort) == (0, 0.01)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.searches = 2  # type: ignore[misc]


def test_the_search_depth_grows_with_the_effort_given() -> None:
    """`--search-effort X` searches deeper by the square root of X above 1 (the effort is an argument now)."""
    assert search_depth(1.0) == search_depth(0.5) == SEARCH_DEPTH
    assert search_depth(4.0) == 2 * SEARCH_DEPTH


# The code itself ----------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def _sources() -> list[Path]:
    return sorted((ROOT / "verifier").rglob("*.py")) + sorted((ROOT / "cheatdsl").rglob("*.py"))


def _module_names(tree: ast.Module) -> set[str]:
    """The names a module binds to modules of the verifier (`from verifier import transition`, `from .system
    import analysis`, `import verifier.runner as runner`)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("verifier")):
            names |= {a.asname or a.name for a in node.names if a.name.islower()}
        elif isinstance(node, ast.Import):
            names |= {a.asname or a.name.split(".")[0] for a in node.names if a.name.startswith("verifier")}
    return names


MUTATORS = {"clear", "update", "setdefault", "pop", "popitem", "append", "extend", "insert", "remove", "add",
            "discard"}


def _module_global(node: ast.AST, modules: set[str]) -> str | None:
    """`module.NAME` when `node` is an attribute of a verifier module imported here, else None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
        return f"{node.value.id}.{node.attr}"
    return None


def test_no_module_global_of_the_verifier_is_assigned_from_another_module() -> None:
    """Issue 27 point 3: settings are objects passed in, never `transition.SEARCHES = ...` from outside, nor a
    module's memo emptied and refilled from outside (`symmetry._CACHE.clear()`, `x.MEMO[k] = v`)."""
    found = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = _module_names(tree)
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
            touched = [_module_global(t.value if isinstance(t, ast.Subscript) else t, modules) for t in targets]
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
                touched.append(_module_global(node.func.value, modules))
            found += [f"{path.relative_to(ROOT)}:{node.lineno}: {name}" for name in touched if name]
    assert found == []


# Module-level caches left in the verifier: each is named with why it stays.
LEFT = {
    "verifier/properties/registry.py:_REGISTERED",  # the registry of properties, filled as each family is imported
    "verifier/properties/registry.py:PENDING",  # properties not implemented yet (none): a constant
}


def test_no_other_module_level_cache_is_left_in_the_verifier() -> None:
    """Issue 27 point 3: the caches of the heavy checks live in a `Caches` the caller makes, not in modules."""
    found = set()
    for path in sorted((ROOT / "verifier").rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            empty = isinstance(value, (ast.Dict, ast.Set, ast.List)) and not getattr(
                value, "keys" if isinstance(value, ast.Dict) else "elts") or (
                isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                and value.func.id in ("dict", "set", "list") and not value.args)
            if empty:
                target = node.targets[0] if isinstance(node, ast.Assign) else node.target  # type: ignore[union-attr]
                if isinstance(target, ast.Name):
                    found.add(f"{path.relative_to(ROOT).as_posix()}:{target.id}")
    assert found == LEFT
