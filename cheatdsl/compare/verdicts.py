"""The verifier's verdicts side by side, and which verdicts a house rule changes.

The verifier runs in this process through its API (`verifier.api.verify_files`), which gives each rulebook
the entry `cheatdsl verify --json` prints (the format documented in `cheatdsl verify --help`); its heavy
checks run in worker processes with a kill timer, and a failure of the verifier costs this command a
section, never the whole comparison. Each entry becomes one dict per rulebook:
`{property id: {"verdict": ..., "summary": ..., "expected": ..., "status": met|failed|pending}}`
("expected" and "status" only where the rulebook's `expect:` names the property).

Each verdict is shown beside that expectation: one the rulebook expects is a known property of the
game (a refutation too), one it does not expect stands out.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ..properties import PROPERTY_IDS
from .grid import Row, Section

Verdicts = dict[str, dict[str, str]]
TIMEOUT_SECONDS = 600.0
TITLE = "Verifier verdicts"


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


def reports(paths: list[str], variations: list[tuple[str, ...]], timeout: float = TIMEOUT_SECONDS,
            cwd: str | None = None, progress: Callable[[int, int, str], None] | None = None,
            ) -> tuple[list[Mapping[str, Any]] | None, str]:
    """Each rulebook's entry of `cheatdsl verify --json` (`variations[i]` switched on in `paths[i]`), or None and why not.

    Paths are read from `cwd` (the current directory by default), and printed as given; `-` is the rulebook
    read from standard input. `progress(properties done, of all, label)` is called as the verifier goes. `timeout` bounds the seconds each
    rulebook's heavy checks may take together (the verifier's own limit when that is less); a check cut
    short reads `unknown`.
    """
    from verifier.api import Settings, verify_files
    from verifier.properties.settings import HEAVY_SECONDS

    settings = Settings(time_limit=min(timeout, HEAVY_SECONDS))
    try:
        report = verify_files(paths, variations, settings, cwd, progress)
        # As printed: JSON's keys are text (a witness's seats, for one).
        return [json.loads(json.dumps(entry.as_json(), ensure_ascii=False)) for entry in report.rulebooks], ""
    except Exception as exc:  # noqa: BLE001 - the verifier's failure costs the section, not the comparison
        return None, f"verifier unavailable: {type(exc).__name__}: {exc}"


def collect(paths: list[str], variations: list[tuple[str, ...]], timeout: float = TIMEOUT_SECONDS,
            progress: Callable[[int, int, str], None] | None = None) -> tuple[list[Verdicts | None] | None, str]:
    """Verdicts for each rulebook (`variations[i]` switched on in `paths[i]`), or None and why not;
    `progress(properties done, of all, label)` as they finish."""
    entries, why = reports(paths, variations, timeout, progress=progress)
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
