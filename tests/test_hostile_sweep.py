"""Issue 26 for sweeps and explores: reproducers 2 and 7, the size printed first, and the limit
that needs --force."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from cheatdsl.cli import main
from cheatdsl.diagnostics import Diagnostics
from cheatdsl.seeds import reduce_seed
from cheatdsl.sweep import expand, read_spec
from cheatdsl.sweep.size import UNFORCED_CELLS, size_of
from tests.hostile import ENGLISH

ROOT = Path(__file__).resolve().parent.parent


def spec_file(folder: Path, seed: int | str = 5, games: int = 4) -> Path:
    path = folder / "s.yaml"
    path.write_text(f"sweep: s\nrulebooks: [standard]\nplayers: [3]\ngames: {games}\nseed: {seed}\n", encoding="utf-8")
    return path


def test_a_seed_of_two_to_the_63_runs_and_writes_parquet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 26 point 2: `seed: 9223372036854775808` ran its cells, then exited 3 with an OverflowError
    writing results.parquet. Seeds take any whole number, reduced modulo 2**63 one way everywhere."""
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq
    out = tmp_path / "out"
    assert main(["sweep", str(spec_file(tmp_path, 2**63 + 5)), "--out", str(out)]) == 0
    table = pq.read_table(out / "results.parquet").to_pylist()
    assert [row["seed"] for row in table] == [5]
    same = tmp_path / "same"
    same.mkdir()
    assert main(["sweep", str(spec_file(same, 5)), "--out", str(same / "out")]) == 0
    assert (same / "out" / "results.csv").read_text() == (out / "results.csv").read_text()


@pytest.mark.parametrize("seed", [-1, 2**63, 2**64 + 3, 10**100])
def test_every_seed_is_reduced_by_the_one_function(tmp_path: Path, seed: int) -> None:
    """The spec's seed and the commands' --seed both go through cheatdsl.seeds.reduce_seed."""
    from cheatdsl.commands.arguments import seed as seed_option
    d = Diagnostics()
    spec = read_spec(str(spec_file(tmp_path, seed)), d)
    assert spec is not None, d.render()
    assert spec.seed == reduce_seed(seed) == seed_option(str(seed)) and 0 <= spec.seed < 2**63
    assert all(0 <= cell.cell_seed < 2**63 for cell in expand(spec))


@pytest.mark.parametrize("address", ["not a url", "tcp://", "http://127.0.0.1:8786", "tcp://127.0.0.1:99999"])
def test_a_scheduler_that_is_no_address_is_a_usage_error_at_once(tmp_path: Path, address: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 26 point 7: `--scheduler "not a url"` took 41 s, then exited 3 with a Dask traceback."""
    with pytest.raises(SystemExit) as stop:
        main(["sweep", str(spec_file(tmp_path)), "--scheduler", address])
    assert stop.value.code == 2
    assert "expected a scheduler address such as tcp://HOST:8786" in capsys.readouterr().err


def test_a_refused_scheduler_is_said_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 26 point 7: a well-formed but refused address took 20 s to say so (port 9 on loopback
    refuses); the probe says it before any rulebook is compiled. The bound is generous: Dask's own
    wait was 20 s."""
    pytest.importorskip("distributed")
    started = time.monotonic()
    assert main(["sweep", str(spec_file(tmp_path)), "--scheduler", "tcp://127.0.0.1:9",
                 "--out", str(tmp_path / "out")]) == 2
    assert time.monotonic() - started < 15
    err = capsys.readouterr().err
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err and "Traceback" not in err


def fourteen_variations(folder: Path) -> Path:
    rows = "".join(f"  v{i}: {{deck: {{packs: 2}}}}\n" for i in range(14))
    path = folder / "many.yaml"
    path.write_text(ENGLISH + "\nvariations:\n" + rows, encoding="utf-8")
    return path


def test_explore_of_14_variations_states_its_size_and_needs_force(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 26: `explore` over 14 variations (16,384 combinations) wrote no cell for minutes and gave
    no estimate; now it prints the cells and an estimate first and, over the limit, stops without --force."""
    out = tmp_path / "out"
    assert main(["explore", str(fourteen_variations(tmp_path)), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "cheatdsl explore: 16,384 cells (0 games, 16,384 verified): about " in err
    assert f"not started: it has over {UNFORCED_CELLS:,} cells; run it with --force" in err
    assert not out.exists()


def test_sweep_prints_its_size_before_it_starts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", str(spec_file(tmp_path)), "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert err.startswith("cheatdsl sweep: 1 cell (4 games, 0 verified): about 0 s with 1 job\n")


def test_the_size_counts_what_expand_makes(tmp_path: Path) -> None:
    """The estimate's count is the cells `expand` makes, for a spec whose combinations all play."""
    path = tmp_path / "s.yaml"
    path.write_text("sweep: s\nrulebooks: [standard, english-ascending]\nvariations: each\nplayers: [3, 4]\n"
                    "bots: [honest, greedy]\ngames: 3\nverify: [ranks-exist]\n", encoding="utf-8")
    d = Diagnostics()
    spec = read_spec(str(path), d)
    assert spec is not None, d.render()
    size = size_of(spec)
    cells = expand(spec)
    assert size.cells == len(cells) and size.games == sum(c.games for c in cells)


def test_a_hung_sweep_is_impossible_over_the_limit_without_force_in_a_child(tmp_path: Path) -> None:
    """The refusal happens before any work: the whole command ends fast in a child process too."""
    done = subprocess.run([sys.executable, "-m", "cheatdsl", "explore", str(fourteen_variations(tmp_path)),
                           "--out", str(tmp_path / "o")], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2 and "--force" in done.stderr and "Traceback" not in done.stderr


def test_a_turn_cap_past_the_range_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Found by the sweep campaign: `turn_cap: 1000000000000000000000000000000` on a rulebook whose
    games need not end ran for ever; the spec's turn cap has `simulate --turn-cap`'s range."""
    path = tmp_path / "s.yaml"
    path.write_text("sweep: s\nrulebooks: [mogeln]\nplayers: [4]\ngames: 2\nturn_cap: " + "1" + "0" * 30 + "\n",
                    encoding="utf-8")
    assert main(["sweep", str(path), "--out", str(tmp_path / "out")]) == 2
    assert "s.yaml:5:11" in capsys.readouterr().err
