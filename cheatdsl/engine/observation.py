"""What one seat may know: its own hand and everything said or shown at the table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .actions import Phase
from .records import RevealRecord

if TYPE_CHECKING:
    from .state import State


@dataclass(frozen=True)
class ClaimRecord:
    """A claim on the pile, as the table heard it; `played` cards went down (public by hand sizes)."""

    seat: int | None
    claim: int | None
    count: int
    played: int
    last_cards: bool


@dataclass(frozen=True)
class Observation:
    """The only view a bot gets of a game: one seat's hand and the public record."""

    seat: int
    phase: Phase
    to_act: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    pile_size: int
    stock_size: int
    aside_size: int
    claims: tuple[ClaimRecord, ...]
    previous: int | None
    leading: bool
    required: tuple[int, ...]
    claimant: int | None
    reveals: tuple[RevealRecord, ...]
    discarded_sets: tuple[tuple[int, int, tuple[int, ...]], ...]
    out: tuple[int, ...]
    turns: int
    dealer: int | None
    callers: tuple[int, ...] = ()  # seats whose calls made at once wait for the lot of who called first

    @property
    def last_reveal(self) -> RevealRecord | None:
        return self.reveals[-1] if self.reveals else None


def observe(state: State, seat: int) -> Observation:
    """`seat`'s observation of `state`."""
    if not 0 <= seat < state.game.players:
        raise ValueError(f"there is no seat {seat}")
    claims = [ClaimRecord(who, claim, count, len(cards), last) for who, cards, claim, count, last in state.pile_plays()]
    return Observation(
        seat=seat,
        phase=state.phase,
        to_act=state.current_player(),
        hand=state.hand_cards(seat),
        hand_sizes=tuple(state.sizes),
        pile_size=state.pile_size(),
        stock_size=state.stock_size(),
        aside_size=len(state.aside()),
        claims=tuple(claims),
        previous=state.previous,
        leading=state.leading,
        required=state.required,
        claimant=state.claimant,
        reveals=state.reveals(),
        discarded_sets=state.discarded_sets(),
        out=state.order_out(),
        turns=state.turns,
        dealer=state.dealer,
        callers=state.callers(),
    )
