"""What a compiled formula may ask of the game: the protocol every back end's context implements.

A compiled formula (`compile_expression`) is a closure called with one context object. It reads the
variables of its place in the rulebook (`previous`, `claimant`, `dealer`, ...) as attributes and
calls the built-in functions below as methods. The compiler's checks, the interpreter, the verifier
(on concrete values and on decision trees) and compare each supply a context; each implements
`FormulaContext`, so a built-in function means one thing everywhere. The docstrings here are the
meaning of each function (`types.FUNCTIONS` shows them to rule authors).

Seats are numbered as the interpreter numbers them: 0..players-1 round the table, play passing
from seat s to seat s + step (step 1 clockwise, -1 anticlockwise). Claims are the interpreter's
claim values: a rank index, or an exact card `suit * ranks + rank`.
"""

from __future__ import annotations

from enum import Enum
from typing import Protocol


class Fact(Enum):
    """A fact of the game a built-in function reads; a place in the rulebook answers some of them
    (`cheatdsl.compiler.scopes.PLACE_FACTS`). The value is the phrase `FactUnavailable` gives."""

    CLAIM_ORDER = "the claim order"
    SEATS = "the seats"
    DEAL = "the deal"
    HAND = "a hand"


class FormulaContext(Protocol):
    """The facts and built-in functions a formula may use (its place's variables aside)."""

    players: int

    @property
    def all_claims(self) -> frozenset[int]:
        """`any`: every claim that can be made at this table."""
        ...

    def next_claim(self, claim: int | None) -> int | None:
        """The claim after this one in the claim order, wrapping round."""
        ...

    def prev_claim(self, claim: int | None) -> int | None:
        """The claim before this one in the claim order, wrapping round."""
        ...

    def above(self, claim: int | None) -> frozenset[int]:
        """Every claim higher than this one (same suit for cards)."""
        ...

    def below(self, claim: int | None) -> frozenset[int]:
        """Every claim lower than this one (same suit for cards)."""
        ...

    def left(self, seat: int | None) -> int | None:
        """The next seat in turn order still in the game."""
        ...

    def right(self, seat: int | None) -> int | None:
        """The previous seat in turn order still in the game."""
        ...

    def seat(self, number: int) -> int:
        """The seat with this number, counting from 0 at the dealer in turn order."""
        ...

    def holder(self, card: int) -> int | None:
        """The seat dealt this exact card."""
        ...

    def dealt(self, card: int) -> bool:
        """Whether this exact card was dealt to some seat."""
        ...

    def holds(self, claims: frozenset[int]) -> int:
        """How many cards of these claims the seat to act holds (wild jokers count)."""
        ...


class ClaimOrder(Protocol):
    """The claims that can be made at a table, in claim order (`cheatdsl.cards.ClaimSpace`)."""

    @property
    def all_claims(self) -> frozenset[int]: ...

    def next_claim(self, claim: int | None) -> int | None: ...

    def prev_claim(self, claim: int | None) -> int | None: ...

    def above(self, claim: int | None) -> frozenset[int]: ...

    def below(self, claim: int | None) -> frozenset[int]: ...


# The fact each member of `FormulaContext` reads (`all_claims` is the constant `any`).
READS: dict[str, Fact] = {
    "all_claims": Fact.CLAIM_ORDER, "next_claim": Fact.CLAIM_ORDER, "prev_claim": Fact.CLAIM_ORDER,
    "above": Fact.CLAIM_ORDER, "below": Fact.CLAIM_ORDER,
    "left": Fact.SEATS, "right": Fact.SEATS, "seat": Fact.SEATS,
    "holder": Fact.DEAL, "dealt": Fact.DEAL,
    "holds": Fact.HAND,
}


class FactUnavailable(Exception):
    """A formula asked for a fact its place cannot give (a seat in a deck formula, a hand before the deal)."""


class TableFacts(FormulaContext):
    """The context of a formula that depends only on the table: `players`, and `cards` or `copies`
    where its place names them (`deck`, `deal`, `sets`, `challenge.allowed_when`)."""

    def __init__(self, players: int, cards: int = 0, copies: int = 0) -> None:
        self.players = players
        self.cards = cards
        self.copies = copies

    def _unavailable(self, what: str) -> FactUnavailable:
        """The error for a formula reading `what` (a phrase: "the seats"), which this context cannot give."""
        return FactUnavailable(what)

    @property
    def all_claims(self) -> frozenset[int]:
        raise self._unavailable(Fact.CLAIM_ORDER.value)

    def next_claim(self, claim: int | None) -> int | None:
        raise self._unavailable(Fact.CLAIM_ORDER.value)

    prev_claim = next_claim

    def above(self, claim: int | None) -> frozenset[int]:
        raise self._unavailable(Fact.CLAIM_ORDER.value)

    below = above

    def left(self, seat: int | None) -> int | None:
        raise self._unavailable(Fact.SEATS.value)

    right = left

    def seat(self, number: int) -> int:
        raise self._unavailable(Fact.SEATS.value)

    def holder(self, card: int) -> int | None:
        raise self._unavailable(Fact.DEAL.value)

    def dealt(self, card: int) -> bool:
        raise self._unavailable(Fact.DEAL.value)

    def holds(self, claims: frozenset[int]) -> int:
        raise self._unavailable(Fact.HAND.value)


class ClaimFacts(TableFacts):
    """The context of a claim formula (`first`, `follow`, `lead`): the table's claims and `previous`."""

    def __init__(self, space: ClaimOrder, players: int, previous: int | None = None) -> None:
        super().__init__(players)
        self.previous = previous
        self._space = space

    @property
    def all_claims(self) -> frozenset[int]:
        return self._space.all_claims

    def next_claim(self, claim: int | None) -> int | None:
        return self._space.next_claim(claim)

    def prev_claim(self, claim: int | None) -> int | None:
        return self._space.prev_claim(claim)

    def above(self, claim: int | None) -> frozenset[int]:
        return self._space.above(claim)

    def below(self, claim: int | None) -> frozenset[int]:
        return self._space.below(claim)
