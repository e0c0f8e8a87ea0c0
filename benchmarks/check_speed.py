"""How long `cheatdsl check` takes as a whole process: one rulebook, and every shipped rulebook.

Run: python benchmarks/check_speed.py [--runs N] [--json]
Reports the median and best wall-clock time over N runs of a fresh interpreter process.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def time_command(args: list[str], runs: int) -> dict[str, float]:
    """Median and best seconds of `python -m cheatdsl ARGS` over `runs` fresh processes."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cheatdsl", *args], cwd=ROOT, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return {"median_s": round(statistics.median(times), 3), "best_s": round(min(times), 3)}


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    everything = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulebooks").iterdir()
                        if p.suffix in (".yaml", ".cheat"))
    results = {
        "one rulebook (english-ascending.yaml)": time_command(["check", "rulebooks/english-ascending.yaml"], args.runs),
        f"all {len(everything)} shipped rulebooks": time_command(["check", *everything], args.runs),
    }
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for name, figures in results.items():
        print(f"check, {name}: median {figures['median_s']:.3f} s, best {figures['best_s']:.3f} s")


if __name__ == "__main__":
    main()
