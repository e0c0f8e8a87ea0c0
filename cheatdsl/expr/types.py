"""Checking a formula: every name known, every function given the right kinds of value."""

from __future__ import annotations

import difflib
import inspect
from dataclasses import dataclass, field
from enum import Enum

from ..diagnostics import Diagnostics
from . import ast
from .context import READS, Fact, FormulaContext


class Type(Enum):
    """The kinds of value a formula can compute."""

    NUMBER = "a number"
    BOOL = "true or false"
    CLAIM = "a claim"
    CLAIMS = "a set of claims"
    SEAT = "a seat"
    CARD = "an exact card"


@dataclass(frozen=True)
class Function:
    """A built-in function's argument kinds, result kind, and the context method that answers it
    (`context.FormulaContext`, whose docstring is its meaning), or its own meaning for one the
    formula computes itself."""

    args: tuple[Type, ...]
    result: Type
    method: str = ""
    own_meaning: str = ""

    @property
    def meaning(self) -> str:
        """What the function gives, in a phrase."""
        if not self.method:
            return self.own_meaning
        doc = inspect.getdoc(getattr(FormulaContext, self.method)) or ""
        return doc[:1].lower() + doc[1:].rstrip(".")

    @property
    def reads(self) -> Fact | None:
        """The fact of the game the function reads, or None for one the formula computes itself."""
        return READS[self.method] if self.method else None


FUNCTIONS: dict[str, Function] = {
    "next": Function((Type.CLAIM,), Type.CLAIM, "next_claim"),
    "prev": Function((Type.CLAIM,), Type.CLAIM, "prev_claim"),
    "above": Function((Type.CLAIM,), Type.CLAIMS, "above"),
    "below": Function((Type.CLAIM,), Type.CLAIMS, "below"),
    "left": Function((Type.SEAT,), Type.SEAT, "left"),
    "right": Function((Type.SEAT,), Type.SEAT, "right"),
    "seat": Function((Type.NUMBER,), Type.SEAT, "seat"),
    "holder": Function((Type.CARD,), Type.SEAT, "holder"),
    "dealt": Function((Type.CARD,), Type.BOOL, "dealt"),
    "holds": Function((Type.CLAIMS,), Type.NUMBER, "holds"),
    "min": Function((Type.NUMBER, Type.NUMBER), Type.NUMBER, own_meaning="the smaller number"),
    "max": Function((Type.NUMBER, Type.NUMBER), Type.NUMBER, own_meaning="the larger number"),
}

# Named values a formula reads from its context rather than computes, and the fact each reads.
CONSTANT_READS: dict[str, Fact] = {"any": READS["all_claims"]}


def builtins_answered(facts: frozenset[Fact]) -> list[str]:
    """The built-in functions and named values (`any`) a context answering `facts` can give, in table order."""
    names = [name for name, fn in FUNCTIONS.items() if fn.reads is None or fn.reads in facts]
    return names + [name for name, fact in CONSTANT_READS.items() if fact in facts]


@dataclass
class Scope:
    """What a formula in one place of the rulebook may name."""

    variables: dict[str, Type]
    ranks: dict[str, int] = field(default_factory=dict)
    suits: dict[str, int] = field(default_factory=dict)
    claims_are_cards: bool = False
    rank_count: int = 0
    constants: dict[str, Type] = field(default_factory=lambda: {"any": Type.CLAIMS, "true": Type.BOOL, "false": Type.BOOL})
    # The facts of the game this place's context answers; a built-in reading another is an error (E415).
    facts: frozenset[Fact] = frozenset(Fact)

    def known_names(self) -> list[str]:
        """Every name a formula here may use."""
        return [*self.variables, *self.ranks, *self.constants]


def _fits(found: Type, wanted: Type, scope: Scope) -> bool:
    if found is wanted:
        return True
    if scope.claims_are_cards and found is Type.CARD:
        found = Type.CLAIM
    if scope.claims_are_cards and wanted is Type.CARD and found is Type.CLAIM:
        return True
    return found is wanted or (wanted is Type.CLAIMS and found is Type.CLAIM)


def _suggest(name: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(name, choices, n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else ""


class _Checker:
    def __init__(self, scope: Scope, diagnostics: Diagnostics, where: str) -> None:
        self.scope = scope
        self.diagnostics = diagnostics
        self.where = where

    def answered(self, e: ast.Expr, name: str, what: str, reads: Fact | None) -> bool:
        """Whether this place can give `reads`; otherwise an error at `e` naming what it allows."""
        if reads is None or reads in self.scope.facts:
            return True
        allowed = builtins_answered(self.scope.facts)
        self.diagnostics.error(e.span, "E415", f"{what} `{name}` reads {reads.value}, which a formula at "
                               f"{self.where} cannot know", "allowed here: " + ", ".join(f"`{a}`" for a in allowed))
        return False

    def check(self, e: ast.Expr) -> Type | None:
        method = getattr(self, "_" + type(e).__name__)
        return method(e)  # type: ignore[no-any-return]

    def expect(self, e: ast.Expr, wanted: Type, what: str) -> bool:
        found = self.check(e)
        if found is None:
            return False
        if not _fits(found, wanted, self.scope):
            self.diagnostics.error(e.span, "E111", f"{what} must be {wanted.value}, found {found.value}")
            return False
        return True

    def _Number(self, e: ast.Number) -> Type:
        return Type.NUMBER

    def _Name(self, e: ast.Name) -> Type | None:
        s = self.scope
        if e.name in s.variables:
            return s.variables[e.name]
        if e.name in s.constants:
            if not self.answered(e, e.name, "the value", CONSTANT_READS.get(e.name)):
                return None
            return s.constants[e.name]
        if e.name in s.ranks:
            if s.claims_are_cards:
                self.diagnostics.error(e.span, "E112", f"`{e.name}` is a rank, but claims here name exact cards",
                                       f"write a card, such as `{e.name} of {next(iter(s.suits), 'hearts')}`")
                return None
            return Type.CLAIM
        if e.name in s.suits:
            self.diagnostics.error(e.span, "E112", f"`{e.name}` is a suit; a formula names a card as `RANK of SUIT`")
            return None
        self.diagnostics.error(e.span, "E110", f"unknown name `{e.name}` in formula",
                               _suggest(e.name, s.known_names()) or "known here: " + ", ".join(sorted(s.variables)))
        return None

    def _CardLiteral(self, e: ast.CardLiteral) -> Type | None:
        ok = True
        if e.rank not in self.scope.ranks:
            self.diagnostics.error(e.span, "E110", f"unknown rank `{e.rank}`", _suggest(e.rank, list(self.scope.ranks)))
            ok = False
        if e.suit not in self.scope.suits:
            self.diagnostics.error(e.span, "E110", f"unknown suit `{e.suit}`",
                                   _suggest(e.suit, list(self.scope.suits)) or "this deck has no suits")
            ok = False
        return Type.CARD if ok else None

    def _Call(self, e: ast.Call) -> Type | None:
        fn = FUNCTIONS.get(e.function)
        if fn is None:
            self.diagnostics.error(e.span, "E113", f"unknown function `{e.function}`",
                                   _suggest(e.function, list(FUNCTIONS)) or "functions: " + ", ".join(FUNCTIONS))
            return None
        if not self.answered(e, e.function, "the function", fn.reads):
            return None
        if len(e.args) != len(fn.args):
            self.diagnostics.error(e.span, "E114", f"`{e.function}` takes {len(fn.args)} value(s), given {len(e.args)}")
            return None
        ok = all([self.expect(a, t, f"the value given to `{e.function}`") for a, t in zip(e.args, fn.args)])
        return fn.result if ok else None

    def _SetOf(self, e: ast.SetOf) -> Type | None:
        ok = all([self.expect(i, Type.CLAIM, "each member of a set") for i in e.items])
        return Type.CLAIMS if ok else None

    def _IfThenElse(self, e: ast.IfThenElse) -> Type | None:
        cond = self.expect(e.condition, Type.BOOL, "the condition after `if`")
        a, b = self.check(e.then), self.check(e.otherwise)
        if a is None or b is None or not cond:
            return None
        if a is b:
            return a
        if _fits(a, b, self.scope):
            return b
        if _fits(b, a, self.scope):
            return a
        self.diagnostics.error(e.span, "E111", f"the two branches give different kinds of value: {a.value} and {b.value}")
        return None

    def _Arith(self, e: ast.Arith) -> Type | None:
        ok = all([self.expect(e.left, Type.NUMBER, f"each side of `{e.op}`"),
                  self.expect(e.right, Type.NUMBER, f"each side of `{e.op}`")])
        return Type.NUMBER if ok else None

    def _Negate(self, e: ast.Negate) -> Type | None:
        return Type.NUMBER if self.expect(e.operand, Type.NUMBER, "a negated value") else None

    def _Compare(self, e: ast.Compare) -> Type | None:
        a, b = self.check(e.left), self.check(e.right)
        if a is None or b is None:
            return None
        if e.op in ("==", "!="):
            if not (_fits(a, b, self.scope) or _fits(b, a, self.scope)):
                self.diagnostics.error(e.span, "E111", f"cannot compare {a.value} with {b.value}")
                return None
            return Type.BOOL
        if a is not Type.NUMBER or b is not Type.NUMBER:
            self.diagnostics.error(e.span, "E111", f"`{e.op}` compares numbers, found {a.value} and {b.value}")
            return None
        return Type.BOOL

    def _Member(self, e: ast.Member) -> Type | None:
        ok = all([self.expect(e.item, Type.CLAIM, "the value before `in`"),
                  self.expect(e.collection, Type.CLAIMS, "the value after `in`")])
        return Type.BOOL if ok else None

    def _Logic(self, e: ast.Logic) -> Type | None:
        ok = all([self.expect(o, Type.BOOL, f"each side of `{e.op}`") for o in e.operands])
        return Type.BOOL if ok else None

    def _Not(self, e: ast.Not) -> Type | None:
        return Type.BOOL if self.expect(e.operand, Type.BOOL, "the value after `not`") else None


def check_expression(expr: ast.Expr, wanted: Type, scope: Scope, diagnostics: Diagnostics, what: str) -> bool:
    """True when `expr` uses only known names and computes a value of kind `wanted`."""
    return _Checker(scope, diagnostics, what).expect(expr, wanted, what)
