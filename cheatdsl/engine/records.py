"""What a game leaves on record: how it ended, and each challenge as the table saw it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from .ending import Ending

PileEntry = tuple  # (seat | None, cards, claim | None, count, emptied the hand)


class RuleGap(Enum):
    """A gap in the rules a game met, filled by the interpreter so that play goes on."""

    NEXT_PLAYER = "next_player"  # `challenge.next_player` named no seat: the claimant plays next
    ALL_PASS_LEADER = "all_pass_leader"  # `passing.all_pass_leader` named no seat: the last seat to play leads
    LEAD = "lead"  # a new round began where `claim.lead` allows no claim after the last one


@dataclass(frozen=True)
class Result:
    """How a finished game ended; `reason` says it in words for people, `ending` for programs."""

    winner: int | None
    order_out: tuple[int, ...]
    loser: int | None
    capped: bool
    reason: str
    ending: Ending


class RevealRecord(NamedTuple):
    """A challenge, in public: what was turned over, the verdict, who lost and how many cards they got.

    `taken` counts every card the loser got; `pile_taken`, those of them that came from the pile
    because the stock ran short (`challenge.penalty.short_stock: take_pile`); `paid` is false for a wrong call
    that cost the challenger nothing (`challenge.penalty.failed_call: free`).
    """

    kind: str
    claimant: int
    challenger: int
    claim: int
    count: int  # type: ignore[assignment]  # a field named like tuple.count, read as record.count
    revealed: tuple[int, ...]
    caught: bool
    loser: int
    taken: int
    pile: tuple[int, ...] | None
    pile_taken: int = 0
    paid: bool = True
