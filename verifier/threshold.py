"""claim-threshold: the largest count of one claim that can be true, and the first count that is a certain lie.

A true claim of k is k cards of the claimed rank in one play: natural copies from the deck plus wild
jokers, within the per-play cap, with no more naturals (or jokers, when they count) than a hand can hold
while forced set discards strip every complete set. Optimize finds the largest k; a plain solver then
confirms that k + 1 is unsat, and its unsat core names the rules that forbid it. The interpreter then
plays a game in which that largest claim is made and shown true (`true_claim.py`), saved as a scenario
with `verify --save-witnesses`.
"""

from __future__ import annotations

from collections.abc import Mapping

import z3

from cheatdsl.derived import set_size
from cheatdsl.model import SetMode

from .registry import register
from .solver import ask, new_optimize, new_solver, num
from .subject import Subject
from .true_claim import true_claim_play
from .verdict import Result, Verdict, combine, counts_text, proved, refuted, unknown

PID = "claim-threshold"


def _rules(subject: Subject, n: int, naturals: z3.ArithRef, jokers: z3.ArithRef, k: z3.ArithRef) -> dict[str, z3.BoolRef]:
    """Each rule bounding a true claim, by a name that says where it comes from."""
    rb, t = subject.rb, subject.table(n)
    copies = t.packs if subject.cards else t.copies
    wild = rb.deck.jokers if rb.deck.jokers_wild else 0
    rules = {
        f"copies: {copies} natural cards of each {'card' if subject.cards else 'rank'} ({rb.deck.span})":
            z3.And(naturals >= 0, naturals <= copies),
        f"jokers: {wild} wild jokers ({rb.deck.span})": z3.And(jokers >= 0, jokers <= wild),
        "a true claim of k is k matching cards": k == naturals + jokers,
        f"cards per play: at least {rb.claim.min_cards} ({rb.claim.span})": k >= rb.claim.min_cards,
    }
    if rb.claim.max_cards is not None:
        rules[f"cards per play: at most {rb.claim.max_cards} ({rb.claim.span})"] = k <= rb.claim.max_cards
    sets = rb.sets
    if sets is not None and sets.mode is SetMode.FORCED:
        size = set_size(rb, n, t.copies) or 0
        held = naturals if sets.naturals_only else naturals + jokers
        rules[f"forced sets: {size} {'natural ' if sets.naturals_only else ''}cards of a rank leave at once "
              f"({sets.size.span})"] = held <= size - 1
    return rules


def _at(subject: Subject, n: int) -> Result:
    naturals, jokers, k = z3.Ints("naturals jokers k")
    rules = _rules(subject, n, naturals, jokers, k)
    o = new_optimize()
    o.add(*rules.values())
    o.maximize(k)
    a = ask(o)
    if a.unknown:
        return unknown(PID, a.reason)
    if a.unsat:
        return refuted(PID, "no claim can ever be true: the rules leave no count of one rank that a play can hold")
    top = num(a.model, k)
    nat, jok = num(a.model, naturals), num(a.model, jokers)
    # Confirm the extreme: a true claim of top + 1 is unsat; the core names the rules forbidding it.
    s = new_solver(cores=True)
    labels = {}
    for i, (name, rule) in enumerate(rules.items()):
        label = z3.Bool(f"rule{i}")
        labels[str(label)] = name
        s.assert_and_track(rule, label)
    a2 = ask(s, k == top + 1)
    if not a2.unsat:
        return unknown(PID, a2.reason or f"a claim of {top + 1} was not shown impossible")
    binding = [labels[c] for c in a2.core if c in labels]
    copies_bound = _bound_without_cap(subject, n)
    cap = subject.rb.claim.max_cards
    word = _word(subject, top)
    parts = [f"{nat} natural" + ("" if nat == 1 else "s")]
    if jok:
        parts.append(f"{jok} joker" + ("" if jok == 1 else "s"))
    reasons = f"copies allow {copies_bound}" + (f", a play holds at most {cap}" if cap is not None else ", no cap per play")
    return proved(PID, f"{top} ({' + '.join(parts)}) is the largest true claim; a claim of {top + 1} is a certain "
                  f"lie ({reasons})", threshold=top, certain_lie_from=top + 1, copies_bound=copies_bound, cap=cap,
                  true_claim=f"{word}: {' and '.join(parts)}", naturals=nat, jokers=jok, binding_rules=binding)


def _with_play(subject: Subject, n: int, found: Result) -> Result:
    """`found` with a game in which its largest true claim is made and shown true at `n` players (or why
    no such game was found)."""
    d = found.details
    if found.verdict is not Verdict.PROVED:
        return found
    play = true_claim_play(subject.rb, n, d["threshold"], d["naturals"], d["jokers"], PID)
    if isinstance(play, str):
        return Result(PID, found.verdict, found.summary, {**d, "no_play": play})
    return Result(PID, found.verdict, found.summary, {**d, "witness": play.as_json()})


def _bound_without_cap(subject: Subject, n: int) -> int:
    naturals, jokers, k = z3.Ints("naturals jokers k")
    rules = _rules(subject, n, naturals, jokers, k)
    o = new_optimize()
    o.add(*[r for name, r in rules.items() if not name.startswith("cards per play")])
    o.maximize(k)
    a = ask(o)
    return num(a.model, k) if a.sat else -1


def _word(subject: Subject, count: int) -> str:
    return f"a true claim of {count} {'copies of one card' if subject.cards else 'of one rank'}"


def _summarize(by: Mapping[int, Result]) -> str:
    groups: dict[int, list[int]] = {}
    for n, r in by.items():
        groups.setdefault(r.details["threshold"], []).append(n)
    return "; ".join(f"{t} at {counts_text(ns)}, {t + 1} a certain lie" for t, ns in sorted(groups.items()))


@register(PID, "the largest count of one claim that can be true; one more is a certain lie")
def claim_threshold(subject: Subject) -> Result:
    by: dict[int, Result] = {}
    for n in subject.counts:
        t = subject.table(n)
        key = (PID, t.packs, t.copies, set_size(subject.rb, n, t.copies))
        if key not in subject.cache:
            # The game showing the claim is played at the smallest count with this threshold, and stands
            # for the counts that share it.
            subject.cache[key] = _with_play(subject, n, _at(subject, n))
        by[n] = subject.cache[key]
    return combine(PID, by, _summarize)
