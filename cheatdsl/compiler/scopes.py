"""What each rule formula may name, place by place in the rulebook."""

from __future__ import annotations

from ..expr import Scope, Type
from ..model import Rank, Suit

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
    )
