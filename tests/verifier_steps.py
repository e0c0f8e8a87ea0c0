"""The encoding's step at one table checked against interpreter turns, for the agreement tests
(tests/agreement.py, tests/test_agreement.py, tests/test_holder_meaning.py): every interpreter turn is a
step of the transition relation giving the interpreter's next state (`Steps.problems`), every dealt state
an initial state (`Steps.deal_problems`), and every step the relation allows from a played state is a turn
the interpreter allows (`Steps.moves`, replayed by `verifier.encoding.engine_state.replay_move`)."""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from typing import Any

import z3

from verifier.solving.shortcuts import is_variable_fast as is_variable
from verifier.solving.shortcuts import set_value_fast as set_value
from verifier.solving.solver import new_solver
from verifier.solving.terms import and_, eq, or_
from verifier.encoding.deal import initial
from verifier.encoding.engine_state import Turn, Values, action_of
from verifier.encoding.spec import Spec
from verifier.encoding.state import State, Term, fresh, hand, num, total
from verifier.encoding.transitions import ACCEPT, CHALLENGE, PASS, Action, Builder, fresh_action

# Facts that describe the turn to come, not the game: once the game is over they mean nothing.
TURN_FACTS = ("actor", "prev", "mode", "passes", "last", "leading", "dealer")


class Steps:
    """The encoding's step at one table, built once over variables, against which interpreter turns are
    checked by evaluating it on their values (no solving): `problems(before, turn, after)`. The turn cap
    is a variable too, so that one step serves games stopped at other caps (`with_cap`)."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.cap_var = z3.Int("turn_cap") if spec.turn_limit is not None else None
        self.shape = replace(spec, capped_at=self.cap_var) if self.cap_var is not None else spec
        self.s, self.t = fresh(self.shape, "before"), fresh(self.shape, "after")
        self.a = fresh_action(spec, "turn")
        b = Builder(self.shape, name_terms=False)
        self.legal, self.after = b.step(self.s, self.a)
        assert not b.defs, "the unnamed full step defines no terms"
        over = self.t.over
        same = [or_(over, fact_eq) if fact in TURN_FACTS else fact_eq
                for fact, fact_eq in _equalities(self.t, self.after) if fact != "nodef"]
        self.check = and_([self.legal, *same])
        self.model = z3.Model()
        # Each fact as (name, the declaration of its variable or None, whether it is a truth value, the
        # encoding's constant when it is not a variable): a turn of a large table gives the model hundreds
        # of values, each set without z3's checks (`set_value_fast`).
        self.facts = {id(st): [_fact(name, term) for _, name, term in st.items()] for st in (self.s, self.t)}
        self.choices = [(var.decl(), i) for i, var in enumerate(_action_terms(self.a)) if is_variable(var)]
        if self.cap_var is not None:
            self.choices.append((self.cap_var.decl(), -1))
        self.truths = [z3.BoolVal(False), z3.BoolVal(True)]
        self.solver: z3.Solver | None = None  # the whole step over the same variables, made when first asked
        self.deal_solver: z3.Solver | None = None  # the deal, made when first asked
        self.dealt = self.s

    def with_cap(self, cap: int) -> Steps:
        """The same step for games stopped at the turn cap `cap` (the step has a cap)."""
        if self.cap_var is None:
            raise ValueError("this step has no turn cap to change")
        other = copy.copy(self)
        other.spec = replace(self.spec, capped_at=cap)
        other.solver = other.deal_solver = None
        return other

    def _assign(self, values: Values, state: State) -> list[str]:
        """Give the model the facts `values` for `state`'s variables; facts the encoding holds constant must
        have that value (else a problem)."""
        out = []
        model, truths = self.model, self.truths
        for name, decl, truth, fixed in self.facts[id(state)]:
            value = values[name]
            if decl is None:
                if fixed != value:
                    out.append(f"{name}: the encoding holds it at {fixed}, the interpreter has {value}")
            else:
                set_value(model, decl, truths[bool(value)] if truth else num(value))
        return out

    def problems(self, before: Values, turn: Turn, after: Values) -> list[str]:
        """How the encoding's step for `turn` from `before` differs from the interpreter's state `after`:
        empty when the step is legal in the encoding and gives exactly `after`."""
        # A model is evaluated once: Z3 keeps what it evaluated even when a value is changed afterwards.
        self.model = z3.Model()
        found = self._assign(before, self.s) + self._assign(after, self.t)
        values = [*_action_terms(action_of(self.spec, turn)), num(self.spec.turn_limit or 0)]
        for decl, i in self.choices:
            set_value(self.model, decl, values[i])
        if found or z3.is_true(self.model.eval(self.check)):
            return found
        if not z3.is_true(self.model.eval(self.legal)):
            return [f"the encoding does not allow the turn ({self._why_not(turn)})"]
        bad = []
        for fact, name, term in self.after.items():
            if fact == "nodef" or (after["over"] and fact in TURN_FACTS):
                continue
            value = _plain(self.model.eval(term))
            if value != after[name]:
                bad.append(f"{name}: encoding {value}, interpreter {after[name]}")
        return bad

    def deal_problems(self, values: Values) -> list[str]:
        """Empty when the interpreter's dealt state `values` is an initial state of the encoding (some deal
        the rules allow, followed by the first turn's start, gives it)."""
        if self.deal_solver is None:
            cons, self.dealt, _ = initial(Builder(self.shape, name_terms=False), "deal")
            self.deal_solver = new_solver()
            self.deal_solver.add(cons)
        solver = self.deal_solver
        solver.push()
        if self.cap_var is not None:
            solver.add(self.cap_var == num(self.spec.turn_limit or 0))
        for fact, name, dealt in self.dealt.items():
            if fact == "nodef" or (values["over"] and fact in TURN_FACTS):
                continue
            value = values[name]
            solver.add(dealt == (z3.BoolVal(value) if isinstance(value, bool) else num(value)))
        found = solver.check()
        solver.pop()
        return [] if found == z3.sat else [f"the dealt state is not an initial state of the encoding ({found})"]

    def moves(self, before: Values, limit: int, rng: random.Random) -> list[dict[str, Any]]:
        """Up to `limit` distinct steps the encoding allows from `before`, each as the choices `kind`, `cards`
        (per live value), `claim`, `count`, `challenger`, `test` and `discards`. The cards drawn from the
        stock are left out: the encoding lets the loser draw any of them, the interpreter the top ones.
        Each shape of step is asked for in turn (a pass; a play accepted, or challenged by each seat with
        each kind; each also playing the whole hand; a challenge after which sets are discarded), so
        that no shape uses up the limit and the rarer ones are tried."""
        sp, a = self.spec, self.a
        if self.solver is None:
            self.solver = new_solver()
            self.solver.add(self.legal)
        solver = self.solver
        solver.push()
        solver.set("random_seed", rng.randrange(1 << 30))
        if self.cap_var is not None:
            solver.add(self.cap_var == num(self.spec.turn_limit or 0))
        for _, name, term in self.s.items():
            if is_variable(term):
                value = before[name]
                solver.add(term == (z3.BoolVal(value) if isinstance(value, bool) else num(value)))
        whole = total(a.cards) == hand(self.s, self.s.actor)
        shapes: list[Term] = [z3.And(a.kind == PASS, a.challenger < 0), a.kind == ACCEPT,
                              z3.And(a.kind == ACCEPT, whole)]
        for c in range(sp.n):
            for k in range(len(sp.rules.kinds)):
                challenged = z3.And(a.kind == CHALLENGE, a.challenger == c, a.test == k)
                shapes += [challenged, z3.And(challenged, whole)]
                if sp.rules.window_through_passes and self.s.open is not None:  # a challenge of the open play
                    shapes.append(z3.And(a.kind == PASS, a.challenger == c, a.test == k, self.s.open))
        if any(is_variable(x) for x in a.discards):
            shapes.append(z3.And(a.kind == CHALLENGE, total(a.discards) > 0))
        out: list[dict[str, Any]] = []
        for shape in shapes:
            if len(out) >= limit:
                break
            solver.push()
            solver.add(shape)
            for _ in range(max(1, (limit - len(out)) // len(shapes))):
                if len(out) >= limit or solver.check() != z3.sat:
                    break
                m = solver.model()

                def value(term: Term, m: z3.ModelRef = m) -> int:
                    return _plain(m.eval(term, model_completion=True))  # type: ignore[return-value]
                move = {"kind": value(a.kind), "cards": [value(x) for x in a.cards], "claim": value(a.claim),
                        "count": value(a.count), "challenger": value(a.challenger), "test": value(a.test),
                        "discards": [value(x) for x in a.discards]}
                out.append(move)
                solver.add(_other_than(a, move))
            solver.pop()
        solver.pop()
        return out

    def _why_not(self, turn: Turn) -> str:
        """The first guard of the step that the turn breaks, in its Z3 form."""
        b = Builder(self.shape, name_terms=False)
        if turn.kind == PASS:
            guards, _ = b.pass_turn(self.s, self.a)
        else:
            guards, t1, m = b.play(self.s, self.a)
            if turn.kind == CHALLENGE:
                guards = guards + b.challenge(self.s, t1, self.a, m)[0]
        for g in guards:
            if not z3.is_true(self.model.eval(g)):
                return f"fails {g}"
        return "no guard fails"


def _equalities(a: State, b: State) -> list[tuple[str, Term]]:
    """Fact by fact, a == b (a large table has hundreds)."""
    return [(fact, eq(x, y)) for (fact, _, x), (_, _, y) in zip(a.items(), b.items())]


def _action_terms(a: Action) -> list[Term]:
    return [a.kind, *a.cards, a.claim, a.count, a.challenger, a.test, *a.draws, *a.discards]


def _fact(name: str, term: Term) -> tuple[str, Any, bool, int | bool | None]:
    """(name, the declaration of its variable or None, whether it is a truth value, its constant or None)."""
    if is_variable(term):
        return name, term.decl(), z3.is_bool(term), None
    return name, None, z3.is_bool(term), _plain(term)


def _plain(term: Term) -> int | bool:
    """The Python value of a Z3 numeral or truth value."""
    if z3.is_true(term) or z3.is_false(term):
        return z3.is_true(term)
    return int(term.as_long())


def _other_than(a: Action, move: dict[str, Any]) -> Term:
    """A step differing from `move` in a choice that matters for its kind."""
    if move["kind"] == PASS:  # a pass, with or without a challenge of the open play after it
        if move["challenger"] < 0:
            return z3.Not(z3.And(a.kind == PASS, a.challenger < 0))
        return z3.Not(z3.And(a.kind == PASS, a.challenger == move["challenger"], a.test == move["test"]))
    same = [a.kind == move["kind"], a.claim == move["claim"], a.count == move["count"]]
    same += [x == k for x, k in zip(a.cards, move["cards"])]
    if move["kind"] == CHALLENGE:
        same += [a.challenger == move["challenger"], a.test == move["test"]]
        same += [x == k for x, k in zip(a.discards, move["discards"])]
    return z3.Not(z3.And(same))
