"""Simulation statistics side by side: `cheatdsl.simulate.simulate(...)` once per rulebook, a row per statistic.

The section keeps each rulebook's `Statistics` (JSON carries it whole, as `cheatdsl simulate --format
json` prints it), or the `Failure` that stopped its games; a column without statistics shows "-".

Unfinished games are no results: the turns row counts finished games only, the win shares decided
games only, and the per-game rows say when unfinished games are in them; the section's findings say
how many did not finish and why (`unfinished.py`), and which columns played identical games
(`identical.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..model import DEFAULT_TABLE, Rulebook
from ..simulate import Statistics, simulate
from ..simulate.artefacts import artefacts
from ..simulate.engine import Engine
from ..words.seats import place
from . import chance, identical, unfinished
from .grid import Column, Plot, Row, Section
from .svg import WINS_TITLE, challenge_outcomes, counted_share, turns_per_game, wins_by_turn_order

TITLE = "Simulation"
BOTS = ("honest",)
PREFERRED_PLAYERS = DEFAULT_TABLE  # the table every command plays by default
MEANINGS = ("Turns are plays and passes, of finished games only; unfinished games were stopped by the turn cap or "
            "left with no legal action; wins by turn order are the shares of the won games by place in turn order: "
            "the first to play, the second and so on; a forced bluff is a play by a seat holding no card of any claim allowed. "
            "Each share has its 95% Wilson interval in brackets.")


@dataclass(frozen=True)
class Failure:
    """A rulebook whose games could not be played, and why."""

    error: str

    def as_json(self) -> dict[str, Any]:
        return {"error": self.error}


Simulated = Statistics | Failure | None  # one column's games; None where there are none to show


class TableSizeError(ValueError):
    """A player count asked for that a rulebook does not allow."""


def table_size(rulebooks: list[Rulebook], preferred: int = PREFERRED_PLAYERS) -> list[int]:
    """The player count to simulate each rulebook at: one count all allow (`preferred` where all allow it, else
    the fewest they all allow), else each one's own default (`PlayerRange.default`, as every command takes)."""
    common = set.intersection(*(set(rb.players.counts()) for rb in rulebooks)) if rulebooks else set()
    if common:
        n = preferred if preferred in common else min(common)
        return [n] * len(rulebooks)
    return [rb.players.default for rb in rulebooks]


def seats_for(rulebooks: list[Rulebook], players: int | None) -> list[int]:
    """`players` for every rulebook (TableSizeError if one does not allow it), or `table_size` when None."""
    if players is None:
        return table_size(rulebooks)
    refused = [rb.name for rb in rulebooks if players not in rb.players.counts()]
    if refused:
        raise TableSizeError(f"{', '.join(refused)} cannot be played by {players} players")
    return [players] * len(rulebooks)


def collect(rulebooks: list[Rulebook], games: int, seed: int = 0, players: list[int] | None = None,
            progress: Callable[[int, str, int], None] | None = None) -> list[Statistics | Failure]:
    """Statistics of `games` games per rulebook between honest bots; a rulebook the simulator refuses is a Failure.

    `players[i]` seats rulebook i (default: `table_size`). `progress(i, name, games done)` is called as
    rulebook i starts, and as each batch of its games finishes.
    """
    seats = players if players is not None else table_size(rulebooks)
    out: list[Statistics | Failure] = []
    for i, (rb, n) in enumerate(zip(rulebooks, seats)):
        tick = None
        if progress is not None:
            progress(i, rb.name, 0)
            tick = _ticker(progress, i, rb.name)
        try:
            out.append(simulate(rb, players=n, games=games, seed=seed, bots=BOTS, progress=tick, engine=Engine.AUTO))
        except ValueError as exc:  # one rulebook the table cannot take leaves its column empty, not the section
            out.append(Failure(f"{type(exc).__name__}: {exc}"))
    return out


def _ticker(progress: Callable[[int, str, int], None], i: int, name: str) -> Callable[[int, int], None]:
    """`simulate`'s progress (games done, of all) as the comparison's: rulebook i is being simulated."""
    def tick(done: int, total: int) -> None:
        progress(i, name, done)
    return tick


def settings(data: Sequence[Simulated]) -> str:
    """One line saying how the games were played, when every rulebook was played the same way."""
    good = [d for d in data if isinstance(d, Statistics)]
    if not good:
        return ""
    seen = {(d.games, d.settings.players, d.settings.bots, d.settings.seed) for d in good}
    if len(seen) != 1:
        return ""
    games, players, bots, seed = seen.pop()
    text = f"{games} games{' per rulebook' if len(good) > 1 else ''} at {players} players"
    if bots:
        text += f" between {bots[0] if len(set(bots)) == 1 else ', '.join(bots)} bots"
    return text + f", seed {seed}."


def _rows(data: Sequence[Simulated]) -> list[Row]:
    def each(fn: Callable[[Statistics], str]) -> tuple[str, ...]:
        return tuple(fn(d) if isinstance(d, Statistics) else "-" for d in data)

    def per_game(fn: Callable[[Statistics], str]) -> Callable[[Statistics], str]:
        """A statistic of every game: none when no game finished, marked when unfinished games are in it."""
        def cell(d: Statistics) -> str:
            if not d.games:
                return "-"
            if d.unfinished >= d.games:
                return "no game finished"
            return fn(d) + (f" (with {d.unfinished} unfinished)" if d.unfinished else "")
        return cell

    def games(d: Statistics) -> str:
        return f"{d.games} at {d.settings.players} players"

    def turns(d: Statistics) -> str:
        t = unfinished.finished_turns(d)
        if t is None:
            at_cap = f" at the cap of {d.settings.turn_cap}" if d.capped == d.games else ""
            return f"no game finished: all {d.games} stopped{at_cap}"
        text = f"mean {t.mean:.0f}, median {t.median:g}, {t.least:g} to {t.most:g}"
        if d.capped:
            text += f" (of {d.games - d.capped} finished)"
        if d.stuck:
            text += f" (with {d.stuck} stuck)"
        return text

    def left(d: Statistics) -> str:
        said = f"{d.unfinished} of {d.games}: {counted_share(d.unfinished, d.games)}" if d.games else "0"
        if not d.unfinished:
            return said
        why = [f"{d.capped} at the turn cap" if d.capped else "", f"{d.stuck} with no legal action" if d.stuck else ""]
        return f"{said}, " + ", ".join(w for w in why if w)

    def seats(d: Statistics) -> str:
        w = d.wins_by_position
        if not sum(w):
            return "no game won"
        shares = ", ".join(f"{place(k)} {counted_share(x, sum(w))}" for k, x in enumerate(w))
        return (f"of {sum(w)} won: " if d.unfinished else "") + shares

    def challenges(d: Statistics) -> str:
        c = d.challenges
        return f"{(c.caught + c.failed) / d.games:.1f}"

    def caught(d: Statistics) -> str:
        c = d.challenges
        return counted_share(c.caught, c.caught + c.failed) if c.caught + c.failed else "-"

    def forced(d: Statistics) -> str:
        return f"{d.forced_bluffs.per_game:.1f}"

    def pickup(d: Statistics) -> str:
        p = d.pickups
        return f"mean {p.cards.mean:.1f}" if p.count else "no pickups"

    def apart(fn: Callable[[Statistics], chance.Figure | None]) -> bool:
        return chance.any_apart([fn(d) if isinstance(d, Statistics) and d.games else None for d in data])

    def seats_apart() -> bool:
        played = [d for d in data if isinstance(d, Statistics) and sum(d.wins_by_position)]
        places = min((len(d.wins_by_position) for d in played), default=0)
        return any(chance.any_apart([chance.share(d.wins_by_position[k], sum(d.wins_by_position)) for d in played])
                   for k in range(places))

    return [
        Row("games", "games played", each(games)),
        Row("turns", "turns per game", each(turns), beyond=apart(lambda d: chance.mean_of(d.turns_histogram))),
        Row("unfinished", "unfinished games", each(left), beyond=apart(lambda d: chance.share(d.unfinished, d.games))),
        Row("wins_by_seat", "wins by turn order", each(seats), beyond=seats_apart()),
        Row("challenges", "challenges per game", each(per_game(challenges)),
            beyond=apart(lambda d: chance.rate(d.challenges.caught + d.challenges.failed, d.games))),
        Row("caught", "caught a lie", each(per_game(caught)),
            beyond=apart(lambda d: chance.share(d.challenges.caught, d.challenges.caught + d.challenges.failed,
                                                d.games))),
        Row("forced_bluffs", "forced bluffs per game", each(per_game(forced)),
            beyond=apart(lambda d: chance.rate(d.forced_bluffs.total, d.games))),
        Row("pickups", "cards at a pickup", each(per_game(pickup)),
            beyond=apart(lambda d: chance.spread_mean(d.pickups.cards, min(d.pickups.count, d.games)))),
    ]


def plots(names: Sequence[str], data: Sequence[Simulated]) -> tuple[Plot, ...]:
    """The charts the data allows: turns per game, wins by turn order, challenge outcomes."""
    shown = [d if isinstance(d, Statistics) else None for d in data]
    out = []
    for key, title, draw in (("turns", "Turns per game", turns_per_game), ("wins", WINS_TITLE, wins_by_turn_order),
                             ("challenges", "Challenge outcomes", challenge_outcomes)):
        svg = draw(names, shown)
        if svg:
            out.append(Plot(key, title, svg))
    return tuple(out)


def findings(columns: tuple[Column, ...], data: Sequence[Simulated],
             found: Sequence[Mapping[str, Any] | None] | None = None, ran: bool = True) -> tuple[str, ...]:
    """Unfinished games and why (beside the verifier's verdicts in `found`, a dict per column), then identical games."""
    out: list[str] = []
    same = identical.groups(data)
    told: set[int] = set()
    for i, d in enumerate(data):
        if not isinstance(d, Statistics) or i in told:
            continue
        verdict = found[i] if found and i < len(found) else None
        group = next((g for g in same if g[0] == i), [i])
        alike = [j for j in group if _termination(found, j) == _termination(found, i)]
        told.update(alike)
        heading = identical.names([columns[j].heading for j in alike])
        out += unfinished.sentences(heading, d, verdict, ran, each=len(alike) > 1)
    for group in same:
        first = data[group[0]]
        assert isinstance(first, Statistics)
        bots = sorted(set(first.settings.bots)) or ["the same"]
        out.append(identical.sentence([columns[i].heading for i in group], [columns[i].rulebook for i in group],
                                      first.settings.players, ", ".join(bots)))
    for c, d in zip(columns, data):  # figures the bots' habits drive (`simulate.artefacts`; the cap told above)
        if isinstance(d, Statistics):
            out += [f"The bots' habit, under {c.heading}: {said}." for said in artefacts(d, capped=False)]
    return tuple(out)


def _termination(found: Sequence[Mapping[str, Any] | None] | None, i: int) -> Any:
    """What the verifier says about column i's endings, to tell whether two columns' findings read alike."""
    entry = found[i] if found and i < len(found) else None
    return None if not entry else (entry.get("termination"), entry.get("no-deadlock"))


def section(columns: tuple[Column, ...], data: Sequence[Simulated] | None, note: str = "",
            found: Sequence[Mapping[str, Any] | None] | None = None, ran: bool = True) -> Section:
    """The statistics section with its findings and plots; `data` None leaves only the note."""
    if data is None:
        return Section("statistics", TITLE, note=note)
    failures = [f"{c.heading}: {d.error}" for c, d in zip(columns, data) if isinstance(d, Failure)]
    if failures and not note:
        note = "simulation failed for " + "; ".join(failures)
    if not note:
        note = " ".join(p for p in (settings(data), MEANINGS) if p)
    rows = tuple(_rows(data))
    lead = chance_summary(columns, data, rows)
    return Section("statistics", TITLE, rows, note, (*lead, *findings(columns, data, found, ran)),
                   plots([c.heading for c in columns], data), tuple(data))


def chance_summary(columns: tuple[Column, ...], data: Sequence[Simulated], rows: Sequence[Row]) -> tuple[str, ...]:
    """One sentence leading the statistics: which figures differ beyond chance (`chance.py`), the length of games
    in words where it is one of them; none where fewer than two rulebooks were played."""
    played = [(c, d) for c, d in zip(columns, data) if isinstance(d, Statistics) and d.games]
    if len(played) < 2:
        return ()
    apart = [r.label for r in rows if r.beyond]
    if not apart:
        return (f"No figure differs beyond chance between {' and '.join(c.heading for c, _ in played)} "
                f"over these games (95% intervals of each difference).",)
    said = []
    means = [chance.mean_of(d.turns_histogram) for _, d in played]
    if "turns per game" in apart and means[0] is not None and means[1] is not None and means[0].value > 0:
        ratio = means[1].value / means[0].value - 1
        said.append(f"games last {abs(ratio):.0%} {'longer' if ratio > 0 else 'shorter'} under "
                    f"{played[1][0].heading} than under {played[0][0].heading} "
                    f"(mean {means[1].value:.0f} turns against {means[0].value:.0f})")
    rest = [label for label in apart if label != "turns per game" or not said]
    if rest:
        said.append("beyond chance too: " + ", ".join(rest) if said else "beyond chance: " + ", ".join(rest))
    text = "; ".join(said)
    return (text[0].upper() + text[1:] + " (95% intervals of each difference; ≠ marks only these rows).",)


def linked(columns: tuple[Column, ...], sections: tuple[Section, ...]) -> tuple[Section, ...]:
    """The sections with the statistics' findings told beside the verifier's verdicts, when both are there."""
    keys = [s.key for s in sections]
    if "statistics" not in keys or "verdicts" not in keys:
        return sections
    s, v = sections[keys.index("statistics")], sections[keys.index("verdicts")]
    if not s.data:
        return sections
    data = [d if isinstance(d, (Statistics, Failure)) else None for d in s.data]
    found = [d if isinstance(d, Mapping) else None for d in v.data] if v.data else None
    new = replace(s, findings=(*chance_summary(columns, data, s.rows), *findings(columns, data, found,
                                                                              ran=bool(v.data))))
    return tuple(new if x is s else x for x in sections)
