"""The five verdicts (and the tool's own error), one property's result, and how results for several player counts combine."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Verdict(Enum):
    """What the verifier concluded about one property."""

    PROVED = "proved"
    REFUTED = "refuted"
    BOUNDED = "bounded"
    UNKNOWN = "unknown"
    NOT_APPLICABLE = "not_applicable"
    ERROR = "error"  # not a verdict: the check itself failed (a bug in the tool), never folded into unknown


# Worst first when several player counts disagree: a refutation outweighs a timeout, which outweighs
# a bounded search, which outweighs a proof; not_applicable at one count never hides another's verdict.
SEVERITY: dict[Verdict, int] = {
    Verdict.ERROR: 5, Verdict.REFUTED: 4, Verdict.UNKNOWN: 3, Verdict.BOUNDED: 2, Verdict.PROVED: 1, Verdict.NOT_APPLICABLE: 0,
}


@dataclass(frozen=True)
class Result:
    """One property's verdict for one rulebook: a one-line summary and JSON-able details."""

    id: str
    verdict: Verdict
    summary: str
    details: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "verdict": self.verdict.value, "summary": self.summary, "details": self.details}


def proved(pid: str, summary: str, **details: Any) -> Result:
    return Result(pid, Verdict.PROVED, summary, details)


def refuted(pid: str, summary: str, **details: Any) -> Result:
    return Result(pid, Verdict.REFUTED, summary, details)


def bounded(pid: str, depth: int, summary: str, **details: Any) -> Result:
    return Result(pid, Verdict.BOUNDED, f"no counterexample up to depth {depth}: {summary}",
                  {"depth": depth, **details})


def unknown(pid: str, reason: str, **details: Any) -> Result:
    return Result(pid, Verdict.UNKNOWN, reason, {"reason": reason, **details})


def internal_error(pid: str, exc: BaseException, limit: int = 6) -> Result:
    """An exception raised inside a check: the tool's error, reported as such (never a verdict)."""
    import traceback
    return Result(pid, Verdict.ERROR, f"internal error: {type(exc).__name__}: {exc}",
                  {"internal_error": True, "traceback": "".join(traceback.format_exception(exc, limit=limit))})


def not_applicable(pid: str, summary: str, **details: Any) -> Result:
    return Result(pid, Verdict.NOT_APPLICABLE, summary, details)


def counts_text(counts: list[int]) -> str:
    """Player counts as runs: `3, 5..7, 9 players`."""
    runs: list[list[int]] = []
    for n in sorted(counts):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    words = [str(a) if a == b else f"{a}..{b}" for a, b in runs]
    return ", ".join(words) + (" player" if counts == [1] else " players")


def combine(pid: str, by_players: Mapping[int, Result],
            summarize: Callable[[Mapping[int, Result]], str] | None = None) -> Result:
    """One result for several player counts: the worst verdict, naming the counts that have it."""
    counts = sorted(by_players)
    first = by_players[counts[0]]
    failing = [n for n in counts if by_players[n].verdict is Verdict.REFUTED]
    undecided = [n for n in counts if by_players[n].verdict in (Verdict.UNKNOWN, Verdict.BOUNDED)]
    if all(r == first for r in by_players.values()):
        return Result(pid, first.verdict, f"{first.summary} ({counts_text(counts)})",
                      {**first.details, "players": counts, "failing_players": failing, "undecided_players": undecided})
    worst = max((r.verdict for r in by_players.values()), key=SEVERITY.__getitem__)
    groups: dict[tuple[Verdict, str], list[int]] = {}
    for n, r in by_players.items():
        groups.setdefault((r.verdict, r.summary), []).append(n)
    ordered = sorted(groups.items(), key=lambda g: (-SEVERITY[g[0][0]], min(g[1])))
    if len(ordered) == 1:
        summary = f"{ordered[0][0][1]} ({counts_text(ordered[0][1])})"
    elif summarize is not None and all(r.verdict is worst for r in by_players.values()):
        summary = summarize(by_players)
    else:
        parts = []
        for (verdict, text), group in ordered:
            prefix = "" if verdict is worst else f"{verdict.value}: "
            parts.append(f"{counts_text(group)}: {prefix}{text}")
        summary = "; ".join(parts)
    details: dict[str, Any] = {
        "players": counts,
        "failing_players": failing,
        "undecided_players": undecided,
        "by_players": {str(n): {"verdict": r.verdict.value, "summary": r.summary, **r.details}
                       for n, r in sorted(by_players.items())},
    }
    return Result(pid, worst, summary, details)
