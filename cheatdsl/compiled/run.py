"""Running games on the compiled kernel: the same `GameRecord`s, tally and statistics as the Python engine."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from ..derived import TableRules
from ..engine import Game
from ..simulate.play import GameRecord
from .support import refusal
from .tables import KernelTables, SeatFormulaReadsDeal, build

_SEED_MASK = (1 << 64) - 1
_PICKUP_ROOM = 1 << 16  # pickups a batch of games may write before the batch stops early


def unsupported(game: Game, bots: Sequence[str]) -> str | None:
    """Why the kernel cannot play `game` with these bots (a sentence naming --engine python), or None."""
    why = refusal(TableRules(game.rulebook, game.players), bots)
    if why is None:
        try:
            build(TableRules(game.rulebook, game.players), game)
        except SeatFormulaReadsDeal as exc:
            why = f"the compiled engine does not play {exc}: use --engine python"
    return why


class CompiledTable:
    """A run's fixed settings as kernel tables; `play(first, stop)` gives the games' records in order."""

    def __init__(self, game: Game, bots: Sequence[str], seed: int, challenge_rate: float) -> None:
        rules = TableRules(game.rulebook, game.players)
        why = refusal(rules, bots)
        if why is not None:
            raise ValueError(why)
        try:
            self.tables: KernelTables = build(rules, game)
        except SeatFormulaReadsDeal as exc:
            raise ValueError(f"the compiled engine does not play {exc}: use --engine python") from None
        self.game = game
        self.bots = tuple(bots)
        self.seed = seed
        self.challenge_rate = challenge_rate

    def play(self, first: int, stop: int) -> list[GameRecord]:
        """Games first..stop-1 of the run, in order."""
        return list(self.records(first, stop))

    def records(self, first: int, stop: int) -> Iterator[GameRecord]:
        """Games first..stop-1 of the run, in order, played in batches."""
        from .kernel import CAPPED, FIRST, PICKUPS, RECORD_WIDTH, WINNER, play_games
        t = self.tables
        pickups = np.zeros(max(_PICKUP_ROOM, 2 * t.turn_cap), dtype=np.int64)
        while first < stop:
            count = stop - first
            rows = np.zeros((count, RECORD_WIDTH), dtype=np.int64)
            done = play_games(*t, np.uint64(self.seed & _SEED_MASK), first, count, self.challenge_rate, rows, pickups)
            at = 0
            for row in rows[:done].tolist():
                taken = tuple(pickups[at:at + row[PICKUPS]].tolist())
                at += row[PICKUPS]
                yield GameRecord(row[FIRST], row[WINNER], -1, bool(row[CAPPED]), False, *row[CAPPED + 2:PICKUPS],
                                 taken)
            first += done
