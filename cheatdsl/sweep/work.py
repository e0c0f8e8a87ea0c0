"""Running one cell, in this process, a local worker or a Dask worker: the result is a plain JSON dict.

A worker compiles the rulebook from the files the cell carries when its own copy is missing or
differs, so a worker on another machine needs cheatdsl (the same version), not the rulebook files.
"""

from __future__ import annotations

import multiprocessing
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import __version__
from ..model import Rulebook
from .cells import Cell, Source

TIMING = ("seconds",)  # verdict details that time the run, left out so results repeat exactly
_compiled: dict[tuple[str, tuple[str, ...]], Rulebook] = {}


def run_cell(cell: Cell, progress: Callable[[int, int], None] | None = None, caches: Any = None) -> dict[str, Any]:
    """The cell's result: its description, `status` (done, clash) and the simulation and verdicts.

    `caches` (a `verifier.api.Caches`): the verifier's, shared by the cells run one after another in this
    process, so that a verdict found at a table is not worked out again."""
    out: dict[str, Any] = {"key": cell.key, "cell": cell.describe(), "version": __version__}
    if cell.clash:
        out.update(status="clash", reason=cell.clash)
        return out
    rulebook = _rulebook(cell.source, cell.variations)
    if cell.games and cell.players is not None:
        from ..simulate import simulate
        from ..simulate.engine import Engine
        stats = simulate(rulebook, cell.players, cell.games, cell.cell_seed, cell.bots, turn_cap=cell.turn_cap,
                         challenge_rate=cell.challenge_rate, progress=progress, engine=Engine.AUTO)
        # The rulebook as the spec names it, wherever the worker runs.
        out["simulate"] = replace(stats, settings=replace(stats.settings, reference=cell.rulebook)).as_json()
    if cell.verify is not None:
        from verifier.api import Settings, verify
        counts = (cell.players,) if cell.players is not None else None
        with _may_fork():
            timed = verify(rulebook, Settings(), cell.verify, counts, caches)
        out["verify"] = [_without_timing(t.result.as_json()) for t in timed]
        out["expect"] = expected_verdicts(rulebook)
    if cell.rate_games and cell.players is not None:
        from ..rate import rate
        from ..simulate.engine import Engine, search_playouts
        # The ladder's own seed: the cell's, so that the same spec rates the same wherever the cell runs
        # (with numba or without it, the same bots' rules: the playouts' draws differ).
        out["rate"] = rate(rulebook, cell.players, games=cell.rate_games, seed=cell.cell_seed,
                           turn_cap=cell.turn_cap, playouts=search_playouts(Engine.AUTO)).as_json()
    out["status"] = "done"
    return out


def expected_verdicts(rulebook: Rulebook) -> dict[str, str]:
    """The verdict the rulebook expects of each property it names (`holds`/`fails` read as proved/refuted): what
    a report colours as expected rather than as a failure."""
    from verifier.report import SYNONYMS
    return {e.property: SYNONYMS.get(e.verdict, e.verdict) for e in rulebook.expectations}


def _without_timing(data: dict[str, Any]) -> dict[str, Any]:
    """A verdict without the seconds it took, which differ from run to run."""
    details = {k: v for k, v in data.get("details", {}).items() if k not in TIMING}
    return {**data, "details": details}


def _rulebook(source: Source, variations: tuple[str, ...]) -> Rulebook:
    """The compiled rulebook, from the worker's own files when they match, else from the cell's copies."""
    from ..load import load_rulebook
    key = (source.digest, variations)
    if key not in _compiled:
        if len(_compiled) > 64:
            _compiled.clear()
        if all(_same(path, text) for path, text in source.files):
            _compiled[key] = load_rulebook(source.path, variations)
        else:
            with tempfile.TemporaryDirectory(prefix="cheatdsl-sweep-") as tmp:
                _compiled[key] = load_rulebook(_materialise(source, Path(tmp)), variations)
    return _compiled[key]


def _same(path: str, text: str) -> bool:
    try:
        return Path(path).read_text(encoding="utf-8") == text
    except (OSError, ValueError):
        return False


def _materialise(source: Source, into: Path) -> str:
    """Write the cell's rulebook files under `into`, keeping their folders relative to each other."""
    paths = [Path(p) for p, _ in source.files]
    common = Path(*paths[0].parts[:1])
    for n in range(len(paths[0].parts), 0, -1):
        candidate = Path(*paths[0].parts[:n])
        if all(candidate in p.parents for p in paths):
            common = candidate
            break
    for path, (_, text) in zip(paths, source.files):
        target = into / path.relative_to(common)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return str(into / paths[0].relative_to(common))


@contextmanager
def _may_fork() -> Iterator[None]:
    """Let the verifier start its timed children inside a daemonic worker (a Dask worker is one)."""
    process = multiprocessing.current_process()
    config = getattr(process, "_config", {})
    daemon = config.get("daemon", False)
    config["daemon"] = False
    try:
        yield
    finally:
        config["daemon"] = daemon
