"""Typed reading of node-tree fields: each problem is recorded with its place and reading goes on."""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import Enum
from typing import TypeVar

from ..diagnostics import Diagnostics
from ..expr import Scope, Type, check_expression, compile_expression, parse_expression
from ..model import Formula
from ..source import Span
from ..syntax.hints import suggest
from ..syntax.table import Field, fields_at
from ..syntax.tree import ListNode, MapNode, Node, ScalarNode, kind_of

E = TypeVar("E", bound=Enum)
_RANGE = re.compile(r"^\s*(\d+)\s*(?:\.\.\s*(\d*)\s*)?$")


class Section:
    """One mapping of the rulebook, read field by field as cheatdsl/syntax/table.py describes each one;
    keys the table does not list are reported at the end."""

    def __init__(self, node: MapNode, path: str, diagnostics: Diagnostics) -> None:
        self.node = node
        self.path = path
        self.d = diagnostics
        self.used: set[str] = set()
        self.fields = fields_at(path)

    def field(self, key: str) -> Field:
        """The table's entry for `key`; a key the compiler reads must be in the table."""
        found = self.fields.get(key)
        if found is None:
            raise LookupError(f"`{self.where(key)}` is not in the field table (cheatdsl/syntax/table.py)")
        return found

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def span(self, key: str | None = None) -> Span:
        if key is not None:
            entry = self.node.entry(key)
            if entry is not None:
                return entry.value.span
        return self.node.span

    def raw(self, key: str, required: bool | None = None) -> Node | None:
        """The node under `key`; records a missing-decision error when required (by the table) and absent."""
        spec = self.field(key)
        required = spec.required if required is None else required
        why = spec.why
        self.used.add(key)
        value = self.node.get(key)
        if value is None and required:
            self.d.error(self.node.span, "E201", f"`{self.where(key)}` is missing: the rules must say {why}",
                         f"add `{key}:` to this section")
        if isinstance(value, ScalarNode) and value.value is None and required:
            self.d.error(value.span, "E201", f"`{self.where(key)}` is empty: the rules must say {why}")
            return None
        return value

    def section(self, key: str) -> Section | None:
        """A nested section."""
        node = self.raw(key)
        if node is None:
            return None
        if not isinstance(node, MapNode):
            self.d.error(node.span, "E202", f"`{self.where(key)}` must be a section of rules, found {kind_of(node)}")
            return None
        return Section(node, self.where(key), self.d)

    def text(self, key: str, default: str = "") -> str:
        node = self.raw(key)
        if node is None:
            return default
        if not isinstance(node, ScalarNode) or isinstance(node.value, bool) or node.value is None:
            self.d.error(node.span, "E203", f"`{self.where(key)}` must be text, found {kind_of(node)}")
            return default
        return str(node.value)

    def integer(self, key: str, default: int) -> int:
        low, high = self.field(key).low, self.field(key).high
        node = self.raw(key)
        if node is None:
            return default
        if not isinstance(node, ScalarNode) or isinstance(node.value, bool) or not isinstance(node.value, int):
            self.d.error(node.span, "E203", f"`{self.where(key)}` must be a whole number, found {kind_of(node)}")
            return default
        if not low <= node.value <= high:
            self.d.error(node.span, "E204", f"`{self.where(key)}` must be between {low} and {high}, found {node.value}")
            return default
        return node.value

    def optional_integer(self, key: str) -> int | None:
        node = self.raw(key)
        if node is None or (isinstance(node, ScalarNode) and node.value is None):
            return None
        return self.integer(key, 0)

    def boolean(self, key: str, default: bool) -> bool:
        node = self.raw(key)
        if node is None:
            return default
        if not isinstance(node, ScalarNode) or not isinstance(node.value, bool):
            self.d.error(node.span, "E203", f"`{self.where(key)}` must be true or false, found {kind_of(node)}")
            return default
        return node.value

    def choice(self, key: str, default: E | None, required: bool | None = None) -> E | None:
        """One of the table's choices for `key`, as its enum member."""
        enum = self.field(key).enum
        if enum is None:
            raise LookupError(f"`{self.where(key)}` has no choices in the field table")
        node = self.raw(key, required)
        if node is None:
            return default
        options = [m.value for m in enum]
        if not isinstance(node, ScalarNode) or not isinstance(node.value, str):
            self.d.error(node.span, "E205", f"`{self.where(key)}` must be one of {', '.join(options)}, found {kind_of(node)}")
            return default
        word = node.value.strip().replace("-", "_").replace(" ", "_")
        for member in enum:
            if member.value == word:
                return member  # type: ignore[return-value]
        self.d.error(node.span, "E205", f"`{self.where(key)}` must be one of {', '.join(options)}, found '{node.value}'",
                     suggest(word, options))
        return default

    def words(self, key: str) -> list[tuple[str, Span]]:
        """A list of plain words (or one word), each with its span."""
        node = self.raw(key)
        if node is None:
            return []
        items = node.items if isinstance(node, ListNode) else (node,)
        out = []
        for item in items:
            if isinstance(item, ScalarNode) and item.value is not None and not isinstance(item.value, bool):
                out.append((str(item.value), item.span))
            elif isinstance(item, ScalarNode) and item.value is None:
                continue
            else:
                self.d.error(item.span, "E203", f"each entry of `{self.where(key)}` must be a word, found {kind_of(item)}")
        return out

    def count_range(self, key: str, default: tuple[int, int | None] = (1, None)) -> tuple[int, int | None]:
        """`N`, `N..M` or `N..` (no upper limit)."""
        node = self.raw(key)
        if node is None:
            return default
        if isinstance(node, ScalarNode) and isinstance(node.value, int) and not isinstance(node.value, bool):
            return node.value, node.value
        match = _RANGE.match(str(node.value)) if isinstance(node, ScalarNode) else None
        if not match:
            self.d.error(node.span, "E206", f"`{self.where(key)}` must be a number or a range such as 1..4 or 1..,"
                         f" found {kind_of(node)}")
            return default
        low = int(match.group(1))
        high: int | None = low
        if ".." in match.group(0):
            high = int(match.group(2)) if match.group(2) else None
        if high is not None and high < low:
            self.d.error(node.span, "E207", f"`{self.where(key)}` runs from {low} down to {high}: the range is empty",
                         f"write {high}..{low}")
            return default
        return low, high

    def formula(self, key: str, scope_of: Callable[[str], Scope], default: str | None = None,
                required: bool | None = None) -> Formula | None:
        """A rule formula of the table's type, parsed, checked against the scope of its place, and compiled."""
        spec = self.field(key)
        wanted, scope = spec.value or Type.NUMBER, scope_of(spec.place)
        node = self.raw(key, required)
        if node is None:
            if default is None:
                return None
            return make_formula(default, self.node.span, wanted, scope, self.d, self.where(key))
        if not isinstance(node, ScalarNode) or node.value is None or isinstance(node.value, bool):
            self.d.error(node.span, "E203", f"`{self.where(key)}` must be a formula, found {kind_of(node)}")
            return None
        return make_formula(str(node.value), node.span, wanted, scope, self.d, self.where(key))

    def spans(self) -> tuple[tuple[str, Span], ...]:
        """Where each rule of this section was written, by name."""
        return tuple((e.key, e.value.span) for e in self.node.entries)

    def finish(self) -> None:
        """Report keys this section's table does not list."""
        known = sorted(self.fields)
        for entry in self.node.entries:
            if entry.key not in self.fields:
                self.d.error(entry.key_span, "E200", f"unknown rule `{self.where(entry.key)}`",
                             suggest(entry.key, known) or ("known here: " + ", ".join(known) if known else ""))


def make_formula(text: str, span: Span, wanted: Type, scope: Scope, d: Diagnostics, what: str) -> Formula | None:
    """Parse, check and compile one formula; None after recording its problems."""
    expr = parse_expression(text, span, d)
    if expr is None:
        return None
    if not check_expression(expr, wanted, scope, d, f"`{what}`"):
        return None
    return Formula.of(text, expr, compile_expression(expr, scope), span)
