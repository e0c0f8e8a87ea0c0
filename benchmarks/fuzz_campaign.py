"""A fuzzing campaign against the command line: many generated rulebooks and scenarios, each read by `main()`.

Run: python benchmarks/fuzz_campaign.py [--inputs N] [--workers W] [--out DIR] [--seed S]
Input 0, 1, ... are the hostile files of tests/hostile.py, then the mutations and garbage of
tests/fuzzing.py (input N is the same file on every run with the same seed). Each rulebook is read by
`check` and `fmt`, each scenario by `scenario`, in worker processes, with CHEATDSL_DEBUG=1 so that a bug
surfaces as an exception. Each input is one of:

  accepted        read and compiled (check exit 0) or read and run (a scenario that passed or failed)
  located errors  refused with diagnostics, every one at a line and column of a file
  unlocated       refused without a located diagnostic (should not happen)
  internal error  an exception out of main(), exit 3, a traceback in the output, a usage error, or fmt
                  saying its output reads back differently (target: none)
  timeout         still running after --timeout seconds

Everything is written under the output folder (default: a fresh temporary folder): state.json, the
totals and which chunks of inputs are done, so that running again with the same --out goes on where it
stopped; internal/ and slowest/, each input worth looking at with the command that reproduces it;
work-PID/, where a worker writes the input it is reading (and deletes it).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import os
import resource
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fuzzing import OUTCOMES, FuzzInput, classify, fuzz_input  # noqa: E402
from tests.hostile import CASES  # noqa: E402

MEMORY_CAP = 2 << 30
KEEP_SLOWEST = 5


class _Timeout(BaseException):
    """The input ran past the time allowed."""


def campaign_input(number: int, seed: int) -> FuzzInput:
    """Input `number`: a hostile file first, then generated ones."""
    if number < len(CASES):
        case = CASES[number]
        return FuzzInput(f"hostile: {case.name}", Path(case.filename).suffix, case.command, case.make())
    return fuzz_input(number, seed)


def _on_alarm(signum: int, frame: object) -> None:
    raise _Timeout


def _start_worker(out: str) -> None:
    """Confine a worker: its own folder as working directory, a memory cap, debug mode, an alarm."""
    folder = Path(out) / f"work-{os.getpid()}"
    folder.mkdir(exist_ok=True)
    os.chdir(folder)
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    os.environ["CHEATDSL_DEBUG"] = "1"
    signal.signal(signal.SIGALRM, _on_alarm)


def run_command(argv: list[str], timeout: float) -> tuple[str, str, float]:
    """Run `cheatdsl ARGV` in this process: its outcome, a note on what went wrong, and its CPU seconds."""
    from cheatdsl.cli import main

    out = io.StringIO()
    start = time.process_time()
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            status: object = main(argv)
    except _Timeout:
        return "timeout", f"still running after {timeout} s", time.process_time() - start
    except SystemExit as exc:
        status = exc.code
    except BaseException as exc:  # noqa: BLE001 - any escape is what the campaign looks for
        signal.setitimer(signal.ITIMER_REAL, 0)
        note = "".join(traceback.format_exception(exc)[-12:])
        return "internal error", note, time.process_time() - start
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    seconds = time.process_time() - start
    return (*classify(argv[0], status, out.getvalue()), seconds)


def run_chunk(job: tuple[int, int, int, float, str]) -> dict[str, Any]:
    """Run inputs first..last-1; totals, the slowest inputs and every internal error found."""
    first, last, seed, timeout, out = job
    totals = dict.fromkeys(OUTCOMES, 0)
    slowest: list[dict[str, Any]] = []
    findings: list[dict[str, Any]] = []
    total_cpu = 0.0
    for number in range(first, last):
        made = campaign_input(number, seed)
        path = Path.cwd() / f"input-{number}{made.suffix}"
        path.write_bytes(made.data)
        commands = [["check", str(path)], ["fmt", str(path)]] if made.command == "check" else [["scenario", str(path)]]
        primary, cpu = "accepted", 0.0
        for argv in commands:
            outcome, note, seconds = run_command(argv, timeout)
            cpu += seconds
            if outcome in ("internal error", "unlocated", "timeout"):
                findings.append(_keep(out, "internal", number, made, argv[0], outcome, note))
            if argv[0] != "fmt":
                primary = outcome
            elif outcome in ("internal error", "timeout"):
                primary = max(primary, outcome, key=OUTCOMES.index)
        totals[primary] += 1
        total_cpu += cpu
        slowest.append({"input": number, "how": made.how, "cpu_s": round(cpu, 3), "bytes": len(made.data),
                        "data": made.data, "suffix": made.suffix, "command": made.command})
        slowest = sorted(slowest, key=lambda s: -s["cpu_s"])[:KEEP_SLOWEST]
        path.unlink()
    for entry in slowest:
        entry["file"] = _save(out, "slowest", entry.pop("input"), entry.pop("data"), entry.pop("suffix"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"first": first, "totals": totals, "slowest": slowest, "findings": findings, "cpu_s": total_cpu,
            "peak_mb": round(peak / 1024, 1)}


def _save(out: str, kind: str, number: int, data: bytes, suffix: str) -> str:
    folder = Path(out) / kind
    folder.mkdir(exist_ok=True)
    path = folder / f"input-{number}{suffix}"
    path.write_bytes(data)
    return str(path)


def _keep(out: str, kind: str, number: int, made: FuzzInput, command: str, outcome: str, note: str) -> dict[str, Any]:
    """Save an input worth looking at, with how to reproduce it."""
    path = _save(out, kind, number, made.data, made.suffix)
    Path(path + ".txt").write_text(f"{outcome}: python -m cheatdsl {command} {path}\n{made.how}\n\n{note}\n",
                                   encoding="utf-8")
    return {"input": number, "how": made.how, "outcome": outcome, "command": f"{command} {path}",
            "note": note.strip().splitlines()[-1][:300] if note.strip() else ""}


def _load_state(path: Path, args: argparse.Namespace) -> dict[str, Any]:
    if path.is_file():
        state: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        if state["seed"] != args.seed or state["chunk"] != args.chunk:
            sys.exit(f"{path} was made with --seed {state['seed']} --chunk {state['chunk']}; use the same")
        return state
    return {"seed": args.seed, "chunk": args.chunk, "done": [], "totals": dict.fromkeys(OUTCOMES, 0),
            "slowest": [], "findings": [], "peak_mb": 0.0, "cpu_s": 0.0}


def _save_state(path: Path, state: dict[str, Any]) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(state, indent=1), encoding="utf-8")
    temporary.replace(path)


def summary(state: dict[str, Any]) -> str:
    """The campaign's figures in words."""
    totals = state["totals"]
    tried = sum(totals.values())
    slow = state["slowest"][0] if state["slowest"] else None
    lines = [f"inputs tried: {tried:,}"] + [f"  {name}: {totals[name]:,}" for name in OUTCOMES]
    if slow:
        lines.append(f"slowest input: {slow['cpu_s']:.2f} s CPU ({slow['how']}, {slow['bytes']:,} bytes, {slow['file']})")
    lines.append(f"largest worker peak memory: {state['peak_mb']:.0f} MB")
    lines.append(f"CPU time in workers: {state['cpu_s']:.0f} s")
    for finding in state["findings"][:20]:
        lines.append(f"  {finding['outcome']}: {finding['command']} ({finding['how']}): {finding['note']}")
    return "\n".join(lines)


def main() -> None:
    """Run (or go on with) a campaign and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=100_000, help="inputs to try in all (default 100,000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default=None, help="output folder; give an earlier run's to go on with it")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--chunk", type=int, default=250, help="inputs a worker takes at a time")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds before an input counts as a hang")
    parser.add_argument("--json", action="store_true", help="print the state file's figures as JSON at the end")
    args = parser.parse_args()
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="cheatdsl-fuzz-"))
    out.mkdir(parents=True, exist_ok=True)
    state_path = out / "state.json"
    state = _load_state(state_path, args)
    done = set(state["done"])
    jobs = [(first, min(first + args.chunk, args.inputs), args.seed, args.timeout, str(out))
            for first in range(0, args.inputs, args.chunk) if first not in done]
    print(f"output folder: {out}; {len(jobs)} chunks to run", flush=True)
    started = time.monotonic()
    with multiprocessing.Pool(args.workers, initializer=_start_worker, initargs=(str(out),), maxtasksperchild=20) as pool:
        for result in pool.imap_unordered(run_chunk, jobs):
            for name, count in result["totals"].items():
                state["totals"][name] += count
            state["slowest"] = sorted(state["slowest"] + result["slowest"], key=lambda s: -s["cpu_s"])[:KEEP_SLOWEST]
            state["findings"] += result["findings"]
            state["peak_mb"] = max(state["peak_mb"], result["peak_mb"])
            state["cpu_s"] += result["cpu_s"]
            state["done"].append(result["first"])
            _save_state(state_path, state)
            tried = sum(state["totals"].values())
            print(f"{tried:,} inputs, {state['totals']['internal error']} internal errors, "
                  f"{time.monotonic() - started:.0f} s", flush=True)
    for folder in out.glob("work-*"):
        with contextlib.suppress(OSError):
            folder.rmdir()  # only when empty: an input left behind stays for a look
    print(summary(state))
    if args.json:
        print(json.dumps({k: v for k, v in state.items() if k != "done"}, indent=1))


if __name__ == "__main__":
    main()
