"""Issue 39: what a rulebook rewards, in figures that tell rulebooks apart (`cheatdsl/rate/headline.py`):
the skill edge, the luck share and the economy of bluffing, each over duplicate deals. The controls are
written from the issue's words: "a rulebook where every choice is forced or changes nothing (one card a
turn, no challenge allowed) gets `skill_edge` 0 within its interval and `luck_share` at least 0.95;
English ascending gets a `skill_edge` above 0"; and a rule that makes lies costly lowers `lie_value`."""

from __future__ import annotations

import random
from pathlib import Path

from cheatdsl.engine import Game
from cheatdsl.load import load_rulebook
from cheatdsl.rate.entrants import LADDER, Entrant
from cheatdsl.rate.headline import headline, one_seat_rotations, truthful
from cheatdsl.rate.matches import Match

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SEARCH_LOW = LADDER[4]


def _figures(rulebook: str, players: int, deals: tuple[int, int, int], strong: Entrant = SEARCH_LOW):
    game = Game(load_rulebook(rulebook), players, turn_cap=2000)
    return headline(game, strong, deals, seed=0, samples=100, rng=random.Random(0))


def test_where_every_choice_is_forced_skill_earns_nothing_and_the_deal_decides() -> None:
    h = _figures(str(FIXTURES / "forced-every-choice.yaml"), 3, (4, 6, 2))
    assert h.skill_edge.low <= 0.0 <= h.skill_edge.high and abs(h.skill_edge.value) < 1e-9
    assert h.luck_share.value >= 0.95
    assert abs(h.lie_value.value) < 1e-9  # a lie changes nothing where no call is ever allowed


def test_english_ascending_rewards_skill() -> None:
    h = _figures("english-ascending", 4, (8, 2, 1))
    assert h.skill_edge.value > 0 and h.skill_edge.low > 0, h.skill_edge
    assert 0.0 < h.lie_share.value < 1.0 and 0.0 <= h.lies_caught.value <= 1.0


def test_where_a_wrong_call_costs_nothing_lying_is_worth_less_than_on_the_standard_sheet(tmp_path: Path) -> None:
    """Issue 39's third control: "where the language can say a rule that makes every lie costly (... a failed call
    costs nothing), `lie_value` falls below the standard sheet's". With `challenge.penalty.failed_call: free` on
    a sheet where any claim may follow any other (Fujian's, so no lie is ever forced and only the strong bot's are
    told), a call is worth making on every claim: the strong bot's lies are caught and its truthful copies win."""
    book = tmp_path / "fujian-free-calls.yaml"
    book.write_text("rulebook: fujian-free-calls\nextends: fujian\nchallenge:\n  penalty:\n    failed_call: free\n")
    free = _figures(str(book), 3, (0, 0, 8)).lie_value
    standard = _figures("standard", 3, (0, 0, 8)).lie_value
    paid = _figures("fujian", 3, (0, 0, 8)).lie_value
    assert free.high < standard.low, (free, standard)
    assert free.high < paid.low, (free, paid)


def test_the_strong_bot_sits_at_every_seat_of_each_deal() -> None:
    seatings, dealt = one_seat_rotations(3, 2)
    assert seatings == [(1, 0, 0), (0, 1, 0), (0, 0, 1)] * 2 and dealt == [0, 0, 0, 1, 1, 1]


def test_the_truthful_copy_never_lies_when_a_truthful_play_is_open() -> None:
    """`lie_value` sets the strong bot against copies of itself that never lie when they can tell the truth."""
    from cheatdsl.engine import Play
    copy = truthful(SEARCH_LOW)
    assert copy is not None and dict(copy.options)["truthful"] is True
    assert truthful(LADDER[2]) is None  # honest has no such setting: the figure is left out, with a note
    game = Game(load_rulebook("standard"), 3)
    rules = game.rules
    for seed in range(3):
        st = game.new_initial_state()
        rng = random.Random(seed)
        while st.is_chance_node():
            st.apply_action(st.chance_outcome(rng))
        bot = copy.make(st.to_act, random.Random(seed))
        view = st.view(st.to_act)
        hand = st.hand(st.to_act)
        action = bot.act(view)
        open_truth = any(hand[c] and c in rules.passes_as(c) and c in st.required for c in range(rules.values + 1)) \
            or any(rules.wild and hand[rules.joker] for _ in [0])
        if open_truth and isinstance(action, Play):
            assert action.count == len(action.cards)
            assert all(action.claim in rules.passes_as(c) for c in action.cards), action


def test_a_seats_share_of_the_good_result() -> None:
    won = Match((0, 1, 0), 0, 1, -1, True, 10, 5)
    lost = Match((0, 1, 0), 0, -1, 2, True, 10, 5)
    assert [won.good(s) for s in range(3)] == [0.0, 1.0, 0.0]
    assert [lost.good(s) for s in range(3)] == [0.5, 0.5, 0.0]
    assert Match((0, 0), 0, -1, -1, False, 10, 5).good(0) is None
