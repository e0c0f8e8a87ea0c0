"""A rule formula means the same in every back end: the built-in functions of `FormulaContext`.

docs/language.md: `left(s)` is "the next seat in turn order still in the game", `right(s)` the previous
one, `seat(k)` the seat k places after the dealer in turn order. The interpreter, the verifier's
concrete contexts and its decision trees (`tabulate`) must give the same seat for every formula, in
an anticlockwise game and with seats out.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from pathlib import Path

import pytest

from cheatdsl.derived import turn_step
from cheatdsl.engine import Game, Position, State
from cheatdsl.expr import ClaimFacts, FactUnavailable, TableFacts
from cheatdsl.expr.types import FUNCTIONS
from cheatdsl.load import load_rulebook
from cheatdsl.model import Rulebook
from verifier.encoding.facts import SeatFacts, seats_of
from verifier.encoding.tabulate import evaluate, tabulate

PLAYERS = 5
FORMULAS = ("left(claimant)", "right(claimant)", "seat(2)", "left(left(claimant))", "right(seat(1))",
            "if left(loser) == winner then right(winner) else left(winner)")


def _anticlockwise(tmp_path: Path, next_player: str) -> Rulebook:
    """A shipped game in which seats go out one by one, played anticlockwise, with `next_player` as given."""
    path = tmp_path / "anticlockwise.yaml"
    path.write_text("rulebook: anticlockwise-test\nextends: mogeln\nsetup:\n  direction: anticlockwise\n"
                    f"challenge:\n  next_player: {next_player}\n")
    return load_rulebook(str(path))


def _state(game: Game, dealer: int, out: tuple[int, ...]) -> State:
    """A table where the seats in `out` have gone out and every other seat holds one card."""
    hands = tuple(() if s in out else (s,) for s in range(game.players))
    to_play = next(s for s in range(game.players) if s not in out)
    return game.state_from_position(Position(hands=hands, to_play=to_play, dealer=dealer, out=out))


def _answers(out: tuple[int, ...], facts: dict[str, object]) -> Callable[[tuple[object, ...]], object]:
    """Answers to a decision tree's questions: which seats are in, and the facts of the moment."""
    def answer(query: tuple[object, ...]) -> object:
        return query[1] not in out if query[0] == "in" else facts[str(query[1])]
    return answer


def test_left_follows_the_turn_and_skips_seats_out(tmp_path: Path) -> None:
    """Anticlockwise at five seats with seat 4 out: after seat 0 comes seat 3 (0, then 4, which is out)."""
    rb = _anticlockwise(tmp_path, "left(claimant)")
    facts = SeatFacts(PLAYERS, turn_step(rb), out={4}, claimant=0)
    assert (facts.left(0), facts.right(0), facts.right(3)) == (3, 1, 0)
    assert SeatFacts(PLAYERS, turn_step(rb), dealer=1).seat(2) == 4
    assert seats_of(rb.challenge.next_player, PLAYERS, step=turn_step(rb), out=(4,), claimant=0, challenger=1,
                    winner=1, loser=0, caught=True) == {3}


@pytest.mark.parametrize("formula", FORMULAS)
def test_seat_formulas_agree_in_interpreter_and_verifier(tmp_path: Path, formula: str) -> None:
    """Every seating with up to two seats out, every dealer and claimant still in: one answer in all three."""
    rb = _anticlockwise(tmp_path, formula)
    game = Game(rb, PLAYERS)
    step = turn_step(rb)
    code = rb.challenge.next_player.code
    seats = range(PLAYERS)
    tree = tabulate(code, PLAYERS, step, game.rules.space,
                    {"claimant": seats, "challenger": seats, "winner": seats, "loser": seats,
                     "caught": (False, True), "dealer": seats}, seats_out=True)
    compared = 0
    for out in [o for k in range(3) for o in combinations(seats, k)]:
        for dealer in (s for s in seats if s not in out):
            state = _state(game, dealer, out)
            for claimant in (s for s in seats if s not in out):
                challenger = next(s for s in seats if s not in out and s != claimant)
                facts = {"claimant": claimant, "challenger": challenger, "winner": challenger, "loser": claimant,
                         "caught": True}
                engine = code(game.facts(state, dealer, **facts))
                assert seats_of(rb.challenge.next_player, PLAYERS, step=step, out=out, dealer=dealer,
                                **facts) == {engine}, (out, dealer, facts)
                assert evaluate(tree, _answers(out, {**facts, "dealer": dealer})) == engine
                compared += 1
    assert compared > 50


def test_a_table_formula_cannot_read_seats_or_claims() -> None:
    """A deck or deal formula has only the table's facts: asking for a seat or a claim is an error that
    names the fact, the same in every context built on `TableFacts`."""
    facts = TableFacts(4, cards=52)
    with pytest.raises(FactUnavailable, match="the seats"):
        facts.left(0)
    with pytest.raises(FactUnavailable, match="the claim order"):
        _ = facts.all_claims
    with pytest.raises(FactUnavailable, match="a hand"):
        facts.holds(frozenset([1]))


def test_claim_facts_answer_from_the_claim_order() -> None:
    """`next`, `above` and `any` in a claim formula read the table's claim order."""
    rb = load_rulebook(str(Path(__file__).resolve().parent.parent / "rulebooks" / "english-ascending.yaml"))
    game = Game(rb, 3)
    facts = ClaimFacts(game.rules.space, 3, previous=0)
    assert facts.all_claims == game.rules.space.all_claims
    assert facts.next_claim(0) == game.rules.space.next_claim(0) and facts.above(0) == game.rules.space.above(0)


def test_each_function_has_one_meaning() -> None:
    """The meaning shown for a built-in function is the protocol's docstring, said once."""
    assert FUNCTIONS["left"].meaning == "the next seat in turn order still in the game"
    assert all(f.meaning for f in FUNCTIONS.values())
