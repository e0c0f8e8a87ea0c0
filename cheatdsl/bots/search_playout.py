"""Playouts for the search bot: a table played on for a while by quick bots, and what it is worth to a seat.

`Playouts` is the seam: anything with `value(state, seat, horizon, rng)` may stand in for the Python
engine (a compiled engine, when it can replay a state of this one). `PythonPlayouts` plays every seat
with the `honest` bot on the interpreter's own `State`.
"""

from __future__ import annotations

import random
from typing import Protocol

from ..engine import CHANCE, State
from .honest import HonestBot


class Playouts(Protocol):
    """Plays a determinized table on and scores it for one seat."""

    def value(self, state: State, seat: int, horizon: int, rng: random.Random) -> float:
        """What `state` is worth to `seat` after at most `horizon` more decisions (changes `state`)."""
        ...


def standing(state: State, seat: int) -> float:
    """A game's worth to `seat`, from -1 (lost) to +1 (won): the returns once it has ended; before,
    how its hand compares with the others' still in (fewer cards is better in every game of the
    family), halved, as a hand count is a guess at the result, not the result."""
    if state.is_terminal():
        return state.returns()[seat]
    game = state.game
    if not state.is_in(seat):  # out before the end: safe where the last holder loses
        return 1.0 if game.rules.first_out else 1.0 / (game.players - 1)
    sizes = state.sizes
    return by_hands(sizes[seat], [sizes[s] for s in range(game.players) if s != seat and state.is_in(s)])


def by_hands(mine: int, others: list[int]) -> float:
    """`standing` of a game still on: a hand of `mine` cards against the others' still in, halved."""
    if not others:
        return 0.0
    mean = sum(others) / len(others)
    return 0.5 * (mean - mine) / (mean + mine + 1.0)


class PythonPlayouts:
    """Playouts on the interpreter, every seat played by `honest` at `challenge_rate`."""

    def __init__(self, challenge_rate: float = 0.15) -> None:
        self.challenge_rate = challenge_rate

    def value(self, state: State, seat: int, horizon: int, rng: random.Random) -> float:
        players = state.game.players
        bots = [HonestBot(s, rng, challenge_rate=self.challenge_rate) for s in range(players)]
        views = [state.view(s) for s in range(players)]
        apply = state.apply_action
        for _ in range(horizon):
            who = state.to_act
            if who >= 0:
                apply(bots[who].act(views[who]))
            elif who == CHANCE:
                apply(state.chance_outcome(rng))
            else:
                break
        return standing(state, seat)
