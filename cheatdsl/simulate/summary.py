"""The numbers a run reports, worked out once from its tally of games."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..tally import GameRecord, Tally
from .stats import Challenges, FirstPlayer, ForcedBluffs, Losers, Pickups, Settings, Share, Statistics

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); (0, 1) with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def shares(counts: Sequence[int], trials: int) -> tuple[Share, ...]:
    """Each seat's count, share of `trials` and 95% Wilson interval."""
    out = []
    for seat, k in enumerate(counts):
        low, high = wilson(k, trials)
        out.append(Share(seat, k, k / trials if trials else 0.0, low, high))
    return tuple(out)


def summarise(tally: Tally | Sequence[GameRecord], settings: Settings, first_out: bool) -> Statistics:
    """Every statistic of a run played with `settings`; `first_out`: the first player out wins (no loser)."""
    players = settings.players
    t = tally if isinstance(tally, Tally) else Tally(players).add_all(tally)
    games, decided, plays, challenges = t.games, t.decided, t.plays, t.challenges
    low, high = wilson(t.first_wins, decided)
    fair = 1 / players
    losers = None if first_out else Losers(tuple(t.losers), shares(t.losers, sum(t.losers)))
    return Statistics(
        settings=settings,
        games=games,
        finished=games - t.capped - t.stuck,
        capped=t.capped,
        stuck=t.stuck,
        unfinished=t.capped + t.stuck,
        actions=t.actions,
        actions_per_game=t.actions / games if games else 0.0,
        plays=plays,
        turns=t.turns.spread(),
        turns_histogram=t.turns.pairs(),
        challenges=Challenges(challenges, challenges / games if games else 0.0, t.caught, challenges - t.caught,
                              t.caught / challenges if challenges else 0.0),
        forced_bluffs=ForcedBluffs(t.forced, t.forced / games if games else 0.0,
                                   t.forced / plays if plays else 0.0),
        pickups=Pickups(t.pickups.total, t.pickups.spread()),
        decided=decided,
        wins_by_seat=tuple(t.wins),
        win_shares=shares(t.wins, decided),
        wins_by_position=tuple(t.by_position),
        first_player=FirstPlayer(t.first_wins, decided, t.first_wins / decided if decided else 0.0, low, high, fair,
                                 (t.first_wins / decided - fair) if decided else 0.0),
        losers=losers,
    )
