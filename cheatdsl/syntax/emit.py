"""Writing a node tree back out, as YAML or as the text DSL; either re-reads to an equal tree.

Comments are not part of the tree, so they are not carried over.
"""

from __future__ import annotations

import math
import re

import yaml

from .table import SECTIONS, Kind
from .tree import ListNode, MapNode, Node, ScalarNode, fold

WIDTH = 100
INDENT = "  "

_WORD = re.compile(r"(?:[^\W\d]|[0-9]+[^\W\d])[\w.\-]*")  # the grammar's WORD
_RANGE = re.compile(r"[0-9]+\.\.[0-9]*")
_DECIMAL = re.compile(r"-?[0-9]+\.[0-9]+(?:[eE][+-]?[0-9]+)?")
_KEYWORDS = ("true", "false", "null")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}

# Where a rule is a formula (docs/language.md, "Each place a formula stands"); its text is written
# in backticks. Inside `variations.NAME.changes` the same places are found under the changes.
FORMULA_FIELDS = frozenset(
    (*section.replace("[]", "").split("."), f.name)
    for section, fields in SECTIONS.items() for f in fields if f.kind is Kind.FORMULA
)


class EmitError(ValueError):
    """A value the chosen form cannot write (a float such as inf)."""


# --- YAML ---------------------------------------------------------------------------------------


class _FlowList(list):  # type: ignore[type-arg]
    """A list of plain values, written on one line: `ranks: [A, 2, 3]`."""


class _Dumper(yaml.SafeDumper):
    """The safe dumper, with lists of plain values in flow style and block lists indented."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


_Dumper.add_representer(
    _FlowList, lambda dumper, data: dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True))


def _yaml_value(node: Node) -> object:
    return fold(node, lambda leaf: leaf.value, _yaml_list, lambda m, values: dict(zip(m.keys(), values)))


def _yaml_list(node: ListNode, items: list[object]) -> object:
    return _FlowList(items) if all(isinstance(i, ScalarNode) for i in node.items) else items


def to_yaml(node: Node) -> str:
    """The tree as YAML text, keys in source order, formulas and ranges as plain text.

    At the top level a section is set off by blank lines, as in the shipped rulebooks.
    """
    if not isinstance(node, MapNode) or not node.entries:
        return _dump(_yaml_value(node))
    parts = [_dump({e.key: _yaml_value(e.value)}) for e in node.entries]
    out = parts[0]
    for before, part in zip(parts, parts[1:]):
        out += ("\n" if part.count("\n") > 1 or before.count("\n") > 1 else "") + part
    return out


def _dump(value: object) -> str:
    return yaml.dump(value, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False,
                     width=WIDTH)


# --- the text DSL -------------------------------------------------------------------------------


def to_dsl(node: MapNode) -> str:
    """The tree as DSL text: one rule a line, sections indented, short lists of sections inline."""
    lines: list[str] = []
    previous_block = False
    for index, entry in enumerate(node.entries):
        block = _lines(entry.key, entry.value, (entry.key,), 0)
        is_block = len(block) > 1
        if index and (is_block or previous_block):
            lines.append("")
        lines.extend(block)
        previous_block = is_block
    return "\n".join(lines) + "\n"


def _lines(key: str, value: Node, path: tuple[str, ...], depth: int) -> list[str]:
    """The lines of one `key value` rule at `depth`."""
    pad = INDENT * depth
    head = f"{pad}{_key(key)}"
    if isinstance(value, ScalarNode):
        return [f"{head} {_scalar(value.value, _is_formula(path))}"]
    if isinstance(value, MapNode):
        if not value.entries:
            return [f"{head} {{}}"]
        body = [line for e in value.entries for line in _lines(e.key, e.value, (*path, e.key), depth + 1)]
        return [f"{head} {{", *body, f"{pad}}}"]
    if not value.items:
        return [f"{head} []"]
    if all(isinstance(i, ScalarNode) for i in value.items):
        words = [_scalar(i.value, _is_formula(path)) for i in value.items]  # type: ignore[union-attr]
        one_line = f"{head} " + " ".join(words) if len(words) > 1 else f"{head} [{words[0]}]"
        if len(one_line) <= WIDTH:
            return [one_line]
        return [f"{head} [", *(f"{pad}{INDENT}{w}" for w in words), f"{pad}]"]
    body = [line for item in value.items for line in _item_lines(item, path, depth + 1)]
    return [f"{head} [", *body, f"{pad}]"]


def _item_lines(item: Node, path: tuple[str, ...], depth: int) -> list[str]:
    """The lines of one list item at `depth`: a short list, or section of plain rules, goes on one line."""
    pad = INDENT * depth
    if isinstance(item, ScalarNode):
        return [f"{pad}{_scalar(item.value, _is_formula(path))}"]
    if isinstance(item, MapNode):
        if item.entries and all(isinstance(e.value, ScalarNode) for e in item.entries):
            inline = "; ".join(_lines(e.key, e.value, (*path, e.key), 0)[0] for e in item.entries)
            if len(pad) + len(inline) + 4 <= WIDTH:
                return [f"{pad}{{ {inline} }}"]
        if not item.entries:
            return [f"{pad}{{}}"]
        body = [line for e in item.entries for line in _lines(e.key, e.value, (*path, e.key), depth + 1)]
        return [f"{pad}{{", *body, f"{pad}}}"]
    if all(isinstance(i, ScalarNode) for i in item.items):
        inline = " ".join(_scalar(i.value, _is_formula(path)) for i in item.items)  # type: ignore[union-attr]
        if len(pad) + len(inline) + 2 <= WIDTH:
            return [f"{pad}[{inline}]"]
    body = [line for sub in item.items for line in _item_lines(sub, path, depth + 1)]
    return [f"{pad}[", *body, f"{pad}]"]


def _is_formula(path: tuple[str, ...]) -> bool:
    """Whether the rule at `path` is a formula, also inside a variation's changes."""
    if len(path) >= 3 and path[0] == "variations" and path[2] == "changes":
        path = path[3:]
    return path in FORMULA_FIELDS


def _key(key: str) -> str:
    return key if _WORD.fullmatch(key) else _quote(key)


def _scalar(value: object, formula: bool = False) -> str:
    """One value as the DSL writes it; formula text goes in backticks when it fits on a line."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        mantissa, e, exponent = repr(value).partition("e")
        text = (mantissa if "." in mantissa else mantissa + ".0") + e + exponent
        if not math.isfinite(value) or not _DECIMAL.fullmatch(text):
            raise EmitError(f"the number {text} cannot be written in the text DSL")
        return text
    text = str(value)
    if formula and "`" not in text and "\n" not in text and "\r" not in text:
        return f"`{text}`"
    if (_WORD.fullmatch(text) and text not in _KEYWORDS) or _RANGE.fullmatch(text):
        return text
    return _quote(text)


def _quote(text: str) -> str:
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif not char.isprintable():
            code = ord(char)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def same_tree(a: Node, b: Node) -> bool:
    """Whether two trees hold the same values in the same order, spans aside (and 1 is not True)."""
    return _typed(a) == _typed(b)


def _typed(node: Node) -> object:
    """The tree's values with their types made explicit and mappings as ordered pairs (a key written
    twice counts once, at its first place, with its last value)."""
    return fold(node, lambda leaf: (type(leaf.value).__name__, leaf.value), lambda _, items: items,
                lambda m, values: list(dict(zip(m.keys(), values)).items()))
