"""The comparison as plain text for a terminal: cells wrapped, columns split into several tables to fit."""

from __future__ import annotations

import math
import textwrap

from .grid import Column, Comparison, Row, Section

WIDTH = 100
MARK = "≠"
LEGEND = f"{MARK} marks a row on which the rulebooks differ"
LABEL_WIDTH = 20
GAP = "  "
MIN_COLUMN = 16


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False) or [""]


def column_groups(count: int, width: int = WIDTH) -> list[range]:
    """Columns split into as few tables as fit `width`, as evenly as possible."""
    room = width - len(MARK) - len(GAP) - LABEL_WIDTH
    most = max(1, room // (MIN_COLUMN + len(GAP)))
    tables = max(1, math.ceil(count / most))
    size, extra = divmod(count, tables)
    out, start = [], 0
    for t in range(tables):
        end = start + size + (1 if t < extra else 0)
        out.append(range(start, end))
        start = end
    return out


HEADINGS = {"rules": "rule", "verdicts": "property"}


def _table(columns: list[Column], rows: list[tuple[str, str, list[str]]], width: int, label: str = "") -> list[str]:
    room = width - len(MARK) - len(GAP) - LABEL_WIDTH
    cell = max(1, room // len(columns) - len(GAP))
    head = [(" ", label, [c.heading for c in columns])]
    rule = [(" ", "-" * LABEL_WIDTH, ["-" * cell for _ in columns])]
    blocks = []
    for mark, label, cells in head + rule + rows:
        parts = [_wrap(label, LABEL_WIDTH)] + [_wrap(c, cell) for c in cells]
        height = max(len(p) for p in parts)
        lines = []
        for i in range(height):
            pieces = [(p[i] if i < len(p) else "") for p in parts]
            text = (mark if i == 0 else " ") + GAP + pieces[0].ljust(LABEL_WIDTH)
            text += "".join(GAP + piece.ljust(cell) for piece in pieces[1:])
            lines.append(text.rstrip())
        blocks.append(lines)
    spaced = any(len(b) > 1 for b in blocks[2:])
    out = blocks[0] + blocks[1]
    for i, b in enumerate(blocks[2:]):
        if spaced and i:
            out.append("")
        out.extend(b)
    return out


def _section(columns: tuple[Column, ...], section: Section, width: int) -> list[str]:
    out = [section.title, "=" * len(section.title)]
    if section.note:
        out += _wrap(section.note, width)
    for finding in section.findings:
        out += [""] + textwrap.wrap(finding, width, initial_indent="! ", subsequent_indent="  ",
                                    break_long_words=True, break_on_hyphens=False)
    if not section.rows:
        return out
    if section.note or section.findings:
        out.append("")
    for n, group in enumerate(column_groups(len(columns), width)):
        if n:
            out.append("")
        rows = [(MARK if r.differs else " ", r.label, [r.cells[i] for i in group]) for r in section.rows]
        out += _table([columns[i] for i in group], rows, width, HEADINGS.get(section.key, ""))
    return out


def render(comparison: Comparison, width: int = WIDTH) -> str:
    """The whole comparison; every line at most `width` columns."""
    n = len(comparison.columns)
    out = _wrap(f"{n} rulebook{'s' if n != 1 else ''} compared; {LEGEND}.", width)
    for c in comparison.columns:
        out += textwrap.wrap(f"{c.heading}: {c.title} ({c.path})", width, subsequent_indent="    ",
                             break_long_words=True, break_on_hyphens=False)
    for section in comparison.sections:
        out.append("")
        out += _section(comparison.columns, section, width)
    return "\n".join(out) + "\n"


def _esc(text: str) -> str:
    """A Markdown table cell: pipes and backslashes escaped, on one line."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _md_row(row: Row) -> str:
    label = f"**{_esc(row.label)}**" if row.differs else _esc(row.label)
    return f"| {MARK if row.differs else ''} | {label} | " + " | ".join(_esc(c) for c in row.cells) + " |"


def markdown(comparison: Comparison) -> str:
    """The comparison as Markdown tables, one per section, every column in one table."""
    out = ["# Rulebooks compared", "", "| rulebook | title | file |", "|---|---|---|"]
    out += [f"| {_esc(c.heading)} | {_esc(c.title)} | `{_esc(c.path)}` |" for c in comparison.columns]
    for section in comparison.sections:
        out += ["", f"## {section.title}", ""]
        if section.note:
            out += [_esc(section.note), ""]
        if section.findings:
            out += [f"> **Finding.** {_esc(f)}" + "\n>" for f in section.findings[:-1]]
            out += [f"> **Finding.** {_esc(section.findings[-1])}", ""]
        if not section.rows:
            continue
        out += [f"{LEGEND}.", ""]
        out.append("| | | " + " | ".join(_esc(c.heading) for c in comparison.columns) + " |")
        out.append("|---|---|" + "---|" * len(comparison.columns))
        out += [_md_row(r) for r in section.rows]
    return "\n".join(out) + "\n"
