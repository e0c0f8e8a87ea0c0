"""The interpreter's context for rule formulas read while a game is played (`FormulaContext`).

Formulas are compiled closures `formula.code(facts)`; each place in the rulebook names a few facts
(`cheatdsl/compiler/scopes.py`), which a `Facts` object carries as attributes. The built-in
functions mean what `cheatdsl.expr.context` says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..derived import seat_after
from ..expr.context import Fact, FactUnavailable, FormulaContext

if TYPE_CHECKING:
    from .game import Game
    from .state import State


class Facts(FormulaContext):
    """Facts about seats and hands, for the formulas that pick a seat or decide a win.

    `holder` and `dealt` read the deal the game began with (`State.holders`), at every place;
    `holds` counts in the hand of the seat to act (`acting`), and a formula read where no seat acts
    (the first player, the next leader) gets `FactUnavailable` from it. `read_deal` says whether
    the formula asked about the deal, so a caller may keep its answer for other deals only when not.

    `facts_class(game)` makes a subclass holding the table's constant facts, so that a context
    for one evaluation only stores the few facts of the moment.
    """

    _game: Game
    acting: int | None = None
    read_deal = False

    def __init__(self, state: State | None, dealer: int = 0, **facts: Any) -> None:
        self._state = state
        self._dealer = dealer
        self.dealer = dealer
        self.__dict__.update(facts)

    @property
    def all_claims(self) -> frozenset[int]:
        return self._game.rules.space.all_claims

    def next_claim(self, claim: int | None) -> int | None:
        return self._game.rules.space.next_claim(claim)

    def prev_claim(self, claim: int | None) -> int | None:
        return self._game.rules.space.prev_claim(claim)

    def above(self, claim: int | None) -> frozenset[int]:
        return self._game.rules.space.above(claim)

    def below(self, claim: int | None) -> frozenset[int]:
        return self._game.rules.space.below(claim)

    def left(self, seat: int | None) -> int | None:
        if seat is None:
            return None
        if self._state is None:
            return seat_after(seat, self._game.rules.step, 1, self.players)
        return self._state.left_of(seat % self.players)

    def right(self, seat: int | None) -> int | None:
        if seat is None:
            return None
        if self._state is None:
            return seat_after(seat, self._game.rules.step, -1, self.players)
        return self._state.right_of(seat % self.players)

    def seat(self, number: int) -> int:
        return seat_after(self._dealer, self._game.rules.step, number, self.players)

    def holder(self, card: int) -> int | None:
        if self._state is None:
            raise FactUnavailable(Fact.DEAL.value)
        self.read_deal = True
        return self._state.holders.get(card)

    def dealt(self, card: int) -> bool:
        # A card set aside or left in the surplus was not dealt.
        return self.holder(card) is not None

    def holds(self, claims: frozenset[int]) -> int:
        if self._state is None or self.acting is None:
            raise FactUnavailable(Fact.HAND.value)
        if not claims:
            return 0
        return self._game.rules.count_matching(self._state.hand(self.acting), claims)


def facts_class(game: Game) -> type[Facts]:
    """A `Facts` subclass carrying `game`'s constant facts."""
    return type("TableFacts", (Facts,), {"_game": game, "players": game.players})
