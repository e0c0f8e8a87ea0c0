"""Peak memory of `cheatdsl simulate` against the number of games: it should stay flat.

Each run is a fresh process (`python -m cheatdsl simulate RULEBOOK --games G --format json`), and its
peak resident memory is the child's ru_maxrss. Output goes to a pipe and is dropped; nothing is written
to disk.

    python benchmarks/simulate_memory.py                       # 10^3 .. 10^5 games, greedy bots
    python benchmarks/simulate_memory.py --up-to 1000000       # .. 10^6 (a minute or two more)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time


def peak_of(rulebook: str, games: int, bots: str, players: int) -> tuple[float, float, int]:
    """(peak resident MiB, seconds, games reported) of one simulate process."""
    command = [sys.executable, "-m", "cheatdsl", "simulate", rulebook, "--games", str(games), "--bots", bots,
               "--players", str(players), "--format", "json"]
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child measures only itself: run the command in a grandchild-free exec
        devnull = os.open(os.devnull, os.O_WRONLY)
        read, write = os.pipe()
        os.dup2(write, 1)
        os.dup2(devnull, 2)
        os.close(read)
        os.execv(sys.executable, command)
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"simulate failed for {games} games (status {status})")
    return usage.ru_maxrss / 1024, seconds, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rulebook", default="english-ascending")
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--up-to", type=int, default=100_000, help="the most games in a run (powers of ten)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    games = 1000
    while games <= args.up_to:
        mib, seconds, _ = peak_of(args.rulebook, games, args.bots, args.players)
        rows.append({"games": games, "peak_mib": round(mib, 1), "seconds": round(seconds, 1)})
        if not args.json:
            print(f"{games:>9,} games  peak {mib:7.1f} MiB  {seconds:7.1f} s", flush=True)
        games *= 10
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        low, high = min(r["peak_mib"] for r in rows), max(r["peak_mib"] for r in rows)
        print(f"spread of the peaks: {high - low:.1f} MiB ({args.rulebook}, {args.bots} bots, {args.players} seats; "
              f"maxrss of each process, {resource.getpagesize()} B pages)")


if __name__ == "__main__":
    main()
