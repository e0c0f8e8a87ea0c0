"""The side-by-side comparison as data: a column per rulebook, sections of rows, rows that differ marked.

Every renderer (text, Markdown, HTML, JSON) reads only this. A section may keep the data it was built
from, one entry per rulebook: the verifier's verdicts as plain dicts, the simulator's statistics as
values that know their JSON form (`as_json`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..model import Rulebook
from ..profiles import shown_path
from .describe import DIMENSIONS, describe


class Datum(Protocol):
    """A section's data for one rulebook that says itself in JSON."""

    def as_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Column:
    """One rulebook being compared (`rulebook` is kept for findings that set two columns' rules side by side)."""

    name: str
    title: str
    path: str
    variations: tuple[str, ...] = ()
    rulebook: Rulebook | None = field(default=None, compare=False, repr=False)

    @property
    def heading(self) -> str:
        return self.name + "".join(f" +{v}" for v in self.variations)


@dataclass(frozen=True)
class Row:
    """One dimension (or property, or statistic) across every column; `notes` are optional per-cell details.

    `readings` mark cells to set apart: "expected" (a verdict the rulebook expects), "unexpected";
    `values`, when given, are what the row differs by (a verdict without its expectation). `beyond`, for a
    figure measured by games, says whether some two columns differ beyond chance (`chance.py`): only then does
    the row differ, however its cells read.
    """

    key: str
    label: str
    cells: tuple[str, ...]
    notes: tuple[str, ...] = ()
    readings: tuple[str, ...] = ()
    values: tuple[str, ...] = ()
    beyond: bool | None = None

    @property
    def differs(self) -> bool:
        if self.beyond is not None:
            return self.beyond
        return len(set(self.values or self.cells)) > 1


@dataclass(frozen=True)
class Plot:
    """A chart of simulation data, drawn by the HTML page."""

    key: str
    title: str
    svg: str


@dataclass(frozen=True)
class Section:
    """A titled block of rows; `note` says why a section has no rows (or qualifies the ones it has).

    `findings` are sentences a reader must see beside the numbers (unfinished games, identical games).
    """

    key: str
    title: str
    rows: tuple[Row, ...] = ()
    note: str = ""
    findings: tuple[str, ...] = ()
    plots: tuple[Plot, ...] = ()
    data: tuple[Datum | Mapping[str, Any] | None, ...] = ()


@dataclass(frozen=True)
class Comparison:
    """Rulebooks side by side: the rules first, then whatever other sections were gathered."""

    columns: tuple[Column, ...]
    sections: tuple[Section, ...] = field(default=())

    def __post_init__(self) -> None:
        from .statistics import linked  # the statistics' findings read the verdicts
        object.__setattr__(self, "sections", linked(self.columns, tuple(self.sections)))

    def section(self, key: str) -> Section | None:
        return next((s for s in self.sections if s.key == key), None)


def columns_for(rulebooks: list[Rulebook], requested: list[tuple[str, ...]] | None = None) -> tuple[Column, ...]:
    """A column per rulebook, headed by its name and the variations asked for on the command line.

    Two rulebooks of one name are told apart by their file names.
    """
    asked = requested or [() for _ in rulebooks]
    names = [(rb.name, used) for rb, used in zip(rulebooks, asked)]
    out = []
    for rb, used in zip(rulebooks, asked):
        name = rb.name
        path = "<stdin>" if rb.path == "-" else rb.path
        if names.count((name, used)) > 1:
            name = os.path.basename(path)
        out.append(Column(name, rb.title, shown_path(path), used, rb))
    return tuple(out)


def rules_section(rulebooks: list[Rulebook]) -> Section:
    """Every rule dimension of every rulebook, in words."""
    described = [describe(rb) for rb in rulebooks]
    rows = tuple(Row(d.key, d.label, tuple(cells[d.key] for cells in described)) for d in DIMENSIONS)
    return Section("rules", "Rules", rows)


def as_json(comparison: Comparison) -> dict[str, Any]:
    """The comparison as plain data: the rulebooks, then each section's rows (a cell per rulebook)."""
    out: dict[str, Any] = {
        "rulebooks": [{"name": c.heading, "rulebook": c.name, "title": c.title, "path": c.path,
                       "variations": list(c.variations)} for c in comparison.columns],
    }
    for s in comparison.sections:
        rows = [{"key": r.key, "label": r.label, "cells": list(r.cells), "differs": r.differs}
                | ({"details": list(r.notes)} if any(r.notes) else {})
                | ({"readings": list(r.readings)} if any(r.readings) else {}) for r in s.rows]
        if s.key == "rules":
            out["rules"] = rows
            continue
        entry: dict[str, Any] = {"title": s.title, "note": s.note, "findings": list(s.findings), "rows": rows}
        if s.data:
            entry["data"] = [d if d is None or isinstance(d, Mapping) else d.as_json() for d in s.data]
        out[s.key] = entry
    return out
