"""The judge's witnesses: a path of the exploration, played again from a seeded deal.

The judge reaches a state from a deal it enumerated (`deals.every_deal`); a witness must start from a deal
anyone can make again, so the seed whose shuffle deals the same table is looked for (seeds from 0 up; a
small deck has few distinct deals, so one comes soon). The path's actions are then applied to that seeded
deal by the interpreter, and the witness is kept only where they reach the same position: the scenario
`verify --save-witnesses` writes replays the same game.
"""

from __future__ import annotations

from typing import Any

from cheatdsl.engine import Action, Game, IllegalAction, State

from ..properties.witness import Witness, dealt, steps_text
from .deals import Deal
from .positions import Positions

# Seeds tried at most for one deal (a deck with fewer distinct deals than this almost always has one).
SEEDS = 50_000


def seed_of(game: Game, deal: Deal, seeds: int = SEEDS) -> int | None:
    """A shuffle seed that deals the same table as `deal` (with its dealer), or None within `seeds` tries."""
    positions = Positions(game)
    want = positions.of(deal.state, -1)
    for seed in range(seeds):
        st = dealt(game, seed, deal.dealer)
        if positions.of(st, -1) == want:
            return seed
    return None


def replayed(game: Game, seed: int, dealer: int | None, moves: list[tuple[int, Action]]) -> State | None:
    """The state the moves reach from the seeded deal, or None where the interpreter refuses one."""
    st = dealt(game, seed, dealer)
    try:
        for _, action in moves:
            st.apply_action(action)
    except IllegalAction:
        return None
    return st


def witness(pid: str, game: Game, deal: Deal, moves: list[tuple[int, Action]], expect: dict[str, Any],
            summary: str, checkpoints: dict[int, dict[str, Any]] | None = None,
            seeds: int = SEEDS) -> Witness | str:
    """The witness of `pid`: the path `moves` from `deal`, started from a seed that deals it; or why there is
    none (no seed found, or the replay did not reach the same position)."""
    seed = seed_of(game, deal, seeds)
    if seed is None:
        return f"no shuffle seed below {seeds:,} deals the table this game starts from"
    end = replayed(game, seed, deal.dealer, moves)
    if end is None:
        return "the game did not replay from the seeded deal"
    steps: list[Any] = []
    for i, move in enumerate(moves):
        if checkpoints and i in checkpoints:
            steps.append({"expect": checkpoints[i]})
        steps.append(move)
    start: dict[str, Any] = {"seed": seed}
    if deal.dealer is not None:
        start["dealer"] = deal.dealer
    return Witness(pid, game.players, start, steps_text(game, steps), expect, [], summary)
