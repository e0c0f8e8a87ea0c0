"""The verifier's verdicts side by side, and which verdicts a house rule changes.

The verifier runs in a child process (`python -m cheatdsl verify --json`, whose output format is the
contract documented in `cheatdsl verify --help`), so that a crash or a hang there costs this command
a section, never the whole comparison. Its answer becomes one dict per rulebook:
`{property id: {"verdict": ..., "summary": ..., "expected": ..., "status": met|failed|pending}}`
("expected" and "status" only where the rulebook's `expect:` names the property).

Each verdict is shown beside that expectation: one the rulebook expects is a known property of the
game (a refutation too), one it does not expect stands out.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..properties import PROPERTY_IDS
from .grid import Row, Section

Verdicts = dict[str, dict[str, str]]
TIMEOUT_SECONDS = 600.0
TITLE = "Verifier verdicts"


def _environment() -> dict[str, str]:
    """The child's environment: this process's, with the directory holding `cheatdsl` first on the path."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    return env


def from_report(entry: Mapping[str, Any]) -> Verdicts | None:
    """One rulebook's entry of `verify --json` as {property: {verdict, summary, expected}}; None if not verified."""
    if "results" not in entry:
        return None
    out: Verdicts = {}
    for result in entry["results"]:
        out[str(result["id"])] = {"verdict": str(result["verdict"]), "summary": str(result.get("summary", ""))}
    for check in entry.get("expectations", []):
        pid = str(check.get("id"))
        if pid in out and check.get("expected"):
            out[pid]["expected"] = str(check["expected"])
            out[pid]["status"] = str(check.get("status", ""))
    return out


def _stdin_text(paths: list[str]) -> str | None:
    """The rulebook read from standard input, for the child, when `-` is among the paths."""
    if "-" not in paths:
        return None
    from ..syntax.reading import stdin_bytes
    return stdin_bytes().decode("utf-8", errors="replace")


def _run(command: list[str], timeout: float, cwd: str | None, stdin: str | None,
         tick: Callable[[], None] | None) -> str:
    """The child's standard output; `tick` is called while it runs. TimeoutExpired past `timeout`."""
    with subprocess.Popen(command, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_environment(),
                          cwd=cwd) as child:
        deadline = time.monotonic() + timeout
        while True:
            try:
                out, _ = child.communicate(stdin, timeout=0.1 if tick is not None else timeout)
                return out
            except subprocess.TimeoutExpired:
                stdin = None  # sent already: a second call may not send it again
                if time.monotonic() >= deadline:
                    child.kill()
                    child.communicate()
                    raise
                if tick is not None:
                    tick()


def _jobs(variations: list[tuple[str, ...]], workers: int) -> list[tuple[tuple[str, ...], list[int]]]:
    """The verifier runs to make: rulebooks grouped by the variations switched on, each group dealt out
    to at most `workers` children (rulebook i to child i mod k, so costly neighbours part)."""
    groups: dict[tuple[str, ...], list[int]] = {}
    for i, used in enumerate(variations):
        groups.setdefault(tuple(used), []).append(i)
    jobs = []
    for used, indexes in groups.items():
        k = max(1, min(workers, len(indexes)))
        jobs += [(used, indexes[j::k]) for j in range(k)]
    return jobs


def _workers() -> int:
    """Children to run at once: one per core, at most two (a third would only queue on a small machine)."""
    return max(1, min(2, os.cpu_count() or 1))


def reports(paths: list[str], variations: list[tuple[str, ...]], timeout: float = TIMEOUT_SECONDS,
            cwd: str | None = None, tick: Callable[[], None] | None = None, workers: int | None = None,
            ) -> tuple[list[Mapping[str, Any]] | None, str]:
    """Each rulebook's entry of `cheatdsl verify --json` (`variations[i]` switched on in `paths[i]`), or None and why not.

    Paths are read from `cwd` (the current directory by default), and printed as given; `-` is passed
    the rulebook read from standard input. `tick` is called while the verifier runs. The rulebooks are
    shared out to `workers` verifier processes running at once (default: one per core, at most two).
    """
    stdin = _stdin_text(paths)
    jobs = _jobs(variations, _workers() if workers is None else workers)

    def run(job: int) -> list[Mapping[str, Any]] | str:
        used, indexes = jobs[job]
        command = [sys.executable, "-m", "cheatdsl", "verify", "--format", "json"]
        for name in used:
            command += ["--variation", name]
        command += [paths[i] for i in indexes]
        given = stdin if "-" in (paths[i] for i in indexes) else None
        try:
            entries = json.loads(_run(command, timeout, cwd, given, tick if job == 0 else None))["rulebooks"]
        except subprocess.TimeoutExpired:
            return f"verifier unavailable: no answer within {timeout:g} s"
        except (OSError, ValueError, KeyError, TypeError):
            return "verifier unavailable: `cheatdsl verify --json` gave no report"
        if not isinstance(entries, list) or len(entries) != len(indexes):
            return "verifier unavailable: `cheatdsl verify --json` gave no report"
        return entries

    with ThreadPoolExecutor(max_workers=max(1, len(jobs))) as pool:
        answers = list(pool.map(run, range(len(jobs))))
    found: dict[int, Mapping[str, Any]] = {}
    for (_, indexes), answer in zip(jobs, answers):
        if isinstance(answer, str):
            return None, answer
        found.update(zip(indexes, answer))
    return [found[i] for i in range(len(paths))], ""


def collect(paths: list[str], variations: list[tuple[str, ...]], timeout: float = TIMEOUT_SECONDS,
            tick: Callable[[], None] | None = None) -> tuple[list[Verdicts | None] | None, str]:
    """Verdicts for each rulebook (`variations[i]` switched on in `paths[i]`), or None and why not."""
    entries, why = reports(paths, variations, timeout, tick=tick)
    if entries is None:
        return None, why
    return [from_report(entry) for entry in entries], ""


EXPECTED, UNEXPECTED = "expected", "unexpected"
NOTE = ("Each verdict is read against the rulebook's own `expect:`. \"as expected\" is a known property of "
        "the game, a refutation too (for example that play can go on for ever): the rules allow it, nothing "
        "is broken. \"expected X\" and \"not expected\" mark a verdict the rulebook does not expect.")


def reading(entry: Mapping[str, str] | None) -> str:
    """EXPECTED when the rulebook expects this verdict, UNEXPECTED when it contradicts `expect:` or is an unasked refutation."""
    if entry is None:
        return ""
    status = entry.get("status", "")
    if status == "met":
        return EXPECTED
    if status == "failed" or (entry.get("verdict") == "refuted" and not entry.get("expected")):
        return UNEXPECTED
    return ""


def cell(entry: Mapping[str, str] | None) -> str:
    """A verdict beside its expectation: `refuted, as expected`, `refuted (expected proved)`, `refuted (not expected)`."""
    if entry is None:
        return "-"
    verdict = entry.get("verdict", "?")
    expected, status = entry.get("expected", ""), entry.get("status", "")
    if status == "met":
        return f"{verdict}, as expected"
    if expected and status == "pending":
        return f"{verdict} (expected {expected}, pending)"
    if expected and (status == "failed" or expected != verdict):
        return f"{verdict} (expected {expected})"
    if verdict == "refuted" and not expected:
        return "refuted (not expected)"
    summary = entry.get("summary", "")
    if verdict == "unknown" and summary and len(summary) <= 30:
        return f"unknown ({summary})"
    return verdict


def _order(ids: set[str]) -> list[str]:
    return [p for p in PROPERTY_IDS if p in ids] + sorted(ids - set(PROPERTY_IDS))


def section(data: list[Verdicts | None] | None, note: str = "") -> Section:
    """The verdicts section: a row per property, a cell per rulebook; `data` None leaves only the note."""
    if data is None:
        return Section("verdicts", TITLE, note=note or "verifier unavailable")
    ids = set().union(*(set(d) for d in data if d is not None)) if data else set()
    rows = []
    for pid in _order(ids):
        entries = [None if d is None else d.get(pid) for d in data]
        rows.append(Row(pid, pid, tuple(cell(e) for e in entries),
                        tuple("" if e is None else e.get("summary", "") for e in entries),
                        tuple(reading(e) for e in entries),
                        tuple("-" if e is None else e.get("verdict", "?") for e in entries)))
    missing = sum(d is None for d in data)
    if missing and not note:
        note = f"{missing} rulebook{'s' if missing != 1 else ''} could not be verified"
    note = " ".join(p for p in (note, NOTE) if p)
    return Section("verdicts", TITLE, tuple(rows), note, data=tuple(data))


def _verdict_of(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, Mapping):
        v = value.get("verdict")
        return None if v is None else str(v)
    return str(value)


def changes(base: Mapping[str, Any], variant: Mapping[str, Any]) -> list[str]:
    """Sentences for every property whose verdict differs; values are verdicts or {"verdict": ...} dicts."""
    out = []
    for pid in _order(set(base) | set(variant)):
        before, after = _verdict_of(base.get(pid)), _verdict_of(variant.get(pid))
        if before == after:
            continue
        if before is None:
            out.append(f"{pid}: {after} (not verified for the base)")
        elif after is None:
            out.append(f"{pid}: no longer verified (was {before})")
        else:
            out.append(f"{pid}: {after}, was {before}")
    return out
