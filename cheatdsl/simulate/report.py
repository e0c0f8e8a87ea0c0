"""The text report of a simulation, from the dict `simulate` returns."""

from __future__ import annotations

from typing import Any


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _seats(shares: list[dict[str, float]]) -> list[str]:
    return [f"  seat {s['seat']}: {int(s['count']):>7,}  {_pct(s['share']):>6}  (95% {_pct(s['low'])} to {_pct(s['high'])})"
            for s in shares]


def render(stats: dict[str, Any]) -> str:
    """A few lines a person reads: settings, then one statistic a line."""
    games = stats["games"]
    bots = stats["bots"]
    who = bots[0] if len(set(bots)) == 1 else ",".join(bots)
    variations = f" with {', '.join(stats['variations'])}" if stats["variations"] else ""
    t = stats["turns_summary"]
    c = stats["challenges"]
    f = stats["forced_bluffs"]
    p = stats["pickups"]
    first = stats["first_player"]
    lines = [
        f"{stats['rulebook']}{variations}: {games:,} games at {stats['players']} players, bots {who}, "
        f"seed {stats['seed']}, turn cap {stats['turn_cap']:,}",
        f"games played        {games:,}; {stats['capped']:,} stopped by the turn cap"
        + (f", {stats['stuck']:,} stopped with no legal action" if stats["stuck"] else ""),
        f"actions             {stats['actions']:,} ({stats['actions_per_game']:.1f} a game)",
        f"turns a game        mean {t['mean']:.1f}, median {t['median']:g}, 95th percentile {t['p95']:g} "
        f"(least {t['min']:g}, most {t['max']:g})",
        f"challenges a game   {c['per_game']:.2f}; {_pct(c['caught_share'])} caught a lie "
        f"({c['caught']:,} of {c['total']:,})",
        f"forced bluffs       {f['per_game']:.2f} a game, {_pct(f['share_of_plays'])} of plays "
        "(the seat held none of the claims allowed)",
        f"cards at a pickup   mean {p['mean']:.1f}, median {p['median']:g}, 95th percentile {p['p95']:g}, "
        f"most {p['max']:g} ({p['count']:,} pickups)",
        f"wins by seat        of {stats['decided']:,} decided games",
        *_seats(stats["win_shares"]),
        f"first player        won {_pct(first['share'])} (95% {_pct(first['low'])} to {_pct(first['high'])}) "
        f"against a fair {_pct(first['fair'])}: advantage {100 * first['advantage']:+.1f} points",
    ]
    if "loser_shares" in stats:
        lines.append(f"losers by seat      of {sum(stats['losers_by_seat']):,} games with a loser")
        lines.extend(_seats(stats["loser_shares"]))
    return "\n".join(lines)
