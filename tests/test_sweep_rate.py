"""Issue 23, point 3: "`sweep` can rate each cell": `rate: G` in a spec plays the rating ladder (`cheatdsl rate`)
in each cell at its player count and adds the skill index and the first-player advantage between strong bots,
with their 95% intervals, to the cell's JSON, the tidy table (CSV, Parquet) and the report.

Ladders here are a few games (the search bots make a game cost about 0.3 s); campaigns are in docs/ratings.md.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from cheatdsl.diagnostics import Diagnostics
from cheatdsl.load import load_rulebook
from cheatdsl.profiles import shipped_path
from cheatdsl.rate import rate
from cheatdsl.sweep import expand, read_spec
from cheatdsl.sweep.cells import Cell
from cheatdsl.sweep.size import size_of
from cheatdsl.cli import main

SPEC = """\
sweep: rated
rulebooks: [english-ascending]
players: [3, 4]
games: 0
seed: 3
rate: 6
"""
COLUMNS = ("skill_index", "skill_index_low", "skill_index_high", "first_player_advantage",
           "first_player_advantage_low", "first_player_advantage_high")


def _spec(folder: Path, text: str = SPEC) -> tuple[Any, Diagnostics]:
    path = folder / "rated.yaml"
    path.write_text(text, encoding="utf-8")
    d = Diagnostics()
    return read_spec(str(path), d), d


def _run(folder: Path, out: str, jobs: int, capsys: Any) -> list[dict[str, str]]:
    assert main(["sweep", str(folder / "rated.yaml"), "--out", str(folder / out), "--jobs", str(jobs)]) == 0
    capsys.readouterr()
    return list(csv.DictReader(io.StringIO((folder / out / "results.csv").read_text())))


def test_a_rated_cell_carries_the_ladders_figures_with_intervals(tmp_path: Path, capsys: Any) -> None:
    """Each cell's row has the skill index and first-player advantage, each inside its interval; the cell's
    JSON holds the ladder's whole report; the report has the column; the same seed gives the same table
    with one job and with two."""
    _spec(tmp_path)
    one = _run(tmp_path, "one", 1, capsys)
    assert [row["players"] for row in one] == ["3", "4"]
    for row in one:
        assert row["rate_games"] == "6"
        for name in ("skill_index", "first_player_advantage"):
            low, value, high = (float(row[f"{name}{end}"]) for end in ("_low", "", "_high"))
            assert low <= value <= high, (name, row)
    cells = [json.loads(p.read_text()) for p in sorted((tmp_path / "one" / "cells").glob("cell-*.json"))]
    assert all(set(c["rate"]) >= {"skill_index", "ladder", "first_player_advantage"} for c in cells)
    assert "skill index (95%)" in (tmp_path / "one" / "report.html").read_text()
    two = _run(tmp_path, "two", 2, capsys)
    assert [{k: r[k] for k in COLUMNS} for r in one] == [{k: r[k] for k in COLUMNS} for r in two]


def test_a_cells_rating_is_the_ladder_seeded_by_the_cell(tmp_path: Path) -> None:
    """The cell rates with `cheatdsl.rate.rate(rulebook, players, games, seed=cell seed)`, its search bots
    playing out where `auto` puts them: nothing else."""
    from cheatdsl.simulate.engine import Engine, search_playouts
    from cheatdsl.sweep.work import run_cell
    spec, d = _spec(tmp_path, SPEC.replace("players: [3, 4]", "players: [3]"))
    assert spec is not None, d.render()
    (cell,) = expand(spec)
    got = run_cell(cell)["rate"]
    rb = load_rulebook(str(shipped_path("english-ascending")))
    assert got == rate(rb, 3, games=6, seed=cell.cell_seed, playouts=search_playouts(Engine.AUTO)).as_json()


def test_rating_leaves_the_cells_seed_and_an_unrated_cells_key_alone(tmp_path: Path) -> None:
    """Rating is extra work on the same cell: its games keep their seed; an unrated spec's keys are unchanged
    (results saved before ratings existed are still found)."""
    rated, _ = _spec(tmp_path)
    plain, _ = _spec(tmp_path, SPEC.replace("rate: 6", "verify: [ranks-exist]"))
    a, b = expand(rated), expand(plain)
    assert [c.cell_seed for c in a] == [c.cell_seed for c in b]
    assert [c.key for c in a] != [c.key for c in b]
    assert all("rate_games" not in c.describe() for c in b)
    fields = {k: v for k, v in vars(b[0]).items()}
    assert Cell(**fields).key == b[0].key


def test_the_rate_field_is_checked_and_sized(tmp_path: Path) -> None:
    """`rate` is a whole number from 0 to 100,000, located when wrong; a rating alone is something to run, and
    the size line counts the ladder's games."""
    for bad in ("-1", "true", "2.5", "100001"):
        spec, d = _spec(tmp_path, SPEC.replace("rate: 6", f"rate: {bad}"))
        assert spec is None and any(e.code == "W014" and "`rate`" in e.message for e in d.errors), bad
    spec, d = _spec(tmp_path)
    assert spec is not None and size_of(spec).rated_games == 12
    assert "12 rating games" in size_of(spec).words()
    spec, d = _spec(tmp_path, SPEC.replace("rate: 6", "rate: 0"))
    assert spec is None and any(e.code == "W015" for e in d.errors)
