"""The text report of a simulation."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from .artefacts import artefacts
from .stats import Share, Statistics

WIDTH = 100


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _seats(shares: Sequence[Share]) -> list[str]:
    return [f"  seat {s.seat}: {s.count:>7,}  {_pct(s.share):>6}  (95% {_pct(s.low)} to {_pct(s.high)})"
            for s in shares]


def render(stats: Statistics) -> str:
    """A few lines a person reads: settings, then one statistic a line."""
    run = stats.settings
    games = stats.games
    bots = run.bots
    who = bots[0] if len(set(bots)) == 1 else ",".join(bots)
    variations = f" with {', '.join(run.variations)}" if run.variations else ""
    t = stats.turns
    c = stats.challenges
    f = stats.forced_bluffs
    p = stats.pickups
    first = stats.first_player
    lines = [
        f"{run.rulebook}{variations}: {games:,} games at {run.players} players, bots {who}, "
        f"seed {run.seed}, turn cap {run.turn_cap:,}",
        f"games played        {games:,}; {stats.finished:,} finished",
        *unfinished_lines(stats),
        f"actions             {stats.actions:,} ({stats.actions_per_game:.1f} a game)",
        f"turns a game        mean {t.mean:.1f}, median {t.median:g}, 95th percentile {t.p95:g} "
        f"(least {t.least:g}, most {t.most:g})",
        f"challenges a game   {c.per_game:.2f}; {_pct(c.caught_share)} caught a lie "
        f"({c.caught:,} of {c.total:,})",
        f"forced bluffs       {f.per_game:.2f} a game, {_pct(f.share_of_plays)} of plays "
        "(the seat held none of the claims allowed)",
        f"cards at a pickup   mean {p.cards.mean:.1f}, median {p.cards.median:g}, 95th percentile {p.cards.p95:g}, "
        f"most {p.cards.most:g} ({p.count:,} pickups)",
    ]
    if stats.decided:
        lines += [
            f"wins by seat        of {stats.decided:,} decided games",
            *_seats(stats.win_shares),
            f"first player        won {_pct(first.share)} (95% {_pct(first.low)} to {_pct(first.high)}) "
            f"against a fair {_pct(first.fair)}: advantage {100 * first.advantage:+.1f} points",
        ]
    else:
        lines.append("wins by seat        no game was won, so there are no win shares")
    losers = stats.losers
    lost = sum(losers.by_seat) if losers is not None else 0
    if losers is not None and lost:
        lines.append(f"losers by seat      of {lost:,} games with a loser")
        lines.extend(_seats(losers.shares))
    for said in artefacts(stats):
        lines += textwrap.wrap(f"BOTS' HABIT         {said}.", WIDTH, subsequent_indent=" " * 20)
    return "\n".join(lines)


def unfinished_lines(stats: Statistics) -> list[str]:
    """What stopped the unfinished games, in words, with the verifier command that explains it."""
    games, capped, stuck = stats.games, stats.capped, stats.stuck
    if not capped and not stuck:
        return []
    name = stats.settings.reference or stats.settings.rulebook
    said = [f"UNFINISHED          {capped + stuck:,} of {games:,} games ({_pct((capped + stuck) / games)}) did not "
            "finish: their numbers below are no results of the game, and win shares count finished games only."]
    if capped:
        said.append(f"{capped:,} reached the turn cap of {stats.settings.turn_cap:,} without a winner: these rules "
                    f"can go round for ever at this table. `cheatdsl verify {name} -p termination` looks for a "
                    "position that comes back and replays it (--save-witnesses DIR keeps it as a scenario).")
    if stuck:
        said.append(f"{stuck:,} stopped with a seat that had no legal action: `cheatdsl verify {name} "
                    "-p no-deadlock` finds such a position and replays it.")
    out = textwrap.wrap(said[0], WIDTH, subsequent_indent=" " * 20)
    for text in said[1:]:
        out += textwrap.wrap(text, WIDTH, initial_indent=" " * 20, subsequent_indent=" " * 20)
    return out
