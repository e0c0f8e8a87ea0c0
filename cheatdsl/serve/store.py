"""The games a server holds: unguessable ids, idle games dropped, a bound on how many are kept."""

from __future__ import annotations

import secrets
import time

from .session import Session

IDLE_SECONDS = 2 * 60 * 60
MOST_GAMES = 5000


class Store:
    """Sessions by id; a game idle longer than `idle` seconds is dropped, the oldest first when full."""

    def __init__(self, idle: float = IDLE_SECONDS, most: int = MOST_GAMES) -> None:
        self.idle = idle
        self.most = most
        self.games: dict[str, Session] = {}

    def add(self, session: Session) -> str:
        self.sweep()
        while len(self.games) >= self.most:
            oldest = min(self.games, key=lambda k: self.games[k].touched)
            del self.games[oldest]
        key = secrets.token_urlsafe(18)
        session.id = key
        self.games[key] = session
        return key

    def get(self, key: str) -> Session | None:
        session = self.games.get(key)
        if session is None:
            return None
        if time.monotonic() - session.touched > self.idle:
            del self.games[key]
            return None
        session.touched = time.monotonic()
        return session

    def sweep(self) -> None:
        """Drop every idle game."""
        now = time.monotonic()
        for key in [k for k, s in self.games.items() if now - s.touched > self.idle]:
            del self.games[key]
