"""The compiled kernel's steps each name the interpreter function they mirror (issue: "each rule's step beside
the interpreter function it mirrors, named in its docstring"), and every such name still exists.

The files are read as text, so numba is not needed: a step renamed in the interpreter, or a docstring that
names a function nobody wrote, fails here rather than misleading the next reader of the kernel.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

COMPILED = Path(__file__).resolve().parent.parent / "cheatdsl" / "compiled"
# The interpreter's modules a step may mirror, by the short names the docstrings use.
MODULES = {name: f"cheatdsl.{name}" for name in (
    "engine.state", "engine.challenge", "engine.plays", "engine.deal", "engine.ending", "engine.records",
    "bots.base", "bots.simple", "bots.honest", "bots.counter", "bots.odds", "bots.table", "derived", "tally")}
NAME = re.compile(r"(?:(engine|bots)/(\w+)\.py )?`([A-Za-z_][\w.]*)`")


def _modules() -> dict[str, object]:
    return {short: importlib.import_module(full) for short, full in MODULES.items()}


def _resolves(path_dir: str | None, path_module: str | None, name: str, modules: dict[str, object]) -> bool:
    """Whether `name` (with the file a docstring names before it, if any) is an interpreter function, method
    or class: `State.begin_turn`, `challenge.settle`, bots/odds.py `hand_odds`."""
    candidates = [modules[f"{path_dir}.{path_module}"]] if path_dir else list(modules.values())
    first, *rest = name.split(".")
    for module in candidates:
        short = module.__name__.rsplit(".", 1)[-1]
        if first == short and rest:  # `challenge.settle`
            target: object | None = module
            parts = rest
        else:
            target, parts = module, [first, *rest]
        for part in parts:
            target = getattr(target, part, None)
            if target is None:
                break
        if target is not None and callable(target):
            return True
    # A method named alone, of a class the interpreter's modules define (`_apply_accept` after `State.`).
    if not rest:
        for module in candidates:
            for value in vars(module).values():
                if isinstance(value, type) and callable(getattr(value, first, None)):
                    return True
    return False


def _steps(file: str) -> list[tuple[str, str]]:
    """(name, docstring) of every function `kernel.play_on` inlines from `file` (decorated `@inlined`)."""
    tree = ast.parse((COMPILED / file).read_text())
    out = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and any(isinstance(d, ast.Name) and d.id == "inlined"
                                                     for d in node.decorator_list):
            out.append((node.name, ast.get_docstring(node) or ""))
    return out


STEPS = [(file, name, doc) for file in ("steps.py", "bots.py") for name, doc in _steps(file)
         if name not in {"write_record"}]  # the record row: the kernel's own output, mirroring no step


def test_the_kernel_has_its_steps() -> None:
    """The turn's rules are steps, not one body: at least a dozen from steps.py and bots.py together."""
    assert len(STEPS) >= 12, [name for _, name, _ in STEPS]


@pytest.mark.parametrize(("file", "name", "doc"), STEPS, ids=[f"{f}:{n}" for f, n, _ in STEPS])
def test_each_step_names_an_interpreter_function_that_exists(file: str, name: str, doc: str) -> None:
    modules = _modules()
    named = NAME.findall(doc)
    mirrored = [(d, m, n) for d, m, n in named if _resolves(d or None, m or None, n, modules)]
    assert mirrored, f"{file}: {name} names no interpreter function it mirrors (its docstring: {doc[:160]!r})"
    # A dotted name of a class or module the interpreter has must resolve: a rename there fails here.
    from cheatdsl.played_by import FIELDS  # a rulebook field (`challenge.next_player`) is named as a rule, not code
    classes = {k for mod in modules.values() for k, v in vars(mod).items() if isinstance(v, type)}
    shorts = {full.rsplit(".", 1)[-1] for full in MODULES.values()}
    sections = {field.split(".")[0] for field in FIELDS}
    for d, m, n in named:
        head = n.split(".")[0]
        if "." in n and head in sections and head not in shorts:  # a rulebook field (`passing.when`) must be one
            assert n in FIELDS, f"{file}: {name} names the rule `{n}`, which the language does not have"
        if "." in n and (head in classes or head in shorts) and n not in FIELDS and not n.startswith(("r.", "t.")):
            assert _resolves(d or None, m or None, n, modules), f"{file}: {name} names `{n}`, which does not exist"
