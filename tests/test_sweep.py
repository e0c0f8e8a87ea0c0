"""`cheatdsl sweep` run locally: the spec, the cells' keys and seeds, the results folder, resuming, the table.

Sweeps here are tiny (a few cells of 12 games); the Dask runs are in test_sweep_cluster.py, the
report in a browser in test_sweep_browser.py.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from cheatdsl.cli import main
from cheatdsl.diagnostics import Diagnostics
from cheatdsl.load import compile_rulebook
from cheatdsl.simulate import simulate
from cheatdsl.sweep import SpecError, expand, read_spec, run_spec, run_sweep
from cheatdsl.sweep import run as run_module
from cheatdsl.sweep import table as table_module
from cheatdsl.sweep.schema import main as schema_main
from cheatdsl.sweep.schema import schema_text
from cheatdsl.sweep.store import Store

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples" / "sweeps"
SPEC = """\
sweep: tiny
rulebooks: [verish-ne-verish, english-ascending]
variations: each
players: [3]
bots: [honest, "greedy,honest,random"]
games: 12
seed: 5
verify: [ranks-exist]
"""


def write_spec(folder: Path, text: str = SPEC, name: str = "tiny.yaml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def spec_of(folder: Path, text: str = SPEC) -> Any:
    d = Diagnostics()
    spec = read_spec(str(write_spec(folder, text)), d)
    assert spec is not None, d.render()
    return spec


def cell_files(folder: Path) -> dict[str, Any]:
    return {p.name: json.loads(p.read_text()) for p in sorted((folder / "cells").glob("cell-*.json"))}


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any]]:
    """The tiny sweep with --jobs 1: its CSV table and its cell files."""
    tmp = tmp_path_factory.mktemp("reference")
    spec = write_spec(tmp)
    assert main(["sweep", str(spec), "--out", str(tmp / "out")]) == 0
    return (tmp / "out" / "results.csv").read_text(), cell_files(tmp / "out")


def test_spec_reads_every_field(tmp_path: Path) -> None:
    """Rule: a spec's fields are read as written; unset ones take the field table's defaults."""
    spec = spec_of(tmp_path)
    assert spec.name == "tiny" and spec.rulebooks == ("verish-ne-verish", "english-ascending")
    assert spec.variations == "each" and spec.players == (3,) and spec.bots == ("honest", "greedy,honest,random")
    assert (spec.games, spec.seed, spec.verify, spec.turn_cap, spec.challenge_rate) == (12, 5, ("ranks-exist",),
                                                                                         None, 0.15)
    plain = spec_of(tmp_path, "rulebooks: [standard]\n")
    assert (plain.name, plain.variations, plain.players, plain.bots, plain.games, plain.verify) == \
        ("tiny", "none", "min", ("honest",), 100, None)


@pytest.mark.parametrize("text, message", [
    ("rulebooks: [standard]\ngamez: 3\n", "unknown key `gamez`"),
    ("games: 3\n", "no `rulebooks:`"),
    ("rulebooks: [standard]\nbots: [honest, cheater]\n", "there is no bot `cheater`"),
    ("rulebooks: [standard]\nverify: [fairness]\n", "there is no property `fairness`"),
    ("rulebooks: [standard]\nvariations: some\n", "expected none, each, all"),
    ("rulebooks: [standard]\nplayers: [0]\n", "player counts"),
    ("rulebooks: [standard]\ngames: -1\n", "whole number"),
    ("rulebooks: [standard]\nchallenge_rate: 2\n", "probability"),
    ("- just a list\n", "a sweep spec is a mapping"),
    ("rulebooks: [standard]\ngames: 0\n", "nothing to run"),
])
def test_bad_specs_are_usage_errors_located_in_the_file(tmp_path: Path, text: str, message: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: a spec that cannot be read is a usage error (2), its problems located like a compiler's."""
    assert main(["sweep", str(write_spec(tmp_path, text)), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert message in err and "tiny.yaml:" in err
    assert not (tmp_path / "out").exists()


def test_rulebook_paths_are_confined_like_extends(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: a spec names files in its own folder or below (or shipped names), never outside."""
    inner = tmp_path / "specs"
    inner.mkdir()
    (tmp_path / "outside.yaml").write_text((ROOT / "rulebooks" / "english-ascending.yaml").read_text())
    spec = write_spec(inner, "rulebooks: [../outside.yaml]\ngames: 2\n")
    assert main(["sweep", str(spec), "--out", str(tmp_path / "out")]) == 2
    assert "`rulebooks` may not reach '../outside.yaml'" in capsys.readouterr().err
    (inner / "house").mkdir()
    (inner / "house" / "mine.yaml").write_text((ROOT / "rulebooks" / "english-ascending.yaml").read_text())
    spec = write_spec(inner, "rulebooks: [house/mine.yaml, no-such-profile]\ngames: 2\n")
    assert main(["sweep", str(spec), "--out", str(tmp_path / "out")]) == 2
    assert "no shipped profile `no-such-profile`" in capsys.readouterr().err


def test_cells_cover_the_combinations_asked(tmp_path: Path) -> None:
    """Rule: cells are rulebooks x variation combinations x player counts x bot mixes that fit the table."""
    cells = expand(spec_of(tmp_path))
    described = [(c.name, c.variations, c.players, c.bots) for c in cells]
    assert described == [
        ("verish-ne-verish", (), 3, "honest"), ("verish-ne-verish", (), 3, "greedy,honest,random"),
        ("verish-ne-verish", ("skip-pass",), 3, "honest"), ("verish-ne-verish", ("skip-pass",), 3, "greedy,honest,random"),
        ("english-ascending", (), 3, "honest"), ("english-ascending", (), 3, "greedy,honest,random")]
    notes: list[str] = []
    mixed = expand(spec_of(tmp_path, SPEC.replace("players: [3]", "players: [2, 7]")), notes)
    assert {(c.name, c.players) for c in mixed} == {("verish-ne-verish", 2)}  # english-ascending is for 3..6
    assert any("skipped at 2 players" in n for n in notes)
    every = expand(spec_of(tmp_path, "rulebooks: [full-rules]\nvariations: all\ngames: 1\n"))
    assert len(every) == 2 ** 4 and sum(1 for c in every if c.clash) == 8
    clash = next(c for c in every if c.variations == ("up-down-same", "going-down"))
    assert clash.clash.startswith("E305: variation `going-down` cannot be played with `up-down-same`")
    with pytest.raises(SpecError, match="has no variation nope"):
        expand(spec_of(tmp_path, "rulebooks: [standard]\nvariations: [[nope]]\n"))


def test_cell_seed_derives_from_the_cell_never_from_order(tmp_path: Path) -> None:
    """Rule: a cell's key and seed depend on the cell (and the sweep's seed), not on its place or the games."""
    cells = expand(spec_of(tmp_path))
    reordered = expand(spec_of(tmp_path, SPEC.replace("[verish-ne-verish, english-ascending]",
                                                      "[english-ascending, verish-ne-verish]")))
    assert {c.key: c.cell_seed for c in cells} == {c.key: c.cell_seed for c in reordered}
    assert len({c.cell_seed for c in cells}) == len(cells)
    more = expand(spec_of(tmp_path, SPEC.replace("games: 12", "games: 40")))
    assert [c.cell_seed for c in more] == [c.cell_seed for c in cells]  # 40 games extend the same 12
    assert all(a.key != b.key for a, b in zip(more, cells))
    reseeded = expand(spec_of(tmp_path, SPEC.replace("seed: 5", "seed: 6")))
    assert all(a.cell_seed != b.cell_seed for a, b in zip(reseeded, cells))


def test_a_cell_is_plain_simulate_with_the_cell_seed(tmp_path: Path, reference: tuple[str, dict[str, Any]]) -> None:
    """Rule: a cell's statistics are exactly `simulate`'s with the cell's seed."""
    cell = expand(spec_of(tmp_path))[3]
    saved = reference[1][f"cell-{cell.key}.json"]
    rulebook, _ = compile_rulebook("verish-ne-verish", ["skip-pass"])
    assert rulebook is not None
    plain = simulate(rulebook, 3, 12, cell.cell_seed, "greedy,honest,random").as_json()
    plain["reference"] = "verish-ne-verish"
    assert saved["simulate"] == json.loads(json.dumps(plain))
    assert [v["id"] for v in saved["verify"]] == ["ranks-exist"]


def test_jobs_do_not_change_the_results(tmp_path: Path, reference: tuple[str, dict[str, Any]]) -> None:
    """Rule: --jobs 2 gives the very table and cell files of --jobs 1."""
    spec = write_spec(tmp_path)
    assert main(["sweep", str(spec), "--out", str(tmp_path / "out"), "--jobs", "2"]) == 0
    assert (tmp_path / "out" / "results.csv").read_text() == reference[0]
    assert cell_files(tmp_path / "out") == reference[1]


def test_results_folder_holds_cells_table_and_report(tmp_path: Path, reference: tuple[str, dict[str, Any]],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: the default folder is sweep-results/NAME beside the spec, with a file per cell, CSV, Parquet, HTML."""
    spec = write_spec(tmp_path)
    assert main(["sweep", str(spec)]) == 0
    out = tmp_path / "sweep-results" / "tiny"
    assert sorted(p.name for p in out.iterdir()) == ["cells", "report.html", "results.csv", "results.parquet"]
    assert len(list((out / "cells").iterdir())) == 6 and not list(out.glob("**/*.tmp"))
    captured = capsys.readouterr()
    assert "6 cells: 6 run now, 0 already done, 0 clash, 0 failed" in captured.out
    assert "wrote" in captured.err and "wrote" not in captured.out
    import pyarrow.parquet as pq
    frame = pq.read_table(out / "results.parquet")
    assert frame.num_rows == 6
    header = reference[0].splitlines()[0].split(",")
    assert frame.column_names == header


def test_table_has_every_statistic_with_its_interval(reference: tuple[str, dict[str, Any]]) -> None:
    """Rule: one row per cell: the cell's settings, each statistic with its 95% interval, each verdict."""
    lines = reference[0].splitlines()
    header = lines[0].split(",")
    assert len(lines) == 7
    for column in ("rulebook", "variations", "players", "bots", "turns_mean", "turns_mean_low", "turns_mean_high",
                   "caught_share", "caught_low", "caught_high", "first_share", "first_low", "first_high",
                   "capped_share", "capped_low", "forced_share", "forced_high", "win_share_seat0", "win_low_seat2",
                   "win_high_seat2", "verdict_ranks-exist"):
        assert column in header, column
    import csv
    rows = list(csv.DictReader(lines))
    for row in rows:
        assert float(row["first_low"]) <= float(row["first_share"]) <= float(row["first_high"])
        assert float(row["turns_mean_low"]) <= float(row["turns_mean"]) <= float(row["turns_mean_high"])
        assert row["verdict_ranks-exist"] == "proved" and row["status"] == "done"


def test_interrupted_sweep_resumes_with_only_the_missing_cells(tmp_path: Path,
                                                               reference: tuple[str, dict[str, Any]]) -> None:
    """Rule: an interrupted sweep keeps its finished cells; the same run again computes only the others."""
    spec = spec_of(tmp_path)
    cells = expand(spec)
    store = Store(tmp_path / "out")
    done: list[int] = []

    def stop_after_two(_games: int, _total: int, label: str) -> None:
        done.append(int(label.split("/")[0]))
        if done[-1] == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(cells, store, progress=stop_after_two)
    assert len(cell_files(tmp_path / "out")) == 2
    outcome = run_spec(spec, tmp_path / "out").outcome
    assert (outcome.reused, outcome.ran) == (2, 4)
    assert (tmp_path / "out" / "results.csv").read_text() == reference[0]
    assert cell_files(tmp_path / "out") == reference[1]
    again = run_spec(spec, tmp_path / "out").outcome
    assert (again.reused, again.ran) == (6, 0)


def test_ctrl_c_stops_the_command_and_the_same_command_resumes(tmp_path: Path) -> None:
    """Rule: Ctrl-C (SIGINT) ends `cheatdsl sweep` with 130, the finished cells kept; rerunning completes it."""
    # Cells long enough (about a second each) that the interrupt always lands before the last one ends.
    spec = write_spec(tmp_path, SPEC.replace("games: 12", "games: 1000").replace("verify: [ranks-exist]\n", ""))
    command = [sys.executable, "-m", "cheatdsl", "sweep", str(spec), "--out", str(tmp_path / "out")]
    # A job started in the background (as CI may start the suite) inherits SIGINT ignored; a terminal's
    # Ctrl-C reaches a program that has it, so the child gets the default back before it starts.
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while not list((tmp_path / "out" / "cells").glob("cell-*.json")) and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)  # the terminal sends it to the whole group
    _, err = proc.communicate(timeout=60)
    saved = len(cell_files(tmp_path / "out"))
    assert proc.returncode == 130 and "run the same command to resume" in err
    assert 1 <= saved < 6
    again = subprocess.run([*command, "-j", "2"], capture_output=True, text=True, timeout=120)
    assert again.returncode == 0
    assert f"{6 - saved} run now, {saved} already done" in again.stdout


def test_a_killed_local_worker_costs_only_its_cell(tmp_path: Path, reference: tuple[str, dict[str, Any]]) -> None:
    """Rule: a local worker process that dies mid-cell is replaced and its cell run again; results unchanged."""
    import multiprocessing
    spec = spec_of(tmp_path)
    killed: list[str] = []

    def killer() -> None:
        deadline = time.monotonic() + 30
        while not killed and time.monotonic() < deadline:
            for child in multiprocessing.active_children():
                if child.name.startswith("cheatdsl-sweep-") and child.pid:
                    os.kill(child.pid, signal.SIGKILL)
                    killed.append(child.name)
                    return
            time.sleep(0.001)

    watcher = threading.Thread(target=killer)
    watcher.start()
    finished = run_spec(spec, tmp_path / "out", jobs=2)
    watcher.join()
    assert killed and finished.complete and not finished.outcome.failed
    assert (tmp_path / "out" / "results.csv").read_text() == reference[0]


def test_a_cell_whose_worker_keeps_dying_is_reported_not_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: a cell is tried ATTEMPTS times; then it is a failure (exit 1) and the other cells are still saved."""
    spec = spec_of(tmp_path)
    doomed = expand(spec)[1].key
    original = run_module.run_cell

    def dying(cell: Any, progress: Any = None) -> dict[str, Any]:
        if cell.key == doomed:
            os._exit(9)
        return original(cell, progress)

    monkeypatch.setattr(run_module, "run_cell", dying)
    finished = run_spec(spec, tmp_path / "out", jobs=2)
    assert set(finished.outcome.failed) == {doomed} and "died 3 times" in finished.outcome.failed[doomed]
    assert len(cell_files(tmp_path / "out")) == 5
    assert [r["status"] for r in finished.rows].count("missing") == 1


def test_scheduler_without_dask_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: local sweeps never need Dask; --scheduler without it says which extra to install."""
    monkeypatch.setitem(sys.modules, "distributed", None)
    spec = write_spec(tmp_path)
    assert main(["sweep", str(spec), "--out", str(tmp_path / "out"), "--scheduler", "tcp://127.0.0.1:9"]) == 2
    assert "pip install 'cheatdsl[sweep]'" in capsys.readouterr().err


def test_without_pyarrow_the_table_is_csv_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: Parquet needs pyarrow; without it the CSV is written and the note names the extra."""
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    spec = write_spec(tmp_path, SPEC.replace("variations: each", "variations: none"))
    assert main(["sweep", str(spec), "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "results.csv").is_file() and not (tmp_path / "out" / "results.parquet").exists()
    assert "Parquet needs pyarrow (pip install 'cheatdsl[sweep]')" in capsys.readouterr().err
    assert table_module.parquet_bytes([]) is None


def test_json_output_is_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: --format json prints one object with the rows; the tally goes to standard error."""
    spec = write_spec(tmp_path, SPEC.replace("variations: each", "variations: none"))
    assert main(["sweep", str(spec), "--out", str(tmp_path / "out"), "--format", "json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert len(data["cells"]) == 4 and data["failed"] == {}
    assert "4 cells" in captured.err


def test_schema_is_current_and_validates_the_examples() -> None:
    """Rule: docs/schema/sweep.schema.json is generated from the field table and accepts every example spec."""
    import jsonschema
    import yaml
    assert schema_main(["--check"]) == 0, "run python -m cheatdsl.sweep.schema"
    validator = jsonschema.Draft202012Validator(json.loads(schema_text()))
    examples = sorted(EXAMPLES.glob("*.yaml"))
    assert examples
    for path in examples:
        errors = list(validator.iter_errors(yaml.safe_load(path.read_text())))
        assert not errors, (path, errors[0].message)
        d = Diagnostics()
        spec = read_spec(str(path), d)
        assert spec is not None, d.render()
        assert expand(spec)
    assert list(validator.iter_errors({"rulebooks": ["standard"], "gamez": 1}))
    assert list(validator.iter_errors({"rulebooks": ["standard"], "verify": ["fairness"]}))


def test_docs_hold_the_field_table() -> None:
    """Rule: docs/sweeps.md's table of spec keys is the reader's own field table."""
    from cheatdsl.sweep.spec import field_table
    assert field_table() in (ROOT / "docs" / "sweeps.md").read_text()


def test_every_statistic_of_a_row_has_a_column(tmp_path: Path, reference: tuple[str, dict[str, Any]]) -> None:
    """Rule: no statistic a row holds is left out of the table's columns (CSV and Parquet alike)."""
    cells = expand(spec_of(tmp_path))
    results = {v["key"]: v for v in reference[1].values()}
    table = table_module.rows(cells, results)
    named = {name for name, _ in table_module.columns(table)}
    assert all(set(row) <= named for row in table)
    assert {"win_count_position0", "win_low_position2", "lose_count_seat1", "pickup_max", "unfinished"} <= named


def test_a_worker_without_the_rulebook_files_compiles_the_cells_copy(tmp_path: Path) -> None:
    """Rule: a cell carries the text of its rulebook files, so a worker lacking them (another machine) gets the
    same result; a changed file changes the cell's key."""
    from cheatdsl.sweep import work
    (tmp_path / "club").mkdir()
    (tmp_path / "club" / "base.yaml").write_text((ROOT / "rulebooks" / "english-ascending.yaml").read_text())
    (tmp_path / "house.yaml").write_text("rulebook: house\ntitle: House\nsource: a test\nextends: club/base.yaml\n"
                                         "players: 4..5\n")
    spec = spec_of(tmp_path, "rulebooks: [house.yaml]\ngames: 10\nplayers: [4]\n")
    cell = expand(spec)[0]
    assert [Path(p).name for p, _ in cell.source.files] == ["house.yaml", "base.yaml"]
    here = work.run_cell(cell)
    work._compiled.clear()
    (tmp_path / "club" / "base.yaml").unlink()
    (tmp_path / "house.yaml").write_text("rulebook: changed\n")
    away = work.run_cell(cell)
    assert away == here and away["status"] == "done"
    work._compiled.clear()
    assert main(["sweep", str(write_spec(tmp_path, "rulebooks: [house.yaml]\ngames: 10\n")),
                 "--out", str(tmp_path / "out")]) == 2  # the changed file no longer compiles


def test_a_refutation_the_rulebook_expects_is_not_coloured_as_a_failure(tmp_path: Path) -> None:
    """Issue 41, point 4: the small example sweep verifies termination, which Verish' Ne Verish' and English
    ascending both expect refuted; its report painted all twelve cells red. Each verdict now carries the cell's
    expectation: expected refutations take the expected colour in the table and the matrix, and the explore text
    lists them apart from what a combination breaks."""
    from cheatdsl.sweep.explore import matrix_text
    from cheatdsl.sweep.report import EXPECTED_COLOUR, VERDICT_COLOURS

    out = tmp_path / "small"
    assert main(["sweep", str(ROOT / "docs" / "examples" / "sweeps" / "small.yaml"), "--out", str(out)]) == 0
    html = (out / "report.html").read_text(encoding="utf-8")
    assert html.count('class="v-refuted expected"') == 12
    assert 'class="v-refuted"' not in html
    assert f'fill="{VERDICT_COLOURS["refuted"]}"><title>' not in html
    assert html.count(f'fill="{EXPECTED_COLOUR}"><title>') == 12
    results = {d["key"]: d for d in (json.loads(p.read_text()) for p in (out / "cells").glob("*.json"))}
    spec = read_spec(str(ROOT / "docs" / "examples" / "sweeps" / "small.yaml"), Diagnostics())
    cells = expand(spec)
    text = matrix_text(cells, {c.key: results[c.key] for c in cells if c.key in results}, {}, out)
    assert "breaks termination" not in text
    assert "refuted, as its rulebook expects: termination" in text


def test_the_report_leads_with_what_differs_beyond_chance(tmp_path: Path) -> None:
    """Issue 39 point 5: a sweep marks a difference only where the intervals say it is beyond chance, and leads
    with one sentence. A turn cap that stops games at once against none: game length differs beyond chance;
    two cells alike in everything (the same rulebook twice) differ in nothing."""
    from cheatdsl.simulate import Statistics
    from cheatdsl.sweep.differences import differences

    def sim(name: str, cap: int | None) -> Statistics:
        from cheatdsl.load import load_rulebook
        return simulate(load_rulebook(name), players=3, games=60, seed=1, bots=["honest"], turn_cap=cap)

    short, full = sim("standard", 20), sim("standard", None)
    said = differences(["capped", "whole"], [short, full], [{}, {}])
    assert said.startswith("Beyond chance, against capped") and "games last" in said
    same = differences(["a", "b"], [full, full], [{}, {}])
    assert same.startswith("No figure of any cell differs")
    rated = differences(["a", "b"], [None, None], [{"skill_edge": {"value": 0.0, "low": -0.05, "high": 0.05}},
                                                   {"skill_edge": {"value": 0.3, "low": 0.2, "high": 0.4}}])
    assert "skill edge +0.30 against +0.00" in rated
