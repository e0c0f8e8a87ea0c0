"""Issue 22: `simulate --engine {auto,compiled,python}`, numba optional, and the same JSON from either engine."""

from __future__ import annotations

import importlib.util
import json
import os
import tempfile
from pathlib import Path

import pytest

from cheatdsl.compiled.cache import sources_key

from cheatdsl.cli import main
from cheatdsl.compiled import cache
from cheatdsl.load import load_rulebook
from cheatdsl.simulate import simulate
from cheatdsl.simulate.engine import Engine, EngineUnavailable, choose
from cheatdsl.simulate.play import Table

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = str(ROOT / "rulebooks" / "english-ascending.yaml")
HAS_NUMBA = importlib.util.find_spec("numba") is not None
needs_numba = pytest.mark.skipif(not HAS_NUMBA, reason="numba is not installed")
if HAS_NUMBA:  # numba reads its cache folder once, when first imported (cheatdsl/compiled/cache.py)
    os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(tempfile.gettempdir()) / "cheatdsl-test-numba" / sources_key()))


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["simulate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_without_numba_compiled_says_how_to_install_and_auto_falls_back(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22: numba stays optional; `compiled` names `pip install cheatdsl[compiled]` and `--engine
    python`, `auto` plays in Python with one line on standard error."""
    from cheatdsl.simulate import engine
    monkeypatch.setattr(cache, "numba_available", lambda: False)
    monkeypatch.setattr(engine, "AUTO_PYTHON_SECONDS", 0.0)  # auto wants the kernel, however short the run
    code, out, err = _run(capsys, ENGLISH, "--games", "2000", "--bots", "greedy", "--engine", "compiled")
    assert code == 2 and out == ""
    assert "pip install cheatdsl[compiled]" in err and "--engine python" in err
    code, out, err = _run(capsys, ENGLISH, "--games", "2000", "--bots", "greedy", "--engine", "auto", "--json")
    assert code == 0 and json.loads(out)["games"] == 2000
    assert len(err.strip().splitlines()) == 1 and "numba is not installed" in err


@needs_numba
def test_compiled_refuses_a_bot_it_does_not_play(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22: what the kernel does not play is refused in general terms, pointing at --engine python."""
    code, _, err = _run(capsys, ENGLISH, "--games", "10", "--bots", "search", "--engine", "compiled")
    assert code == 2 and "does not play the `search` bot" in err and "--engine python" in err
    assert "Traceback" not in err


@needs_numba
def test_auto_picks_the_compiled_engine_for_large_runs_it_plays() -> None:
    """Issue 22: `auto` uses the kernel when the run is large enough and the rules and bots are played;
    the Python engine otherwise (a small run, a bot the kernel does not play)."""
    rb = load_rulebook(ENGLISH)
    table = Table(rb, 3, ("greedy",) * 3, 0, None, 0.15)
    assert choose(Engine.AUTO, table, table.bots, 10_000) is not table
    assert choose(Engine.AUTO, table, table.bots, 10) is table
    assert choose(Engine.PYTHON, table, table.bots, 10_000) is table
    honest = Table(rb, 3, ("honest",) * 3, 0, None, 0.15)  # the default bots: compiled too
    assert choose(Engine.AUTO, honest, honest.bots, 10_000) is not honest
    counter = Table(rb, 3, ("counter",) * 3, 0, None, 0.15)
    assert choose(Engine.AUTO, counter, counter.bots, 10_000) is not counter
    search = Table(rb, 3, ("search",) * 3, 0, None, 0.15)
    assert choose(Engine.AUTO, search, search.bots, 10_000) is search
    with pytest.raises(EngineUnavailable):
        choose(Engine.COMPILED, search, search.bots, 10_000)


@needs_numba
def test_compiled_statistics_have_the_same_json_and_do_not_depend_on_jobs() -> None:
    """Issue 22 'Statistics keep flat memory and the same JSON'; game i is seeded from (seed, i) alone,
    so --jobs 1 and 2 give the same numbers on the compiled engine too."""
    rb = load_rulebook(ENGLISH)
    one = simulate(rb, 3, 600, 4, "greedy", jobs=1, engine=Engine.COMPILED)
    two = simulate(rb, 3, 600, 4, "greedy", jobs=2, engine=Engine.COMPILED)
    python = simulate(rb, 3, 60, 4, "greedy", engine=Engine.PYTHON)
    assert one.as_json().keys() == python.as_json().keys()
    a, b = one.as_json(), two.as_json()
    a["jobs"] = b["jobs"] = None
    a.pop("settings", None), b.pop("settings", None)
    assert json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)
    assert one.games == 600


def test_the_cache_folder_is_the_users_not_the_installs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22: the kernel's disk cache goes under $XDG_CACHE_HOME (or ~/.cache), never site-packages."""
    monkeypatch.setenv("XDG_CACHE_HOME", "/tmp/h22-somewhere")
    key = cache.sources_key()
    assert cache.default_folder() == Path("/tmp/h22-somewhere/cheatdsl/numba") / key
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache.default_folder() == Path.home() / ".cache" / "cheatdsl" / "numba" / key


def test_the_cache_folder_is_keyed_by_the_kernels_sources(tmp_path: Path) -> None:
    """Issue 40, point 5: numba's on-disk cache keyed by a hash of the kernel's sources: an edited kernel (or
    another release of it) caches in a folder of its own, whatever the files' times say."""
    (tmp_path / "kernel.py").write_text("x = 1\n")
    before = cache.sources_key(tmp_path)
    assert before == cache.sources_key(tmp_path) and len(before) == 16
    (tmp_path / "kernel.py").write_text("x = 2\n")
    assert cache.sources_key(tmp_path) != before
    assert cache.sources_key() == cache.sources_key(Path(cache.__file__).parent)


def _big_deck(tmp_path: Path, packs: int) -> str:
    """The standard sheet played with `packs` packs (624 cards with twelve): a deck the checker accepts."""
    import yaml
    data = yaml.safe_load((ROOT / "rulebooks" / "standard.yaml").read_text())
    data.update(rulebook="twelve-packs")
    data["deck"]["packs"] = packs
    data.pop("expect", None)
    data.pop("variations", None)
    path = tmp_path / "twelve-packs.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


def test_the_kernels_tables_are_sized_before_they_are_built(tmp_path: Path) -> None:
    """Issue 40 point 4: `honest`'s lie table grows with the square of the deck; a 624-card deck took 7.5 GB
    and one of 1,976 cards died with MemoryError. The tables' size is worked out first, and past the budget
    the kernel refuses before making any."""
    from cheatdsl.compiled.tables import TooLarge, build, table_bytes
    from cheatdsl.engine import Game
    game = Game(load_rulebook(_big_deck(tmp_path, 12)), 4)
    with pytest.raises(TooLarge, match="624 cards"):
        build(game.rules, game, budget=1 << 30)
    small = Game(load_rulebook(ENGLISH), 3)
    assert table_bytes(small.rules, 52, 4, 5, 13, 1) < table_bytes(game.rules, 624, 48, 5, 13, 1)


@needs_numba
def test_a_deck_too_large_for_the_kernel_is_refused_by_compiled_and_played_by_auto(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 40 point 4: `--engine compiled` says how much memory the tables would take and names --engine
    python; `auto` plays in Python with a one-line notice, with no internal error."""
    path = _big_deck(tmp_path, 38)  # 1,976 cards, near the checker's limit of 2,000: past any budget
    code, out, err = _run(capsys, path, "--games", "2", "--engine", "compiled", "-n", "4")
    assert code == 2 and "GiB" in err and "--engine python" in err and "Traceback" not in err
    # Twenty games of so large a deck would take the Python engine more than 2 s: auto tries the kernel first.
    code, out, err = _run(capsys, path, "--games", "20", "--engine", "auto", "-n", "4", "--turn-cap", "20",
                          "--json")
    assert code == 0 and json.loads(out)["games"] == 20
    assert len(err.strip().splitlines()) == 1 and "playing with the Python engine" in err


@needs_numba
def test_auto_chooses_by_the_work_of_the_run_not_its_count_of_games() -> None:
    """Issue 41 point 7: Mogeln at four seats, 1,000 games, ran on the interpreter in 19.6 s against 0.79 s
    compiled, because `auto` counted games. It now counts the decisions of the first games in Python: a thousand
    long games go to the kernel, a handful of short ones stay in Python. Counted, not timed: the same run gets the
    same estimate on a busy machine (a sweep's cell played on one engine, then on the other, under load)."""
    import time

    from cheatdsl.simulate import engine as engine_module
    from cheatdsl.simulate.engine import python_seconds
    mogeln = load_rulebook(str(ROOT / "rulebooks" / "mogeln.yaml"))
    table = Table(mogeln, 4, ("honest",) * 4, 0, None, 0.15)
    estimate = python_seconds(table, 1000)
    assert estimate > 2.0
    slow = time.perf_counter
    try:
        time.perf_counter = lambda: slow() * 50  # type: ignore[assignment]  # a machine fifty times busier
        assert python_seconds(table, 1000) == estimate
    finally:
        time.perf_counter = slow  # type: ignore[assignment]
    actions = sum(r.actions for r in table.play(0, engine_module.PROBE_GAMES))
    assert estimate == actions * engine_module.decision_seconds(52) * 1000 / engine_module.PROBE_GAMES
    assert choose(Engine.AUTO, table, table.bots, 1000) is not table
    english = Table(load_rulebook(ENGLISH), 3, ("greedy",) * 3, 0, None, 0.15)
    assert choose(Engine.AUTO, english, english.bots, 20) is english
