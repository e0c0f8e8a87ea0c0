"""Whether the rules are the same from every seat, so that a step checked from seat 0 stands for all.

The transition builder treats seats alike by construction (turn order is `succ`, every loop runs
over all seats); only the tabulated seat formulas could single a seat out. A formula is
rotation-symmetric when turning the table by one seat (every seat fact, the seats still in and the
dealer moved on by one) moves its answer on by one seat. Z3 checks that for every formula the
turn reads; the deal is not needed, since induction steps start from any state.
"""

from __future__ import annotations

from typing import Any

import z3

from ..solving.solver import ask, new_solver
from .spec import Spec
from .state import Term, false, ite, true
from .tabulate import Leaf, Tree

SEAT_FACTS = ("claimant", "challenger", "winner", "loser", "last_player")


def _encode(tree: Tree, n: int, step: int, facts: dict[str, Term], inn: list[Term], dealer: Term,
            other: dict[tuple[Any, ...], Term], leaf: Any) -> Term:
    if isinstance(tree, Leaf):
        return leaf(tree.value)
    out = _encode(tree.branches[-1][1], n, step, facts, inn, dealer, other, leaf)
    for answer, sub in reversed(tree.branches[:-1]):
        q = tree.query
        if q[0] == "in":
            cond = inn[q[1]] if answer else z3.Not(inn[q[1]])
        elif q[0] == "fact" and q[1] == "dealer":
            cond = dealer == answer
        elif q[0] == "fact" and q[1] in facts:
            term = facts[q[1]]
            cond = (term if answer else z3.Not(term)) if isinstance(answer, bool) else term == answer
        else:  # facts of the seat to act (hand, holds, leading, required): the same after turning
            key = (q, answer)
            if key not in other:
                other[key] = z3.Bool(f"case{len(other)}")
            cond = other[key]
        out = ite(cond, _encode(sub, n, step, facts, inn, dealer, other, leaf), out)
    return out


def _seat_answer(query: tuple[Any, ...]) -> bool:
    """Whether the answers to `query` are seats (or a seat's being in), which turning the table moves."""
    return query[0] == "in" or (query[0] == "fact" and query[1] in (*SEAT_FACTS, "dealer"))


def _shape(tree: Tree, n: int, turn: int, move: int, is_bool: bool) -> Any:
    """`tree` as a comparable value, with the seats its branch points read turned back by `turn` places
    and its seat leaves moved on by `move`. Branches on seats (exclusive answers) compare as a set,
    the others in order, as `_encode` tests them."""
    if isinstance(tree, Leaf):
        v = tree.value
        if is_bool:
            return bool(v)
        return (v % n + move) % n if isinstance(v, int) and not isinstance(v, bool) else -1
    q = tree.query
    if not _seat_answer(q):
        return (q, tuple((a, _shape(t, n, turn, move, is_bool)) for a, t in tree.branches))
    if q[0] == "in":
        q = ("in", (q[1] - turn) % n)
        branches = tree.branches
    else:
        branches = tuple(((a - turn) % n if isinstance(a, int) and not isinstance(a, bool) else a, t)
                         for a, t in tree.branches)
    return (q, frozenset((a, _shape(t, n, turn, move, is_bool)) for a, t in branches))


def same_shape_turned(tree: Tree, n: int, step: int) -> bool:
    """A cheap sufficient test: the tree read on a table turned by one seat is, branch for branch, the
    tree with its seat leaves moved on by one seat (so the two encodings `tree_symmetric` compares are
    the same function)."""
    is_bool = all(isinstance(leaf.value, bool) for leaf in _leaves(tree))
    return bool(_shape(tree, n, step, 0, is_bool) == _shape(tree, n, 0, step, is_bool))


def tree_symmetric(tree: Tree | None, n: int, step: int) -> bool | str:
    """True when `tree` commutes with turning the table by one seat; else why not (or the solver's reason)."""
    if tree is None or same_shape_turned(tree, n, step):
        return True
    def seat_leaf(v: Any) -> Term:
        ok = isinstance(v, int) and not isinstance(v, bool)
        return z3.IntVal(v % n if ok else -1)

    def bool_leaf(v: Any) -> Term:
        return true() if v else false()

    leaves = {getattr(t, "value", None) for t in _leaves(tree)}
    is_bool = all(isinstance(v, bool) for v in leaves)
    leaf = bool_leaf if is_bool else seat_leaf
    facts = {name: z3.Int(f"f.{name}") for name in SEAT_FACTS}
    facts["caught"] = z3.Bool("f.caught")
    inn = [z3.Bool(f"in{i}") for i in range(n)]
    dealer = z3.Int("dealer")
    other: dict[tuple[Any, ...], Term] = {}
    a = _encode(tree, n, step, facts, inn, dealer, other, leaf)
    moved = {k: (v if k == "caught" else (v + step) % n) for k, v in facts.items()}
    moved_inn = [inn[(i - step) % n] for i in range(n)]
    b = _encode(tree, n, step, moved, moved_inn, (dealer + step) % n, other, leaf)
    s = new_solver()
    s.add(*[z3.And(v >= 0, v < n) for k, v in facts.items() if k != "caught"], dealer >= 0, dealer < n)
    if is_bool:
        s.add(a != b)
    else:
        s.add(b != ite(a < 0, z3.IntVal(-1), (a + step) % n))
    answer = ask(s)
    if answer.unsat:
        return True
    if answer.unknown:
        return answer.reason
    return "a seat formula names a fixed seat"


def _leaves(tree: Tree) -> list[Leaf]:
    if isinstance(tree, Leaf):
        return [tree]
    out: list[Leaf] = []
    for _, t in tree.branches:
        out.extend(_leaves(t))
    return out


def rotation_symmetric(sp: Spec) -> bool:
    """Whether every seat formula the turn reads treats all seats alike (asked once a spec, kept in its
    `answers`)."""
    answer = sp.answers.get("rotation_symmetric")
    if answer is None:
        trees = (sp.trees.next_player, sp.trees.all_pass_leader, sp.trees.turn_start_win, sp.trees.pass_when)
        answer = all(tree_symmetric(tree, sp.n, sp.rules.step) is True for tree in trees)
        sp.answers["rotation_symmetric"] = answer
    return answer


__all__ = ["rotation_symmetric", "tree_symmetric"]
