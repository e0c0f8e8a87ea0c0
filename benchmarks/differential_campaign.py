"""The differential campaign: the symbolic verifier against the exhaustive judge on small generated rulebooks.

Run: python benchmarks/differential_campaign.py [--count N] [--start I] [--workers W] [--budget STATES]
                                                [--timeout T] [--lines FILE]

Rulebook i is `tests/small_rulebooks.generate(i)` (the same on every run): every field of the JSON Schema
drawn from its values, on a deck of a few cards. At every player count of its range, the symbolic verdicts
(`verify --no-exhaustive`) are set beside the judge's (`verify --exhaustive`, at most --budget states a
count); where both decide they must agree (`verifier.differential`). Each rulebook runs in a
process of its own, killed after --timeout seconds.

It prints each disagreement and internal error as found (with the rulebook number: regenerate it with
`python -c "import sys; sys.path.insert(0, 'tests'); import small_rulebooks as s; print(s.text_of(s.generate(I)))"`),
then one JSON line: {"rulebooks", "tables", "judged", "complete", "pairs", "decided_pairs", "disagreements",
"by_property", "internal", "killed", "seconds", "coverage"}, where a table is one rulebook at one player count,
`judged` the tables the judge decided something at, `complete` those whose every state it explored, `pairs`
the property verdicts compared and `decided_pairs` those where both decided; `coverage` is the share of
rulebooks in which each schema field took a value other than the base's. With --lines FILE each
rulebook's result is written there as a JSON line; --summarize FILE prints the closing line of such a file.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def examine(i: int, budget: int, judge_seconds: float) -> dict[str, Any]:
    """Rulebook i at every player count: the symbolic verdicts against the judge's."""
    from small_rulebooks import generate, text_of

    from cheatdsl.load import compile_rulebook
    from verifier.differential import differ
    data = generate(i)
    with tempfile.TemporaryDirectory(prefix="differential-") as tmp:
        path = Path(tmp) / f"{data['rulebook']}.yaml"
        path.write_text(text_of(data))
        rb, d = compile_rulebook(str(path))
        if rb is None:
            return {"number": i, "error": d.render(), "data": data}
        tables = differ(rb, budget, judge_seconds=judge_seconds)
    return {"number": i, "data": data, "tables": [t.as_json() for t in tables]}


def _child(i: int, budget: int, judge_seconds: float, conn: Any) -> None:
    import signal
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        conn.send(examine(i, budget, judge_seconds))
    except BaseException as exc:  # noqa: BLE001 - a crash of a step is a finding too
        conn.send({"number": i, "error": f"{type(exc).__name__}: {exc}"})
    finally:
        conn.close()


def campaign(start: int, count: int, workers: int, budget: int, timeout: float, log: Any = sys.stderr,
             lines: Any = None) -> list[dict[str, Any]]:
    ctx = multiprocessing.get_context("fork")
    todo = list(range(start, start + count))
    running: dict[int, tuple[Any, Any, float]] = {}
    done: list[dict[str, Any]] = []
    judge_seconds = max(1.0, timeout / 3)
    while todo or running:
        while todo and len(running) < workers:
            i = todo.pop(0)
            parent, child = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_child, args=(i, budget, judge_seconds, child))
            proc.start()
            child.close()
            running[i] = (proc, parent, time.perf_counter() + timeout)
        for i, (proc, parent, deadline) in list(running.items()):
            out = None
            if parent.poll(0):
                try:
                    out = parent.recv()
                except EOFError:
                    out = {"number": i, "error": f"the process ended with status {proc.exitcode}"}
            elif time.perf_counter() > deadline:
                proc.kill()
                out = {"number": i, "killed": True}
            elif not proc.is_alive() and not parent.poll(0):
                out = {"number": i, "error": f"the process ended with status {proc.exitcode}"}
            if out is None:
                continue
            proc.join()
            parent.close()
            del running[i]
            done.append(out)
            report(out, log)
            if lines is not None:
                lines.write(json.dumps(out) + "\n")
                lines.flush()
        time.sleep(0.02)
    return sorted(done, key=lambda r: r["number"])


def report(out: dict[str, Any], log: Any) -> None:
    i = out["number"]
    if out.get("killed"):
        print(f"rulebook {i}: killed at its time limit", file=log)
    if "error" in out:
        print(f"rulebook {i}: error: {out['error'][:400]}", file=log)
    for t in out.get("tables", []):
        for pid, why in t["disagreements"].items():
            print(f"rulebook {i}, {t['players']} players, {pid}: {why[:500]}", file=log)
        for why in t["internal"]:
            print(f"rulebook {i}, {t['players']} players: internal error: {why[:300]}", file=log)


def summary(results: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    from small_rulebooks import coverage
    tables = [t for r in results for t in r.get("tables", [])]
    pairs = [(pid, s, j) for t in tables for pid, (s, j) in t["pairs"].items() if j is not None]
    decided = [p for p in pairs if p[1] in ("proved", "refuted", "not_applicable")]
    by_property: dict[str, int] = {}
    for t in tables:
        for pid in t["disagreements"]:
            by_property[pid] = by_property.get(pid, 0) + 1
    return {
        "rulebooks": len(results),
        "tables": len(tables),
        "judged": sum(1 for t in tables if any(j is not None for _, j in t["pairs"].values())),
        "complete": sum(1 for t in tables if t["judge"].get("complete")),
        "pairs": len(pairs),
        "decided_pairs": len(decided),
        "disagreements": sum(by_property.values()),
        "by_property": by_property,
        "internal": sum(len(t["internal"]) for t in tables) + sum(1 for r in results if "error" in r),
        "killed": sum(1 for r in results if r.get("killed")),
        "seconds": round(seconds, 1),
        "coverage": {k: round(v, 3) for k, v in coverage([r["data"] for r in results if "data" in r]).items()},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2)))
    ap.add_argument("--budget", type=int, default=100_000, help="states the judge explores at most a table")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds a rulebook may take in all")
    ap.add_argument("--lines", help="write each rulebook's result here as a JSON line")
    ap.add_argument("--summarize", metavar="FILE", help="print the closing JSON line of the results in FILE (written "
                    "by --lines, a run stopped part way included) and run nothing")
    args = ap.parse_args(argv)
    if args.summarize:
        with open(args.summarize) as f:
            results = [json.loads(line) for line in f if line.strip()]
        print(json.dumps(summary(results, 0.0)))
        return 0
    workers = max(1, min(args.workers, os.cpu_count() or 1))
    start = time.perf_counter()
    lines = open(args.lines, "a") if args.lines else None
    try:
        results = campaign(args.start, args.count, workers, args.budget, args.timeout, lines=lines)
    finally:
        if lines is not None:
            lines.close()
    print(json.dumps(summary(results, time.perf_counter() - start)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
