"""Playing one simulated game, or a run of them, and recording what the statistics need.

Each game's randomness comes from its own seed, worked out from the run's seed and the game's index
(`game_seed`), so a game plays the same whether it runs alone, in a batch, or in another process.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from hashlib import blake2b
from typing import Any

from ..bots import BOTS, make_bot
from ..engine import CHANCE, Ending, Game, Play
from ..model import Rulebook
from ..tally import GameRecord

DEFAULT_TURN_CAP = 2000


def game_seed(seed: int, index: int, seat: int | None = None) -> int:
    """The seed of game `index` of a run seeded `seed` (or of its bot at `seat`): 64 bits of a hash."""
    text = f"cheatdsl/{seed}/{index}" if seat is None else f"cheatdsl/{seed}/{index}/{seat}"
    return int.from_bytes(blake2b(text.encode(), digest_size=8).digest(), "big")


def bot_options(name: str, challenge_rate: float) -> dict[str, Any]:
    """The options a bot called `name` takes from the run's settings."""
    return {"challenge_rate": challenge_rate} if "challenge_rate" in BOTS[name].options else {}


def play_game(game: Game, seed: int, index: int, bots: Sequence[str], challenge_rate: float) -> GameRecord:
    """Deal and play game `index` of a run to its end, one engine step per decision; bots[s] plays seat s."""
    rules = game.rules
    base = game_seed(seed, index)
    rng = random.Random(base)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcome(rng))
    chance = state.history_length()
    n = game.players
    first = state.first_player if state.first_player is not None else -1
    plays = forced = 0
    acts = [make_bot(b, s, random.Random(game_seed(seed, index, s)), **bot_options(b, challenge_rate)).act
            for s, b in enumerate(bots)]
    views = [state.view(s) for s in range(n)]
    apply = state.apply_action
    hands = [state.hand(s) for s in range(n)]
    match = rules.count_matching
    simple = not rules.wild
    values = rules.values
    seat = state.to_act
    while True:
        while seat >= 0:
            action = acts[seat](views[seat])
            if action.__class__ is Play:
                plays += 1
                required = state.required
                if len(required) == 1 and simple:
                    c = required[0]
                    if c >= values or not hands[seat][c]:
                        forced += 1
                elif not match(hands[seat], frozenset(required)):
                    forced += 1
            apply(action)
            seat = state.to_act
        if seat != CHANCE:
            break
        # Who of several callers called first: drawn from the game's chance, as the deal was.
        apply(state.chance_outcome(rng))
        chance += 1
        seat = state.to_act
    result = state.result()
    assert result is not None
    capped = result.ending is Ending.TURN_CAP
    reveals = state.reveals()
    return GameRecord(
        first,
        result.winner if result.winner is not None and not result.capped else -1,
        result.loser if result.loser is not None and not result.capped else -1,
        capped, result.capped and not capped, state.turns, state.history_length() - chance, plays, forced,
        len(reveals), sum(1 for r in reveals if r.caught), tuple(r.taken for r in reveals if r.paid))


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
