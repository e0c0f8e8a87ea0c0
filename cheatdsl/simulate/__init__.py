"""Many games between bots, and the statistics of the lot as values (`stats.Statistics`).

    simulate(rulebook, players, games, seed, bots=("honest",), turn_cap=None, jobs=1, challenge_rate=0.15)

The statistics: games finished, capped and stuck, actions, plays, turns per game (summary and
histogram), challenges, forced bluffs, pickups, wins by seat and counted from the first player with
their shares, the first player's advantage, and in a last-holder-loses game the loser by seat; also
the run's settings. `Statistics.as_json()` is the JSON `cheatdsl simulate --format json` prints.
"""

from ..tally import GameRecord
from .play import DEFAULT_TURN_CAP, game_seed, play_game
from .runner import DEFAULT_BOTS, seat_bots, simulate
from .stats import Settings, Statistics
from .summary import wilson

__all__ = ["DEFAULT_BOTS", "DEFAULT_TURN_CAP", "GameRecord", "Settings", "Statistics", "game_seed", "play_game",
           "seat_bots", "simulate", "wilson"]
