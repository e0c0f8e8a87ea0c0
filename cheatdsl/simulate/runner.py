"""Running many games, in one process or several, with the same numbers whatever the number of jobs."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from typing import Any

from ..bots import BOTS
from ..model import EndStyle, Rulebook
from ..profiles import command_name
from .play import GameRecord, Table
from .stats import Settings, Statistics
from .summary import summarise
from .tally import Tally

Progress = Callable[[int, int], None]
Recorder = Callable[[int, GameRecord], None]
DEFAULT_BOTS = ("honest",)

_table: Table | None = None  # a worker's table, set once when the worker starts


def seat_bots(bots: Sequence[str] | str, players: int) -> tuple[str, ...]:
    """One bot name per seat: a single name fills every seat; otherwise one name a seat."""
    names = tuple(b.strip() for b in bots.split(",")) if isinstance(bots, str) else tuple(bots)
    for name in names:
        if name not in BOTS:
            raise ValueError(f"there is no bot `{name}`; the bots are " + ", ".join(f"`{n}`" for n in BOTS))
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ValueError(f"{len(names)} bots named for {players} seats: name one bot, or one for each seat")
    return names


def simulate(rulebook: Rulebook, players: int, games: int, seed: int, bots: Sequence[str] | str = DEFAULT_BOTS,
             turn_cap: int | None = None, jobs: int = 1, challenge_rate: float = 0.15,
             progress: Progress | None = None, record: Recorder | None = None) -> Statistics:
    """Play `games` games of `rulebook` at `players` seats and return their statistics.

    Game i is seeded from (seed, i) alone, and results are merged in game order, so the numbers are
    the same for any `jobs`. Games are counted as they end (memory does not grow with `games`);
    `record(i, game)` is called for each game, in game order, where per-game records are wanted.
    `turn_cap` None stops a game after DEFAULT_TURN_CAP turns (or the rulebook's own cap, if lower).
    Raises ValueError for settings the table cannot take.
    """
    if games < 0:
        raise ValueError(f"the number of games cannot be negative ({games})")
    if jobs < 1:
        raise ValueError(f"jobs must be 1 or more, not {jobs}")
    if turn_cap is not None and turn_cap < 1:
        raise ValueError(f"the turn cap must be 1 or more, not {turn_cap}")
    if not 0.0 <= challenge_rate <= 1.0:
        raise ValueError(f"the challenge rate is a probability from 0 to 1, not {challenge_rate}")
    names = seat_bots(bots, players)
    table = Table(rulebook, players, names, seed, turn_cap, challenge_rate)
    tally = _run(table, rulebook, games, jobs, progress, record)
    settings = Settings(rulebook.name, command_name(rulebook.path), tuple(rulebook.active_variations), players, names,
                        seed, table.game.turn_cap, challenge_rate, jobs)
    return summarise(tally, settings, rulebook.ending.style is EndStyle.FIRST_OUT)


def _chunks(games: int, jobs: int) -> list[tuple[int, int]]:
    size = max(1, min(500, -(-games // (jobs * 8)) if games else 1))
    return [(i, min(games, i + size)) for i in range(0, games, size)]


def _run(table: Table, rulebook: Rulebook, games: int, jobs: int, progress: Progress | None,
         record: Recorder | None) -> Tally:
    tally = Tally(table.game.players)

    def count(first: int, part: list[GameRecord]) -> None:
        for offset, r in enumerate(part):
            tally.add(r)
            if record is not None:
                record(first + offset, r)
        if progress:
            progress(tally.games, games)

    chunks = _chunks(games, jobs)
    if jobs == 1 or games <= 1:
        for first, stop in chunks:
            count(first, table.play(first, stop))
        return tally
    global _table
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods:
        # A forked worker inherits the compiled table; nothing is pickled but the game ranges.
        _table = table
        context: Any = multiprocessing.get_context("fork")
        init: tuple[Any, ...] = ()
    else:
        context = multiprocessing.get_context()
        init = (rulebook.path, rulebook.active_variations, table.game.players, table.bots, table.seed,
                table.game.turn_cap, table.challenge_rate)
    try:
        with context.Pool(min(jobs, len(chunks)), initializer=_start_worker, initargs=init) as pool:
            for (first, _), part in zip(chunks, pool.imap(_play_chunk, chunks)):
                count(first, part)
    finally:
        _table = None
    return tally


def _start_worker(*init: Any) -> None:
    global _table
    if init:
        from ..load import load_rulebook
        path, variations, players, bots, seed, turn_cap, rate = init
        _table = Table(load_rulebook(path, list(variations)), players, bots, seed, turn_cap, rate)


def _play_chunk(span: tuple[int, int]) -> list[GameRecord]:
    assert _table is not None
    return _table.play(*span)
