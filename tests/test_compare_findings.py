"""What `cheatdsl compare` says beside its numbers.

Unfinished games are a finding (how many, why, which verifier command replays the cause) and no
result: they are kept out of the turns and the win shares. Each verdict sits beside the rulebook's
expectation, so an expected refutation reads as a known property of the game. Columns whose games
came out identical are flagged, with the rules that differ and why they did not change play.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cheatdsl.cli import main
from cheatdsl.compare import identical, page, statistics, unfinished, verdicts
from cheatdsl.compare.grid import Comparison, columns_for, rules_section
from cheatdsl.load import compile_rulebook
from cheatdsl.model import Rulebook
from cheatdsl.simulate import Statistics
from tests.played import played

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = ROOT / "rulebooks"
TERMINATION = {"verdict": "refuted", "summary": "a caught lie repeated for ever brings back the same state",
               "expected": "refuted", "status": "met"}


def load(name: str) -> Rulebook:
    rb, d = compile_rulebook(str(RULEBOOKS / f"{name}.yaml"))
    assert rb is not None, d.render()
    return rb


def games(lengths: list[int], capped: int = 0, stuck: int = 0, rulebook: str = "standard") -> Statistics:
    """A run at two seats: these finished lengths (the last `stuck` of them stuck), then `capped` games at the
    cap of 2000; ten challenges, nine of them caught."""
    return played(lengths, capped, stuck, wins=[0] * (len(lengths) - stuck), caught=9, failed=1, forced=4,
                  pickups=[2] * 10, rulebook=rulebook)


def test_unfinished_games_are_a_finding_with_the_reason_and_the_command() -> None:
    """Capped games: how many, that the verifier refutes termination as expected, the command that replays it."""
    said = unfinished.sentences("standard", games([20, 30], capped=2), {"termination": TERMINATION})
    assert len(said) == 1
    text = said[0]
    assert "2 of 4 games did not finish, 50% (95% interval 15%–85%), so they have no result" in text
    assert "2 reached the turn cap of 2000 turns without a winner" in text
    assert "refutes termination, as the rulebook expects: a caught lie repeated for ever" in text
    assert "`cheatdsl verify standard -p termination --save-witnesses DIR`" in text
    stuck = unfinished.sentences("standard", games([20, 30], stuck=1), None, ran=False)[0]
    assert "1 stopped with a seat that had no legal action" in stuck and "-p no-deadlock" in stuck
    assert "The verifier was not run: `cheatdsl verify standard -p no-deadlock" in stuck
    assert unfinished.sentences("standard", games([20, 30])) == []


def test_unfinished_games_stay_out_of_turns_and_win_shares() -> None:
    """The turns row reads finished games only, wins are shares of won games, per-game rows say what is in them."""
    columns = columns_for([load("standard")])
    rows = {r.key: r.cells[0] for r in statistics.section(columns, [games([20, 30, 40], capped=1)]).rows}
    assert rows["turns"] == "mean 30, median 30, 20 to 40 (of 3 finished)"
    assert rows["unfinished"] == "1 of 4: 25% (5%–70%), 1 at the turn cap"
    assert rows["wins_by_seat"] == "of 3 won: first 100% (44%–100%), second 0% (0%–56%)"
    assert rows["challenges"] == "2.5 (with 1 unfinished)"
    none = {r.key: r.cells[0] for r in statistics.section(columns, [games([], capped=3)]).rows}
    assert none["turns"] == "no game finished: all 3 stopped at the cap of 2000"
    assert none["wins_by_seat"] == "no game won"
    assert {none[k] for k in ("challenges", "caught", "forced_bluffs", "pickups")} == {"no game finished"}
    assert "2000" not in none["challenges"]


def test_compare_says_why_games_did_not_finish(capsys: pytest.CaptureFixture[str]) -> None:
    """Real games of Mogeln (every one capped) in every format: the finding, never a 2000-turn mean."""
    code = main(["compare", str(RULEBOOKS / "mogeln.yaml"), "--simulate", "3", "--no-verify", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    section = out["statistics"]
    assert len(section["findings"]) == 1 and "3 of 3 games did not finish, 100% (95% interval 44%–100%)" in section["findings"][0]
    assert "cheatdsl verify" in section["findings"][0] and "-p termination" in section["findings"][0]
    cells = {r["key"]: r["cells"][0] for r in section["rows"]}
    assert cells["turns"].startswith("no game finished") and "mean" not in cells["turns"]
    main(["compare", str(RULEBOOKS / "mogeln.yaml"), "--simulate", "3", "--no-verify"])
    assert "! mogeln: 3 of 3 games did not finish, 100% (95% interval 44%–100%)" in capsys.readouterr().out


def test_verdicts_sit_beside_the_rulebooks_expectation() -> None:
    """An expected refutation is "as expected" (a known property), an unasked or contradicted one stands out."""
    expected = dict(TERMINATION)
    unasked = {"verdict": "refuted", "summary": "x"}
    failed = {"verdict": "refuted", "summary": "x", "expected": "proved", "status": "failed"}
    assert verdicts.cell(expected) == "refuted, as expected" and verdicts.reading(expected) == verdicts.EXPECTED
    assert verdicts.cell(unasked) == "refuted (not expected)" and verdicts.reading(unasked) == verdicts.UNEXPECTED
    assert verdicts.cell(failed) == "refuted (expected proved)" and verdicts.reading(failed) == verdicts.UNEXPECTED
    assert verdicts.cell({"verdict": "proved"}) == "proved" and verdicts.reading({"verdict": "proved"}) == ""
    s = verdicts.section([{"termination": expected}, {"termination": unasked}, {"termination": failed}])
    row = s.rows[0]
    assert row.readings == ("expected", "unexpected", "unexpected")
    assert not row.differs  # the verdicts are alike; only the expectations differ
    assert "known property of the game" in s.note
    rbs = [load("english-ascending"), load("standard"), load("mogeln")]
    html = page.render(Comparison(columns_for(rbs), (rules_section(rbs), s)))
    assert '<td class="v-refuted expected"' in html and html.count('class="v-refuted unexpected"') == 2


def test_shipped_profiles_expect_their_refutations() -> None:
    """The real verifier on the standard sheet: termination and challenge-priority are refuted, as it expects."""
    data, note = verdicts.collect([str(RULEBOOKS / "standard.yaml")], [()])
    assert data is not None and data[0] is not None, note
    rows = {r.key: r for r in verdicts.section(data).rows}
    for pid in ("termination", "challenge-priority"):
        assert rows[pid].cells == ("refuted, as expected",) and rows[pid].readings == ("expected",)
    assert not any(r.readings == ("unexpected",) for r in rows.values())


def test_identical_games_are_flagged_with_the_rules_that_differ(capsys: pytest.CaptureFixture[str]) -> None:
    """Three profiles that play alike at four seats: flagged, with a reason where one can be shown. English
    ascending (seed 000: the first caller clockwise is heard) plays apart from the standard sheet's
    `first_caller` (seed 002, "whoever called first"), whose calls at once go to a lot."""
    names = ["english-ascending", "standard", "full-rules", "standard-big-table", "one-rank-a-round"]
    code = main(["compare", *(str(RULEBOOKS / f"{n}.yaml") for n in names), "--simulate", "4", "--no-verify",
                 "--json"])
    section = json.loads(capsys.readouterr().out)["statistics"]
    assert code == 0
    same = [f for f in section["findings"] if "played identical games" in f]
    assert len(same) == 1
    text = same[0]
    assert text.startswith("standard, full-rules and standard-big-table played identical games")
    assert "one-rank-a-round" not in text and "english-ascending" not in text
    assert "players (the range of player counts differs, and each allows the 4 played here)" in text
    assert "deck (`deck.packs` differs only at other player counts: 1 in each at 4 players)" in text


def test_identical_groups_ignore_names_and_settle_on_every_count() -> None:
    """Equal statistics under other names are one group; one game's length apart is not."""
    a, b, c = games([20, 30]), games([20, 30], rulebook="other"), games([20, 31])
    assert identical.groups([a, b, c]) == [[0, 1]]
    assert identical.groups([a, None, statistics.Failure("ValueError: x")]) == []
    one = load("standard")
    assert identical.sentence(["a", "b"], [one, one], 4, "honest").endswith("No rule differs between them: they are one game.")
