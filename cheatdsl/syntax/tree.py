"""The node tree both surface forms read into: mappings, lists and scalars, each with a span.

The compiler turns this tree into the model; nothing after the compiler sees it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from ..source import Span

Scalar = str | int | float | bool | None
T = TypeVar("T")


@dataclass(frozen=True)
class ScalarNode:
    """A single value: text, a whole number, a truth value or nothing."""

    value: Scalar
    span: Span


@dataclass(frozen=True)
class ListNode:
    """An ordered list of nodes."""

    items: tuple[Node, ...]
    span: Span


@dataclass(frozen=True)
class Entry:
    """One `key: value` pair of a mapping, with the key's own span."""

    key: str
    key_span: Span
    value: Node


@dataclass(frozen=True)
class MapNode:
    """A mapping from names to nodes, in source order."""

    entries: tuple[Entry, ...]
    span: Span

    def get(self, key: str) -> Node | None:
        """The value under `key`, or None."""
        for entry in self.entries:
            if entry.key == key:
                return entry.value
        return None

    def entry(self, key: str) -> Entry | None:
        """The entry under `key`, or None."""
        for entry in self.entries:
            if entry.key == key:
                return entry
        return None

    def keys(self) -> list[str]:
        """The keys in source order."""
        return [e.key for e in self.entries]


Node = ScalarNode | ListNode | MapNode


def kind_of(node: Node) -> str:
    """A card player's word for what kind of value a node holds."""
    if isinstance(node, MapNode):
        return "a section"
    if isinstance(node, ListNode):
        return "a list"
    value = node.value
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if value is None:
        return "nothing"
    return f"'{value}'"


def fold(node: Node, scalar: Callable[[ScalarNode], T], sequence: Callable[[ListNode, list[T]], T],
         mapping: Callable[[MapNode, list[T]], T]) -> T:
    """`node` folded from the leaves up: each scalar by `scalar`, each list by `sequence` given its items
    folded, each mapping by `mapping` given its entries' values folded, in entry order.

    The one walk over a whole tree (to_plain, entries, and emit.py's YAML values and tree comparison);
    the readers bound a tree's depth (MAX_DEPTH), so the recursion is shallow.
    """
    if isinstance(node, ScalarNode):
        return scalar(node)
    if isinstance(node, ListNode):
        return sequence(node, [fold(item, scalar, sequence, mapping) for item in node.items])
    return mapping(node, [fold(e.value, scalar, sequence, mapping) for e in node.entries])


Placed = tuple[tuple[str, ...], Entry]  # an entry and the path of keys that leads to it


def entries(node: Node) -> list[Placed]:
    """Every entry of the tree with its path of keys (a list's items take the list's path), each entry
    before the entries inside it, in source order."""
    return fold(node, lambda _: [], lambda _, items: [found for item in items for found in item], _entries)


def _entries(node: MapNode, inside: list[list[Placed]]) -> list[Placed]:
    out: list[Placed] = []
    for entry, below in zip(node.entries, inside):
        out.append(((entry.key,), entry))
        out.extend(((entry.key, *path), found) for path, found in below)
    return out


def to_plain(node: Node) -> object:
    """The tree as plain Python values (dicts, lists, scalars), spans dropped."""
    return fold(node, lambda leaf: leaf.value, lambda _, items: items, lambda m, values: dict(zip(m.keys(), values)))


def merge(base: Node, patch: Node) -> Node:
    """`patch` laid over `base`: mappings merge key by key, anything else is replaced.

    A key whose value is the scalar `null`... is kept as null; removing a rule is said with `drop`.
    """
    if isinstance(base, MapNode) and isinstance(patch, MapNode):
        entries = list(base.entries)
        for new in patch.entries:
            for i, old in enumerate(entries):
                if old.key == new.key:
                    entries[i] = Entry(new.key, new.key_span, merge(old.value, new.value))
                    break
            else:
                entries.append(new)
        return MapNode(tuple(entries), base.span)
    return patch


def drop_path(node: Node, path: list[str]) -> tuple[Node, bool]:
    """`node` without the entry at dotted `path`; the flag says whether it was there."""
    if not path or not isinstance(node, MapNode):
        return node, False
    head, rest = path[0], path[1:]
    entries = []
    found = False
    for entry in node.entries:
        if entry.key == head:
            if rest:
                value, found = drop_path(entry.value, rest)
                entries.append(Entry(entry.key, entry.key_span, value))
            else:
                found = True
            continue
        entries.append(entry)
    return MapNode(tuple(entries), node.span), found
