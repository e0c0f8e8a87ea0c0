"""A campaign over generated rulebooks: check, fmt, simulate and verify each, and hold verify's proofs
against played games.

Run: python benchmarks/generated_campaign.py [--count N] [--start S] [--workers W] [--timeout T] [--json FILE]
Rulebook number i is `tests/rulebook_strategies.generate(i)`, the same on every run. Each is examined in a
process of its own, killed after --timeout seconds (a timeout is a finding, not a pass). Verify runs at the
smallest player count of each rulebook. Printed: how many passed each step, the internal errors of verify,
the contradictions (a proof a game broke, a game stuck or looping that verify did not refute), the
timeouts, simulate or games stopped after STEP_SECONDS (slow: the interpreter hanging), the verdicts by
property, and the seconds per step.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


STEP_SECONDS = 15.0  # simulate and the games of one rulebook each stop there (counted as slow)


def _one(seed: int, verify_seconds: float, conn: Any) -> None:
    import signal

    from rulebook_strategies import examine, generate
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        data = generate(seed)
        with tempfile.TemporaryDirectory() as tmp:
            got = examine(data, Path(tmp), verify_seconds=verify_seconds, step_seconds=STEP_SECONDS)
        conn.send({"seed": seed, "failures": got.failures, "internal": got.internal, "slow": got.slow,
                   "contradictions": got.contradictions, "verdicts": got.verdicts, "seconds": got.seconds,
                   "players": got.players})
    except BaseException as exc:  # noqa: BLE001 - a crash of the campaign's own steps is a finding too
        conn.send({"seed": seed, "failures": [f"crash: {type(exc).__name__}: {exc}"], "internal": [],
                   "contradictions": [], "verdicts": {}, "seconds": {}})
    finally:
        conn.close()


class Stop(Exception):
    """SIGTERM: stop the campaign and report what is done."""


def campaign(start: int, count: int, workers: int, timeout: float, verify_seconds: float,
             out: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Examine rulebooks start..start+count-1, `workers` at a time, into `out`: each result, or a timeout.
    Stopped early (SIGTERM or ^C), the workers are killed and `out` holds what is done."""
    ctx = multiprocessing.get_context("fork")
    todo = list(range(start, start + count))
    running: list[tuple[int, Any, Any, float]] = []
    try:
        _loop(ctx, todo, running, out, count, workers, timeout, verify_seconds)
    except (Stop, KeyboardInterrupt):
        for _, proc, _, _ in running:
            proc.kill()
            proc.join()
    return sorted(out, key=lambda r: r["seed"])


def _loop(ctx: Any, todo: list[int], running: list[tuple[int, Any, Any, float]], out: list[dict[str, Any]],
          count: int, workers: int, timeout: float, verify_seconds: float) -> None:
    while todo or running:
        while todo and len(running) < workers:
            seed = todo.pop(0)
            parent, child = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_one, args=(seed, verify_seconds, child))  # not a daemon: verify forks
            proc.start()
            child.close()
            running.append((seed, proc, parent, time.perf_counter()))
        for item in list(running):
            seed, proc, parent, began = item
            if parent.poll(0):
                try:
                    out.append(parent.recv())
                except EOFError:
                    out.append({"seed": seed, "failures": [f"the process ended with status {proc.exitcode}"]})
            elif time.perf_counter() - began > timeout:
                proc.kill()
                out.append({"seed": seed, "timeout": True})
            elif proc.is_alive():
                continue
            else:
                out.append({"seed": seed, "failures": [f"the process ended with status {proc.exitcode}"]})
            proc.join()
            parent.close()
            running.remove(item)
            if len(out) % 25 == 0:
                print(f"{len(out)} of {count} examined", file=sys.stderr, flush=True)
        time.sleep(0.02)


def figures(results: list[dict[str, Any]], wall: float) -> str:
    """The campaign's figures as text."""
    n = len(results)
    timeouts = [r["seed"] for r in results if r.get("timeout")]
    done = [r for r in results if not r.get("timeout")]
    failed = [r for r in done if r.get("failures")]
    internal = [r for r in done if r.get("internal")]
    contra = [r for r in done if r.get("contradictions")]
    slow = [r for r in done if r.get("slow")]
    lines = [f"{n} generated rulebooks in {wall:.0f} s",
             f"  examined to the end      {len(done)}",
             f"  timeouts                 {len(timeouts)}" + (f"  (seeds {timeouts[:20]})" if timeouts else ""),
             f"  check/fmt/simulate fail  {len(failed)}" + (f"  (seeds {[r['seed'] for r in failed][:20]})" if failed else ""),
             f"  verify internal errors   {len(internal)}" + (f"  (seeds {[r['seed'] for r in internal][:20]})" if internal else ""),
             f"  contradictions           {len(contra)}" + (f"  (seeds {[r['seed'] for r in contra][:20]})" if contra else ""),
             f"  simulate or games slow   {len(slow)}" + (f"  (seeds {[r['seed'] for r in slow][:20]})" if slow else "")]
    for r in (failed + internal + contra + slow)[:12]:
        lines.append(f"    {r['seed']}: " + "; ".join((r.get("failures") or []) + r.get("internal", [])
                                                     + r.get("contradictions", []) + r.get("slow", []))[:300])
    by: dict[str, Counter[str]] = defaultdict(Counter)
    for r in done:
        for pid, v in r.get("verdicts", {}).items():
            by[pid][v] += 1
    lines.append("  verdicts (smallest player count of each rulebook):")
    for pid, c in by.items():
        lines.append(f"    {pid:<21} " + ", ".join(f"{v} {k}" for k, v in c.most_common()))
    lines.append("  seconds per rulebook:")
    for step in ("check+fmt", "simulate", "verify", "games"):
        xs = sorted(r["seconds"][step] for r in done if step in r.get("seconds", {}))
        if xs:
            lines.append(f"    {step:<10} mean {statistics.mean(xs):.2f}  median {statistics.median(xs):.2f}  "
                         f"95% {xs[int(0.95 * (len(xs) - 1))]:.2f}  most {xs[-1]:.2f}")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=90.0, help="seconds for one rulebook, all steps")
    ap.add_argument("--verify-seconds", type=float, default=45.0, help="the kill timer of verify's heavy checks")
    ap.add_argument("--json", metavar="FILE", help="write every result as JSON")
    args = ap.parse_args()
    import signal

    def stop(signum: int, frame: Any) -> None:
        raise Stop

    signal.signal(signal.SIGTERM, stop)
    began = time.perf_counter()
    results = campaign(args.start, args.count, args.workers, args.timeout, args.verify_seconds, [])
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    print(figures(results, time.perf_counter() - began))
    bad = any(r.get(k) for r in results for k in ("timeout", "failures", "internal", "contradictions", "slow"))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
