"""Compiling an editor's unsaved text as if it were the file at its path; nothing is written to disk."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..compiler import loader
from ..compiler.build import Builder
from ..compiler.semantic import check_rulebook
from ..diagnostics import Diagnostics
from ..model import Rulebook
from ..source import SourceFile, Span
from ..syntax.dsl_reader import read_dsl
from ..syntax.limits import MAX_FILE_BYTES
from ..syntax.tree import Node
from ..syntax.yaml_reader import read_yaml


def read_text(path: str, text: str, d: Diagnostics) -> Node | None:
    """The node tree of `text`, read by the surface form `path` names (the text DSL for .cheat)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    source = SourceFile(path, text)
    d.sources[path] = source
    at = Span(path, 1, 1)
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        d.error(at, "E002", f"file is over {MAX_FILE_BYTES:,} bytes, the most a rulebook may be")
        return None
    if "\x00" in text:
        d.error(at, "E003", "file looks binary (it contains NUL bytes), not a rulebook")
        return None
    if not text.strip():
        d.error(at, "E004", "the file is empty", "start from a shipped rulebook in rulebooks/")
        return None
    return read_dsl(source, d) if path.endswith(".cheat") else read_yaml(source, d)


@contextmanager
def _reading_buffer(path: str, text: str) -> Iterator[None]:
    """While the block runs, the loader reads `text` for `path` and every other file from disk.

    The loader reads the top file by path (loader.read_tree); this stands in for that one read,
    so bases, confinement, drops and variations are exactly `check`'s.
    """
    original = loader.read_tree

    def read(name: str, d: Diagnostics) -> Node | None:
        return read_text(path, text, d) if name == path else original(name, d)

    loader.read_tree = read  # type: ignore[assignment]
    try:
        yield
    finally:
        loader.read_tree = original  # type: ignore[assignment]


def compile_text(path: str, text: str, d: Diagnostics | None = None) -> tuple[Rulebook | None, Diagnostics]:
    """Compile `text` as the rulebook file at `path` would compile; every problem is in the diagnostics."""
    d = d or Diagnostics()
    try:
        with _reading_buffer(path, text):
            loaded = loader.load_tree(path, d, [])
        if loaded is None:
            return None, d
        rulebook = Builder(loaded.tree, path, loaded.chain, loaded.active, d).build()
        if rulebook is not None:
            check_rulebook(rulebook, d)
    except RecursionError:
        d.error(Span(path, 1, 1), "E013", "the rulebook is nested too deep to read")
        return None, d
    return (None if d.has_errors() else rulebook), d


def merged_tree(path: str, text: str) -> Node | None:
    """The rulebook's tree merged with every base it extends (for finding where a variation is defined)."""
    d = Diagnostics()
    try:
        with _reading_buffer(path, text):
            loaded = loader.load_tree(path, d, [])
    except RecursionError:
        return None
    return loaded.tree if loaded is not None else None
