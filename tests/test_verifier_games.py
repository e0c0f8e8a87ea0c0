"""Games played by bots as the verifier's search strategy, and internal errors that never pass as verdicts.

Rules checked: an exception inside a property is the tool's error (exit 3, a line of its own), never
`unknown`; whatever seeded games meet (a seat with no legal action, a position met twice) `verify`
reports as refuted, with a witness that replays as a scenario.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_verifier import FIXTURE_FILES, FIXTURES, RULEBOOKS, SHIPPED_FILES, at, everything, fixture

from cheatdsl.engine import Game
from cheatdsl.load import load_rulebook
from cheatdsl.scenario import run
from verifier.properties import registry
from verifier.report import Report, RulebookReport
from verifier.runner import verify
from verifier.properties.games import play_games
from verifier.properties.ranking import claim_chain
from verifier.encoding.spec import build_spec
from verifier.properties.witness import scenario_of
from verifier.properties.verdict import Verdict, combine, internal_error, proved


def _replays(path: Path, w: dict, name: str) -> None:  # type: ignore[type-arg]
    result = run(scenario_of(w, str(path), name=name))
    assert result.passed, result.render()


def test_an_exception_in_a_property_is_an_internal_error_not_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule: an exception inside a check is reported as the tool's error, with exit status 3."""
    def broken(self: registry.Property, subject: object, *settings_and_caches: object) -> None:
        raise StopIteration

    monkeypatch.setattr(registry.Property, "run", broken)
    rb = load_rulebook(str(RULEBOOKS / "english-ascending.yaml"))
    timed = verify(rb, ["rank-cycle"], (3,))
    res = timed[0].result
    assert res.verdict is Verdict.ERROR and "internal error: StopIteration" in res.summary
    report = Report([RulebookReport("english-ascending.yaml", rb, timed)])
    assert report.exit_status == 3
    assert "error" in report.render() and "internal error" in report.render()
    assert any("bug in the verifier" in p for p in report.rulebooks[0].problems)


def test_an_internal_error_at_one_count_outweighs_every_verdict() -> None:
    """Rule: combining player counts, an internal error is never hidden by a refutation or a proof."""
    try:
        raise ValueError("boom")
    except ValueError as exc:
        err = internal_error("winner", exc)
    ok = combine("winner", {3: err, 4: proved("winner", "fine")})
    assert ok.verdict is Verdict.ERROR


def test_shipped_and_fixtures_have_no_internal_error() -> None:
    """Rule: no shipped rulebook or fixture meets an internal error in any property."""
    for path, timed in everything().items():
        for pid, t in timed.items():
            assert t.result.verdict is not Verdict.ERROR, f"{path} {pid}: {t.result.summary}"


def test_three_packs_wild_sets_discards_is_refuted_at_every_count() -> None:
    """Rule: the discards search never stops on StopIteration; games show a joker claimed as a dead rank."""
    r = fixture("three-packs-wild-sets")["discards"]
    assert r.verdict is Verdict.REFUTED, r.summary
    assert r.details["failing_players"] == list(range(3, 9))
    for n in (3, 8):
        w = at(r, n)["witness"]
        assert w["expect"]["caught"] is False
        _replays(FIXTURES / "three-packs-wild-sets.yaml", w, f"discards {n}")


def test_a_sequence_stopping_after_the_last_rank_deadlocks_at_every_count() -> None:
    """Rule: `after_last: nothing` without passing is stuck after 13 plays: refuted at 3..6 players, with
    the game as the witness; termination is proved (the claims never come back)."""
    r = fixture("stops-after-last")
    assert r["no-deadlock"].verdict is Verdict.REFUTED
    assert r["no-deadlock"].details["failing_players"] == [3, 4, 5, 6]
    w = at(r["no-deadlock"], 6)["witness"]
    assert w["expect"] == {"over": True, "capped": True, "winner": None}
    _replays(FIXTURES / "stops-after-last.yaml", w, "stuck at 6")
    assert r["termination"].verdict is Verdict.PROVED and "at most 13 plays" in r["termination"].summary


def test_claim_chain_bounds_plays_only_without_a_cycle() -> None:
    """Rule: the claim-chain measure proves termination only when claims can never come back."""
    stops = build_spec(load_rulebook(str(FIXTURES / "stops-after-last.yaml")), 3)
    assert claim_chain(stops) == 13
    wraps = build_spec(load_rulebook(str(RULEBOOKS / "english-ascending.yaml")), 3)
    assert claim_chain(wraps) is None


def test_a_position_met_twice_is_a_termination_witness_that_replays() -> None:
    """Rule: a game that comes back to a position refutes termination; the loop replays as a scenario."""
    path = FIXTURES / "unfair-seats.yaml"
    found = play_games(Game(load_rulebook(str(path)), 3), ("loop",))
    w = found.witnesses["loop"]
    marks = [s for s in w.actions if isinstance(s, dict)]
    assert len(marks) == 1 and marks[0]["expect"] == w.expect  # the same position at the mark and at the end
    _replays(path, w.as_json(), "loop")


def test_games_are_the_same_whatever_runs_them() -> None:
    """Rule: seeds, line-ups and caps are fixed, so the same table always plays the same games."""
    game = Game(load_rulebook(str(FIXTURES / "void-penalty.yaml")), 3)
    a, b = play_games(game, ("stuck",)), play_games(game, ("stuck",))
    assert a.witnesses["stuck"].as_json() == b.witnesses["stuck"].as_json() and a.actions == b.actions


def _met_in_games(path: Path, n: int) -> dict[str, bool]:
    found = play_games(Game(load_rulebook(str(path)), n), ("stuck", "loop"), games=8, actions=20_000)
    return {"no-deadlock": "stuck" in found.witnesses, "termination": "loop" in found.witnesses}


@pytest.mark.parametrize("path", [RULEBOOKS / n for n in SHIPPED_FILES] + [FIXTURES / n for n in FIXTURE_FILES],
                         ids=lambda p: p.name)
def test_what_games_meet_verify_refutes(path: Path) -> None:
    """Rule: whatever seeded games meet (stuck, a repeating position), verify reports as refuted."""
    rb = load_rulebook(str(path))
    n = rb.players.counts()[0]
    met = _met_in_games(path, n)
    if not any(met.values()):
        return
    known = everything().get(str(path), {})
    wanted = [pid for pid, seen in met.items() if seen]
    got = {pid: known[pid].result for pid in wanted if pid in known}
    rest = [pid for pid in wanted if pid not in got]
    if rest:
        got.update({t.result.id: t.result for t in verify(rb, rest, (n,))})
    for pid in wanted:
        assert got[pid].verdict is Verdict.REFUTED, f"{path.name} {pid}: games meet it, verify says {got[pid].summary}"


def test_a_crash_building_the_transition_system_is_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule: an exception while the rules are tabulated is the tool's error at every heavy property, not unknown."""
    from verifier.properties import analysis

    def crash(rb: object, n: int, **_: object) -> None:
        raise RuntimeError("tabulation bug")

    monkeypatch.setattr(analysis, "build_spec", crash)
    rb = load_rulebook(str(RULEBOOKS / "english-ascending.yaml"))
    for t in verify(rb, ["winner", "termination"], (3,)):
        assert t.result.verdict is Verdict.ERROR and "tabulation bug" in t.result.summary
        assert "RuntimeError" in t.result.details.get("traceback", "") or "by_players" in t.result.details


# Winnability: a game won by a seat is the proof that it can win --------------------------------------

def test_each_seats_win_is_a_named_game_that_replays_when_saved(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                                ) -> None:
    """Rule (project's choice): a legal game won by a seat proves the seat can win, so winnability's proof of
    each seat is a game the interpreter played from a seeded deal; the details name it (seed, dealer, what
    each seat did, turns), and `verify --save-witnesses` writes it as a scenario `cheatdsl scenario` passes."""
    from cheatdsl.cli import main
    path = RULEBOOKS / "english-ascending.yaml"
    r = everything()[str(path)]["winnability"].result
    assert r.verdict is Verdict.PROVED
    for n in (3, 4, 5, 6):
        d = at(r, n)
        assert sorted(d["games"]) == sorted(d["witnesses"]) == [str(s) for s in range(n)]
        for seat, game in d["games"].items():
            w = d["witnesses"][seat]
            assert game["by"] == "greedy" and len(game["bots"]) == n and game["turns"] >= 1
            assert w["start"] == {"seed": game["seed"], "dealer": game["dealer"]}
            assert len(w["actions"]) == game["actions"] and w["expect"] == {"winner": int(seat), "over": True}
    assert "scripted greedy play" in r.summary and "bounded model checking" not in r.summary
    out = tmp_path / "w"
    assert main(["verify", "--property", "winnability", "--players", "3", "--save-witnesses", str(out),
                 str(path)]) == 0
    saved = sorted(out.glob("*winnability*.yaml"))
    assert [p.name.split("-")[-1] for p in saved] == ["seat0.yaml", "seat1.yaml", "seat2.yaml"]
    capsys.readouterr()
    assert main(["scenario", *(str(p) for p in saved)]) == 0


def _english_at_three() -> tuple[object, object]:
    from verifier.properties.analysis import Analysis, Budget
    return Analysis(load_rulebook(str(RULEBOOKS / "english-ascending.yaml")), 3), Budget(300.0, 1)


def test_seats_no_scripted_play_wins_take_a_bot_game_and_z3_is_not_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule (project's choice): each seat takes the first game that it wins; a seat the scripted greedy play
    does not win takes a seeded game played by bots, named by its line-up and seed; the model checker is
    asked only for seats no game has won (here none)."""
    from verifier.properties import winnability
    greedy = winnability.greedy_wins
    monkeypatch.setattr(winnability, "greedy_wins", lambda *args: {s: w for s, w in greedy(*args).items() if s == 0})
    asked: list[int] = []
    monkeypatch.setattr(winnability, "bmc_win", lambda a, seat, budget: asked.append(seat) or "not asked")
    a, budget = _english_at_three()
    r = winnability.winnability_at(a, budget)
    assert r.verdict is Verdict.PROVED and asked == []
    assert r.details["games"]["0"]["by"] == "greedy"
    assert r.details["found_by"] == "greedy+games"
    for seat in ("1", "2"):
        game = r.details["games"][seat]
        assert game["by"] == "games" and len(game["bots"]) == 3 and set(game["bots"]) <= {
            "random", "greedy", "honest", "counter"}
        assert f"seat {seat} won a game played by bots ({', '.join(game['bots'])}; seed {game['seed']})" in r.summary
        _replays(RULEBOOKS / "english-ascending.yaml", r.details["witnesses"][seat], f"seat {seat}")


def test_the_model_checker_searches_only_for_the_seat_no_game_won(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule (project's choice): Z3 searches only for seats no game has won, and its play counts once the
    interpreter replays it; with no search left the verdict is unknown, naming the seats."""
    from verifier.properties import analysis, winnability
    from verifier.properties.games import Found
    greedy = winnability.greedy_wins
    monkeypatch.setattr(winnability, "greedy_wins", lambda *args: {s: w for s, w in greedy(*args).items() if s != 2})
    monkeypatch.setattr(analysis, "games", lambda a, look: Found())
    monkeypatch.setattr(winnability, "steered_wins", lambda *args: {})
    searched = winnability.bmc_win
    asked: list[int] = []
    monkeypatch.setattr(winnability, "bmc_win", lambda a, seat, budget: asked.append(seat) or searched(a, seat, budget))
    a, budget = _english_at_three()
    r = winnability.winnability_at(a, budget)
    assert asked == [2]
    assert r.verdict is Verdict.PROVED, r.summary
    assert r.details["games"]["2"]["by"] == "bmc" and r.details["found_by"] == "greedy+bmc"
    assert "seat 2 won a play of at most" in r.summary
    _replays(RULEBOOKS / "english-ascending.yaml", r.details["witnesses"]["2"], "seat 2")
    a, budget = _english_at_three()
    budget.searches = 0
    r = winnability.winnability_at(a, budget)
    assert r.verdict is Verdict.UNKNOWN and "seat 2 wins" in r.summary and "no search left" in r.summary
