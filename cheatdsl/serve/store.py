"""The games a server holds: unguessable ids, idle games dropped, a bound on how many are kept."""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict

from .session import Session

IDLE_SECONDS = 2 * 60 * 60
MOST_GAMES = 2000


class Store:
    """Sessions by id, kept in the order they were last used: a game idle longer than `idle` seconds is
    dropped, and when `most` games are held the least recently used one makes room. Adding, finding and
    dropping a game each cost the same however many games are held."""

    def __init__(self, idle: float = IDLE_SECONDS, most: int = MOST_GAMES) -> None:
        self.idle = idle
        self.most = most
        self.games: OrderedDict[str, Session] = OrderedDict()

    def add(self, session: Session) -> str:
        self.sweep()
        while len(self.games) >= self.most:
            self.games.popitem(last=False)
        key = secrets.token_urlsafe(18)
        session.id = key
        session.touched = time.monotonic()
        self.games[key] = session
        return key

    def get(self, key: str) -> Session | None:
        session = self.games.get(key)
        if session is None:
            return None
        now = time.monotonic()
        if now - session.touched > self.idle:
            del self.games[key]
            return None
        session.touched = now
        self.games.move_to_end(key)
        return session

    def sweep(self) -> None:
        """Drop the idle games: the least recently used come first, so the walk stops at the first busy one."""
        now = time.monotonic()
        while self.games:
            key, oldest = next(iter(self.games.items()))
            if now - oldest.touched <= self.idle:
                break
            del self.games[key]
