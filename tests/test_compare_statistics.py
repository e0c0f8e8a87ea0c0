"""`cheatdsl compare --simulate G`: the statistics section filled by the real simulator, `cheatdsl.simulate`.

The section reads the `Statistics` that `simulate(rulebook, players, games, seed, bots)` returns, and
its JSON carries them as `cheatdsl simulate --format json` prints them. These tests check that every
row is filled from real games, that the same seed gives the same numbers, that one rulebook in two
surface forms plays the same games (000, English ascending, as YAML and as text), and the command's
options for the table size and the seed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cheatdsl.cli import main
from cheatdsl.compare import page, statistics
from cheatdsl.compare.grid import Comparison, columns_for, rules_section
from cheatdsl.load import compile_rulebook
from cheatdsl.model import Rulebook
from cheatdsl.simulate import Statistics

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = ROOT / "rulebooks"


def load(name: str, *variations: str) -> Rulebook:
    rb, d = compile_rulebook(str(RULEBOOKS / name), variations)
    assert rb is not None, d.render()
    return rb


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["compare", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_real_games_fill_every_row() -> None:
    """Three games of English ascending at four seats: every statistic has a cell, none of them "-"."""
    data = statistics.collect([load("english-ascending.yaml")], 3)
    stats = data[0]
    assert isinstance(stats, Statistics), stats
    assert sum(k for _, k in stats.turns_histogram) == 3 and len(stats.wins_by_position) == 4
    rows = {r.key: r.cells for r in statistics.section(columns_for([load("english-ascending.yaml")]), data).rows}
    assert all(cell != "-" for cells in rows.values() for cell in cells), rows


def test_same_seed_same_numbers_other_seed_other_games() -> None:
    """Games are seeded: the same seed gives the same statistics, another seed other games."""
    rbs = [load("standard.yaml")]
    first = statistics.collect(rbs, 6, seed=1)[0]
    again = statistics.collect(rbs, 6, seed=1)[0]
    other = statistics.collect(rbs, 6, seed=2)[0]
    assert isinstance(first, Statistics) and isinstance(other, Statistics)
    assert first == again
    assert first.turns_histogram != other.turns_histogram


def test_two_surface_forms_play_the_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    """000 in YAML and in the text DSL compile to one model, so their simulated games are the same."""
    code, out, _ = run(capsys, str(RULEBOOKS / "english-ascending.yaml"), str(RULEBOOKS / "english-ascending.cheat"),
                       "--simulate", "5", "--format", "json", "--no-verify")
    assert code == 0
    section = json.loads(out)["statistics"]
    assert [r["key"] for r in section["rows"]] == ["games", "turns", "unfinished", "wins_by_seat", "challenges",
                                                   "caught", "forced_bluffs", "pickups"]
    assert not any(r["differs"] for r in section["rows"])
    assert section["data"][0]["turns_histogram"] == section["data"][1]["turns_histogram"]


def test_players_and_seed_options(capsys: pytest.CaptureFixture[str]) -> None:
    """--players seats every rulebook alike, --seed is passed on; a count a rulebook refuses exits 2."""
    code, out, _ = run(capsys, str(RULEBOOKS / "english-ascending.yaml"), str(RULEBOOKS / "standard.yaml"),
                       "--simulate", "4", "--players", "5", "--seed", "9", "--format", "json", "--no-verify")
    assert code == 0
    data: list[dict[str, Any]] = json.loads(out)["statistics"]["data"]
    assert [(d["players"], d["games"], d["seed"]) for d in data] == [(5, 4, 9), (5, 4, 9)]
    code, out, err = run(capsys, str(RULEBOOKS / "english-ascending.yaml"), "--simulate", "4", "-n", "7",
                         "--no-verify")
    assert code == 2 and out == ""
    assert "english-ascending cannot be played by 7 players" in err


def test_default_table_size_is_shared() -> None:
    """Without --players every rulebook sits at one count they all allow, nearest four (003 is for three)."""
    rbs = [load("english-ascending.yaml"), load("practice-table.yaml")]
    assert statistics.seats_for(rbs, None) == [3, 3]
    with pytest.raises(statistics.TableSizeError):
        statistics.seats_for(rbs, 4)


def test_html_draws_three_charts_from_real_games() -> None:
    """The page's charts (turns per game, wins by seat, challenge outcomes) from simulated games."""
    rbs = [load("english-ascending.yaml"), load("standard-up-or-down.yaml")]
    columns = columns_for(rbs)
    data = statistics.collect(rbs, 8)
    html = page.render(Comparison(columns, (rules_section(rbs), statistics.section(columns, data))))
    for key in ("turns", "wins", "challenges"):
        assert f'id="plot-{key}"' in html
    assert html.count("<svg") == 3


def test_a_rulebook_the_simulator_refuses_leaves_its_column_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    """One rulebook the simulator refuses (a ValueError, as for a table it cannot deal): its cells are "-",
    the section says why, the others stand."""
    real = statistics.simulate

    def picky(rulebook: Rulebook, **kwargs: Any) -> Statistics:
        if rulebook.name == "standard":
            raise ValueError("cannot deal")
        return real(rulebook, **kwargs)

    monkeypatch.setattr(statistics, "simulate", picky)
    rbs = [load("english-ascending.yaml"), load("standard.yaml")]
    columns = columns_for(rbs)
    data = statistics.collect(rbs, 2)
    assert data[1] == statistics.Failure("ValueError: cannot deal")
    s = statistics.section(columns, data)
    assert s.note == "simulation failed for standard: ValueError: cannot deal"
    assert all(r.cells[1] == "-" for r in s.rows) and all(r.cells[0] != "-" for r in s.rows)


def test_every_share_in_the_table_carries_its_wilson_interval() -> None:
    """Issue 25: 'intervals on every share': compare's statistics table (which the gallery's pages print too)
    writes each share with its 95% Wilson interval, as the charts draw it: the unfinished games, each place's
    share of the won games and the challenges that caught a lie."""
    from cheatdsl.simulate import wilson
    stats = statistics.collect([load("english-ascending.yaml")], 6, 0, [3])[0]
    assert isinstance(stats, Statistics)
    rows = {r.key: r.cells[0] for r in statistics._rows([stats])}

    def said(k: int, n: int) -> str:
        low, high = wilson(k, n)
        return f"{k / n:.0%} ({low:.0%}–{high:.0%})"

    assert rows["unfinished"].startswith(f"{stats.unfinished} of 6: {said(stats.unfinished, 6)}")
    won = sum(stats.wins_by_position)
    for place, k in zip(("first", "second", "third"), stats.wins_by_position):
        assert f"{place} {said(k, won)}" in rows["wins_by_seat"]
    c = stats.challenges
    assert rows["caught"].startswith(said(c.caught, c.total))


def test_ratings_advantage_by_position_carries_its_interval() -> None:
    """Issue 25: 'intervals on every share': the ratings' advantage of each place in turn order is written with
    its 95% interval, the places named in words as the statistics' are."""
    from cheatdsl.compare import ratings
    from cheatdsl.rate import Estimate, Rating
    e = Estimate(0.5, 0.4, 0.6)
    shares = (Estimate(0.5, 0.4, 0.6), Estimate(0.25, 0.2, 0.3), Estimate(0.25, 0.1, 0.4))
    rated = Rating("standard", 3, 30, 10, ("random", "honest"), (e, e), e, e, shares, e, e, e, e, ("honest",))
    column = columns_for([load("standard.yaml")])
    row = {r.key: r.cells[0] for r in ratings.section(column, [rated]).rows}["seat_advantage"]
    assert row == "first +17 (+7 to +27), second -8 (-13 to -3), third -8 (-23 to +7) points"
