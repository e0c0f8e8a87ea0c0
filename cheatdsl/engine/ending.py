"""Why a game is over, as a value programs compare (the engine also says it in words)."""

from __future__ import annotations

from enum import Enum


class Ending(Enum):
    """Why a game is over: two that finish it by the rules, three that stop it unfinished."""

    WON = "won"                            # a seat went out and won (first-out games)
    LAST_HOLDER = "last holder"            # one seat is left holding cards and loses
    TURN_CAP = "turn cap"                  # stopped: the turn cap was reached
    NO_LEGAL_ACTION = "no legal action"    # stopped: the seat to play has nothing it may do
    NO_FIRST_PLAYER = "no first player"    # stopped: the rules name nobody to play first

    @property
    def finished(self) -> bool:
        """Whether the rules ended the game (rather than the table stopping it)."""
        return self in (Ending.WON, Ending.LAST_HOLDER)
