"""The search bot's playouts on the compiled kernel: a `bots.search_playout.Playouts` for the `playouts` option.

The search bot asks what a table (one of its determinizations, a candidate just applied) is worth to its
seat after `honest` bots play on for a number of decisions. `CompiledPlayouts` plays those decisions as
`PythonPlayouts` does, by the same bot's rules, but on the kernel wherever the kernel plays the table:
the Python engine plays on only to the next turn's start (the answers to a pending play, a challenge
settled), and the kernel plays the rest from the hands, the pile and the claim to follow.
"""

from __future__ import annotations

import random
from weakref import WeakKeyDictionary

import numpy as np

from ..bots.honest import HonestBot
from ..bots.search_playout import PythonPlayouts, by_hands, standing
from ..engine import CHANCE, Game, Phase, State
from .cache import numba_available
from .position import turn_start
from .run import CompiledTable, Refused

_PLAY = Phase.PLAY


class CompiledPlayouts:
    """Playouts by `honest` bots at every seat, on the kernel where it plays the table; elsewhere (rules or
    a deck the kernel refuses, or numba missing) every playout is `PythonPlayouts`'. One object serves
    every search bot of a run: it keeps the kernel's tables of each game it meets."""

    def __init__(self, challenge_rate: float = 0.15) -> None:
        self.challenge_rate = challenge_rate
        self.python = PythonPlayouts(challenge_rate)
        self._tables: WeakKeyDictionary[Game, CompiledTable | None] = WeakKeyDictionary()
        self.compiled = 0  # playouts the kernel played (the rest: the Python engine alone)

    def table(self, game: Game) -> CompiledTable | None:
        """The kernel's tables for `game` with `honest` at every seat, or None where it does not play it."""
        if game not in self._tables:
            table = None
            if numba_available():
                try:
                    table = CompiledTable(game, ["honest"] * game.players, 0, self.challenge_rate)
                except Refused:
                    pass
            self._tables[game] = table
        return self._tables[game]

    def value(self, state: State, seat: int, horizon: int, rng: random.Random) -> float:
        """What `state` is worth to `seat` after at most `horizon` more decisions (changes `state`)."""
        table = self.table(state.game)
        if table is None:
            return self.python.value(state, seat, horizon, rng)
        game = state.game
        players = game.players
        bots: dict[int, HonestBot] = {}  # made for the seats that answer before the next turn
        left = horizon
        while left > 0 and not state.is_terminal():
            who = state.to_act
            if who == CHANCE:
                state.apply_action(state.chance_outcome(rng))
            elif state.phase is _PLAY:
                break
            else:
                bot = bots.get(who)
                if bot is None:
                    bot = bots[who] = HonestBot(who, rng, challenge_rate=self.challenge_rate)
                state.apply_action(bot.act(state.view(who)))
                left -= 1
        if left <= 0 or state.is_terminal() or state.phase is not _PLAY:
            return standing(state, seat)
        from .common import LOSER, RECORD_WIDTH, WINNER
        from .kernel import playout
        t = table.tables
        at = turn_start(state, t.rules.values, t.rules.faces)
        hands, seated = at.hands, at.seated
        record = np.zeros(RECORD_WIDTH, dtype=np.int64)
        turns = max(1, min(game.turn_limit - state.turns, left))  # a turn is one decision or more
        playout(t, at.dealer, hands, at.pile, at.stock, seated, at.seat, at.row, at.situation, at.play_cards, turns,
                left, rng.getrandbits(63), table.rates, table.policies, record)
        self.compiled += 1
        winner, loser = int(record[WINNER]), int(record[LOSER])
        if game.rules.first_out and winner >= 0:
            return 1.0 if winner == seat else -1.0 / (players - 1)
        if loser >= 0:
            return -1.0 if loser == seat else 1.0 / (players - 1)
        if not seated[seat]:  # out before the end: safe where the last holder loses (`standing`)
            return 1.0 / (players - 1)
        sizes = hands.sum(axis=1).tolist()
        return by_hands(sizes[seat], [sizes[s] for s in range(players) if s != seat and seated[s]])
