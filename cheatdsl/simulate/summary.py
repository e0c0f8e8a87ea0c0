"""The numbers a run reports, from its game records: plain dicts of plain numbers, JSON as they stand."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .play import GameRecord
from .tally import Tally

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


def shares(counts: Sequence[int], trials: int) -> list[dict[str, float]]:
    """Each seat's count, share of `trials` and 95% Wilson interval."""
    out = []
    for seat, k in enumerate(counts):
        low, high = wilson(k, trials)
        out.append({"seat": seat, "count": k, "share": k / trials if trials else 0.0, "low": low, "high": high})
    return out


def summarise(tally: Tally | Sequence[GameRecord], players: int, first_out: bool) -> dict[str, Any]:
    """Every statistic of a run (the run's settings are added by the caller)."""
    t = tally if isinstance(tally, Tally) else Tally(players).add_all(tally)
    games, decided, plays, challenges = t.games, t.decided, t.plays, t.challenges
    low, high = wilson(t.first_wins, decided)
    fair = 1 / players
    out: dict[str, Any] = {
        "games": games,
        "finished": games - t.capped - t.stuck,
        "capped": t.capped,
        "stuck": t.stuck,
        "unfinished": t.capped + t.stuck,
        "actions": t.actions,
        "actions_per_game": t.actions / games if games else 0.0,
        "plays": plays,
        "turns_summary": t.turns.spread(),
        "turns_histogram": t.turns.pairs(),
        "challenges": {
            "total": challenges, "per_game": challenges / games if games else 0.0,
            "caught": t.caught, "failed": challenges - t.caught,
            "caught_share": t.caught / challenges if challenges else 0.0,
        },
        "forced_bluffs": {
            "total": t.forced, "per_game": t.forced / games if games else 0.0,
            "share_of_plays": t.forced / plays if plays else 0.0,
        },
        "pickups": {"count": t.pickups.total, **t.pickups.spread()},
        "decided": decided,
        "wins_by_seat": list(t.wins),
        "win_shares": shares(t.wins, decided),
        "wins_by_position": list(t.by_position),
        "first_player": {
            "wins": t.first_wins, "games": decided, "share": t.first_wins / decided if decided else 0.0,
            "low": low, "high": high, "fair": fair,
            "advantage": (t.first_wins / decided - fair) if decided else 0.0,
        },
    }
    if not first_out:
        lost = sum(t.losers)
        out["losers_by_seat"] = list(t.losers)
        out["loser_shares"] = shares(t.losers, lost)
    return out
