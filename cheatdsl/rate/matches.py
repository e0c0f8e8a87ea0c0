"""One game between entrants, and what a ladder keeps of it: who sat where, who won or lost, how long,
and from which turn the hand counts showed the result for good (for decisiveness)."""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from ..bots.search_playout import Playouts
from ..engine import CHANCE, Game, Play
from ..jobs import die_with_parent
from ..simulate import game_seed
from .entrants import Entrant


class Match(NamedTuple):
    """One game of a ladder; seats are seat numbers, `entrants[s]` the entrant index at seat s."""

    entrants: tuple[int, ...]
    first: int        # the seat the rules named to play first (-1: none), even where it won at its turn's start
    winner: int       # -1 when nobody won (last-holder-loses games, unfinished games)
    loser: int        # -1 when nobody lost
    ended: bool       # the game came to its end (not stopped by the turn cap or stuck)
    turns: int        # plays and passes
    settled: int      # the turn from which the hand counts agreed with the result for good
    plays: int = 0    # plays made (passes not counted)
    lies: int = 0     # plays whose cards did not all pass as the claim, or whose count was not the cards'
    calls: int = 0    # challenges heard
    caught: int = 0   # challenges that caught a lie
    calls_won: int = 0  # challenges the caller won

    @property
    def decided(self) -> bool:
        return self.winner >= 0 or self.loser >= 0

    def good(self, seat: int) -> float | None:
        """The seat's share of the good result, or None when nobody won or lost: the win in first-out games;
        in last-holder-loses games, not losing, shared among the seats that did not lose (1/N fair either
        way)."""
        n = len(self.entrants)
        if self.winner >= 0:
            return 1.0 if seat == self.winner else 0.0
        if self.loser >= 0:
            return 0.0 if seat == self.loser else 1.0 / (n - 1)
        return None


DEAL_STREAM = -1  # the "seat" of a deal's own random stream (`game_seed`), apart from every game's and bot's


def play_match(game: Game, ladder: Sequence[Entrant], seats: Sequence[int], seed: int, index: int,
               playouts: Playouts | None = None, deal: int | None = None) -> Match:
    """Game `index` of a run seeded `seed`, entrant `ladder[seats[s]]` at seat s; search bots play out on
    `playouts` (None: their own, on the Python engine). The cards are dealt (and any lot among callers drawn)
    from deal number `deal` (default: the game's own index): games given one deal number are dealt alike, so
    that the entrants of a rotation meet the same cards from every seat (duplicate deals). Each seat's bot
    draws from the game's own stream."""
    rng = random.Random(game_seed(seed, index) if deal is None else game_seed(seed, deal, DEAL_STREAM))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcome(rng))
    first = state.first_player if state.first_player is not None else -1
    n = game.players
    acts = [ladder[e].make(s, random.Random(game_seed(seed, index, s)), playouts).act for s, e in enumerate(seats)]
    views = [state.view(s) for s in range(n)]
    sizes = state.sizes
    # For each seat, the last turn at which it did not hold strictly the fewest (most) cards.
    not_fewest = [0] * n
    not_most = [0] * n
    turns = plays = lies = 0
    passes = game.rules.passes_as
    while True:
        seat = state.to_act
        if seat >= 0:
            action = acts[seat](views[seat])
            if type(action) is Play:
                plays += 1
                lies += action.count != len(action.cards) or any(action.claim not in passes(c) for c in action.cards)
            state.apply_action(action)
        elif seat == CHANCE:
            state.apply_action(state.chance_outcome(rng))
        else:
            break
        if state.turns != turns:
            turns = state.turns
            live = [sizes[s] if state.is_in(s) else -1 for s in range(n)]
            held = [k for k in live if k >= 0]
            low, high = min(held, default=0), max(held, default=0)
            for s in range(n):
                if live[s] < 0:
                    continue
                if live[s] != low or held.count(low) > 1:
                    not_fewest[s] = turns
                if live[s] != high or held.count(high) > 1:
                    not_most[s] = turns
    result = state.result()
    assert result is not None
    ended = result.ending.finished
    winner = result.winner if result.winner is not None and ended else -1
    loser = result.loser if result.loser is not None and ended else -1
    settled = not_fewest[winner] if winner >= 0 else not_most[loser] if loser >= 0 else state.turns
    records = state.records
    return Match(tuple(seats), first, winner, loser, ended, state.turns, settled, plays, lies, len(records),
                 sum(r.caught for r in records), sum(r.loser != r.challenger for r in records))


class _Run(NamedTuple):
    """What a worker needs to play any game of a ladder run (handed down by fork, never pickled)."""

    game: Game
    ladder: Sequence[Entrant]
    seatings: Sequence[Sequence[int]]
    seed: int
    playouts: Playouts | None
    deals: Sequence[int] | None
    first_index: int


_run: _Run | None = None  # set in a forked worker only, by `_adopt`


def play_matches(game: Game, ladder: Sequence[Entrant], seatings: Sequence[Sequence[int]], seed: int,
                 playouts: Playouts | None = None, jobs: int = 1,
                 progress: Callable[[int], None] | None = None, deals: Sequence[int] | None = None,
                 first_index: int = 0) -> list[Match]:
    """Game `first_index + i` of the run seeded `seed` with `seatings[i]` (dealt as deal `deals[i]`, or its own),
    for every i, in order; with `jobs` > 1 in that many forked processes where the platform forks (else in this
    one). Each game is seeded by its index and deal, so the matches are the same whatever `jobs`. `progress(1)`
    is called as each game is done."""
    if jobs <= 1 or len(seatings) <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return _collect((play_match(game, ladder, seats, seed, first_index + i, playouts,
                                    None if deals is None else deals[i])
                         for i, seats in enumerate(seatings)), progress)
    run = _Run(game, ladder, seatings, seed, playouts, deals, first_index)
    context = multiprocessing.get_context("fork")  # a forked worker inherits the run: no game is pickled
    with context.Pool(min(jobs, len(seatings)), initializer=_adopt, initargs=(run,)) as pool:
        return _collect(pool.imap(_play_index, range(len(seatings))), progress)


def _collect(matches: Iterable[Match], progress: Callable[[int], None] | None) -> list[Match]:
    """The matches in order, `progress(1)` called as each one comes."""
    out = []
    for match in matches:
        out.append(match)
        if progress is not None:
            progress(1)
    return out


def _adopt(run: _Run) -> None:
    global _run
    die_with_parent()
    _run = run


def _play_index(index: int) -> Match:
    assert _run is not None
    return play_match(_run.game, _run.ladder, _run.seatings[index], _run.seed, _run.first_index + index,
                      _run.playouts, None if _run.deals is None else _run.deals[index])
