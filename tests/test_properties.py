"""Property tests: random games on every shipped rulebook keep the interpreter's invariants.

Games are drawn from tests/strategies.py (style.md, anchor 12: attrs' shared strategies, OpenSpiel's
random simulation test). The rules checked are those of docs/language.md, "How a rulebook is played":
cards are only ever moved, never made or lost; every action offered is one the state accepts; a game
ends by its own rules or at the turn cap; and a game is its list of actions (anchor 6: shuffling and
dealing are chance actions, so `history()` replays it exactly). Settings are derandomized so that CI
sees the same games on every run.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import (
    LIST_LIMIT,
    SHIPPED,
    RandomGame,
    cards_everywhere,
    deck_of,
    play_out,
    random_games,
)

from cheatdsl.engine import PASS, Action, Ending, IllegalAction, Phase, State

TURN_CAP = 80          # plays and passes per drawn game: long enough for challenges, sets and going out
OFFERED_SAMPLE = 24    # plays drawn and tried when a seat has more than LIST_LIMIT of them
EXAMPLES = 60          # drawn games per property (rulebooks are drawn among all shipped ones)
COVERING = 2           # and a few more for each shipped rulebook, so that none is left undrawn

# Rulebooks compile on first draw, which a loaded CI machine could otherwise report as slow data generation.
PROPERTY = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def offered(state: State) -> list[Action]:
    """The actions the state offers: all of them, or with too many plays a sample of plays and pass."""
    if state.phase is Phase.PLAY and state.count_play_actions() + state.can_pass() > LIST_LIMIT:
        rng = random.Random(state.turns)
        plays = [state.sample_play(rng) for _ in range(OFFERED_SAMPLE)]
        return plays + ([PASS] if state.can_pass() else [])
    return state.legal_actions(limit=LIST_LIMIT)


def check_cards_are_conserved(drawn: RandomGame) -> None:
    """Hands, pile, stock, cards aside, sets put out and cards gone always make the deck, at every step."""
    deck = None
    for state, _ in play_out(drawn, TURN_CAP):
        if state.phase is Phase.CHANCE:
            continue
        deck = deck or deck_of(state.game)
        assert cards_everywhere(state) == deck, f"cards were made or lost after {state.history()[-1]!r}"
        assert state.hand_sizes() == [len(state.hand_cards(s)) for s in range(state.game.players)]


def check_legal_actions_are_offered(drawn: RandomGame) -> None:
    """Every action `legal_actions()` offers (or `sample_play` draws) is accepted by `apply_action`."""
    for state, _ in play_out(drawn, TURN_CAP):
        if state.is_terminal():
            assert state.legal_actions() == []
            continue
        if state.phase is Phase.CHANCE:
            continue
        assert state.is_in(state.current_player()), "a seat that is out of the game is asked to act"
        assert state.current_player() != state.claimant, "a claimant is asked to answer its own claim"
        actions = offered(state)
        assert actions, f"seat {state.current_player()} has nothing to do in {state.phase}"
        for action in actions:
            trial = state.clone()
            try:
                trial.apply_action(action)
            except IllegalAction as exc:
                raise AssertionError(f"{action!r} was offered but refused: {exc}") from None
            assert trial.history()[-1] == action


def check_games_end_or_reach_the_turn_cap(drawn: RandomGame) -> None:
    """A game finishes by its ending rules, or is stopped by the turn cap, within a bounded number of actions."""
    players = drawn.players
    # A turn is one play or pass, up to players - 1 answers, and set discards (at most one per rank).
    bound = 2 + TURN_CAP * (players + 1 + 2 * len(drawn.game(TURN_CAP).rules.ranks_in_play))
    final = None
    for state, _ in play_out(drawn, TURN_CAP, limit=bound):
        final = state
    assert final is not None and final.is_terminal(), f"not finished after {bound} actions"
    result = final.result()
    assert result is not None
    if result.capped:
        assert final.turns >= TURN_CAP or result.ending is not Ending.TURN_CAP
    else:
        assert result.winner is not None
        assert (result.loser is None) == final.game.rules.first_out
        assert final.returns()[result.winner] > 0


def check_replays_from_its_actions(drawn: RandomGame) -> None:
    """`history()` applied to a fresh state gives the same observations at every step and the same result."""
    seen = []
    final = None
    for state, action in play_out(drawn, TURN_CAP):
        if action is None:
            final = state
        else:
            seen.append(tuple(state.observation(s) for s in range(drawn.players)))
    assert final is not None
    seen.append(tuple(final.observation(s) for s in range(drawn.players)))
    replay = drawn.game(TURN_CAP).new_initial_state()
    for i, action in enumerate(final.history()):
        assert tuple(replay.observation(s) for s in range(drawn.players)) == seen[i], f"differs before action {i}"
        replay.apply_action(action)
    assert tuple(replay.observation(s) for s in range(drawn.players)) == seen[-1]
    assert (replay.pile_cards(), replay.stock(), replay.aside()) == (final.pile_cards(), final.stock(), final.aside())
    assert replay.result() == final.result()
    assert replay.returns() == final.returns()




@PROPERTY
@given(random_games())
def test_cards_are_conserved(drawn: RandomGame) -> None:
    """Cards are only ever moved: hands + pile + stock + aside + sets + gone == the deck, at every step."""
    check_cards_are_conserved(drawn)


@PROPERTY
@given(random_games())
def test_only_legal_actions_are_offered(drawn: RandomGame) -> None:
    """Every action offered by `legal_actions()` (or drawn by `sample_play`) is accepted by `apply_action`."""
    check_legal_actions_are_offered(drawn)


@PROPERTY
@given(random_games())
def test_games_end_or_reach_the_turn_cap(drawn: RandomGame) -> None:
    """Every game ends by its ending rules or at the turn cap, within a bounded number of actions."""
    check_games_end_or_reach_the_turn_cap(drawn)


@PROPERTY
@given(random_games())
def test_a_game_replays_from_its_actions(drawn: RandomGame) -> None:
    """Style anchor 6: a game is its action list; replaying `history()` gives the same observations and result."""
    check_replays_from_its_actions(drawn)


@pytest.mark.parametrize("name", SHIPPED)
@settings(max_examples=COVERING, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_property_holds_on_each_shipped_rulebook(name: str, data: st.DataObject) -> None:
    """The four properties above on a few games of each shipped rulebook, so that none goes undrawn."""
    drawn = data.draw(random_games(st.just(name)))
    check_cards_are_conserved(drawn)
    check_legal_actions_are_offered(drawn)
    check_games_end_or_reach_the_turn_cap(drawn)
    check_replays_from_its_actions(drawn)


def test_the_conservation_check_catches_a_lost_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous: an engine that drops a card when a pile is collected fails the property."""
    take_pile = State.take_pile

    def take_all_but_one(state: State, seat: int) -> int:
        taken = take_pile(state, seat)
        hand = state.hand(seat)  # a card lost through the state's own lists
        lost = next(v for v, k in enumerate(hand) if k)
        hand[lost] -= 1
        state.sizes[seat] -= 1
        return taken - 1

    monkeypatch.setattr(State, "take_pile", take_all_but_one)
    with pytest.raises(AssertionError, match="cards were made or lost"):
        check_cards_are_conserved(RandomGame("practice-table.yaml", 3, 1, ()))


def test_the_legality_check_catches_an_offered_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous: a state that offers an action it then refuses fails the property."""
    from cheatdsl.engine import Challenge
    listed = State.legal_actions

    def with_a_stray(self: State, limit: int | None = None) -> list[Action]:
        actions = listed(self, limit)
        return actions + [Challenge("no-such-kind")] if self.phase is Phase.RESPOND else actions

    monkeypatch.setattr(State, "legal_actions", with_a_stray)
    with pytest.raises(AssertionError, match="was offered but refused"):
        check_legal_actions_are_offered(RandomGame("practice-table.yaml", 3, 1, ()))
