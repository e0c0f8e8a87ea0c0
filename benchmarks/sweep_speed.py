"""How fast `cheatdsl sweep` runs cells: locally with 1 and 2 processes, on a Dask LocalCluster with 1 and 2
workers, and what a game costs in a sweep against plain `simulate`.

Run: python benchmarks/sweep_speed.py [--games G] [--runs N] [--json]
The sweep: verish-ne-verish (as written and with skip-pass) and english-ascending at 3 and 4 players,
honest bots, G games a cell (default 200), nothing verified: 6 cells. Each figure is the best of N
runs (default 2) into a fresh results folder (so no cell is reused), timed around `run_spec` (expand,
run, write cells, table and report); the Dask runs include connecting, not starting the cluster.
Plain simulate: `simulate(...)` on every cell's rulebook, players, games and seed in this process;
the cost per game is the sweep's extra CPU time (--jobs 1, all in this process) over that, per game,
since CPU time varies far less than wall-clock time on a shared machine. Writes only under a
temporary folder.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from cheatdsl.diagnostics import Diagnostics
from cheatdsl.load import compile_rulebook
from cheatdsl.simulate import simulate
from cheatdsl.sweep import expand, read_spec, run_spec

SPEC = """\
sweep: speed
rulebooks: [verish-ne-verish, english-ascending]
variations: each
players: [3, 4]
bots: [honest]
games: {games}
seed: 0
"""


def best(runs: int, fn: Any) -> float:
    """The least wall-clock seconds of `runs` calls."""
    out = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - start)
    return out


def least_cpu(runs: int, fn: Any) -> float:
    """The least CPU seconds of this process over `runs` calls (for work done in this process alone)."""
    out = float("inf")
    for _ in range(runs):
        start = time.process_time()
        fn()
        out = min(out, time.process_time() - start)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cheatdsl-sweep-bench-") as tmp_name:
        tmp = Path(tmp_name)
        spec_path = tmp / "speed.yaml"
        spec_path.write_text(SPEC.format(games=args.games))
        spec = read_spec(str(spec_path), Diagnostics())
        assert spec is not None
        cells = expand(spec)
        games = sum(c.games for c in cells)
        runs = [0]

        def sweep(**how: Any) -> None:
            runs[0] += 1
            finished = run_spec(spec, tmp / f"out-{runs[0]}", **how)
            assert finished.complete and finished.outcome.ran == len(cells)

        def plain() -> None:
            for c in cells:
                rulebook, _ = compile_rulebook(c.source.path, c.variations)
                simulate(rulebook, c.players, c.games, c.cell_seed, c.bots)  # type: ignore[arg-type]

        figures: dict[str, float] = {"plain simulate": best(args.runs, plain),
                                     "local --jobs 1": best(args.runs, lambda: sweep(jobs=1)),
                                     "local --jobs 2": best(args.runs, lambda: sweep(jobs=2))}
        try:
            from distributed import LocalCluster
        except ImportError:
            LocalCluster = None  # noqa: N806 - the sweep extra is not installed
        if LocalCluster is not None:
            for workers in (1, 2):
                with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=50) as cluster:
                    address = cluster.scheduler_address
                    sweep(scheduler=address)  # warm the workers' imports once
                    figures[f"dask, {workers} worker{'s' if workers > 1 else ''}"] = best(
                        args.runs, lambda a=address: sweep(scheduler=a))
        cpu_plain, cpu_sweep = least_cpu(args.runs, plain), least_cpu(args.runs, lambda: sweep(jobs=1))
    rows = [{"run": name, "seconds": round(s, 3), "cells_per_second": round(len(cells) / s, 2),
             "games_per_second": round(games / s)} for name, s in figures.items()]
    summary = {"cells": len(cells), "games": games, "runs": rows,
               "sweep_cost_per_game_ms": round((cpu_sweep - cpu_plain) / games * 1000, 3),
               "plain_ms_per_game": round(cpu_plain / games * 1000, 3),
               "sweep_over_plain": round(cpu_sweep / cpu_plain, 3)}
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"{len(cells)} cells, {games} games")
    for row in rows:
        print(f"  {row['run']:<16} {row['seconds']:>7.2f} s  {row['cells_per_second']:>6.2f} cells/s  "
              f"{row['games_per_second']:>6} games/s")
    print(f"CPU time: plain simulate {summary['plain_ms_per_game']} ms a game; a sweep (--jobs 1) adds "
          f"{summary['sweep_cost_per_game_ms']} ms a game ({summary['sweep_over_plain']}x plain)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
