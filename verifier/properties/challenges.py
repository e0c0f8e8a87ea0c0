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

from cheatdsl.derived import allowed_kinds, turn_step
from cheatdsl.expr import FactUnavailable
from cheatdsl.model import EndStyle, Formula, Priority, RoundEnd, Rulebook

from ..encoding.facts import NotConcrete, holder_cards, seats_after_any_deal
from ..encoding.graph import claim_graph
from ..encoding.subject import Subject
from ..solving.solver import Answer, ask, new_solver, num, truth
from ..solving.terms import add, and_, bool_var, eq, ge, gt, implies, int_var, le, lt, ne, not_, one_if, or_
from .calls import shown_places
from .registry import register
from .verdict import Result, Verdict, combine, not_applicable, proved, refuted, unknown

PRIORITY = "challenge-priority"
ROUND = "round-rank"


def _challengeable(subject: Subject, n: int) -> bool:
    """Whether some kind of challenge may be made at `n` players."""
    return bool(allowed_kinds(subject.rb, n))


def _priority_rule(priority: Priority, calls: list[z3.BoolRef], times: list[z3.ArithRef], r: int) -> z3.BoolRef:
    """The rule's reading of "the challenger at distance r is the one who resolves"."""
    if priority is Priority.FIRST_CALLER:
        # Whoever called first: nothing in the rules orders two calls made at the same moment.
        return and_(calls[r], *[implies(calls[d], le(times[r], times[d])) for d in range(1, len(calls)) if d != r])
    # first_clockwise, and offered_in_turn (asked one by one from the claimant's left): the nearest caller.
    return and_(calls[r], *[not_(calls[d]) for d in range(1, r)])


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
        s.add(ne(seats, n))


@register(PRIORITY, "simultaneous challengers always resolve to exactly one seat, never the claimant")
def challenge_priority(subject: Subject) -> Result:
    priority = subject.rb.challenge.priority
    active = [n for n in subject.counts if _challengeable(subject, n)]
    by: dict[int, Result] = {n: not_applicable(PRIORITY, "no challenge may be made at this player count")
                             for n in subject.counts if n not in active}
    if active:
        top = max(active)
        seats = int_var("seats")
        calls = [z3.BoolVal(False)] + [bool_var(f"calls_{d}") for d in range(1, top)]
        times = [int_var(f"called_at_{d}") for d in range(top)]
        resolved = int_var("resolved")
        s = new_solver()
        s.add(or_([eq(seats, n) for n in active]))
        s.add(*[implies(calls[d], gt(seats, d)) for d in range(1, top)], or_(calls[1:]) if top > 1 else z3.BoolVal(False))
        rule = [_priority_rule(priority, calls, times, r) for r in range(top)]
        s.add(or_([and_(eq(resolved, r), rule[r]) for r in range(1, top)]) if top > 1 else z3.BoolVal(True))
        questions = {
            "two": or_([and_(rule[a], rule[b]) for a in range(1, top) for b in range(a + 1, top)] or [z3.BoolVal(False)]),
            "none": and_([not_(r) for r in rule[1:]]),
            # The claimant is a whole number of turns round the table: `resolved % seats == 0`, written out
            # over the distances `resolved` can take (1 to top - 1), which keeps the arithmetic linear.
            "claimant": or_([and_(eq(seats, n), or_([eq(resolved, r) for r in range(n, top, n)]))
                             for n in active if n < top] or [z3.BoolVal(False)]),
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
        table = "the priority rule read over every set of callers at {n} seats (Z3)"
        for n in active:
            if n in bad:
                # Two calls at once are a play fact: the refutation at `n` stands on a game from a deal there.
                by[n] = _priority_witness(*bad[n], calls, n, priority, subject)
                if by[n].verdict is Verdict.REFUTED and bad[n][0] == "two" and "witness" not in by[n].details:
                    by[n] = unknown(PRIORITY, f"the rules let two seats call at once at {n} players, but no game "
                                    "from a deal shows a play that two seats may call")
                elif n != shown:  # the game was played at this count too; the one shown is the first count's
                    by[n] = Result(by[n].id, by[n].verdict, by[n].summary,
                                   {k: v for k, v in by[n].details.items() if k != "witness"})
                if by[n].verdict is Verdict.REFUTED:
                    by[n].details["rests_on"] = [table.format(n=n)] + (
                        [f"a game from a deal at {n} players in which two seats may call on one play"]
                        if bad[n][0] == "two" else [])
            else:
                by[n] = proved(PRIORITY, _priority_text(priority), rests_on=[table.format(n=n)],
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
    w = calls_game(subject.game(n), places)
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


def _named(subject: Subject, n: int, formula: Formula, asked: tuple[int, ...], **facts: Any) -> set[int | None]:
    """Every seat `formula` names after a round that ended so, whoever deals and holds the cards it names
    (`asked`: `holder_cards` of the formula)."""
    return seats_after_any_deal(formula, subject.rb, subject.table(n), step=turn_step(subject.rb), asked=asked,
                                **facts)


def _outcomes(subject: Subject, n: int) -> list[tuple[str, int | None]] | str:
    """Every way a round can end at `n` players, and each seat the rules may name to lead next."""
    rb = subject.rb
    rows: list[tuple[str, int | None]] = []
    try:
        if RoundEnd.CHALLENGE in rb.claim.round_ends:
            asked = holder_cards(rb.challenge.next_player, rb)
            for claimant in range(n):
                for challenger in range(n):
                    if challenger == claimant:
                        continue
                    for caught in (True, False):
                        winner, loser = (challenger, claimant) if caught else (claimant, challenger)
                        for seat in sorted(_named(subject, n, rb.challenge.next_player, asked, claimant=claimant,
                                                  challenger=challenger, caught=caught, winner=winner, loser=loser),
                                           key=lambda x: -1 if x is None else x):
                            rows.append((f"seat {challenger} challenges seat {claimant}'s "
                                         f"{'lie' if caught else 'true claim'}", seat))
        if RoundEnd.ALL_PASS in rb.claim.round_ends:
            leader = rb.passing.all_pass_leader
            asked = holder_cards(leader, rb) if leader is not None else ()
            for last in range(n):
                seats = {None} if leader is None else _named(subject, n, leader, asked, last_player=last)
                for seat in sorted(seats, key=lambda x: -1 if x is None else x):
                    rows.append((f"everyone passes after seat {last} played", seat))
    except NotConcrete as exc:
        return f"the next leader depends on {exc}"
    return rows


def _round_at(subject: Subject, n: int, gaps: _Gaps) -> Result:
    rb = subject.rb
    outcomes = _outcomes(subject, n)
    if isinstance(outcomes, str):
        return unknown(ROUND, outcomes)
    try:
        claims = subject.claim_rules(n)
        leads = [(prev, claims.lead[prev]) for prev in claims.order]
    except FactUnavailable as exc:
        return unknown(ROUND, f"the lead depends on {exc}")
    g = claim_graph(subject, n)
    if isinstance(g, str):
        return unknown(ROUND, g)
    # A round ends after a claim that was made: one the claim graph reaches from a first claim. A gap in
    # the lead after a claim nobody can make is no gap in any game.
    made = frozenset().union(*(g.reachable_from(i) for i in g.start))
    leads = [(prev, allowed) for i, (prev, allowed) in enumerate(leads) if i in made]
    a = gaps.ask(n, {-1 if seat is None else seat for _, seat in outcomes}, len(leads),
                 [i for i, (_, allowed) in enumerate(leads) if not allowed])
    if a.unsat:
        return _round_proved(subject, len(outcomes))
    # A gap, or an answer to explain: the question again, one row per outcome, in a solver of its own.
    outcome, prev, named = int_var("outcome"), int_var("previous"), int_var("named")
    seated = [bool_var(f"in_{i}") for i in range(n)]
    s = new_solver()
    s.add(ge(outcome, 0), lt(outcome, len(outcomes)), ge(prev, 0), lt(prev, len(leads)))
    s.add(*[implies(eq(outcome, i), eq(named, -1 if seat is None else seat)) for i, (_, seat) in enumerate(outcomes)])
    # A new round is led while two or more seats hold cards; with first_out nobody has gone out yet.
    s.add(ge(add([one_if(x) for x in seated]), 2))
    if rb.ending.style is EndStyle.FIRST_OUT:
        s.add(*seated)
    no_claim = or_([eq(prev, i) for i, (_, allowed) in enumerate(leads) if not allowed] or [z3.BoolVal(False)])
    # The seat named leads; if it has gone out, the next seat in turn order still in the game does.
    no_leader = or_(eq(named, -1), not_(or_(seated)))
    s.add(or_(no_claim, no_leader))
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
            return _gap_in_play(subject, n, f"when {outcomes[i][0]}, {text} names no seat to lead",
                                outcome=outcomes[i][0])
        return _gap_in_play(subject, n, f"after a round of {subject.claim_name(leads[p][0])}, "
                            f"`lead: {rb.claim.lead.text}` allows no claim in the deck",
                            previous=subject.claim_name(leads[p][0]))
    return _round_proved(subject, len(outcomes))


def _gap_in_play(subject: Subject, n: int, table_gap: str, **details: Any) -> Result:
    """A gap the rule tables show, refuted only where a game from a deal meets a gap (seeded games played by
    the interpreter's bots): an outcome or a claim the tables count may never happen in play."""
    from cheatdsl.simulate.engine import Engine

    from .games import play_games
    found = play_games(subject.game(n), look=("gap",), engine=Engine.PYTHON)
    w = found.witnesses.get("gap")
    if w is None:
        return unknown(ROUND, f"the rule tables leave a gap ({table_gap}), but none of {found.games} games from a "
                       "deal met it: it may never happen in play", table_gap=table_gap, **details)
    return refuted(ROUND, f"{table_gap}; shown in play: {w.summary}", witness=w.as_json(), table_gap=table_gap,
                   rests_on=[f"a game from a deal in which the gap is met ({found.games} games played)"], **details)


def _round_proved(subject: Subject, outcomes: int) -> Result:
    rb = subject.rb
    ends = " or ".join(w for e, w in ((RoundEnd.CHALLENGE, "after a challenge"), (RoundEnd.ALL_PASS, "when everyone passes"))
                       if e in rb.claim.round_ends)
    return proved(ROUND, f"{ends} the next leader is always a seat (the next one still in if it is out) "
                  f"and `lead: {rb.claim.lead.text}` always allows a claim", outcomes=outcomes,
                  rests_on=[f"every way a round can end ({outcomes}), each with every seat the rules may name, "
                            "and every claim made before it (Z3 over the rule tables)"])


class _Gaps:
    """Whether a round can end with no seat to lead or no claim to lead, asked of the seats the outcomes
    name (each once) rather than of every outcome: one solver for every player count, each count's
    question in a scope of its own. Only unsat is read from it."""

    def __init__(self, rb: Rulebook) -> None:
        self.rb = rb
        self._solver: tuple[z3.Solver, z3.ArithRef, z3.ArithRef, list[z3.BoolRef]] | None = None

    def ask(self, n: int, named_seats: set[int], claims: int, no_claim_after: list[int]) -> Answer:
        if self._solver is None:
            self._solver = (new_solver(), int_var("previous"), int_var("named"), [])
        s, prev, named, seated = self._solver
        seated.extend(bool_var(f"in_{i}") for i in range(len(seated), n))
        here = seated[:n]
        s.push()
        s.add(or_([eq(named, v) for v in sorted(named_seats)]) if named_seats else z3.BoolVal(False))
        s.add(ge(prev, 0), lt(prev, claims))
        # As in `_round_at`: two or more seats hold cards (all of them with first_out).
        s.add(ge(add([one_if(x) for x in here]), 2))
        if self.rb.ending.style is EndStyle.FIRST_OUT:
            s.add(*here)
        no_claim = or_([eq(prev, i) for i in no_claim_after] or [z3.BoolVal(False)])
        s.add(or_(no_claim, or_(eq(named, -1), not_(or_(here)))))
        a = ask(s)
        s.pop()
        return Answer(a.status, a.reason)


@register(ROUND, "in games whose rounds end, the round's claim and the next leader are defined after every outcome")
def round_rank(subject: Subject) -> Result:
    if not subject.rb.claim.round_ends:
        return not_applicable(ROUND, "rounds never end: the claim sequence runs on through every challenge")
    gaps = _Gaps(subject.rb)
    by = {n: _round_at(subject, n, gaps) for n in subject.counts}
    return combine(ROUND, by)

