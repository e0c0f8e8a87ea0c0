"""The judge's witnesses: a path of the exploration, played again from a deal by the rules.

The judge reaches a state from a deal it enumerated (`deals.every_deal`, the deck in some order dealt by
the interpreter). The witness starts from the seed whose shuffle deals the same table where one turns up
among the first few thousand (a small deck has few distinct deals), else from that deck order itself (a
scenario's `deck:`, dealt by the rules as a shuffled deck is). The path's actions are then applied to that
deal by the interpreter, and the witness is kept only where they reach the same position: the scenario
`verify --save-witnesses` writes replays the same game.
"""

from __future__ import annotations

from typing import Any

from cheatdsl.engine import Action, Game, IllegalAction, State
from cheatdsl.words.notation import deck_card_text

from ..properties.witness import Witness, dealt, dealt_in_order, steps_text
from .deals import Deal
from .positions import Positions

# Seeds tried at most for one deal (a deck with fewer distinct deals than this almost always has one).
SEEDS = 5_000


def seed_of(game: Game, deal: Deal, seeds: int = SEEDS) -> int | None:
    """A shuffle seed that deals the same table as `deal` (with its dealer), or None within `seeds` tries."""
    positions = Positions(game)
    want = positions.of(deal.state, -1)
    for seed in range(seeds):
        st = dealt(game, seed, deal.dealer)
        if positions.of(st, -1) == want:
            return seed
    return None


def _start(game: Game, seed: int | None, deal: Deal) -> State:
    if seed is not None:
        return dealt(game, seed, deal.dealer)
    return dealt_in_order(game, deal.dealer, list(deal.order))


def replayed(game: Game, seed: int | None, deal: Deal, moves: list[tuple[int, Action]]) -> State | None:
    """The state the moves reach from the deal (by its seed, or else its deck order), or None where the
    interpreter refuses one."""
    st = _start(game, seed, deal)
    try:
        for _, action in moves:
            st.apply_action(action)
    except IllegalAction:
        return None
    return st


def witness(pid: str, game: Game, deal: Deal, moves: list[tuple[int, Action]], expect: dict[str, Any],
            summary: str, checkpoints: dict[int, dict[str, Any]] | None = None,
            seeds: int = SEEDS) -> Witness | str:
    """The witness of `pid`: the path `moves` from `deal`, started from a seed that deals it (or its deck
    order); or why there is none (the replay did not reach the same position)."""
    seed = seed_of(game, deal, seeds)
    end = replayed(game, seed, deal, moves)
    if end is None:
        return "the game did not replay from its deal"
    steps: list[Any] = []
    for i, move in enumerate(moves):
        if checkpoints and i in checkpoints:
            steps.append({"expect": checkpoints[i]})
        steps.append(move)
    start: dict[str, Any] = {"seed": seed} if seed is not None else {
        "deck": [deck_card_text(game, game.rules.table.deck[p]) for p in deal.order]}
    if deal.dealer is not None:
        start["dealer"] = deal.dealer
    return Witness(pid, game.players, start, steps_text(game, steps), expect, [], summary)
