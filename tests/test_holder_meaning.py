"""`holder(card)` and `holds(...)` mean one thing in the interpreter and the verifier.

Project's choice (the meaning of the built-ins, `cheatdsl.expr.context.FormulaContext`): `holder(card)`
is "the seat dealt this exact card", the deal the game began with, wherever a formula reads it -- also
after a challenge (`next_player`) and when everyone has passed (`all_pass_leader`); `holds(...)` counts
in the hand of the seat to act, so where no seat acts it has no answer (`FactUnavailable`), not 0.

The fixture `tests/fixtures/leaderless-round.yaml` says "the holder of the king of hearts always leads
the next" round after a challenge (`next_player: holder(king of hearts)`); at five players every card
is dealt, so some seat holds it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from verifier_steps import Steps

from cheatdsl.engine import Game, Phase
from cheatdsl.engine import State as EngineState
from cheatdsl.engine.actions import Action, Challenge
from cheatdsl.expr import FactUnavailable
from cheatdsl.load import load_rulebook
from cheatdsl.model import Rulebook
from verifier.properties.challenges import _outcomes
from verifier.encoding.subject import Subject
from verifier.encoding.engine_state import Turn, play_turn, read
from verifier.encoding.spec import SpecError, build_spec
from verifier.encoding.tabulate import evaluate, tabulate

ROOT = Path(__file__).resolve().parent.parent
LEADERLESS = ROOT / "tests" / "fixtures" / "leaderless-round.yaml"
KING_OF_HEARTS = 2 * 13 + 12  # suit hearts (third), rank king (thirteenth): `suit * ranks + rank`
SEATS = 5


def _rulebook() -> Rulebook:
    rb = load_rulebook(str(LEADERLESS))
    assert rb.challenge.next_player.text == "holder(king of hearts)"
    return rb


def _challenger(rng: random.Random) -> Callable[[EngineState], Action]:
    """Plays at random, and calls every play it may call."""
    def choose(st: EngineState) -> Action:
        if st.is_chance_node():
            return st.chance_outcome(rng)
        if st.phase is Phase.PLAY:
            return st.sample_play(rng)
        actions = st.legal_actions()
        calls = [a for a in actions if isinstance(a, Challenge)]
        return rng.choice(calls or actions)
    return choose


def _challenged_turns(seed: int) -> list[tuple[EngineState, EngineState, Turn]]:
    """(before, after, turn) for each challenged turn of a seeded game of the fixture at five seats."""
    game = Game(_rulebook(), SEATS)
    rng = random.Random(seed)
    choose = _challenger(rng)
    st = game.new_initial_state()
    while st.is_chance_node():
        st.apply_action(choose(st))
    out: list[tuple[EngineState, EngineState, Turn]] = []
    while not st.is_terminal() and len(out) < 6:
        before = st.clone()
        turn = play_turn(st, choose)
        if turn.challenger >= 0 and not st.is_terminal():
            out.append((before, st.clone(), turn))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_after_a_challenge_the_holder_of_the_king_of_hearts_leads_in_both_back_ends(seed: int) -> None:
    """`next_player: holder(king of hearts)`: after each challenge the seat dealt the king of hearts leads
    (the next seat in if it has gone out) in the interpreter's game, and the verifier's step from the
    same state, with the same deal, names the same seat."""
    spec = build_spec(_rulebook(), SEATS)
    assert spec.held == (KING_OF_HEARTS,)
    steps = Steps(spec)
    turns = _challenged_turns(seed)
    assert turns, "the game has a challenge"
    for before, after, turn in turns:
        holder = before.holders[KING_OF_HEARTS]
        leader = holder if after.is_in(holder) else after.left_of(holder)
        assert after.current_player() == leader
        # The verifier's tabulated rule, asked with this deal, names the holder.
        def answer(query: tuple[Any, ...], h: int = holder) -> Any:
            return h if query[0] == "holder" else True
        named = evaluate(spec.trees.next_player, answer)
        assert named == holder
        # And its transition from the interpreter's state before the turn gives the state after it.
        assert steps.problems(read(spec, before), turn, read(spec, after)) == []


def test_the_holders_are_the_deal_and_stay_for_the_whole_game() -> None:
    """`State.holders` is who was dealt each card; a copy of the state shares them, and play does not
    change them (a card passed on or picked up keeps the seat it was dealt to)."""
    game = Game(_rulebook(), SEATS)
    st = game.new_initial_state()
    rng = random.Random(4)
    while st.is_chance_node():
        st.apply_action(st.chance_outcome(rng))
    dealt = dict(st.holders)
    assert len(dealt) == 52 and set(dealt.values()) == set(range(SEATS))
    for seat in range(SEATS):  # each seat holds as many cards as it is named the holder of
        assert st.hand_size(seat) == sum(1 for c in dealt if dealt[c] == seat)
    turns = _challenged_turns(4)
    assert turns and all(dict(after.holders) == dealt for _, after, _ in turns)
    assert st.clone().holders == st.holders
    with pytest.raises(TypeError):
        st.holders[KING_OF_HEARTS] = 0  # type: ignore[index]


def test_round_rank_tries_every_seat_that_may_hold_the_card() -> None:
    """The verifier's round-rank property reads `holder` as the deal: at five seats any seat may be dealt
    the king of hearts and lead, and nobody is never named."""
    outcomes = _outcomes(Subject(_rulebook(), (SEATS,)), SEATS)
    assert not isinstance(outcomes, str)
    assert {seat for _, seat in outcomes} == set(range(SEATS))


def test_the_leader_after_everyone_passes_may_be_the_holder_of_a_card() -> None:
    """`all_pass_leader` reads the deal as `next_player` does: the verifier's table branches on who holds
    the card, and the interpreter names the seat it dealt the card to."""
    rb = load_rulebook(str(ROOT / "rulebooks" / "bluffstopp.yaml"))
    assert rb.passing.all_pass_leader is not None
    rb = replace(rb, passing=replace(rb.passing, all_pass_leader=replace(
        rb.passing.all_pass_leader, code=lambda c: c.holder(KING_OF_HEARTS))))
    n = rb.players.counts()[0]
    spec = build_spec(rb, n)
    assert spec.held == (KING_OF_HEARTS,)
    game = Game(rb, n)
    st = game.new_initial_state()
    rng = random.Random(5)
    while st.is_chance_node():
        st.apply_action(st.chance_outcome(rng))
    holder = st.holders.get(KING_OF_HEARTS)
    assert game.rules.all_pass_leader is not None
    assert game.rules.all_pass_leader.code(game.facts(st, 0, last_player=0)) == holder
    named = evaluate(spec.trees.all_pass_leader,  # type: ignore[arg-type]
                     lambda q: holder if q[0] == "holder" else True)
    assert named == holder


def test_holds_has_no_answer_where_no_seat_acts() -> None:
    """`holds` counts the hand of the seat to act: the interpreter's context for the next leader and
    the verifier's tables for `next_player` and `all_pass_leader` raise `FactUnavailable` (it was 0)."""
    rb = _rulebook()
    game = Game(rb, SEATS)
    st = game.new_initial_state()
    rng = random.Random(6)
    while st.is_chance_node():
        st.apply_action(st.chance_outcome(rng))
    facts = game.facts(st, 0, claimant=0, challenger=1, winner=1, loser=0, caught=True)
    with pytest.raises(FactUnavailable):
        facts.holds(frozenset({0}))
    acting = game.facts(st, 0, acting=2)
    assert acting.holds(frozenset(range(13))) == st.hand_size(2)
    asks = lambda c: 0 if c.holds(frozenset({0})) else 1  # noqa: E731
    space = Game(rb, SEATS).rules.space
    with pytest.raises(FactUnavailable):
        tabulate(asks, SEATS, 1, space, {}, hand_max=3)
    assert tabulate(asks, SEATS, 1, space, {}, hand_max=3, acting=True) != tabulate(lambda c: 0, SEATS, 1, space, {})
    bad = replace(rb, challenge=replace(rb.challenge, next_player=replace(rb.challenge.next_player, code=asks)))
    with pytest.raises(SpecError, match="next_player"):
        build_spec(bad, SEATS)
