"""How long `cheatdsl verify` takes as a whole process: each shipped rulebook alone, and all of them at once.

Run: python benchmarks/verify_speed.py [--runs N] [--json] [--only NAME ...]
Each figure is the best wall-clock time over N runs of a fresh interpreter process (every property,
every player count). The goals: one rulebook under 2 s, all shipped rulebooks under 20 s on two cores.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def time_verify(files: list[str], runs: int) -> float:
    """Best seconds of `python -m cheatdsl verify FILES` over `runs` fresh processes."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cheatdsl", "verify", *files], cwd=ROOT, capture_output=True,
                       check=False)
        best = min(best, time.perf_counter() - start)
    return round(best, 2)


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", nargs="*", default=None, help="rulebook file names to time alone")
    args = parser.parse_args()
    everything = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulebooks").iterdir()
                        if p.suffix in (".yaml", ".cheat"))
    alone = [f for f in everything if args.only is None or Path(f).name in args.only]
    results: dict[str, float] = {}
    for f in alone:
        results[f] = time_verify([f], args.runs)
        if not args.json:
            print(f"{f:<48} {results[f]:6.2f} s", flush=True)
    total = time_verify(everything, args.runs)
    if args.json:
        print(json.dumps({"per_rulebook": results, "all": total}, indent=2))
        return
    print(f"{'all ' + str(len(everything)) + ' shipped rulebooks, one command':<48} {total:6.2f} s")
    slowest = max(results.items(), key=lambda kv: kv[1]) if results else None
    if slowest:
        print(f"slowest alone: {slowest[0]} ({slowest[1]:.2f} s)")


if __name__ == "__main__":
    main()
