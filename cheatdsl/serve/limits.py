"""What one server lets its clients cost: how many games it keeps, how long an idle one lives, how many new
games one client may start a minute, and how many variation sets it keeps compiled."""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from dataclasses import dataclass

from .store import IDLE_SECONDS, MOST_GAMES


@dataclass(frozen=True)
class Limits:
    """The server's bounds; `cheatdsl serve` uses the defaults, tests pass smaller ones."""

    idle: float = IDLE_SECONDS
    most_games: int = MOST_GAMES
    new_games_per_minute: int = 60
    most_clients: int = 1024       # clients whose recent new games are remembered
    most_variants: int = 64        # variation sets kept compiled for each rulebook
    turn_cap: int = 2000           # plays and passes before a game that has not ended is stopped


class NewGameCap:
    """At most `per_minute` new games a minute for each client; the clients remembered are bounded too
    (the least recently seen is forgotten first)."""

    def __init__(self, per_minute: int, most_clients: int) -> None:
        self.per_minute = per_minute
        self.most_clients = most_clients
        self.recent: OrderedDict[str, deque[float]] = OrderedDict()

    def allow(self, client: str, now: float | None = None) -> bool:
        """Whether `client` may start a game now; counts it when it may."""
        now = time.monotonic() if now is None else now
        starts = self.recent.pop(client, None) or deque()
        while starts and now - starts[0] >= 60.0:
            starts.popleft()
        self.recent[client] = starts
        while len(self.recent) > self.most_clients:
            self.recent.popitem(last=False)
        if len(starts) >= self.per_minute:
            return False
        starts.append(now)
        return True
