"""Ratings: a ladder of bots played on one rulebook, a Plackett-Luce fit, and what the games show.

    report = rate(rulebook, players=4, games=240, seed=0)
    report.skill_index, report.ratings, report.first_player_advantage, report.as_json()
"""

from .entrants import LADDER, Entrant
from .ladder import DEFAULT_GAMES, Estimate, Rating, rate

__all__ = ["DEFAULT_GAMES", "LADDER", "Entrant", "Estimate", "Rating", "rate"]
