"""Whether and how far the exhaustive judge searches (`verifier.exhaustive`): part of a run's `Settings`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from cheatdsl.jobs import free_memory

AUTO_BUDGET = 100_000  # states explored at most per table where the judge runs unasked
FORCED_BUDGET = 1_000_000  # the default budget of `verify --exhaustive`


class Mode(Enum):
    """When the judge runs: never, where a table is small enough (AUTO), or at every table (ALWAYS)."""

    NEVER = "never"
    AUTO = "auto"
    ALWAYS = "always"


@dataclass(frozen=True)
class Judging:
    """The judge's mode and the most states it explores at one table."""

    mode: Mode = Mode.AUTO
    budget: int = AUTO_BUDGET


# What one explored state holds in memory at most, measured (docs/soundness.md): its position, its place in
# the search tree and its share of the search's path.
BYTES_PER_STATE = 2_048


def states_memory_holds(free: int | None = None) -> int | None:
    """The most states a search may keep in half the memory free now (None where the machine does not say)."""
    free = free_memory() if free is None else free
    return None if free is None else max(1, free // 2 // BYTES_PER_STATE)
