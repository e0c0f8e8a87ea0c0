"""The facts a rule formula reads while a game is played: its variables and built-in functions.

Formulas are compiled closures `formula.code(facts)`; each place in the rulebook names a few facts
(`cheatdsl/compiler/scopes.py`), which a `Facts` object carries as attributes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game
    from .state import State


class ClaimFacts:
    """Facts for the claim formulas (`first`, `follow`, `lead`): the table and the last claim."""

    def __init__(self, game: Game, previous: int | None) -> None:
        space = game.space
        self.players = game.players
        self.previous = previous
        self.all_claims = space.all_claims
        self.next_claim = space.next_claim
        self.prev_claim = space.prev_claim
        self.above = space.above
        self.below = space.below


class Facts:
    """Facts about seats and hands, for the formulas that pick a seat or decide a win.

    `facts_class(game)` makes a subclass holding the table's constant facts, so that a context
    for one evaluation only stores the few facts of the moment.
    """

    _game: Game
    players: int
    holders: dict[int, int] = {}
    acting: int | None = None

    def __init__(self, state: State | None, dealer: int = 0, **facts: Any) -> None:
        self._state = state
        self._dealer = dealer
        self.dealer = dealer
        self.__dict__.update(facts)

    def left(self, seat: int | None) -> int | None:
        """The next seat in turn order still in the game."""
        if seat is None:
            return None
        if self._state is None:
            return self._game.succ[seat % self.players]
        return self._state.left_of(seat % self.players)

    def right(self, seat: int | None) -> int | None:
        """The previous seat in turn order still in the game."""
        if seat is None:
            return None
        if self._state is None:
            return self._game.pred[seat % self.players]
        return self._state.right_of(seat % self.players)

    def seat(self, number: int) -> int:
        """The seat `number` places after the dealer in turn order."""
        return (self._dealer + self._game.step * number) % self.players

    def holder(self, card: int) -> int | None:
        """The seat dealt this exact card (the first such seat with several packs)."""
        return self.holders.get(card)

    def dealt(self, card: int) -> bool:
        """Whether this exact card reached a hand in the deal (not set aside, not in the surplus)."""
        return card in self.holders

    def holds(self, claims: frozenset[int]) -> int:
        """Cards of these claims in the hand of the seat to act; wild jokers count."""
        if self._state is None or self.acting is None or not claims:
            return 0
        return self._game.count_matching(self._state.hand(self.acting), claims)


def facts_class(game: Game) -> type[Facts]:
    """A `Facts` subclass carrying `game`'s constant facts and claim functions."""
    space = game.space
    return type("TableFacts", (Facts,), {
        "_game": game, "players": game.players, "all_claims": space.all_claims,
        "next_claim": staticmethod(space.next_claim), "prev_claim": staticmethod(space.prev_claim),
        "above": staticmethod(space.above), "below": staticmethod(space.below),
    })
