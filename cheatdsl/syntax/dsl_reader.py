"""The text DSL surface form (*.cheat): cheat.lark read straight into the node tree, errors located.

Lark's LALR parser calls the builder below as it reduces, so no parse tree is kept and nothing
recurses: a file nested thousands deep is stopped by the bracket count in the lexer, a file with too
many values by the node count, each with a diagnostic. Syntax errors are collected: after each the
parser resynchronises (see `_resynchronise`) and goes on. They are translated by KNOWN_BAD, a table of
bad snippets that is also a test (tests/test_dsl.py).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..diagnostics import Diagnostics
from ..limits import (
    MAX_DEPTH,
    MAX_NODES,
    MAX_SCALAR_CHARS,
    MAX_TEXT_CHARS,
    TOO_LONG_HINT,
    TOO_MANY_VALUES_HINT,
    TOO_MUCH_TEXT,
)
from ..source import SourceFile, Span
from .tree import Entry, ListNode, MapNode, Node, ScalarNode

MAX_SYNTAX_ERRORS = 20
_GIVE_UP_AFTER = 200  # errors seen, reported or not: a binary-like file stops here, quickly

KEYWORDS = {"true": True, "false": False, "null": None}
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r"}
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)")
_CLOSER = {"RBRACE": "LBRACE", "RSQB": "LSQB"}
_FIELD = re.compile(r"\{(found|what|key|open)\}")
_SCALARS = ("WORD", "NUMBER", "DECIMAL", "RANGE", "STRING", "FORMULA")
_SYNC = ("_NL", "_SEMI", "RBRACE", "RSQB")
_BRACKET = {"LBRACE": "{", "RBRACE": "}", "LSQB": "[", "RSQB": "]"}


@dataclass(frozen=True)
class BadInput:
    """A kind of syntax error: its name, code, message and hint, and snippets that produce it.

    The message and hint may name `{found}` (the text read), `{what}` (the same in words), `{key}` (the
    rule being written) and `{open}` (the innermost bracket still open, with its place).
    """

    name: str
    code: str
    message: str
    hint: str
    examples: tuple[str, ...]


KNOWN_BAD: tuple[BadInput, ...] = (
    BadInput("text left open", "E032", "quoted text is not closed on this line",
             'end it with `"`; write `\\"` for a quote inside text',
             ('title "House rules\nplayers 3..6\n', 'challenge { kinds [ { call "Cheat! } ] }\n')),
    BadInput("formula left open", "E033", "formula is not closed on this line",
             "a formula runs from one backtick to the next on the same line, as in `next(previous)`",
             ("claim {\n  first `aces\n  follow `next(previous)`\n}\n",)),
    BadInput("colon after a name", "E037",
             "`{found}` after `{key}`: a rule is written as its name and its value, with no colon",
             "leave the `{found}` out: `players 3..6`",
             ("players: 3..6\n", "deck {\n  packs = 1\n}\n")),
    BadInput("single quotes", "E031", "unexpected `{found}`: text is quoted with double quotes",
             'write "like this"',
             ("title 'House'\n",)),
    BadInput("name without a value", "E036", "`{key}` has no value",
             "write the value after the name on the same line, as in `players 3..6`",
             ("players\ntitle x\n", "deck {\n  packs\n}\n", "deck { packs; jokers 0 }\n", "players",
              "deck { packs }\n")),
    BadInput("bracket never closed", "E034", "{open} is never closed",
             "close it before the end of the file",
             ("deck {\n  packs 1\n", "deck {", "deck {\n", "suits [clubs, diamonds", "suits [clubs,",
              "suits [\n", "deck {\n  packs 1;")),
    BadInput("wrong closing bracket", "E035", "`{found}` does not close {open}",
             "close brackets in the order they were opened",
             ("suits [clubs diamonds }\n", "deck { packs 1 ]\n", "deck { suits [clubs }\n")),
    BadInput("closing bracket with none open", "E035", "`{found}` closes nothing: no bracket is open here",
             "remove it, or open the section it ends",
             ("players 3..6 }\n", "players 3..6\n]\n")),
    BadInput("comma between rules", "E038", "rules in a section are separated by `;` or a new line, not `,`",
             "write `{ packs 1; jokers 0 }`, or one rule a line",
             ("deck { packs 1, jokers 0 }\n", "packs 1, jokers 0\n")),
    BadInput("section without a name", "E039", "a section needs a name before its `{`",
             "write `deck { ... }`",
             ("{ packs 1 }\n", "deck {\n  { packs 1 }\n}\n")),
    BadInput("second value after a name", "E040",
             "`{key}` already has its value: only plain words, numbers and text make a list without brackets",
             "write `{key} [ ... ]` with every item inside the brackets",
             ("kinds { name a } { name b }\n", "kinds cheat { name b }\n", "kinds cheat force { name b }\n")),
    BadInput("value where a name belongs", "E030", "expected a rule name, found {what}",
             "a rule starts with its name, as in `players 3..6`",
             ("3..6 players\n", "deck {\n  1 packs\n}\n", "`aces` first\n", "deck { 1 }\n")),
)


def known_bad(name: str) -> BadInput:
    """The KNOWN_BAD row called `name`."""
    return next(row for row in KNOWN_BAD if row.name == name)


class _Key(NamedTuple):
    """A rule's name as read, before its value."""

    name: str
    span: Span


class _Abort(Exception):
    """A limit was passed; the diagnostic is already recorded."""


@dataclass
class _Context:
    """The state of one read: where, what was found, and the counts the limits watch."""

    path: str
    diagnostics: Diagnostics
    nodes: int = 0
    chars: int = 0
    depth: int = 0
    syntax_errors: int = 0
    seen_errors: int = 0
    last_error_line: int = -1
    first_error: UnexpectedInput | None = None
    lines: list[str] = field(default_factory=list)


# The builder has a method called `list`, which hides the builtin inside its class body.
Tokens = list[Token]
Items = list[object]


class _Build:
    """One method per grammar alias, called by the parser as it reduces."""

    def __init__(self) -> None:
        self.ctx = _Context("<dsl>", Diagnostics())

    # Spans and limits.

    def span(self, first: Token, last: Token | None = None) -> Span:
        last = last or first
        return Span(self.ctx.path, first.line or 1, first.column or 1, last.end_line or 1, last.end_column or 1)

    def inner_span(self, token: Token) -> Span:
        """The span of a delimited token's content, so a formula's columns are its own."""
        return Span(self.ctx.path, token.line or 1, (token.column or 1) + 1, token.end_line or 1,
                    max((token.end_column or 2) - 1, 1))

    def counted(self, node: Node) -> Node:
        self.ctx.nodes += 1
        if self.ctx.nodes > MAX_NODES:
            self.ctx.diagnostics.error(node.span, "E012", f"the file has more than {MAX_NODES:,} values",
                                       TOO_MANY_VALUES_HINT)
            raise _Abort
        return node

    def on_open(self, token: Token) -> Token:
        self.ctx.depth += 1
        if self.ctx.depth > MAX_DEPTH:
            self.ctx.diagnostics.error(self.span(token), "E013", f"values are nested more than {MAX_DEPTH} deep")
            raise _Abort
        return token

    def on_scalar(self, token: Token) -> Token:
        self.ctx.chars += len(token)
        if len(token) > MAX_SCALAR_CHARS:
            self.ctx.diagnostics.error(self.span(token), "E018", f"a value of {len(token):,} characters is too long",
                                       TOO_LONG_HINT)
            raise _Abort
        if self.ctx.chars > MAX_TEXT_CHARS:
            self.ctx.diagnostics.error(self.span(token), "E019", TOO_MUCH_TEXT, TOO_MANY_VALUES_HINT)
            raise _Abort
        return token

    def on_close(self, token: Token) -> Token:
        self.ctx.depth = max(self.ctx.depth - 1, 0)
        return token

    # Mappings.

    def mapping(self, entries: list[Entry], span: Span) -> MapNode:
        """A mapping of `entries`, each key once (E016, as in the YAML form)."""
        kept: dict[str, Entry] = {}
        for entry in entries:
            first = kept.get(entry.key)
            if first is not None:
                self.ctx.diagnostics.error(entry.key_span, "E016", f"key '{entry.key}' is given twice in this mapping",
                                           f"the first is at line {first.key_span.line}")
                continue
            kept[entry.key] = entry
        return MapNode(tuple(kept.values()), span)

    def document(self, children: list[Entry]) -> MapNode | None:
        if not children:
            return None
        first, last = children[0], children[-1]
        span = Span(self.ctx.path, first.key_span.line, first.key_span.column,
                    last.value.span.end_line, last.value.span.end_column)
        return self.counted(self.mapping(children, span))  # type: ignore[return-value]

    def entry(self, children: Items) -> Entry:
        key, value = children
        assert isinstance(key, _Key) and isinstance(value, (ScalarNode, ListNode, MapNode))
        return Entry(key.name, key.span, value)

    def list_entry(self, children: Items) -> Entry:
        key, *items = children
        assert isinstance(key, _Key)
        nodes = tuple(i for i in items if isinstance(i, ScalarNode))
        first, last = nodes[0].span, nodes[-1].span
        span = Span(self.ctx.path, first.line, first.column, last.end_line, last.end_column)
        return Entry(key.name, key.span, self.counted(ListNode(nodes, span)))

    def word_key(self, children: Tokens) -> _Key:
        return _Key(str(children[0]), self.span(children[0]))

    def text_key(self, children: Tokens) -> _Key:
        return _Key(self.unquote(children[0]), self.span(children[0]))

    def map(self, children: Items) -> Node:
        opening, *entries, closing = children
        assert isinstance(opening, Token) and isinstance(closing, Token)
        return self.counted(self.mapping([e for e in entries if isinstance(e, Entry)], self.span(opening, closing)))

    def list(self, children: Items) -> Node:
        opening, *items, closing = children
        assert isinstance(opening, Token) and isinstance(closing, Token)
        nodes = tuple(i for i in items if isinstance(i, (ScalarNode, ListNode, MapNode)))
        return self.counted(ListNode(nodes, self.span(opening, closing)))

    # Scalars.

    def word(self, children: Tokens) -> Node:
        text = str(children[0])
        value = KEYWORDS[text] if text in KEYWORDS else text
        return self.counted(ScalarNode(value, self.span(children[0])))

    def number(self, children: Tokens) -> Node:
        return self.counted(ScalarNode(int(children[0]), self.span(children[0])))

    def decimal(self, children: Tokens) -> Node:
        return self.counted(ScalarNode(float(children[0]), self.span(children[0])))

    def range(self, children: Tokens) -> Node:
        return self.counted(ScalarNode(str(children[0]), self.span(children[0])))

    def text(self, children: Tokens) -> Node:
        return self.counted(ScalarNode(self.unquote(children[0]), self.inner_span(children[0])))

    def formula(self, children: Tokens) -> Node:
        return self.counted(ScalarNode(str(children[0])[1:-1], self.inner_span(children[0])))

    def unquote(self, token: Token) -> str:
        """The text of a quoted token with its escapes read; a bad escape is reported (E041)."""
        body = str(token)[1:-1]

        def escape(match: re.Match[str]) -> str:
            code = match.group(1)
            if code in _SIMPLE_ESCAPES:
                return _SIMPLE_ESCAPES[code]
            if len(code) > 1:
                number = int(code[1:], 16)
                if number <= 0x10FFFF and not 0xD800 <= number <= 0xDFFF:
                    return chr(number)
            at = self.span(token)
            self.ctx.diagnostics.error(
                Span(at.file, at.line, at.column + 1 + match.start()), "E041",
                f"unknown escape `\\{code}` in quoted text",
                'the escapes are \\" \\\\ \\n \\t \\r and \\uXXXX; write \\\\ for a backslash')
            return match.group(0)

        return _ESCAPE.sub(escape, body)


class _Reader:
    """The parser, its builder, and KNOWN_BAD keyed by the parser state each snippet fails in."""

    def __init__(self) -> None:
        grammar = resources.files(__package__).joinpath("cheat.lark").read_text(encoding="utf-8")
        self.build = _Build()
        callbacks: dict[str, Callable[[Token], Token]] = {
            "LBRACE": self.build.on_open, "LSQB": self.build.on_open,
            "RBRACE": self.build.on_close, "RSQB": self.build.on_close,
            **{name: self.build.on_scalar for name in _SCALARS},
        }
        self.lark = Lark(grammar, parser="lalr", lexer="contextual", transformer=self.build,  # type: ignore[arg-type]
                         lexer_callbacks=callbacks, maybe_placeholders=False)
        self.lock = threading.Lock()
        self.table: dict[tuple[object, ...], BadInput] = {}
        for row in KNOWN_BAD:
            for example in row.examples:
                _, ctx = self.parse(example, "<example>", Diagnostics(), translate=False)
                if ctx.first_error is not None:
                    self.table.setdefault(_error_key(ctx.first_error), row)

    def parse(self, text: str, path: str, diagnostics: Diagnostics,
              translate: bool = True) -> tuple[MapNode | None, _Context]:
        """The tree of `text` (None when empty, too big or malformed), and the read's context."""
        ctx = _Context(path, diagnostics, lines=text.splitlines())
        with self.lock:
            self.build.ctx = ctx
            try:
                tree = self.lark.parse(text, on_error=lambda e: self.on_error(e, translate))
            except _Abort:
                return None, ctx
            except UnexpectedInput as exc:
                if ctx.first_error is None:  # only when the handler itself declined to go on
                    self.on_error(exc, translate)
                return None, ctx
            finally:
                self.build.ctx = _Context("<dsl>", Diagnostics())
        if ctx.first_error is not None:
            return None, ctx
        return tree, ctx  # type: ignore[return-value]

    def on_error(self, error: UnexpectedInput, translate: bool) -> bool:
        """Record one syntax error (not a cascade of one already recorded), recover, say whether to go on."""
        ctx = self.build.ctx
        ctx.seen_errors += 1
        if ctx.first_error is None:
            ctx.first_error = error
        at_end = isinstance(error, UnexpectedEOF) or (
            isinstance(error, UnexpectedToken) and error.token.type == "$END")
        if not translate:
            return False
        if ctx.syntax_errors < MAX_SYNTAX_ERRORS:
            span, code, message, hint = self.translate(error, ctx)
            if span.line != ctx.last_error_line or code == "E034":
                ctx.diagnostics.error(span, code, message, hint)
                ctx.syntax_errors += 1
                ctx.last_error_line = span.line
        if at_end or ctx.seen_errors >= _GIVE_UP_AFTER:
            return False
        if isinstance(error, UnexpectedToken):
            _resynchronise(error)
        return True

    def translate(self, error: UnexpectedInput, ctx: _Context) -> tuple[Span, str, str, str]:
        """The error's place, code, message and hint: from KNOWN_BAD, else from what was expected."""
        line = max(getattr(error, "line", 1) or 1, 1)
        column = max(getattr(error, "column", 1) or 1, 1)
        stack = _value_stack(error)
        key = next((str(v) if isinstance(v, Token) else v.name for v in reversed(stack)
                    if isinstance(v, _Key) or (isinstance(v, Token) and v.type in ("WORD", "STRING"))), "the rule")
        opened = [v for v in stack if isinstance(v, Token) and v.type in ("LBRACE", "LSQB")]
        innermost = opened[-1] if opened else None
        token = getattr(error, "token", None)
        if isinstance(error, UnexpectedCharacters):
            found = str(error.char)
            what = f"the character `{found}`"
        else:
            found = str(token) if token is not None else ""
            what = describe(token) if token is not None else "the end of the file"
            if (token is None or token.type == "$END") and ctx.lines:
                line, column = len(ctx.lines), len(ctx.lines[-1]) + 1
        fill = {"found": found, "what": what, "key": key, "open": "nothing"}
        if innermost is not None:
            fill["open"] = f"the `{_BRACKET[innermost.type]}` opened at {innermost.line}:{innermost.column}"
        span = Span(ctx.path, line, column)
        row = self.table.get(_error_key(error)) or self.fallback(token, innermost)
        if row is not None:
            return span, row.code, _fill(row.message, fill), _fill(row.hint, fill)
        if isinstance(error, UnexpectedCharacters):
            return (span, "E031", f"unexpected character `{found}`",
                    "text with spaces or punctuation goes in double quotes, a formula in backticks: `left(dealer)`")
        expected = set(getattr(error, "expected", None) or ())
        if innermost is None:
            expected -= {"RBRACE", "RSQB"}
        else:
            expected -= {"$END", "RSQB" if innermost.type == "LBRACE" else "RBRACE"}
        return span, "E030", f"expected {expectation(expected)}, found {what}", ""

    @staticmethod
    def fallback(token: Token | None, innermost: Token | None) -> BadInput | None:
        """The KNOWN_BAD row for a bracket left open or closed wrongly, in a state no example reached."""
        if token is None:
            return None
        if token.type == "$END" and innermost is not None:
            return known_bad("bracket never closed")
        if token.type in _CLOSER and innermost is None:
            return known_bad("closing bracket with none open")
        if token.type in _CLOSER and innermost is not None and innermost.type != _CLOSER[token.type]:
            return known_bad("wrong closing bracket")
        return None


def _resynchronise(error: UnexpectedToken) -> None:
    """Recover from a bad token so that one mistake gives one diagnostic, not a cascade.

    A value where a rule name belongs is read as the name; a `{` or `[` there gets a stand-in name;
    `,` between rules is read as `;`; a wrong closing bracket closes the innermost one unless an outer
    one matches; a separator or closer after an unfinished rule drops that rule. Any other bad token
    is skipped by the parser.
    """
    parser = error.interactive_parser
    if parser is None:
        return
    state = parser.parser_state
    table = state.parse_conf.states
    token = error.token
    accepted = table[state.position]
    if "WORD" in accepted and "NUMBER" not in accepted and token.type not in _SYNC and token.type != "_COMMA":
        if token.type in ("LBRACE", "LSQB"):
            _feed(parser, [Token.new_borrow_pos("WORD", "?", token), token])
        elif token.type in _SCALARS:
            _feed(parser, [Token.new_borrow_pos("WORD", str(token), token)])
        return
    if token.type == "_COMMA":
        token = Token.new_borrow_pos("_SEMI", ";", token)
    if token.type in _CLOSER:
        opened = [v.type for v in state.value_stack if isinstance(v, Token) and v.type in ("LBRACE", "LSQB")]
        if opened and _CLOSER[token.type] not in opened:
            other = "RSQB" if token.type == "RBRACE" else "RBRACE"
            token = Token.new_borrow_pos(other, _BRACKET[other], token)
    if token.type not in _SYNC:
        return
    for depth in range(len(state.state_stack) - 1, -1, -1):
        if token.type in table[state.state_stack[depth]]:
            break
    else:
        return
    saved = state.state_stack[:], state.value_stack[:]
    del state.state_stack[depth + 1:]
    del state.value_stack[depth:]
    if not _feed(parser, [token]):
        state.state_stack[:], state.value_stack[:] = saved


def _feed(parser: object, tokens: list[Token]) -> bool:
    """Feed stand-in tokens to the parser; False when it would not take them."""
    try:
        for token in tokens:
            parser.feed_token(token)  # type: ignore[attr-defined]
    except UnexpectedInput:
        return False
    return True


def _fill(template: str, fill: dict[str, str]) -> str:
    """`template` with its `{found}`, `{what}`, `{key}` and `{open}` filled in; other braces kept."""
    return _FIELD.sub(lambda m: fill[m.group(1)], template)


def _error_key(error: UnexpectedInput) -> tuple[object, ...]:
    """What identifies a kind of error: the character, or the parser state and the token's type."""
    if isinstance(error, UnexpectedCharacters):
        return ("char", str(error.char))
    state = getattr(error, "state", None)
    position = getattr(state, "position", state)
    token = getattr(error, "token", None)
    return ("token", position, getattr(token, "type", "$END"))


def _value_stack(error: UnexpectedInput) -> list[object]:
    parser = getattr(error, "interactive_parser", None)
    state = getattr(parser, "parser_state", None) or getattr(error, "state", None)
    return list(getattr(state, "value_stack", []) or [])


def describe(token: Token) -> str:
    """A card player's words for a token."""
    kind, text = token.type, str(token)
    if kind in ("WORD",):
        return f"the word `{text}`"
    if kind in ("NUMBER", "DECIMAL"):
        return f"the number `{text}`"
    if kind == "RANGE":
        return f"the range `{text}`"
    if kind == "STRING":
        return f"the text `{text}`"
    if kind == "FORMULA":
        return f"the formula `{text[1:-1]}`"
    if kind in _BRACKET:
        return f"`{_BRACKET[kind]}`"
    if kind == "_SEMI":
        return "`;`"
    if kind == "_COMMA":
        return "`,`"
    if kind == "_NL":
        return "the end of the line"
    if kind == "$END":
        return "the end of the file"
    return f"`{text}`"


def expectation(expected: set[str]) -> str:
    """What the parser would have taken, in words."""
    parts: list[str] = []
    if "NUMBER" in expected:
        parts.append("a value")
    elif "WORD" in expected:
        parts.append("a rule name")
    if "RBRACE" in expected:
        parts.append("`}`")
    if "RSQB" in expected:
        parts.append("`]`")
    if "_NL" in expected or "_SEMI" in expected:
        parts.append("a new line")
    if "$END" in expected:
        parts.append("the end of the file")
    if not parts:
        return "something else"
    return ", ".join(parts[:-1]) + (" or " if len(parts) > 1 else "") + parts[-1]


@lru_cache(maxsize=1)
def _reader() -> _Reader:
    return _Reader()


def read_dsl(source: SourceFile, diagnostics: Diagnostics) -> Node | None:
    """The DSL text as a node tree, or None after recording why it could not be read."""
    before = len(diagnostics.errors)
    tree, ctx = _reader().parse(source.text, source.path, diagnostics)
    if tree is None:
        if ctx.first_error is None and len(diagnostics.errors) == before:
            diagnostics.error(Span(source.path, 1, 1), "E004", "the file holds no rules",
                              "start from a shipped rulebook in rulebooks/")
        return None
    return _within_depth(tree, 0, diagnostics)


def _within_depth(node: Node, depth: int, diagnostics: Diagnostics) -> Node | None:
    """`node` without values nested deeper than MAX_DEPTH, each reported (E013) as the YAML form does.

    The lexer already stopped brackets deeper than MAX_DEPTH, so this recursion is shallow.
    """
    if depth > MAX_DEPTH:
        diagnostics.error(node.span, "E013", f"values are nested more than {MAX_DEPTH} deep")
        return None
    if isinstance(node, ListNode):
        items = (_within_depth(item, depth + 1, diagnostics) for item in node.items)
        return ListNode(tuple(i for i in items if i is not None), node.span)
    if isinstance(node, MapNode):
        entries = []
        for entry in node.entries:
            value = _within_depth(entry.value, depth + 1, diagnostics)
            if value is not None:
                entries.append(Entry(entry.key, entry.key_span, value))
        return MapNode(tuple(entries), node.span)
    return node
