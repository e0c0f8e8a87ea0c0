"""How fast `cheatdsl sweep` runs cells: locally with 1 and 2 processes, on a Dask LocalCluster with 1 and 2
workers, and what a game costs in a sweep against plain `simulate`.

Run: python benchmarks/sweep_speed.py [--games G] [--runs N] [--json]
The sweep: verish-ne-verish (as written and with skip-pass) and english-ascending at 3 and 4 players,
honest bots, G games a cell (default 200), nothing verified: 6 cells. Each figure is the best of N
runs (default 2) into a fresh results folder (so no cell is reused), timed around `run_spec` (expand,
run, write cells, table and report); the Dask runs include connecting, not starting the cluster.
Plain simulate: `simulate(...)` on every cell's rulebook, players, games and seed in this process.
Beside the wall-clock time, each run's CPU seconds (this process, its children and the Dask workers),
which vary far less than wall-clock time on a shared machine; the cost per game is the sweep's extra
CPU time (--jobs 1) over plain simulate's, per game. Writes only under a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import os
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


def own_cpu() -> float:
    """CPU seconds of this process and its finished children."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def measure(runs: int, fn: Any, workers_cpu: Any = None) -> tuple[float, float]:
    """The run of `runs` with the least wall-clock seconds: (seconds, CPU seconds of every process involved)."""
    out = (float("inf"), 0.0)
    for _ in range(runs):
        cpu = own_cpu() + (workers_cpu() if workers_cpu else 0.0)
        start = time.perf_counter()
        fn()
        wall = time.perf_counter() - start
        out = min(out, (wall, own_cpu() + (workers_cpu() if workers_cpu else 0.0) - cpu))
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

        plain()  # warm: the first games import the bots and fill the engine's caches
        figures = {"plain simulate": measure(args.runs, plain),
                   "local --jobs 1": measure(args.runs, lambda: sweep(jobs=1)),
                   "local --jobs 2": measure(args.runs, lambda: sweep(jobs=2))}
        try:
            from distributed import Client, LocalCluster
            dask = True
        except ImportError:  # the sweep extra is not installed
            dask = False
        if dask:
            for workers in (1, 2):
                with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=50) as cluster, \
                        Client(cluster.scheduler_address, set_as_default=False) as client:
                    address = cluster.scheduler_address
                    sweep(scheduler=address)  # warm the workers' imports once

                    def workers_cpu(c: Any = client) -> float:
                        return float(sum(c.run(time.process_time).values()))

                    figures[f"dask, {workers} worker{'s' if workers > 1 else ''}"] = measure(
                        args.runs, lambda a=address: sweep(scheduler=a), workers_cpu)
    rows = [{"run": name, "seconds": round(wall, 3), "cpu_seconds": round(cpu, 3),
             "cells_per_second": round(len(cells) / wall, 2), "games_per_second": round(games / wall),
             "cpu_ms_per_game": round(cpu / games * 1000, 3)} for name, (wall, cpu) in figures.items()]
    plain_cpu, sweep_cpu = figures["plain simulate"][1], figures["local --jobs 1"][1]
    summary = {"cells": len(cells), "games": games, "load_average": os.getloadavg()[0], "runs": rows,
               "sweep_cost_per_game_ms": round((sweep_cpu - plain_cpu) / games * 1000, 3),
               "plain_ms_per_game": round(plain_cpu / games * 1000, 3),
               "sweep_over_plain": round(sweep_cpu / plain_cpu, 3)}
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"{len(cells)} cells, {games} games; load average {summary['load_average']:.1f} on "
          f"{os.cpu_count()} cores")
    for row in rows:
        print(f"  {row['run']:<16} {row['seconds']:>6.2f} s {row['cells_per_second']:>6.2f} cells/s "
              f"{row['games_per_second']:>5} games/s   CPU {row['cpu_seconds']:>5.2f} s, "
              f"{row['cpu_ms_per_game']:.3f} ms a game")
    print(f"a sweep (--jobs 1) costs {summary['sweep_cost_per_game_ms']} ms of CPU a game more than plain "
          f"simulate ({summary['sweep_over_plain']}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
