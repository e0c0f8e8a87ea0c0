"""Running many games, in one process or several, with the same numbers whatever the number of jobs."""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..bots import BOTS
from ..jobs import die_with_parent
from ..model import EndStyle, Rulebook
from ..profiles import command_name
from ..tally import GameRecord, Tally
from .engine import Engine, Player, choose
from .play import Table
from .stats import Settings, Statistics
from .summary import summarise

Progress = Callable[[int, int], None]
Recorder = Callable[[int, GameRecord], None]
DEFAULT_BOTS = ("honest",)
MAX_GAMES = 10**12  # the most games one run may ask for (`--games`); chunks are made as they are played
_IN_FLIGHT = 4      # chunks queued per worker: enough to keep it busy, few enough to keep memory flat
CHUNK = 500         # games a chunk at most, a record each (or games on the Python engine)
# Games a chunk at most where the engine tallies them itself (the compiled one): a chunk's tally is a few arrays
# whatever its size, and at 500 games the tallies, not the games, took the time (docs/engine.md, "--jobs").
TALLIED_CHUNK = 20_000

_table: Player | None = None  # a worker's table, set once when the worker starts


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
             progress: Progress | None = None, record: Recorder | None = None, engine: Engine = Engine.PYTHON,
             notice: Callable[[str], None] | None = None) -> Statistics:
    """Play `games` games of `rulebook` at `players` seats and return their statistics.

    Game i is seeded from (seed, i) alone, and results are merged in game order, so the numbers are
    the same for any `jobs`. Games are counted as they end (memory does not grow with `games`);
    `record(i, game)` is called for each game, in game order, where per-game records are wanted.
    `turn_cap` None stops a game after DEFAULT_TURN_CAP turns (or the rulebook's own cap, if lower).
    `engine` picks the compiled kernel or the Python engine (`engine.choose`; `notice` hears why `auto`
    fell back); the two play the same rules with different draws. Raises ValueError for settings the
    table cannot take, and EngineUnavailable when `engine` is COMPILED and the kernel cannot play them.
    """
    if not 0 <= games <= MAX_GAMES:
        raise ValueError(f"the number of games is from 0 to {MAX_GAMES:,}, not {games:,}")
    if jobs < 1:
        raise ValueError(f"jobs must be 1 or more, not {jobs}")
    if turn_cap is not None and turn_cap < 1:
        raise ValueError(f"the turn cap must be 1 or more, not {turn_cap}")
    if not 0.0 <= challenge_rate <= 1.0:
        raise ValueError(f"the challenge rate is a probability from 0 to 1, not {challenge_rate}")
    names = seat_bots(bots, players)
    table = Table(rulebook, players, names, seed, turn_cap, challenge_rate)
    player = choose(engine, table, names, games, notice)
    tally = _run(player, rulebook, games, jobs, progress, record)
    settings = Settings(rulebook.name, command_name(rulebook.path), tuple(rulebook.active_variations), players, names,
                        seed, table.game.turn_limit, challenge_rate, jobs)
    return summarise(tally, settings, rulebook.ending.style is EndStyle.FIRST_OUT)


def _chunk_size(games: int, jobs: int, most: int = CHUNK) -> int:
    """Games per chunk: about eight chunks a worker, at most `most` games each."""
    return max(1, min(most, -(-games // (jobs * 8)) if games else 1))


def _chunks(games: int, jobs: int, most: int = CHUNK) -> Iterator[tuple[int, int]]:
    """The game ranges a run plays, made one at a time as they are asked for."""
    size = _chunk_size(games, jobs, most)
    return ((i, min(games, i + size)) for i in range(0, games, size))


def _run(table: Player, rulebook: Rulebook, games: int, jobs: int, progress: Progress | None,
         record: Recorder | None) -> Tally:
    tally = Tally(table.game.players)

    # An engine that tallies a chunk itself (the compiled one) does so when no per-game record is wanted.
    summing = record is None and hasattr(table, "tally")

    def count(first: int, part: list[GameRecord] | Tally) -> None:
        if isinstance(part, Tally):
            tally.merge(part)
        else:
            for offset, r in enumerate(part):
                tally.add(r)
                if record is not None:
                    record(first + offset, r)
        if progress:
            progress(tally.games, games)

    most = TALLIED_CHUNK if summing else CHUNK
    chunks = _chunks(games, jobs, most)
    if jobs == 1 or games <= 1:
        for span in chunks:
            count(span[0], _play(table, span, summing))
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
        compiled = table.__class__ is not Table
        init = (rulebook.path, rulebook.active_variations, table.game.players, table.bots, table.seed,
                table.game.turn_limit, table.challenge_rate, compiled)
    workers = min(jobs, -(-games // _chunk_size(games, jobs, most)))
    try:
        with context.Pool(workers, initializer=_start_worker, initargs=init) as pool:
            # Pool.imap would read every chunk range up front; a bounded queue of results keeps memory flat.
            pending: deque[tuple[int, Any]] = deque()
            for span in chunks:
                pending.append((span[0], pool.apply_async(_play_chunk, (span, summing))))
                if len(pending) >= workers * _IN_FLIGHT:
                    first, result = pending.popleft()
                    count(first, result.get())
            while pending:
                first, result = pending.popleft()
                count(first, result.get())
    finally:
        _table = None
    return tally


def _start_worker(*init: Any) -> None:
    global _table
    die_with_parent()
    if init:
        from ..load import load_rulebook
        path, variations, players, bots, seed, turn_cap, rate, compiled = init
        table = Table(load_rulebook(path, list(variations)), players, bots, seed, turn_cap, rate)
        _table = choose(Engine.COMPILED if compiled else Engine.PYTHON, table, bots, 0)


def _play(table: Player, span: tuple[int, int], summing: bool) -> list[GameRecord] | Tally:
    """A chunk's games: their records, or with `summing` their tally (from an engine that has `tally`)."""
    return table.tally(*span) if summing else table.play(*span)  # type: ignore[attr-defined]


def _play_chunk(span: tuple[int, int], summing: bool) -> list[GameRecord] | Tally:
    assert _table is not None
    return _play(_table, span, summing)
