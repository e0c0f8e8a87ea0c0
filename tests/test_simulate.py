"""`cheatdsl simulate` and `cheatdsl.simulate.simulate`: reproducible statistics, the JSON contract,
exit codes (cheatdsl --help: 0 success, 1 a rulebook with errors, 2 usage), and the hand-coded
yardstick's per-seat mode the speed benchmark compares against."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from random import Random
from types import ModuleType

import pytest

from cheatdsl.cli import main
from cheatdsl.load import load_rulebook
from cheatdsl.simulate import Statistics, game_seed, seat_bots, simulate, wilson
from cheatdsl.tally import Histogram

ROOT = Path(__file__).resolve().parents[1]
RULEBOOKS = ROOT / "rulebooks"
ENGLISH = str(RULEBOOKS / "english-ascending.yaml")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["simulate", *args])
    out, err = capsys.readouterr()
    return code, out, err


# --- the numbers --------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_numbers_whatever_the_jobs() -> None:
    """Game i is seeded from (seed, i) alone and results merge in game order: --jobs 1 and 2 agree."""
    rb = load_rulebook(ENGLISH)
    one = simulate(rb, 3, 24, seed=7, bots="greedy,honest,counter", jobs=1)
    two = simulate(rb, 3, 24, seed=7, bots="greedy,honest,counter", jobs=2)
    assert one.settings.jobs == 1 and two.settings.jobs == 2
    assert one == dataclasses.replace(two, settings=dataclasses.replace(two.settings, jobs=1))
    other = simulate(rb, 3, 24, seed=8, bots="greedy,honest,counter")
    assert other.turns_histogram != one.turns_histogram


def test_statistics_add_up() -> None:
    """Every game is counted once: finished plus capped plus stuck, wins over decided games,
    challenges that caught a lie plus those that did not."""
    rb = load_rulebook(ENGLISH)
    s = simulate(rb, 4, 40, seed=1, bots="greedy", turn_cap=60)
    assert s.games == 40 == sum(k for _, k in s.turns_histogram)
    assert s.finished + s.capped + s.stuck == 40 and s.capped > 0
    assert sum(s.wins_by_seat) == s.decided == sum(s.wins_by_position) == s.finished
    c = s.challenges
    assert c.caught + c.failed == c.total == s.pickups.count
    assert s.turns.most <= 60 and s.turns.p95 <= 60
    assert 0 < s.forced_bluffs.total < s.plays <= s.actions
    assert s.first_player.fair == 0.25 and len(s.win_shares) == 4
    assert s.losers is None and "losers_by_seat" not in s.as_json()


def test_a_last_holder_loses_game_reports_the_loser_by_seat() -> None:
    """Mogeln (seed 004): players go out one by one and the last holding cards loses."""
    s = simulate(load_rulebook(str(RULEBOOKS / "mogeln.yaml")), 4, 12, seed=2, bots="greedy")
    assert s.losers is not None
    assert sum(s.losers.by_seat) == s.finished and len(s.losers.shares) == 4


def test_the_json_form_reads_back_to_the_same_statistics() -> None:
    """`as_json` is what `--format json` prints and a sweep stores; `from_json` reads it back unchanged,
    losers by seat included."""
    for name, players in (("english-ascending", 3), ("mogeln", 4)):
        s = simulate(load_rulebook(str(RULEBOOKS / f"{name}.yaml")), players, 5, seed=3, bots="greedy")
        text = json.dumps(s.as_json())
        assert Statistics.from_json(json.loads(text)) == s
        assert json.dumps(Statistics.from_json(json.loads(text)).as_json()) == text


def _histogram(values: Iterable[int]) -> Histogram:
    h = Histogram()
    for v in values:
        h.add(v)
    return h


def test_wilson_interval_and_percentile() -> None:
    """Wilson's 95% interval for 5 of 10 is 0.237 to 0.763; for 0 of 10, 0 to 0.278."""
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert _histogram(range(1, 101)).percentile(95) == 95 and _histogram([]).percentile(95) == 0


def test_seeds_and_seats() -> None:
    assert game_seed(1, 2) == game_seed(1, 2) != game_seed(1, 3) != game_seed(2, 2)
    assert game_seed(1, 2, seat=0) != game_seed(1, 2, seat=1)
    assert seat_bots("greedy", 3) == ("greedy",) * 3
    assert seat_bots(["random", "honest"], 2) == ("random", "honest")
    with pytest.raises(ValueError, match="2 bots named for 3 seats"):
        seat_bots("random,honest", 3)
    with pytest.raises(ValueError, match="no bot `clever`"):
        seat_bots("clever", 3)


def test_progress_is_reported_up_to_every_game() -> None:
    seen: list[tuple[int, int]] = []
    simulate(load_rulebook(ENGLISH), 3, 7, seed=0, bots="greedy", progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (7, 7) and [d for d, _ in seen] == sorted(d for d, _ in seen)


# --- the command --------------------------------------------------------------------------------


def test_json_has_the_contract_keys(capsys: pytest.CaptureFixture[str]) -> None:
    """--json: one object with at least games, actions, capped, turns_summary, wins_by_seat."""
    code, out, err = run(capsys, ENGLISH, "--players", "3", "--games", "6", "--seed", "3", "--bots", "greedy",
                         "--json", "--turn-cap", "500", "--jobs", "1")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert {"games", "actions", "capped", "turns_summary", "turns_histogram", "wins_by_seat"} <= set(data)
    assert data["games"] == 6 == sum(k for _, k in data["turns_histogram"]) and len(data["wins_by_seat"]) == 3


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(RULEBOOKS / "standard.yaml"), "-V", "extra-cards", "-n", "3", "-g", "5",
                       "--bots", "random,greedy,counter", "--challenge-rate", "0.3")
    assert code == 0
    assert out.startswith("standard with extra-cards: 5 games at 3 players, bots random,greedy,counter")
    for label in ("games played", "actions", "turns a game", "challenges a game", "forced bluffs",
                  "cards at a pickup", "wins by seat", "first player"):
        assert label in out


def test_a_rulebook_with_errors_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("rulebook: bad\nplayers: 3..4\n", encoding="utf-8")
    code, out, err = run(capsys, str(bad))
    assert code == 1 and out == "" and "error[" in err and "nothing simulated" in err


@pytest.mark.parametrize("args,message", [
    (["--bots", "clever"], "there is no bot `clever`"),
    (["--bots", "greedy,honest"], "2 bots named for 4 seats"),  # four seats: every command's default table
    (["--players", "9"], "not 9"),
])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = run(capsys, ENGLISH, "--games", "2", *args)
    assert code == 2 and out == "" and message in err


@pytest.mark.parametrize("args", [["--games", "0"], ["--challenge-rate", "2"], ["--jobs", "x"], []])
def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["simulate", *([ENGLISH] if args else []), *args])
    assert exc.value.code == 2


# --- the speed yardstick ------------------------------------------------------------------------


def _handcoded() -> ModuleType:
    spec = importlib.util.spec_from_file_location("handcoded_english", ROOT / "benchmarks" / "handcoded_english.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_yardstick_per_seat_mode_decides_every_response() -> None:
    """benchmarks/handcoded_english.py --per-seat: one draw per response, the same rules (cards kept,
    every response counted), and about the same games as its single-draw mode."""
    engine = _handcoded()
    rng = Random(3)
    for players in (3, 4, 6):
        for _ in range(30):
            actions, plays, winner = engine.play_game(rng, players, 0.3, per_seat=True, check=True)
            assert plays <= actions <= plays * players
    actions, plays, winner = engine.play_game(Random(1), 3, 0.0, per_seat=True)
    assert actions == 3 * plays and winner is not None  # nobody challenges: both others accept every play
    seat = engine.run(300, 5, per_seat=True)
    draw = engine.run(300, 5)
    assert abs(seat["actions"] / draw["actions"] - 1) < 0.15


@pytest.mark.parametrize("values", [[7], [3, 1], [5, 1, 4, 1, 5, 9, 2, 6], list(range(40, 140, 7)) * 3])
def test_histogram_statistics_are_the_exact_ones(values: list[int]) -> None:
    """Turns and pickups are kept as histograms (flat memory); their statistics equal those of the list."""
    import statistics as st
    h = _histogram(values)
    spread = h.spread()
    assert spread.mean == pytest.approx(st.fmean(values)) and spread.median == st.median(values)
    assert (spread.least, spread.most) == (min(values), max(values))
    if len(values) > 1:
        q1, _, q3 = st.quantiles(values, n=4, method="inclusive")
        assert (spread.q1, spread.q3) == (pytest.approx(q1), pytest.approx(q3))


def test_per_game_records_come_in_game_order_whatever_the_jobs() -> None:
    """`record(i, game)` sees every game once, in order, with the same games for --jobs 1 and 2."""
    rb = load_rulebook(ENGLISH)
    seen: dict[int, list[tuple[int, object]]] = {1: [], 2: []}
    for jobs in (1, 2):
        simulate(rb, 3, 30, seed=5, bots="greedy", jobs=jobs, record=lambda i, r, j=jobs: seen[j].append((i, r)))
    assert [i for i, _ in seen[1]] == list(range(30)) and seen[1] == seen[2]


def test_unfinished_games_are_a_finding_not_a_result(capsys: pytest.CaptureFixture[str]) -> None:
    """Games stopped by the turn cap are said to be unfinished, with the verifier command that explains
    them, and no win share is printed when no game was won."""
    code, out, _ = run(capsys, "english-ascending", "--games", "4", "--turn-cap", "5", "--bots", "greedy")
    assert code == 0
    assert "UNFINISHED          4 of 4 games (100.0%) did not" in out
    assert "`cheatdsl verify english-ascending -p termination`" in out
    assert "no game was won, so there are no win shares" in out and "first player" not in out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_strict_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--strict exits 1 when a game is unfinished; --records writes one JSON line a game, in order,
    keeps an existing file unless --force, and says the same as the statistics."""
    records = tmp_path / "games.jsonl"
    code, out, err = run(capsys, "english-ascending", "--games", "6", "--turn-cap", "40", "--bots", "greedy",
                         "--records", str(records), "--strict", "--format", "json")
    stats = json.loads(out)
    lines = [json.loads(line) for line in records.read_text(encoding="utf-8").splitlines()]
    assert [g["game"] for g in lines] == list(range(6))
    assert sum(g["ending"] == "turn cap" for g in lines) == stats["capped"] > 0
    assert code == 1 and "did not finish (--strict)" in err
    code, _, err = run(capsys, "english-ascending", "--games", "2", "--records", str(records))
    assert code == 2 and "--force" in err
    code, _, _ = run(capsys, "english-ascending", "--games", "2", "--records", str(records), "--force", "--strict")
    assert code == 0 and len(records.read_text(encoding="utf-8").splitlines()) == 2


def test_a_table_with_no_claim_left_and_large_plays_ends_at_once(tmp_path: Path) -> None:
    """`claim.after_last: nothing` with `cards: 1..`: once no claim may be made there is no play, so the
    random bot gets none at once (listing every subset of a hand first made such games run for ever)."""
    path = tmp_path / "stuck-big.yaml"
    path.write_text("rulebook: stuck-big\nextends: english-ascending\nclaim:\n  after_last: nothing\n"
                    "  cards: 1..\npassing:\n  allowed: true\n  leader_may_pass: true\n"
                    "  all_pass_leader: last_player\n", encoding="utf-8")
    s = simulate(load_rulebook(str(path)), 3, 5, seed=17, bots="random")
    assert s.games == 5 and s.stuck + s.capped == 5
