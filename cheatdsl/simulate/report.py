"""The text report of a simulation, from the dict `simulate` returns."""

from __future__ import annotations

import textwrap
from typing import Any

WIDTH = 100


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
        f"games played        {games:,}; {stats['finished']:,} finished",
        *unfinished_lines(stats),
        f"actions             {stats['actions']:,} ({stats['actions_per_game']:.1f} a game)",
        f"turns a game        mean {t['mean']:.1f}, median {t['median']:g}, 95th percentile {t['p95']:g} "
        f"(least {t['min']:g}, most {t['max']:g})",
        f"challenges a game   {c['per_game']:.2f}; {_pct(c['caught_share'])} caught a lie "
        f"({c['caught']:,} of {c['total']:,})",
        f"forced bluffs       {f['per_game']:.2f} a game, {_pct(f['share_of_plays'])} of plays "
        "(the seat held none of the claims allowed)",
        f"cards at a pickup   mean {p['mean']:.1f}, median {p['median']:g}, 95th percentile {p['p95']:g}, "
        f"most {p['max']:g} ({p['count']:,} pickups)",
    ]
    if stats["decided"]:
        lines += [
            f"wins by seat        of {stats['decided']:,} decided games",
            *_seats(stats["win_shares"]),
            f"first player        won {_pct(first['share'])} (95% {_pct(first['low'])} to {_pct(first['high'])}) "
            f"against a fair {_pct(first['fair'])}: advantage {100 * first['advantage']:+.1f} points",
        ]
    else:
        lines.append("wins by seat        no game was won, so there are no win shares")
    if "loser_shares" in stats and sum(stats["losers_by_seat"]):
        lines.append(f"losers by seat      of {sum(stats['losers_by_seat']):,} games with a loser")
        lines.extend(_seats(stats["loser_shares"]))
    return "\n".join(lines)


def unfinished_lines(stats: dict[str, Any]) -> list[str]:
    """What stopped the unfinished games, in words, with the verifier command that explains it."""
    games, capped, stuck = stats["games"], stats["capped"], stats["stuck"]
    if not capped and not stuck:
        return []
    name = stats.get("reference") or stats["rulebook"]
    said = [f"UNFINISHED          {capped + stuck:,} of {games:,} games ({_pct((capped + stuck) / games)}) did not "
            "finish: their numbers below are no results of the game, and win shares count finished games only."]
    if capped:
        said.append(f"{capped:,} reached the turn cap of {stats['turn_cap']:,} without a winner: these rules can "
                    f"go round for ever at this table. `cheatdsl verify {name} -p termination` looks for a "
                    "position that comes back and replays it (--save-witnesses DIR keeps it as a scenario).")
    if stuck:
        said.append(f"{stuck:,} stopped with a seat that had no legal action: `cheatdsl verify {name} "
                    "-p no-deadlock` finds such a position and replays it.")
    out = textwrap.wrap(said[0], WIDTH, subsequent_indent=" " * 20)
    for text in said[1:]:
        out += textwrap.wrap(text, WIDTH, initial_indent=" " * 20, subsequent_indent=" " * 20)
    return out
