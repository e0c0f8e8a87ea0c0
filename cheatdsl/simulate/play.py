"""Playing one simulated game, or a run of them, and recording what the statistics need.

Each game's randomness comes from its own seed, worked out from the run's seed and the game's index
(`game_seed`), so a game plays the same whether it runs alone, in a batch, or in another process.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from hashlib import blake2b
from typing import Any, NamedTuple

from ..bots import BOTS, make_bot
from ..engine import Ending, Game, Phase, Play
from ..model import Rulebook
from .quickplay import Quick, greedy_loop_blocker, run_greedy_turns

DEFAULT_TURN_CAP = 2000
_PLAY = Phase.PLAY


class GameRecord(NamedTuple):
    """One finished game, as the statistics count it (seats are seat numbers)."""

    first: int            # the seat that played first (-1 when the rules named none)
    winner: int           # -1 when nobody won
    loser: int            # -1 when nobody lost (first-out games, unfinished games)
    capped: bool          # stopped by the turn cap
    stuck: bool           # stopped otherwise: a seat with no legal action, no first player
    turns: int            # plays and passes
    actions: int          # every decision: plays, passes, responses, set discards
    plays: int
    forced: int           # plays by a seat holding nothing that passes as any claim allowed
    challenges: int
    caught: int           # challenges that caught a lie
    pickups: tuple[int, ...]  # cards the loser of each challenge took


def game_seed(seed: int, index: int, seat: int | None = None) -> int:
    """The seed of game `index` of a run seeded `seed` (or of its bot at `seat`): 64 bits of a hash."""
    text = f"cheatdsl/{seed}/{index}" if seat is None else f"cheatdsl/{seed}/{index}/{seat}"
    return int.from_bytes(blake2b(text.encode(), digest_size=8).digest(), "big")


def bot_options(name: str, challenge_rate: float) -> dict[str, Any]:
    """The options a bot called `name` takes from the run's settings."""
    return {"challenge_rate": challenge_rate} if "challenge_rate" in BOTS[name].options else {}


def play_game(game: Game, seed: int, index: int, bots: Sequence[str], challenge_rate: float,
              quick: bool = True) -> GameRecord:
    """Deal and play game `index` of a run to its end; bots[s] plays seat s.

    With every seat `greedy` (and `quick`), plain turns go through `quickplay`'s loop, which plays
    them exactly as the bots would, only faster; the other turns are the bots' own.
    """
    base = game_seed(seed, index)
    rng = random.Random(base)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcome(rng))
    chance = len(state.history())
    n = game.players
    rngs = [random.Random(game_seed(seed, index, s)) for s in range(n)]
    first = state.current_player()
    plays = forced = 0
    fast = quick and all(b == "greedy" for b in bots) and greedy_loop_blocker(game) is None
    randoms = [r.random for r in rngs]
    played = Quick()
    # Bots are made only for a game the loop hands back at least once.
    over = fast and state.phase is _PLAY and run_greedy_turns(state, randoms, challenge_rate, played)
    players = [] if over else [make_bot(b, s, rngs[s], **bot_options(b, challenge_rate)) for s, b in enumerate(bots)]
    acts = [p.act for p in players]
    views = [state.view(s) for s in range(len(players))]
    apply = state.apply_action
    hands = [state.hand(s) for s in range(n)]
    match = game.count_matching
    simple = not game.wild
    values = game.values
    current = state.current_player
    while True:
        seat = current()
        if seat < 0:
            break
        action = acts[seat](views[seat])
        if action.__class__ is Play:
            plays += 1
            required = state.required_claims()
            if len(required) == 1 and simple:
                c = required[0]
                if c >= values or not hands[seat][c]:
                    forced += 1
            elif not match(hands[seat], frozenset(required)):
                forced += 1
        apply(action)
        if fast and state.phase is _PLAY and run_greedy_turns(state, randoms, challenge_rate, played):
            break
    plays += played.plays
    forced += played.forced
    actions = len(state.history()) - chance + played.actions
    result = state.result()
    assert result is not None
    capped = result.ending is Ending.TURN_CAP
    reveals = state.reveals()
    return GameRecord(
        first if first >= 0 else -1,
        result.winner if result.winner is not None and not result.capped else -1,
        result.loser if result.loser is not None and not result.capped else -1,
        capped, result.capped and not capped, state.turns, actions, plays, forced,
        len(reveals), sum(1 for r in reveals if r.caught), tuple(r.taken for r in reveals))


class Table:
    """A run's fixed settings: the game spec, the bots by seat and the seed."""

    def __init__(self, rulebook: Rulebook, players: int, bots: Sequence[str], seed: int, turn_cap: int | None,
                 challenge_rate: float) -> None:
        cap = turn_cap if turn_cap is not None else DEFAULT_TURN_CAP
        self.game = Game(rulebook, players, turn_cap=cap)
        self.bots = tuple(bots)
        self.seed = seed
        self.challenge_rate = challenge_rate

    def play(self, first: int, stop: int) -> list[GameRecord]:
        """Games first..stop-1 of the run, in order."""
        return [play_game(self.game, self.seed, i, self.bots, self.challenge_rate) for i in range(first, stop)]
