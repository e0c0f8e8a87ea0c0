"""The verifier in this process: the calls `cheatdsl verify`, compare, diff, sweep and explore make.

Each call takes the run's `Settings` (searches, search effort, time limit) and, optionally, `Caches` to start
from and fill: a caller verifying one rulebook after another (a sweep) passes the same caches to each call,
so that verdicts found at a table are not worked out again. The heavy checks still run in worker processes
with a kill timer (`runner.py`), so a hang there costs a verdict (`unknown`), never the caller.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from cheatdsl.model import Rulebook

from .properties.firing import dead_rules
from .properties.settings import DEFAULT, Caches, Settings
from .report import Report, RulebookReport
from .runner import Timed, verify_all

Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class Request:
    """A rulebook to verify: the properties asked for (None: every one) at these player counts (None: all)."""

    rulebook: Rulebook
    properties: tuple[str, ...] | None = None
    counts: tuple[int, ...] | None = None


def verify(rulebook: Rulebook, settings: Settings = DEFAULT, properties: Iterable[str] | None = None,
           counts: tuple[int, ...] | None = None, caches: Caches | None = None) -> list[Timed]:
    """Every property asked for of `rulebook` (all by default), in the project's order."""
    return verify_many([Request(rulebook, None if properties is None else tuple(properties), counts)],
                       settings, caches)[0]


def verify_many(requests: Sequence[Request], settings: Settings = DEFAULT, caches: Caches | None = None,
                progress: Progress | None = None) -> list[list[Timed]]:
    """Each request's results, in order; the rulebooks are verified side by side (one worker per core).

    `progress(done, total, label)` is called as properties finish."""
    return verify_all([(r.rulebook, r.properties, r.counts) for r in requests], settings, caches,
                      progress=progress)


def verify_files(paths: Sequence[str], variations: Sequence[tuple[str, ...]], settings: Settings = DEFAULT,
                 cwd: str | None = None, progress: Progress | None = None) -> Report:
    """The report `cheatdsl verify` makes of each file (`variations[i]` switched on in `paths[i]`), an entry
    each, in order: a file that does not compile, or is a scenario, has an entry with its error.

    Relative paths are read from `cwd` (the current directory by default) and named as given."""
    from cheatdsl.load import compile_rulebook
    from cheatdsl.profiles import shown_path
    from cheatdsl.scenario.files import is_scenario_file

    report = Report()
    requests: list[Request] = []
    entries: list[RulebookReport] = []
    for path, used in zip(paths, variations):
        full = path
        if cwd is not None and path != "-" and not os.path.isabs(path) and os.path.exists(os.path.join(cwd, path)):
            full = os.path.join(cwd, path)
        shown = "<stdin>" if path == "-" else (shown_path(path) if full == path else path)
        if path != "-" and is_scenario_file(full):
            report.rulebooks.append(RulebookReport(shown, error="a scenario, not a rulebook"))
            continue
        rulebook, d = compile_rulebook(full, used, lints=False)
        if rulebook is None:
            report.rulebooks.append(RulebookReport(shown, error=f"{len(d.errors)} error(s) in the rulebook"))
            continue
        report.rulebooks.append(RulebookReport(shown, rulebook))
        entries.append(report.rulebooks[-1])
        requests.append(Request(rulebook))
    caches = Caches()  # the invariants the workers prove come back here, for the rule checks below
    for entry, timed in zip(entries, verify_many(requests, settings, caches, progress=progress)):
        entry.timed = timed
        assert entry.rulebook is not None
        entry.warnings = dead_rules(entry.rulebook, settings=settings, caches=caches)
    return report


__all__ = ["Caches", "Report", "Request", "RulebookReport", "Settings", "Timed", "dead_rules", "verify",
           "verify_files", "verify_many"]
