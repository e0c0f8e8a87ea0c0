"""Concrete contexts for rule formulas: the compiled closures run on one claim or one seating at a time.

The verifier never reads formula text: it calls `formula.code(context)` for every value a fact can take
and hands the resulting finite tables to Z3. The contexts implement `cheatdsl.expr.FormulaContext`,
with seats numbered as the interpreter numbers them.
"""

from __future__ import annotations

from collections.abc import Collection
from enum import Enum
from itertools import product
from typing import Any

from cheatdsl.cards import Table
from cheatdsl.derived import holder_answers, next_seat_in
from cheatdsl.expr import FactUnavailable, TableFacts, ast
from cheatdsl.expr.context import Fact
from cheatdsl.model import Formula, Rulebook


class Missing(Enum):
    """Which kind of fact a formula asked for that it was not given."""

    DEALER = "dealer"  # `seat(k)` counts from the dealer, who is not among the facts
    HOLDER = "holder"  # who was dealt a named card
    FACT = "fact"  # any other (a hand, a seat in a claim rule)


class NotConcrete(FactUnavailable):
    """A formula asked for a fact this stage of the verifier does not model (a hand, a seat in a claim rule).

    Its text names the fact for people; `kind` says which kind it is, for the code that catches it."""

    def __init__(self, what: str, kind: Missing = Missing.FACT) -> None:
        super().__init__(what)
        self.kind = kind

    def __reduce__(self) -> tuple[type[NotConcrete], tuple[str, Missing]]:
        return NotConcrete, (str(self), self.kind)


class SeatFacts(TableFacts):
    """Facts for a seat formula at one seating, read as the interpreter reads them (`FormulaContext`).

    Seats are numbered round the table and play passes from seat s to s + `step`; `left` and `right`
    skip the seats in `out` (those that have left the game). `seat(k)` counts k seats on from the
    dealer, so a formula calling it needs the `dealer` among the facts (`seats_of` tries each)."""

    dealer: int  # only where it is among the facts

    def __init__(self, players: int, step: int, out: Collection[int] = (), holders: dict[int, int | None] | None = None,
                 **values: Any) -> None:
        super().__init__(players)
        self._step = step
        self._out = frozenset(out)
        self.holders = holders or {}
        self.__dict__.update(values)

    def _around(self, seat: int | None, step: int) -> int | None:
        return None if seat is None else next_seat_in(seat, step, self.players, lambda t: t not in self._out)

    def left(self, seat: int | None) -> int | None:
        return self._around(seat, self._step)

    def right(self, seat: int | None) -> int | None:
        return self._around(seat, -self._step)

    def seat(self, number: int) -> int:
        dealer = getattr(self, "dealer", None)
        if dealer is None:
            raise NotConcrete("the dealer", Missing.DEALER)
        return (dealer + self._step * number) % self.players

    def holder(self, card: int) -> int | None:
        if card not in self.holders:
            raise NotConcrete(f"the holder of card {card}", Missing.HOLDER)
        return self.holders[card]

    def dealt(self, card: int) -> bool:
        return self.holder(card) is not None

    def holds(self, claims: frozenset[int]) -> int:
        # No seat acts where a seat formula is read here (the first player, the next leader).
        raise NotConcrete(Fact.HAND.value)

    def _unavailable(self, what: str) -> FactUnavailable:
        return NotConcrete(what)


def seat_of(formula: Formula, players: int, *, step: int, out: Collection[int] = (), **values: Any) -> int | None:
    """The seat a seat formula names, or None where it names none (or one outside the table); play
    passes by `step` (`cheatdsl.derived.turn_step`) and the seats in `out` have left the game."""
    return _seat(formula.code(SeatFacts(players, step, out, **values)), players)


def _seat(v: Any, players: int) -> int | None:
    """A formula's value as a seat, or None where it is not one at this table."""
    return v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < players else None


def seats_of(formula: Formula, players: int, *, step: int, out: Collection[int] = (), **values: Any) -> set[int | None]:
    """Every seat a seat formula names with these facts, whoever deals (when it counts from the dealer)."""
    return _seats(formula, SeatFacts(players, step, out, **values))


def _seats(formula: Formula, facts: SeatFacts) -> set[int | None]:
    """`seats_of` with its facts made: the formula read once, or once for each dealer if it asks who deals."""
    players = facts.players
    try:
        return {_seat(formula.code(facts), players)}
    except NotConcrete as exc:
        if exc.kind is not Missing.DEALER:
            raise
    named: set[int | None] = set()
    for d in range(players):
        facts.dealer = d
        named.add(_seat(formula.code(facts), players))
    return named


def seats_after_any_deal(formula: Formula, rb: Rulebook, table: Table, *, step: int, out: Collection[int] = (),
                         asked: tuple[int, ...] | None = None, **values: Any) -> set[int | None]:
    """Every seat a seat formula names with these facts, whoever deals and whoever was dealt the exact cards
    it names (`holder`, `dealt`): each card with any seat, or with nobody where the deck lacks it or leaves
    cards undealt (`cheatdsl.derived.holder_answers`). `asked` is `holder_cards(formula, rb)` where the
    caller has it already."""
    cards = holder_cards(formula, rb) if asked is None else asked
    if not cards:
        return _seats(formula, SeatFacts(table.players, step, out, **values))
    named: set[int | None] = set()
    for held in product(*(holder_answers(table, card) for card in cards)):
        named |= _seats(formula, SeatFacts(table.players, step, out, dict(zip(cards, held)), **values))
    return named


def holder_cards(formula: Formula, rb: Rulebook, functions: tuple[str, ...] = ("holder", "dealt")) -> tuple[int, ...]:
    """The exact cards a seat formula asks about (`holder`, `dealt`), as card numbers (`suit * ranks + rank`)."""
    names: dict[str, int] = {}
    for i, r in enumerate(rb.deck.ranks):
        names[r.name] = names[r.plural] = names[r.symbol] = i
    suits = {s.name: i for i, s in enumerate(rb.deck.suits)}
    found: list[int] = []

    def walk(e: ast.Expr) -> None:
        if isinstance(e, ast.Call):
            if e.function in functions and isinstance(e.args[0], ast.CardLiteral):
                lit = e.args[0]
                card = suits[lit.suit] * len(rb.deck.ranks) + names[lit.rank]
                if card not in found:
                    found.append(card)
            for a in e.args:
                walk(a)
        else:
            for child in _children(e):
                walk(child)

    walk(formula.expr)
    return tuple(found)


def _children(e: ast.Expr) -> tuple[ast.Expr, ...]:
    if isinstance(e, ast.SetOf):
        return e.items
    if isinstance(e, ast.IfThenElse):
        return (e.condition, e.then, e.otherwise)
    if isinstance(e, (ast.Arith, ast.Compare)):
        return (e.left, e.right)
    if isinstance(e, ast.Member):
        return (e.item, e.collection)
    if isinstance(e, ast.Logic):
        return e.operands
    if isinstance(e, (ast.Negate, ast.Not)):
        return (e.operand,)
    return ()


def facts_for(formula: Formula | None, players: int, cards: int = 0, copies: int = 0) -> int:
    """A number formula that depends only on the player count (and cards or copies where it stands)."""
    assert formula is not None
    return int(formula.code(TableFacts(players, cards=cards, copies=copies)))
