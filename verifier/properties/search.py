"""Bounded model checking: plays of up to K turns from a deal (or a given state) that reach a goal.

The path is unrolled one turn at a time, each state a fresh copy of variables tied to the previous
by the transition relation, and the goal is asked after each turn, so the first play found is one
of the shortest. A play found is read back as a `Trace`: the values of every state and every choice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from ..encoding.deal import Deal, initial
from ..encoding.spec import Spec
from ..encoding.state import State, Term, equal, fresh, ite, merge
from ..encoding.transitions import ACCEPT, CHALLENGE, PASS, Action, Builder, fresh_action
from ..solving.solver import ask, new_solver

Goal = Callable[[State, State, Action, Builder, int], Term]


@dataclass
class Trace:
    """A play found by the solver: states[0] is the start, actions[i] leads from states[i] to states[i+1]."""

    spec: Spec
    states: list[dict[str, Any]]
    actions: list[dict[str, Any]]
    deal: dict[str, Any] = field(default_factory=dict)
    found_by: str = "bmc"

    @property
    def depth(self) -> int:
        return len(self.actions)


@dataclass
class Search:
    """The outcome: a trace, or the depth searched in full, or the solver's reason for stopping."""

    trace: Trace | None
    depth: int
    unknown: str = ""


def _value(model: z3.ModelRef, term: Term) -> Any:
    v = model.eval(term, model_completion=True)
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    return v.as_long()  # type: ignore[attr-defined]


def read_state(model: z3.ModelRef, s: State) -> dict[str, Any]:
    return {name: _value(model, term) for _, name, term in s.items()}


def read_action(model: z3.ModelRef, a: Action, caught: Term | None) -> dict[str, Any]:
    out = {"kind": _value(model, a.kind), "cards": [_value(model, x) for x in a.cards],
           "claim": _value(model, a.claim), "count": _value(model, a.count),
           "challenger": _value(model, a.challenger), "test": _value(model, a.test),
           "draws": [_value(model, x) for x in a.draws], "discards": [_value(model, x) for x in a.discards]}
    out["caught"] = _value(model, caught) if caught is not None else None
    return out


def _same_shape(a: Action, caught: Term | None, g: dict[str, Any], window: bool = False) -> Term:
    parts = [a.kind == g["kind"], z3.Sum(a.cards) == sum(g["cards"])]
    if g["kind"] == PASS and window:  # with a challenge of the last play after it, or not
        called = g.get("challenger", -1)
        parts.append(a.challenger == called if called >= 0 else a.challenger < 0)
    if g["kind"] == CHALLENGE:
        parts.append(a.challenger == g["challenger"])
        if caught is not None and g.get("caught") is not None:
            parts.append(caught == g["caught"])
    return z3.And(parts)


def step_of(b: Builder, s: State, a: Action, kinds: Sequence[int]) -> tuple[Term, State, Term | None]:
    """(legal, after, caught) of a step restricted to `kinds`."""
    parts = []
    caught = None
    for kind in kinds:
        if kind == PASS and not b.spec.rules.may_pass:
            continue
        legal, after = b.step_kind(s, a, kind)
        if kind == CHALLENGE:
            caught = b.resolution.get("caught") if caught is None else ite(a.kind == CHALLENGE,
                                                                            b.resolution.get("caught"), caught)
        elif kind == PASS and b.window_caught is not None:  # a challenge of the last play after the pass
            caught = b.window_caught if caught is None else ite(a.kind == PASS, b.window_caught, caught)
        parts.append((kind, legal, after))
    legal = z3.Or([z3.And(a.kind == k, g) for k, g, _ in parts])
    after = parts[-1][2]
    for k, _, st in reversed(parts[:-1]):
        after = merge(a.kind == k, st, after)
    return legal, after, caught


def bmc(sp: Spec, goal: Goal, depth: int, *, start: State | None = None, kinds: Sequence[int] = (ACCEPT, CHALLENGE, PASS),
        restrict: Callable[[Builder, Deal], list[Term]] | None = None, timeout_ms: int = 10_000,
        check_every: int = 1, rlimit: int = 400_000_000, guide: list[dict[str, Any]] | None = None,
        policy: Callable[[Builder, State, Action], list[Term]] | None = None, first_check: int = 1,
        exclude: Sequence[list[dict[str, Any]]] = ()) -> Search:
    """The first play of at most `depth` turns whose last turn meets `goal(before, after, action, builder, i)`.

    With `guide` (the actions of a trace found in the merged game), each turn must be of the same kind,
    with as many cards, the same challenger and the same verdict: the solver only picks the cards."""
    b = Builder(sp)
    solver = new_solver(timeout_ms=timeout_ms, rlimit=rlimit, tactics=True)
    if guide is not None:
        depth = min(depth, len(guide))
    deal = None
    if start is None:
        cons, start, deal = initial(b, "deal", plain=True)
        solver.add(cons)
        if restrict is not None:
            solver.add(restrict(b, deal))
    states = [start]
    actions: list[Action] = []
    caughts: list[Term | None] = []
    goals: list[Term] = []
    for i in range(depth):
        s = states[-1]
        a = fresh_action(sp, f"a{i}")
        mark = len(b.defs)
        legal, after, caught = step_of(b, s, a, (guide[i]["kind"],) if guide is not None else kinds)
        t = fresh(sp, f"s{i + 1}")
        # A game that is over stays as it is, so that a goal met early is still met at the end.
        solver.add(*b.defs[mark:], z3.If(s.over, z3.And(equal(t, s) or [z3.BoolVal(True)]),
                                         z3.And(legal, *equal(t, after))))
        if policy is not None:
            solver.add(z3.Or(s.over, z3.And(policy(b, s, a))))
        if guide is not None:
            g = guide[i]
            solver.add(a.kind == g["kind"])
            if g["kind"] != PASS:
                solver.add(z3.Sum(a.cards) == sum(g["cards"]))
            if g["kind"] == CHALLENGE:
                solver.add(a.challenger == g["challenger"], a.test == g["test"])
                if caught is not None and g.get("caught") is not None:
                    solver.add(caught == g["caught"])
            if g["kind"] == PASS and sp.rules.window_through_passes:  # a challenge after the pass only where guided
                called = g.get("challenger", -1)
                solver.add(a.challenger == called if called >= 0 else a.challenger < 0)
        goals.append(z3.And(z3.Not(s.over), goal(s, t, a, b, i)))  # a turn played, not a game over standing still
        states.append(t)
        actions.append(a)
        caughts.append(caught)
        for shape in exclude:  # plays already tried: not the same shape again
            if len(shape) == i + 1:
                solver.add(z3.Not(z3.And([_same_shape(x, c, g, sp.rules.window_through_passes) for x, c, g in zip(actions, caughts, shape)])))
        if ((i + 1) % check_every or i + 1 < first_check) and i + 1 < depth:
            continue
        answer = ask(solver, z3.Or(goals))
        if answer.unknown:
            return Search(None, i, answer.reason)
        if answer.sat:
            m = answer.model
            assert m is not None
            hit = next(k for k, g in enumerate(goals) if z3.is_true(m.eval(g, model_completion=True)))
            trace = Trace(sp, [read_state(m, x) for x in states[:hit + 2]],
                          [read_action(m, x, c) for x, c in zip(actions[:hit + 1], caughts[:hit + 1])])
            if deal is not None:
                trace.deal = {"dealer": _value(m, deal.dealer),
                              "dealt": [[_value(m, x) for x in row] for row in deal.dealt],
                              "aside": [_value(m, x) for x in deal.aside],
                              "stock": [_value(m, x) for x in deal.stock]}
            return Search(trace, hit + 1)
    return Search(None, depth)
