"""The verify report: results per rulebook, expectations met or failed, the exit status, text and JSON."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from cheatdsl.model import Rulebook

from .properties.firing import DeadRule, UnsureCall
from .properties.verdict import Verdict
from .runner import Timed

# The rulebook language also accepts these words for an expected verdict.
SYNONYMS = {"holds": "proved", "fails": "refuted"}
WIDTH = 100  # the text report's columns


class Status(Enum):
    """An expectation against the verdict given: met, failed, or pending (the property is not implemented
    yet, so nothing is claimed)."""

    MET = "met"
    FAILED = "failed"
    PENDING = "pending"


@dataclass(frozen=True)
class Check:
    """One expectation of the rulebook against the verdict given."""

    id: str
    expected: str
    verdict: str
    status: Status
    at: str

    def as_json(self) -> dict[str, str]:
        return {"id": self.id, "expected": self.expected, "verdict": self.verdict, "status": self.status.value,
                "at": self.at}


class Change(Enum):
    """A house rule's verdict on a property beside its base's: the same, better, worse, or another verdict (or
    value) neither better nor worse."""

    SAME = "same"
    BETTER = "better"
    WORSE = "worse"
    OTHER = "other"


# How much a verdict assures: a proof (or a property that does not arise) more than a bounded or undecided
# check, which assures more than a refutation.
_STANDING = {Verdict.PROVED: 2, Verdict.NOT_APPLICABLE: 2, Verdict.BOUNDED: 1, Verdict.UNKNOWN: 1,
             Verdict.REFUTED: 0}


@dataclass(frozen=True)
class AgainstBase:
    """One property's verdict in a house rule beside the same property's in its base."""

    id: str
    base: str
    verdict: str
    change: Change

    def as_json(self) -> dict[str, str]:
        return {"id": self.id, "base": self.base, "verdict": self.verdict, "change": self.change.value}


def compare_with_base(timed: Timed, base: Timed) -> Change:
    """How a house rule's verdict stands beside its base's (the threshold's value counted too)."""
    got, was = timed.result.verdict, base.result.verdict
    if got is was:
        values, base_values = _values(timed.result.details), _values(base.result.details)
        common = set(values) & set(base_values)
        return Change.SAME if all(values[n] == base_values[n] for n in common) else Change.OTHER
    if got not in _STANDING or was not in _STANDING or _STANDING[got] == _STANDING[was]:
        return Change.OTHER
    return Change.BETTER if _STANDING[got] > _STANDING[was] else Change.WORSE


def _values(details: dict[str, Any]) -> dict[int, Any]:
    """A result's value by player count (claim-threshold's threshold; None for a property without one)."""
    per = details.get("by_players")
    if per is not None:
        return {int(n): d.get("threshold") for n, d in per.items()}
    return {int(n): details.get("threshold") for n in details.get("players", [])}


def judge(expected: str, timed: Timed) -> Status:
    """Whether the verdict given meets the expectation (a proof also meets `bounded`)."""
    if not timed.implemented:
        return Status.PENDING
    got = timed.result.verdict.value
    if got == expected or (expected == "bounded" and got == "proved"):
        return Status.MET
    return Status.FAILED


@dataclass
class RulebookReport:
    """One rulebook's results, or the reason it could not be verified."""

    path: str
    rulebook: Rulebook | None = None
    timed: list[Timed] = field(default_factory=list)
    error: str = ""
    # Rules shown never to fire (W506) and calls that do not see the whole play (W507), from
    # `properties/firing.py`: warnings, not verdicts; none makes the run fail.
    warnings: list[DeadRule | UnsureCall] = field(default_factory=list)
    # A house rule's base, as shown, and its verdicts at the same player counts (none: not a house rule, or
    # the base could not be verified there): what the house rule is judged against.
    base: str = ""
    base_timed: list[Timed] = field(default_factory=list)

    @property
    def against_base(self) -> list[AgainstBase]:
        """Every property verified in both the house rule and its base, beside each other (errors aside)."""
        by_id = {t.result.id: t for t in self.base_timed if t.result.verdict is not Verdict.ERROR}
        return [AgainstBase(t.result.id, by_id[t.result.id].result.verdict.value, t.result.verdict.value,
                            compare_with_base(t, by_id[t.result.id]))
                for t in self.timed if t.result.id in by_id and t.result.verdict is not Verdict.ERROR]

    @property
    def checks(self) -> list[Check]:
        if self.rulebook is None:
            return []
        by_id = {t.result.id: t for t in self.timed}
        out = []
        for e in self.rulebook.expectations:
            timed = by_id.get(e.property)
            if timed is None:
                continue
            expected = SYNONYMS.get(e.verdict, e.verdict)
            out.append(Check(e.property, expected, timed.result.verdict.value, judge(expected, timed), str(e.span)))
        return out

    @property
    def problems(self) -> list[str]:
        """Why this rulebook fails the run: a failed expectation, an unexpected refutation, no rulebook."""
        if self.rulebook is None:
            return [self.error or "the rulebook did not compile"]
        out = [f"{c.id}: expected {c.expected}, got {c.verdict} ({c.at})"
               for c in self.checks if c.status is Status.FAILED]
        expected = {c.id for c in self.checks}
        # A house rule is judged against its base where it says nothing itself: a verdict as in the base is no
        # problem, one worse than the base's is.
        beside = {a.id: a for a in self.against_base if a.id not in expected}
        out += [f"{a.id}: worse than in {self.base} ({a.base} there, {a.verdict} here), and the rulebook does not "
                "expect it" for a in beside.values() if a.change is Change.WORSE]
        out += [f"{t.result.id}: refuted, and the rulebook does not expect it"
                for t in self.timed if t.result.verdict is Verdict.REFUTED and t.result.id not in expected
                and t.result.id not in beside]
        out += [f"{t.result.id}: {t.result.summary} (a bug in the verifier)"
                for t in self.timed if t.result.verdict is Verdict.ERROR]
        from cheatdsl.compiler.lints import breaking
        return out + breaking(self.rulebook)  # no challenge possible, no claim ever true

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"path": self.path}
        if self.rulebook is None:
            data["error"] = self.error
            return data
        rb = self.rulebook
        data.update({
            "rulebook": rb.name,
            "players": [rb.players.min, rb.players.max],
            "variations": list(rb.active_variations),
            "results": [t.result.as_json() for t in self.timed],
            "expectations": [c.as_json() for c in self.checks],
            "against_base": ({"base": self.base, "properties": [a.as_json() for a in self.against_base]}
                             if self.base_timed else None),
            "problems": self.problems,
            "warnings": [w.as_json() for w in self.warnings],
        })
        return data


@dataclass
class Report:
    """Every rulebook verified in one run."""

    rulebooks: list[RulebookReport] = field(default_factory=list)

    @property
    def exit_status(self) -> int:
        if any(t.result.verdict is Verdict.ERROR for r in self.rulebooks for t in r.timed):
            return 3  # an internal error of the tool outweighs every verdict
        return 1 if any(r.problems for r in self.rulebooks) else 0

    def as_json(self) -> dict[str, Any]:
        return {"rulebooks": [r.as_json() for r in self.rulebooks], "exit_status": self.exit_status}

    def render(self, width: int = WIDTH) -> str:
        """The text report: a heading per rulebook, a line per property, its summary wrapped under it."""
        lines: list[str] = []
        for r in self.rulebooks:
            if r.rulebook is None:
                lines += _wrap(f"{r.path}: not verified: {r.error}", width, "", "  ")
                continue
            rb = r.rulebook
            used = f", with {', '.join(rb.active_variations)}" if rb.active_variations else ""
            seats = str(rb.players.min) if rb.players.min == rb.players.max else f"{rb.players.min}..{rb.players.max}"
            lines += _wrap(f"{r.path}: {rb.title}, {seats} players{used}", width, "", "  ")
            beside = {a.id: a for a in r.against_base}
            if beside:
                same = sum(a.change is Change.SAME for a in beside.values())
                lines += _wrap(f"judged against {r.base}, its base: {same} of {len(beside)} verdicts as there; the "
                               "file's own `expect:` comes first", width, "  ", "    ")
            checks = {c.id: c for c in r.checks}
            idw = max((len(t.result.id) for t in r.timed), default=0)
            for t in r.timed:
                res = t.result
                mark = ""
                c = checks.get(res.id)
                if c is not None and c.status is Status.FAILED:
                    mark = f"  [FAILS expect: {c.expected}]"
                elif c is not None and c.status is Status.PENDING:
                    mark = f"  [expect {c.expected}: pending]"
                elif c is None and res.id in beside:
                    mark = _beside_mark(beside[res.id], r.base)
                elif c is None and res.verdict is Verdict.REFUTED:
                    mark = "  [FAILS: refuted, not expected]"
                lines.append(f"  {res.id:<{idw}}  {res.verdict.value}{mark}".rstrip())
                lines += _wrap(res.summary, width, "      ", "      ")
                if res.verdict is Verdict.REFUTED:
                    for n, w in witnesses(res)[:1]:
                        start = w["start"]
                        how = (f"seed {start['seed']}, dealer {start.get('dealer', 0)}" if "seed" in start
                               else f"a deck laid in order, dealer {start.get('dealer', 0)}" if "deck" in start
                               else "from the position in the scenario")
                        lines += _wrap(f"witness at {n} players ({how}):", width, "      ", "        ")
                        for text in w["words"]:
                            lines += _wrap(text, width, "        ", "          ")
            for dead in r.warnings:
                lines += _wrap(f"warning {dead.code} at {dead.at}: {dead.message}", width, "  ", "      ")
                lines += _wrap(f"hint: {dead.hint}", width, "      ", "      ")
            lines.append("")
        return "\n".join(lines).rstrip()

    def tally(self, width: int = WIDTH) -> str:
        """The closing lines: how many rulebooks were verified, and every problem found."""
        problems = [f"{r.path}: {p}" for r in self.rulebooks for p in r.problems]
        n = len(self.rulebooks)
        lines = [f"{n} rulebook{'s' if n != 1 else ''} verified: "
                 f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"]
        for p in problems:
            lines += _wrap(p, width, "  ", "      ")
        return "\n".join(lines)


def _beside_mark(a: AgainstBase, base: str) -> str:
    """The mark after a house rule's verdict that its file does not expect: how it stands beside its base's."""
    if a.change is Change.SAME:  # said only of a verdict that assures less than a proof
        return f"  [as in {base}]" if a.verdict not in ("proved", "not_applicable") else ""
    if a.change is Change.BETTER:
        return f"  [better than {base}: {a.base} there]"
    if a.change is Change.WORSE:
        return f"  [FAILS: worse than {base}: {a.base} there]"
    return f"  [changed from {base}: {a.base} there]" if a.base != a.verdict else f"  [changed from {base}]"


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    """`text` in lines of at most `width` columns (a word longer than a line is left whole)."""
    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest, break_long_words=False,
                         break_on_hyphens=False) or [first.rstrip()]


def witnesses(result: Any) -> list[tuple[int, dict[str, Any]]]:
    """Every witness a result carries, with its player count: counterexamples, and winnability's per seat."""
    details = result.details
    per = details.get("by_players")
    items: list[tuple[int, dict[str, Any]]] = []
    if per is None:
        players = details.get("players") or [0]
        per = {str(players[0]): details}
        if len(players) > 1 and ("witness" in details or "witnesses" in details):
            per = {str(n): details for n in players[:1]}
    for n, d in sorted(per.items(), key=lambda kv: int(kv[0])):
        plays = [d["witness"]] if isinstance(d.get("witness"), dict) else []
        plays += [w for _, w in sorted(d.get("witnesses", {}).items(), key=lambda kv: int(kv[0]))]
        for w in plays:
            # A play standing for several player counts is listed once, at the count it was played at.
            at = (int(w.get("players", n)), w)
            if at not in items:
                items.append(at)
    return items


def save_witnesses(report: Report, folder: str, variations: tuple[str, ...] = (), force: bool = False) -> list[str]:
    """Write every witness of the report as a scenario file in `folder`; the paths written.

    Raises cheatdsl.output.OutputError when the folder cannot be made, or a file exists and not `force`.
    """
    from cheatdsl.output import OutputError, file_in, output_folder, write_new

    from .properties.witness import scenario_of
    if any(r.path == "-" and r.rulebook is not None for r in report.rulebooks):
        raise OutputError("a witness names its rulebook, and one read from standard input has no name to "
                          "give: save the rulebook to a file and verify that")
    into = output_folder(folder)
    written = []
    for r in report.rulebooks:
        if r.rulebook is None:
            continue
        for t in r.timed:
            for n, w in witnesses(t.result):
                seat = w["expect"].get("winner", (w["expect"].get("out") or [None])[0])
                tail = f"-seat{seat}" if t.result.id == "winnability" else ""
                path = file_in(into, r.rulebook.name, t.result.id, f"{n}p{tail}", suffix=".yaml")
                write_new(path, scenario_of(w, r.path, variations, path=str(path)).to_yaml(), force)
                written.append(str(path))
    return written
