"""Where in a rulebook a cursor stands: the chain of keys above it, and the field table's entry for it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..source import Span
from ..syntax.table import META, SECTIONS, Field
from ..syntax.tree import Entry, ListNode, MapNode, Node

ITEM = "[]"  # a list entry in a key chain, as in ("challenge", "kinds", "[]", "name")


@dataclass(frozen=True)
class Found:
    """What the cursor is on: the keys down to it, and whether it is on a key or within its value."""

    keys: tuple[str, ...]
    on_key: bool
    entry: Entry | None
    node: Node | None


def contains(span: Span, line: int, column: int) -> bool:
    """Whether the 1-based (line, column) lies within the span (its end included)."""
    end_line = span.end_line or span.line
    end_column = span.end_column or span.column + 1
    return (span.line, span.column) <= (line, column) <= (end_line, end_column)


def find(tree: Node, line: int, column: int) -> Found | None:
    """The innermost key or value at (line, column), 1-based."""
    keys: tuple[str, ...] = ()
    node: Node = tree
    found: Found | None = None
    while True:
        if isinstance(node, MapNode):
            for entry in node.entries:
                if contains(entry.key_span, line, column):
                    return Found((*keys, entry.key), True, entry, entry.value)
                if contains(entry.value.span, line, column):
                    keys, node = (*keys, entry.key), entry.value
                    found = Found(keys, False, entry, node)
                    break
            else:
                return found
        elif isinstance(node, ListNode):
            for item in node.items:
                if contains(item.span, line, column) and not _is_scalar(item):
                    keys, node = (*keys, ITEM), item
                    break
            else:
                return found
        else:
            return found


def _is_scalar(node: Node) -> bool:
    return not isinstance(node, MapNode | ListNode)


def section_path(keys: tuple[str, ...]) -> str | None:
    """The field table's path of the section the keys lead into, or None when the table has none."""
    path = ""
    index = 0
    while index < len(keys):
        key = keys[index]
        if path == "" and key == "variations":
            if index + 1 >= len(keys):
                return "variations"
            if index + 2 < len(keys) and keys[index + 2] == "changes":
                path, index = "", index + 3
                continue
            path, index = "variations.*", index + 2
            continue
        if path == "" and key == "expect":
            return "expect"
        if key == ITEM:
            path += ITEM
        else:
            path = f"{path}.{key}" if path else key
        index += 1
    return path if path in SECTIONS else None


def fields_in(path: str | None) -> tuple[Field, ...]:
    """The fields a section may hold (the top level includes `extends`, `drop` and `use`)."""
    if path is None:
        return ()
    if path == "":
        return (*SECTIONS[""], *META)
    return SECTIONS.get(path, ())


def field_for(keys: tuple[str, ...]) -> Field | None:
    """The table's field named by the last key, within the section the others lead into."""
    if not keys:
        return None
    section = section_path(keys[:-1])
    for field in fields_in(section):
        if field.name == keys[-1]:
            return field
    if keys[-1] == ITEM and len(keys) > 1:
        return field_for(keys[:-1])
    return None


def full_name(keys: tuple[str, ...]) -> str:
    """The keys written as in the reference: `challenge.kinds[].name`."""
    return ".".join(keys).replace(f".{ITEM}", ITEM)


# --- the text around the cursor, for completion in a file still being typed ------------------------

_YAML_KEY = re.compile(r"^(\s*)(-\s+)?([\w.-]+)\s*:(.*)$")
_DSL_WORD = re.compile(r"[^\s{}\[\];,\"`#]+")


@dataclass(frozen=True)
class Typing:
    """What is being typed: the keys of the enclosing sections, and the rule whose value it is (if any)."""

    sections: tuple[str, ...]
    key: str | None


def yaml_typing(lines: list[str], line: int, column: int) -> Typing:
    """The cursor's context in YAML text, by indentation (0-based line and column)."""
    current = lines[line][:column] if line < len(lines) else ""
    match = _YAML_KEY.match(current)
    key = match.group(3) if match else None
    body = current.lstrip(" ")
    limit = len(current) - len(body)
    chain: list[str] = []
    if body.startswith("-"):
        chain.append(ITEM)
    for text in reversed(lines[:line]):
        stripped = text.strip()
        start = len(text) - len(text.lstrip(" "))
        if not stripped or stripped.startswith("#") or start >= limit:
            continue
        found = _YAML_KEY.match(text)
        if stripped.startswith("-"):
            chain.append(ITEM)
        elif found and not found.group(4).strip():
            chain.append(found.group(3))
        limit = start
        if start == 0:
            break
    return Typing(tuple(reversed(chain)), key)


def dsl_typing(text: str, offset: int) -> Typing:
    """The cursor's context in text DSL, by the brackets open before it (an offset into the text)."""
    stack: list[tuple[str, str]] = []  # ("section", key), ("list", key) or ("item", "")
    first: str | None = None  # the rule's name, once written
    spaced = False  # whether the cursor is past the rule's name
    before = text[:offset]
    index = 0
    while index < len(before):
        char = before[index]
        if char in "\"`":  # quoted text and formulas end on their own line
            end, newline = before.find(char, index + 1), before.find("\n", index + 1)
            if newline >= 0 and (end < 0 or newline < end):
                end = newline - 1
            index = len(before) if end < 0 else end + 1
            spaced = True
            continue
        if char == "#":
            end = before.find("\n", index)
            index = len(before) if end < 0 else end
            continue
        if char == "{":
            stack.append(("section", first) if first else ("item", ""))
            first, spaced = None, False
        elif char == "[":
            stack.append(("list", first or ""))
            first, spaced = None, False
        elif char in "}]":
            if stack:
                stack.pop()
            first, spaced = None, False
        elif char in "\n;,":
            first, spaced = None, False
        elif char.isspace():
            spaced = first is not None
        else:
            word = _DSL_WORD.match(before, index)
            if first is None and (not stack or stack[-1][0] != "list"):
                first = word.group(0) if word else char
            else:
                spaced = True
            index += len(word.group(0)) if word else 1
            continue
        index += 1
    sections = tuple(ITEM if kind == "item" else name for kind, name in stack)
    if stack and stack[-1][0] == "list":
        return Typing(sections[:-1], stack[-1][1] or None)
    return Typing(sections, first if spaced else None)
