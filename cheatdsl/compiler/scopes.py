"""What each rule formula may name, place by place in the rulebook.

A place's context is the object the back ends evaluate its formula in: `TableFacts` for the formulas
that depend on the table alone, `ClaimFacts` for claim formulas, and the interpreter's and verifier's
seat contexts for the rest. `PLACE_FACTS` says which facts of the game each place's contexts all
answer; a formula there may use only the built-ins reading those (`types.builtins_answered`).
"""

from __future__ import annotations

from ..expr import Scope, Type
from ..expr.context import Fact
from ..model import Rank, Suit
from ..syntax.table import SECTIONS

N, B, C, S = Type.NUMBER, Type.BOOL, Type.CLAIM, Type.SEAT

# Each place a formula can stand, and the facts of the game it may use there.
PLACES: dict[str, dict[str, Type]] = {
    "deck": {"players": N},
    "deal": {"players": N, "cards": N},
    "first_player": {"players": N, "dealer": S},
    "first_claim": {"players": N},
    "follow": {"players": N, "previous": C},
    "lead": {"players": N, "previous": C},
    "passing": {"players": N, "hand": N, "leading": B, "required": Type.CLAIMS},
    "all_pass_leader": {"players": N, "last_player": S},
    "challenge_allowed": {"players": N},
    "next_player": {"players": N, "claimant": S, "challenger": S, "winner": S, "loser": S, "caught": B},
    "sets": {"players": N, "copies": N},
    "turn_start_win": {"players": N, "hand": N, "leading": B, "required": Type.CLAIMS},
}

CLAIM_ORDER, SEATS, DEAL, HAND = Fact.CLAIM_ORDER, Fact.SEATS, Fact.DEAL, Fact.HAND

# The facts each place's contexts answer. The table places are read before any seat exists
# (`TableFacts`); claim formulas are tabulated per previous claim (`ClaimFacts`); the verifier reads
# seat formulas with `SeatFacts`, which knows no claim order or hand, and no seat is "to act" when the
# next leader is chosen. Who was dealt a card is kept for the whole game, so every seat formula
# (`first_player`, `next_player`, `all_pass_leader`) may ask it; the verifier's seat tables of
# `passing` and `turn_start_win` do not branch on the deal, so those places may not.
PLACE_FACTS: dict[str, frozenset[Fact]] = {
    "deck": frozenset(),
    "deal": frozenset(),
    "challenge_allowed": frozenset(),
    "sets": frozenset(),
    "first_claim": frozenset({CLAIM_ORDER}),
    "follow": frozenset({CLAIM_ORDER}),
    "lead": frozenset({CLAIM_ORDER}),
    "first_player": frozenset({SEATS, DEAL}),
    "all_pass_leader": frozenset({SEATS, DEAL}),
    "next_player": frozenset({SEATS, DEAL}),
    "passing": frozenset({CLAIM_ORDER, SEATS, HAND}),
    "turn_start_win": frozenset({CLAIM_ORDER, SEATS, HAND}),
}


def place_fields(place: str) -> list[str]:
    """The rules whose formulas stand at `place`, as dotted names (`deck.packs`)."""
    return [f"{path}.{f.name}" if path else f.name
            for path, fields in SECTIONS.items() for f in fields if f.place == place]


def scope_for(place: str, ranks: tuple[Rank, ...], suits: tuple[Suit, ...], claims_are_cards: bool) -> Scope:
    """The scope of a formula standing at `place`."""
    names: dict[str, int] = {}
    for index, rank in enumerate(ranks):
        names[rank.name] = index
        names[rank.plural] = index
    return Scope(
        variables=dict(PLACES[place]),
        ranks=names,
        suits={suit.name: index for index, suit in enumerate(suits)},
        claims_are_cards=claims_are_cards,
        rank_count=len(ranks),
        facts=PLACE_FACTS[place],
    )
