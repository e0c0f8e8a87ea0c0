"""Figures of a simulation that the bots' habits drive more than the rules: flagged, in words.

The simulation's bots (`honest` above all) challenge by their own rules whatever the table has shown them. Where
those rules fit the rulebook badly the figures say more about the bots than about the game: a catch rate under
CATCH_FLOOR (they call out of habit, and the calls rarely catch anything), or more than CAPPED_CEILING of the
games stopped by the turn cap (the bots go round without ending the game). A report names each such figure.
"""

from __future__ import annotations

from .stats import Statistics

CATCH_FLOOR = 0.05
CAPPED_CEILING = 0.10
FEWEST_CHALLENGES = 20  # below this many challenges a catch rate says nothing either way


def artefacts(stats: Statistics, capped: bool = True) -> list[str]:
    """Each figure of `stats` that the bots' habits drive, in a sentence (none where the figures look sound);
    without `capped`, not the games stopped by the turn cap (for a report that tells of them already)."""
    out = []
    c = stats.challenges
    if c.total >= FEWEST_CHALLENGES and c.caught_share < CATCH_FLOOR:
        out.append(f"only {100 * c.caught_share:.1f}% of the {c.total:,} challenges caught a lie: the bots call out "
                   "of habit under these rules, so the challenge figures and the games' length show the bots more "
                   "than the rules")
    if capped and stats.games and stats.capped / stats.games > CAPPED_CEILING:
        out.append(f"{100 * stats.capped / stats.games:.0f}% of the games stopped at the turn cap: the bots go "
                   "round without ending them, so the win shares count the rest only and the length is the cap's")
    return out
