"""Plays that never end: a recurrent set, a set of states that one repeatable move keeps you in.

The set R: nobody is out, the pile is empty, the game goes on, a claim is asked for, and every seat
holds two different natural cards (so whatever it is asked to claim, it holds a card that is not
that claim), no complete set and no turn-start win. The move: the seat to play puts down one card
that is not the first claim allowed, calling one of it; the next seat challenges; the lie is caught
and the claimant takes back the pile, which is that one card. Every hand is then as it was.

Z3 checks that from every state of R (the seat to play being seat 0, the rules being the same
from every seat) the move is legal and ends in R again: then a play from any reachable state of R
goes on for ever. A dealt state in R (found by dealing) makes it reachable; the interpreter then
plays the move until the whole state repeats, which is the witness.

Where the move does not keep R (a claim that stays the one to beat after a challenge, a penalty
that draws from a stock), a second set, Q, is tried for games whose rounds end when every seat
passes: the states of R in which a new round is led and the stock is empty. Its move is a round:
the seat leading tells a lie, the next seat challenges and catches it, the claimant gets its card
back (a penalty that takes the pile, or one whose stock runs short and takes the pile then), and
every seat still in passes, which ends the round and names the next leader. A state of Q is not
dealt (the stock is full then); the interpreter plays the same round from a deal, which empties
the stock draw by draw, until the whole state at the start of a round repeats.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

import z3

from ..encoding.spec import FIRST, FOLLOW, LEAD, Spec
from ..solving.shortcuts import main_context_if_made, set_main_context
from ..solving.solver import Answer, ask, fresh_context, new_solver
from ..solving.terms import and_, eq, ge, lt, not_, or_
from .invariant import conservation, typing
from ..encoding.state import (
    State,
    Term,
    allowed,
    count_true,
    false,
    fresh,
    hand_vector,
    ite,
    next_in,
    num,
    required_empty,
    required_id,
    total,
    true,
    zero,
)
from ..encoding.transitions import CHALLENGE, Action, Builder


def _naturals(sp: Spec) -> list[int]:
    return [i for i in range(sp.width) if i != sp.joker_index]


class About(Enum):
    """What a fact of a recurrent set reads: the hands alone (true again once every hand is back as it was),
    or more of the state."""

    HANDS = "hands"
    STATE = "state"


@dataclass(frozen=True)
class SetFact:
    """A fact of a recurrent set, in words (`str` gives them), with what it reads."""

    text: str
    about: About = About.STATE

    def __str__(self) -> str:
        return self.text


def in_set(b: Builder, s: State) -> dict[SetFact, Term]:
    """The facts of R about `s`."""
    sp = b.spec
    nat = _naturals(sp)
    out: dict[SetFact, Term] = {
        SetFact("the game goes on"): not_(s.over),
        SetFact("nobody is out"): and_(*s.inn) if sp.seats_leave else true(),
        SetFact("the pile is empty"): and_([eq(p, 0) for p in s.pile]),
        SetFact("a claim is asked for"): not_(required_empty(sp, required_id(sp, s))),
    }
    for q in range(sp.n):
        out[SetFact(f"seat {q} holds two different cards", About.HANDS)] = ge(
            count_true([ge(s.h[q][i], 1) for i in nat]), 2)
        if sp.trees.turn_start_win is not None:
            out[SetFact(f"seat {q} does not win at its turn")] = not_(b.condition(sp.trees.turn_start_win, s, q))
        if sp.rules.set_size is not None:
            for r, values in enumerate(b.rank_values):
                out[SetFact(f"seat {q} holds no complete set of rank {r}", About.HANDS)] = lt(
                    total([s.h[q][i] for i in values]), sp.rules.set_size)
    return out


def first_claim(sp: Spec, s: State) -> Term:
    """The first claim (in claim order) of the claims asked for."""
    rid = required_id(sp, s)
    out: Term = num(0)
    for k in range(len(sp.req_sets) - 1, -1, -1):
        claims = sorted(sp.req_sets[k])
        if claims:
            out = ite(eq(rid, k), num(claims[0]), out)
    return out


def lying_card(sp: Spec, row: list[Term], claim: Term) -> Term:
    """The position in `live` of the first natural card held that does not pass as `claim` (-1: none)."""
    out: Term = num(-1)
    for i in reversed(_naturals(sp)):
        matches = sorted(sp.matches[i])
        fits = or_([eq(claim, c) for c in matches]) if matches else false()
        out = ite(and_(ge(row[i], 1), not_(fits)), num(i), out)
    return out


def lie_move(b: Builder, s: State, claim: Term, card: Term) -> Action:
    """The repeatable move from `s`: one card (the live value at `card`) called as one of `claim`,
    challenged by the next seat by its cards."""
    sp = b.spec
    test = next(k for k, by_hand in enumerate(sp.by_hand) if not by_hand)
    return Action(kind=num(CHALLENGE), cards=[ite(eq(card, i), num(1), zero()) for i in range(sp.width)],
                  claim=claim, count=num(1), challenger=next_in(sp, s, s.actor), test=num(test),
                  draws=[zero()] * sp.width, discards=[zero()] * len(sp.set_ranks))


def a_lie(sp: Spec, s: State, claim: Term, card: Term) -> Term:
    """`card` is a natural card the seat to play holds and `claim` an allowed claim it does not pass as."""
    row = hand_vector(s, s.actor)
    options = []
    for i in _naturals(sp):
        matches = sorted(sp.matches[i])
        fits = or_([eq(claim, c) for c in matches]) if matches else false()
        options.append(and_(eq(card, i), ge(row[i], 1), not_(fits)))
    return and_(allowed(sp, required_id(sp, s), claim), or_(options) if options else false())


@dataclass
class Recurrence:
    """`holds`: the set is closed under its move; else why not (the facts that fail, or the solver's
    reason). `kind`: which set, `lie` (R, a caught lie) or `round` (Q, a caught lie that leads a round,
    then every seat passing)."""

    holds: bool
    why: str = ""
    kind: str = "lie"


def check(sp: Spec, symmetric: bool, timeout_ms: int | None = None, quick: bool = False) -> Recurrence:
    """Whether R is closed under the caught-lie move, from seat 0 (or from every seat); `quick`: asked of the
    quick solver (see `_quickly`)."""
    if sp.rules.min_cards > 1 or not any(not by_hand for by_hand in sp.by_hand) or not _naturals(sp):
        return Recurrence(False, "no one-card lie can be challenged by its cards")
    b = Builder(sp)
    s = fresh(sp, "r")
    claim, card = z3.Int("lie.claim"), z3.Int("lie.card")
    for seat in ([0] if symmetric else list(range(sp.n))):
        s.actor = num(seat)
        before: dict[SetFact | str, Term] = {**typing(sp, s), **conservation(sp, s), **in_set(b, s)}
        # 1. Every lie told from a state of R is caught and leads back into R (the cheaper query where the
        # set is not closed, as under a penalty that does not give back the pile, so it is asked first).
        a = lie_move(b, s, claim, card)
        mark = len(b.defs)
        legal, after = b.step_kind(s, a, CHALLENGE)
        # Every hand comes back as it was, so the facts of R about hands hold again; the rest is checked.
        goal: dict[SetFact | str, Term] = {k: v for k, v in in_set(b, after).items() if k.about is not About.HANDS}
        goal["every hand is back as it was"] = and_([eq(x, y) for rs, ra in zip(s.h, after.h) for x, y in zip(rs, ra)])
        solver = _solver(quick, timeout_ms)
        solver.add(*b.defs[mark:], *before.values(), a_lie(sp, s, claim, card))
        solver.add(not_(and_(legal, b.resolution["caught"], *goal.values())))
        answer = _asked(solver, quick)
        if answer.unknown:
            return Recurrence(False, answer.reason)
        if answer.sat:
            m = answer.model
            assert m is not None
            failed = [k for k, t in goal.items() if not z3.is_true(m.eval(t, model_completion=True))]
            if not z3.is_true(m.eval(legal, model_completion=True)):
                failed.insert(0, "the move is not legal")
            elif not z3.is_true(m.eval(b.resolution["caught"], model_completion=True)):
                failed.insert(0, "the lie is not caught")
            return Recurrence(False, "; ".join(map(str, failed[:3])) or "the move leaves the set")
        # 2. From every state of R some lie can be told (the first claim, the first card that is not it).
        solver = _solver(quick, timeout_ms, step=False)
        first = first_claim(sp, s)
        solver.add(*before.values(),
                   not_(a_lie(sp, s, first, lying_card(sp, hand_vector(s, s.actor), first))))
        answer = _asked(solver, quick)
        if not answer.unsat:
            return Recurrence(False, answer.reason if answer.unknown else "some state of the set has no lie to tell")
    return Recurrence(True)


def concrete_in_set(sp: Spec, values: dict[str, Any]) -> bool:
    """Whether the state with these facts lies in R (the facts of `in_set`, read on numbers)."""
    from ..encoding.tabulate import evaluate
    n, w = sp.n, sp.width
    hands = [[values[f"h{q}_{i}"] for i in range(w)] for q in range(n)]
    naturals = _naturals(sp)
    if values["over"] or any(values[f"pile{i}"] for i in range(w)):
        return False
    if sp.seats_leave and not all(values[f"inn{q}"] for q in range(n)):
        return False
    mode, prev = values["mode"], values["prev"]
    rid = sp.required.first if mode == FIRST else (sp.required.follow[prev] if mode == FOLLOW else
                                          (sp.required.lead[prev] if prev >= 0 else sp.required.lead_none))
    if not sp.req_sets[rid]:
        return False
    required = frozenset(sp.claims[c] for c in sp.req_sets[rid])
    b = Builder(sp)
    for q in range(n):
        if sum(1 for i in naturals if hands[q][i] >= 1) < 2:
            return False
        if sp.rules.set_size is not None and any(sum(hands[q][i] for i in vals) >= sp.rules.set_size
                                                   for vals in b.rank_values):
            return False
        if sp.trees.turn_start_win is not None:
            def answer(query: tuple[Any, ...], q: int = q) -> Any:
                if query[0] == "holds":
                    wild = sp.rules.wild and sp.joker_index is not None
                    return sum(hands[q][i] for i, v in enumerate(sp.live) if v in query[1] and i != sp.joker_index) + \
                        (hands[q][sp.joker_index] if wild and query[1] else 0)  # type: ignore[index]
                if query[0] == "in":
                    return True
                name = query[1]
                return {"hand": sum(hands[q]), "leading": values["leading"], "required": required,
                        "dealer": values["dealer"]}[name]
            if evaluate(sp.trees.turn_start_win, answer):
                return False
    return True


# -- a round: a caught lie leads it, every seat passes -----------------------------------------------

def round_set(b: Builder, s: State) -> dict[SetFact, Term]:
    """The facts of Q about `s`: those of R, a new round being led and the stock empty."""
    out = in_set(b, s)
    out[SetFact("a new round is led")] = and_(s.leading, eq(s.mode, LEAD))
    out[SetFact("the stock is empty")] = and_([eq(x, 0) for x in s.stock])
    return out


def check_round(sp: Spec, symmetric: bool, timeout_ms: int | None = None, quick: bool = False) -> Recurrence:
    """Whether Q is closed under a round: a caught lie led, then every seat still in passing; `quick`: asked of
    the quick solver (see `_quickly`)."""
    if sp.rules.min_cards > 1 or not any(not by_hand for by_hand in sp.by_hand) or not _naturals(sp):
        return Recurrence(False, "no one-card lie can be challenged by its cards", "round")
    if not (sp.rules.may_pass and sp.rules.round_ends_on_all_pass and sp.trees.all_pass_leader is not None):
        return Recurrence(False, "no round ends when every seat passes", "round")
    b = Builder(sp)
    s = fresh(sp, "q")
    claim, card = z3.Int("lie.claim"), z3.Int("lie.card")
    for seat in ([0] if symmetric else list(range(sp.n))):
        s.actor = num(seat)
        before: dict[SetFact | str, Term] = {**typing(sp, s), **conservation(sp, s), **round_set(b, s)}
        a = lie_move(b, s, claim, card)
        mark = len(b.defs)
        legal, t = b.step_kind(s, a, CHALLENGE)
        steps = {"the lie is legal": legal, "the lie is caught": b.resolution["caught"]}
        # Nobody is out in Q, so the round ends at the pass of the last of all the seats.
        for k in range(sp.n):
            guard, t = b.pass_turn(t)
            steps[f"pass {k + 1} of {sp.n} is legal"] = and_(guard)
        # Every hand comes back as it was, so the facts of Q about hands hold again; the rest is checked.
        goal: dict[SetFact | str, Term] = {k: v for k, v in round_set(b, t).items() if k.about is not About.HANDS}
        goal["every hand is back as it was"] = and_([eq(x, y) for rs, ra in zip(s.h, t.h) for x, y in zip(rs, ra)])
        solver = _solver(quick, timeout_ms)
        solver.add(*b.defs[mark:], *before.values(), a_lie(sp, s, claim, card))
        solver.add(not_(and_(*steps.values(), *goal.values())))
        answer = _asked(solver, quick)
        if answer.unknown:
            return Recurrence(False, answer.reason, "round")
        if answer.sat:
            m = answer.model
            assert m is not None
            failed = [k for k, v in {**steps, **goal}.items() if not z3.is_true(m.eval(v, model_completion=True))]
            return Recurrence(False, "; ".join(map(str, failed[:3])) or "the round leaves the set", "round")
        # Some lie can be told from every state of Q (the first claim, the first card that is not it).
        solver = _solver(quick, timeout_ms, step=False)
        first = first_claim(sp, s)
        solver.add(*before.values(),
                   not_(a_lie(sp, s, first, lying_card(sp, hand_vector(s, s.actor), first))))
        answer = _asked(solver, quick)
        if not answer.unsat:
            return Recurrence(False, answer.reason if answer.unknown else "some state of the set has no lie to tell",
                              "round")
    return Recurrence(True, kind="round")


def find(sp: Spec, symmetric: bool) -> Recurrence:
    """R if it is closed under a caught lie, else Q if it is closed under a round; else why neither is (a
    proof is first tried with a quicker solver, see `_quickly`)."""
    quick = _quickly(sp, symmetric)
    if quick is not None:
        return quick
    lie = check(sp, symmetric)
    if lie.holds:
        return lie
    rnd = check_round(sp, symmetric)
    if rnd.holds:
        return rnd
    if rnd.why == "no round ends when every seat passes" or rnd.why == lie.why:
        return lie
    return Recurrence(False, f"{lie.why}; nor for a round led by a caught lie and ended by all passing: {rnd.why}")


# -- a quicker proof first ---------------------------------------------------------------------------

class _Unsure(Exception):
    """A quick query the solver did not settle."""


def _solver(quick: bool, timeout_ms: int | None, step: bool = True) -> z3.Solver:
    """The solver of one query: the verifier's, or with `quick` one that uses Z3's older arithmetic solver, several
    times faster here; for a query about a `step`, it first solves the definitions away (most of a step is
    `x == term`), which costs more than it saves on a query about one state."""
    if not quick:
        return new_solver(timeout_ms=timeout_ms)
    return new_solver(timeout_ms=timeout_ms, tactics=step, older_arith=True)


def _asked(solver: z3.Solver, quick: bool) -> Answer:
    """`ask(solver)`; with `quick`, an unknown is not an answer (`_Unsure`)."""
    answer = ask(solver)
    if quick and answer.unknown:
        raise _Unsure(answer.reason)
    return answer


def _quickly(sp: Spec, symmetric: bool) -> Recurrence | None:
    """R or Q shown closed by the quick solver, in a Z3 context of its own; None when neither is shown.

    Only a proof is taken from it (every query unsat). Where R fails here, it fails for `check` too (a
    model found is a state that leaves R), so Q shown closed is `find`'s answer. Otherwise `find` checks
    again with the verifier's solver in the context it was called in, untouched by this try, so that a
    failure is explained by the same model, in the same words, as without it."""
    saved = main_context_if_made()
    fresh_context()
    try:
        lie = check(sp, symmetric, quick=True)
        if lie.holds:
            return lie
        rnd = check_round(sp, symmetric, quick=True)
        return rnd if rnd.holds else None
    except _Unsure:
        return None
    finally:
        # The quick context goes with its last term (not later, with Python's cycle collector, while the
        # next contexts are made: a context made while another is alive costs about twice as much).
        fresh_context()
        set_main_context(saved)


def concrete_in_round_set(sp: Spec, values: dict[str, Any]) -> bool:
    """Whether the state with these facts (an interpreter state, read) lies in Q: in R (`concrete_in_set`), a
    new round led and the stock empty."""
    if not values["leading"] or values["mode"] != LEAD or any(values[f"stock{i}"] for i in range(sp.width)):
        return False
    return concrete_in_set(sp, values)
