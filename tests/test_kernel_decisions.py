"""Issue 40: one rule, one meaning in both engines; the kernel's bots decide as the interpreter's do.

Each game here is dealt by the Python engine (the interpreter's dealing, its turn-start rules applied), played
on by the kernel with its action log, and replayed by the Python engine, which checks every action; the kernel's
decisions are held against the Python bot of the same seat at the same observed state (tests/kernel_decisions.py:
the same action where that bot's rules take no draw, the same distribution where they do).
"""

from __future__ import annotations

import importlib.util
import math
import os
import random
import sys
import tempfile
from pathlib import Path

import pytest

from cheatdsl.compiled.cache import sources_key

if importlib.util.find_spec("numba") is None:  # numba is optional: `pip install cheatdsl[compiled]`
    pytest.skip("numba is not installed", allow_module_level=True)
os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(tempfile.gettempdir()) / "cheatdsl-test-numba" / sources_key()))

from cheatdsl.compiled.replay import Disagreement, play_logged, replay  # noqa: E402
from cheatdsl.compiled.run import CompiledTable, Refused, RefusedForMemory  # noqa: E402
from cheatdsl.engine import Game  # noqa: E402
from cheatdsl.load import load_rulebook  # noqa: E402
from cheatdsl.simulate.play import Table  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kernel_decisions as kd  # noqa: E402
import small_rulebooks  # noqa: E402

FIXTURES = Path(__file__).resolve().parent / "fixtures"
BOTS = ("random", "greedy", "honest", "counter")


def _mixes(n: int) -> list[list[str]]:
    return [["greedy"] * n, ["honest"] * n, ["counter"] * n, [BOTS[s % 4] for s in range(n)]]


def _game(name: str, players: int) -> Game:
    return Game(load_rulebook(str(FIXTURES / f"{name}.yaml")), players, turn_cap=300)


def test_the_kernels_bots_decide_as_the_python_bots_on_generated_rulebooks(tmp_path: Path) -> None:
    """Point 2: rulebooks from the schema-driven generator (tests/small_rulebooks.py) at every player count the
    kernel plays, greedy, honest and counter tables and a mixed one: no exact decision differs and every pooled
    test holds (the full run is `benchmarks/compiled_agreement.py --generated N`)."""
    out = kd.Decisions()
    tables = 0
    for i in range(0, 200, 5):
        data = small_rulebooks.generate(i)
        path = tmp_path / f"small-{i}.yaml"
        path.write_text(small_rulebooks.text_of(data))
        rb = load_rulebook(str(path))
        for n in range(rb.players.min, rb.players.max + 1):
            game = Game(rb, n, turn_cap=60)
            for bots in _mixes(n):
                try:
                    CompiledTable(game, bots, 1, kd.RATE)
                except (Refused, RefusedForMemory):
                    break
                tables += 1
                for index in range(3):
                    kd.check_game(game, bots, 1, index, out)
    assert tables > 60 and out.exact > 1000, (tables, out.exact)
    assert not out.failures(), out.failures()


def test_the_decision_check_sees_a_kernel_bot_that_challenges_at_another_rate() -> None:
    """The check can fail: a kernel whose bots challenge at twice the Python bots' rate is caught by the pooled
    count of challenges (the rules, the deals and every play are the same)."""
    out = kd.Decisions()
    game = _game("kernel-top-card-no-cap", 4)
    for index in range(20):
        kd.check_game(game, ["greedy", "honest", "greedy", "honest"], 1, index, out, kernel_rate=2 * kd.RATE)
    assert any("challenges" in f for f in out.failures()), out.pooled()


def test_a_claim_of_more_cards_than_the_deck_holds_is_a_certain_lie_in_the_kernel_too() -> None:
    """Issue 40, third case: `reveal: top_card`, no card cap, six seats, `counter` at a mixed table. A claim of
    more cards of a rank than the deck holds is one the Python `honest` and `counter` always call (no hand holds
    them); the kernel read its odds from past the end of its table and called it about one time in eight."""
    out = kd.Decisions()
    game = _game("kernel-top-card-no-cap", 6)
    for index in range(40):
        kd.check_game(game, ["random", "greedy", "honest", "counter", "random", "greedy"], 3, index, out)
    assert out.calls["honest (always called)"].count > 100
    assert not out.failures(), out.failures()


def test_a_turn_start_win_at_the_deal_names_the_first_player_the_deal_names() -> None:
    """Issue 40, first case: the kernel read the seat formulas (`left(dealer)`) at a table where the seat named
    first had already won at its turn's start and left, so it named the next seat. Every game now replays, the
    first player is the one the deal names, and it wins every game on both engines."""
    game = _game("kernel-turn-start-win-two-packs", 5)
    table = CompiledTable(game, ["greedy"] * 5, 1, 0.15)
    for index in range(30):
        replay(game, play_logged(table, index))
    python = Table(game.rulebook, 5, ["greedy"] * 5, 1, 300, 0.15).play(0, 30)
    for record in [*python, *table.play(0, 30)]:
        assert record.first >= 0 and record.winner == record.first


def test_a_seat_that_wins_before_its_first_play_is_still_the_first_player() -> None:
    """Issue 40, second case: the Python engine recorded no first player where the seat named first won at the
    start of its first turn (two seats, wild jokers, three of the rank asked), so the first player's share was
    0.05 against the kernel's 0.71. Both now count the seat the deal named, and their shares agree."""
    game = _game("kernel-turn-start-win-wild-jokers", 2)
    state = game.new_initial_state()
    rng = random.Random(0)
    seen = 0
    for _ in range(200):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcome(rng))
        if state.is_terminal() and state.turns == 0:
            assert state.first_player is not None and state.result().winner == state.first_player
            seen += 1
    assert seen > 10
    games = 1500
    python = Table(game.rulebook, 2, ["greedy"] * 2, 1, 300, 0.15).play(0, games)
    compiled = CompiledTable(game, ["greedy"] * 2, 1, 0.15).play(0, games)
    shares = [sum(r.winner == r.first for r in part) / games for part in (python, compiled)]
    spread = math.sqrt(sum(p * (1 - p) / games for p in shares))
    assert abs(shares[0] - shares[1]) <= 4 * spread, shares
    assert min(shares) > 0.5


def test_the_replay_check_starts_from_the_python_engines_deal() -> None:
    """Point 2: the kernel plays on from a deal the Python engine made (hands, stock, sets put out at the deal,
    the first player after the turn-start rules), and the Python engine replays its game action by action."""
    from cheatdsl.compiled.replay import follow, play_logged_from

    for name, n in (("kernel-turn-start-win-two-packs", 5), ("kernel-turn-start-win-wild-jokers", 2),
                    ("kernel-top-card-no-cap", 6)):
        game = _game(name, n)
        for bots in _mixes(n):
            table = CompiledTable(game, bots, 1, 0.15)
            for index in range(5):
                state = game.new_initial_state()
                rng = random.Random(index)
                while state.is_chance_node():
                    state.apply_action(state.chance_outcome(rng))
                if state.is_terminal():
                    continue
                logged = play_logged_from(table, state.clone(), index)
                try:
                    follow(state, logged)
                except Disagreement as exc:  # pragma: no cover - the message says where
                    pytest.fail(f"{name} at {n} with {bots}, game {index}: {exc}")


def test_a_table_that_ends_at_the_deal_where_the_last_holder_loses_ends_in_the_kernel_too() -> None:
    """Found by the generated campaign: at two seats, a hand dealt as a pair leaves at once (forced sets of two),
    and the other seat, the last holding cards, loses before any play. The kernel went on with one seat in and
    never returned; it now ends the game at the deal as the engine does (the first out wins, the last in loses),
    and every game replays. At three seats a seat the deal put out is the first out, the winner where the last
    holder loses (the kernel counted the first to leave in play). A child process, so that a kernel that hangs
    again fails the test instead."""
    import subprocess

    code = ("import sys; sys.path.insert(0, {root!r})\n"
            "from cheatdsl.compiled.replay import play_logged, replay\n"
            "from cheatdsl.compiled.run import CompiledTable\n"
            "from cheatdsl.engine import Game\n"
            "from cheatdsl.load import load_rulebook\n"
            "game = Game(load_rulebook({path!r}), 2, turn_cap=200)\n"
            "table = CompiledTable(game, ['greedy', 'greedy'], 1, 0.15)\n"
            "ends = [replay(game, play_logged(table, i))[1] for i in range(60)]\n"
            "records = table.play(0, 300)\n"
            "three = Game(game.rulebook, 3, turn_cap=200)\n"
            "table = CompiledTable(three, ['greedy'] * 3, 1, 0.15)\n"
            "ends += [replay(three, play_logged(table, i))[1] for i in range(60)]\n"
            "print(ends.count('LAST_HOLDER'), sum(r.loser >= 0 for r in records))\n")
    root = str(FIXTURES.parent.parent)
    done = subprocess.run([sys.executable, "-c", code.format(root=root, path=str(FIXTURES /
                           "kernel-last-holder-out-at-deal.yaml"))], capture_output=True, text=True, timeout=240,
                          env={**os.environ, "NUMBA_CACHE_DIR": os.environ["NUMBA_CACHE_DIR"]})
    assert done.returncode == 0, done.stderr[-2000:]
    at_deal_or_later, with_loser = map(int, done.stdout.split())
    assert at_deal_or_later == 120 and with_loser == 300
