"""The invariants of a game, found and proved together (Houdini): candidates that fail are dropped.

Each candidate is a group of facts about a state (the typing of the facts, card conservation, who
can be out, the winner, no stuck seat ...) or about a step (a winner never changes, a challenge's
loser picks up a card). All surviving groups together are one inductive invariant: the deal
satisfies them, and a step from a state satisfying all of them satisfies all of them again. A
group that fails is dropped with its counterexample and the rest are checked again.

The check runs on the merged game (`merge_values`: card values merged, verdicts left open), in
which every step of the real game is a step; a step is checked from seat 0 when the rules are
the same from every seat (`symmetry.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import z3

from ..encoding.deal import initial
from ..encoding.spec import FOLLOW, Spec, merge_values
from ..encoding.state import State, Term, fresh, hand, in_count
from ..encoding.symmetry import rotation_symmetric
from ..encoding.transitions import ACCEPT, CHALLENGE, PASS, Action, Builder, fresh_action
from ..solving.solver import ask, new_solver
from ..solving.terms import add, and_, eq, ge, implies, le, lt, ne, not_, or_

StateClaims = Callable[[Spec, State], dict[str, Term]]
StepClaims = Callable[[Spec, State, State, Builder], dict[str, Term]]


def typing(sp: Spec, s: State) -> dict[str, Term]:
    """What every state satisfies by the meaning of its facts (ranges of seats, claims and counters)."""
    n = sp.n
    return {
        "the seat to act is a seat": and_(ge(s.actor, 0), lt(s.actor, n)),
        "the last claim is a claim or none": and_(ge(s.prev, -1), lt(s.prev, len(sp.claims))),
        "the claim mode is first, follow or lead": and_(ge(s.mode, 0), le(s.mode, 2)),
        "the dealer is a seat": and_(ge(s.dealer, 0), lt(s.dealer, n)),
        "the winner is a seat or none": and_(ge(s.winner, -1), lt(s.winner, n)),
        "the loser is a seat or none": and_(ge(s.loser, -1), lt(s.loser, n)),
        "the last player is a seat or none": and_(ge(s.last, -1), lt(s.last, n)),
        "passes and turns count up from zero": and_(ge(s.passes, 0), ge(s.turns, 0)),
        "sets discarded count up from zero": and_(*[ge(k, 0) for k in s.nsets]) if s.nsets else z3.BoolVal(True),
        "a round's lead and the claim mode agree": or_(s.over, eq(s.leading, ne(s.mode, FOLLOW))),
        "a claim is followed only after a claim": or_(ne(s.mode, FOLLOW), ge(s.prev, 0)),
    }


def conservation(sp: Spec, s: State) -> dict[str, Term]:
    """Each card value: hands + pile + stock + aside + gone + sets = the deck, every count from zero."""
    out: dict[str, Term] = {}
    for i in range(sp.width):
        places = [s.h[q][i] for q in range(sp.n)] + [s.pile[i], s.stock[i], s.aside[i], s.gone[i], s.sets[i]]
        out[f"cards of class {i} conserved"] = and_(eq(add(places), sp.deck[i]), *[ge(p, 0) for p in places])
    return out


def turn_order(sp: Spec, s: State) -> dict[str, Term]:
    """The turn always falls to a seat still in, with another seat to answer; every rule names a seat."""
    n = sp.n
    return {
        "the seat to act is still in": or_(s.over, or_(*[and_(eq(s.actor, i), s.inn[i]) for i in range(n)])),
        "two seats or more are in while the game goes on": or_(s.over, ge(in_count(s), 2)),
        "every seat rule named a seat": not_(s.nodef),
    }


def out_keeps_cards_at_end(sp: Spec) -> bool:
    """Whether a seat going out may keep its cards: one that goes out at the start of its turn
    (`turn_start_win`) with only one other seat left keeps them, and the game ends there."""
    return sp.trees.turn_start_win is not None and not sp.rules.first_out


def outs_hold_nothing(sp: Spec, s: State) -> dict[str, Term]:
    """A seat out holds nothing (while the game goes on, where `out_keeps_cards_at_end`)."""
    if not out_keeps_cards_at_end(sp):
        return {f"seat {i} holds nothing once out": or_(s.inn[i], eq(hand(s, i), 0)) for i in range(sp.n)}
    return {f"seat {i} holds nothing once out": or_(s.over, s.inn[i], eq(hand(s, i), 0)) for i in range(sp.n)}


def winner(sp: Spec, s: State) -> dict[str, Term]:
    n = sp.n
    ended = and_(s.over, not_(s.capped))
    if sp.rules.first_out:
        return {"a game over by the rules has a winner": or_(not_(ended), and_(ge(s.winner, 0), lt(s.winner, n))),
                "a winner ends the game": or_(lt(s.winner, 0), s.over)}
    one_left = and_(eq(in_count(s), 1), ge(s.loser, 0), or_(*[and_(eq(s.loser, i), s.inn[i]) for i in range(n)]))
    return {"the first out is out": or_(lt(s.winner, 0), *[and_(eq(s.winner, i), not_(s.inn[i])) for i in range(n)]),
            "a game over by the rules has one loser, the one seat left": or_(not_(ended),
                                                                              and_(one_left, ge(s.winner, 0))),
            "no loser while the game goes on": or_(s.over, eq(s.loser, -1))}


def winner_step(sp: Spec, s: State, t: State, b: Builder) -> dict[str, Term]:
    return {"a winner stays the winner": or_(lt(s.winner, 0), eq(t.winner, s.winner))}


def passes_lemma(sp: Spec, s: State) -> dict[str, Term]:
    """Passes in a row stay fewer than the seats still in (when all have passed, the count starts again)."""
    return {"passes in a row are fewer than the seats in": or_(s.over, lt(s.passes, in_count(s)))}


def no_deadlock(sp: Spec, s: State) -> dict[str, Term]:
    return {"the seat to play has a legal action": not_(s.stuck)}


def hands_lemma(sp: Spec, s: State) -> dict[str, Term]:
    """A candidate lemma: every seat still in holds cards enough for a play while the game goes on."""
    return {f"seat {i} holds a play while in": or_(s.over, not_(s.inn[i]), ge(hand(s, i), max(sp.rules.min_cards, 1)))
            for i in range(sp.n)}


def resolution_step(sp: Spec, s: State, t: State, b: Builder) -> dict[str, Term]:
    r = b.resolution
    if not r:
        return {}
    # Where a wrong call costs nothing (`failed_call: free`) only a caught claimant pays.
    return {"the loser of a challenge picks up a card": implies(r["paid"], r["gained"] >= 1)}


CANDIDATES: dict[str, StateClaims] = {
    "typing": typing, "card-conservation": conservation, "turn-order": turn_order, "outs": outs_hold_nothing,
    "winner": winner, "no-deadlock": no_deadlock, "hands": hands_lemma, "passes": passes_lemma,
}
STEP_CANDIDATES: dict[str, tuple[StepClaims, tuple[int, ...]]] = {
    "winner-step": (winner_step, (ACCEPT, CHALLENGE, PASS)),
    "challenge-resolution": (resolution_step, (CHALLENGE,)),
}


@dataclass
class Counterexample:
    """Why a candidate was dropped: the deal or the step (with its kind) that breaks it."""

    group: str
    where: str
    facts: list[str]
    model: z3.ModelRef
    state: State
    after: State | None = None
    action: Action | None = None
    kind: int | None = None
    words: str = ""

    def __post_init__(self) -> None:
        self.words = self.words or cti_words(self)


def cti_words(cx: Counterexample) -> str:
    """The counterexample to induction in a sentence (read while its Z3 context is alive)."""
    m = cx.model
    facts = ", ".join(cx.facts[:2])
    if cx.where == "deal":
        return f"after some deal: {facts} fails"
    sizes = [m.eval(z3.Sum(row), model_completion=True) for row in cx.state.h]
    actor = m.eval(cx.state.actor, model_completion=True)
    kind = {ACCEPT: "play, accepted", CHALLENGE: "play, challenged", PASS: "pass"}.get(cx.kind or 0, "step")
    return (f"from a state with hands of {'/'.join(str(x) for x in sizes)} cards and seat {actor} to play, "
            f"a {kind} leads where «{facts}» fails")


@dataclass
class Invariants:
    """The groups proved inductive together, those dropped (with a counterexample), and how."""

    proved: set[str]
    dropped: dict[str, Counterexample] = field(default_factory=dict)
    unknown: str = ""
    symmetric: bool = False
    queries: int = 0


def _classes(sp: Spec) -> tuple[int, ...]:
    """One natural value and the joker keep their own class: conservation of each is then that of every
    natural value and of the jokers, since the merged game treats all values of a count alike."""
    keep = []
    naturals = [i for i in range(sp.width) if i != sp.joker_index]
    if naturals:
        keep.append(naturals[0])
    if sp.joker_index is not None:
        keep.append(sp.joker_index)
    return tuple(keep)


@dataclass
class Step:
    """One kind of step from a state of fresh variables: the state, the choices, whether the step is
    legal, the state after it, and the builder holding its definitions."""

    kind: int
    s: State
    a: Action
    legal: Term
    after: State
    b: Builder


def kind_steps(ab: Spec, symmetric: bool) -> Iterator[Step]:
    """A step of each kind the rules have (a pass only where passing is allowed), each with its own
    builder; from seat 0 when the rules treat every seat alike. Made one at a time, as they are asked for.
    Every step starts from one state and one action of variables (a step changes neither, it copies them)."""
    s: State | None = None
    a: Action | None = None
    for kind in (ACCEPT, CHALLENGE, PASS):
        if kind == PASS and not ab.rules.may_pass:
            continue
        b = Builder(ab)
        if s is None or a is None:
            s = fresh(ab, "s")
            if symmetric:
                s.actor = z3.IntVal(0)
            a = fresh_action(ab, "a")
        legal, after = b.step_kind(s, a, kind)
        yield Step(kind, s, a, legal, after, b)


@dataclass
class ProofParts:
    """What an induction proof is made of, for writing its obligations out (`verifier/certificates.py`):
    the merged game, the deal's constraints and state, the step of each kind, and the groups proved."""

    spec: Spec
    deal: list[Term]
    start: State
    steps: list[Step]
    proved: set[str]
    symmetric: bool


def proof_game(sp: Spec) -> Spec:
    """The merged game the invariants of `sp` are proved on (what a reader of `Invariants.proved` may
    assume of every reachable state is stated over its states)."""
    # With jokers, all the groups are proved on one class of cards and conservation of each value apart
    # (smaller queries); otherwise one natural value is kept apart for all of them at once.
    return merge_values(sp) if sp.joker_index is not None else merge_values(sp, _classes(sp))


def houdini(sp: Spec, groups: tuple[str, ...] | None = None, timeout_ms: int | None = None,
            recorder: Callable[[ProofParts], None] | None = None) -> Invariants:
    """The largest inductive subset of the candidate groups, on the merged game of `sp`; `recorder`, when
    given, is handed the parts of the proof once it is made."""
    ab = proof_game(sp)
    symmetric = rotation_symmetric(ab)
    alive = [g for g in (groups or (*CANDIDATES, *STEP_CANDIDATES))]
    result = Invariants(set(), symmetric=symmetric)
    if not sp.seats_leave:
        alive = [g for g in alive if g != "outs"]
    if not sp.rules.may_pass:
        alive = [g for g in alive if g != "passes"]

    b0 = Builder(ab)
    cons, start, _ = initial(b0, "deal")
    steps = list(kind_steps(ab, symmetric))

    # Each group's claims about a state, made once for states of the same terms (the steps of every kind
    # start from the same state of variables).
    made: dict[tuple[tuple[object, ...], str], dict[str, Term]] = {}

    def state_claims(state: State, names: list[str]) -> dict[tuple[str, str], Term]:
        out = {}
        key = _content(state)
        for g in names:
            if g in CANDIDATES:
                if (key, g) not in made:
                    made[(key, g)] = CANDIDATES[g](ab, state)
                for k, v in made[(key, g)].items():
                    out[(g, k)] = v
        return out

    # The base case: each state group holds after every deal (step groups hold vacuously).
    solver = new_solver(timeout_ms=timeout_ms, older_arith=True)
    solver.add(*cons)
    while True:
        goal = state_claims(start, alive)
        if not goal:
            break
        solver.push()  # asserted in a scope, as the steps' goals below
        solver.add(not_(and_(list(goal.values()))))
        answer = ask(solver)
        solver.pop()
        result.queries += 1
        if answer.unknown:
            return Invariants(set(), unknown=answer.reason, symmetric=symmetric, queries=result.queries)
        if answer.unsat:
            break
        bad = _broken(goal, answer.model)
        for g, facts in bad.items():
            result.dropped[g] = Counterexample(g, "deal", facts, answer.model, start)
            alive.remove(g)

    # The steps: drop what fails, then check the rest again, until nothing fails.
    solvers = {}
    for st in steps:
        sv = new_solver(timeout_ms=timeout_ms, older_arith=True)
        sv.add(st.legal, *st.b.defs, not_(st.s.over))
        solvers[st.kind] = sv
    changed = True
    while changed and alive:
        changed = False
        for st in steps:
            assumed = state_claims(st.s, alive)
            goal = state_claims(st.after, alive)
            for g in alive:
                if g in STEP_CANDIDATES and st.kind in STEP_CANDIDATES[g][1]:
                    for k, v in STEP_CANDIDATES[g][0](ab, st.s, st.after, st.b).items():
                        goal[(g, k)] = v
            if not goal:
                continue
            # Asserted in a scope rather than assumed: the solver simplifies with them (faster on big tables).
            sv = solvers[st.kind]
            sv.push()
            sv.add(*assumed.values(), not_(and_(list(goal.values()))))
            answer = ask(sv)
            sv.pop()
            result.queries += 1
            if answer.unknown:
                return Invariants(set(), result.dropped, unknown=answer.reason, symmetric=symmetric,
                                  queries=result.queries)
            if answer.sat:
                for g, facts in _broken(goal, answer.model).items():
                    result.dropped[g] = Counterexample(g, "step", facts, answer.model, st.s, st.after, st.a, st.kind)
                    alive.remove(g)
                changed = True
                break
    result.proved = set(alive)
    if sp.joker_index is not None and "card-conservation" in result.proved:
        # The merged game above has one class of cards; conservation of each value is checked on the
        # game that keeps one natural value and the joker apart (assuming only the typing facts).
        per_value = _per_value(sp, symmetric, timeout_ms)
        result.queries += 1
        if isinstance(per_value, str):  # the solver gave no answer: nothing is claimed from this proof
            return Invariants(set(), result.dropped, unknown=per_value, symmetric=symmetric, queries=result.queries)
        if per_value is not None:
            result.proved.discard("card-conservation")
            result.dropped["card-conservation"] = per_value
    if recorder is not None and not result.unknown:
        recorder(ProofParts(ab, list(cons), start, steps, set(result.proved), symmetric))
    return result


def _per_value(sp: Spec, symmetric: bool, timeout_ms: int | None) -> Counterexample | str | None:
    """Conservation of each card class on the game that keeps one natural value and the joker apart: after
    every deal, and after a step of each kind from a state where it holds (with the typing facts); the
    first counterexample, None when it holds, or the solver's reason when a query got no answer. One
    solver serves the steps, which start from one state."""
    ab = merge_values(sp, _classes(sp))
    b0 = Builder(ab)
    cons, start, _ = initial(b0, "deal")
    solver = new_solver(timeout_ms=timeout_ms, older_arith=True)
    solver.add(*cons, not_(and_(list(conservation(ab, start).values()))))
    answer = ask(solver)
    if answer.unknown:
        return answer.reason
    if answer.sat:
        return Counterexample("card-conservation", "deal", ["cards conserved"], answer.model, start)  # type: ignore[arg-type]
    solver = new_solver(timeout_ms=timeout_ms, older_arith=True)
    start_assumed = False
    for st in kind_steps(ab, symmetric):
        if not start_assumed:  # every step starts from the same state
            solver.add(not_(st.s.over), *typing(ab, st.s).values(), *conservation(ab, st.s).values())
            start_assumed = True
        solver.push()
        solver.add(st.legal, *st.b.defs, not_(and_(list(conservation(ab, st.after).values()))))
        answer = ask(solver)
        if answer.unknown:
            return answer.reason
        if answer.sat:
            return Counterexample("card-conservation", "step", ["cards conserved"], answer.model,  # type: ignore[arg-type]
                                  st.s, st.after, st.a, st.kind)
        solver.pop()
    return None


def _content(state: State) -> tuple[object, ...]:
    """The state's facts as a key: Z3 shares terms, so two states of the same terms give the same key (the
    terms' addresses, which stay theirs while the states are kept)."""
    return tuple(t.ast.value if isinstance(t, z3.AstRef) else (type(t), t) for _, _, t in state.items())



def _broken(goal: dict[tuple[str, str], Term], model: z3.ModelRef) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for (g, k), term in goal.items():
        if not z3.is_true(model.eval(term, model_completion=True)):
            out.setdefault(g, []).append(k)
    return out
