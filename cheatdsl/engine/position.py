"""An explicit position in the middle of a game, for scenarios and verifier counterexamples."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Position:
    """Who holds what and who plays next; cards are card values of the game (`TableRules.card_values`).

    `pile` lists the cards already on the table, bottom first (they are one bundle no challenge
    turns over); `stock` lists the stock top card first. `previous` is the last claim made (None
    before the first play); with `leading` the seat to play leads a new round. `out` lists the
    seats already out of the game, in the order they went out.
    """

    hands: tuple[tuple[int, ...], ...]
    to_play: int
    dealer: int = 0
    pile: tuple[int, ...] = ()
    stock: tuple[int, ...] = ()
    aside: tuple[int, ...] = ()
    previous: int | None = None
    leading: bool = False
    out: tuple[int, ...] = field(default=())
    last_player: int | None = None
