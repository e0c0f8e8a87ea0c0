"""Who resolves a challenge and who leads after a round: challenge-priority, round-rank.

Seats are counted by their distance from the claimant in turn order (the claimant is distance 0), so
"first clockwise" is a minimum over integers and every player count in range is one Z3 query.
`first_caller` ("whoever called first") is refuted, with two callers at the same moment as the
witness, rather than reported unknown: the rules, not the solver, leave it open, and `unknown` is kept
for a solver that gave up.
"""

from __future__ import annotations

from typing import Any

import z3

from cheatdsl.derived import allowed_kinds, claim_set, turn_step
from cheatdsl.expr import FactUnavailable
from cheatdsl.model import EndStyle, Formula, Priority, RoundEnd

from .calls import shown_places
from .facts import NotConcrete, seats_after_any_deal
from .registry import register
from .solver import Answer, ask, new_solver, num, truth
from .subject import Subject
from .verdict import Result, combine, not_applicable, proved, refuted, unknown

PRIORITY = "challenge-priority"
ROUND = "round-rank"


def _challengeable(subject: Subject, n: int) -> bool:
    """Whether some kind of challenge may be made at `n` players."""
    return bool(allowed_kinds(subject.rb, n))


def _priority_rule(priority: Priority, calls: list[z3.BoolRef], times: list[z3.ArithRef], r: int) -> z3.BoolRef:
    """The rule's reading of "the challenger at distance r is the one who resolves"."""
    if priority is Priority.FIRST_CALLER:
        # Whoever called first: nothing in the rules orders two calls made at the same moment.
        return z3.And(calls[r], *[z3.Implies(calls[d], times[r] <= times[d]) for d in range(1, len(calls)) if d != r])
    # first_clockwise, and offered_in_turn (asked one by one from the claimant's left): the nearest caller.
    return z3.And(calls[r], *[z3.Not(calls[d]) for d in range(1, r)])


def _counts_where(s: z3.Solver, seats: z3.ArithRef) -> tuple[dict[int, z3.ModelRef], Answer | None]:
    """Every player count at which the solver's question is sat, with a model for each."""
    found: dict[int, z3.ModelRef] = {}
    s.push()
    while True:
        a = ask(s)
        if not a.sat:
            s.pop()
            return found, (a if a.unknown else None)
        assert a.model is not None
        n = num(a.model, seats)
        found[n] = a.model
        s.add(seats != n)


@register(PRIORITY, "simultaneous challengers always resolve to exactly one seat, never the claimant")
def challenge_priority(subject: Subject) -> Result:
    priority = subject.rb.challenge.priority
    active = [n for n in subject.counts if _challengeable(subject, n)]
    by: dict[int, Result] = {n: not_applicable(PRIORITY, "no challenge may be made at this player count")
                             for n in subject.counts if n not in active}
    if active:
        top = max(active)
        seats = z3.Int("seats")
        calls = [z3.BoolVal(False)] + [z3.Bool(f"calls_{d}") for d in range(1, top)]
        times = [z3.Int(f"called_at_{d}") for d in range(top)]
        resolved = z3.Int("resolved")
        s = new_solver()
        s.add(z3.Or([seats == n for n in active]))
        s.add(*[z3.Implies(calls[d], d < seats) for d in range(1, top)], z3.Or(calls[1:]) if top > 1 else z3.BoolVal(False))
        rule = [_priority_rule(priority, calls, times, r) for r in range(top)]
        s.add(z3.Or([z3.And(resolved == r, rule[r]) for r in range(1, top)]) if top > 1 else z3.BoolVal(True))
        questions = {
            "two": z3.Or([z3.And(rule[a], rule[b]) for a in range(1, top) for b in range(a + 1, top)] or [z3.BoolVal(False)]),
            "none": z3.And([z3.Not(r) for r in rule[1:]]),
            "claimant": resolved % seats == 0,
        }
        bad: dict[int, tuple[str, z3.ModelRef]] = {}
        for name, question in questions.items():
            s.push()
            s.add(question)
            found, stuck = _counts_where(s, seats)
            s.pop()
            if stuck is not None:
                return unknown(PRIORITY, stuck.reason)
            for n, m in found.items():
                if n not in bad:
                    bad[n] = (name, m)
        # One game shows the rule at work: the first refutation, or else a table of the fewest seats where
        # two callers need not sit side by side.
        shown = min(bad, default=min((n for n in active if n >= 4), default=min((n for n in active if n >= 3),
                                                                                  default=None)))
        for n in active:
            if n in bad:
                by[n] = _priority_witness(*bad[n], calls, n, priority, subject if n == shown else None)
            else:
                by[n] = proved(PRIORITY, _priority_text(priority),
                               **(_game(subject, n, shown_places(n)) if n == shown else {}))
    return combine(PRIORITY, by)


def _priority_text(priority: Priority) -> str:
    if priority is Priority.OFFERED_IN_TURN:
        return "each opponent is asked in turn from the claimant's left: exactly one challenge resolves, never the claimant's"
    if priority is Priority.FIRST_CLOCKWISE:
        return "the first caller clockwise from the claimant resolves: always exactly one, never the claimant"
    return "only one player can call, so exactly one challenger resolves, never the claimant"


def _game(subject: Subject, n: int, places: tuple[int, ...]) -> dict[str, Any]:
    """The interpreter's game in which the seats `places` seats after the claimant call at once, as details."""
    from .calls import calls_game
    w = calls_game(subject.rb, n, places)
    return {"witness": w.as_json()} if w is not None else {}


def _priority_witness(question: str, m: z3.ModelRef, calls: list[z3.BoolRef], n: int, priority: Priority,
                      subject: Subject | None) -> Result:
    """The refutation at `n` players; with `subject`, the interpreter's game showing it (the first found only)."""
    callers = [d for d in range(1, n) if truth(m, calls[d])]
    seats = ", ".join(f"seat +{d}" for d in callers)
    if question == "two" and priority is Priority.FIRST_CALLER:
        return refuted(PRIORITY, "the rules do not determine it: when two players call at the same moment, "
                       "`first_caller` (whoever called first) names both", callers=[f"seat +{d}" for d in callers],
                       at_once=f"{seats} (counted from the claimant) call at the same moment",
                       **(_game(subject, n, tuple(callers)) if subject is not None else {}))
    what = {"two": "two challengers both resolve", "none": "no challenger resolves",
            "claimant": "the claimant resolves the challenge"}[question]
    return refuted(PRIORITY, f"{what} when {seats} call", callers=[f"seat +{d}" for d in callers])


def _named(subject: Subject, n: int, formula: Formula, **facts: Any) -> set[int | None]:
    """Every seat `formula` names after a round that ended so, whoever deals and holds the cards it names."""
    return seats_after_any_deal(formula, subject.rb, subject.table(n), step=turn_step(subject.rb), **facts)


def _outcomes(subject: Subject, n: int) -> list[tuple[str, int | None]] | str:
    """Every way a round can end at `n` players, and each seat the rules may name to lead next."""
    rb = subject.rb
    rows: list[tuple[str, int | None]] = []
    try:
        if RoundEnd.CHALLENGE in rb.claim.round_ends:
            for claimant in range(n):
                for challenger in range(n):
                    if challenger == claimant:
                        continue
                    for caught in (True, False):
                        winner, loser = (challenger, claimant) if caught else (claimant, challenger)
                        for seat in sorted(_named(subject, n, rb.challenge.next_player, claimant=claimant,
                                                  challenger=challenger, caught=caught, winner=winner, loser=loser),
                                           key=lambda x: -1 if x is None else x):
                            rows.append((f"seat {challenger} challenges seat {claimant}'s "
                                         f"{'lie' if caught else 'true claim'}", seat))
        if RoundEnd.ALL_PASS in rb.claim.round_ends:
            for last in range(n):
                leader = rb.passing.all_pass_leader
                seats = {None} if leader is None else _named(subject, n, leader, last_player=last)
                for seat in sorted(seats, key=lambda x: -1 if x is None else x):
                    rows.append((f"everyone passes after seat {last} played", seat))
    except NotConcrete as exc:
        return f"the next leader depends on {exc}"
    return rows


def _round_at(subject: Subject, n: int) -> Result:
    rb = subject.rb
    outcomes = _outcomes(subject, n)
    if isinstance(outcomes, str):
        return unknown(ROUND, outcomes)
    space = subject.space(n)
    try:
        leads = [(prev, claim_set(rb.claim.lead, space, n, prev)) for prev in space.order]
    except FactUnavailable as exc:
        return unknown(ROUND, f"the lead depends on {exc}")
    outcome, prev, named = z3.Ints("outcome previous named")
    seated = [z3.Bool(f"in_{i}") for i in range(n)]
    s = new_solver()
    s.add(0 <= outcome, outcome < len(outcomes), 0 <= prev, prev < len(leads))
    s.add(*[z3.Implies(outcome == i, named == (-1 if seat is None else seat)) for i, (_, seat) in enumerate(outcomes)])
    # A new round is led while two or more seats hold cards; with first_out nobody has gone out yet.
    s.add(z3.Sum([z3.If(x, 1, 0) for x in seated]) >= 2)
    if rb.ending.style is EndStyle.FIRST_OUT:
        s.add(*seated)
    no_claim = z3.Or([prev == i for i, (_, allowed) in enumerate(leads) if not allowed] or [z3.BoolVal(False)])
    # The seat named leads; if it has gone out, the next seat in turn order still in the game does.
    no_leader = z3.Or(named == -1, z3.Not(z3.Or(seated)))
    s.add(z3.Or(no_claim, no_leader))
    a = ask(s)
    if a.unknown:
        return unknown(ROUND, a.reason)
    if a.sat:
        m = a.model
        i = num(m, outcome)
        p = num(m, prev)
        if num(m, named) == -1:
            rule = rb.challenge.next_player if "challenges" in outcomes[i][0] else rb.passing.all_pass_leader
            text = f"`{rule.text}`" if rule is not None else "no rule"
            return refuted(ROUND, f"when {outcomes[i][0]}, {text} names no seat to lead", outcome=outcomes[i][0])
        return refuted(ROUND, f"after a round of {subject.claim_name(leads[p][0])}, `lead: {rb.claim.lead.text}` "
                       "allows no claim in the deck", previous=subject.claim_name(leads[p][0]))
    ends = " or ".join(w for e, w in ((RoundEnd.CHALLENGE, "after a challenge"), (RoundEnd.ALL_PASS, "when everyone passes"))
                       if e in rb.claim.round_ends)
    return proved(ROUND, f"{ends} the next leader is always a seat (the next one still in if it is out) "
                  f"and `lead: {rb.claim.lead.text}` always allows a claim", outcomes=len(outcomes))


@register(ROUND, "in games whose rounds end, the round's claim and the next leader are defined after every outcome")
def round_rank(subject: Subject) -> Result:
    if not subject.rb.claim.round_ends:
        return not_applicable(ROUND, "rounds never end: the claim sequence runs on through every challenge")
    by = {n: _round_at(subject, n) for n in subject.counts}
    return combine(ROUND, by)

