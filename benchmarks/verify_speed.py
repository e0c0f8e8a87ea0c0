"""How long `cheatdsl verify` takes as a whole process: each shipped rulebook alone, and all of them at once.

Run: python benchmarks/verify_speed.py [--runs N] [--json] [--only NAME ...]
Each figure is the best wall-clock time over N runs of a fresh interpreter process (every property,
every player count), with the CPU seconds that run used (all its processes: on a loaded machine the
wall-clock time grows, the CPU time much less). Every shipped file is timed alone (a file such as
canadian-bluff-one-pack.yaml is a variation of another, used by name), then every variation a
rulebook declares that no shipped file uses (`FILE --variation NAME`), then all the YAML rulebooks in
one command. The goals: one rulebook under 2 s, all the YAML rulebooks under 20 s on two cores.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
ALONE_GOAL = 2.0
ALL_GOAL = 20.0


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_verify(args: list[str], runs: int) -> tuple[float, float]:
    """Best (wall seconds, CPU seconds of that run) of `python -m cheatdsl verify ARGS` over `runs` processes."""
    best = (float("inf"), 0.0)
    for _ in range(runs):
        cpu = _children_cpu()
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cheatdsl", "verify", *args], cwd=ROOT, capture_output=True,
                       check=False)
        best = min(best, (time.perf_counter() - start, _children_cpu() - cpu))
    return round(best[0], 2), round(best[1], 2)


def declared_variations(files: list[str]) -> list[list[str]]:
    """`[FILE, --variation, NAME]` for each variation a rulebook declares and no shipped file uses."""
    used: set[tuple[str, str]] = set()
    declared: list[tuple[str, str]] = []
    for f in files:
        if not f.endswith(".yaml"):
            continue
        data = yaml.safe_load((ROOT / f).read_text()) or {}
        for name in data.get("use", []) or []:
            used.add((str(Path(f).parent / data.get("extends", "")), name))
        for name in data.get("variations", {}) or {}:
            declared.append((f, name))
    return [[f, "--variation", name] for f, name in declared if (f, name) not in used]


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", nargs="*", default=None, help="rulebook file names to time alone")
    args = parser.parse_args()
    everything = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulebooks").iterdir()
                        if p.suffix in (".yaml", ".cheat"))
    alone = [[f] for f in everything if args.only is None or Path(f).name in args.only]
    alone += [v for v in declared_variations(everything) if args.only is None or Path(v[0]).name in args.only]
    results: dict[str, dict[str, float]] = {}
    for job in alone:
        wall, cpu = time_verify(job, args.runs)
        label = " ".join(job)
        results[label] = {"seconds": wall, "cpu": cpu}
        if not args.json:
            print(f"{label:<52} {wall:6.2f} s  (cpu {cpu:5.2f} s)", flush=True)
    yamls = [f for f in everything if f.endswith(".yaml")]
    wall, cpu = time_verify(yamls, args.runs)
    slowest = max(results.items(), key=lambda kv: kv[1]["seconds"]) if results else None
    if args.json:
        print(json.dumps({"per_rulebook": results, "all_yaml": {"seconds": wall, "cpu": cpu, "files": len(yamls)}},
                         indent=2))
        return
    print(f"{f'all {len(yamls)} YAML rulebooks, one command':<52} {wall:6.2f} s  (cpu {cpu:5.2f} s)"
          f"  goal {ALL_GOAL:g} s: {'met' if wall < ALL_GOAL else 'not met'}")
    if slowest:
        print(f"slowest alone: {slowest[0]} ({slowest[1]['seconds']:.2f} s)  goal {ALONE_GOAL:g} s: "
              f"{'met' if slowest[1]['seconds'] < ALONE_GOAL else 'not met'}")
        print(f"sum of the times alone: {sum(r['seconds'] for r in results.values()):.2f} s")


if __name__ == "__main__":
    main()
