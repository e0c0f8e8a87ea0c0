"""The rulebooks a server offers: each checked once at start, chosen by the page by index only."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from ..load import compile_rulebook
from ..model import Rulebook
from ..profiles import is_safe_name, locate, shipped_names, shipped_path
from ..reach import including
from .lessons import catalogue


@dataclass
class Entry:
    """One rulebook offered: its file, its compiled base, or the checker's diagnostics."""

    path: str
    label: str
    rulebook: Rulebook | None
    diagnostics: str = ""
    include: tuple[str, ...] = ()  # the --include folders its `extends` may reach
    most_variants: int = 64  # variation sets kept compiled, the least recently asked dropped first
    _compiled: OrderedDict[tuple[str, ...], tuple[Rulebook | None, str]] = field(default_factory=OrderedDict,
                                                                                 repr=False)

    def variant(self, variations: tuple[str, ...]) -> tuple[Rulebook | None, str]:
        """The rulebook with `variations` switched on, or None and the diagnostics (cached: variations are
        taken in the order the rulebook lists them, so every ordering of one set is compiled once)."""
        if not variations:
            return self.rulebook, self.diagnostics
        offered = self.variation_names()
        variations = tuple(sorted(set(variations), key=lambda n: offered.index(n) if n in offered else len(offered)))
        if variations in self._compiled:
            self._compiled.move_to_end(variations)
            return self._compiled[variations]
        with including(self.include):  # a request runs outside the command line's own setting
            rulebook, d = compile_rulebook(self.path, list(variations))
        self._compiled[variations] = (rulebook, "" if rulebook is not None else d.render())
        while len(self._compiled) > self.most_variants:
            self._compiled.popitem(last=False)
        return self._compiled[variations]

    def variation_names(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.rulebook.variations) if self.rulebook else ()


@dataclass
class Catalog:
    """The rulebooks of one server, in the order offered."""

    entries: list[Entry]

    def usable(self) -> list[int]:
        return [i for i, e in enumerate(self.entries) if e.rulebook is not None]

    def get(self, index: object) -> Entry | None:
        """The entry at `index` (an int the page sent), or None."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.entries):
            return None
        return self.entries[index]

    def check_variations(self, entry: Entry, names: object) -> tuple[str, ...] | str:
        """The variation names as a tuple, or a message saying why they are refused."""
        if names is None:
            return ()
        if not isinstance(names, list) or len(names) > 20 or not all(is_safe_name(n) for n in names):
            return "variations must be a list of the rulebook's variation names"
        offered = entry.variation_names()
        unknown = [n for n in names if n not in offered]
        if unknown:
            return f"{entry.label} has no variation {', '.join(unknown)}"
        return tuple(dict.fromkeys(names))


def build_catalog(arguments: list[str], include: list[str] | tuple[str, ...] = ()) -> Catalog:
    """The rulebooks named on the command line (paths or shipped names), or every shipped profile, those
    the lessons are written for first."""
    if not arguments:
        # The profiles the prepared lessons are written for come first, then the others by name.
        taught = {lesson["rulebook"] for lesson in catalogue()}
        names = sorted(shipped_names(), key=lambda n: (n not in taught, n))
        paths = [str(shipped_path(n)) for n in names]
        # A profile written twice (YAML and text) is offered once.
        return Catalog([_entry(p, tuple(include)) for p in dict.fromkeys(paths)])
    return Catalog([_entry(locate(a), tuple(include)) for a in arguments])


def _entry(path: str, include: tuple[str, ...]) -> Entry:
    with including(include):
        rulebook, d = compile_rulebook(path)
    label = rulebook.title if rulebook is not None else Path(path).name
    return Entry(path, label, rulebook, "" if rulebook is not None else d.render(), include)
