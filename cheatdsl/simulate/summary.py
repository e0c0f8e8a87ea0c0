"""The numbers a run reports, from its game records: plain dicts of plain numbers, JSON as they stand."""

from __future__ import annotations

import math
import statistics as st
from collections.abc import Sequence
from typing import Any

from .play import GameRecord

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


def percentile(values: Sequence[int], q: float) -> float:
    """The nearest-rank percentile (q from 0 to 100) of `values`; 0 when there are none."""
    if not values:
        return 0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def spread(values: Sequence[int]) -> dict[str, float]:
    """Mean, median, 95th percentile, least and most."""
    if not values:
        return {"mean": 0.0, "median": 0.0, "p95": 0, "min": 0, "max": 0}
    return {"mean": st.fmean(values), "median": st.median(values), "p95": percentile(values, 95),
            "min": min(values), "max": max(values)}


def shares(counts: Sequence[int], trials: int) -> list[dict[str, float]]:
    """Each seat's count, share of `trials` and 95% Wilson interval."""
    out = []
    for seat, k in enumerate(counts):
        low, high = wilson(k, trials)
        out.append({"seat": seat, "count": k, "share": k / trials if trials else 0.0, "low": low, "high": high})
    return out


def summarise(records: Sequence[GameRecord], players: int, first_out: bool) -> dict[str, Any]:
    """Every statistic of a run (the run's settings are added by the caller)."""
    games = len(records)
    turns = [r.turns for r in records]
    wins = [0] * players
    by_position = [0] * players
    losers = [0] * players
    decided = first_wins = 0
    for r in records:
        if r.winner >= 0:
            decided += 1
            wins[r.winner] += 1
            if r.first >= 0:
                by_position[(r.winner - r.first) % players] += 1
                first_wins += r.winner == r.first
        if r.loser >= 0:
            losers[r.loser] += 1
    challenges = sum(r.challenges for r in records)
    caught = sum(r.caught for r in records)
    plays = sum(r.plays for r in records)
    forced = sum(r.forced for r in records)
    pickups = [k for r in records for k in r.pickups]
    capped = sum(r.capped for r in records)
    stuck = sum(r.stuck for r in records)
    actions = sum(r.actions for r in records)
    low, high = wilson(first_wins, decided)
    fair = 1 / players
    out: dict[str, Any] = {
        "games": games,
        "finished": games - capped - stuck,
        "capped": capped,
        "stuck": stuck,
        "unfinished": capped + stuck,
        "actions": actions,
        "actions_per_game": actions / games if games else 0.0,
        "plays": plays,
        "turns": turns,
        "turns_summary": spread(turns),
        "challenges": {
            "total": challenges, "per_game": challenges / games if games else 0.0,
            "caught": caught, "failed": challenges - caught,
            "caught_share": caught / challenges if challenges else 0.0,
        },
        "forced_bluffs": {
            "total": forced, "per_game": forced / games if games else 0.0,
            "share_of_plays": forced / plays if plays else 0.0,
        },
        "pickups": {"count": len(pickups), **spread(pickups)},
        "decided": decided,
        "wins_by_seat": wins,
        "win_shares": shares(wins, decided),
        "wins_by_position": by_position,
        "first_player": {
            "wins": first_wins, "games": decided, "share": first_wins / decided if decided else 0.0,
            "low": low, "high": high, "fair": fair,
            "advantage": (first_wins / decided - fair) if decided else 0.0,
        },
    }
    if not first_out:
        lost = sum(losers)
        out["losers_by_seat"] = losers
        out["loser_shares"] = shares(losers, lost)
    return out
