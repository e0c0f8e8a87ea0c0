"""Proof certificates: the obligations of an induction proof written as SMT-LIB 2 files any solver can re-check.

For a rulebook at one player count, the invariants are proved again (`houdini`) with a recorder that keeps
the parts of the proof: the merged game's deal, its step of each kind (the transition relation the
engine-agreement tests check against the interpreter), and the groups proved inductive. From them come:

- ``transition-KIND.smt2``: one step of that kind, as ``(define-fun transition () Bool ...)``;
- ``invariant.smt2``: the invariant over the state before a step, as ``(define-fun invariant () Bool ...)``;
- one file per obligation, self-contained (declarations, definitions, one assertion, ``(check-sat)``),
  which a solver must answer ``unsat``:
  ``initiation`` (a deal breaking the invariant), ``consecution-KIND`` (a step of that kind from a state
  satisfying it to one breaking it, or breaking a step fact), ``property-PROPERTY`` (a state, or step,
  satisfying the invariant but not the property);
- ``manifest.json``: what each file is, its expected answer and its SHA-256.

Nothing here decides a verdict: the certificates are written for properties `verify` already proved.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

import z3

from .encoding.spec import Spec, SpecError, build_spec
from .encoding.transitions import ACCEPT, CHALLENGE, PASS
from .properties.invariant import CANDIDATES, STEP_CANDIDATES, ProofParts, Step, houdini
from .solving.solver import fresh_context
from .solving.terms import and_, not_

KIND_NAMES = {ACCEPT: "accept", CHALLENGE: "challenge", PASS: "pass"}


def property_groups(pid: str, spec: Spec) -> tuple[str, ...] | None:
    """The invariant groups whose proof is the proof of property `pid` (as `system/analysis.py` reads
    them), or None for a property not proved by induction."""
    table: dict[str, tuple[str, ...]] = {
        "card-conservation": ("card-conservation",),
        "turn-order": ("typing", "turn-order"),
        "winner": ("winner", "winner-step", *(("outs",) if spec.seats_leave else ())),
        "no-deadlock": ("no-deadlock",),
        "challenge-resolution": ("challenge-resolution",),
    }
    return table.get(pid)


@dataclass
class Recorder:
    """Keeps the parts of the induction proofs it is handed (one per `houdini` call)."""

    proofs: list[ProofParts] = field(default_factory=list)

    def __call__(self, parts: ProofParts) -> None:
        self.proofs.append(parts)


@dataclass
class Obligation:
    """One query of the proof: named definitions, then the assertion of `claim` (names of definitions)."""

    name: str
    kind: str  # initiation, consecution or property
    definitions: dict[str, Any]
    claim: str
    expected: str = "unsat"


def _state_claims(parts: ProofParts, state: Any, groups: set[str]) -> list[Any]:
    out = []
    for g in sorted(groups):
        if g in CANDIDATES:
            out.extend(CANDIDATES[g](parts.spec, state).values())
    return out


def _step_claims(parts: ProofParts, step: Step, groups: set[str]) -> list[Any]:
    out = []
    for g in sorted(groups):
        if g in STEP_CANDIDATES and step.kind in STEP_CANDIDATES[g][1]:
            out.extend(STEP_CANDIDATES[g][0](parts.spec, step.s, step.after, step.b).values())
    return out


def _transition(step: Step) -> Any:
    return and_(step.legal, *step.b.defs, not_(step.s.over))


def obligations(parts: ProofParts, invariant: set[str], properties: dict[str, tuple[str, ...]]) -> list[Obligation]:
    """The obligations that prove `invariant` (a set of groups) inductive and each property from it."""
    out = [Obligation("initiation", "initiation",
                      {"deal": and_(*parts.deal), "invariant_after_deal": and_(*_state_claims(parts, parts.start,
                                                                                               invariant))},
                      "(and deal (not invariant_after_deal))")]
    for step in parts.steps:
        kind = KIND_NAMES[step.kind]
        after = _state_claims(parts, step.after, invariant) + _step_claims(parts, step, invariant)
        out.append(Obligation(f"consecution-{kind}", "consecution",
                              {"transition": _transition(step),
                               "invariant": and_(*_state_claims(parts, step.s, invariant)),
                               "invariant_after_step": and_(*after)},
                              "(and transition invariant (not invariant_after_step))"))
    for pid, groups in properties.items():
        state_groups = {g for g in groups if g in CANDIDATES}
        if state_groups:
            step = parts.steps[0]
            out.append(Obligation(f"property-{pid}", "property",
                                  {"invariant": and_(*_state_claims(parts, step.s, invariant)),
                                   "property": and_(*_state_claims(parts, step.s, state_groups))},
                                  "(and invariant (not property))"))
        step_groups = {g for g in groups if g in STEP_CANDIDATES}
        for step in parts.steps if step_groups else ():
            facts = _step_claims(parts, step, step_groups)
            if not facts:
                continue
            out.append(Obligation(f"property-{pid}-{KIND_NAMES[step.kind]}", "property",
                                  {"transition": _transition(step),
                                   "invariant": and_(*_state_claims(parts, step.s, invariant)),
                                   "property": and_(*facts)},
                                  "(and transition invariant (not property))"))
    return out


_DECL = re.compile(r"^\(declare-(fun|const) ", re.M)


def _pieces(term: Any) -> tuple[list[str], str]:
    """The declarations a term needs and the term in SMT-LIB, as Z3 prints a benchmark asserting it."""
    s = z3.Solver()
    s.add(term)
    text = s.to_smt2()
    start = text.index("(assert")
    end = text.rindex("(check-sat)")
    decls = [line for line in text[:start].splitlines() if _DECL.match(line)]
    body = text[start + len("(assert"):end].strip()
    assert body.endswith(")")
    return decls, body[:-1].strip()


def smtlib(ob: Obligation, comment: str) -> str:
    """A self-contained SMT-LIB 2 script of the obligation: set-logic, declarations, definitions, the
    assertion, (check-sat)."""
    decls: dict[str, None] = {}
    defs = []
    for name, term in ob.definitions.items():
        d, body = _pieces(term)
        decls.update(dict.fromkeys(d))
        defs.append(f"(define-fun {name} () Bool\n {body})")
    lines = [f"; {line}" for line in comment.splitlines()]
    lines += [f"; obligation {ob.name} ({ob.kind}): the answer must be {ob.expected}", "(set-logic ALL)",
              *decls, *defs, f"(assert {ob.claim})", "(check-sat)", ""]
    return "\n".join(lines)


def definition_file(name: str, term: Any, comment: str) -> str:
    """A term as a named definition with its declarations (for reading; it asserts nothing)."""
    decls, body = _pieces(term)
    return "\n".join([f"; {line}" for line in comment.splitlines()] + ["(set-logic ALL)", *decls,
                     f"(define-fun {name} () Bool\n {body})", ""])


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def certify(rb: Any, n: int, proved: list[str], folder: str, label: str) -> dict[str, Any]:
    """Prove the invariants of `rb` at `n` players again, write the certificates of the properties in
    `proved` (ids `verify` proved) that are proved by induction into `folder`, and return the manifest
    entry (files relative to `folder`)."""
    entry: dict[str, Any] = {"rulebook": label, "players": n, "files": [], "properties": [], "not_certified": {}}
    try:
        spec = build_spec(rb, n)
    except SpecError as exc:
        entry["not_certified"] = {pid: f"the rules cannot be tabulated: {exc}" for pid in proved}
        return entry
    recorder = Recorder()
    fresh_context()  # the same proof as verify's, whatever ran before in this process
    houdini(spec, recorder=recorder)
    if not recorder.proofs:
        entry["not_certified"] = {pid: "the induction did not finish" for pid in proved}
        return entry
    parts = recorder.proofs[-1]
    props: dict[str, tuple[str, ...]] = {}
    for pid in proved:
        groups = property_groups(pid, spec)
        if groups is None:
            entry["not_certified"][pid] = "not proved by induction over the transition system"
        elif not set(groups) <= parts.proved:
            entry["not_certified"][pid] = "its groups are not all in the inductive invariant"
        elif pid == "card-conservation" and spec.joker_index is not None:
            entry["not_certified"][pid] = ("with jokers, conservation of each value is proved on a second merged "
                                           "game that the certificate does not cover")
        else:
            props[pid] = groups
    entry["properties"] = sorted(props)
    entry["invariant"] = sorted(parts.proved)
    entry["steps_from_seat_0"] = parts.symmetric
    if not props:
        return entry
    sub = f"{_slug(label)}-{n}p"
    os.makedirs(os.path.join(folder, sub), exist_ok=True)
    head = (f"cheatdsl certificate: {label} at {n} players (card values merged as the proof merges them)\n"
            f"invariant groups: {', '.join(sorted(parts.proved))}")

    def put(name: str, text: str, kind: str, expected: str | None) -> None:
        rel = os.path.join(sub, name)
        with open(os.path.join(folder, rel), "w", encoding="utf-8") as fh:
            fh.write(text)
        entry["files"].append({"file": rel, "kind": kind, "expected": expected, "sha256": _sha(text)})

    for step in parts.steps:
        kind = KIND_NAMES[step.kind]
        put(f"transition-{kind}.smt2", definition_file("transition", _transition(step),
                                                       f"{head}\none step of kind {kind} (legal, its definitions, "
                                                       "the game not over before it)"), "transition", None)
    first = parts.steps[0]
    put("invariant.smt2", definition_file("invariant", and_(*_state_claims(parts, first.s, parts.proved)),
                                          f"{head}\nthe invariant over the state before a step"), "invariant", None)
    for ob in obligations(parts, parts.proved, props):
        put(f"{ob.name}.smt2", smtlib(ob, head), ob.kind, ob.expected)
    return entry


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", os.path.basename(text)).strip("_") or "rulebook"


def write_manifest(folder: str, entries: list[dict[str, Any]]) -> str:
    """Write manifest.json in `folder`: {"format": 1, "certificates": [entries]}; returns its path."""
    path = os.path.join(folder, "manifest.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"format": 1, "expected_answer": "unsat", "certificates": entries}, fh, indent=2)
        fh.write("\n")
    return path
