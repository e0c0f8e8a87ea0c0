"""Compiling the rulebooks a comparison is asked for, with variations switched on where offered."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TextIO

from ..diagnostics import Diagnostics
from ..load import compile_rulebook
from ..model import Rulebook


class UsageError(Exception):
    """A request that cannot be met whatever the rulebooks say (exit status 2)."""


@dataclass
class Loaded:
    """The compiled rulebooks, in the order asked, or every diagnostic found on the way."""

    rulebooks: list[Rulebook] = field(default_factory=list)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    requested: list[tuple[str, ...]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.diagnostics.has_errors()

    def report(self, stream: TextIO | None = None) -> None:
        """Print the diagnostics as `cheatdsl check` does, with its summary line."""
        out = stream or sys.stderr
        text = self.diagnostics.render()
        if text:
            print(text, file=out)
        errors = len(self.diagnostics.errors)
        print(f"{errors} error{'s' if errors != 1 else ''} in the rulebooks; nothing compared", file=out)


def _compile(path: str, variations: tuple[str, ...], into: Diagnostics) -> Rulebook | None:
    d = Diagnostics()
    rulebook, _ = compile_rulebook(path, variations, d)
    into.items.extend(d.items)
    into.sources.update(d.sources)
    return rulebook


def load(paths: list[str], variations: list[str] | tuple[str, ...] = (), everywhere: bool = False) -> Loaded:
    """Compile every path; each variation is switched on in the rulebooks that offer it.

    With `everywhere`, every variation is switched on in every rulebook (an unknown one is then the
    rulebook's error). Otherwise a variation no rulebook offers is a UsageError.
    """
    loaded = Loaded()
    plain: list[Rulebook | None] = [_compile(p, () if not everywhere else tuple(variations), loaded.diagnostics)
                                    for p in paths]
    if not loaded.ok or everywhere or not variations:
        loaded.rulebooks = [rb for rb in plain if rb is not None]
        loaded.requested = [tuple(variations) if everywhere else () for _ in loaded.rulebooks]
        return loaded
    offered = [{v.name for v in rb.variations} if rb is not None else set() for rb in plain]
    unknown = [v for v in variations if not any(v in names for names in offered)]
    if unknown:
        known = sorted(set().union(*offered))
        raise UsageError(f"no rulebook given offers the variation{'s' if len(unknown) != 1 else ''} "
                         + ", ".join(f"`{v}`" for v in unknown) + "; "
                         + (f"they offer: {', '.join(known)}" if known else "they offer no variations"))
    for i, (path, names) in enumerate(zip(paths, offered)):
        used = tuple(v for v in variations if v in names)
        loaded.requested.append(used)
        if used:
            plain[i] = _compile(path, used, loaded.diagnostics)
    loaded.rulebooks = [rb for rb in plain if rb is not None]
    return loaded
