"""What a verifier run is asked to do (`Settings`) and what it has proved so far (`Caches`), both made by the
caller and passed down: runner -> properties -> analysis, transitions and counterexample searches.

No module of the verifier keeps either in a global: two runs in one process with different settings, or
one after another, see only what they were given.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from cheatdsl.simulate.engine import Engine

from .judging import Judging

HEAVY_SECONDS = 320.0  # the kill timer of a rulebook's heavy checks: a safety net past their own limits
SEARCHES = 1  # counterexample searches per property and rulebook, at the smallest counts that need one
EFFORT = 1.0  # scales every counterexample search's resource limit (`--search-effort`)


@dataclass(frozen=True)
class Settings:
    """A run's settings: `searches` per property and rulebook (`--searches`), the search `effort` that scales
    each search's resource limit (`--search-effort`), and the wall-clock `time_limit` of a rulebook's heavy
    checks together (`--time-limit`). `engine` (`--engine`): PYTHON keeps the verifier's games played by bots
    on the interpreter; AUTO adds games on the compiled kernel where those show nothing (`compiled_games`).
    `helper`: whether the heavy checks of a rulebook may fork a second process for its larger player counts
    (the runner allows it where a core is free; the results are the same). `judging`: where the exhaustive
    judge decides the properties of play instead (`verifier.exhaustive`; `--exhaustive`, `--exhaustive-budget`)."""

    searches: int = SEARCHES
    effort: float = EFFORT
    time_limit: float = HEAVY_SECONDS
    helper: bool = False
    engine: Engine = Engine.AUTO
    judging: Judging = Judging()

    def __post_init__(self) -> None:
        # The command line's bounds, kept for callers that build settings themselves.
        object.__setattr__(self, "searches", max(0, int(self.searches)))
        object.__setattr__(self, "effort", max(0.01, float(self.effort)))


DEFAULT = Settings()

Shared = tuple[dict[Any, Any], dict[str, Any]]  # (verdicts found, invariants and recurrent sets made)


@dataclass
class Caches:
    """What the heavy checks learn while verifying, kept so that later work at the same table need not redo it.

    `known`: verdicts at one player count by (property, spec hash), found by rulebooks verified before (read
    only); `found`: those found by this run, to share. `invariants` and `recurrent`: proofs by table, with
    `adopted` naming the tables whose proofs came from another process; `analyses`: an analysis's computed
    parts by (label, spec); `whole_sets`: the discard query's answers by the facts of the spec it reads.

    None of these depends on the settings but `analyses` (its searches do): the runner gives each rulebook's
    heavy checks a copy and takes back only the verdicts and proofs, so a caller's caches can serve runs with
    different settings."""

    known: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    found: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    invariants: dict[Any, Any] = field(default_factory=dict)
    recurrent: dict[Any, Any] = field(default_factory=dict)
    adopted: set[Any] = field(default_factory=set)
    analyses: dict[tuple[str, Any], Any] = field(default_factory=dict)
    whole_sets: dict[tuple[Any, ...], bool | str] = field(default_factory=dict)

    def copy(self) -> Caches:
        """A copy whose dicts and sets are new (their entries shared): filling it leaves this one as it is."""
        return Caches(*(copy.copy(getattr(self, name)) for name in self.__dataclass_fields__))

    def made_here(self) -> dict[str, dict[Any, Any]]:
        """The invariants and recurrent sets proved with these caches (not adopted), as plain data for `adopt`.

        Each depends on its table alone (proved in a Z3 context of its own), so a rulebook verified later that
        meets the same table may take it instead of proving it again, with the same verdicts."""
        from .analysis import plain
        return {"invariants": {k: plain(v) for k, v in self.invariants.items() if k not in self.adopted},
                "recurrent": {k: v for k, v in self.recurrent.items() if k not in self.adopted}}

    def adopt(self, found: dict[Any, Any], made: dict[str, dict[Any, Any]]) -> None:
        """Verdicts and proofs another process found (`found`, `made_here`), for the rulebooks verified with these
        caches from now on."""
        self.known.update(found)
        for key, inv in made.get("invariants", {}).items():
            self.adopted.add(key)
            self.invariants.setdefault(key, inv)
        for key, rec in made.get("recurrent", {}).items():
            self.adopted.add(key)
            self.recurrent.setdefault(key, rec)
