"""Whether and how far the exhaustive judge searches (`verifier.exhaustive`): part of a run's `Settings`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

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
