"""Statistics of made-up games for the compare tests, summed up by the simulator's own `summarise`.

A test names the games (their lengths, which were capped or stuck, who won counted from the first
player, the challenges) and gets the `Statistics` that `simulate` would report for them.
"""

from __future__ import annotations

from collections.abc import Sequence

from cheatdsl.simulate import GameRecord, Settings, Statistics
from cheatdsl.simulate.summary import summarise


def played(lengths: Sequence[int], capped: int = 0, stuck: int = 0, cap: int = 2000, *, players: int = 2,
           wins: Sequence[int] | None = None, caught: int = 0, failed: int = 0, forced: int = 0,
           pickups: Sequence[int] = (), rulebook: str = "standard") -> Statistics:
    """Games of these finished lengths (the last `stuck` of them stopped with no legal action), then `capped`
    games at the turn cap `cap`.

    `wins[k]` is the winner of decided game k counted from the first player (default: the first player
    wins every one); the challenges, forced bluffs and cards taken at pickups are all in the first game.
    """
    decided = len(lengths) - stuck
    positions = list(wins) if wins is not None else [0] * decided
    assert len(positions) == decided, "one winner for each decided game"
    records = []
    for k, turns in enumerate([*lengths, *[cap] * capped]):
        first = k % players
        winner = (first + positions[k]) % players if k < decided else -1
        extra = k == 0
        records.append(GameRecord(
            first=first, winner=winner, loser=-1, capped=k >= len(lengths), stuck=decided <= k < len(lengths),
            turns=turns, actions=turns, plays=turns, forced=forced if extra else 0,
            challenges=caught + failed if extra else 0, caught=caught if extra else 0,
            pickups=tuple(pickups) if extra else ()))
    settings = Settings(rulebook, rulebook, (), players, ("honest",) * players, 0, cap, 0.15, 1)
    return summarise(records, settings, first_out=True)
