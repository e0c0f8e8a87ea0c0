"""Random games on every shipped rulebook: each plays to an end or a turn cap, keeping the engine's invariants.

Invariants checked after every action: the cards are conserved (hands, pile, stock, aside, sets
discarded and cards gone out of play always make the deck), the seat to act has a legal action,
and a finished game has a result that fits its ending (docs/language.md, "How a rulebook is played").
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from test_engine import random_step

from cheatdsl.engine import CHANCE, Game, Phase, State
from cheatdsl.load import compile_rulebook

RULEBOOKS = Path(__file__).resolve().parents[1] / "rulebooks"
SHIPPED = sorted(p for p in RULEBOOKS.iterdir() if p.suffix in (".yaml", ".cheat"))


def cards_everywhere(state: State) -> Counter[int]:
    """Every card of the game, wherever it is."""
    g = state.game
    total: Counter[int] = Counter()
    for seat in range(g.players):
        total.update(state.hand_cards(seat))
    total.update(state.pile_cards())
    total.update(state.stock())
    total.update(state.aside())
    total.update(state.gone())
    for _, _, cards in state.discarded_sets():
        total.update(cards)
    return total


def check_invariants(state: State, deck: Counter[int]) -> None:
    g = state.game
    if state.phase is Phase.CHANCE:
        return
    assert cards_everywhere(state) == deck
    assert state.hand_sizes() == [len(state.hand_cards(s)) for s in range(g.players)]
    if state.is_terminal():
        result = state.result()
        assert result is not None
        returns = state.returns()
        assert abs(sum(returns)) < 1e-9
        if not result.capped:
            assert result.winner is not None
            assert (result.loser is None) == g.rules.first_out
        return
    seat = state.current_player()
    assert state.is_in(seat)
    if state.phase is Phase.PLAY:
        assert state.count_play_actions() > 0 or state.is_legal(state.legal_actions()[-1])
    else:
        assert state.legal_actions()


def deck_of(game: Game) -> Counter[int]:
    return Counter(v for v in range(len(game.rules.deck_counts)) for _ in range(game.rules.deck_counts[v]))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_random_play_ends_on_every_rulebook(path: Path) -> None:
    """Uniformly random play reaches the end of the game or the turn cap, on the fewest and most seats."""
    rulebook, diagnostics = compile_rulebook(str(path))
    assert rulebook is not None, diagnostics.render()
    counts = sorted({rulebook.players.min, rulebook.players.max})
    for players in counts:
        game = Game(rulebook, players, turn_cap=150)
        deck = deck_of(game)
        rng = random.Random(players)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            random_step(state, rng)
            steps += 1
            check_invariants(state, deck)
            assert steps < 20_000
        assert state.result() is not None


def test_the_invariant_check_is_not_vacuous() -> None:
    """A state that lost a card fails the conservation check."""
    rulebook, _ = compile_rulebook(str(RULEBOOKS / "english-ascending.yaml"))
    assert rulebook is not None
    game = Game(rulebook, 3)
    state = game.new_initial_state()
    while state.current_player() == CHANCE:
        state.apply_action(state.chance_outcome(random.Random(1)))
    deck = deck_of(game)
    check_invariants(state, deck)
    seat = state.current_player()
    state.hand(seat)[state.hand_cards(seat)[0]] -= 1  # a card lost through the state's own list
    with pytest.raises(AssertionError):
        check_invariants(state, deck)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_accepting_up_to_a_seat_is_accepting_one_by_one(path: Path) -> None:
    """`State.accept_until(seat)`, which the verifier's replayed turns use, leaves the state, the history and
    every seat's view as each responder before `seat` answering ACCEPT in turn does (docs/language.md,
    "How a rulebook is played": responders answer a claim one at a time)."""
    from test_engine import snapshot

    from cheatdsl.engine.actions import ACCEPT

    rb = compile_rulebook(str(path), ())[0]
    assert rb is not None
    rng = random.Random(f"accept/{path.name}")
    met = 0
    for players in sorted({rb.players.min, min(rb.players.max, rb.players.min + 2)}):
        state = Game(rb, players).new_initial_state()
        for _ in range(400):
            if state.phase is Phase.TERMINAL:
                break
            if state.phase is Phase.RESPOND:
                until = rng.randrange(-1, players)  # -1: every responder accepts
                one_by_one = state.clone()
                accepted = []
                while one_by_one.phase is Phase.RESPOND and one_by_one.current_player() != until:
                    accepted.append(one_by_one.current_player())
                    one_by_one.apply_action(ACCEPT)
                at_once = state.clone()
                assert list(at_once.accept_until(until)) == accepted
                assert snapshot(at_once) == snapshot(one_by_one)
                assert at_once.history() == one_by_one.history()
                met += bool(accepted)
            random_step(state, rng)
    assert met > 0
