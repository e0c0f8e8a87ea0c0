"""Termination proofs: a turn cap, or cards that only ever leave the hands.

With `ending.turn_cap` every turn is counted and the turn that reaches the cap ends the game. Without
one, play still ends when every play moves cards out of the hands and the stock for good (nothing
goes back to a hand but cards drawn from the stock) and passes cannot go round for ever: a pass
is one more in a row, and when all have passed the next seat must play. Both are checked on every
step of the merged game, from any state, so they hold of every play.
"""

from __future__ import annotations

from collections.abc import Callable

import z3

from ..encoding.spec import Spec, merge_values
from ..encoding.state import State, Term, in_count, total
from ..encoding.symmetry import rotation_symmetric
from ..encoding.transitions import PASS, Builder
from ..solving.solver import ask, new_solver
from .invariant import kind_steps, passes_lemma, typing


def _holds(sp: Spec, claim: Callable[[int, State, State, Builder], Term]) -> bool | str:
    """Whether `claim` holds of every step of the merged game, from any state that is well typed."""
    ab = merge_values(sp)
    for st in list(kind_steps(ab, rotation_symmetric(ab))):
        solver = new_solver()
        solver.add(st.legal, *st.b.defs, z3.Not(st.s.over), *typing(ab, st.s).values(),
                   *passes_lemma(ab, st.s).values())
        solver.add(z3.Not(claim(st.kind, st.s, st.after, st.b)))
        answer = ask(solver)
        if answer.unknown:
            return answer.reason
        if answer.sat:
            return False
    return True


def capped(sp: Spec) -> bool | str:
    """Every turn counts one more, and a game whose count reaches the cap is over."""
    cap = sp.rules.turn_cap
    assert cap is not None
    return _holds(sp, lambda kind, s, t, b: z3.And(t.turns == s.turns + 1, z3.Or(t.turns < cap, t.over)))


def hands_only_shrink(sp: Spec) -> bool | str:
    """Cards in hands and stock never grow, every play makes them fewer, and passes cannot go round for ever."""
    def held(s: State) -> Term:
        return total([x for row in s.h for x in row]) + total(s.stock)

    def claim(kind: int, s: State, t: State, b: Builder) -> Term:
        if kind != PASS:
            return held(t) < held(s)
        one_more = z3.And(t.passes == s.passes + 1, t.passes < in_count(s))
        round_over = z3.And(t.passes == 0, z3.Or(t.over, z3.Not(b.can_pass(t, t.actor))))
        return z3.And(held(t) <= held(s), z3.Or(one_more, round_over))
    return _holds(sp, claim)


def claim_chain(sp: Spec) -> int | None:
    """The most plays a game can have when no round ends, passing is not allowed and the claims allowed after
    each claim lead on along a graph with no cycle (each play must go further along it); None otherwise."""
    if sp.rules.may_pass or sp.rules.round_ends_on_challenge or sp.rules.round_ends_on_all_pass:
        return None
    longest: dict[int, int] = {}
    on_path: set[int] = set()

    def plays_from(c: int) -> int | None:  # plays that can still be made once claim c is made, this one included
        if c in longest:
            return longest[c]
        if c in on_path:
            return None  # a cycle: no bound from the claims alone
        on_path.add(c)
        best = 0
        for d in sp.req_sets[sp.required.follow[c]]:
            more = plays_from(d)
            if more is None:
                return None
            best = max(best, more)
        on_path.discard(c)
        longest[c] = best + 1
        return best + 1

    most = 0
    for c in sp.req_sets[sp.required.first]:
        got = plays_from(c)
        if got is None:
            return None
        most = max(most, got)
    return most
