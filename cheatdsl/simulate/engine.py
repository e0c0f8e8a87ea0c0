"""Which engine plays a run's games: the compiled kernel or the Python engine (the reference)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum
from typing import Protocol

from ..bots.search_playout import Playouts
from ..engine import Game
from ..tally import GameRecord
from .play import Table

# `auto` plays in Python where the whole run would take less than this there: about twice a warm start of the
# kernel, which does not repay itself below that.
AUTO_PYTHON_SECONDS = 2.0
PROBE_GAMES = 2  # games played in Python to estimate a run's length there (their records are not kept)
ACTION_SECONDS = 2e-6
"""A decision of the Python engine, bots' thinking included, at the dear end for a deck of a pack or a few (1.9
microseconds measured on the shipped profile of the longest games, 0.8 on a short one: docs/engine.md). An
estimate from counted decisions, not timed ones, so that a run plays on the same engine (and gives the same
figures) however busy the machine is."""
DECK_CUBE_SECONDS = 1.65e-13
"""What a decision costs more with a deck of N cards: N**3 times this (the bots' odds over ever larger hands;
about 1, 40 and 1,300 microseconds a decision measured at 208, 624 and 1,976 cards: docs/engine.md)."""


class Engine(Enum):
    """`--engine`: `auto` takes the compiled engine when it plays the rules and the run would take the Python
    engine more than a couple of seconds (`python_seconds`)."""

    AUTO = "auto"
    COMPILED = "compiled"
    PYTHON = "python"


class Player(Protocol):
    """What a run needs of an engine: its game, and the records of a range of games."""

    game: Game

    def play(self, first: int, stop: int) -> list[GameRecord]: ...


class EngineUnavailable(ValueError):
    """`--engine compiled` cannot play this run; the message says why and what to do."""


def python_seconds(table: Table, games: int) -> float:
    """About how long `games` games of `table` take on the Python engine: the decisions of the first
    `PROBE_GAMES`, played there, at `decision_seconds` each (the work of a game differs from one rulebook to
    another by a factor of a hundred, so a count of games alone says little). The same for the same run on any
    machine, busy or not: the games are seeded and their decisions counted, not timed."""
    probe = min(games, PROBE_GAMES)
    if probe <= 0:
        return 0.0
    actions = sum(r.actions for r in table.play(0, probe))
    return actions * decision_seconds(len(table.game.rules.table.deck)) * games / probe


def decision_seconds(deck: int) -> float:
    """About how long the Python engine takes a decision with a deck of `deck` cards (ACTION_SECONDS,
    DECK_CUBE_SECONDS)."""
    return ACTION_SECONDS + DECK_CUBE_SECONDS * deck ** 3


def choose(engine: Engine, table: Table, bots: Sequence[str], games: int,
           notice: Callable[[str], None] | None = None) -> Player:
    """The engine that plays `table`'s games: `table` itself (Python) or a compiled table.

    `compiled` raises EngineUnavailable when numba is missing or the kernel does not play the rules;
    `auto` then plays in Python, calling `notice` once when it is numba that is missing or the kernel's
    tables would take more memory than they may."""
    if engine is Engine.PYTHON or (engine is Engine.AUTO and python_seconds(table, games) < AUTO_PYTHON_SECONDS):
        return table
    from ..compiled.cache import INSTALL_HINT, numba_available
    if not numba_available():
        if engine is Engine.COMPILED:
            raise EngineUnavailable(INSTALL_HINT)
        if notice is not None:
            notice("numba is not installed: playing with the Python engine (pip install cheatdsl[compiled])")
        return table
    from ..compiled.run import CompiledTable, Refused, RefusedForMemory
    try:
        return CompiledTable(table.game, bots, table.seed, table.challenge_rate)
    except Refused as exc:
        if engine is Engine.COMPILED:
            raise EngineUnavailable(str(exc)) from None
        if notice is not None and isinstance(exc, RefusedForMemory):
            # A refusal for memory is news to someone who asked for speed; one for rules the kernel does not
            # play is the documented fallback of `auto`.
            notice(f"{str(exc).removesuffix(': use --engine python')}: playing with the Python engine")
        return table


def search_playouts(engine: Engine, challenge_rate: float = 0.15,
                    notice: Callable[[str], None] | None = None) -> Playouts | None:
    """Where the search bot's playouts run: the compiled kernel's (`CompiledPlayouts`, which plays in Python
    any table the kernel refuses) or None, the bot's own Python playouts. `compiled` raises EngineUnavailable
    without numba; `auto` then plays in Python, calling `notice` once."""
    if engine is Engine.PYTHON:
        return None
    from ..compiled.cache import INSTALL_HINT, numba_available
    if not numba_available():
        if engine is Engine.COMPILED:
            raise EngineUnavailable(INSTALL_HINT)
        if notice is not None:
            notice("numba is not installed: the search bot's playouts run on the Python engine "
                   "(pip install cheatdsl[compiled])")
        return None
    from ..compiled.playouts import CompiledPlayouts
    return CompiledPlayouts(challenge_rate)
