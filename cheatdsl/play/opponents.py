"""The computer seats: bots of `cheatdsl.bots`, each asked with its seat's view only (its own hand and the
public record, never a hidden card)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..bots import Bot, make_bot

if TYPE_CHECKING:
    from ..engine import Action, State


class Opponent:
    """A computer seat: a bot, shown the seat's view of the state and told of public events."""

    def __init__(self, bot: Bot, seat: int, name: str) -> None:
        self.bot = bot
        self.seat = seat
        self.name = name

    def act(self, state: State) -> Action:
        return self.bot.act(state.view(self.seat))

    def notify(self, event: object) -> None:
        """A public event (a reveal), for bots that keep track of them."""
        self.bot.notify(event)


def make_opponent(kind: str, seat: int, rng: random.Random) -> Opponent:
    """The bot called `kind` at `seat`; ValueError naming the bots for a name that is none of them."""
    return Opponent(make_bot(kind, seat, rng), seat, kind)
