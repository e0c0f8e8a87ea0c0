"""The YAML surface form: the parser's events built straight into the node tree, the limits enforced as it reads.

PyYAML's C parser (libyaml) is used where it is installed, its pure-Python parser elsewhere. No YAML
node graph is composed: each event becomes one of our nodes at once, with its span from the event's
marks, so a file past a limit of limits.py is read no further than the first value past it. Aliases, and tags other than YAML's own, are refused; nothing is built from a tag.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import yaml
from yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    DocumentStartEvent,
    Event,
    MappingStartEvent,
    ScalarEvent,
    StreamEndEvent,
)

from ..diagnostics import Diagnostics
from ..limits import (
    MAX_DEPTH,
    MAX_SCALAR_CHARS,
    RULEBOOK_VALUES,
    TOO_LONG_HINT,
    TOO_MANY_VALUES_HINT,
    ValueLimits,
)
from ..source import SourceFile, Span
from .tree import Entry, ListNode, MapNode, Node, ScalarNode

_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = {f"{_CORE}{name}" for name in ("str", "int", "bool", "null", "float")}
_TAG_HINT = "remove the tag: cheatdsl reads plain words, numbers, text, lists and mappings, and builds nothing from a tag"
_RESOLVER = yaml.resolver.Resolver()


try:
    from yaml.cyaml import CParser as _Parser  # type: ignore[attr-defined]
except ImportError:  # PyYAML built without libyaml
    _Parser = yaml.SafeLoader  # type: ignore[assignment, misc]


class _Refused(Exception):
    """A limit was passed; the diagnostic is already recorded."""


@dataclass
class _Open:
    """A list or mapping being read: its start, its items, and for a mapping the key waiting for its value."""

    start: Event
    mapping: bool
    items: list[Node] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    keys: set[str] = field(default_factory=set)
    key: tuple[str, Span] | None = None
    key_read: bool = False


class _Builder:
    """Turns one document's events into our nodes, counting values and depth as it goes."""

    def __init__(self, source: SourceFile, diagnostics: Diagnostics, limits: ValueLimits) -> None:
        self.path = source.path
        self.diagnostics = diagnostics
        self.limits = limits
        self.count = 0
        self.chars = 0
        self.stack: list[_Open] = []

    def span(self, start: Event, end: Event | None = None) -> Span:
        first, last = start.start_mark, (end or start).end_mark
        assert first is not None and last is not None  # the parser marks every event it gives
        return Span(self.path, first.line + 1, first.column + 1, last.line + 1, last.column + 1)

    def document(self, parser: _Parser) -> Node | None:
        """The document's tree; events are read only while within the limits."""
        while True:
            event = parser.get_event()
            if isinstance(event, (ScalarEvent, CollectionStartEvent, AliasEvent)):
                self.admit(event)
            if isinstance(event, CollectionStartEvent):
                self.tagged(event, f"{_CORE}{'map' if isinstance(event, MappingStartEvent) else 'seq'}")
                self.stack.append(_Open(event, isinstance(event, MappingStartEvent)))
                continue
            if isinstance(event, AliasEvent):
                self.diagnostics.error(
                    self.span(event), "E014", "YAML anchors and aliases are not allowed in a rulebook",
                    "write the value out, or share rules with `extends` and `variations`",
                )
                node: Node | None = None
                raw = None
            elif isinstance(event, ScalarEvent):
                self.read_text(event)
                node, raw = self.scalar(event), event.value
            else:  # the end of the innermost list or mapping
                done = self.stack.pop()
                span = self.span(done.start, event)
                node = MapNode(tuple(done.entries), span) if done.mapping else ListNode(tuple(done.items), span)
                raw = None
            if not self.stack:
                return node
            self.place(self.stack[-1], node, raw)

    def admit(self, event: Event) -> None:
        """Count a value starting at `event`; past a limit, record why and stop reading."""
        top = self.stack[-1] if self.stack else None
        if top is not None and top.mapping and not top.key_read:
            return  # a key: its value is counted
        self.count += 1
        if self.count > self.limits.nodes:
            self.refuse(event, "E012", f"the file has more than {self.limits.nodes:,} values", TOO_MANY_VALUES_HINT)
        if len(self.stack) > MAX_DEPTH:
            self.refuse(event, "E013", f"values are nested more than {MAX_DEPTH} deep")

    def read_text(self, event: ScalarEvent) -> None:
        """Count a scalar's characters; a value too long, or too much text in all, stops reading."""
        self.chars += len(event.value)
        if len(event.value) > MAX_SCALAR_CHARS:
            self.refuse(event, "E018", f"a value of {len(event.value):,} characters is too long", TOO_LONG_HINT)
        if self.chars > self.limits.text_chars:
            self.refuse(event, "E019", self.limits.too_much_text(), TOO_MANY_VALUES_HINT)

    def refuse(self, event: Event, code: str, message: str, hint: str = "") -> None:
        start = event.start_mark
        assert start is not None
        self.diagnostics.error(Span(self.path, start.line + 1, start.column + 1), code, message, hint)
        raise _Refused

    def tagged(self, event: Event, own: str | set[str]) -> bool:
        """Whether the event carries an explicit tag; one that is not YAML's own for its kind is refused (E017)."""
        tag = getattr(event, "tag", None)
        if tag is None:
            return False
        if tag not in ({own} if isinstance(own, str) else own):
            self.diagnostics.error(self.span(event), "E017", f"the YAML tag `{tag}` is not allowed",
                                   _TAG_HINT)
        return True

    def scalar(self, event: ScalarEvent) -> ScalarNode:
        if self.tagged(event, _SCALAR_TAGS):
            tag = event.tag if event.tag in _SCALAR_TAGS else f"{_CORE}str"
            return ScalarNode(_typed(event.value, tag), self.span(event))
        if event.style:
            return ScalarNode(event.value, self.span(event))
        tag = _RESOLVER.resolve(yaml.ScalarNode, event.value, event.implicit)
        return ScalarNode(_typed(event.value, tag), self.span(event))

    def place(self, top: _Open, node: Node | None, raw: str | None) -> None:
        """Put a finished value into the list or mapping around it."""
        if not top.mapping:
            if node is not None:
                top.items.append(node)
            return
        if not top.key_read:
            top.key_read, top.key = True, None
            if node is None:
                return
            if raw is None:
                self.diagnostics.error(node.span, "E015", "a key must be a plain name")
            elif raw in top.keys:
                self.diagnostics.error(node.span, "E016", f"key '{raw}' is given twice in this mapping")
            else:
                top.keys.add(raw)
                top.key = raw, node.span
            return
        top.key_read = False
        if top.key is not None and node is not None:
            top.entries.append(Entry(top.key[0], top.key[1], node))


def _typed(value: str, tag: str) -> str | int | float | bool | None:
    """The scalar's value with YAML 1.1 typing for ints, bools, nulls and floats only."""
    if tag == f"{_CORE}int":
        try:
            return int(value.replace("_", ""))
        except ValueError:
            return value
    if tag == f"{_CORE}bool":
        return value.lower() in ("true", "yes", "on", "y")
    if tag == f"{_CORE}null":
        return None
    if tag == f"{_CORE}float":
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _located(source: SourceFile, error: yaml.YAMLError) -> Span:
    """Where the parser stopped: its mark, or for a reader error the byte offset it gives."""
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    if mark is not None:
        return Span(source.path, mark.line + 1, mark.column + 1)
    position = getattr(error, "position", None)
    if isinstance(position, int):
        before = source.text.encode("utf-8", "replace")[:position].decode("utf-8", "replace")
        return Span(source.path, before.count("\n") + 1, len(before) - before.rfind("\n"))
    return Span(source.path, 1, 1)


def read_yaml(source: SourceFile, diagnostics: Diagnostics, limits: ValueLimits = RULEBOOK_VALUES) -> Node | None:
    """The YAML text as a node tree, or None after recording why it could not be read; `limits` bound the
    values and text it may hold (a rulebook's by default, `SCENARIO_VALUES` for a scenario)."""
    parser = _Parser(source.text)
    try:
        parser.get_event()  # the stream's start
        if isinstance(parser.peek_event(), StreamEndEvent):
            diagnostics.error(Span(source.path, 1, 1), "E004", "the file holds no rules")
            return None
        parser.get_event()  # the document's start
        tree = _Builder(source, diagnostics, limits).document(parser)
        parser.get_event()  # the document's end
        after = parser.get_event()
        if isinstance(after, DocumentStartEvent):
            mark = after.start_mark
            assert mark is not None
            diagnostics.error(Span(source.path, mark.line + 1, mark.column + 1), "E010",
                              "malformed YAML: a second document starts here; a rulebook is one document",
                              "remove the `---` line, or put the second rulebook in a file of its own")
            return None
    except _Refused:
        return None
    except yaml.MarkedYAMLError as exc:
        problem = exc.problem or exc.context or "malformed YAML"
        if problem == "exceeded maximum nesting depth":  # libyaml's own limit, deeper than ours
            diagnostics.error(_located(source, exc), "E013", f"values are nested more than {MAX_DEPTH} deep")
            return None
        where = _located(source, exc)
        diagnostics.error(where, "E010", f"malformed YAML: {problem}", yaml_hint(problem, _char_at(source, where)))
        return None
    except yaml.YAMLError as exc:
        problem = getattr(exc, "reason", None) or str(exc).splitlines()[0]
        diagnostics.error(_located(source, exc), "E010", f"malformed YAML: {problem}", yaml_hint(problem))
        return None
    finally:
        dispose = getattr(parser, "dispose", None)
        if dispose is not None:
            dispose()
    return tree


# The YAML reader's wordings of the usual slips, and what to do about each, in an author's words.
_YAML_HINTS: tuple[tuple[str, str], ...] = (
    ("mapping values are not allowed",
     "a line here is indented unlike the rules beside it, or a value holds `: `: line up the rules of one "
     "section under each other, and put a value with a colon in quotes (title: \"Cheat: our table\")"),
    ("expected ',' or ']'", "a list opened with `[` is not closed on its line: end it with `]`, or write each "
     "item on a line of its own starting `- `"),
    ("expected ',' or '}'", "a section written in braces is not closed on its line: end it with `}`, or write "
     "each rule on a line of its own"),
    ("could not find expected ':'", "each rule is written `name: value`: a colon and a space after the name"),
    ("expected <block end>", "this line is indented more or less than the rules around it: line it up with them"),
    ("found unexpected end of stream", "a quote opened here is not closed: end the value with the same quote"),
    ("found character", "this character cannot start a value: put the value in quotes"),
)
_YAML_HINT = ("YAML is read by its indentation: each rule `name: value` on a line of its own, the rules of one "
              "section indented alike, with spaces only")


def _char_at(source: SourceFile, where: Span) -> str:
    """The character of the source at `where` ('' past its end)."""
    lines = source.text.splitlines()
    if not 1 <= where.line <= len(lines):
        return ""
    line = lines[where.line - 1]
    return line[where.column - 1] if 1 <= where.column <= len(line) else ""


def yaml_hint(problem: str, char: str = "") -> str:
    """What to do about a YAML reader's `problem` (met at the character `char`), in an author's words."""
    if char == "\t" or "tab" in problem:
        return "YAML indents with spaces only: replace the tab with spaces"
    for words, hint in _YAML_HINTS:
        if words in problem:
            return hint
    return _YAML_HINT

