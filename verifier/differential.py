"""The symbolic verifier held against the exhaustive judge, table by table (the differential campaign's step).

At each player count of a rulebook the symbolic verdicts (the verifier with the judge switched off) are set
beside the judge's; where both decide (proved, refuted or not applicable) they must agree, and on
claim-threshold agree on the value too. A symbolic `unknown` or `bounded` is undecided, never a
disagreement; an `error` is an internal error of the tool, counted apart.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from cheatdsl.model import Rulebook

from .encoding.subject import Subject
from .exhaustive import JUDGED, judge_at
from .exhaustive.merge import by_count
from .properties.judging import Judging, Mode
from .properties.settings import DEFAULT, Settings
from .properties.verdict import Result, Verdict

DECIDED = (Verdict.PROVED, Verdict.REFUTED, Verdict.NOT_APPLICABLE)


def disagreement(sym: Result, judge: Result) -> str | None:
    """How the symbolic verdict contradicts the judge's, in words, or None where it does not (or is undecided)."""
    if sym.verdict not in DECIDED:
        return None
    if sym.verdict is not judge.verdict:
        return f"symbolic {sym.verdict.value} ({sym.summary}); judge {judge.verdict.value} ({judge.summary})"
    if sym.id == "claim-threshold" and sym.verdict is Verdict.PROVED:
        a, b = sym.details.get("threshold"), judge.details.get("threshold")
        if a != b:
            return f"symbolic threshold {a}; judge {b} ({judge.summary})"
    return None


@dataclass
class Table:
    """One rulebook at one player count: the judge's search, and each property's pair of verdicts."""

    players: int
    judge: dict[str, Any] = field(default_factory=dict)
    pairs: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # pid -> (symbolic, judge or None)
    disagreements: dict[str, str] = field(default_factory=dict)
    internal: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"players": self.players, "judge": self.judge, "pairs": self.pairs,
                "disagreements": self.disagreements, "internal": self.internal}


def differ(rulebook: Rulebook, budget: int, settings: Settings = DEFAULT,
           judge_seconds: float | None = None) -> list[Table]:
    """Each player count of `rulebook`: the symbolic verdicts against the judge's."""
    from .runner import verify
    symbolic = replace(settings, judging=Judging(Mode.NEVER))
    counts = tuple(rulebook.players.counts())
    start = time.perf_counter()
    timed = verify(rulebook, None, counts, symbolic)
    sym_seconds = time.perf_counter() - start
    per = {t.result.id: by_count(t.result, counts) for t in timed}
    subject = Subject(rulebook, counts)
    out = []
    for n in counts:
        table = Table(n)
        for pid, by in per.items():
            if by[n].verdict is Verdict.ERROR:
                table.internal.append(f"symbolic {pid}: {by[n].summary}")
        try:
            data = judge_at(subject, n, JUDGED, Judging(Mode.ALWAYS, budget), judge_seconds)
        except Exception as exc:  # noqa: BLE001 - the judge's own failure is a finding too
            table.internal.append(f"judge: {type(exc).__name__}: {exc}")
            out.append(table)
            continue
        table.judge = {**data["judge"], "symbolic_seconds": round(sym_seconds / len(counts), 3)}
        for pid in JUDGED:
            sym = by_count_result(per, pid, n)
            raw = data["results"].get(pid)
            judged = None if raw is None else Result(raw["id"], Verdict(raw["verdict"]), raw["summary"],
                                                     raw["details"])
            table.pairs[pid] = (sym.verdict.value, None if judged is None else judged.verdict.value)
            if judged is not None:
                why = disagreement(sym, judged)
                if why is not None:
                    table.disagreements[pid] = why
        out.append(table)
    return out


def by_count_result(per: dict[str, dict[int, Result]], pid: str, n: int) -> Result:
    return per[pid][n]
