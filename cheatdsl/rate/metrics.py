"""What a table of strong bots shows about a rulebook, in the words Ludii uses where the idea is the same.

Positions count from the first player (0 is the seat that played first), so a seat's advantage is its
place in the turn order whoever deals. A position's share is its share of the good result: the win in
first-out games; in last-holder-loses games, not losing, divided among the seats that did not lose, so
every position's fair share is 1/N either way.

- `completion` (Ludii's Completion): the share of games that came to an end by the rules.
- `duration` (Ludii's DurationTurns): plays and passes in a game, over every game played.
- `balance` (Ludii's Balance): one less the largest difference between two positions' shares.
- `decisiveness` (Ludii's Decisiveness Moves, with the hand counts as the state evaluation): over the
  decided games, the share of the game played before the eventual winner held strictly the fewest
  cards for good (in last-holder-loses games, the eventual loser strictly the most): 1 when the
  result shows only at the end, near 0 when it shows from the deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .matches import Match


class TableFigures(NamedTuple):
    """The figures of one sample of games."""

    shares: tuple[float, ...]   # by position from the first player
    completion: float
    duration: float
    balance: float
    decisiveness: float


def position_shares(matches: Sequence[Match], players: int) -> tuple[float, ...]:
    """Each position's share of the good result over the decided games (1/N each when none is decided)."""
    good = [0.0] * players
    decided = 0
    for m in matches:
        if m.first < 0 or not m.decided:
            continue
        decided += 1
        if m.winner >= 0:
            good[(m.winner - m.first) % players] += 1.0
        else:
            for p in range(players):
                if p != (m.loser - m.first) % players:
                    good[p] += 1.0 / (players - 1)
    if not decided:
        return tuple(1.0 / players for _ in range(players))
    return tuple(k / decided for k in good)


def figures(matches: Sequence[Match], players: int) -> TableFigures:
    """The table's figures over `matches` (at least one)."""
    shares = position_shares(matches, players)
    decided = [m for m in matches if m.decided and m.turns > 0]
    return TableFigures(
        shares,
        sum(m.ended for m in matches) / len(matches),
        sum(m.turns for m in matches) / len(matches),
        1.0 - (max(shares) - min(shares)),
        sum(m.settled / m.turns for m in decided) / len(decided) if decided else float("nan"),
    )
