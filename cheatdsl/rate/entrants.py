"""The bots of a ladder, weakest expected first, each a name at the table and the options it is made with."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..bots import BOTS, Bot, make_bot
from ..bots.search_playout import Playouts


@dataclass(frozen=True)
class Entrant:
    """One rung of the ladder: a label, the bot and its options."""

    label: str
    bot: str
    options: tuple[tuple[str, Any], ...] = field(default=())

    def make(self, seat: int, rng: random.Random, playouts: Playouts | None = None) -> Bot:
        """A bot of this entrant for `seat`; a search bot plays out on `playouts` (None: its own)."""
        options = dict(self.options)
        if playouts is not None and "playouts" in BOTS[self.bot].options:
            options["playouts"] = playouts
        return make_bot(self.bot, seat, rng, **options)


LADDER: tuple[Entrant, ...] = (
    Entrant("random", "random"),
    Entrant("greedy", "greedy"),
    Entrant("honest", "honest"),
    Entrant("counter", "counter"),
    Entrant("search-low", "search", (("effort", "low"),)),
    Entrant("search", "search", (("effort", "default"),)),
)

STRONG = 4  # the strongest entrants (last in the ladder) play the table whose seats and length are measured


def strong_table(ladder: tuple[Entrant, ...], players: int) -> tuple[Entrant, ...]:
    """The entrants of the strong table: the last `players` of the ladder (repeating the strongest if short)."""
    top = ladder[-min(players, STRONG, len(ladder)):]
    return tuple(top[-1 - i % len(top)] for i in range(players))[::-1]
