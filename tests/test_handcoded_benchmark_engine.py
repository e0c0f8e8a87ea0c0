"""Rule tests for the hand-coded English Cheat benchmark engine (benchmarks/handcoded_english.py)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from random import Random
from types import ModuleType

import pytest

_ENGINE_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "handcoded_english.py"


def _load_engine() -> ModuleType:
    """Import the benchmark script by path (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location("handcoded_english", _ENGINE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


engine = _load_engine()


def _reference_game(
    rng: Random, players: int, challenge_rate: float, turn_cap: int, dealer: int = 0
) -> tuple[int, int, int | None]:
    """Play one game with deliberately naive bookkeeping, consuming the RNG like the engine.

    Hands are explicit card lists, the pile is a list of plays, every response
    is counted one by one.  The RNG protocol is the engine's: the deal, then per
    play one uniform for a bluff's card (index into the rank-sorted hand) and
    one uniform deciding the first challenger, if any.
    """
    counts = engine.deal(rng, players, dealer)
    hands = [[rank for rank in range(13) for _ in range(hand[rank])] for hand in counts]
    keep = 1.0 - challenge_rate
    # Seat j+1 after the claimant is the first challenger iff u falls in its CDF band.
    thresholds = [1.0 - keep ** (j + 1) for j in range(players - 1)]
    pile: list[list[int]] = []
    seat = (dealer + 1) % players
    required = 0
    actions = 0
    for plays in range(1, turn_cap + 1):
        hand = sorted(hands[seat])
        matching = [card for card in hand if card == required]
        if matching:
            played = matching[:4]
        else:
            played = [hand[int(rng.random() * len(hand))]]
        for card in played:
            hand.remove(card)
        hands[seat] = hand
        pile.append(played)
        actions += 1

        u = rng.random()
        challenger = None
        for j in range(players - 1):
            actions += 1
            if u < thresholds[j]:
                challenger = (seat + 1 + j) % players
                break
        if challenger is None:
            if not hand:
                return actions, plays, seat
        else:
            truthful = all(card == required for card in played)
            taker = challenger if truthful else seat
            hands[taker].extend(card for play in pile for card in play)
            pile = []
            if truthful and not hand:
                return actions, plays, seat
        seat = (seat + 1) % players
        required = (required + 1) % 13
    return actions, turn_cap, None


def test_deal_sizes_three_players_start_left_of_dealer() -> None:
    """A 3-seat deal gives 18/17/17 with the extra card to the dealer's left neighbour."""
    hands = engine.deal(Random(1), 3)
    assert [sum(hand) for hand in hands] == [17, 18, 17]
    hands = engine.deal(Random(1), 3, dealer=2)
    assert [sum(hand) for hand in hands] == [18, 17, 17]
    assert [sum(column) for column in zip(*hands)] == [4] * 13


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(4, [13, 13, 13, 13]), (5, [10, 11, 11, 10, 10]), (6, [8, 9, 9, 9, 9, 8])],
)
def test_deal_sizes_other_tables(players: int, sizes: list[int]) -> None:
    """Every card is dealt clockwise from seat dealer+1, whatever the table size."""
    hands = engine.deal(Random(7), players)
    assert [sum(hand) for hand in hands] == sizes
    assert [sum(column) for column in zip(*hands)] == [4] * 13


def test_deal_rejects_bad_tables() -> None:
    """Seat counts outside 3..6 and dealers outside the table are refused."""
    with pytest.raises(ValueError):
        engine.deal(Random(0), 2)
    with pytest.raises(ValueError):
        engine.deal(Random(0), 7)
    with pytest.raises(ValueError):
        engine.deal(Random(0), 3, dealer=3)


def test_schedule_starts_with_aces_left_of_dealer_and_never_resets() -> None:
    """Play n is made by seat dealer+1+n with rank n mod 13, regardless of challenges."""
    schedule = engine._schedule(3, 0, 40)
    assert schedule[0] == (1, 0)
    assert schedule[1] == (2, 1)
    assert schedule[12] == (1, 12)
    assert schedule[13] == (2, 0)
    assert schedule[39] == (1, 0)
    assert engine._schedule(4, 3, 2)[0] == (0, 0)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("challenge_rate", [0.0, 0.15, 0.5, 1.0])
def test_cards_conserved_every_step(players: int, challenge_rate: float) -> None:
    """With check=True every step asserts hands + pile hold exactly 52 cards, 4 per rank."""
    rng = Random(1000 * players + int(100 * challenge_rate))
    for _ in range(40):
        actions, plays, winner = engine.play_game(rng, players, challenge_rate, check=True)
        assert plays <= actions <= plays * players
        assert winner is None or 0 <= winner < players


def test_conservation_check_is_not_vacuous() -> None:
    """The check hook really fails on a state that lost a card or a stale size cache."""
    hands = engine.deal(Random(3), 3)
    sizes = [sum(hand) for hand in hands]
    pile = [(5, 1)]
    hands[0][5] -= 1
    sizes[0] -= 1
    engine._check_state(hands, sizes, pile)
    with pytest.raises(AssertionError):
        engine._check_state(hands, sizes, [])
    with pytest.raises(AssertionError):
        engine._check_state(hands, [sizes[0] + 1, *sizes[1:]], pile)


def test_same_seed_same_result() -> None:
    """A seed fixes every game; a different seed gives a different run."""
    first = [engine.play_game(Random(42)) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    a = engine.run(200, seed=9)
    b = engine.run(200, seed=9)
    c = engine.run(200, seed=10)
    assert (a["actions"], a["plays"], a["wins"]) == (b["actions"], b["plays"], b["wins"])
    assert a["actions"] != c["actions"]


def test_no_challenges_always_ends_with_a_winner() -> None:
    """With challenge_rate=0 nobody ever takes the pile, so someone empties their hand."""
    rng = Random(5)
    for players in (3, 4, 5, 6):
        for _ in range(50):
            actions, plays, winner = engine.play_game(rng, players, challenge_rate=0.0, check=True)
            assert winner is not None
            assert plays <= 52
            assert actions == plays * players  # every other seat accepted every play


def test_always_challenged_plays_get_exactly_one_response() -> None:
    """With challenge_rate=1 the claimant's left neighbour challenges and nobody else is asked."""
    rng = Random(6)
    for _ in range(50):
        actions, plays, _winner = engine.play_game(rng, 4, challenge_rate=1.0, check=True)
        assert actions == 2 * plays


def test_turn_cap_stops_the_game() -> None:
    """A game capped before anyone can empty a hand has no winner and exactly cap plays."""
    actions, plays, winner = engine.play_game(Random(8), 3, turn_cap=5, check=True)
    assert (plays, winner) == (5, None)
    assert 5 * 2 <= actions <= 5 * 3
    assert engine.play_game(Random(8), 3, turn_cap=0) == (0, 0, None)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("challenge_rate", [0.0, 0.15, 0.6, 1.0])
def test_matches_naive_reference(players: int, challenge_rate: float) -> None:
    """The optimised loop agrees game by game with a plainly written reference engine."""
    for seed in range(60):
        dealer = seed % players
        got = engine.play_game(Random(seed), players, challenge_rate, 300, dealer=dealer)
        want = _reference_game(Random(seed), players, challenge_rate, 300, dealer=dealer)
        assert got == want, f"seed {seed}"


def test_first_challenger_thresholds_match_independent_responders() -> None:
    """One uniform per play reproduces independent per-seat challenges with rate p."""
    p = 0.15
    thresholds = engine._first_challenge_thresholds(2, p)
    assert thresholds[0] == pytest.approx(p)  # first responder challenges
    assert thresholds[1] - thresholds[0] == pytest.approx((1 - p) * p)  # second does
    assert 1 - thresholds[1] == pytest.approx((1 - p) ** 2)  # both accept


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI runs a short benchmark and reports actions per second as JSON."""
    assert engine.main(["--games", "20", "--seed", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 20
    assert result["actions"] > 0 and result["actions_per_second"] > 0
    assert result["wins"] + result["capped"] == 20
