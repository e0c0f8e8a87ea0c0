"""The bots: each plays every shipped rulebook with legal actions, sees only its seat's view, and
behaves as described (docs: `cheatdsl/bots/__init__.py`; seed 003 for `honest`, "The computer
opponents prefer truthful cards when available and otherwise bluff ... They do not inspect the
hidden packet, earlier face-down cards or another player's private hand to decide")."""

from __future__ import annotations

import copy
import random
from collections import Counter
from pathlib import Path

import pytest
from test_engine import _hidden_swaps

from cheatdsl.bots import BOTS as ALL_BOTS
from cheatdsl.bots import Bot, CounterBot, HonestBot, SearchBot, make_bot
from cheatdsl.bots.base import (
    NEVER,
    bluff_play,
    cards_to_match,
    copies_of,
    count_is_a_lie,
    discard_or_keep,
    force_challenge,
    pad_to_minimum,
    preferred_challenge,
    truthful_play,
    turns_until,
)
from cheatdsl.bots.odds import chance_of_lie, hand_odds
from cheatdsl.engine import (
    ACCEPT,
    CHANCE,
    PASS,
    Action,
    Challenge,
    Game,
    IllegalAction,
    Phase,
    Play,
    Position,
    State,
    TooManyActions,
    View,
)
from cheatdsl.load import compile_rulebook, load_rulebook
from cheatdsl.model import Rulebook
from cheatdsl.words.notation import describe_state

RULEBOOKS = Path(__file__).resolve().parents[1] / "rulebooks"
SHIPPED = sorted(p for p in RULEBOOKS.iterdir() if p.suffix in (".yaml", ".cheat"))
_CACHE: dict[str, Rulebook] = {}

# The bots played here game after game; the search bot (hundreds of times slower a decision) plays the
# same rules through `honest` and has its own small-sample tests in test_search_bot.py.
BOTS = {name: cls for name, cls in ALL_BOTS.items() if not issubclass(cls, SearchBot)}


def rulebook(name: str) -> Rulebook:
    if name not in _CACHE:
        _CACHE[name] = load_rulebook(str(RULEBOOKS / f"{name}.yaml"))
    return _CACHE[name]


def bots_for(name: str, players: int, seed: int) -> list[Bot]:
    return [make_bot(name, s, random.Random(seed * 101 + s)) for s in range(players)]


def deal(game: Game, seed: int) -> State:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(state.chance_outcome(rng))
    return state


def legal(state: State, action: object) -> bool:
    """Whether `action` is among the legal actions (listed where they are few, else checked)."""
    try:
        return action in state.legal_actions(limit=2000)
    except TooManyActions:
        return state.is_legal(action)  # type: ignore[arg-type]


# --- every bot, every rulebook ------------------------------------------------------------------


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_bot_finishes_games_with_legal_actions_on_every_rulebook(path: Path) -> None:
    """Each bot plays each shipped rulebook at its fewest seats to an end (or the turn cap), choosing
    only legal actions: claims of rank and of exact cards, passing, Force, set discards, draw penalties."""
    rb, diagnostics = compile_rulebook(str(path))
    assert rb is not None, diagnostics.render()
    game = Game(rb, rb.players.min, turn_cap=120)
    kinds: Counter[str] = Counter()
    for name in BOTS:
        for seed in range(2):
            state = deal(game, seed)
            bots = bots_for(name, game.players, seed)
            views = [state.view(s) for s in range(game.players)]
            steps = 0
            while not state.is_terminal():
                seat = state.current_player()
                if seat == CHANCE:  # who of several callers called first
                    state.apply_action(state.chance_outcome(random.Random(steps)))
                    continue
                action = bots[seat].act(views[seat])
                if steps % 7 == 0 or state.phase is not Phase.PLAY:
                    assert legal(state, action), f"{name} chose {action!r} at\n{describe_state(state)}"
                state.apply_action(action)  # raises IllegalAction for anything the rules refuse
                kinds[type(action).__name__] += 1
                steps += 1
            assert state.result() is not None
    assert kinds["Play"] and kinds["Accept"]


# The pairs known not to end, each for the reason its traced games show; none is a bot's misjudgement,
# each needs a rule decided (or, for `random`, its definition changed). A strict xfail: when a pair
# starts to end, its test fails, so that the entry is removed.
_STANDARD_FOR_TWO = ("standard", "standard-big-table", "standard-count-of-three", "standard-counting-down",
                     "standard-extra-cards", "standard-nearest-left", "standard-show-the-pile", "standard-two-player")
_QUAD_LOOP = ("two seats and the whole deck dealt: once each rank sits whole in one hand, every bluff is a "
              "certain lie the other seat calls and every truthful play hands over a whole rank, so the same "
              "turns come round again (the sheet's twelve-aside house rule ends them)")
_EXACT_CARD_LOOP = ("one exact card a play, a bluff forced on a seat without it: the card's holder calls every "
                    "bluff for certain, and a seat sheds a card only on a turn that asks for one it holds; at "
                    "four seats each seat is only ever asked for 13 cards, and once it holds none of them the "
                    "hands never change again")
NEVER_ENDS: dict[tuple[str, str, int], str] = {
    **{(f"{stem}.yaml", bot, 2): _QUAD_LOOP for stem in _STANDARD_FOR_TWO for bot in ("honest", "counter")},
    **{("mogeln.yaml", bot, n): _EXACT_CARD_LOOP for bot in ("honest", "counter") for n in (4, 6)},
}
END_SEEDS = range(8)
END_CAP = 20_000      # turns: a few times the longest seeded game that ends (random at Mogeln, about 8,500)
LOOP_CAP = 2_000      # for the pairs in NEVER_ENDS: enough to see them stopped


def _end_cases() -> list[object]:
    cases: list[object] = []
    for path in SHIPPED:
        players = compile_rulebook(str(path))[0].players  # type: ignore[union-attr]
        for n in sorted({players.min, min(players.max, players.min + 2)}):
            for name in BOTS:
                reason = NEVER_ENDS.get((path.name, name, n))
                marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
                cases.append(pytest.param(path, name, n, marks=marks, id=f"{path.name}-{name}-{n}"))
    return cases


@pytest.mark.parametrize("path,name,players", _end_cases())
def test_every_rulebook_ends_under_every_bot(path: Path, name: str, players: int) -> None:
    """Project's rule: every shipped rulebook plays to the end under every bot. Eight seeded
    games of each shipped rulebook, at its fewest seats and two more, between bots of one kind, all end
    with a result inside the turn cap: none is stopped by the cap or by a seat left without a legal action."""
    rb, diagnostics = compile_rulebook(str(path))
    assert rb is not None, diagnostics.render()
    cap = LOOP_CAP if (path.name, name, players) in NEVER_ENDS else END_CAP
    game = Game(rb, players, turn_cap=cap)
    stopped = []
    for seed in END_SEEDS:
        state = deal(game, seed)
        bots = bots_for(name, players, seed)
        views = [state.view(s) for s in range(players)]
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:  # who of several callers called first
                state.apply_action(state.chance_outcome(random.Random(state.turns)))
                continue
            state.apply_action(bots[seat].act(views[seat]))
        result = state.result()
        assert result is not None
        if result.capped:
            stopped.append(f"seed {seed}: {result.reason}")
    assert not stopped, f"{name} at {players} seats: " + "; ".join(stopped)


def test_mixed_tables_play_the_rules_with_every_feature() -> None:
    """Force (one-rank-a-round at two), optional set discards (verish-ne-verish), draw penalties
    (bluffstopp), passing (bluffstopp, verish skip): each bot meets them at one table."""
    seen: Counter[str] = Counter()
    for name, players in (("one-rank-a-round", 2), ("verish-ne-verish", 2), ("bluffstopp", 3),
                          ("verish-ne-verish-skip", 3), ("canadian-bluff", 3), ("mogeln", 4)):
        game = Game(rulebook(name), players, turn_cap=300)
        for seed in range(3):
            state = deal(game, seed)
            names = list(BOTS)
            bots = [make_bot(names[(s + seed) % len(names)], s, random.Random(seed + s)) for s in range(players)]
            while not state.is_terminal():
                seat = state.current_player()
                if seat == CHANCE:  # who of several callers called first
                    state.apply_action(state.chance_outcome(random.Random(state.turns)))
                    continue
                action = bots[seat].act(state.view(seat))
                state.apply_action(action)
                seen[type(action).__name__] += 1
    assert {"Play", "Pass", "Accept", "Challenge", "DiscardSet", "KeepSets"} <= set(seen)


def test_unknown_bot_and_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="there is no bot `clever`"):
        make_bot("clever", 0, random.Random(0))
    with pytest.raises(ValueError, match="probability"):
        make_bot("greedy", 0, random.Random(0), challenge_rate=1.5)
    with pytest.raises(TypeError):
        make_bot("random", 0, random.Random(0), challenge_rate=0.2)


# --- what a bot may see -------------------------------------------------------------------------


@pytest.mark.parametrize("name,players", [("english-ascending", 3), ("one-rank-a-round", 2), ("bluffstopp", 3),
                                          ("canadian-bluff", 4), ("verish-ne-verish", 3), ("mogeln", 4),
                                          ("standard-one-card-only", 3)])
def test_a_decision_does_not_change_with_hidden_cards(name: str, players: int) -> None:
    """Seed 003: the bots "do not inspect the hidden packet, earlier face-down cards or another
    player's private hand". Two states differing only in cards the seat cannot see give the same
    view and, from the same bot in the same state of mind, the same action."""
    game = Game(rulebook(name), players, turn_cap=40)
    checked = 0
    for bot_name in BOTS:
        state = deal(game, 5)
        bots = bots_for(bot_name, players, 5)
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:  # who of several callers called first
                state.apply_action(state.chance_outcome(random.Random(state.turns)))
                continue
            view = state.view(seat)
            for twin in _hidden_swaps(state, seat)[:2]:
                twin_view = twin.view(seat)
                assert twin_view.snapshot() == view.snapshot()
                keep = {id(game): game}  # the rules are shared, not part of a bot's mind
                one, two = copy.deepcopy(bots[seat], dict(keep)), copy.deepcopy(bots[seat], dict(keep))
                assert one.act(view) == two.act(twin_view)
                checked += 1
            state.apply_action(bots[seat].act(view))
    assert checked > 100


def test_a_view_shows_own_hand_and_public_facts_only() -> None:
    """The view carries the claim, the count, the cards put down and the last-cards flag; the cards
    of other hands and of the pile are not among its public attributes."""
    game = Game(rulebook("english-ascending"), 3)
    state = game.state_from_position(Position(hands=((0, 0, 5), (1, 2, 3, 4), (6, 7)), to_play=0))
    state.apply_action(Play((0, 5), 0, 2))
    view = state.view(1)
    assert view.responding and view.claimant == 0 and view.pending == (0, 2, 2, False)
    assert view.hand_cards() == (1, 2, 3, 4) and view.hand_sizes == (1, 4, 2) and view.pile_size == 2
    assert view.responses == (ACCEPT, Challenge("cheat")) and view.card_cap == 4 and not view.may_pass
    assert view.legal_actions() == [ACCEPT, Challenge("cheat")] and state.view(2).legal_actions() == []
    public = {n for n in dir(view) if not n.startswith("_")}
    assert not public & {"hands", "pile", "pile_cards", "stock", "aside", "state", "hand_of"}


# --- random -------------------------------------------------------------------------------------


def _frequencies(state: State, seat: int, draws: int) -> Counter[object]:
    bot = make_bot("random", seat, random.Random(1))
    view = state.view(seat)
    return Counter(bot.act(view) for _ in range(draws))


def _chi_square(counts: Counter[object], cells: int, draws: int) -> float:
    """Pearson's statistic against equal frequencies; a cell never drawn counts in full."""
    expected = draws / cells
    return sum((c - expected) ** 2 / expected for c in counts.values()) + (cells - len(counts)) * expected


def test_random_is_uniform_over_a_small_set_of_legal_actions() -> None:
    """`random`: every legal action equally likely. Three cards (two aces and a six) give five plays."""
    game = Game(rulebook("english-ascending"), 3)
    state = game.state_from_position(Position(hands=((0, 0, 5), (1, 2, 3, 4), (6, 7)), to_play=0))
    actions = state.legal_actions()
    assert len(actions) == 5
    draws = 10_000
    counts = _frequencies(state, 0, draws)
    assert set(counts) == set(actions)
    # chi-square with 4 degrees of freedom: 25 lies far beyond its 99.99th percentile (23.5)
    assert _chi_square(counts, len(actions), draws) < 25


def test_random_samples_uniformly_when_plays_are_too_many_to_list() -> None:
    """Ten different cards and a cap of four: 385 plays, drawn with count_play_actions/sample_play."""
    game = Game(rulebook("english-ascending"), 3)
    state = game.state_from_position(Position(hands=(tuple(range(10)), (10, 11), (12,)), to_play=0))
    assert state.count_play_actions() == 385
    draws = 20_000
    counts = _frequencies(state, 0, draws)
    assert all(state.is_legal(a) for a in list(counts)[:50])
    assert len(counts) == 385
    # 384 degrees of freedom: mean 384, sd 27.7; 540 is more than five sd out
    assert _chi_square(counts, 385, draws) < 540


def test_random_passes_as_often_as_any_play_where_passing_is_allowed() -> None:
    """Bluffstopp (seed 004) lets the player after a play pass: a pass is one legal action among the plays."""
    game = Game(rulebook("bluffstopp"), 3)
    state = game.state_from_position(Position(hands=((0, 1, 2), (3, 4), (5, 6)), to_play=0, previous=None,
                                              leading=True))
    state.apply_action(Play((0,), 0, 1))
    state.apply_action(ACCEPT)
    state.apply_action(ACCEPT)
    actions = state.legal_actions()
    assert PASS in actions
    counts = _frequencies(state, state.current_player(), 6000)
    assert set(counts) == set(actions)
    assert _chi_square(counts, len(actions), 6000) < 30


# --- greedy -------------------------------------------------------------------------------------


def test_greedy_plays_every_card_of_the_required_rank_up_to_the_cap() -> None:
    """`greedy`: all its cards of the required rank, never more than the cap (four, seed 000)."""
    game = Game(rulebook("english-ascending"), 3)
    for held, played in ((1, 1), (3, 3), (4, 4)):
        hand = (6,) * held + (1, 9)
        state = game.state_from_position(Position(hands=(hand, (2, 3), (4, 5)), to_play=0, previous=5))
        assert state.required_claims() == (6,)
        assert make_bot("greedy", 0, random.Random(0)).act(state.view(0)) == Play((6,) * played, 6, played)
    unlimited = Game(rulebook("standard"), 3)
    state = unlimited.state_from_position(Position(hands=((6, 6, 6, 6, 1), (2,), (4,)), to_play=0, previous=5))
    assert make_bot("greedy", 0, random.Random(0)).act(state.view(0)) == Play((6, 6, 6, 6), 6, 4)


def test_greedy_bluffs_one_random_card_without_the_rank() -> None:
    """`greedy` holding none of the required rank puts down one card drawn at random from its hand."""
    game = Game(rulebook("english-ascending"), 3)
    state = game.state_from_position(Position(hands=((1, 1, 9), (2, 3), (4, 5)), to_play=0, previous=5))
    bot = make_bot("greedy", 0, random.Random(3))
    plays = Counter(bot.act(state.view(0)) for _ in range(3000))
    assert set(plays) == {Play((1,), 6, 1), Play((9,), 6, 1)}
    assert 0.6 < plays[Play((1,), 6, 1)] / 3000 < 0.73  # two of the three cards are twos


def test_greedy_challenges_at_its_rate() -> None:
    """Each chance to respond, `greedy` challenges with probability challenge_rate."""
    game = Game(rulebook("english-ascending"), 3)
    state = game.state_from_position(Position(hands=((0, 1), (2, 3), (4, 5)), to_play=0))
    state.apply_action(Play((0,), 0, 1))
    for rate in (0.0, 0.3, 1.0):
        bot = make_bot("greedy", 1, random.Random(9), challenge_rate=rate)
        share = sum(bot.act(state.view(1)) != ACCEPT for _ in range(4000)) / 4000
        assert abs(share - rate) < 0.03


# --- honest and counter -------------------------------------------------------------------------


def test_honest_plays_truthfully_when_it_can_and_bluffs_otherwise() -> None:
    """Seed 003: "prefer truthful cards when available and otherwise bluff"; with passing allowed
    and nothing to play truthfully, it passes (verish skip: only a player without the rank may pass)."""
    game = Game(rulebook("practice-table"), 3)
    state = game.state_from_position(Position(hands=((6, 6, 2), (2, 3), (4, 5)), to_play=0, previous=5))
    assert make_bot("honest", 0, random.Random(0)).act(state.view(0)) == Play((6, 6), 6, 2)
    state = game.state_from_position(Position(hands=((1, 2, 2), (2, 3), (4, 5)), to_play=0, previous=5))
    action = make_bot("honest", 0, random.Random(0)).act(state.view(0))
    assert isinstance(action, Play) and action.claim == 6 and action.cards == (1,)  # its loneliest card
    skip = Game(rulebook("verish-ne-verish-skip"), 3)
    state = skip.state_from_position(Position(hands=((1, 2), (2, 3), (4, 5)), to_play=0, previous=6))
    assert make_bot("honest", 0, random.Random(0)).act(state.view(0)) == PASS


def test_honest_counts_ahead_and_bluffs_the_card_its_turns_need_last() -> None:
    """Seed 002: "Count ahead: you know which ranks you will have to play on your next turns. Keep real
    cards for them." Three seats on sevens: its next turns ask for tens, kings, threes ... fives eighth,
    so of a ten and a five it bluffs the five. In Mogeln at four seats its turns only ever ask for every
    fourth card: it keeps the ten of hearts (its next turn) and bluffs a card it will never be asked for."""
    game = Game(rulebook("practice-table"), 3)
    state = game.state_from_position(Position(hands=((4, 9), (2, 3), (5, 7)), to_play=0, previous=5))
    assert state.required_claims() == (6,)
    assert {make_bot("honest", 0, random.Random(s)).act(state.view(0)) for s in range(20)} == {Play((4,), 6, 1)}
    mogeln = Game(rulebook("mogeln"), 4)
    hands = ((9, 10, 11), (0, 1, 2), (3, 6, 7), (8, 12, 14))
    state = mogeln.state_from_position(Position(hands=hands, to_play=0, previous=4))
    assert state.required_claims() == (5,)  # the six of hearts; then the ten of hearts, the ace of clubs ...
    for bot in ("honest", "counter"):
        bluffs = {make_bot(bot, 0, random.Random(s)).act(state.view(0)) for s in range(40)}
        assert bluffs == {Play((10,), 5, 1), Play((11,), 5, 1)}


def test_honest_challenges_what_its_own_hand_proves_false() -> None:
    """Seed 003: "Holding three aces makes an opponent's two-ace claim impossible with one deck"."""
    game = Game(rulebook("practice-table"), 3)
    state = game.state_from_position(Position(hands=((7, 8, 9), (0, 0, 0, 4), (5, 6)), to_play=0))
    state.apply_action(Play((7, 8), 0, 2))
    for seed in range(20):
        assert make_bot("honest", 1, random.Random(seed)).act(state.view(1)) == Challenge("cheat")


def test_honest_doubts_a_claimant_on_its_last_cards() -> None:
    """Seed 003: the decision uses "whether the claimant has no cards left": a fair doubt is enough
    to challenge a last play, since accepting it ends the game; otherwise such a doubt is acted on
    only now and then. With Force at the table an empty hand has nothing to show: Force it."""
    game = Game(rulebook("practice-table"), 3)
    state = game.state_from_position(Position(hands=((9,), (1, 2, 3, 4, 5, 6, 7), (8, 10, 11)), to_play=0))
    state.apply_action(Play((9,), 0, 1))
    view = state.view(1)
    assert view.claimant_last
    bot = make_bot("honest", 1, random.Random(4))
    assert all(bot.doubts(view, 0.3, last=True) for _ in range(200))
    assert 0.03 < sum(bot.doubts(view, 0.3, last=False) for _ in range(4000)) / 4000 < 0.15
    assert bot.act(view) == Challenge("cheat")
    two = Game(rulebook("one-rank-a-round"), 2)
    state = two.state_from_position(Position(hands=((5, 7), (1, 2, 4)), to_play=0, previous=3))
    for action in (Play((5,), 3, 1), ACCEPT, Play((1,), 3, 1), ACCEPT, Play((7,), 3, 1)):
        state.apply_action(action)
    assert state.view(1).claimant_last and state.view(1).responses[2] == Challenge("force")
    assert make_bot("honest", 1, random.Random(0)).act(state.view(1)) == Challenge("force")


SEAT_2 = (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 9, 9, 10)


def _memory_scene(listener: CounterBot | None = None) -> tuple[State, CounterBot, HonestBot]:
    """Free choice at three seats. The counter (seat 1) plays two sevens; seat 0 challenges and picks
    them up with the pile; seat 2, holding fifteen cards, then claims three sevens. Only two sevens
    can be outside seat 0's hand. A `listener` plays along and is told of the challenge by notify."""
    game = Game(rulebook("full-rules-free-choice"), 3)
    state = game.state_from_position(Position(hands=((1, 2, 3), (6, 6, 8), SEAT_2), to_play=1, previous=4))
    counter = CounterBot(1, random.Random(0))
    honest = HonestBot(1, random.Random(0))
    action = counter.act(state.view(1))
    assert action == Play((6, 6), 6, 2)
    if listener is not None:
        assert listener.act(state.view(1)) == action
    state.apply_action(action)
    state.apply_action(ACCEPT)               # seat 2
    state.apply_action(Challenge("cheat"))   # seat 0, wrongly: it takes the two sevens
    if listener is not None:
        listener.notify(state.reveals()[-1])
    assert state.current_player() == 2 and state.hand_size(0) == 5
    state.apply_action(Play((9, 9, 10), 6, 3))
    state.apply_action(ACCEPT)               # seat 0
    assert state.current_player() == 1
    return state, counter, honest


def test_counter_challenges_a_lie_its_memory_makes_certain() -> None:
    """`counter` remembers its sevens went to seat 0 at the pickup: three more sevens cannot exist.
    `honest`, from its own hand alone, finds three sevens in fifteen cards plausible."""
    state, counter, honest = _memory_scene()
    view = state.view(1)
    assert counter.act(view) == Challenge("cheat")
    assert counter.chance_of_lie(view, 2, 6, 3, 3) == 1.0
    assert honest.chance_of_lie(view, 2, 6, 3, 3) < 0.5
    assert sum(HonestBot(1, random.Random(s)).act(view) == ACCEPT for s in range(50)) > 35


def test_counter_hears_reveals_by_notify_or_from_the_view_alike() -> None:
    """`notify(reveal)` is optional: told or not, the counter's memory of the pickup is the same,
    and a reveal heard both ways counts once."""
    told = CounterBot(1, random.Random(0))
    state, counter, _ = _memory_scene(listener=told)
    assert told.memory is not None and told.memory.reveals == 1 and told.memory.known[0][6] == 2
    assert told.act(state.view(1)) == counter.act(state.view(1)) == Challenge("cheat")
    told.notify(state.reveals()[-1])
    assert counter.memory is not None
    assert told.memory.known == counter.memory.known and told.memory.reveals == counter.memory.reveals == 1


def test_counter_forgets_as_a_seat_puts_cards_down() -> None:
    """Knowledge of another hand is a lower bound: each card that seat puts down may be a known one."""
    state, counter, _ = _memory_scene()
    counter.act(state.view(1))
    assert counter.memory is not None and counter.memory.known[0][6] == 2
    state.apply_action(Challenge("cheat"))   # caught: seat 2 takes the pile
    state.apply_action(Play((1,), 1, 1))     # seat 0 plays one card
    counter.act(state.view(1))
    assert counter.memory.known[0][6] == 1


def test_bots_refuse_nothing_the_rules_allow_and_raise_nothing() -> None:
    """A bot asked in every phase answers with an action the state accepts (no IllegalAction)."""
    game = Game(rulebook("verish-ne-verish"), 2, turn_cap=200)
    for name in BOTS:
        state = deal(game, 11)
        bots = bots_for(name, 2, 11)
        while not state.is_terminal():
            seat = state.current_player()
            assert seat != CHANCE
            try:
                state.apply_action(bots[seat].act(state.view(seat)))
            except IllegalAction as exc:  # pragma: no cover - the failure message is the point
                pytest.fail(f"{name}: {exc}")


# --- honest's shared tables decide as its rule says, worked out from scratch --------------------


def _honest_from_scratch(view: View, rng: random.Random, rate: float) -> Action:
    """`honest` as its docstring states it, with nothing precomputed or remembered: the oracle for
    the bot, which reads the same decisions from per-table memos and orders built once."""
    g = view.game
    cap = g.rules.max_cards if g.rules.max_cards is not None else 1 << 30
    if view.phase is Phase.RESPOND:
        challenge, force = preferred_challenge(g), force_challenge(g)
        if challenge is None:
            return ACCEPT
        claimant = view.claimant
        assert claimant is not None and view.pending is not None
        claim, count, played, last = view.pending
        if last and force is not None:
            return force
        if count_is_a_lie(g, count, played):
            return challenge
        odds = hand_odds(len(g.rules.table.deck) - view.hand_size, copies_of(g, claim) - view.matching(claim),
                         view.size_of(claimant) + played)
        lie = chance_of_lie(odds, played, cards_to_match(g, played), cap, len(view.required))
        if lie >= 1.0 or (last and lie > (0.1 if g.rules.first_out else 0.3)):
            return challenge
        return challenge if rng.random() < rate * lie / 0.5 else ACCEPT
    if view.phase is not Phase.PLAY:
        return discard_or_keep(view)
    required = view.required
    if not required or view.hand_size < g.rules.min_cards:
        return PASS
    claim, held = required[0], -1
    for c in required:
        if view.matching(c) > held:
            claim, held = c, view.matching(c)
    if held:
        return pad_to_minimum(view, truthful_play(view, claim, min(held, cap)), rng)
    if view.may_pass:
        return PASS
    if len(required) > 1:
        claim = required[rng.randrange(len(required))]
    ahead = turns_until(g, claim, view.players - len(view.out))
    if g.rules.wild:
        ahead[g.rules.joker] = 0
    held_values = [v for v, k in enumerate(view.hand) if k]
    best = max((ahead.get(v, NEVER), -view.hand[v]) for v in held_values)
    tied = [v for v in held_values if (ahead.get(v, NEVER), -view.hand[v]) == best]
    return bluff_play(view, claim, tied[rng.randrange(len(tied))], rng)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_honest_decides_as_its_rule_worked_out_from_scratch(path: Path) -> None:
    """Project's choice: `honest` reads odds, plays and the order to give cards up from tables shared
    per game, for speed. At every decision of seeded games, on every shipped rulebook (one-card-a-value
    decks, wild jokers, several claims, minimums above one, passing), it takes the action the rule
    gives when worked out from scratch, drawing the same random numbers."""
    rb, diagnostics = compile_rulebook(str(path))
    assert rb is not None, diagnostics.render()
    decisions = 0
    for players in sorted({rb.players.min, min(rb.players.max, rb.players.min + 1)}):
        game = Game(rb, players, turn_cap=150)
        for seed in range(2):
            state = deal(game, seed)
            bots = bots_for("honest", players, seed)
            views = [state.view(s) for s in range(players)]
            while not state.is_terminal():
                seat = state.current_player()
                if seat == CHANCE:  # who of several callers called first
                    state.apply_action(state.chance_outcome(random.Random(state.turns)))
                    continue
                oracle = random.Random()
                oracle.setstate(bots[seat].rng.getstate())
                expected = _honest_from_scratch(views[seat], oracle, 0.15)
                action = bots[seat].act(views[seat])
                assert action == expected, f"seat {seat} chose {action!r}, the rule gives {expected!r} at\n{describe_state(state)}"
                assert bots[seat].rng.getstate() == oracle.getstate(), "a different use of the random stream"
                state.apply_action(action)
                decisions += 1
    assert decisions > 100
