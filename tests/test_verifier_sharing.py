"""The work the verifier shares or saves gives the results it would give without: a helper process for
the larger player counts, the quick test of seat symmetry, terms made directly or once per context.
"""

from __future__ import annotations

import pytest
import z3
from test_verifier import RULEBOOKS

from cheatdsl.load import load_rulebook
from verifier.properties import transition
from verifier.properties.settings import Caches, Settings
from verifier.encoding.subject import Subject
from verifier.encoding.spec import build_spec
from verifier.encoding.state import fresh, hand, ite, num, pick, remembered, total
from verifier.encoding.symmetry import same_shape_turned, tree_symmetric
from verifier.encoding.tabulate import Leaf, Node


def _same(a: dict, b: dict) -> None:  # type: ignore[type-arg]
    """Every combined result alike, but for the seconds each took."""
    for pid in a:
        da = {k: v for k, v in a[pid].details.items() if k != "seconds"}
        db = {k: v for k, v in b[pid].details.items() if k != "seconds"}
        assert (a[pid].verdict, a[pid].summary, da) == (b[pid].verdict, b[pid].summary, db), pid


@pytest.mark.parametrize("name,counts,searches", [
    ("english-ascending.yaml", None, 1),  # the recurrent set of the smallest count, a lasso at every count
    ("bluffstopp.yaml", (2, 3, 4), 2),    # searches at the two smallest counts that need one
    ("bluffstopp.yaml", (2, 3, 4), 3),    # one at the largest too: made again here if the helper did it
])
def test_a_helper_for_the_larger_counts_changes_no_result(name: str, counts: tuple[int, ...] | None,
                                                          searches: int) -> None:
    rb = load_rulebook(str(RULEBOOKS / name))
    runs = []
    for helper in (False, True):
        # Each as a rulebook's child process starts: new caches, no searches made before.
        settings = Settings(searches=searches, helper=helper)
        runs.append(transition.analyse(Subject(rb, counts), settings=settings, caches=Caches()))
    _same(*runs)


# Rotation symmetry ----------------------------------------------------------------------------------

def _left_of_claimant(n: int) -> Node:
    """`left(claimant)` with seats that may be out: the next seat still in after the claimant."""
    def after(c: int, k: int) -> Leaf | Node:
        if k == n:
            return Leaf(c)
        seat = (c + k) % n
        return Node(("in", seat), ((True, Leaf(seat)), (False, after(c, k + 1))))
    return Node(("fact", "claimant"), tuple((c, after(c, 1)) for c in range(n)))


def test_the_quick_symmetry_test_accepts_left_of_claimant_and_rejects_a_fixed_seat() -> None:
    assert same_shape_turned(_left_of_claimant(4), 4, 1)
    fixed = Node(("fact", "claimant"), tuple((s, Leaf(0)) for s in range(3)))
    assert not same_shape_turned(fixed, 3, 1)
    assert tree_symmetric(fixed, 3, 1) is not True  # the solver is asked, and finds the fixed seat


@pytest.mark.parametrize("name", ["mogeln.yaml", "bluffstopp.yaml", "standard.yaml", "verish-ne-verish.yaml"])
def test_the_quick_symmetry_test_never_accepts_what_the_solver_rejects(name: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick test is sufficient only: where it says the rules treat every seat alike, so does Z3."""
    from verifier.encoding import symmetry
    rb = load_rulebook(str(RULEBOOKS / name))
    for n in (rb.players.min, rb.players.max):
        sp = build_spec(rb, n)
        trees = sp.trees
        for tree in (trees.next_player, trees.all_pass_leader, trees.turn_start_win, trees.pass_when,
                     trees.first_player):
            if tree is not None and same_shape_turned(tree, n, sp.rules.step):
                with monkeypatch.context() as m:
                    m.setattr(symmetry, "same_shape_turned", lambda *args: False)  # the solver alone
                    assert tree_symmetric(tree, n, sp.rules.step) is True


# Terms ------------------------------------------------------------------------------------------------

def test_ite_makes_the_term_z3_if_makes() -> None:
    p, q = z3.Bools("p q")
    x, y = z3.Ints("x y")
    assert ite(p, x, y).eq(z3.If(p, x, y)) and isinstance(ite(p, x, y), z3.ArithRef)
    assert ite(p, q, z3.Not(q)).eq(z3.If(p, q, z3.Not(q))) and isinstance(ite(p, q, q), z3.BoolRef)
    assert ite(z3.BoolVal(True), x, y) is x and ite(z3.BoolVal(False), x, y) is y
    assert ite(p, num(3), num(3)).eq(num(3)) and ite(True, x, y) is x


def test_total_makes_the_sum_z3_makes_without_its_zeros() -> None:
    x, y = z3.Ints("x y")
    assert total([x, num(0), y]).eq(z3.Sum([x, y])) and isinstance(total([x, y]), z3.ArithRef)
    assert total([num(0), x]) is x and total([num(0)]).eq(num(0)) and total([x, num(2)]).eq(x + 2)


def test_the_hand_of_a_named_seat_is_the_term_pick_makes() -> None:
    sp = build_spec(load_rulebook(str(RULEBOOKS / "english-ascending.yaml")), 3)
    s = fresh(sp, "s")
    for seat in range(3):
        assert hand(s, seat).eq(pick(num(seat), [total(row) for row in s.h]))


def test_a_remembered_term_is_made_once_per_context() -> None:
    made = []
    x = z3.Int("x")

    def build() -> z3.ArithRef:
        made.append(1)
        return x + 1
    first = remembered(("plus one", x), build)
    assert remembered(("plus one", x), build) is first and len(made) == 1
    assert remembered(("plus one", z3.Int("y")), build) is not first and len(made) == 2
