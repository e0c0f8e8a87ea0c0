"""Issue 27 point 6 (front-end layering): "no runtime import runs upward or in a circle between packages".

The graph is drawn by tests/layers.py from the modules' own import statements (parsed, not run).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.layers import ROOT, all_imports, cycles, describe_cycle, package_graph, project_modules

MODULES = project_modules()
EDGES = package_graph(all_imports(), MODULES)
# The verifier's layers, bottom to top (issue 27: "Z3 access ..., the encoding ..., the properties, and the
# runner"): each may import only those before it.
VERIFIER_LAYERS = ["verifier.solving", "verifier.encoding", "verifier.properties", "verifier.exhaustive", "verifier"]


def _cycles_in(prefix: str) -> list[list[str]]:
    return [group for group in cycles(EDGES) if all(p.split(".")[0] == prefix for p in group)]


def test_the_cheatdsl_packages_import_each_other_in_no_cycle() -> None:
    """Issue 27 point 6: syntax, compiler, model, expr, cards, derived and files were one cycle (syntax/emit.py
    read compiler/table.py; expr and files read syntax/limits.py), and compiled <-> simulate another."""
    found = _cycles_in("cheatdsl")
    assert not found, "\n\n".join(describe_cycle(group, EDGES) for group in found)


def test_no_package_imports_cheatdsl_and_verifier_both_ways() -> None:
    """The verifier sits above cheatdsl: nothing in cheatdsl may need the verifier to import."""
    mixed = [group for group in cycles(EDGES) if len({p.split(".")[0] for p in group}) > 1]
    assert not mixed, "\n\n".join(describe_cycle(group, EDGES) for group in mixed)


def test_the_verifier_packages_import_each_other_in_no_cycle() -> None:
    """Issue 27 point 4: "`verifier` and `verifier/system` import each other"."""
    found = _cycles_in("verifier")
    assert not found, "\n\n".join(describe_cycle(group, EDGES) for group in found)


def test_the_verifiers_folders_are_its_layers() -> None:
    """Issue 27: "the verifier in layers whose folders show them, bottom to top: Z3 access, the encoding, the
    properties, and the runner": every package of the verifier is one of them, and none imports one above it."""
    packages = {m.rsplit(".", 1)[0] for m in MODULES if m.startswith("verifier.") and m.count(".") >= 2}
    assert packages <= set(VERIFIER_LAYERS), packages
    upward = [imp.where() for (a, b), imps in EDGES.items() if a in VERIFIER_LAYERS and b in VERIFIER_LAYERS
              and VERIFIER_LAYERS.index(b) > VERIFIER_LAYERS.index(a) for imp in imps]
    assert not upward, upward
    for layer in VERIFIER_LAYERS[:-1]:
        assert (ROOT / layer.replace(".", "/") / "__init__.py").exists()


def test_the_front_end_sits_below_the_compiler() -> None:
    """Issue 27 point 6: the field table and the limits are read by syntax and compiler without an upward
    import, and `extends`/variation merging (on syntax trees) is the front end's: the compiler imports
    syntax, never the other way round."""
    assert ("cheatdsl.compiler", "cheatdsl.syntax") in EDGES
    upward = [("cheatdsl.syntax", "cheatdsl.compiler"), ("cheatdsl.expr", "cheatdsl.syntax"),
              ("cheatdsl.files", "cheatdsl.syntax"), ("cheatdsl.compiled", "cheatdsl.simulate")]
    found = [imp.where() for edge in upward for imp in EDGES.get(edge, [])]
    assert not found, found


def test_the_limits_and_the_game_records_import_nothing_of_the_project() -> None:
    """Issue 27 point 6: what several layers read sits at the bottom: the input limits (read by files, expr,
    syntax and compiler) and a run's records and tally (written by both the Python and compiled engines)."""
    for bottom in ("cheatdsl.limits", "cheatdsl.tally"):
        found = [imp.where() for (a, _), imps in EDGES.items() if a == bottom for imp in imps]
        assert not found, found


def _graph_of(tmp_path: Path, files: dict[str, str]) -> dict[tuple[str, str], list[object]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return package_graph(all_imports(tmp_path), project_modules(tmp_path))  # type: ignore[return-value]


def test_the_check_finds_a_cycle_made_inside_a_function_and_names_its_lines(tmp_path: Path) -> None:
    """The check can fail: an import inside a function counts, one under `if TYPE_CHECKING:` does not,
    and the failure names the lines that close the cycle."""
    edges = _graph_of(tmp_path, {
        "cheatdsl/__init__.py": "",
        "cheatdsl/low/__init__.py": "",
        "cheatdsl/low/a.py": "def f():\n    from ..high.b import g\n",
        "cheatdsl/high/__init__.py": "",
        "cheatdsl/high/b.py": "from ..low import a\ndef g(): ...\n",
        "cheatdsl/typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .high.b import g\n",
        "verifier/__init__.py": "from cheatdsl.typed import *\n",
    })
    found = cycles(edges)  # type: ignore[arg-type]
    assert found == [["cheatdsl.high", "cheatdsl.low"]]
    text = describe_cycle(found[0], edges)  # type: ignore[arg-type]
    assert "cheatdsl/low/a.py:2: cheatdsl.low.a imports cheatdsl.high.b" in text
    assert "cheatdsl/high/b.py:1: cheatdsl.high.b imports cheatdsl.low.a" in text
    assert ("cheatdsl.typed", "cheatdsl.high") not in edges
    assert ("verifier", "cheatdsl.typed") in edges


def test_every_module_is_in_the_graph() -> None:
    """The check reads the whole tree: the front end's modules are there and root is the project's."""
    assert "cheatdsl.syntax.dsl_reader" in MODULES and "verifier.encoding.spec" in MODULES
    assert (ROOT / "cheatdsl" / "cli.py").exists()


def _engine_imports_of_words() -> list[str]:
    """Every import of `cheatdsl.words` in the engine's modules, `if TYPE_CHECKING:` ones included."""
    found = []
    for module, path in sorted(MODULES.items()):
        if not module.startswith("cheatdsl.engine"):
            continue
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                names = [".".join([*base, node.module or ""]).strip(".")]
                names += [f"{names[0]}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            if any(n == "cheatdsl.words" or n.startswith("cheatdsl.words.") for n in names):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_text_for_people_sits_above_the_engine() -> None:
    """Issue 27 point "Text for people (notation, words) sits above the engine": no module of
    cheatdsl.engine imports cheatdsl.words (not even for type hints), and cheatdsl.words imports the engine."""
    assert "cheatdsl.words.notation" in MODULES and "cheatdsl.engine.notation" not in MODULES
    assert not _engine_imports_of_words(), _engine_imports_of_words()
    assert ("cheatdsl.words", "cheatdsl.engine") in EDGES
    assert ("cheatdsl.engine", "cheatdsl.words") not in EDGES


def test_the_layers_script_shows_no_cycle() -> None:
    """Issue 27: `python tests/layers.py` draws the package graph and exits 0 only when it has no cycle."""
    run = subprocess.run([sys.executable, str(ROOT / "tests" / "layers.py")], capture_output=True, text=True,
                         timeout=120, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "cheatdsl.words -> cheatdsl.engine" in run.stdout
    assert "cycle" not in run.stdout.lower()
