"""The headline figures of a rating: what skill earns, what the deal decides, what bluffing is worth.

Three tables beside the ladder, each dealt by duplicate deals (every seating of a deal gets the same
cards), each figure with a 95% percentile bootstrap interval that resamples deals, not games:

- `skill_edge`: the strongest entrant at a table of `honest` bots, seated in turn at every seat of each
  deal: its share of the good result less the fair share 1/N. Where every choice is forced, the strong
  bot plays as `honest` does and the edge is 0.
- `luck_share`: a table of the strongest entrant at every seat, each deal played twice with fresh random
  numbers for the bots: the share of the variance of a seat's result that stays between the two plays,
  that is, the deal's and the seat's (1 where nothing the bots draw changes a game).
- `lie_value`: the strongest entrant at a table of copies of itself that never lie when a truthful play
  is open, seated in turn at every seat: its share of the good result less 1/N, what lying is worth
  under these rules (0 where no lie is ever made or none changes anything).
- The bluffing figures of the equal table (`luck_share`'s games): the share of plays that are lies, of
  lies caught, and of challenges the caller wins.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import BOTS
from ..bots.search_playout import Playouts
from ..engine import Game
from .entrants import Entrant
from .fit import Estimate, interval
from .matches import Match, play_matches

HONEST = Entrant("honest", "honest")
REPLAYS = 2  # plays of each deal at the equal table (`luck_share`)
# The streams of the three tables' games and deals, apart from the ladder's (whose games count from 0).
SKILL_GAMES, LUCK_GAMES, LIE_GAMES = 1_000_000, 2_000_000, 3_000_000


NOTHING = Estimate(float("nan"), float("nan"), float("nan"))


@dataclass(frozen=True)
class Headline:
    """The headline figures of one rulebook at one table size, and the games each rests on."""

    skill_edge: Estimate
    luck_share: Estimate
    lie_value: Estimate
    lie_share: Estimate
    lies_caught: Estimate
    calls_won: Estimate
    games: dict[str, int]
    strong: str
    lie_value_note: str = ""

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "skill_edge": self.skill_edge.as_json(), "luck_share": self.luck_share.as_json(),
            "bluffing": {"lie_share": self.lie_share.as_json(), "lies_caught": self.lies_caught.as_json(),
                         "calls_won": self.calls_won.as_json(), "lie_value": self.lie_value.as_json()},
            "headline_games": dict(self.games), "headline_bot": self.strong,
        }
        if self.lie_value_note:
            out["bluffing"]["lie_value_note"] = self.lie_value_note
        return out


def figure_in(report: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
    """A figure of a rating's JSON by name ({value, low, high}), wherever `Headline.as_json` and the ladder
    keep it (the lie value within `bluffing`); None where the report has none."""
    return report.get(name) or report.get("bluffing", {}).get(name)


def truthful(entrant: Entrant) -> Entrant | None:
    """A copy of `entrant` that never lies when a truthful play is open, or None where its bot has no such
    setting."""
    if "truthful" not in BOTS[entrant.bot].options:
        return None
    return Entrant(f"{entrant.label} (truthful)", entrant.bot, (*entrant.options, ("truthful", True)))


def one_seat_rotations(players: int, deals: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """Seatings with entrant 1 at one seat and entrant 0 at the rest, entrant 1 at every seat of each deal
    in turn, and each seating's deal."""
    seatings = [tuple(1 if s == r else 0 for s in range(players)) for _ in range(deals) for r in range(players)]
    return seatings, [i // players for i in range(deals * players)]


def headline(game: Game, strong: Entrant, deals: tuple[int, int, int], seed: int, samples: int,
             rng: random.Random, playouts: Playouts | None = None, jobs: int = 1,
             progress: Callable[[int], None] | None = None) -> Headline:
    """The headline figures at `game`'s table with `strong` as the strong bot; `deals` are the deals of the
    skill, equal and lie tables (each dealt to every seating, or twice at the equal table)."""
    n = game.players
    skill_deals, luck_deals, lie_deals = deals
    seatings, dealt = one_seat_rotations(n, skill_deals)
    skill = _played(game, (HONEST, strong), seatings, dealt, seed, SKILL_GAMES, playouts, jobs, progress)
    equal = [(0,) * n] * (luck_deals * REPLAYS)
    luck_dealt = [i // REPLAYS for i in range(len(equal))]
    luck = _played(game, (strong,), equal, luck_dealt, seed, LUCK_GAMES, playouts, jobs, progress)
    copy = truthful(strong)
    lie: list[Match] = []
    lie_dealt: list[int] = []
    if copy is not None and lie_deals:
        seatings, lie_dealt = one_seat_rotations(n, lie_deals)
        lie = _played(game, (copy, strong), seatings, lie_dealt, seed, LIE_GAMES, playouts, jobs, progress)
    by_deal = _blocks(luck, luck_dealt)
    return Headline(
        skill_edge=_bootstrap(_blocks(skill, dealt), lambda ms: _edge(ms, n), samples, rng),
        luck_share=_bootstrap(by_deal, lambda ms: _luck(ms, n), samples, rng),
        lie_value=_bootstrap(_blocks(lie, lie_dealt), lambda ms: _edge(ms, n), samples, rng) if lie else NOTHING,
        lie_share=_bootstrap(by_deal, lambda ms: _ratio(ms, "lies", "plays"), samples, rng),
        lies_caught=_bootstrap(by_deal, lambda ms: _ratio(ms, "caught", "lies"), samples, rng),
        calls_won=_bootstrap(by_deal, lambda ms: _ratio(ms, "calls_won", "calls"), samples, rng),
        games={"skill": len(skill), "equal": len(luck), "lie": len(lie)},
        strong=strong.label,
        lie_value_note="" if copy is not None else f"the {strong.bot} bot has no truthful setting",
    )


def _played(game: Game, entrants: Sequence[Entrant], seatings: list[tuple[int, ...]], dealt: list[int], seed: int,
            stream: int, playouts: Playouts | None, jobs: int,
            progress: Callable[[int], None] | None) -> list[Match]:
    """The games of one table: game i is seeded as game `stream + i` of the run, dealt as deal `stream + dealt[i]`."""
    return play_matches(game, entrants, seatings, seed, playouts, jobs, progress, [stream + d for d in dealt],
                        first_index=stream)


def _blocks(matches: Sequence[Match], dealt: Sequence[int]) -> list[list[Match]]:
    """The games grouped by their deal, in order."""
    out: dict[int, list[Match]] = {}
    for d, m in zip(dealt, matches):
        out.setdefault(d, []).append(m)
    return list(out.values())


def _edge(matches: Sequence[Match], players: int) -> float:
    """Entrant 1's share of the good result over the decided games, less the fair share."""
    results = [m.good(m.entrants.index(1)) for m in matches]
    got = [r for r in results if r is not None]
    return sum(got) / len(got) - 1.0 / players if got else float("nan")


def _luck(matches: Sequence[Match], players: int) -> float:
    """The share of the variance of a seat's result that stays between the plays of one deal (consecutive
    runs of `REPLAYS` games): one less the variance within a deal and seat over the whole variance."""
    rows: list[list[float]] = []
    for i in range(0, len(matches) - REPLAYS + 1, REPLAYS):
        plays = matches[i:i + REPLAYS]
        for seat in range(players):
            results = [m.good(seat) for m in plays]
            if all(r is not None for r in results):
                rows.append([r for r in results if r is not None])
    flat = [r for row in rows for r in row]
    if len(rows) < 2:
        return float("nan")
    mean = sum(flat) / len(flat)
    total = sum((r - mean) ** 2 for r in flat) / (len(flat) - 1)
    if total == 0:
        return 1.0
    within = sum(sum((r - sum(row) / len(row)) ** 2 for r in row) / (len(row) - 1) for row in rows) / len(rows)
    return max(0.0, min(1.0, 1.0 - within / total))


def _ratio(matches: Sequence[Match], top: str, bottom: str) -> float:
    over = sum(getattr(m, bottom) for m in matches)
    return sum(getattr(m, top) for m in matches) / over if over else float("nan")


def _bootstrap(blocks: list[list[Match]], pick: Callable[[list[Match]], float], samples: int,
               rng: random.Random) -> Estimate:
    """`pick` of every game, with a 95% interval from resampling whole deals."""
    if not blocks:
        return NOTHING
    value = pick([m for b in blocks for m in b])
    resampled = []
    for _ in range(samples):
        v = pick([m for _ in blocks for m in blocks[rng.randrange(len(blocks))]])
        if v == v:
            resampled.append(v)
    low, high = interval(resampled)
    return Estimate(value, low, high)
