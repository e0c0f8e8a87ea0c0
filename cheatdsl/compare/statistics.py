"""Simulation statistics side by side: `cheatdsl.simulate.simulate(...)` once per rulebook, a row per statistic.

The section keeps each rulebook's dict as `simulate` returns it (JSON carries it whole) and reads
these keys of it; any may be missing, and its rows then show "-":

    {"players": 4, "games": 200, "bots": ["honest", ...], "seed": 0,
     "turns_summary": {"mean", "median", "q1", "q3", "p95", "min", "max"},  # plays and passes a game
     "turns_histogram": [[turns, games], ...], "turn_cap": 2000,
     "unfinished": 3, "capped": 3, "stuck": 0,  # games stopped by the turn cap or with no legal action
     "wins_by_position": [52, 47, ...],  # wins counted from the first player to play
     "wins_by_seat": [...],            # read when wins_by_position is missing
     "challenges": {"caught": 410, "failed": 380},
     "forced_bluffs": {"per_game": 3.2},   # plays by a seat holding no card of a claim allowed
     "pickups": {"count": 790, "mean": 6.1}}  # cards taken at each pickup

Unfinished games are no results: the turns row counts finished games only, the win shares decided
games only, and the per-game rows say when unfinished games are in them; the section's findings say
how many did not finish and why (`unfinished.py`), and which columns played identical games
(`identical.py`).
"""

from __future__ import annotations

import importlib
import statistics as stats
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..model import Rulebook
from . import identical, unfinished
from .grid import Column, Plot, Row, Section
from .svg import challenge_outcomes, turns_per_game, wins_by_seat

Stats = dict[str, Any]
TITLE = "Simulation"
BOTS = ("honest",)
PREFERRED_PLAYERS = 4
MEANINGS = ("Turns are plays and passes, of finished games only; unfinished games were stopped by the turn cap or "
            "left with no legal action; wins by seat count from the first player to play, in won games only; a "
            "forced bluff is a play by a seat holding no card of any claim allowed.")


class Simulated(dict):  # type: ignore[type-arg]
    """`simulate`'s dict as it stands (and as JSON prints it), with the rulebook it was played from kept aside."""

    rulebook: Rulebook | None = None


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
            found = Simulated(run(rb, players=n, games=games, seed=seed, bots=BOTS, **extra))
            found.rulebook = rb
            out.append(found)
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

    def none_finished(d: Stats) -> bool:
        return unfinished.counts(d)[2] >= d["games"] > 0

    def per_game(fn: Callable[[Stats], str]) -> Callable[[Stats], str]:
        """A statistic of every game: none when no game finished, marked when unfinished games are in it."""
        def cell(d: Stats) -> str:
            if none_finished(d):
                return "no game finished"
            left = unfinished.counts(d)[2]
            return fn(d) + (f" (with {left} unfinished)" if left else "")
        return cell

    def games(d: Stats) -> str:
        return f"{d['games']} at {d['players']} players"

    def turns(d: Stats) -> str:
        capped, stuck, left = unfinished.counts(d)
        t = unfinished.finished_turns(d)
        if t is None:
            return f"no game finished: all {d['games']} stopped" + (f" at the cap of {d['turn_cap']}"
                                                                   if capped == d["games"] and "turn_cap" in d else "")
        text = f"mean {t['mean']:.0f}, median {t['median']:g}, {t['min']:g} to {t['max']:g}"
        if capped:
            text += f" (of {d['games'] - capped} finished)"
        if stuck:
            text += f" (with {stuck} stuck)"
        return text

    def left(d: Stats) -> str:
        capped, stuck, n = unfinished.counts(d)
        if not n:
            return "0 (0%)"
        why = [f"{capped} at the turn cap" if capped else "", f"{stuck} with no legal action" if stuck else ""]
        return f"{n} ({_pct(n, d['games'])}): " + ", ".join(w for w in why if w)

    def seats(d: Stats) -> str:
        w = wins(d)
        if not sum(w):
            return "no game won"
        shares = " ".join(_pct(x, sum(w)) for x in w)
        return shares + (f" (of {sum(w)} won)" if unfinished.counts(d)[2] else "")

    def challenges(d: Stats) -> str:
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
        Row("unfinished", "unfinished games", each(left)),
        Row("wins_by_seat", "wins by seat", each(seats)),
        Row("challenges", "challenges per game", each(per_game(challenges))),
        Row("caught", "caught a lie", each(per_game(caught))),
        Row("forced_bluffs", "forced bluffs per game", each(per_game(forced))),
        Row("pickups", "cards at a pickup", each(per_game(pickup))),
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


def findings(columns: tuple[Column, ...], data: Sequence[Stats | None],
             found: Sequence[Mapping[str, Any] | None] | None = None, ran: bool = True) -> tuple[str, ...]:
    """Unfinished games and why (beside the verifier's verdicts in `found`, a dict per column), then identical games."""
    out: list[str] = []
    same = identical.groups(data)
    told: set[int] = set()
    for i, d in enumerate(data):
        if d is None or "error" in d or i in told:
            continue
        verdict = found[i] if found and i < len(found) else None
        group = next((g for g in same if g[0] == i), [i])
        alike = [j for j in group if _termination(found, j) == _termination(found, i)]
        told.update(alike)
        heading = identical.names([columns[j].heading for j in alike])
        out += unfinished.sentences(heading, d, verdict, ran, each=len(alike) > 1)
    for group in same:
        first = data[group[0]]
        assert first is not None
        bots = sorted(set(first.get("bots", ()))) or ["the same"]
        out.append(identical.sentence([columns[i].heading for i in group],
                                      [getattr(data[i], "rulebook", None) for i in group],
                                      int(first.get("players", 0)), ", ".join(bots)))
    return tuple(out)


def _termination(found: Sequence[Mapping[str, Any] | None] | None, i: int) -> Any:
    """What the verifier says about column i's endings, to tell whether two columns' findings read alike."""
    entry = found[i] if found and i < len(found) else None
    return None if not entry else (entry.get("termination"), entry.get("no-deadlock"))


def section(columns: tuple[Column, ...], data: list[Stats | None] | None, note: str = "",
            found: Sequence[Mapping[str, Any] | None] | None = None, ran: bool = True) -> Section:
    """The statistics section with its findings and plots; `data` None leaves only the note."""
    if data is None:
        return Section("statistics", TITLE, note=note)
    failures = [f"{c.heading}: {d['error']}" for c, d in zip(columns, data) if d is not None and "error" in d]
    if failures and not note:
        note = "simulation failed for " + "; ".join(failures)
    if not note:
        note = " ".join(p for p in (settings(data), MEANINGS) if p)
    return Section("statistics", TITLE, tuple(_rows(data)), note, findings(columns, data, found, ran),
                   plots([c.heading for c in columns], data), tuple(data))


def linked(columns: tuple[Column, ...], sections: tuple[Section, ...]) -> tuple[Section, ...]:
    """The sections with the statistics' findings told beside the verifier's verdicts, when both are there."""
    keys = [s.key for s in sections]
    if "statistics" not in keys or "verdicts" not in keys:
        return sections
    s, v = sections[keys.index("statistics")], sections[keys.index("verdicts")]
    if not s.data:
        return sections
    found = list(v.data) if v.data else None
    new = replace(s, findings=findings(columns, list(s.data), found, ran=bool(v.data)))
    return tuple(new if x is s else x for x in sections)
