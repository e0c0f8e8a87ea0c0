"""How big a sweep or an explore is before it starts: its cells, games and verified cells, and a rough time.

Counting compiles each rulebook once (for its variations and player counts), never each combination,
so a rulebook with 14 variations (16,384 combinations) is sized at once. A spec over the limits below
runs only with --force (docs/cli.md, "Long work").
"""

from __future__ import annotations

from dataclasses import dataclass

from .cells import combinations, compiled_base, player_counts
from .spec import Spec

GAME_SECONDS = 0.002
"""One simulated game of a shipped rulebook, in seconds (`cheatdsl simulate standard --games 2000`
took 4.2 s, start-up included, on a loaded 2-core machine)."""
VERIFIED_PROPERTY_SECONDS = 0.05
"""One property of one cell through the verifier, in seconds: every property of a shipped rulebook at one player
count took 0.4 to 0.8 s (`cheatdsl verify standard -n 4`, start-up included, on a loaded 2-core machine), and a
cell is cut short at `verify --time-limit`."""
RATED_GAME_SECONDS = 0.3
"""One game of the rating ladder (`rate:`), in seconds: its search bots make it dear (60 ladder games of a
shipped profile at four seats took 14 to 44 s on a 2-core machine; docs/ratings.md)."""
UNFORCED_CELLS = 1_000
UNFORCED_SECONDS = 3_600.0


@dataclass(frozen=True)
class Size:
    """A sweep's cells (clashing combinations included), the games it simulates and the cells it verifies."""

    cells: int
    games: int
    verified: int
    rated_games: int = 0  # games of the rating ladder, over every rated cell
    properties: int = 16  # the properties each verified cell checks

    def seconds(self, jobs: int = 1) -> float:
        """A rough wall-clock estimate with `jobs` cells side by side."""
        return (self.games * GAME_SECONDS + self.verified * self.properties * VERIFIED_PROPERTY_SECONDS
                + self.rated_games * RATED_GAME_SECONDS) / max(jobs, 1)

    def words(self, jobs: int = 1) -> str:
        """The size in a line: `16,384 cells (0 games, 16,384 verified): about 1.9 days with 1 job`, with the
        ladder's games where cells are rated (`..., 240 rating games): ...`)."""
        cells = f"{self.cells:,} cell{'s' if self.cells != 1 else ''}"
        rated = f", {self.rated_games:,} rating games" if self.rated_games else ""
        return (f"{cells} ({self.games:,} games, {self.verified:,} verified{rated}): "
                f"about {duration(self.seconds(jobs))} with {jobs} job{'s' if jobs != 1 else ''}")

    def too_big(self, jobs: int = 1) -> str | None:
        """Why the run needs --force (over 1,000 cells or an estimated hour), or None."""
        if self.cells > UNFORCED_CELLS:
            return f"it has over {UNFORCED_CELLS:,} cells"
        if self.seconds(jobs) > UNFORCED_SECONDS:
            return f"it is estimated at over {duration(UNFORCED_SECONDS)}"
        return None


def duration(seconds: float) -> str:
    """Seconds in the largest unit that reads well: 40 s, 12 min, 3.5 h, 1.9 days."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def size_of(spec: Spec) -> Size:
    """The spec's size, from each rulebook as written (a combination changing the player counts it
    allows may make the real count differ a little; a bot mix that does not fit is counted all the same).
    SpecError, as `expand` raises it, for a rulebook that cannot be found or compiled."""
    cells = games = verified = rated = 0
    for reference in spec.rulebooks:
        _, base = compiled_base(reference, spec.folder)
        offered = tuple(v.name for v in base.variations)
        if spec.variations == "all":
            combos = 2 ** len(offered)
        else:
            combos = len(combinations(spec.variations, offered))
        counts = len(player_counts(spec.players, base.players.min, base.players.max)) if spec.players else 1
        mixes = len(spec.bots) if spec.games and spec.players is not None else 1
        here = combos * max(counts, 1) * mixes
        cells += here
        if spec.games and spec.players is not None:
            games += here * spec.games
        if spec.verify:
            verified += combos * max(counts, 1)
        if spec.rate and spec.players is not None:
            rated += here * spec.rate
    return Size(cells, games, verified, rated, len(spec.verify or ()))
