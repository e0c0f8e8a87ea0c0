"""The judge's verdicts put in place of the symbolic ones at the player counts it decided.

A property's result covers every player count (`verdict.combine`); the judge decides some counts. The
symbolic result is taken apart into its counts again, the judge's verdict replaces it at each count the judge
decided, and the counts are combined anew. Where the two differ, the symbolic verdict is kept in the details
(`symbolic`), so a reader (and the differential campaign) sees what the judge overruled.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..properties.verdict import Result, Verdict, combine, counts_text

_COMBINED = ("players", "failing_players", "undecided_players", "by_players")


def by_count(result: Result, counts: tuple[int, ...]) -> dict[int, Result]:
    """The result at each player count, from a result combined over `counts`."""
    by = result.details.get("by_players")
    if isinstance(by, dict):
        out = {}
        for n, d in by.items():
            rest = {k: v for k, v in d.items() if k not in ("verdict", "summary")}
            out[int(n)] = Result(result.id, Verdict(d["verdict"]), d["summary"], rest)
        if set(out) == set(counts):
            return out
    suffix = f" ({counts_text(list(counts))})"
    summary = result.summary[:-len(suffix)] if result.summary.endswith(suffix) else result.summary
    details = {k: v for k, v in result.details.items() if k not in _COMBINED}
    return {n: Result(result.id, result.verdict, summary, details) for n in counts}


def merged(result: Result, counts: tuple[int, ...], judged: Mapping[int, Result]) -> Result:
    """`result` with the judge's verdict at each count of `judged`."""
    if not judged:
        return result
    symbolic = by_count(result, counts)
    out: dict[int, Result] = {}
    for n in counts:
        j = judged.get(n)
        if j is None:
            out[n] = symbolic[n]
            continue
        s = symbolic[n]
        details: dict[str, Any] = dict(j.details)
        if s.verdict is not j.verdict or _value(s) != _value(j):
            details["symbolic"] = {"verdict": s.verdict.value, "summary": s.summary}
        out[n] = Result(j.id, j.verdict, j.summary, details)
    r = combine(result.id, out)
    r.details["judged_players"] = sorted(judged)
    if "seconds" in result.details:
        r.details["seconds"] = result.details["seconds"]
    return r


def _value(r: Result) -> Any:
    """The value a verdict states beside its word (the threshold), where it has one."""
    return r.details.get("threshold")
