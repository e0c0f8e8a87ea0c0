"""What a variant changes in a base rulebook: rule by rule, as sentences, from the two compiled models.

Two rulebooks are the same game when no rule field differs in meaning: the model's equality already
ignores wording, layout and paths; formulas are compared by canonical text up to order, and by value
where that can be worked out (`meaning.py`); a field that makes no difference under the rest of the
rules (a lead rule when rounds never end) is reported apart and does not make a different game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..model import ChallengeKind, ClaimKind, Formula, Rank, Rulebook, Suit
from . import meaning
from .describe import DIMENSIONS, LABELS, Describer
from .fields import FIELDS, Field, field_for

# Rulebook fields that are not rules of play: what it is called, where it comes from, what it expects.
NOT_RULES = ("name", "title", "source", "expectations", "variations")
ORDER = {d.key: i for i, d in enumerate(DIMENSIONS)}
FIELD_ORDER = {f.path: i for i, f in enumerate(FIELDS)}


@dataclass(frozen=True)
class Change:
    """One rule the variant plays differently: the variant's sentence and the base's."""

    dimension: str
    field: str
    sentence: str
    before: str

    @property
    def label(self) -> str:
        return LABELS.get(self.dimension, self.dimension)


@dataclass(frozen=True)
class Idle:
    """A field written differently that makes no difference to play, and why."""

    field: str
    before: str
    after: str
    reason: str


@dataclass
class Diff:
    """Everything the variant changes, and what changes in words only."""

    base: Rulebook
    variant: Rulebook
    changes: list[Change] = field(default_factory=list)
    idle: list[Idle] = field(default_factory=list)
    wording: list[str] = field(default_factory=list)
    expectations: list[str] = field(default_factory=list)
    verdicts: list[str] | None = None
    game: str | None = None
    game_files: list[str] = field(default_factory=list)

    @property
    def same_game(self) -> bool:
        return not self.changes


def raw(value: Any) -> str:
    """A model value as the rulebook would write it."""
    if value is None:
        return "none"
    if isinstance(value, Formula):
        return f"`{value.canonical}`"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, frozenset):
        return "[" + ", ".join(sorted(raw(v) for v in value)) + "]"
    if isinstance(value, tuple):
        return "[" + ", ".join(raw(v) for v in value) + "]"
    if isinstance(value, Rank):
        return value.symbol
    if isinstance(value, Suit):
        return value.name
    return str(value)


def _kind_rules(rb: Rulebook, kinds: tuple[ChallengeKind, ...]) -> list[tuple[str, str]]:
    """The ways to challenge, without their names and calls: what each tests and when it may be used."""
    return sorted((k.test.value, "" if k.allowed_when is None else meaning.normal(k.allowed_when.expr)) for k in kinds)


def _differences(a: Any, b: Any, a_rb: Rulebook, b_rb: Rulebook, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """Every model path whose value differs in meaning between `a` and `b` (parts of `a_rb` and `b_rb`)."""
    for f in dataclasses.fields(a):
        if not f.compare or (not path and f.name in NOT_RULES):
            continue
        where = f"{path}.{f.name}" if path else f.name
        va, vb = getattr(a, f.name), getattr(b, f.name)
        if isinstance(va, Formula) or isinstance(vb, Formula):
            if not meaning.same(a_rb, va, b_rb, vb, where):
                yield where, va, vb
        elif where == "deck.suits" and a_rb.claim.kind is b_rb.claim.kind is ClaimKind.RANK:
            if sorted(s.name for s in va) != sorted(s.name for s in vb):
                yield where, va, vb
        elif where == "challenge.kinds":
            if _kind_rules(a_rb, va) != _kind_rules(b_rb, vb):
                yield where, va, vb
        elif dataclasses.is_dataclass(va) and type(va) is type(vb):
            yield from _differences(va, vb, a_rb, b_rb, where)
        elif va != vb:
            yield where, va, vb


def _fallback(path: str) -> Field:
    return Field(path, "other", lambda d: f"`{path}` is {raw(_value(d.rb, path))}")


def _value(obj: Any, path: str) -> Any:
    for part in path.split("."):
        obj = getattr(obj, part, None)
    return obj


def _wording(base: Rulebook, variant: Rulebook) -> list[str]:
    out = []
    calls_a = [k.call for k in base.challenge.kinds]
    calls_b = [k.call for k in variant.challenge.kinds]
    if calls_a != calls_b:
        out.append("a challenger says " + " or ".join(f'"{c}"' for c in calls_b)
                   + " (before: " + " or ".join(f'"{c}"' for c in calls_a) + ")")
    names_a = [k.name for k in base.challenge.kinds]
    names_b = [k.name for k in variant.challenge.kinds]
    if names_a != names_b:
        out.append(f"the challenges are named {', '.join(names_b)} in the rulebook (before: {', '.join(names_a)})")
    return out


def _expectations(base: Rulebook, variant: Rulebook) -> list[str]:
    """The verdicts each file expects that differ. A house rule of `base` is judged against its verdicts (`verify`),
    so an expectation it does not restate is no change."""
    a = {e.property: e.verdict for e in base.expectations}
    b = {e.property: e.verdict for e in variant.expectations}
    house_rule = len(variant.chain) > 1 and variant.chain[1] == base.chain[0]
    out = []
    for pid in sorted(set(a) | set(b)):
        if pid not in b and house_rule:
            continue
        if pid not in b:
            out.append(f"{pid}: no longer expected (before: {a[pid]})")
        elif pid not in a:
            out.append(f"{pid}: expected {b[pid]} (not expected before)")
        elif a[pid] != b[pid]:
            out.append(f"{pid}: expected {b[pid]} (before: {a[pid]})")
    return out


def diff(base: Rulebook, variant: Rulebook) -> Diff:
    """What `variant` plays differently from `base`, field by field."""
    result = Diff(base, variant, wording=_wording(base, variant), expectations=_expectations(base, variant))
    said_a, said_b = Describer(base), Describer(variant)
    found = [(path, old, new, field_for(path) or _fallback(path))
             for path, old, new in _differences(base, variant, base, variant)]
    changed = {rule.path for _, _, _, rule in found if not rule.idle(variant)}
    seen: set[tuple[str, str]] = set()
    for path, old, new, rule in found:
        reason = rule.idle(variant)
        if reason:
            result.idle.append(Idle(path, raw(old), raw(new), reason))
            continue
        if rule.part_of in changed:
            continue
        sentence = rule.say(said_b)
        before = rule.idle(base) or rule.say(said_a)
        if sentence == before:
            sentence, before = f"{sentence} ({path}: {raw(new)})", f"{before} ({path}: {raw(old)})"
        if (rule.dimension, sentence) in seen:
            continue
        seen.add((rule.dimension, sentence))
        result.changes.append(Change(rule.dimension, rule.path, sentence, before))
    result.changes.sort(key=lambda c: (ORDER.get(c.dimension, len(ORDER)), FIELD_ORDER.get(c.field, len(FIELDS))))
    return result
