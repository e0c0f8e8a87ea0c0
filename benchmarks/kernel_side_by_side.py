"""The compiled kernel of this checkout beside the kernel of another, side by side in one run.

Each row is the kernel alone (`kernel.play_games`, records kept as arrays) playing --games games of a
rulebook at --players seats with one bot at every seat, timed in process CPU time in a fresh process
for each run (the kernel loaded warm from numba's disk cache, one game played before the clock starts).
The runs of the two checkouts alternate, --repeats each, and the report gives each side's median actions
a second and their ratio (this checkout over the other): a refactor of the kernel is measured against the
commit before it without a second machine or a second session.

    git worktree add /tmp/before HEAD~1
    python benchmarks/kernel_side_by_side.py --other /tmp/before

The other checkout's kernel compiles into its own cache folder (the folder is keyed by a hash of the
kernel's sources), so the first run of each side also builds it; that build is not timed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The child: one timed run of the kernel of the checkout on its PYTHONPATH (argv: rulebook, players, bot,
# games, seed); prints {"actions": .., "seconds": .., "kernel": path of the kernel module}.
CHILD = """
import json, sys, time
import numpy as np
from cheatdsl.compiled import kernel
from cheatdsl.compiled.run import CompiledTable
from cheatdsl.engine import Game
from cheatdsl.load import load_rulebook
path, players, bot, games, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
game = Game(load_rulebook(path), players, turn_cap=2000)
table = CompiledTable(game, [bot] * players, seed, 0.15)
t = table.tables
width = 14
warm = np.zeros((1, width), dtype=np.int64)
kernel.play_games(t, np.uint64(seed), 0, 1, table.rates, table.policies, warm, np.zeros(1 << 16, dtype=np.int64))
rows = np.zeros((games, width), dtype=np.int64)
pickups = np.zeros(max(1 << 16, games * 64), dtype=np.int64)
started = time.process_time()
done = kernel.play_games(t, np.uint64(seed), 0, games, table.rates, table.policies, rows, pickups)
seconds = time.process_time() - started
print(json.dumps({"actions": int(rows[:done, 5].sum()), "seconds": seconds, "kernel": kernel.__file__}))
"""


def one_run(tree: Path, rulebook: str, players: int, bot: str, games: int, seed: int) -> dict[str, float]:
    """One timed run in a fresh process on `tree`'s sources."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("NUMBA_CACHE_DIR", None)  # each checkout's own folder, keyed by its sources
    out = subprocess.run([sys.executable, "-c", CHILD, rulebook, str(players), bot, str(games), str(seed)],
                         env=env, cwd=tree, capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if not Path(result["kernel"]).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"the run on {tree} loaded the kernel from {result['kernel']}")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--other", required=True, help="the other checkout's folder (a git worktree)")
    parser.add_argument("--rulebook", default=str(ROOT / "rulebooks" / "english-ascending.yaml"))
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bots", default="greedy,honest", help="comma-separated (default greedy,honest)")
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=5, help="timed runs of each side a row (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    trees = {"this": ROOT, "other": Path(args.other)}
    result: dict[str, dict[str, object]] = {}
    for bot in args.bots.split(","):
        for tree in trees.values():  # builds each side's kernel (untimed)
            one_run(tree, args.rulebook, args.players, bot, 10, args.seed)
        rates: dict[str, list[float]] = {side: [] for side in trees}
        for _ in range(args.repeats):
            for side, tree in trees.items():
                run = one_run(tree, args.rulebook, args.players, bot, args.games, args.seed)
                rates[side].append(run["actions"] / run["seconds"])
        medians = {side: statistics.median(r) for side, r in rates.items()}
        result[bot] = {"this": round(medians["this"]), "other": round(medians["other"]),
                       "ratio": round(medians["this"] / medians["other"], 4),
                       "runs": {side: [round(r) for r in rs] for side, rs in rates.items()}}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{Path(args.rulebook).name}, {args.players} seats, {args.games:,} games a run, {args.repeats} runs a side "
          f"(median actions/s of process CPU time)")
    print(f"  {'bot':8} {'this checkout':>14} {'other':>14} {'ratio':>7}")
    for bot, row in result.items():
        print(f"  {bot:8} {row['this']:>14,} {row['other']:>14,} {row['ratio']:>7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
