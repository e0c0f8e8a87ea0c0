"""A rulebook played in the terminal against the project's bots, as the practice table of seed 003 shows it.

    console = Console(input, print)
    play_game(Game(rulebook, 3), console, seed=7, seat=None, bots=["honest"])

`words` is the table talk shared with the golden playthroughs; `human` reads your answers,
`opponents` seats the bots, `table` runs the game and tells what happened.
"""

from .console import Console, Quit
from .opponents import Opponent, make_opponent
from .table import Table, play_game

__all__ = ["Console", "Opponent", "Quit", "Table", "make_opponent", "play_game"]
