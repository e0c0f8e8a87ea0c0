"""claim-threshold: the largest count of one claim that can be true, and the first count that is a certain lie.

A true claim of k is k cards of the claimed rank in one play: natural copies from the deck plus wild
jokers, within the per-play cap, with no more naturals (or jokers, when they count) than a hand can hold
while forced set discards strip every complete set. A solver finds the largest k by asking for a larger
one until there is none, then the most natural cards a claim of k can hold; k + 1 is unsat, and leaving
out each rule in turn while the rest still forbid it names the rules that do. The interpreter then
plays a game in which that largest claim is made and shown true (`true_claim.py`), saved as a scenario
with `verify --save-witnesses`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

import z3

from cheatdsl.derived import TableRules, set_size
from cheatdsl.model import SetMode

from ..encoding.subject import Subject
from ..solving.solver import Answer, ask, new_solver, num
from ..solving.terms import and_, bool_var, eq, ge, implies, int_var, le, plus
from .registry import register
from .true_claim import true_claim_play
from .verdict import Result, Verdict, combine, counts_text, not_applicable, proved, refuted, unknown

PID = "claim-threshold"


class Bound(Enum):
    """Which kind of rule bounds a true claim."""

    COPIES = "copies"  # natural cards of each card or rank in the deck
    JOKERS = "jokers"  # wild jokers in the deck
    MATCHING = "matching"  # a true claim of k is k matching cards
    PER_PLAY = "per play"  # cards per play, at least or at most
    HANDS = "hands"  # the most cards a hand can hold
    SETS = "sets"  # forced sets leave at once


@dataclass(frozen=True)
class Rule:
    """A rule bounding a true claim: its kind, and its text, which says where it comes from."""

    bound: Bound
    text: str


def _rules(subject: Subject, n: int, naturals: z3.ArithRef, jokers: z3.ArithRef, k: z3.ArithRef
           ) -> dict[Rule, z3.BoolRef]:
    """Each rule bounding a true claim, with its fact."""
    rb, t = subject.rb, subject.table(n)
    copies = t.packs if subject.cards else t.copies
    wild = rb.deck.jokers if rb.deck.jokers_wild else 0
    rules = {
        Rule(Bound.COPIES, f"copies: {copies} natural cards of each {'card' if subject.cards else 'rank'} "
                           f"({rb.deck.span})"): and_(ge(naturals, 0), le(naturals, copies)),
        Rule(Bound.JOKERS, f"jokers: {wild} wild jokers ({rb.deck.span})"): and_(ge(jokers, 0), le(jokers, wild)),
        Rule(Bound.MATCHING, "a true claim of k is k matching cards"): eq(k, plus(naturals, jokers)),
        Rule(Bound.PER_PLAY, f"cards per play: at least {rb.claim.min_cards} ({rb.claim.span})"):
            ge(k, rb.claim.min_cards),
    }
    if rb.claim.max_cards is not None:
        rules[Rule(Bound.PER_PLAY, f"cards per play: at most {rb.claim.max_cards} ({rb.claim.span})")] = \
            le(k, rb.claim.max_cards)
    held, why = hand_capacity(subject.rules(n))
    rules[Rule(Bound.HANDS, f"hands: a seat never holds more than {held} cards ({why})")] = \
        le(plus(naturals, jokers), held)
    sets = rb.sets
    if sets is not None and sets.mode is SetMode.FORCED:
        size = set_size(rb, n, t.copies) or 0
        held = naturals if sets.naturals_only else plus(naturals, jokers)
        rules[Rule(Bound.SETS, f"forced sets: {size} {'natural ' if sets.naturals_only else ''}cards of a rank "
                               f"leave at once ({sets.size.span})")] = le(held, size - 1)
    return rules


def hand_capacity(tr: TableRules) -> tuple[int, str]:
    """The most cards one hand can ever hold in play, and why (a play fact the threshold relies on): the
    largest dealt hand where no card can ever enter a hand (no pile to take, an empty stock, a short stock
    that takes nothing), otherwise every card in play."""
    in_play = sum(tr.hand_sizes) + tr.stock_count
    if not tr.take_pile and not tr.short_stock_takes_pile and tr.stock_count == 0:
        return max(tr.hand_sizes, default=0), "no card ever enters a hand: the stock is empty and no pile is taken"
    return in_play, "every card in play"


def _largest(s: z3.Solver, term: z3.ArithRef, found: z3.ModelRef, guess: int, *assumptions: z3.BoolRef
             ) -> tuple[int, z3.ModelRef, Answer]:
    """The largest value of `term` in `s` (under `assumptions`), from a model `found`: each step asks for a
    larger value than the last (first for `guess`, where it is larger), and the last answer (unsat, unless
    the solver gave up) shows none is."""
    best = num(found, term)
    if guess > best:
        a = ask(s, *assumptions, ge(term, guess))
        if a.sat:
            found = a.model
            best = num(found, term)
    while True:
        a = ask(s, *assumptions, ge(term, best + 1))
        if not a.sat:
            return best, found, a
        found = a.model
        best = num(found, term)


def _under(s: z3.Solver, facts: list[z3.BoolRef], question: z3.BoolRef) -> Answer:
    """`question` asked of `s` with `facts` added, in a scope of its own."""
    s.push()
    s.add(*facts, question)
    a = ask(s)
    s.pop()
    return a


def _at(subject: Subject, n: int) -> Result:
    naturals, jokers, k = int_var("naturals"), int_var("jokers"), int_var("k")
    rules = _rules(subject, n, naturals, jokers, k)
    s = new_solver()
    labels = [bool_var(f"rule{i}") for i in range(len(rules))]
    s.add(*[implies(label, rule) for label, rule in zip(labels, rules.values())])
    # The guesses save steps where the deck or the cap bounds the claim; the solver decides.
    t = subject.table(n)
    copies = t.packs if subject.cards else t.copies
    wild = subject.rb.deck.jokers if subject.rb.deck.jokers_wild else 0
    cap = subject.rb.claim.max_cards
    s.push()
    s.add(*labels)
    a = ask(s)
    if a.unknown:
        return unknown(PID, a.reason)
    if a.unsat:
        return refuted(PID, "no claim can ever be true: the rules leave no count of one rank that a play can hold")
    assert a.model is not None
    top, m, a = _largest(s, k, a.model, copies + wild if cap is None else min(cap, copies + wild))
    if a.unknown:
        return unknown(PID, a.reason)
    # The largest claim shown with as many natural cards as it can hold.
    nat, m, a = _largest(s, naturals, m, min(copies, top), eq(k, top))
    if a.unknown:
        return unknown(PID, a.reason)
    jok = num(m, jokers)
    s.pop()
    # A true claim of top + 1 is unsat under the rules; those forbidding it are found by leaving out each
    # rule in turn while the rest still forbid it (the same rules whatever Z3 made before).
    beyond = eq(k, top + 1)
    a2 = _under(s, labels, beyond)
    if not a2.unsat:
        return unknown(PID, a2.reason or f"a claim of {top + 1} was not shown impossible")
    kept = list(range(len(rules)))
    for i in range(len(rules)):
        rest = [j for j in kept if j != i]
        if _under(s, [labels[j] for j in rest], beyond).unsat:
            kept = rest
    named = list(rules)
    binding = [named[i].text for i in kept]
    # Without the rules on cards per play, top is still a true claim; the copies may allow more.
    s.push()
    s.add(*[labels[i] for i, rule in enumerate(named) if rule.bound not in (Bound.PER_PLAY, Bound.HANDS)])
    copies_bound, _, a3 = _largest(s, k, m, copies + wild)
    s.pop()
    if a3.unknown:
        copies_bound = -1
    word = _word(subject, top)
    parts = [f"{nat} natural" + ("" if nat == 1 else "s")]
    if jok:
        parts.append(f"{jok} joker" + ("" if jok == 1 else "s"))
    reasons = f"copies allow {copies_bound}" + (f", a play holds at most {cap}" if cap is not None else ", no cap per play")
    held = hand_capacity(subject.rules(n))[0]
    if held < copies_bound:
        reasons += f", a hand never holds more than {held}"
    return proved(PID, f"{top} ({' + '.join(parts)}) is the largest true claim; a claim of {top + 1} is a certain "
                  f"lie ({reasons})", threshold=top, certain_lie_from=top + 1, copies_bound=copies_bound, cap=cap,
                  true_claim=f"{word}: {' and '.join(parts)}", naturals=nat, jokers=jok, binding_rules=binding)


def _with_play(subject: Subject, n: int, found: Result) -> Result:
    """`found` with a game in which its largest true claim is made and shown true at `n` players (or why
    no such game was found)."""
    d = found.details
    if found.verdict is not Verdict.PROVED:
        return found
    play = true_claim_play(subject.game(n), d["threshold"], d["naturals"], d["jokers"], PID)
    if isinstance(play, str):
        return Result(PID, found.verdict, found.summary, {**d, "no_play": play})
    return Result(PID, found.verdict, found.summary, {**d, "witness": play.as_json()})


def _word(subject: Subject, count: int) -> str:
    return f"a true claim of {count} {'copies of one card' if subject.cards else 'of one rank'}"


def _summarize(by: Mapping[int, Result]) -> str:
    if any("threshold" not in r.details for r in by.values()):
        texts: dict[str, list[int]] = {}
        for n, r in by.items():
            texts.setdefault(r.summary, []).append(n)
        return "; ".join(f"{counts_text(ns)}: {text}" for text, ns in texts.items())
    groups: dict[int, list[int]] = {}
    for n, r in by.items():
        groups.setdefault(r.details["threshold"], []).append(n)
    return "; ".join(f"{t} at {counts_text(ns)}, {t + 1} a certain lie" for t, ns in sorted(groups.items()))


def _most_said(subject: Subject, n: int) -> int | None:
    """The largest count a claim may say at `n` players (None: no bound below the deck's size)."""
    rules = subject.rules(n)
    if rules.any_count:
        return rules.count_cap
    return rules.max_cards


def _premise(subject: Subject, n: int) -> Result | None:
    """The verdict at `n` players where the count of matching cards cannot say what a call judges: no call may
    be made there (not applicable), or a call sees less than the whole play while a claim may say more than
    one card (unknown: the judge decides)."""
    from cheatdsl.derived import allowed_kinds
    from cheatdsl.model import ChallengeTest, Reveal
    kinds = allowed_kinds(subject.rb, n)
    if not kinds:
        return not_applicable(PID, "no challenge may be made at this player count, so no claim is ever judged")
    said = _most_said(subject, n)
    if said is not None and said <= 1:
        return None  # every claim is of one card: a call that sees less still judges a claim of one
    by_hand = [k.name for k in kinds if k.test is ChallengeTest.HAND]
    if by_hand:
        return unknown(PID, f"a call of `{by_hand[0]}` asks for one card of the claim from the hand, so it can judge "
                       "true a claim larger than any play holds, and the card it shows changes hands: a call on "
                       "a claim past the cards is not sure to win (the exhaustive judge decides small tables: "
                       "`verify --exhaustive`)", sees="hand")
    if subject.rb.challenge.reveal is Reveal.TOP_CARD:
        return unknown(PID, "a call turns over only the top card of the play (`challenge.reveal: top_card`), so it "
                       "can judge true a claim larger than any play holds: a call on a claim past the cards is "
                       "not sure to win (the exhaustive judge decides small tables: `verify --exhaustive`)",
                       sees="top_card")
    return None


def _shown(found: Result) -> Result:
    """A threshold stands only where a game from a deal shows a call judge that claim true; else unknown."""
    d = found.details
    if found.verdict is not Verdict.PROVED:
        return found
    start = d.get("witness", {}).get("start", {})
    judged = d.get("witness", {}).get("expect", {}).get("caught") is False
    if "witness" not in d or "position" in start or not judged:
        why = d.get("no_play", "the game does not start from a deal" if "witness" not in d or "position" in start
                    else "the play is never called: it stands unseen")
        return unknown(PID, f"the rules allow a true claim of {d['threshold']}, but no game from a deal shows a "
                       f"call judge it true ({why})", **{k: v for k, v in d.items() if k != "witness"})
    return Result(found.id, found.verdict, found.summary, {**d, "rests_on": [
        f"a call judges a claim of {d['threshold']} true in a game from a deal at this player count (the witness)",
        "every call allowed here turns the whole play over"]})


@register(PID, "the largest count of one claim that a call can judge true; one more is a certain lie")
def claim_threshold(subject: Subject) -> Result:
    by: dict[int, Result] = {}
    for n in subject.counts:
        premise = _premise(subject, n)
        if premise is not None:
            by[n] = premise
            continue
        t = subject.table(n)
        # What a hand can hold is part of the key only where it is fewer cards than the claim could hold.
        held = hand_capacity(subject.rules(n))[0]
        wild = subject.rb.deck.jokers if subject.rb.deck.jokers_wild else 0
        key = (PID, t.packs, t.copies, set_size(subject.rb, n, t.copies),
               held if held < (t.packs if subject.cards else t.copies) + wild else None)
        if key not in subject.cache:
            subject.cache[key] = _at(subject, n)
        # The game showing the claim judged true is played at each count (a game at one table size says
        # nothing of another's: its hands, its turn order, its calls); where it is, the result shown is the
        # first such count's, with its game, so that the counts sharing a threshold read as one.
        played = _shown(_with_play(subject, n, subject.cache[key]))
        if played.verdict is Verdict.PROVED:
            played = subject.cache.setdefault((key, "shown"), played)
        by[n] = played
    return combine(PID, by, _summarize)
