"""The front door: a rulebook file (and variations) in, a compiled, checked model out."""

from __future__ import annotations

from .compiler.build import Builder
from .compiler.semantic import check_rulebook
from .diagnostics import Diagnostics, RulebookError
from .model import Rulebook
from .profiles import locate
from .source import Span
from .syntax.blame import blame_house_rule
from .syntax.loader import Loaded, load_tree


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
        start = len(d.items)
        if loaded.base_failed:
            _check_own_fields(loaded, path, d)
            return None, d
        rulebook = Builder(loaded.tree, path, loaded.chain, loaded.active, d, loaded.dropped_expect).build()
        if rulebook is not None:
            check_rulebook(rulebook, d, lints)
        if loaded.as_written is not None:
            _check_overridden(loaded, path, d)
        if loaded.extends is not None and loaded.own is not None:
            blame_house_rule(d, start, loaded.tree, loaded.own, loaded.extends)
    except RecursionError:
        d.error(Span(path, 1, 1), "E013", "the rulebook is nested too deep to read")
        return None, d
    if d.has_errors():
        return None, d
    return rulebook, d


def _check_overridden(loaded: Loaded, path: str, d: Diagnostics) -> None:
    """A rule the file sets and a variation it switches on sets again (W306) is still checked as the file wrote
    it: the errors the file's own value makes, on those lines, are the file's errors."""
    assert loaded.as_written is not None
    own = Diagnostics()
    own.sources = d.sources
    Builder(loaded.as_written, path, loaded.chain, loaded.active, own).build()
    lines = {(span.file, span.line) for span in loaded.overridden}
    d.extend(item for item in own.errors if (item.span.file, item.span.line) in lines)


def _check_own_fields(loaded: Loaded, path: str, d: Diagnostics) -> None:
    """The problems in a house rule's own fields when its base cannot be read: each field is checked
    as usual, but a rule missing here is not reported (the base would have given it)."""
    own = Diagnostics()
    own.sources = d.sources
    Builder(loaded.tree, path, loaded.chain, loaded.active, own).build()
    d.extend(item for item in own.items if not (item.code == "E201" and " is missing" in item.message))


def load_rulebook(path: str, variations: list[str] | tuple[str, ...] = ()) -> Rulebook:
    """The compiled rulebook, or RulebookError carrying every diagnostic."""
    rulebook, d = compile_rulebook(path, variations)
    if rulebook is None:
        raise RulebookError(d)
    return rulebook
