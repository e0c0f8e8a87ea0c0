"""A state's position for the judge: the interpreter's `State.position`, with what the rules read settled
once per game (the turn count where a turn cap reads it, who was dealt each card where a formula read in
play asks), and the deal's first player where the judge counts seats from it; with `turns`, the key of the
position's turn round the table (`rotation.least_turn`) and how far the state is turned to it."""

from __future__ import annotations

from typing import Any

from cheatdsl.derived import NO_CAP
from cheatdsl.engine import Game, State

from .deals import reads_deal_in_play
from .rotation import least_turn


class Positions:
    """The position of each state of one game."""

    def __init__(self, game: Game, origin: bool = False, turns: bool = False) -> None:
        self.turns = game.turn_limit != NO_CAP
        self.holders = reads_deal_in_play(game)
        # With `origin`, two states of deals with different first players are different positions.
        self.origin = origin
        # With `turns`, states that are one another turned round the table are one position (`key`).
        self.turning = turns
        self.players = game.players

    def of(self, st: State, first: int) -> tuple[Any, ...]:
        return (st.position(self.turns, self.holders), first if self.origin else -1)

    def key(self, st: State, first: int) -> tuple[tuple[Any, ...], int]:
        """The state's key in the judge's search and how many places round the table the state is turned to it
        (0 without `turns`: the key is the position)."""
        if not self.turning:
            return self.of(st, first), 0
        return least_turn(st.position(self.turns, self.holders), first if self.origin else -1, self.players)
