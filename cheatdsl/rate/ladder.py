"""A ladder: a round robin of bots of increasing strength, a table of the strongest, and the report.

The round robin seats every group of `players` different entrants (every entrant when there are
fewer) in every rotation, cycling through the groups until its share of the games is played; the
strong table seats the strongest entrants (`entrants.strong_table`) in every rotation. Ratings and the
skill index come from every decided game; seats, length, completion, balance and decisiveness from
the strong table alone, as Ludii measures them between its strong agents. The headline figures (skill
edge, luck share, bluffing) come from three tables of their own (`headline.py`). Every interval is a
95% percentile bootstrap over the deals (ratings: refitted on each resample).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from ..bots.search_playout import Playouts
from ..engine import Game
from ..model import Rulebook
from .entrants import LADDER, Entrant, strong_table
from .fit import Estimate, bootstrap, fit, interval, outcomes
from .headline import REPLAYS, Headline, headline, truthful
from .matches import Match, play_matches
from .metrics import TableFigures, figures

DEFAULT_GAMES = 240
DEFAULT_SAMPLES = 200
DEFAULT_TURN_CAP = 2000


@dataclass(frozen=True)
class Rating:
    """A ladder's report."""

    rulebook: str
    players: int
    games: int  # every game played: the ladder's and, where played, the headline tables'
    strong_games: int
    entrants: tuple[str, ...]
    ratings: tuple[Estimate, ...]
    skill_index: Estimate
    spread: Estimate  # Elo points between the strongest and the weakest entrant
    shares: tuple[Estimate, ...]  # by position from the first player
    completion: Estimate
    duration: Estimate
    balance: Estimate
    decisiveness: Estimate
    strong: tuple[str, ...]
    headline: Headline | None = None  # skill edge, luck share and bluffing (`headline.py`)

    @property
    def first_player_advantage(self) -> Estimate:
        fair = 1.0 / self.players
        s = self.shares[0]
        return Estimate(s.value - fair, s.low - fair, s.high - fair)

    def as_json(self) -> dict[str, Any]:
        fair = 1.0 / self.players
        return {
            "rulebook": self.rulebook, "players": self.players, "games": self.games,
            "strong_table": {"bots": list(self.strong), "games": self.strong_games},
            **(self.headline.as_json() if self.headline is not None else {}),
            "fit": "plackett-luce maximum likelihood (first choice), Elo scale",
            "skill_index": self.skill_index.as_json(),
            "rating_spread": self.spread.as_json(),
            "ladder": [{"bot": b, "rating": round(r.value, 1), "low": round(r.low, 1), "high": round(r.high, 1)}
                       for b, r in zip(self.entrants, self.ratings)],
            "seat_advantage": [{"position": p, **Estimate(s.value - fair, s.low - fair, s.high - fair).as_json()}
                               for p, s in enumerate(self.shares)],
            "first_player_advantage": self.first_player_advantage.as_json(),
            "completion": self.completion.as_json(),
            "duration": self.duration.as_json(),
            "balance": self.balance.as_json(),
            "decisiveness": self.decisiveness.as_json(),
        }


def schedule(entrants: int, players: int, games: int) -> list[tuple[int, ...]]:
    """`games` seatings of the round robin: every group of `players` entrants in every rotation, in turn."""
    k = min(players, entrants)
    groups = [tuple(g[i % k] for i in range(players)) for g in combinations(range(entrants), k)]
    rotations = [g[r:] + g[:r] for g in groups for r in range(players)]
    return [rotations[i % len(rotations)] for i in range(games)]


def rate(rulebook: Rulebook, players: int, games: int = DEFAULT_GAMES, seed: int = 0,
         ladder: Sequence[Entrant] = LADDER, samples: int = DEFAULT_SAMPLES, turn_cap: int | None = None,
         progress: Callable[[int], None] | None = None, playouts: Playouts | None = None, jobs: int = 1) -> Rating:
    """Play the ladder on `rulebook` at `players` seats and fit it, and play the headline tables (`headline.py`):
    of the `games` games, a sixth each at the strong table, the skill table, the equal table and the lie table
    (in whole rotations), the rest round robin; where `games` is too few for a deal at each headline table, the
    ladder alone. The search bots play out on `playouts` (None: their own, on the
    Python engine); the games are played in `jobs` processes (`play_matches`), the same games whatever `jobs`."""
    ladder = tuple(ladder)
    game = Game(rulebook, players, turn_cap=turn_cap if turn_cap is not None else DEFAULT_TURN_CAP)
    strong = strong_table(ladder, players)
    strong_ids = tuple(ladder.index(e) for e in strong)
    sixth = games // 6
    strong_games = max(players, sixth // players * players)
    lie_deals = max(1, sixth // players) if truthful(ladder[-1]) is not None else 0
    table_deals = (max(1, sixth // players), max(2, sixth // REPLAYS), lie_deals)
    headline_games = (table_deals[0] + table_deals[2]) * players + table_deals[1] * REPLAYS
    if games < strong_games + headline_games + 1:
        headline_games = 0  # too few games for the headline tables: the ladder alone
    seatings = schedule(len(ladder), players, max(1, games - strong_games - headline_games))
    robin = len(seatings)
    seatings += [strong_ids[r:] + strong_ids[:r] for r in range(players)] * (strong_games // players)
    # Duplicate deals: the rotations of a group of entrants come one after another (`schedule`, and the strong
    # table's), and each run of `players` of them is dealt alike, so the deal's luck falls on every entrant.
    deals = [i // players for i in range(robin)]
    deals += [(robin + players - 1) // players + i // players for i in range(len(seatings) - robin)]
    matches = play_matches(game, ladder, seatings, seed, playouts, jobs, progress, deals)
    table = matches[robin:]
    rng = random.Random(seed)
    rating = summarise(rulebook.name, players, ladder, strong, matches, table, samples, rng, deals)
    if not headline_games:
        return rating
    top = headline(game, ladder[-1], table_deals, seed, samples, rng, playouts, jobs, progress)
    return replace(rating, headline=top, games=rating.games + sum(top.games.values()))


def summarise(name: str, players: int, ladder: Sequence[Entrant], strong: Sequence[Entrant], matches: Sequence[Match],
              table: Sequence[Match], samples: int, rng: random.Random, deals: Sequence[int] | None = None) -> Rating:
    """The report from the ladder's games and those of its strong table (the last `len(table)` matches). With
    `deals` (each match's deal), the intervals resample deals, each with every game dealt from it, not games:
    the games of one deal hang together."""
    deals = list(deals) if deals is not None else list(range(len(matches)))
    games = outcomes(matches)
    best = fit(games, len(ladder))
    dealt = [deals[i] for i, m in enumerate(matches) if m.winner >= 0 or m.loser >= 0]  # as `outcomes` keeps them
    fits = bootstrap(games, len(ladder), samples, rng, dealt)
    ratings = tuple(_estimate(best.ratings[i], [f.ratings[i] for f in fits]) for i in range(len(ladder)))
    skill = _estimate(best.skill_index(), [f.skill_index() for f in fits])
    spread = _estimate(best.spread(), [f.spread() for f in fits])
    whole = figures(table, players)
    by_deal: dict[int, list[Match]] = {}
    for deal, match in zip(deals[len(matches) - len(table):], table):
        by_deal.setdefault(deal, []).append(match)
    blocks = list(by_deal.values())
    resampled: list[TableFigures] = []
    for _ in range(samples):
        resampled.append(figures([m for _ in blocks for m in blocks[rng.randrange(len(blocks))]], players))

    def est(pick: Callable[[TableFigures], float]) -> Estimate:
        return _estimate(pick(whole), [pick(f) for f in resampled])

    return Rating(
        name, players, len(matches), len(table), tuple(e.label for e in ladder), ratings, skill, spread,
        tuple(est(lambda f, p=p: f.shares[p]) for p in range(players)),  # type: ignore[misc]
        est(lambda f: f.completion), est(lambda f: f.duration), est(lambda f: f.balance),
        est(lambda f: f.decisiveness), tuple(e.label for e in strong))


def _estimate(value: float, resampled: Sequence[float]) -> Estimate:
    low, high = interval([v for v in resampled if v == v])
    return Estimate(value, low, high)
