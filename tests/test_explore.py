"""`cheatdsl explore RULEBOOK`: every combination of its variations verified, refutations with replayable
witnesses, clashing combinations listed with the checker's reason, resumable like a sweep."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cheatdsl.cli import main


@pytest.fixture(scope="module")
def explored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """verish-ne-verish (one variation) at 2 players, termination only: its folder and its text."""
    out = tmp_path_factory.mktemp("explore") / "out"
    import contextlib
    import io
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["explore", "verish-ne-verish", "-n", "2", "-p", "termination", "--out", str(out)]) == 0
    return out, buffer.getvalue()


def test_every_combination_gets_a_row_of_verdicts(explored: tuple[Path, str]) -> None:
    """Rule: each combination (as written, each variation, ...) is verified, and the properties it breaks named."""
    out, text = explored
    grid = text.splitlines()[:5]
    assert grid[0].startswith("verdicts: P proved, R refuted") and grid[1].split() == ["1"]
    assert grid[2].split() == ["(as", "written)", "at", "2", "players", "R"]
    assert grid[3].split() == ["skip-pass", "at", "2", "players", "R"] and grid[4] == "properties: 1 termination"
    # Verish' Ne Verish' expects termination refuted: that is listed apart, not as what a combination breaks
    # (issue 41, point 4).
    for combination in ("(as written)", "skip-pass"):
        assert (f"{combination} at 2 players: breaks nothing checked\n"
                "    refuted, as its rulebook expects: termination") in text
    assert "2 cells: 2 run now, 0 already done, 0 clash, 0 failed" in text
    rows = (out / "results.csv").read_text().splitlines()
    assert len(rows) == 3 and rows[0].endswith("verdict_termination")
    assert all(r.endswith(",refuted") for r in rows[1:])


def test_each_refutation_has_a_witness_that_replays(explored: tuple[Path, str]) -> None:
    """Rule: a refutation's witness is a scenario file that `cheatdsl scenario` replays and passes."""
    out, text = explored
    files = sorted((out / "witnesses").glob("*.yaml"))
    assert [f.name for f in files] == ["verish-ne-verish-skip-pass-termination-2p.yaml",
                                       "verish-ne-verish-termination-2p.yaml"]
    assert all(f"witness: {f}" in text for f in files)
    assert "rulebook: verish-ne-verish\nvariations: [skip-pass]\nplayers: 2\n" in files[0].read_text()
    assert main(["scenario", *(str(f) for f in files)]) == 0


def test_report_holds_the_verdict_matrix_with_witness_links(explored: tuple[Path, str]) -> None:
    """Rule: the HTML report's verdict matrix links each refutation to its witness file."""
    page = (explored[0] / "report.html").read_text()
    assert '<table id="verdicts">' in page and 'class="v-refuted expected"' in page  # expected: not red
    assert 'href="witnesses/verish-ne-verish-termination-2p.yaml"' in page
    assert '<figure id="plot-verdicts">' in page



def test_report_leaves_out_the_columns_an_explore_has_no_value_in(explored: tuple[Path, str]) -> None:
    """Issue 25: 'explore report: sweep-only columns sit empty': an explore plays no games, so its cells table
    has no bots, games or game statistics columns; each verdict column names its property whole, upwards."""
    page = (explored[0] / "report.html").read_text()
    cells = page.split('<table id="cells">', 1)[1].split("</thead>", 1)[0]
    assert re.findall(r'<th scope="col">([^<]*)</th>', cells) == ["rulebook", "variations", "players", "status"]
    verdicts = page.split('<table id="verdicts">', 1)[1].split("</thead>", 1)[0]
    assert '<th scope="col" class="property" title="termination"><span>termination</span></th>' in verdicts

def test_explore_resumes(explored: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: explore run again into the same folder reuses every finished combination."""
    assert main(["explore", "verish-ne-verish", "-n", "2", "-p", "termination", "--out", str(explored[0])]) == 0
    assert "2 cells: 0 run now, 2 already done" in capsys.readouterr().out


def test_clashing_combinations_are_listed_with_the_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: combinations the checker refuses are not verified; each is listed with its reason."""
    assert main(["explore", "full-rules", "-n", "3", "-p", "ranks-exist", "--out", str(tmp_path / "out"),
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    clashes = [r for r in data["cells"] if r["status"] == "clash"]
    assert len(data["cells"]) == 16 and len(clashes) == 8
    assert {r["variations"] for r in clashes} >= {"up-down-same+going-down", "going-down+free-choice"}
    assert all(r["reason"].startswith("E305: variation `") and "clash" in r["reason"] for r in clashes)
    assert all(r["verdict_ranks-exist"] == "proved" for r in data["cells"] if r["status"] == "done")
    capsys.readouterr()
    assert main(["explore", "full-rules", "-n", "3", "-p", "ranks-exist", "--out", str(tmp_path / "out")]) == 0
    text = capsys.readouterr().out
    assert "8 combinations clash:" in text
    assert "  up-down-same+going-down: E305: variation `going-down` cannot be played with `up-down-same`" in text


def test_explore_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: a rulebook that is not there, or bad player counts, are usage errors (2)."""
    assert main(["explore", "no-such-profile", "--out", str(tmp_path / "out")]) == 2
    assert "no shipped profile `no-such-profile`" in capsys.readouterr().err
    assert main(["explore", "verish-ne-verish", "-n", "9", "--out", str(tmp_path / "out")]) == 2
    assert "no cell to run: verish-ne-verish (as written): no player count asked is allowed (2..6)" in \
        capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["explore", "standard", "-n", "three"])
    assert stop.value.code == 2
