"""Putting a problem a house rule causes on the house rule's own line.

A house rule's fields are laid over its base rulebook's, so a problem the compiler finds in the
merged rules can sit at a base rulebook's line (a section that now lacks a field, a rule that no
longer fits). Such a problem is moved to the line of the house rule that touches the same rule (the
field it set, the `drop` that removed it) or else to its `extends:` line, with a note naming the base
rule by its rulebook's name and line.
"""

from __future__ import annotations

from dataclasses import replace

from ..diagnostics import Diagnostic, Diagnostics
from ..profiles import shown_path
from ..source import Span
from .tree import Entry, ListNode, MapNode, Node, ScalarNode, entries

RulePath = tuple[str, ...]  # a rule's dotted name, split: ("passing", "allowed")


def _places(node: Node, out: dict[tuple[str, int, int], RulePath]) -> None:
    """Every entry's key and value place in `node`, mapped to the entry's dotted path."""
    for path, entry in entries(node):
        for span in (entry.key_span, entry.value.span):
            out.setdefault((span.file, span.line, span.column), path)


def _first_leaf(entry: Entry) -> Entry:
    """The first field the author wrote inside `entry` (the entry itself when it is not a section)."""
    while isinstance(entry.value, MapNode) and entry.value.entries:
        entry = entry.value.entries[0]
    return entry


def _own_entry(own: MapNode, path: RulePath) -> Entry | None:
    """The house rule's deepest entry along `path` (the field it set), or None when it sets none there."""
    found: Entry | None = None
    node: Node = own
    for key in path:
        if not isinstance(node, MapNode):
            break
        entry = node.entry(key)
        if entry is None:
            break
        found, node = entry, entry.value
    return _first_leaf(found) if found is not None else None


def _dropped_at(own: MapNode, path: RulePath) -> Span | None:
    """The place of a `drop` word that removed a rule at or under `path`."""
    node = own.get("drop")
    items = node.items if isinstance(node, ListNode) else (node,) if node is not None else ()
    for item in items:
        if isinstance(item, ScalarNode) and isinstance(item.value, str):
            dropped = tuple(item.value.split("."))
            if dropped[: len(path)] == path or path[: len(dropped)] == dropped:
                return item.span
    return None


def _quoted(d: Diagnostics, span: Span) -> str:
    """The base line's text, trimmed of its comment, for the note."""
    source = d.sources.get(span.file)
    text = source.line(span.line) if source is not None else ""
    text = text.split(" #", 1)[0].strip()
    return f": `{text}`" if text and len(text) <= 60 else ""


def blame_house_rule(d: Diagnostics, start: int, merged: MapNode, own: MapNode, extends: Entry) -> None:
    """Move the problems recorded from `start` on that sit in a base rulebook to the house rule's line."""
    places: dict[tuple[str, int, int], RulePath] = {}
    _places(merged, places)
    mine = own.span.file
    moved: list[Diagnostic] = []
    for item in d.items[start:]:
        span = item.span
        if span.file == mine or span.file.startswith("<") or span.line == 0:
            moved.append(item)
            continue
        path = places.get((span.file, span.line, span.column), ())
        entry = _own_entry(own, path) if path else None
        target = _dropped_at(own, path) if path else None
        if target is None:
            target = entry.key_span if entry is not None else extends.value.span
        rule = f"`{'.'.join(path)}`" if path else "the rule involved"
        note = (f"{rule} comes from the base rulebook {shown_path(span.file)}, line {span.line}"
                f"{_quoted(d, span)}")
        moved.append(replace(item, span=target, note=note))
    d.items[start:] = moved
