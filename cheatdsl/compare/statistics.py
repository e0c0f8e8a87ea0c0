"""Simulation statistics side by side, from one plain dict per rulebook.

The dict a simulation gives for one rulebook (`cheatdsl.simulate.statistics(rulebook, games=G,
players=N, seed=S)` is the entry point this section calls once it exists):

    {"players": 4,                 # seats at the table
     "games": 200,                 # games played
     "turns": [83, 121, ...],      # plays in each game
     "unfinished": 3,              # games stopped by the turn cap, without a result
     "wins_by_seat": [52, 47, ...],  # games won by each seat, seat 0 the first to play
     "challenges": {"caught": 410, "failed": 380}}  # challenges that caught a lie / found the play true

Any key may be missing; its rows then show "-".
"""

from __future__ import annotations

import importlib
import importlib.util
import statistics as stats
from collections.abc import Mapping
from typing import Any

from ..model import Rulebook
from .grid import Column, Plot, Row, Section
from .svg import challenge_outcomes, turns_per_game, wins_by_seat

Stats = dict[str, Any]
TITLE = "Simulation"
ENTRY_POINT = "statistics"


def table_size(rulebooks: list[Rulebook], preferred: int = 4) -> list[int]:
    """The player count to simulate each rulebook at: one count all allow (nearest `preferred`), else each one's nearest."""
    common = set.intersection(*(set(rb.players.counts()) for rb in rulebooks)) if rulebooks else set()
    if common:
        n = min(common, key=lambda c: (abs(c - preferred), c))
        return [n] * len(rulebooks)
    return [min(rb.players.counts(), key=lambda c: (abs(c - preferred), c)) for rb in rulebooks]


def collect(rulebooks: list[Rulebook], games: int, seed: int = 0) -> tuple[list[Stats | None] | None, str]:
    """Statistics for each rulebook from `cheatdsl.simulate`, or None and a plain reason."""
    try:
        found = importlib.util.find_spec("cheatdsl.simulate") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        return None, "statistics unavailable: `cheatdsl simulate` is not part of this installation yet"
    try:
        module = importlib.import_module("cheatdsl.simulate")
    except Exception as exc:  # a half-written simulator must not take the comparison down
        return None, f"statistics unavailable: cheatdsl.simulate does not load ({type(exc).__name__})"
    entry = getattr(module, ENTRY_POINT, None)
    if not callable(entry):
        return None, (f"statistics unavailable: cheatdsl.simulate has no `{ENTRY_POINT}(rulebook, games, players, "
                      "seed)` yet")
    out: list[Stats | None] = []
    for rb, n in zip(rulebooks, table_size(rulebooks)):
        try:
            out.append(dict(entry(rb, games=games, players=n, seed=seed)))
        except Exception as exc:  # one rulebook failing leaves its column empty, not the section
            out.append({"error": f"{type(exc).__name__}: {exc}"})
    return out, ""


def _pct(part: float, whole: float) -> str:
    return f"{round(100 * part / whole)}%" if whole else "-"


def _rows(data: list[Stats | None]) -> list[Row]:
    def each(fn: Any) -> tuple[str, ...]:
        cells = []
        for d in data:
            try:
                cells.append(fn(d) if d is not None and "error" not in d else "-")
            except (KeyError, TypeError, ValueError, ZeroDivisionError, stats.StatisticsError):
                cells.append("-")
        return tuple(cells)

    def turns(d: Stats) -> str:
        t = d["turns"]
        return f"mean {stats.mean(t):.0f}, median {stats.median(t):g}, {min(t)} to {max(t)}"

    def unfinished(d: Stats) -> str:
        return f"{d['unfinished']} ({_pct(d['unfinished'], d['games'])})"

    def seats(d: Stats) -> str:
        wins = d["wins_by_seat"]
        return " ".join(_pct(w, sum(wins)) for w in wins)

    def per_game(d: Stats) -> str:
        c = d["challenges"]
        return f"{(c['caught'] + c['failed']) / d['games']:.1f}"

    def caught(d: Stats) -> str:
        c = d["challenges"]
        return _pct(c["caught"], c["caught"] + c["failed"])

    return [
        Row("games", "games played", each(lambda d: f"{d['games']} at {d['players']} players")),
        Row("turns", "plays per game", each(turns)),
        Row("unfinished", "games cut off by the turn cap", each(unfinished)),
        Row("wins_by_seat", "wins by seat, first player first", each(seats)),
        Row("challenges", "challenges per game", each(per_game)),
        Row("caught", "challenges that caught a lie", each(caught)),
    ]


def section(columns: tuple[Column, ...], data: list[Stats | None] | None, note: str = "") -> Section:
    """The statistics section with its plots; `data` None leaves only the note."""
    if data is None:
        return Section("statistics", TITLE, note=note)
    failures = [f"{c.heading}: {d['error']}" for c, d in zip(columns, data) if d is not None and "error" in d]
    if failures and not note:
        note = "simulation failed for " + "; ".join(failures)
    names = [c.heading for c in columns]
    good: list[Mapping[str, Any] | None] = [d if d is not None and "error" not in d else None for d in data]
    plots = []
    for key, title, draw in (("turns", "Plays per game", turns_per_game), ("wins", "Wins by seat", wins_by_seat),
                             ("challenges", "Challenge outcomes", challenge_outcomes)):
        svg = draw(names, good)
        if svg:
            plots.append(Plot(key, title, svg))
    return Section("statistics", TITLE, tuple(_rows(data)), note, tuple(plots), tuple(data))
