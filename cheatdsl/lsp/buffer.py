"""Compiling an editor's unsaved text as if it were the file at its path; nothing is written to disk."""

from __future__ import annotations

from ..diagnostics import Diagnostics
from ..load import compile_rulebook
from ..model import Rulebook
from ..syntax import loader
from ..syntax.tree import Node


def read_text(path: str, text: str, d: Diagnostics) -> Node | None:
    """The node tree of `text`, read by the surface form `path` names (the text DSL for .cheat)."""
    return loader.read_tree(path, d, text)


def compile_text(path: str, text: str, d: Diagnostics | None = None) -> tuple[Rulebook | None, Diagnostics]:
    """Compile `text` as the rulebook file at `path` would compile; every problem is in the diagnostics."""
    return compile_rulebook(path, (), d or Diagnostics(), text=text)


def merged_tree(path: str, text: str) -> Node | None:
    """The rulebook's tree merged with every base it extends (for finding where a variation is defined)."""
    try:
        loaded = loader.load_tree(path, Diagnostics(), [], text=text)
    except RecursionError:
        return None
    return loaded.tree if loaded is not None else None
