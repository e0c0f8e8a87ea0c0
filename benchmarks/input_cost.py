"""What hostile input costs: CPU time and peak memory of reading each file of tests/hostile.py.

Run: python benchmarks/input_cost.py [--json] [--only WORD]
Each file of tests/hostile.py (CASES, then COSTLY) is written to a fresh temporary folder and read by
the command line's `main()` in a fresh interpreter (`check FILE` or `scenario FILE`). Reported: the call's CPU time (user + system), how much
the process's peak resident memory grew during the call, the exit status and the diagnostic codes.
The targets: every file accepted or refused within 1 s and 100 MB.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.hostile import CASES, COSTLY  # noqa: E402

TIMEOUT_S = 300
MEMORY_CAP = 4 << 30

_CHILD = r"""
import contextlib, io, json, re, resource, sys
from cheatdsl.cli import main

def rss_kb():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))

before_rss = rss_kb()
before = resource.getrusage(resource.RUSAGE_SELF)
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
    status = main(sys.argv[1:])
after = resource.getrusage(resource.RUSAGE_SELF)
text = out.getvalue()
print(json.dumps({
    "status": status,
    "cpu_s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
    "peak_growth_mb": max(after.ru_maxrss - before_rss, 0) / 1024,
    "peak_mb": after.ru_maxrss / 1024,
    "codes": sorted(set(re.findall(r"(?:error|warning)\[(\w+)\]", text))),
    "internal": "internal error" in text or "Traceback" in text,
}))
"""


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def measure(argv: list[str]) -> dict[str, object]:
    """The cost of `cheatdsl ARGV` in a fresh interpreter, as the child script reports it."""
    try:
        proc = subprocess.run([sys.executable, "-c", _CHILD, *argv], cwd=ROOT, capture_output=True, text=True,
                              timeout=TIMEOUT_S, preexec_fn=_cap_memory, check=False)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "cpu_s": float(TIMEOUT_S), "peak_growth_mb": 0.0, "codes": []}
    if proc.returncode != 0:
        return {"status": f"crashed ({proc.returncode})", "cpu_s": 0.0, "peak_growth_mb": 0.0, "codes": [],
                "stderr": proc.stderr[-500:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    """Measure every hostile file and print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", default="", help="measure only cases whose name contains this")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="cheatdsl-input-cost-"))
    results = []
    try:
        for case in (*CASES, *COSTLY):
            if args.only.lower() not in case.name.lower():
                continue
            path = folder / case.filename
            data = case.make()
            path.write_bytes(data)
            figures = measure(case.argv(str(path)))
            results.append({"case": case.name, "bytes": len(data), "expected": case.code, **figures})
            path.unlink()
            if not args.json:
                row = results[-1]
                print(f"{case.name:48} {len(data):>9,} B  {row['cpu_s']:7.2f} s  {row['peak_growth_mb']:7.1f} MB  "
                      f"exit {row['status']}  {','.join(row['codes'])}", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    worst_cpu = max(results, key=lambda r: float(r["cpu_s"]))  # type: ignore[arg-type]
    worst_mem = max(results, key=lambda r: float(r["peak_growth_mb"]))  # type: ignore[arg-type]
    print(f"slowest: {worst_cpu['case']} ({worst_cpu['cpu_s']:.2f} s); "
          f"largest: {worst_mem['case']} ({worst_mem['peak_growth_mb']:.1f} MB)")


if __name__ == "__main__":
    main()
