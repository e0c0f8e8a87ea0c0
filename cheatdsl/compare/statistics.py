"""Simulation statistics side by side: `cheatdsl.simulate.simulate(...)` once per rulebook, a row per statistic.

The section keeps each rulebook's dict as `simulate` returns it (JSON carries it whole) and reads
these keys of it; any may be missing, and its rows then show "-":

    {"players": 4, "games": 200, "bots": ["honest", ...], "seed": 0,
     "turns_summary": {"mean", "median", "q1", "q3", "p95", "min", "max"},  # plays and passes a game
     "unfinished": 3,                  # games stopped by the turn cap or with no legal action
     "wins_by_position": [52, 47, ...],  # wins counted from the first player to play
     "wins_by_seat": [...],            # read when wins_by_position is missing
     "challenges": {"caught": 410, "failed": 380},
     "forced_bluffs": {"per_game": 3.2},   # plays by a seat holding no card of a claim allowed
     "pickups": {"count": 790, "mean": 6.1}}  # cards taken at each pickup
"""

from __future__ import annotations

import importlib
import statistics as stats
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..model import Rulebook
from .grid import Column, Plot, Row, Section
from .svg import challenge_outcomes, turns_per_game, wins_by_seat

Stats = dict[str, Any]
TITLE = "Simulation"
BOTS = ("honest",)
PREFERRED_PLAYERS = 4
MEANINGS = ("Turns are plays and passes; unfinished games were stopped by the turn cap or left with no legal action; wins by seat count "
            "from the first player to play; a forced bluff is a play by a seat holding no card of any claim allowed.")


class TableSizeError(ValueError):
    """A player count asked for that a rulebook does not allow."""


def table_size(rulebooks: list[Rulebook], preferred: int = PREFERRED_PLAYERS) -> list[int]:
    """The player count to simulate each rulebook at: one count all allow (nearest `preferred`), else each one's nearest."""
    common = set.intersection(*(set(rb.players.counts()) for rb in rulebooks)) if rulebooks else set()
    if common:
        n = min(common, key=lambda c: (abs(c - preferred), c))
        return [n] * len(rulebooks)
    return [min(rb.players.counts(), key=lambda c: (abs(c - preferred), c)) for rb in rulebooks]


def seats_for(rulebooks: list[Rulebook], players: int | None) -> list[int]:
    """`players` for every rulebook (TableSizeError if one does not allow it), or `table_size` when None."""
    if players is None:
        return table_size(rulebooks)
    refused = [rb.name for rb in rulebooks if players not in rb.players.counts()]
    if refused:
        raise TableSizeError(f"{', '.join(refused)} cannot be played by {players} players")
    return [players] * len(rulebooks)


def _simulator() -> tuple[Callable[..., Mapping[str, Any]] | None, str]:
    try:
        module = importlib.import_module("cheatdsl.simulate")
    except ModuleNotFoundError:
        return None, "statistics unavailable: `cheatdsl simulate` is not part of this installation yet"
    except Exception as exc:  # a half-written simulator must not take the comparison down
        return None, f"statistics unavailable: cheatdsl.simulate does not load ({type(exc).__name__})"
    run = getattr(module, "simulate", None)
    if not callable(run):
        return None, "statistics unavailable: cheatdsl.simulate has no `simulate(rulebook, players, games, seed, bots)`"
    return run, ""


def collect(rulebooks: list[Rulebook], games: int, seed: int = 0, players: list[int] | None = None,
            progress: Callable[[int, str], None] | None = None) -> tuple[list[Stats | None] | None, str]:
    """Statistics of `games` games per rulebook between honest bots, or None and a plain reason.

    `players[i]` seats rulebook i (default: `table_size`). Raises TableSizeError for a count a rulebook refuses.
    `progress(i, name)` is called as rulebook i is simulated, and as its games finish.
    """
    run, why = _simulator()
    if run is None:
        return None, why
    seats = players if players is not None else table_size(rulebooks)
    out: list[Stats | None] = []
    for i, (rb, n) in enumerate(zip(rulebooks, seats)):
        extra: dict[str, Any] = {}
        if progress is not None:
            progress(i, rb.name)
            extra["progress"] = lambda done, total, i=i, name=rb.name: progress(i, name)
        try:
            out.append(dict(run(rb, players=n, games=games, seed=seed, bots=BOTS, **extra)))
        except Exception as exc:  # one rulebook failing leaves its column empty, not the section
            out.append({"error": f"{type(exc).__name__}: {exc}"})
    return out, ""


def settings(data: Sequence[Stats | None]) -> str:
    """One line saying how the games were played, when every rulebook was played the same way."""
    good = [d for d in data if d is not None and "error" not in d]
    if not good:
        return ""
    seen = {(d.get("games"), d.get("players"), tuple(d.get("bots", ())), d.get("seed")) for d in good}
    if len(seen) != 1:
        return ""
    games, players, bots, seed = seen.pop()
    if games is None:
        return ""
    text = f"{games} games{' per rulebook' if len(good) > 1 else ''}" + (f" at {players} players" if players is not None else "")
    if bots:
        text += f" between {bots[0] if len(set(bots)) == 1 else ', '.join(bots)} bots"
    return text + (f", seed {seed}" if seed is not None else "") + "."


def wins(d: Mapping[str, Any]) -> list[int]:
    """Wins by seat counted from the first player to play (the seat numbers' own order if that is missing)."""
    found = d.get("wins_by_position")
    return list(found if found is not None else d["wins_by_seat"])


def _pct(part: float, whole: float) -> str:
    return f"{round(100 * part / whole)}%" if whole else "-"


def _rows(data: list[Stats | None]) -> list[Row]:
    def each(fn: Callable[[Stats], str]) -> tuple[str, ...]:
        cells = []
        for d in data:
            try:
                cells.append(fn(d) if d is not None and "error" not in d else "-")
            except (KeyError, TypeError, ValueError, ZeroDivisionError, stats.StatisticsError):
                cells.append("-")
        return tuple(cells)

    def games(d: Stats) -> str:
        return f"{d['games']} at {d['players']} players"

    def turns(d: Stats) -> str:
        t = d["turns_summary"]
        return f"mean {t['mean']:.0f}, median {t['median']:g}, {t['min']} to {t['max']}"

    def unfinished(d: Stats) -> str:
        return f"{d['unfinished']} ({_pct(d['unfinished'], d['games'])})"

    def seats(d: Stats) -> str:
        w = wins(d)
        return " ".join(_pct(x, sum(w)) for x in w) if sum(w) else "no game won"

    def per_game(d: Stats) -> str:
        c = d["challenges"]
        return f"{(c['caught'] + c['failed']) / d['games']:.1f}"

    def caught(d: Stats) -> str:
        c = d["challenges"]
        return _pct(c["caught"], c["caught"] + c["failed"])

    def forced(d: Stats) -> str:
        return f"{d['forced_bluffs']['per_game']:.1f}"

    def pickup(d: Stats) -> str:
        p = d["pickups"]
        return f"mean {p['mean']:.1f}" if p["count"] else "no pickups"

    return [
        Row("games", "games played", each(games)),
        Row("turns", "turns per game", each(turns)),
        Row("unfinished", "unfinished games", each(unfinished)),
        Row("wins_by_seat", "wins by seat", each(seats)),
        Row("challenges", "challenges per game", each(per_game)),
        Row("caught", "caught a lie", each(caught)),
        Row("forced_bluffs", "forced bluffs per game", each(forced)),
        Row("pickups", "cards at a pickup", each(pickup)),
    ]


def plots(names: Sequence[str], data: Sequence[Mapping[str, Any] | None]) -> tuple[Plot, ...]:
    """The charts the data allows: turns per game, wins by seat, challenge outcomes."""
    shaped: list[Mapping[str, Any] | None] = []
    for d in data:
        if d is None or "error" in d:
            shaped.append(None)
            continue
        try:
            shaped.append({**d, "wins_by_seat": wins(d)})
        except (KeyError, TypeError):
            shaped.append(d)
    out = []
    for key, title, draw in (("turns", "Turns per game", turns_per_game), ("wins", "Wins by seat", wins_by_seat),
                             ("challenges", "Challenge outcomes", challenge_outcomes)):
        svg = draw(names, shaped)
        if svg:
            out.append(Plot(key, title, svg))
    return tuple(out)


def section(columns: tuple[Column, ...], data: list[Stats | None] | None, note: str = "") -> Section:
    """The statistics section with its plots; `data` None leaves only the note."""
    if data is None:
        return Section("statistics", TITLE, note=note)
    failures = [f"{c.heading}: {d['error']}" for c, d in zip(columns, data) if d is not None and "error" in d]
    if failures and not note:
        note = "simulation failed for " + "; ".join(failures)
    if not note:
        note = " ".join(p for p in (settings(data), MEANINGS) if p)
    return Section("statistics", TITLE, tuple(_rows(data)), note, plots([c.heading for c in columns], data),
                   tuple(data))
