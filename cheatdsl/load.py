"""The front door: a rulebook file (and variations) in, a compiled, checked model out."""

from __future__ import annotations

from .compiler.build import Builder
from .compiler.loader import load_tree
from .compiler.semantic import check_rulebook
from .diagnostics import Diagnostics, RulebookError
from .model import Rulebook
from .profiles import locate
from .source import Span


def compile_rulebook(path: str, variations: list[str] | tuple[str, ...] = (),
                     diagnostics: Diagnostics | None = None, text: str | None = None, lints: bool = True
                     ) -> tuple[Rulebook | None, Diagnostics]:
    """Compile `path` (a file, a shipped profile's name, or `-` for standard input) with `variations`
    switched on; every problem found is in the diagnostics. `text`, when given, is read in place of
    the file at `path` (an editor's unsaved copy); the bases it extends are read from disk. Without
    `lints` the author's warnings are not looked for (a caller that shows only errors)."""
    d = diagnostics or Diagnostics()
    if text is None:
        path = locate(path)
    requested = [(name, Span("<command line>", 0, 0)) for name in variations]
    try:
        loaded = load_tree(path, d, requested, text=text)
        if loaded is None:
            return None, d
        rulebook = Builder(loaded.tree, path, loaded.chain, loaded.active, d).build()
        if rulebook is not None:
            check_rulebook(rulebook, d, lints)
    except RecursionError:
        d.error(Span(path, 1, 1), "E013", "the rulebook is nested too deep to read")
        return None, d
    if d.has_errors():
        return None, d
    return rulebook, d


def load_rulebook(path: str, variations: list[str] | tuple[str, ...] = ()) -> Rulebook:
    """The compiled rulebook, or RulebookError carrying every diagnostic."""
    rulebook, d = compile_rulebook(path, variations)
    if rulebook is None:
        raise RulebookError(d)
    return rulebook
