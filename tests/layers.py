"""The package import graph of cheatdsl/ and verifier/, drawn from the code's own runtime imports.

Every module is parsed with `ast` (nothing is imported or run); an import counts wherever it stands,
at module level or inside a function, except under `if TYPE_CHECKING:`. Each module is mapped to its
package (`cheatdsl.syntax` for cheatdsl/syntax/emit.py, `cheatdsl.model` for cheatdsl/model.py,
`verifier` and its layers `verifier.solving`, `verifier.encoding`, `verifier.properties`), and the graph between packages is what tests/test_layers.py holds
free of cycles. `python tests/layers.py` prints the graph as text and as a Mermaid block for the docs.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP_PACKAGES = ("cheatdsl", "verifier")


@dataclass(frozen=True)
class Import:
    """One runtime import of one project module by another, with the line that makes it."""

    source: str  # the importing module, dotted
    target: str  # the imported module, dotted
    path: str  # the importing file, relative to the project root
    line: int

    def where(self) -> str:
        """`path:line: source imports target`, for a failure message."""
        return f"{self.path}:{self.line}: {self.source} imports {self.target}"


def module_name(path: Path, root: Path = ROOT) -> str:
    """The dotted module name of a file under `root` (`cheatdsl/syntax/__init__.py` is `cheatdsl.syntax`)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the project packages, by dotted name."""
    found: dict[str, Path] = {}
    for top in TOP_PACKAGES:
        for path in sorted((root / top).rglob("*.py")):
            found[module_name(path, root)] = path
    return found


def package_of(module: str, modules: dict[str, Path]) -> str:
    """The package a module belongs to: `cheatdsl.<first part>`, `verifier` or `verifier.<sub-package>`.

    A module of a top package's own folder is a package of its own (`cheatdsl.model`), except in the
    verifier, whose loose modules are one package (`verifier`) beside its sub-packages.
    """
    parts = module.split(".")
    if len(parts) == 1:
        return module
    head = ".".join(parts[:2])
    if parts[0] == "verifier" and not _is_package(head, modules):
        return "verifier"
    return head


def _is_package(dotted: str, modules: dict[str, Path]) -> bool:
    path = modules.get(dotted)
    return path is not None and path.name == "__init__.py"


def _is_type_checking(test: ast.expr) -> bool:
    """Whether an `if` test is `TYPE_CHECKING` or `typing.TYPE_CHECKING`."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _runtime_nodes(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of a module that run, skipping the bodies of `if TYPE_CHECKING:`."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            pending.extend(node.orelse)
            continue
        pending.extend(ast.iter_child_nodes(node))
    return sorted(found, key=lambda n: n.lineno)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a `from ... import` names."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(module: str, path: Path, modules: dict[str, Path], root: Path = ROOT) -> list[Import]:
    """The project modules `module` imports at run time."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    where = str(path.relative_to(root))
    out: list[Import] = []
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            base = _resolve(module, path.name == "__init__.py", node)
            # `from pkg import sub` imports the module pkg.sub when there is one, else a name of pkg.
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        for name in names:
            target = _known(name, modules)
            found = Import(module, target, where, node.lineno) if target is not None else None
            if found is not None and found not in out:
                out.append(found)
    return out


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The longest project module `name` starts with (None for a module outside the project)."""
    parts = name.split(".")
    while parts:
        dotted = ".".join(parts)
        if dotted in modules:
            return dotted
        parts.pop()
    return None


def all_imports(root: Path = ROOT) -> list[Import]:
    """Every runtime import between project modules."""
    modules = project_modules(root)
    return [i for name, path in modules.items() for i in imports_of(name, path, modules, root)]


def package_graph(imports: list[Import], modules: dict[str, Path]) -> dict[tuple[str, str], list[Import]]:
    """The imports between different packages, grouped by (importing package, imported package)."""
    edges: dict[tuple[str, str], list[Import]] = {}
    for imp in imports:
        a, b = package_of(imp.source, modules), package_of(imp.target, modules)
        if a != b:
            edges.setdefault((a, b), []).append(imp)
    return edges


def cycles(edges: dict[tuple[str, str], list[Import]]) -> list[list[str]]:
    """The strongly connected groups of two or more packages (each a cycle of imports), sorted."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm; the graph has a few dozen packages
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def shortest_cycles(group: list[str], edges: dict[tuple[str, str], list[Import]]) -> list[list[str]]:
    """For each import edge between the packages of one strongly connected group, the shortest way back:
    the distinct cycles that edge closes, shortest first (`[a, b, a]` for two packages importing each other)."""
    members = set(group)
    graph: dict[str, list[str]] = {m: sorted(b for (a, b) in edges if a == m and b in members) for m in group}
    found: list[list[str]] = []
    for (a, b) in sorted(edges):
        if a not in members or b not in members:
            continue
        back = _path(graph, b, a)
        cycle = [a, *back]
        rotated = _rotate(cycle[:-1])
        if rotated not in [_rotate(c[:-1]) for c in found]:
            found.append(cycle)
    return sorted(found, key=lambda c: (len(c), c))


def _path(graph: dict[str, list[str]], start: str, goal: str) -> list[str]:
    """The shortest path from `start` to `goal` (both in one strongly connected group), breadth first."""
    before: dict[str, str | None] = {start: None}
    queue = [start]
    for node in queue:
        if node == goal:
            break
        for nxt in graph[node]:
            if nxt not in before:
                before[nxt] = node
                queue.append(nxt)
    path = [goal]
    while before[path[-1]] is not None:
        path.append(before[path[-1]])  # type: ignore[arg-type]
    return path[::-1]


def _rotate(cycle: list[str]) -> tuple[str, ...]:
    """A cycle written from its smallest package, so that one cycle is written one way."""
    at = cycle.index(min(cycle))
    return tuple(cycle[at:] + cycle[:at])


def describe_cycle(group: list[str], edges: dict[tuple[str, str], list[Import]]) -> str:
    """A cycle's packages and, for each way round it, the import lines that close it, for a test failure."""
    lines = [f"packages importing each other in a cycle: {', '.join(group)}"]
    for cycle in shortest_cycles(group, edges):
        lines.append("  " + " -> ".join(cycle))
        for a, b in zip(cycle, cycle[1:]):
            first = edges[(a, b)]
            more = f" (and {len(first) - 1} more)" if len(first) > 1 else ""
            lines.append(f"    {first[0].where()}{more}")
    return "\n".join(lines)


def as_text(edges: dict[tuple[str, str], list[Import]]) -> str:
    """The package graph, one package a line with what it imports."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    return "\n".join(f"{a} -> {', '.join(sorted(graph[a])) or '(nothing)'}" for a in sorted(graph))


def as_mermaid(edges: dict[tuple[str, str], list[Import]]) -> str:
    """The package graph as a Mermaid flowchart, an edge per importing pair."""
    lines = ["```mermaid", "flowchart TD"]
    lines += [f"  {_mermaid_id(a)}[{a}] --> {_mermaid_id(b)}[{b}]" for a, b in sorted(edges)]
    lines.append("```")
    return "\n".join(lines)


def _mermaid_id(package: str) -> str:
    return package.replace(".", "_")


def main(root: Path = ROOT) -> int:
    """Print the package graph (text, then Mermaid) and any cycles; 1 when there is a cycle."""
    modules = project_modules(root)
    edges = package_graph(all_imports(root), modules)
    print(as_text(edges))
    print()
    print(as_mermaid(edges))
    found = cycles(edges)
    for group in found:
        print()
        print(describe_cycle(group, edges))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT))
