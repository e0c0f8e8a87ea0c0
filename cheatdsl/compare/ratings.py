"""Ratings side by side (`compare --rate`): `cheatdsl.rate.rate(...)` once per rulebook, a row per figure.

Each cell is a figure with its 95% interval, as `cheatdsl rate` prints it; a rulebook whose ladder
could not be played shows "-", and the note says why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..model import Rulebook
from ..rate import Estimate, Rating, rate
from ..rate.headline import Headline
from . import chance
from .grid import Column, Row, Section
from ..words.seats import place

TITLE = "Ratings"
MEANINGS = ("The skill edge is the strongest bot's share of wins at a table of honest bots over its fair share; the "
            "luck share, the part of a seat's result that the deal and the seat decide (each deal played twice by "
            "equal strong bots); the lie value, the strongest bot's share over its fair share at a table of copies "
            "that never lie when they can tell the truth; all over duplicate deals. "
            "A ladder of bots (random, greedy, honest, counter, search at two efforts) per rulebook; the skill index "
            "is 2P - 1 for P the chance its strongest bot beats its weakest head to head (0 a coin flip); seats, "
            "length, completion, balance and decisiveness are measured at a table of the strongest bots "
            "(see docs/ratings.md). Intervals are 95% bootstrap intervals.")


def collect(rulebooks: Sequence[Rulebook], games: int, seed: int, players: Sequence[int],
            progress: Callable[[int, str, int], None] | None = None) -> list[Rating | str]:
    """A ladder's report per rulebook, or the reason it could not be played; `progress(i, name, games done)`
    is called as rulebook i starts and as each of its games finishes."""
    from ..simulate.engine import Engine, search_playouts
    playouts = search_playouts(Engine.AUTO)  # the search bots' playouts on the kernel where numba is installed
    out: list[Rating | str] = []
    for i, (rb, n) in enumerate(zip(rulebooks, players)):
        tick = None
        if progress is not None:
            progress(i, rb.name, 0)
            tick = _counter(progress, i, rb.name)
        if n < 2:
            out.append(f"{rb.name}: a ladder needs two seats or more")
            continue
        try:
            out.append(rate(rb, n, games, seed, progress=tick, playouts=playouts))
        except ValueError as exc:
            out.append(f"{rb.name}: {exc}")
    return out


def _counter(progress: Callable[[int, str, int], None], i: int, name: str) -> Callable[[int], None]:
    """The ladder's progress (one game more) as the comparison's: games done in rulebook i."""
    done = [0]

    def tick(games: int) -> None:
        done[0] += games
        progress(i, name, done[0])
    return tick


def _cell(e: Estimate, fmt: str) -> str:
    return f"{fmt.format(e.value)} ({fmt.format(e.low)} to {fmt.format(e.high)})"


def section(columns: tuple[Column, ...], data: Sequence[Rating | str]) -> Section:
    """The ratings section: skill index, first player, seats, length and Ludii's figures, then the ladder."""
    def each(fn: Callable[[Rating], str]) -> tuple[str, ...]:
        return tuple(fn(d) if isinstance(d, Rating) else "-" for d in data)

    def ladder(d: Rating) -> str:
        order = sorted(zip(d.entrants, d.ratings), key=lambda be: -be[1].value)
        return ", ".join(f"{b} {r.value:+.0f}" for b, r in order)

    def seats(d: Rating) -> str:
        fair = 1.0 / d.players
        return ", ".join(f"{place(k)} {100 * (s.value - fair):+.0f} ({100 * (s.low - fair):+.0f} to "
                         f"{100 * (s.high - fair):+.0f})" for k, s in enumerate(d.shares)) + " points"

    rated = [d for d in data if isinstance(d, Rating)]

    def apart(fn: Callable[[Rating], Estimate]) -> bool:
        """Whether some two rulebooks' estimates differ beyond chance (`chance.py`)."""
        return chance.any_apart([chance.from_interval(e.value, e.low, e.high) for e in map(fn, rated)])

    def seats_apart() -> bool:
        places = min((len(d.shares) for d in rated), default=0)
        return any(apart(lambda d, k=k: d.shares[k]) for k in range(places))

    def ladder_apart() -> bool:
        common = set.intersection(*(set(d.entrants) for d in rated)) if rated else set()
        return any(apart(lambda d, b=b: d.ratings[d.entrants.index(b)]) for b in sorted(common))

    def top(pick: Callable[[Headline], Estimate], fmt: str, scale: float = 1.0) -> tuple[str, ...]:
        def one(d: Rating) -> str:
            e = pick(d.headline) if d.headline is not None else None
            if e is None or e.value != e.value:
                return "-"
            return _cell(Estimate(scale * e.value, scale * e.low, scale * e.high), fmt)
        return each(one)

    def top_apart(pick: Callable[[Headline], Estimate]) -> bool:
        have = [pick(d.headline) for d in rated if d.headline is not None]
        return chance.any_apart([chance.from_interval(e.value, e.low, e.high) for e in have if e.value == e.value])

    rows = (
        Row("skill_edge", "skill edge (points over a fair share)", top(lambda h: h.skill_edge, "{:+.1f}", 100),
            beyond=top_apart(lambda h: h.skill_edge)),
        Row("luck_share", "luck share", top(lambda h: h.luck_share, "{:.2f}"),
            beyond=top_apart(lambda h: h.luck_share)),
        Row("lie_value", "lie value (points over a fair share)", top(lambda h: h.lie_value, "{:+.1f}", 100),
            beyond=top_apart(lambda h: h.lie_value)),
        Row("lie_share", "plays that are lies", top(lambda h: h.lie_share, "{:.2f}"),
            beyond=top_apart(lambda h: h.lie_share)),
        Row("skill_index", "skill index", each(lambda d: _cell(d.skill_index, "{:.2f}")),
            beyond=apart(lambda d: d.skill_index)),
        Row("rating_spread", "rating spread (Elo points)", each(lambda d: _cell(d.spread, "{:.0f}")),
            beyond=apart(lambda d: d.spread)),
        Row("first_player_advantage", "first player's advantage",
            each(lambda d: _cell(Estimate(*(100 * x for x in (d.first_player_advantage.value,
                                                              d.first_player_advantage.low,
                                                              d.first_player_advantage.high))), "{:+.1f}")
                 + " points"), beyond=apart(lambda d: d.first_player_advantage)),
        Row("seat_advantage", "advantage by position", each(seats), beyond=seats_apart()),
        Row("duration", "duration (turns)", each(lambda d: _cell(d.duration, "{:.0f}")),
            beyond=apart(lambda d: d.duration)),
        Row("completion", "completion", each(lambda d: _cell(d.completion, "{:.2f}")),
            beyond=apart(lambda d: d.completion)),
        Row("balance", "balance", each(lambda d: _cell(d.balance, "{:.2f}")), beyond=apart(lambda d: d.balance)),
        Row("decisiveness", "decisiveness", each(lambda d: _cell(d.decisiveness, "{:.2f}")),
            beyond=apart(lambda d: d.decisiveness)),
        Row("ladder", "ratings (Elo scale)", each(ladder), beyond=ladder_apart()),
    )
    failures = [d for d in data if isinstance(d, str)]
    note = MEANINGS + (" Not rated: " + "; ".join(failures) + "." if failures else "")
    return Section("ratings", TITLE, rows, note, data=tuple(d if isinstance(d, Rating) else None for d in data))
