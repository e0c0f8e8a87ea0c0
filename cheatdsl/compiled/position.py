"""A Python engine's state at a turn's start as the arrays the kernel plays on from (`kernel.playout`,
`kernel.play_logged_from`): the search bot's playouts and the replay check from the Python engine's deal."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..engine import State
from ..engine.challenge import turned_over


class TurnStart(NamedTuple):
    """The kernel's view of a table at a turn's start (seats and card values numbered as in the engine)."""

    dealer: int
    hands: np.ndarray       # int64[seat, face]: each hand's cards by value
    pile: np.ndarray        # int64[face]: the pile's cards by value
    stock: np.ndarray       # int64[]: the stock, top card first
    seated: np.ndarray      # bool[seat]: the seats still in
    seat: int               # the seat to play
    row: int                # the row of the kernel's `claims` holding the claims required
    situation: np.ndarray   # the turn's other facts (common.LEADING ... LIE)
    play_cards: np.ndarray  # the last play's cards by value


def turn_start(state: State, values: int, faces: int) -> TurnStart:
    """`state` (a turn's start: the play phase) as the kernel's arrays; `values` claim values and `faces` card
    values (the claims', then the joker where the deck has jokers)."""
    players = state.game.players
    pile = np.zeros(faces, dtype=np.int64)
    for card in state.pile_cards():
        pile[card] += 1
    situation, play_cards = _situation(state, faces)
    return TurnStart(state.dealer or 0, np.array([state.hand(s)[:faces] for s in range(players)], dtype=np.int64),
                     pile, np.array(state.stock(), dtype=np.int64), np.array(state.seating, dtype=np.bool_),
                     state.to_act, _row(state, values), situation, play_cards)


def _row(state: State, values: int) -> int:
    """The row of the kernel's `claims` that holds the claims `state` requires of the seat to play."""
    previous = state.previous
    if previous is None:  # the first claim, or a lead with nothing claimed after every seat passed
        return values if state.required == state.game.rules.first_claims else 2 * values + 1
    return values + 1 + previous if state.leading else previous


def _situation(state: State, faces: int) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's `situation` at `state`'s turn (common.LEADING ... LIE) and the last play's cards by value
    (`faces` of them: the claims' values, then the joker where the deck has jokers)."""
    from .common import CALLED, CLAIM, CLAIMANT, COUNT, LAST_PLAYER, LEADING, LIE, OPEN, PASSES, SITUATION
    situation = np.zeros(SITUATION, dtype=np.int64)
    play_cards = np.zeros(faces, dtype=np.int64)
    situation[LEADING] = state.leading
    situation[PASSES] = state.passes
    situation[LAST_PLAYER] = -1 if state.last_player is None else state.last_player
    situation[OPEN] = state.window_open
    situation[CLAIMANT] = -1
    plays = state.pile_plays()
    if plays and plays[-1][0] is not None:  # the last play is still on the pile (else its window is closed)
        seat, cards, claim, count, _ = plays[-1]
        for card in cards:
            play_cards[card] += 1
        situation[CLAIMANT] = seat
        situation[CLAIM], situation[COUNT], situation[CALLED] = claim, len(cards), count
        situation[LIE] = turned_over(state.game.rules, cards, claim, count)[1]
    return situation, play_cards
