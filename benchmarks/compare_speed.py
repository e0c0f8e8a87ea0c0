"""How long `cheatdsl compare` of five profiles with `--simulate 200` takes as a whole process, and where it goes.

Each row is a fresh `python -m cheatdsl compare ...` process, its output thrown away:
  compare --simulate 200    the whole command (rules table, the verifier's verdicts, 200 games a rulebook);
  ... --no-verify           the same without the verifier's child process;
  ... without --simulate    the rules table and the verdicts only;
  ... --no-verify, no games start-up, reading the rulebooks and the rules table only.
Wall-clock seconds (what a user waits) and CPU seconds of the process and its children (the verifier
runs in a child), best of --runs. The default five are the shipped families' base profiles; --profiles
names others (mogeln's games between honest bots never end, so each of its 200 games runs to the
turn cap: name it to see that cost). Target: the whole command under 5 s.

Run: python benchmarks/compare_speed.py [--quick] [--runs N] [--profiles A,B,...] [--json] [--out FILE]
It writes to standard output, or to FILE with --out (nothing else is written).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PROFILES = ("english-ascending", "standard", "fujian", "canadian-bluff", "verish-ne-verish")
GAMES = 200
TARGET_SECONDS = 5.0


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_once(args: list[str]) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the process and its children, exit status) of one run."""
    cpu = children_cpu()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cheatdsl", *args], cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        sys.stderr.write(done.stderr.decode(errors="replace"))
    return wall, children_cpu() - cpu, done.returncode


def measure(profiles: list[str], runs: int, games: int) -> dict[str, Any]:
    rows = {
        f"compare --simulate {games}": ["compare", *profiles, "--simulate", str(games)],
        "... --no-verify": ["compare", *profiles, "--simulate", str(games), "--no-verify"],
        "... without --simulate": ["compare", *profiles],
        "... --no-verify, no games": ["compare", *profiles, "--no-verify"],
    }
    load_before = os.getloadavg()
    best: dict[str, tuple[float, float]] = {}
    for _ in range(runs):
        for name, args in rows.items():
            wall, cpu, status = time_once(args)
            if status != 0:
                raise SystemExit(f"`cheatdsl {' '.join(args)}` exited {status}")
            if name not in best or wall < best[name][0]:
                best[name] = (wall, cpu)
    whole = best[f"compare --simulate {games}"][0]
    return {
        "profiles": profiles, "games": games, "runs": runs, "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "load_average": {"before": [round(x, 2) for x in load_before],
                         "after": [round(x, 2) for x in os.getloadavg()]},
        "rows": {name: {"wall_s": round(w, 3), "cpu_s": round(c, 3), "command": "cheatdsl " + " ".join(rows[name])}
                 for name, (w, c) in best.items()},
        "target": {"seconds": TARGET_SECONDS, "figure": round(whole, 3), "met": whole < TARGET_SECONDS},
    }


def render(result: dict[str, Any]) -> str:
    lines = [f"cheatdsl compare {' '.join(result['profiles'])}: best of {result['runs']}; Python {result['python']}, "
             f"{result['cpus']} CPUs; load average before {result['load_average']['before']}, "
             f"after {result['load_average']['after']}"]
    for name, row in result["rows"].items():
        lines.append(f"  {name:28} {row['wall_s']:7.2f} s wall  {row['cpu_s']:7.2f} s CPU (with children)")
    t = result["target"]
    lines.append(f"  target: under {t['seconds']:g} s: {t['figure']:.2f} s -> {'met' if t['met'] else 'NOT met'}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run of each row")
    parser.add_argument("--runs", type=int, help="runs of each row; the fastest counts (default 3)")
    parser.add_argument("--profiles", default=",".join(PROFILES),
                        help=f"comma-separated rulebooks to compare (default {','.join(PROFILES)})")
    parser.add_argument("--games", type=int, default=GAMES, help=f"games a rulebook (default {GAMES})")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--out", metavar="FILE", help="write the result to FILE instead of standard output")
    args = parser.parse_args(argv)
    profiles = [p.strip() for p in args.profiles.split(",") if p.strip()]
    result = measure(profiles, args.runs or (1 if args.quick else 3), args.games)
    text = json.dumps(result, indent=2) + "\n" if args.json else render(result)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
