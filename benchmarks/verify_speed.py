"""How long `cheatdsl verify` takes: each shipped rulebook alone, and all of them at once.

Run: python benchmarks/verify_speed.py [--runs N] [--json] [--only NAME ...] [--all-only]
Each figure is the best wall-clock time over N runs (every property, every player count), with the CPU
seconds that run used (all its processes: on a loaded machine the wall-clock time grows, the CPU time
much less). Two ways: the whole process (`python -m cheatdsl verify ...`, interpreter start and imports
included), and in process (`verifier.runner.verify_all` called in a fresh interpreter once its imports
are done: compiling the rulebooks and verifying them, what a program using the verifier pays). Every
shipped file is timed alone (a file such as canadian-bluff-one-pack.yaml is a variation of another, used
by name), then every variation a rulebook declares that no shipped file uses (`FILE --variation NAME`),
then all the YAML rulebooks in one command. The goals: all the YAML rulebooks under 5 s on two cores,
English ascending under 0.5 s in process. Runs keep Python's bytecode cache, as an installation does after
its first run (`ENV`).
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

import yaml

ROOT = Path(__file__).resolve().parent.parent
ALONE_GOAL = 0.5  # English ascending, in process
ALL_GOAL = 5.0
ALONE_GOAL_FILE = "rulebooks/english-ascending.yaml"
# Run in a fresh interpreter: the imports first (not timed), then the rulebooks compiled and verified.
IN_PROCESS = """
import json, resource, sys, time
from cheatdsl.load import compile_rulebook
from verifier.runner import verify_all
import verifier.properties.analysis
args = sys.argv[1:]
variations = tuple(args[args.index("--variation") + 1:]) if "--variation" in args else ()
files = args[:args.index("--variation")] if "--variation" in args else args
def cpu():
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
c, w = cpu(), time.perf_counter()
verify_all([(compile_rulebook(f, variations, lints=False)[0], None, None) for f in files])
print(json.dumps([time.perf_counter() - w, cpu() - c]))
"""


# Python's bytecode cache, as a normal installation keeps it after its first run: where PYTHONDONTWRITEBYTECODE
# is set (some sandboxes and CI images set it), every run would compile the project's modules again
# (about 0.2 s a process on the 2-core machine). `main` makes one untimed run first to write the cache.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


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
                       check=False, env=ENV)
        best = min(best, (time.perf_counter() - start, _children_cpu() - cpu))
    return round(best[0], 2), round(best[1], 2)


def time_in_process(args: list[str], runs: int) -> tuple[float, float]:
    """Best (wall seconds, CPU seconds of that run) of `verify_all` on ARGS in a fresh interpreter, once its
    imports are done, over `runs` interpreters."""
    best = (float("inf"), 0.0)
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", IN_PROCESS, *args], cwd=ROOT, capture_output=True, text=True, env=ENV,
                             check=True)
        wall, cpu = json.loads(out.stdout.strip().splitlines()[-1])
        best = min(best, (wall, cpu))
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
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", nargs="*", default=None, help="rulebook file names to time alone")
    parser.add_argument("--all-only", action="store_true", help="time all the YAML rulebooks together only")
    args = parser.parse_args()
    everything = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulebooks").iterdir()
                        if p.suffix in (".yaml", ".cheat"))
    alone = [] if args.all_only else [[f] for f in everything if args.only is None or Path(f).name in args.only]
    if not args.all_only:
        alone += [v for v in declared_variations(everything) if args.only is None or Path(v[0]).name in args.only]
    results: dict[str, dict[str, float]] = {}
    time_verify([everything[0]], 1)  # untimed: writes the bytecode cache
    if not args.json:
        print(f"{'':<52} {'whole process':>22}   {'in process':>22}")
    for job in alone:
        wall, cpu = time_verify(job, args.runs)
        inner, inner_cpu = time_in_process(job, args.runs)
        label = " ".join(job)
        results[label] = {"seconds": wall, "cpu": cpu, "in_process": inner, "in_process_cpu": inner_cpu}
        if not args.json:
            print(f"{label:<52} {wall:6.2f} s (cpu {cpu:5.2f} s)   {inner:6.2f} s (cpu {inner_cpu:5.2f} s)", flush=True)
    yamls = [f for f in everything if f.endswith(".yaml")]
    wall, cpu = time_verify(yamls, args.runs)
    inner, inner_cpu = time_in_process(yamls, args.runs)
    together = {"seconds": wall, "cpu": cpu, "in_process": inner, "in_process_cpu": inner_cpu, "files": len(yamls)}
    if args.json:
        print(json.dumps({"per_rulebook": results, "all_yaml": together}, indent=2))
        return
    label = f"all {len(yamls)} YAML rulebooks, one command"
    print(f"{label:<52} {wall:6.2f} s (cpu {cpu:5.2f} s)   {inner:6.2f} s (cpu {inner_cpu:5.2f} s)"
          f"  goal {ALL_GOAL:g} s: {'met' if wall < ALL_GOAL else 'not met'}")
    if ALONE_GOAL_FILE in results:
        inner = results[ALONE_GOAL_FILE]["in_process"]
        print(f"{ALONE_GOAL_FILE} in process: {inner:.2f} s  goal {ALONE_GOAL:g} s: "
              f"{'met' if inner < ALONE_GOAL else 'not met'}")
    if results:
        slowest = max(results.items(), key=lambda kv: kv[1]["seconds"])
        print(f"slowest alone: {slowest[0]} ({slowest[1]['seconds']:.2f} s whole process)")
        print(f"sum of the times alone: {sum(r['seconds'] for r in results.values()):.2f} s")


if __name__ == "__main__":
    main()
