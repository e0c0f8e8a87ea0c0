"""`challenge.penalty.failed_call: free`: a wrong call costs the challenger nothing (issue 39, point 3: "a rule
that makes every lie costly (... a failed call costs nothing)"). The interpreter, the kernel and the verifier
read it alike; scenarios under tests/scenarios/standard/ show the table's view of it."""

from __future__ import annotations

import random
from pathlib import Path

from cheatdsl.bots.counter import Memory
from cheatdsl.derived import TableRules
from cheatdsl.engine import ACCEPT, Challenge, Game, Phase, Play
from cheatdsl.load import load_rulebook
from cheatdsl.played_by import Engine, unplayed
from cheatdsl.play.words import Voices, reveal_lines
from cheatdsl.simulate.play import play_game

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "free-calls.yaml"


def _game(tmp_path: Path, extra: str = "", players: int = 2) -> Game:
    text = FIXTURE.read_text()
    if extra:
        text = text.replace("    failed_call: free\n", f"    failed_call: free\n{extra}")
        path = tmp_path / "free-calls-variant.yaml"
        path.write_text(text)
        return Game(load_rulebook(str(path)), players, turn_cap=300)
    return Game(load_rulebook(str(FIXTURE)), players, turn_cap=300)  # the fixture has plays that never end


def _true_play_challenged(game: Game, kind: str, seed: int = 0):
    """A deal's first play made true (one card of the claim from the first hand) and challenged by the next seat."""
    st = game.new_initial_state()
    rng = random.Random(seed)
    while st.is_chance_node():
        st.apply_action(st.chance_outcome(rng))
    for attempt in range(200):
        claimant = st.to_act
        claim = st.required[0]
        if st.hand(claimant)[claim] >= 2 or (kind == "cheat" and st.hand(claimant)[claim]):
            break
        st = game.new_initial_state()
        rng = random.Random(seed + attempt + 1)
        while st.is_chance_node():
            st.apply_action(st.chance_outcome(rng))
    else:
        raise AssertionError("no deal gives the first seat a card of the first claim")
    challenger = (claimant + 1) % game.players
    before = [list(st.hand(s)) for s in range(game.players)]
    st.apply_action(Play((claim,), claim, 1))
    st.apply_action(Challenge(kind) if st.to_act == challenger else ACCEPT)
    while st.phase is Phase.RESPOND:
        st.apply_action(ACCEPT)
    return st, claimant, challenger, claim, before


def test_a_wrong_call_that_turns_the_play_over_costs_nothing(tmp_path: Path) -> None:
    st, claimant, challenger, claim, before = _true_play_challenged(_game(tmp_path), "cheat")
    record = st.reveals()[-1]
    assert not record.caught and not record.paid and record.taken == 0
    assert list(st.hand(challenger)) == before[challenger]
    assert list(st.pile_cards()) == [claim]  # the pile stays (`pile_after: stays`)
    assert st.to_act == (claimant + 1) % st.game.players  # `next_player: left(claimant)`


def test_a_wrong_force_call_leaves_the_card_shown_with_the_claimant(tmp_path: Path) -> None:
    st, claimant, challenger, claim, before = _true_play_challenged(_game(tmp_path), "force")
    record = st.reveals()[-1]
    assert not record.caught and not record.paid and record.revealed == (claim,)
    assert st.hand(claimant)[claim] == before[claimant][claim] - 1  # only the card played left the hand
    assert list(st.hand(challenger)) == before[challenger]


def test_the_pile_nobody_takes_leaves_the_game_where_pile_after_says_so(tmp_path: Path) -> None:
    game = _game(tmp_path, "    pile_after: discarded\n")
    st, _, challenger, claim, before = _true_play_challenged(game, "cheat")
    assert not st.pile_cards() and list(st.gone()) == [claim]
    assert list(st.hand(challenger)) == before[challenger]


def test_a_caught_claimant_still_takes_the_pile(tmp_path: Path) -> None:
    game = _game(tmp_path)
    st = game.new_initial_state()
    rng = random.Random(3)
    while st.is_chance_node():
        st.apply_action(st.chance_outcome(rng))
    claimant = st.to_act
    claim = st.required[0]
    lie = next(v for v in range(game.rules.values) if v != claim and st.hand(claimant)[v])
    st.apply_action(Play((lie,), claim, 1))
    st.apply_action(Challenge("cheat"))
    record = st.reveals()[-1]
    assert record.caught and record.paid and record.loser == claimant and record.taken == 1
    assert st.hand(claimant)[lie] >= 1 and not st.pile_cards()


def test_counter_remembers_no_pickup_for_a_wrong_call_that_cost_nothing(tmp_path: Path) -> None:
    game = _game(tmp_path, players=3)
    st, _, challenger, _, _ = _true_play_challenged(game, "cheat")
    watcher = next(s for s in range(3) if s not in (challenger, st.reveals()[-1].claimant))
    memory = Memory(game, watcher, tuple(st.sizes))
    memory.reveal(st.reveals()[-1])
    assert memory.known_total[challenger] == 0 and memory.received[challenger] == 0
    assert memory.pile_total == 1  # the card turned over stays on the pile it knows of


def test_the_table_is_told_the_call_cost_nothing(tmp_path: Path) -> None:
    game = _game(tmp_path)
    st, _, _, _, _ = _true_play_challenged(game, "cheat")
    lines = reveal_lines(game, st.reveals()[-1], Voices(["Ann", "Bo"], you=None))
    assert any("costs nothing" in line for line in lines), lines


def test_a_pickup_is_a_challenge_someone_paid_for(tmp_path: Path) -> None:
    """Under `take_pile` with free wrong calls, every pickup is a caught lie: the simulation counts as many."""
    game = _game(tmp_path, players=3)
    wrong = 0
    for i in range(20):
        record = play_game(game, 5, i, ["honest", "random", "counter"], 0.15)
        assert len(record.pickups) == record.caught <= record.challenges
        wrong += record.challenges - record.caught
    assert wrong  # wrong calls were made, and none was a pickup


def test_the_kernel_refuses_by_name_a_free_call_whose_pile_leaves_the_game(tmp_path: Path) -> None:
    rules = TableRules(_game(tmp_path, "    pile_after: discarded\n").rulebook, 2)
    why = unplayed(rules, Engine.KERNEL)
    assert why is not None and "challenge.penalty.failed_call" in why
    assert unplayed(TableRules(_game(tmp_path).rulebook, 2), Engine.KERNEL) is None
    assert unplayed(rules, Engine.VERIFIER) is None
