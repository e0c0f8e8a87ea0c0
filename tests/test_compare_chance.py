"""Issue 39, point 5: a comparison marks a figure measured by games as different only beyond chance, and leads the
statistics with one sentence saying which differ (cheatdsl/compare/chance.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cheatdsl.cli import main
from cheatdsl.compare import chance


def test_two_figures_differ_only_where_the_interval_of_their_difference_leaves_out_zero() -> None:
    assert chance.apart(chance.share(60, 100), chance.share(40, 100))  # 20 points apart, se about 7
    assert not chance.apart(chance.share(52, 100), chance.share(48, 100))
    assert not chance.apart(chance.share(52, 100), None)
    # Figures given with their own 95% intervals (the ratings): half-widths added in quadrature.
    assert chance.apart(chance.from_interval(0.9, 0.85, 0.95), chance.from_interval(0.7, 0.65, 0.75))
    assert not chance.apart(chance.from_interval(0.9, 0.8, 1.0), chance.from_interval(0.8, 0.7, 0.9))
    # A mean of whole numbers, from how many times each was seen.
    long, short = chance.mean_of([(100, 50), (140, 50)]), chance.mean_of([(60, 50), (90, 50)])
    assert long is not None and short is not None and chance.apart(long, short)
    # Many events of one game hang together: counted by games, a share is wider than counted by events.
    by_events, by_games = chance.share(480, 1000), chance.share(480, 1000, independent=30)
    assert by_events is not None and by_games is not None and by_games.error > 5 * by_events.error


def test_compare_marks_only_statistics_beyond_chance_and_says_which(capsys: pytest.CaptureFixture[str]) -> None:
    """Counting down against the standard sheet makes games longer and changes the challenges: those rows are
    marked and named in the leading sentence. English ascending at four seats plays much as the standard sheet:
    its cards at a pickup read 5.2 against 5.1 and were marked as different; nothing is marked now, and the
    sentence says so."""
    assert main(["compare", "standard", "standard-up-or-down", "--simulate", "300", "--no-verify"]) == 0
    out = capsys.readouterr().out
    marked = [line.split()[1:3] for line in out.splitlines() if line.startswith("≠")]
    assert ["turns", "per"] in marked and ["caught", "a"] in marked
    assert "! Games last 84% longer under standard-up-or-down than under standard" in out
    assert main(["compare", "standard", "english-ascending", "--simulate", "300", "--no-verify"]) == 0
    out = capsys.readouterr().out
    statistics = out[out.index("games played"):]
    assert "≠" not in statistics
    assert "! No figure differs beyond chance between standard and english-ascending" in out


def test_a_figure_the_bots_habit_drives_is_flagged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 39, point 6: under a house rule that lets a seat pass when it holds none of the rank, `honest` still
    calls about every play and catches a lie well under 5% of the time; `simulate` (text and JSON) and `compare`
    say that the challenge figures show the bots' habit."""
    import json

    path = tmp_path / "pass-none.yaml"
    path.write_text("rulebook: pass-none\ntitle: Pass holding none\nsource: a table\nextends: standard\n"
                    "passing:\n  allowed: true\n  when: holds(required) == 0\n  all_pass_leader: last_player\n")
    assert main(["simulate", str(path), "--games", "100", "--json"]) == 0
    habit = json.loads(capsys.readouterr().out)["bots_habit"]
    assert len(habit) == 1 and "caught a lie: the bots call out of habit" in habit[0]
    assert main(["simulate", "standard", "--games", "100", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bots_habit"] == []
    assert main(["compare", "standard", str(path), "--simulate", "100", "--no-verify"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "! The bots' habit, under pass-none: only" in out and "under standard:" not in out
