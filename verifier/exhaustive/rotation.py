"""Seat rotation, the judge's second symmetry: where every seat is alike, one position of each turn of the table.

Where no formula read in play names a seat by its number (`seat(k)`: the rules then read seats only relative to
one another, the dealer, the claimant, the seat to play), turning a state round the table turns every game from
it the same way: the state k places along has the same games, k places along. The judge then keeps one position
of each turn (the least of the turned positions, `engine.turning.turned`) and explores the state it met first;
a state met again turned is not explored again, but the step to it is kept with how far it is turned
(`Exploration.turned_steps`), so that which seat wins a game, and the game itself, can be read back for every
seat (`seat_games`). Properties that do not name a seat (a cycle, a lost card, a seat with no legal action, the
largest claim judged true, seat fairness counted from each deal's first player) read the same either way.

The deal needs no such condition: every deal the rules make is explored (a deal turned is another deal only where
the dealer is drawn by lot), so what was met of a deal's games is met turned as far as it is turned, and no
further: the turns a state is reached at are worked out along the steps, never assumed.
"""

from __future__ import annotations

from typing import Any

from cheatdsl.engine import Action, ChanceCaller, Game
from cheatdsl.engine.turning import turned


def seats_alike(game: Game) -> bool:
    """Whether every rule read in play reads seats only relative to one another: no formula of the turn (who plays
    after a challenge, who leads after everyone passed, when a seat may pass, a win at a turn's start) names a seat
    by its number."""
    rules = game.rules
    formulas = (rules.next_player, rules.all_pass_leader, rules.pass_when, rules.turn_start_win)
    return game.players > 1 and not any(f is not None and "seat(" in f.canonical for f in formulas)


def worth_turning(game: Game) -> bool:
    """Whether the judge explores one state of each turn by default: where every seat is alike and the dealer is
    drawn by lot, so that every deal comes with each of its turns (a deal dealt by the next dealer is the same deal
    turned one place), and the search meets each state about once for every seat. With a fixed dealer a state is
    rarely met turned, and working out its turns would only slow the search."""
    return seats_alike(game) and game.rules.dealer_by_lot


def least_turn(position: tuple[Any, ...], first: int, players: int) -> tuple[tuple[Any, ...], int]:
    """The key of the turn of `position` (with `first`, a seat or -1, turned alike) and how far it is turned to it:
    of its turns 0..players-1 places round, the one whose hands come first, and of those whose hands are alike
    (hands that repeat round the table), the least position. The same key for every state of the turn."""
    turns = range(players)
    if position[0] != "over":
        hands = position[3]
        by_hands = [tuple(hands[(i - k) % players] for i in range(players)) for k in turns]
        least = min(by_hands)
        turns = [k for k in turns if by_hands[k] == least]  # type: ignore[assignment]
    best: tuple[Any, ...] | None = None
    at = 0
    for k in turns:
        key = (turned(position, players, k), first if first < 0 else (first + k) % players)
        if best is None or key < best:
            best, at = key, k
    assert best is not None
    return best, at


def turned_action(action: Action, players: int, k: int) -> Action:
    """`action` taken at a state turned `k` places: the seat the lot picks (the only action naming a seat in play)
    turned alike."""
    if isinstance(action, ChanceCaller):
        return ChanceCaller((action.seat + k) % players)
    return action


def turned_move(seat: int, action: Action, players: int, k: int) -> tuple[int, Action]:
    """A move of a path (the seat acting, or CHANCE, and its action) made at a state turned `k` places."""
    return (seat if seat < 0 else (seat + k) % players), turned_action(action, players, k)
