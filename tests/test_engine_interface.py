"""The engine's shape: `State` is used only through its public interface, and the package has no import cycle.

The project's choice (style guide, "spec, state and observer are three objects"): no module but
`cheatdsl/engine/state.py` reads or writes a state's private fields, and the modules of
`cheatdsl/engine` import one another without a cycle. Both checks read the source with `ast`; each
is shown to catch the fault it looks for.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "cheatdsl" / "engine"
STATE = ENGINE / "state.py"
SKIPPED_DIRS = {".venv", "venv", "build", "dist", "node_modules", "__pycache__"}
_BY_NAME = {"getattr", "setattr", "hasattr", "delattr"}


# -- State's private fields ---------------------------------------------------------------------

def state_private_fields(source: str) -> frozenset[str]:
    """The names in `State.__slots__` that start with an underscore (a state's private fields)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == "State":
            for item in node.body:
                if (isinstance(item, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__"
                                                         for t in item.targets)):
                    names = ast.literal_eval(item.value)
                    return frozenset(n for n in names if n.startswith("_"))
    raise AssertionError("State declares no __slots__: its private fields cannot be told")


def private_uses(source: str, private: frozenset[str]) -> list[str]:
    """Where `source` reaches a private field of State: `x._field` (x not `self`), or the field's name
    in a string such as `getattr(x, "_field")` or `attrgetter("x._field")`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in private:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _BY_NAME:
            name = node.args[1] if len(node.args) > 1 else None
            if isinstance(name, ast.Constant) and name.value in private:
                found.append(f"line {node.lineno}: {node.func.id}(..., {name.value!r})")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            parts = node.value.split(".")
            if len(parts) > 1 and all(p.isidentifier() for p in parts) and any(p in private for p in parts[1:]):
                found.append(f"line {node.lineno}: {node.value!r}")
    return sorted(found, key=lambda f: int(f.split(":")[0].split()[1]))


def python_files(root: Path) -> list[Path]:
    out = []
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).parts
        if any(p in SKIPPED_DIRS or (p.startswith(".") and p != ".") for p in parts[:-1]):
            continue
        out.append(path)
    return sorted(out)


def test_only_state_py_touches_a_states_private_fields() -> None:
    """Every module in the repository but state.py reads and changes a State through its interface."""
    private = state_private_fields(STATE.read_text(encoding="utf-8"))
    assert {"_hands", "_sizes", "_pile", "_stock", "_phase", "_seat"} <= private
    offenders = {}
    for path in python_files(ROOT):
        if path == STATE:
            continue
        uses = private_uses(path.read_text(encoding="utf-8"), private)
        if uses:
            offenders[str(path.relative_to(ROOT))] = uses
    assert not offenders, f"modules touching State's private fields: {offenders}"


def test_the_private_field_check_catches_a_reader() -> None:
    """Not vacuous: the forms a module used to reach into a state are all found."""
    private = frozenset({"_hands", "_phase", "_stock"})
    source = (
        "hand = state._hands[0]\n"
        "view._state._phase\n"
        "getattr(twin, '_stock')\n"
        "phase = attrgetter('_state._phase')\n"
        "self._hands = []\n"          # a class's own field of the same name: not State's
        "label = 'stock'\n"
    )
    assert [u.split(":")[0] for u in private_uses(source, private)] == ["line 1", "line 2", "line 3", "line 4"]


# -- import cycles ------------------------------------------------------------------------------

def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import that runs (at module level or inside a function), leaving out `if TYPE_CHECKING:` blocks."""
    out: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child.test):
                for other in child.orelse:
                    visit_one(other)
                continue
            visit_one(child)

    def visit_one(node: ast.AST) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        visit(node)

    visit(tree)
    return out


def import_graph(package: Path, name: str) -> dict[str, set[str]]:
    """module -> the modules of the same package it imports when it runs (`name` is the package's dotted name)."""
    modules = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for m in modules:
        tree = ast.parse((package / f"{m}.py").read_text(encoding="utf-8"))
        for node in _runtime_imports(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1 and node.module is None:
                    targets = [a.name for a in node.names]
                elif node.level == 1:
                    targets = [node.module.split(".")[0]] if node.module else []
                elif node.level == 0 and node.module and node.module.startswith(name + "."):
                    targets = [node.module[len(name) + 1:].split(".")[0]]
                else:
                    targets = []
            else:
                targets = [a.name[len(name) + 1:].split(".")[0] for a in node.names if a.name.startswith(name + ".")]
            graph[m].update(t for t in targets if t in modules and t != m)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def test_the_engine_package_has_no_import_cycle() -> None:
    """No module of cheatdsl/engine imports, at any time it runs, a module that imports it back."""
    graph = import_graph(ENGINE, "cheatdsl.engine")
    assert "state" in graph and graph["state"], "the engine's modules were not read"
    assert cycles(graph) == []


def test_the_cycle_check_catches_a_lazy_import(tmp_path: Path) -> None:
    """Not vacuous: a cycle closed by an import inside a function is found; a TYPE_CHECKING one is not."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from .a import thing\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n")
    (pkg / "d.py").write_text("import pkg.c\n")
    graph = import_graph(pkg, "pkg")
    assert graph == {"a": {"b"}, "b": {"a"}, "c": set(), "d": {"c"}}
    assert cycles(graph) == [["a", "b"]]
