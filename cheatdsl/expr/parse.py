"""Parsing formula text with the grammar in expr.lark into the formula tree."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

from ..diagnostics import Diagnostics
from ..limits import MAX_EXPRESSION_CHARS, MAX_EXPRESSION_DEPTH
from ..source import Span
from . import ast


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files(__package__).joinpath("expr.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


class _Build(Transformer[Token, ast.Expr]):
    """One method per grammar alias; spans are shifted to where the formula sits in its file."""

    def __init__(self, origin: Span) -> None:
        super().__init__()
        self.origin = origin

    def _span(self, meta: object) -> Span:
        line = getattr(meta, "line", 1)
        column = getattr(meta, "column", 1)
        end_column = getattr(meta, "end_column", column + 1)
        if line == 1:
            return Span(self.origin.file, self.origin.line, self.origin.column + column - 1,
                        self.origin.line, self.origin.column + end_column - 1)
        return Span(self.origin.file, self.origin.line + line - 1, column)

    @v_args(meta=True)
    def number(self, meta, items):  # type: ignore[no-untyped-def]
        return ast.Number(int(items[0]), self._span(meta))

    @v_args(meta=True)
    def name(self, meta, items):  # type: ignore[no-untyped-def]
        return ast.Name(str(items[0]), self._span(meta))

    @v_args(meta=True)
    def card(self, meta, items):  # type: ignore[no-untyped-def]
        return ast.CardLiteral(str(items[0]), str(items[1]), self._span(meta))

    @v_args(meta=True)
    def call(self, meta, items):  # type: ignore[no-untyped-def]
        args = tuple(i for i in items[1:] if i is not None)
        return ast.Call(str(items[0]), args, self._span(meta))

    @v_args(meta=True)
    def set_(self, meta, items):  # type: ignore[no-untyped-def]
        return ast.SetOf(tuple(items), self._span(meta))

    @v_args(meta=True)
    def if_then_else(self, meta, items):  # type: ignore[no-untyped-def]
        return ast.IfThenElse(items[0], items[1], items[2], self._span(meta))

    @v_args(meta=True)
    def or_(self, meta, items):  # type: ignore[no-untyped-def]
        return ast.Logic("or", tuple(items), self._span(meta))

    @v_args(meta=True)
    def and_(self, meta, items):  # type: ignore[no-untyped-def]
        return ast.Logic("and", tuple(items), self._span(meta))

    @v_args(meta=True)
    def not_(self, meta, items):  # type: ignore[no-untyped-def]
        return ast.Not(items[0], self._span(meta))

    @v_args(meta=True)
    def compare(self, meta, items):  # type: ignore[no-untyped-def]
        return ast.Compare(str(items[1]), items[0], items[2], self._span(meta))

    @v_args(meta=True)
    def member(self, meta, items):  # type: ignore[no-untyped-def]
        return ast.Member(items[0], items[1], self._span(meta))

    @v_args(meta=True)
    def arith(self, meta, items):  # type: ignore[no-untyped-def]
        return ast.Arith(str(items[1]), items[0], items[2], self._span(meta))

    @v_args(meta=True)
    def negate(self, meta, items):  # type: ignore[no-untyped-def]
        return ast.Negate(items[0], self._span(meta))


def _nesting(text: str) -> int:
    depth = best = 0
    for char in text:
        if char in "({":
            depth += 1
            best = max(best, depth)
        elif char in ")}":
            depth -= 1
    return best


@lru_cache(maxsize=4096)
def _tree(text: str) -> Tree[Token]:
    """The parse tree of a formula's text (a rulebook's variations repeat their formulas: each is parsed
    once; the tree is only read, and a text that does not parse raises every time)."""
    return _parser().parse(text)


def parse_expression(text: str, origin: Span, diagnostics: Diagnostics) -> ast.Expr | None:
    """The formula tree for `text`, or None after recording a located syntax error."""
    if len(text) > MAX_EXPRESSION_CHARS:
        diagnostics.error(origin, "E101", f"formula is {len(text):,} characters; at most {MAX_EXPRESSION_CHARS:,}")
        return None
    if _nesting(text) > MAX_EXPRESSION_DEPTH or text.count("if ") > MAX_EXPRESSION_DEPTH:
        diagnostics.error(origin, "E102", f"formula is nested more than {MAX_EXPRESSION_DEPTH} deep",
                          "split it, or use a set such as {a, b, c}")
        return None
    if not text.strip():
        diagnostics.error(origin, "E103", "formula is empty")
        return None
    try:
        return _Build(origin).transform(_tree(text))
    except UnexpectedCharacters as exc:
        at = origin.shifted(exc.column - 1) if exc.line == 1 else origin
        found = text[exc.pos_in_stream] if exc.pos_in_stream is not None else "?"
        diagnostics.error(at, "E104", f"unexpected character {found!r} in formula `{text}`")
    except UnexpectedEOF:
        diagnostics.error(origin, "E105", f"formula `{text}` ends too early", "check for a missing ')' or operand")
    except UnexpectedInput as exc:
        column = getattr(exc, "column", 1)
        token = getattr(exc, "token", None)
        at = origin.shifted(column - 1) if getattr(exc, "line", 1) == 1 and column > 0 else origin
        what = f"'{token}'" if token else "input"
        if token is not None and getattr(token, "type", "") == "$END":
            diagnostics.error(origin, "E105", f"formula `{text}` ends too early", "check for a missing ')' or operand")
        else:
            diagnostics.error(at, "E104", f"unexpected {what} in formula `{text}`")
    except RecursionError:
        diagnostics.error(origin, "E102", f"formula is nested more than {MAX_EXPRESSION_DEPTH} deep",
                          "split it, or use a set such as {a, b, c}")
    except LarkError as exc:
        diagnostics.error(origin, "E104", f"cannot read formula `{text}`: {exc.__class__.__name__}")
    return None
