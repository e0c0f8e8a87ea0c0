"""The interpreter's API: chance and replay, legal actions, refusals, observations, notation.

Rules are cited by seed and section as in /work/shared/rules-catalogue.md; the semantics are those
of docs/language.md, "How a rulebook is played".
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from cheatdsl.engine import (
    ACCEPT,
    CHANCE,
    PASS,
    TERMINAL,
    Challenge,
    ChanceDealer,
    ChanceShuffle,
    Game,
    IllegalAction,
    Phase,
    Play,
    Position,
    State,
    TooManyActions,
    action_key,
)
from cheatdsl.engine.deal import shuffled
from cheatdsl.words.notation import action_text, card_text, parse_action, parse_card, parse_claim, refusal_text
from cheatdsl.load import load_rulebook
from cheatdsl.model import Rulebook

RULEBOOKS = Path(__file__).resolve().parents[1] / "rulebooks"
_CACHE: dict[str, Rulebook] = {}


def rulebook(name: str) -> Rulebook:
    if name not in _CACHE:
        _CACHE[name] = load_rulebook(str(RULEBOOKS / f"{name}.yaml"))
    return _CACHE[name]


def dealt(name: str, players: int, seed: int = 1, dealer: int = 0) -> State:
    game = Game(rulebook(name), players)
    state = game.new_initial_state()
    if game.rules.dealer_by_lot:
        state.apply_action(ChanceDealer(dealer))
    state.apply_action(ChanceShuffle(seed))
    return state


def random_step(state: State, rng: random.Random) -> None:
    """One uniformly random legal action (plays drawn without listing them)."""
    if state.current_player() == CHANCE:
        state.apply_action(state.chance_outcome(rng))
    elif state.phase is Phase.PLAY:
        if state.can_pass() and (rng.random() < 0.2 or not state.count_play_actions()):
            state.apply_action(PASS)
        else:
            state.apply_action(state.sample_play(rng))
    else:
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])


def snapshot(state: State) -> tuple[object, ...]:
    """Everything in a state, hidden cards included, for comparing two states."""
    g = state.game
    return (state.phase, state.current_player(), tuple(state.hand_cards(s) for s in range(g.players)),
            state.pile_cards(), state.stock(), state.aside(), state.gone(), state.discarded_sets(),
            state.required_claims(), state.previous, state.leading, state.order_out(), state.reveals(),
            state.turns, state.result(), tuple(state.observation(s) for s in range(g.players)))


# --- chance and replay ----------------------------------------------------------------------------


def test_a_game_starts_at_chance_with_the_dealer_drawn_by_lot() -> None:
    """Seed 000 section 02: choose dealer by lot; then the shuffle; the dealer's left begins."""
    game = Game(rulebook("english-ascending"), 3)
    state = game.new_initial_state()
    assert state.current_player() == CHANCE and state.phase is Phase.CHANCE
    assert state.legal_actions() == [ChanceDealer(0), ChanceDealer(1), ChanceDealer(2)]
    state.apply_action(ChanceDealer(2))
    assert state.current_player() == CHANCE and state.legal_actions() == []
    assert isinstance(state.chance_outcome(random.Random(0)), ChanceShuffle)
    state.apply_action(ChanceShuffle(99))
    assert state.current_player() == 0
    assert sorted(state.hand_sizes()) == [17, 17, 18] and state.hand_size(0) == 18


def test_a_seat_zero_dealer_needs_no_chance_action() -> None:
    """Seed 003 section 01: the practice table fixes the seats; only the shuffle is chance."""
    state = Game(rulebook("practice-table"), 3).new_initial_state()
    assert isinstance(state.chance_outcome(random.Random(0)), ChanceShuffle)
    with pytest.raises(IllegalAction):
        state.apply_action(ChanceDealer(1))


def test_the_shuffle_seed_fixes_the_deal() -> None:
    """A game is a replayable list of actions: the same seed deals the same hands."""
    a, b, c = dealt("english-ascending", 4, seed=5), dealt("english-ascending", 4, seed=5), dealt(
        "english-ascending", 4, seed=6)
    assert snapshot(a) == snapshot(b)
    assert snapshot(a) != snapshot(c)


@pytest.mark.parametrize("name", ["english-ascending", "one-rank-a-round", "verish-ne-verish-skip", "bluffstopp",
                                  "canadian-bluff", "mogeln"])
def test_replaying_the_history_rebuilds_the_identical_state(name: str) -> None:
    """Every game is a replayable list of actions, chance included."""
    rb = rulebook(name)
    game = Game(rb, rb.players.min + 1 if rb.players.min < rb.players.max else rb.players.min, turn_cap=150)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        random_step(state, rng)
    replay = game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert snapshot(replay) == snapshot(state)
    assert replay.history() == state.history()


def test_clone_is_independent() -> None:
    state = dealt("english-ascending", 3)
    copy = state.clone()
    seat = state.current_player()
    state.apply_action(Play((state.hand_cards(seat)[0],), 0, 1))
    assert copy.current_player() == seat and copy.pile_size() == 0
    assert copy.hand_size(seat) == state.hand_size(seat) + 1


# --- legal actions and refusals -------------------------------------------------------------------


def test_legal_actions_are_sorted_and_each_is_legal() -> None:
    rng = random.Random(8)
    for name, players in [("english-ascending", 3), ("verish-ne-verish-skip", 3), ("mogeln", 4),
                          ("one-rank-a-round", 2), ("verish-ne-verish", 3)]:
        state = Game(rulebook(name), players, turn_cap=80).new_initial_state()
        while not state.is_terminal():
            if state.current_player() != CHANCE:
                actions = state.legal_actions()
                assert actions == sorted(actions, key=action_key)
                assert len(set(actions)) == len(actions)
                if state.phase is Phase.PLAY:
                    assert state.count_play_actions() == sum(isinstance(a, Play) for a in actions)
                for action in rng.sample(actions, min(5, len(actions))):
                    assert state.is_legal(action), action
            random_step(state, rng)


def test_a_refused_action_explains_itself_and_changes_nothing() -> None:
    """Seed 000 section 03: 1-4 cards, the required rank, the exact count, no passing."""
    state = dealt("english-ascending", 3, seed=2, dealer=0)
    seat = state.current_player()
    hand = state.hand_cards(seat)
    before = snapshot(state)
    cases = [
        (PASS, "passing is not allowed"),
        (Play(hand[:1], 5, 1), "the claim must be aces"),
        (Play(hand[:5], 0, 5), "a play holds 1 to 4 cards"),
        (Play(hand[:2], 0, 3), "the count called must be the count played"),
        (Play((hand[1], hand[0]) if hand[1] != hand[0] else (13, 0), 0, 2), ""),
        (ACCEPT, "cannot accept a claim now"),
        (Challenge("cheat"), "cannot challenge now"),
    ]
    missing = next(v for v in range(13) if v not in hand)
    cases.append((Play((missing,), 0, 1), f"does not hold {card_text(state.game, missing)}"))
    for action, words in cases:
        with pytest.raises(IllegalAction) as info:
            state.apply_action(action)
        assert words in refusal_text(info.value)
        assert not state.is_legal(action)
        assert snapshot(state) == before


def test_responses_are_asked_one_seat_at_a_time_from_the_claimants_left() -> None:
    """Seed 003 section 03: the response opportunities in clockwise order; the first challenge resolves."""
    state = dealt("practice-table", 3, seed=4)
    assert state.current_player() == 1
    state.apply_action(Play(state.hand_cards(1)[:1], 0, 1))
    assert (state.phase, state.current_player(), state.claimant) == (Phase.RESPOND, 2, 1)
    assert state.legal_actions() == [ACCEPT, Challenge("cheat")]
    state.apply_action(ACCEPT)
    assert state.current_player() == 0
    with pytest.raises(IllegalAction) as refused:
        state.apply_action(Challenge("doubt"))
    assert "no challenge `doubt`" in refusal_text(refused.value)
    state.apply_action(ACCEPT)
    assert (state.phase, state.current_player(), state.required_claims()) == (Phase.PLAY, 2, (1,))


def test_play_enumeration_has_a_limit_and_sampling_needs_none() -> None:
    """Seed 004 China: several packs and no cap on a play make the plays too many to list."""
    state = dealt("fujian", 3, seed=1)
    total = state.count_play_actions()
    assert total > 10**8
    with pytest.raises(TooManyActions):
        state.legal_actions()
    play = state.sample_play(random.Random(0))
    assert state.is_legal(play)


def test_sampled_plays_are_uniform_over_the_legal_plays() -> None:
    """sample_play draws every legal play equally often, without listing them."""
    game = Game(rulebook("standard-extra-cards"), 3)
    position = Position(hands=((0, 0, 6, 9), (1, 2), (3, 4)), to_play=0, previous=6)
    state = game.state_from_position(position)
    plays = [a for a in state.legal_actions() if isinstance(a, Play)]
    assert len(plays) == state.count_play_actions()
    rng = random.Random(1)
    draws = Counter(state.sample_play(rng) for _ in range(200 * len(plays)))
    assert set(draws) == set(plays)
    assert max(draws.values()) < 2 * min(draws.values())


def test_a_count_free_both_ways_is_listed_counted_and_sampled_alike() -> None:
    """Seed 002 Variants, bigger claims, with `claim.count: any`: any count from 1 to the deck's size."""
    house = Path(__file__).resolve().parent / "scenarios" / "full-rules" / "rulebook-house-any-count.yaml"
    game = Game(load_rulebook(str(house)), 3)
    state = game.state_from_position(Position(hands=((0, 4, 4), (1, 2), (3, 5)), to_play=0, previous=3))
    plays = [a for a in state.legal_actions() if isinstance(a, Play)]
    assert len(plays) == state.count_play_actions() == 5 * 52
    assert {p.count for p in plays} == set(range(1, 53))
    rng = random.Random(4)
    assert all(state.is_legal(state.sample_play(rng)) for _ in range(50))


def test_a_turn_cap_stops_the_game_without_a_winner() -> None:
    state = Game(rulebook("english-ascending"), 3, turn_cap=5).new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        random_step(state, rng)
    result = state.result()
    assert result is not None and result.capped and result.winner is None
    assert state.turns == 5 and state.returns() == [0.0, 0.0, 0.0]
    assert state.current_player() == TERMINAL


def test_returns_are_zero_sum_with_the_winner_on_top() -> None:
    """Seed 000 section 05: first to empty successfully wins; no draws."""
    game = Game(rulebook("english-ascending"), 3)
    state = game.state_from_position(Position(hands=((12,), (1, 2), (3, 4)), to_play=0, previous=5))
    state.apply_action(Play((12,), 6, 1))
    state.apply_action(ACCEPT)
    state.apply_action(ACCEPT)
    assert state.returns() == [1.0, -0.5, -0.5]
    result = state.result()
    assert result is not None and (result.winner, result.order_out, result.capped) == (0, (0,), False)


def test_a_position_that_cannot_happen_is_refused() -> None:
    game = Game(rulebook("english-ascending"), 3)
    with pytest.raises(ValueError, match="the deck has 4"):
        game.state_from_position(Position(hands=((6,) * 5, (), ()), to_play=0))
    with pytest.raises(ValueError, match="3 players"):
        game.state_from_position(Position(hands=((6,), ()), to_play=0))
    with pytest.raises(ValueError, match="not 7"):
        Game(rulebook("english-ascending"), 7)


def test_mogeln_leader_when_the_ace_of_hearts_is_not_dealt() -> None:
    """Seed 004 Mogeln: the holder of the ace of hearts leads; if it lies in the surplus, the dealer's left."""
    state = dealt("mogeln", 5, seed=15, dealer=0)
    game = state.game
    assert parse_card(game, "AH") in state.aside()
    assert state.current_player() == 1


# --- observations ---------------------------------------------------------------------------------


def test_an_observation_shows_own_hand_and_public_facts() -> None:
    """Seed 003: the cards are private, the claim is public."""
    state = dealt("english-ascending", 3, seed=3, dealer=2)
    state.apply_action(Play(state.hand_cards(0)[:2], 0, 2))
    obs = state.observation(1)
    assert obs.hand == state.hand_cards(1)
    assert obs.hand_sizes == (16, 17, 17) and obs.pile_size == 2
    assert obs.phase is Phase.RESPOND and obs.to_act == 1 and obs.claimant == 0
    assert [(c.seat, c.claim, c.count, c.last_cards) for c in obs.claims] == [(0, 0, 2, False)]


@pytest.mark.parametrize("name,players", [("english-ascending", 3), ("bluffstopp", 3), ("one-rank-a-round", 2),
                                          ("canadian-bluff", 4), ("mogeln", 4)])
def test_an_observation_is_blind_to_hidden_cards(name: str, players: int) -> None:
    """Swapping cards among other hands, the pile and the stock leaves a seat's observation unchanged."""
    rng = random.Random(11)
    state = Game(rulebook(name), players, turn_cap=60).new_initial_state()
    checked = 0
    while not state.is_terminal():
        random_step(state, rng)
        if state.is_terminal() or state.current_player() == CHANCE:
            continue
        for seat in range(players):
            before = state.observation(seat)
            for twin in _hidden_swaps(state, seat):
                assert twin.observation(seat) == before
                checked += 1
    assert checked > 20


def _hidden_swaps(state: State, seat: int) -> list[State]:
    """Copies of `state` with one hidden card exchanged between two places `seat` cannot see."""
    out = []
    others = [s for s in range(state.game.players) if s != seat and state.hand_size(s)]

    def swapped(cards: tuple[int, ...], old: int, new: int) -> list[int]:
        rest = list(cards)
        rest.remove(old)
        return sorted([*rest, new])

    for a in others:
        held = state.hand_cards(a)
        ca = held[0]
        for b in others:
            cb = state.hand_cards(b)[-1]
            if b != a and cb != ca:
                out.append(state.rearranged(hands={a: swapped(held, ca, cb), b: swapped(state.hand_cards(b), cb, ca)}))
        stock, aside = state.stock(), state.aside()
        if stock and stock[-1] != ca:
            out.append(state.rearranged(hands={a: swapped(held, ca, stock[-1])}, stock=[*stock[:-1], ca]))
        if aside and aside[0] != ca:
            out.append(state.rearranged(hands={a: swapped(held, ca, aside[0])}, aside=[ca, *aside[1:]]))
        plays = [entry[1] for entry in state.pile_plays()]
        if plays and plays[-1][0] != ca:
            top = plays[-1]
            pile = [*plays[:-1], tuple(sorted((ca, *top[1:])))]
            out.append(state.rearranged(hands={a: swapped(held, ca, top[0])}, pile=pile))
    return out


# --- notation -------------------------------------------------------------------------------------


def test_notation_reads_cards_claims_and_actions() -> None:
    rank_game = Game(rulebook("english-ascending"), 3)
    assert parse_card(rank_game, "7C") == parse_card(rank_game, "7") == 6
    assert parse_card(rank_game, "10H") == 9 and parse_card(rank_game, "K♦") == 12
    assert parse_claim(rank_game, "2 sevens") == (6, 2)
    assert parse_claim(rank_game, "one ace") == (0, 1)
    assert parse_action(rank_game, "play 7C KD as 2 sevens") == Play((6, 12), 6, 2)
    assert parse_action(rank_game, "challenge") == Challenge("cheat")
    assert action_text(rank_game, Play((6, 12), 6, 2)) == "play 7 K as 2 sevens"
    card_game = Game(rulebook("mogeln"), 4)
    assert action_text(card_game, parse_action(card_game, "play 2h as the two of hearts")) == \
        "play 2H as the two of hearts"
    force_game = Game(rulebook("one-rank-a-round"), 2)
    assert parse_action(force_game, "challenge force") == Challenge("force")
    assert parse_action(force_game, "challenge Doubt") == Challenge("doubt")


@pytest.mark.parametrize("name,players", [("english-ascending", 3), ("mogeln", 4), ("canadian-bluff", 3),
                                          ("verish-ne-verish", 3), ("one-rank-a-round", 2), ("bluffstopp", 2)])
def test_every_action_reads_back_from_its_text(name: str, players: int) -> None:
    rng = random.Random(2)
    state = Game(rulebook(name), players, turn_cap=60).new_initial_state()
    game = state.game
    while not state.is_terminal():
        if state.current_player() != CHANCE:
            if state.phase is Phase.PLAY:
                actions = [state.sample_play(rng) for _ in range(3)] if state.count_play_actions() else []
            else:
                actions = state.legal_actions()
            for action in actions:
                assert parse_action(game, action_text(game, action)) == action
        random_step(state, rng)


def test_a_short_stock_hands_the_loser_the_pile_and_says_so() -> None:
    """`challenge.penalty.short_stock: take_pile` (bluffstopp, the project's choice where seed 004 Sweden says
    only "the player draws three cards from the pile"): a last card caught with one card left to draw
    brings that card and the whole pile; the public record, the counting bot's memory and the words at the
    table all say the pile was taken."""
    from cheatdsl.bots.counter import Memory
    from cheatdsl.play.words import Voices, reveal_lines
    game = Game(rulebook("bluffstopp"), 3)
    c = [parse_card(game, t) for t in ("2C", "9H", "5S", "QS", "QD", "7H", "4D")]
    state = game.state_from_position(Position(hands=((c[0],), (c[1], c[2]), (c[3], c[4])), to_play=0, dealer=2,
                                              pile=(c[5],), stock=(c[6],), previous=c[5]))
    memory = Memory(game, 1, (1, 2, 2))
    state.apply_action(parse_action(game, "play 2C as the eight of hearts"))
    memory.catch_up(state.view(1))
    state.apply_action(Challenge("bluff"))
    state.apply_action(ACCEPT)  # seat 2 answers too: calls are made at once (`priority: first_clockwise`)
    (record,) = state.reveals()
    assert (record.caught, record.loser, record.taken, record.pile_taken) == (True, 0, 3, 2)
    assert sorted(state.hand_cards(0)) == sorted((c[0], c[5], c[6])) and state.pile_cards() == ()
    memory.catch_up(state.view(1))
    assert memory.known[0][c[0]] == 1 and not any(memory.pile)   # the card turned over went back with the pile
    assert reveal_lines(game, record, Voices(["North", "East", "South"]))[-1] == \
        "North draws 1 card from the stock, all it held, and collects the pile as well: 2 cards."


def test_the_deal_shuffles_as_random_shuffle_does() -> None:
    """`ChanceShuffle(seed)` means `random.Random(seed).shuffle(deck)`: the engine's own loop gives that order."""
    rng = random.Random(5)
    seeds = [0, 1, 2**64 - 1, 2**70 + 3, *(rng.getrandbits(64) for _ in range(60))]
    for size in (1, 2, 36, 52, 54, 104):
        for seed in seeds:
            expected = list(range(size))
            random.Random(seed).shuffle(expected)
            assert shuffled(list(range(size)), seed) == expected


def test_a_rearranged_state_keeps_every_place_and_card() -> None:
    """`State.rearranged` moves cards between places and nothing else: a change of a place's size, or a
    card made or lost, is refused; the original state is left as it was."""
    state = Game(rulebook("standard"), 3).new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(state.chance_outcome(rng))
    a, b = 1, 2
    ha, hb = list(state.hand_cards(a)), list(state.hand_cards(b))
    swapped = state.rearranged(hands={a: sorted([*ha[1:], hb[0]]), b: sorted([*hb[1:], ha[0]])})
    assert swapped.hand_cards(a) == tuple(sorted([*ha[1:], hb[0]]))
    assert state.hand_cards(a) == tuple(ha) and swapped.hand_sizes() == state.hand_sizes()
    with pytest.raises(ValueError):
        state.rearranged(hands={a: ha[1:], b: sorted([*hb, ha[0]])})  # sizes change
    with pytest.raises(ValueError):
        state.rearranged(hands={a: [hb[0]] * len(ha)})  # cards made and lost
    values = len(state.hand(a))
    with pytest.raises(ValueError):
        state.rearranged(hands={a: [*ha[1:], values]})  # a card of no value the table has
    with pytest.raises(ValueError):
        state.rearranged(hands={a: [*ha[1:], -1]})
