"""`simulate --records FILE`: one JSON line per game, written in game order as games end."""

from __future__ import annotations

import json
from pathlib import Path
from types import TracebackType
from typing import IO

from ..output import open_new
from ..tally import GameRecord
from .play import game_seed


def record_json(index: int, seed: int, r: GameRecord) -> dict[str, object]:
    """A game's record as the JSON line says it; `seed` is the run's, `ending` one of finished,
    turn cap, no legal action."""
    ending = "turn cap" if r.capped else "no legal action" if r.stuck else "finished"
    return {"game": index, "seed": game_seed(seed, index), "first": r.first, "winner": r.winner, "loser": r.loser,
            "ending": ending, "turns": r.turns, "actions": r.actions, "plays": r.plays, "forced": r.forced,
            "challenges": r.challenges, "caught": r.caught, "pickups": list(r.pickups)}


class RecordWriter:
    """Writes each game to a file as it ends, or nothing at all when no file is named."""

    def __init__(self, path: str | None, seed: int, force: bool = False) -> None:
        self.path = path
        self.seed = seed
        self.force = force
        self.handle: IO[str] | None = None

    def __enter__(self) -> RecordWriter:
        if self.path is not None:
            self.handle = open_new(Path(self.path), self.force)
        return self

    def write(self, index: int, record: GameRecord) -> None:
        if self.handle is not None:
            self.handle.write(json.dumps(record_json(index, self.seed, record)) + "\n")

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.handle is not None:
            self.handle.close()
