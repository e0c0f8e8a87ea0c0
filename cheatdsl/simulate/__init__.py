"""Many games between bots, and the statistics of the lot: `simulate(...)` returns a plain dict.

    simulate(rulebook, players, games, seed, bots=("greedy",), turn_cap=None, jobs=1, challenge_rate=0.15)

The keys: `games`, `finished`, `capped`, `stuck`, `unfinished`, `actions`, `plays`, `turns` (per game),
`turns_summary`, `challenges`, `forced_bluffs`, `pickups`, `decided`, `wins_by_seat`, `win_shares`,
`wins_by_position` (counted from the first player), `first_player`, and with a last-holder-loses
ending `losers_by_seat` and `loser_shares`; also the run's settings. `statistics(...)` is the form
`cheatdsl compare --simulate` calls.
"""

from .play import DEFAULT_TURN_CAP, GameRecord, game_seed, play_game
from .runner import DEFAULT_BOTS, seat_bots, simulate, statistics
from .summary import wilson

__all__ = ["DEFAULT_BOTS", "DEFAULT_TURN_CAP", "GameRecord", "game_seed", "play_game", "seat_bots", "simulate",
           "statistics", "wilson"]
