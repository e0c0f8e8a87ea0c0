"""Rule formulas in a card player's words, read off the formula tree (never off a profile's name).

Four readings, one per kind of value a formula computes: a set of claims ("the next rank up"),
a seat ("the claimant's left neighbour"), a condition ("the play was a lie") and a number
("2 if there are 5 or more players, else 1"). Whatever has no phrase of its own falls back to the
formula's text in backticks, so nothing is ever lost or guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..expr.ast import (
    Arith,
    Call,
    CardLiteral,
    Compare,
    Expr,
    IfThenElse,
    Logic,
    Member,
    Name,
    Negate,
    Not,
    Number,
    SetOf,
    children,
    unparse,
)
from ..model import ClaimKind, Rulebook

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve")

SEAT_NAMES = {
    "dealer": "the dealer",
    "claimant": "the claimant",
    "challenger": "the challenger",
    "winner": "the winner of the challenge",
    "loser": "the loser of the challenge",
    "last_player": "the last player to add cards",
}
CONDITION_NAMES = {
    "caught": ("the play was a lie", "the play was true"),
    "leading": ("you are leading", "you are not leading"),
    "true": ("always", "never"),
    "false": ("never", "always"),
}
NUMBER_NAMES = {
    "players": "the number of players",
    "cards": "the cards available",
    "copies": "the cards of one rank in the deck",
    "hand": "the cards in your hand",
}
ARITH_WORDS = {"+": "plus", "-": "minus", "*": "times"}
COMPARE_WORDS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
                 ">=": "is at least"}


def number_word(n: int) -> str:
    """`one` to `twelve` in words, larger numbers in digits."""
    return NUMBER_WORDS[n] if 0 < n < len(NUMBER_WORDS) else str(n)


def plural(n: int, word: str, words: bool = False) -> str:
    """`1 card`, `3 cards` (or `one card`, `three cards` with `words`)."""
    count = number_word(n) if words else str(n)
    return f"{count} {word}" if n == 1 else f"{count} {word}s"


@dataclass(frozen=True)
class Vocabulary:
    """What the words of a formula refer to in one rulebook: claims of a rank or of a card, rank names."""

    unit: str = "rank"
    ranks: dict[str, str] = field(default_factory=dict)
    singular: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, rulebook: Rulebook) -> Vocabulary:
        """The vocabulary of `rulebook`: every rank's name and plural mapped to its plural."""
        ranks: dict[str, str] = {}
        singular: dict[str, str] = {}
        for r in rulebook.deck.ranks:
            ranks[r.name] = ranks[r.plural] = r.plural
            singular[r.name] = singular[r.plural] = r.name
        unit = "card" if rulebook.claim.kind is ClaimKind.CARD else "rank"
        return cls(unit, ranks, singular)


def _code(expr: Expr) -> str:
    return f"`{unparse(expr)}`"


def _steps(expr: Expr) -> tuple[int, Expr]:
    """`next(next(x))` as (+2, x); `prev(x)` as (-1, x); anything else as (0, itself)."""
    offset = 0
    while isinstance(expr, Call) and expr.function in ("next", "prev") and len(expr.args) == 1:
        offset += 1 if expr.function == "next" else -1
        expr = expr.args[0]
    return offset, expr


def _offset_from_previous(expr: Expr) -> int | None:
    offset, base = _steps(expr)
    if isinstance(base, Name) and base.name == "previous":
        return offset
    return None


def _offset_words(offsets: set[int], unit: str) -> str:
    """A set of steps from the last call in words: {-1, +1} is one rank above or below the last call."""
    if offsets == {1}:
        return f"the next {unit} up"
    if offsets == {-1}:
        return f"the next {unit} down"
    if offsets == {0}:
        return f"the same {unit} as the last call"
    steps: list[str] = []
    for k in sorted({abs(o) for o in offsets if o}):
        size = plural(k, unit, words=True)
        if k in offsets and -k in offsets:
            steps.append(f"{size} above or below")
        elif k in offsets:
            steps.append(f"{size} up")
        else:
            steps.append(f"{size} down")
    moves = " or ".join(steps)
    if 0 in offsets:
        return f"the same {unit} as the last call, or {moves}"
    symmetric = all(-o in offsets for o in offsets)
    return f"{moves} {'' if symmetric else 'from '}the last call"


def _join_or(parts: list[str]) -> str:
    if len(parts) <= 2:
        return " or ".join(parts)
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def claims(expr: Expr, v: Vocabulary) -> str:
    """The claims a formula allows, e.g. `{prev(previous), next(previous)}`: one rank above or below the last call."""
    offset = _offset_from_previous(expr)
    if offset is not None:
        return _offset_words({offset}, v.unit)
    if isinstance(expr, Name):
        if expr.name == "any":
            return f"any {v.unit}"
        if expr.name in v.ranks:
            return v.ranks[expr.name]
        return expr.name.replace("_", " ")
    if isinstance(expr, CardLiteral):
        return card(expr, v)
    if isinstance(expr, SetOf):
        offsets = [_offset_from_previous(i) for i in expr.items]
        if expr.items and all(o is not None for o in offsets):
            return _offset_words({o for o in offsets if o is not None}, v.unit)
        return _join_or([claims(i, v) for i in expr.items]) if expr.items else f"no {v.unit}"
    if isinstance(expr, Call) and len(expr.args) == 1:
        arg = expr.args[0]
        is_previous = isinstance(arg, Name) and arg.name == "previous"
        same_suit = " of the same suit" if v.unit == "card" else ""
        if expr.function in ("above", "below"):
            higher = "higher" if expr.function == "above" else "lower"
            if is_previous:
                return f"any {higher} {v.unit}{same_suit}"
            return f"any {v.unit} {higher} than {claims(arg, v)}{same_suit}"
        if expr.function in ("next", "prev"):
            offset, base = _steps(expr)
            where = "after" if offset > 0 else "before"
            size = f"the {v.unit}" if abs(offset) == 1 else plural(abs(offset), v.unit, words=True)
            return f"{size} {where} {claims(base, v)}"
    if isinstance(expr, IfThenElse):
        return f"{claims(expr.then, v)} if {condition(expr.condition, v)}, else {claims(expr.otherwise, v)}"
    return _code(expr)


def card(expr: CardLiteral, v: Vocabulary) -> str:
    """`ace of hearts`: the ace of hearts."""
    return f"the {v.singular.get(expr.rank, expr.rank)} of {expr.suit}"


def _possessive(phrase: str) -> str:
    return phrase + ("'" if phrase.endswith("s") else "'s")


def seat(expr: Expr, v: Vocabulary | None = None) -> str:
    """The seat a formula names, e.g. `if caught then challenger else claimant`."""
    v = v or Vocabulary()
    if isinstance(expr, Name):
        return SEAT_NAMES.get(expr.name, expr.name.replace("_", " "))
    if isinstance(expr, Call) and expr.function in ("left", "right") and len(expr.args) == 1:
        side, k = expr.function, 0
        base: Expr = expr
        while isinstance(base, Call) and base.function == side and len(base.args) == 1:
            k += 1
            base = base.args[0]
        who = _possessive(seat(base, v))
        if k == 1:
            return f"{who} {side} neighbour"
        ordinal = {2: "second", 3: "third"}.get(k, f"{k}th")
        return f"the {ordinal} player to {who} {side}"
    if isinstance(expr, Call) and expr.function == "seat" and len(expr.args) == 1:
        arg = expr.args[0]
        if isinstance(arg, Number) and arg.value == 0:
            return "the dealer"
        # Not "seat 2": that is a table seat, counted from seat 0, and the dealer may sit anywhere.
        if isinstance(arg, Number):
            return f"the seat {plural(arg.value, 'place', words=True)} after the dealer in turn order"
        return f"the seat {number(arg, v)} places after the dealer in turn order"
    if isinstance(expr, Call) and expr.function == "holder" and len(expr.args) == 1:
        arg = expr.args[0]
        what = card(arg, v) if isinstance(arg, CardLiteral) else claims(arg, v)
        return f"whoever was dealt {what}"
    if isinstance(expr, IfThenElse):
        return f"{seat(expr.then, v)} if {condition(expr.condition, v)}, else {seat(expr.otherwise, v)}"
    return _code(expr)


def _count_noun(expr: Expr, v: Vocabulary) -> str | None:
    """What a count of cards counts: `hand` is the cards in your hand, `holds(x)` those of x."""
    if isinstance(expr, Name) and expr.name == "hand":
        return ""
    if isinstance(expr, Call) and expr.function == "holds" and len(expr.args) == 1:
        arg = expr.args[0]
        if isinstance(arg, Name) and arg.name == "required":
            return f"of the {v.unit} due"
        return f"of {claims(arg, v)}"
    return None


def _holding(noun: str, op: str, n: int) -> str:
    tail = f" {noun}" if noun else ""
    cards = "card" if n == 1 else "cards"
    if op == "==":
        return f"you hold no card{tail}" if n == 0 else f"you hold exactly {number_word(n)} {cards}{tail}"
    if op == "!=":
        return f"you hold some card{tail}" if n == 0 else f"you do not hold exactly {number_word(n)} {cards}{tail}"
    if op == ">":
        return f"you hold a card{tail}" if n == 0 else f"you hold more than {number_word(n)} {cards}{tail}"
    if op == ">=":
        return f"you hold at least {number_word(n)} {cards}{tail}"
    if op == "<":
        return f"you hold no card{tail}" if n == 1 else f"you hold fewer than {number_word(n)} {cards}{tail}"
    return f"you hold at most {number_word(n)} {cards}{tail}"


def _players(op: str, n: int) -> str:
    return {
        "==": f"there are exactly {n} players",
        "!=": f"there are not exactly {n} players",
        ">=": f"there are {n} or more players",
        ">": f"there are more than {n} players",
        "<=": f"there are {n} or fewer players",
        "<": f"there are fewer than {n} players",
    }[op]


_FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _is_seat(expr: Expr) -> bool:
    if isinstance(expr, Name):
        return expr.name in SEAT_NAMES
    return isinstance(expr, Call) and expr.function in ("left", "right", "seat", "holder")


def _is_claim(expr: Expr, v: Vocabulary) -> bool:
    if isinstance(expr, Name):
        return expr.name in ("previous", "required", "any") or expr.name in v.ranks
    return isinstance(expr, (CardLiteral, SetOf)) or (isinstance(expr, Call) and expr.function in (
        "next", "prev", "above", "below"))


def _claim_value(expr: Expr, v: Vocabulary) -> str:
    if isinstance(expr, Name) and expr.name == "previous":
        return "the last call"
    if isinstance(expr, Name) and expr.name == "required":
        return f"the {v.unit} due"
    return claims(expr, v)


def condition(expr: Expr, v: Vocabulary | None = None, nested: bool = False) -> str:
    """A condition in words, e.g. `hand == 1 and (leading or holds(required) == 1)`."""
    v = v or Vocabulary()
    if isinstance(expr, Name) and expr.name in CONDITION_NAMES:
        return CONDITION_NAMES[expr.name][0]
    if isinstance(expr, Not):
        inner = expr.operand
        if isinstance(inner, Name) and inner.name in CONDITION_NAMES:
            return CONDITION_NAMES[inner.name][1]
        return f"not ({condition(inner, v)})"
    if isinstance(expr, Compare):
        left, op, right = expr.left, expr.op, expr.right
        if isinstance(left, Number) and not isinstance(right, Number):
            left, op, right = right, _FLIP[op], left
        if isinstance(right, Number):
            noun = _count_noun(left, v)
            if noun is not None:
                return _holding(noun, op, right.value)
            if isinstance(left, Name) and left.name == "players":
                return _players(op, right.value)
        if _is_claim(left, v) or _is_claim(right, v):
            return f"{_claim_value(left, v)} {COMPARE_WORDS[op]} {_claim_value(right, v)}"
        if _is_seat(left) or _is_seat(right):
            return f"{seat(left, v)} {COMPARE_WORDS[op]} {seat(right, v)}"
        return f"{number(left, v)} {COMPARE_WORDS[op]} {number(right, v)}"
    if isinstance(expr, Member):
        return f"{_claim_value(expr.item, v)} is among {_claim_value(expr.collection, v)}"
    if isinstance(expr, Logic):
        parts = [condition(o, v, nested=True) for o in expr.operands]
        joined = _join_and(parts) if expr.op == "and" else _join_or(parts)
        if nested:
            return ("both " if expr.op == "and" and len(parts) == 2 else "either " if expr.op == "or" else "") + joined
        return joined
    if isinstance(expr, Call) and expr.function == "dealt" and len(expr.args) == 1:
        arg = expr.args[0]
        what = card(arg, v) if isinstance(arg, CardLiteral) else claims(arg, v)
        return f"{what} was dealt"
    if isinstance(expr, IfThenElse):
        return (f"{condition(expr.then, v, True)} if {condition(expr.condition, v, True)}, "
                f"else {condition(expr.otherwise, v, True)}")
    return _code(expr)


def _join_and(parts: list[str]) -> str:
    if len(parts) <= 2:
        return " and ".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def number(expr: Expr, v: Vocabulary | None = None) -> str:
    """A number in words, e.g. `if players >= 5 then 2 else 1`: 2 if there are 5 or more players, else 1."""
    v = v or Vocabulary()
    if isinstance(expr, Number):
        return str(expr.value)
    if isinstance(expr, Name):
        return NUMBER_NAMES.get(expr.name, expr.name.replace("_", " "))
    if isinstance(expr, Negate):
        return f"minus {number(expr.operand, v)}"
    if isinstance(expr, Arith):
        left, right = number(expr.left, v), number(expr.right, v)
        if expr.op == "//":
            if isinstance(expr.right, Number) and expr.right.value == 2:
                return f"half of {left}, rounded down"
            return f"{left} divided by {right}, rounded down"
        if expr.op == "%":
            return f"the remainder of {left} divided by {right}"
        return f"{left} {ARITH_WORDS[expr.op]} {right}"
    if isinstance(expr, Call) and expr.function in ("min", "max") and len(expr.args) == 2:
        which = "smaller" if expr.function == "min" else "larger"
        return f"the {which} of {number(expr.args[0], v)} and {number(expr.args[1], v)}"
    if isinstance(expr, Call) and expr.function == "holds" and len(expr.args) == 1:
        noun = _count_noun(expr, v) or ""
        return f"the cards {noun} in your hand".replace("  ", " ")
    if isinstance(expr, IfThenElse):
        return f"{number(expr.then, v)} if {condition(expr.condition, v)}, else {number(expr.otherwise, v)}"
    return _code(expr)


def uses(expr: Expr, functions: tuple[str, ...]) -> bool:
    """True when the formula calls one of `functions` anywhere."""
    if isinstance(expr, Call) and expr.function in functions:
        return True
    return any(uses(c, functions) for c in children(expr))
