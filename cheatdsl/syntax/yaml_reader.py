"""The YAML surface form: safe composition into the node tree, with spans from YAML marks."""

from __future__ import annotations

import yaml

from ..diagnostics import Diagnostics
from ..source import SourceFile, Span
from .limits import MAX_DEPTH, MAX_NODES
from .tree import Entry, ListNode, MapNode, Node, ScalarNode

_SCALAR_TAGS = {
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:float",
}


class _Converter:
    """Turns composed YAML nodes into our nodes, refusing aliases and runaway sizes."""

    def __init__(self, source: SourceFile, diagnostics: Diagnostics) -> None:
        self.source = source
        self.diagnostics = diagnostics
        self.count = 0
        self.seen: set[int] = set()

    def span(self, node: yaml.Node) -> Span:
        start, end = node.start_mark, node.end_mark
        return Span(self.source.path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)

    def convert(self, node: yaml.Node, depth: int = 0) -> Node | None:
        self.count += 1
        if self.count > MAX_NODES:
            if self.count == MAX_NODES + 1:
                self.diagnostics.error(self.span(node), "E012", f"rulebook has more than {MAX_NODES:,} values")
            return None
        if depth > MAX_DEPTH:
            self.diagnostics.error(self.span(node), "E013", f"values are nested more than {MAX_DEPTH} deep")
            return None
        if id(node) in self.seen:
            self.diagnostics.error(
                self.span(node), "E014", "YAML anchors and aliases are not allowed in a rulebook",
                "write the value out, or share rules with `extends` and `variations`",
            )
            return None
        self.seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            return ScalarNode(_typed(node), self.span(node))
        if isinstance(node, yaml.SequenceNode):
            items = [self.convert(item, depth + 1) for item in node.value]
            return ListNode(tuple(i for i in items if i is not None), self.span(node))
        entries: list[Entry] = []
        keys: set[str] = set()
        for key_node, value_node in node.value:
            key_span = self.span(key_node)
            if not isinstance(key_node, yaml.ScalarNode):
                self.diagnostics.error(key_span, "E015", "a key must be a plain name")
                continue
            key = str(key_node.value)
            if key in keys:
                self.diagnostics.error(key_span, "E016", f"key '{key}' is given twice in this mapping")
                continue
            keys.add(key)
            value = self.convert(value_node, depth + 1)
            if value is not None:
                entries.append(Entry(key, key_span, value))
        return MapNode(tuple(entries), self.span(node))


def _typed(node: yaml.ScalarNode) -> str | int | float | bool | None:
    """The scalar's value with YAML 1.1 typing for plain ints, bools and nulls only."""
    if node.style:
        return node.value
    if node.tag == "tag:yaml.org,2002:int":
        try:
            return int(node.value.replace("_", ""))
        except ValueError:
            return node.value
    if node.tag == "tag:yaml.org,2002:bool":
        return node.value.lower() in ("true", "yes", "on", "y")
    if node.tag == "tag:yaml.org,2002:null":
        return None
    if node.tag == "tag:yaml.org,2002:float":
        try:
            return float(node.value)
        except ValueError:
            return node.value
    return node.value


def read_yaml(source: SourceFile, diagnostics: Diagnostics) -> Node | None:
    """The YAML text as a node tree, or None after recording why it could not be read."""
    try:
        composed = yaml.compose(source.text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        column = mark.column + 1 if mark else 1
        problem = exc.problem or exc.context or "malformed YAML"
        diagnostics.error(Span(source.path, line, column), "E010", f"malformed YAML: {problem}")
        return None
    except yaml.YAMLError as exc:
        diagnostics.error(Span(source.path, 1, 1), "E010", f"malformed YAML: {exc}")
        return None
    except RecursionError:
        diagnostics.error(Span(source.path, 1, 1), "E013", "values are nested too deep to read")
        return None
    if composed is None:
        diagnostics.error(Span(source.path, 1, 1), "E004", "the file holds no rules")
        return None
    return _Converter(source, diagnostics).convert(composed)
