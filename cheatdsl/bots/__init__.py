"""Computer players, each seeing only what its seat may see.

    bot = make_bot("honest", seat, random.Random(7), challenge_rate=0.15)
    action = bot.act(state.view(seat))     # when state.current_player() == seat
    bot.notify(reveal)                     # optional: counter also catches up from the view

`random`   every legal action equally likely (plays sampled without listing them when many);
`greedy`   every card of the required rank up to the cap, else one random card; challenges at `challenge_rate`;
`honest`   seed 003's opponents: truthful cards when held, else a bluff (or a pass) with the card its turns
           will ask for last; doubts from its own hand, the claim's count and rank and whether the claimant
           is on its last cards;
`counter`  honest, remembering every revealed card and pickup to call certain lies;
`search`   counter's memory, and each choice tried on tables drawn to fit its view, played on by honest bots
           (options `effort` low/default/high, or `determinizations` and `horizon`; see `search.py`).
"""

from __future__ import annotations

import random
from typing import Any

from .base import Bot
from .counter import CounterBot
from .honest import HonestBot
from .search import SearchBot
from .simple import GreedyBot, RandomBot

BOTS: dict[str, type[Bot]] = {cls.name: cls for cls in (RandomBot, GreedyBot, HonestBot, CounterBot, SearchBot)}


def make_bot(name: str, seat: int, rng: random.Random, **options: Any) -> Bot:
    """A bot called `name` for `seat`, drawing its choices from `rng`; options such as `challenge_rate`."""
    cls = BOTS.get(name)
    if cls is None:
        raise ValueError(f"there is no bot `{name}`; the bots are " + ", ".join(f"`{n}`" for n in BOTS))
    return cls(seat, rng, **options)


__all__ = ["BOTS", "Bot", "CounterBot", "GreedyBot", "HonestBot", "RandomBot", "SearchBot", "make_bot"]
