"""A fuzzing campaign against one surface of cheatdsl: rulebooks, scenarios, sweep specs, command lines,
the language server's byte stream or the practice table's HTTP requests.

Run: python benchmarks/fuzz_campaign.py --surface {rulebook,scenario,sweep,lsp,serve,cli}
         [--inputs N] [--workers W] [--out DIR] [--seed S] [--timeout SECONDS]

rulebook, scenario: input 0, 1, ... are the hostile files of tests/hostile.py for that surface, then the
  mutations and garbage of tests/fuzzing.py; a rulebook is read by `check` and `fmt`, a scenario by
  `scenario`, through main() in worker processes with CHEATDSL_DEBUG=1, so a bug surfaces as an exception.
sweep: a spec of tests/surfaces.py (fields dropped, repeated, renamed, given awkward values; bytes cut
  and spliced), run by `sweep SPEC --out DIR` (at most 5 games a cell: the campaign looks for crashes
  and hangs, not for long runs).
cli: a command line of tests/surfaces.py: a command, rulebooks, options with awkward values.
lsp: a stretch of byte stream (good and bad frames, stray bytes, requests about files never opened,
  documents with mutated text, positions anywhere) sent to one `cheatdsl lsp` per worker, then a probe
  request that must be answered; a server that ends or stops answering is started again.
serve: an HTTP request (a method, a path, a body, often malformed) to one `cheatdsl serve` per worker,
  listening on 127.0.0.1 only, each with a --timeout bound.

Input N is the same on every run with the same seed. `python benchmarks/fuzz_campaign.py --table DIR...`
prints the table of docs/fuzzing.md from campaigns' output folders; `--recheck DIR` runs each timeout
of a campaign again alone (300 s bound) to tell slow work on a loaded machine from a hang. Each input
is one of:

  accepted        read and run (exit 0; a scenario that passed or failed; an HTTP answer under 400;
                  a language-server probe answered)
  refused         a clear refusal: exit 1 or 2 (sweep, cli), an HTTP 4xx (serve)
  located errors  refused with diagnostics, every one at a line and column of a file (rulebook, scenario)
  unlocated       refused without a located diagnostic (should not happen)
  internal error  an exception out of main(), exit 3, a traceback in the output, an HTTP 5xx, a
                  language-server error with a traceback or a server that died (target: none)
  timeout         still running, or no answer, after --timeout seconds (default 10)

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
import shutil
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fuzzing import FuzzInput, classify, fuzz_input  # noqa: E402
from tests.hostile import CASES  # noqa: E402
from tests.surfaces import (  # noqa: E402
    LspTarget,
    ServeTarget,
    SurfaceInput,
    classify_exit,
    command_line,
    lsp_bytes,
    serve_request,
    sweep_spec,
)

SURFACES = ("rulebook", "scenario", "sweep", "lsp", "serve", "cli")
OUTCOMES = ("accepted", "refused", "located errors", "unlocated", "internal error", "timeout")

MEMORY_CAP = 2 << 30
KEEP_SLOWEST = 5


class _Timeout(BaseException):
    """The input ran past the time allowed."""


def campaign_input(number: int, seed: int, surface: str = "rulebook") -> FuzzInput:
    """Input `number` of a rulebook or scenario campaign: the surface's hostile files first, then generated ones."""
    command = "check" if surface == "rulebook" else "scenario"
    cases = [case for case in CASES if case.command == command]
    if number < len(cases):
        case = cases[number]
        return FuzzInput(f"hostile: {case.name}", Path(case.filename).suffix, case.command, case.make())
    return fuzz_input(number, seed, command)


MAKERS = {"sweep": sweep_spec, "cli": command_line, "lsp": lsp_bytes, "serve": serve_request}


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


def run_command(argv: list[str], timeout: float, plain_exit: bool = False) -> tuple[str, str, float, object]:
    """Run `cheatdsl ARGV` in this process: its outcome, a note on what went wrong, its CPU seconds and
    its exit status (`plain_exit`: judged by the exit status alone, as classify_exit does)."""
    from cheatdsl.cli import main

    out = io.StringIO()
    start = time.process_time()
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            status: object = main(argv)
    except _Timeout:
        return "timeout", f"still running after {timeout} s", time.process_time() - start, "hang"
    except SystemExit as exc:
        status = exc.code
    except BaseException as exc:  # noqa: BLE001 - any escape is what the campaign looks for
        signal.setitimer(signal.ITIMER_REAL, 0)
        note = "".join(traceback.format_exception(exc)[-12:])
        return "internal error", note, time.process_time() - start, "exception"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    seconds = time.process_time() - start
    judged = classify_exit(status, out.getvalue()) if plain_exit else classify(argv[0], status, out.getvalue())
    return (*judged, seconds, status)


def run_surface_chunk(job: tuple[int, int, int, float, str, str]) -> dict[str, Any]:
    """Run inputs first..last-1 of a sweep, cli, lsp or serve campaign."""
    first, last, seed, timeout, out, surface = job
    totals = dict.fromkeys(OUTCOMES, 0)
    exits: dict[str, int] = {}
    findings: list[dict[str, Any]] = []
    slowest: list[dict[str, Any]] = []
    target: Any = LspTarget() if surface == "lsp" else ServeTarget() if surface == "serve" else None
    started = time.process_time()
    try:
        for number in range(first, last):
            made: SurfaceInput = MAKERS[surface](number, seed)
            clock = time.monotonic()
            if target is not None:
                outcome, status, note = target.run(made, timeout)
            else:
                if surface == "sweep":
                    spec = Path.cwd() / f"spec-{number}.yaml"
                    spec.write_bytes(made.data)
                    argv = ["sweep", str(spec), "--out", "sweep-out"]
                else:
                    argv = list(made.argv)
                outcome, note, _, status = run_command(argv, timeout, plain_exit=True)
                if outcome == "timeout":  # what the interrupted command started must not run into the next input
                    for child in multiprocessing.active_children():
                        child.kill()
                for leftover in ("sweep-out", "explore-out"):
                    shutil.rmtree(leftover, ignore_errors=True)
                if surface == "sweep":
                    spec.unlink()
            took = time.monotonic() - clock
            totals[outcome] += 1
            exits[str(status)] = exits.get(str(status), 0) + 1
            shown = " ".join(made.argv) if made.argv else made.how
            if outcome in ("internal error", "timeout", "unlocated"):
                path = _save(out, "internal", number, made.data, ".bin") if made.data else ""
                findings.append({"input": number, "how": shown, "outcome": outcome, "command": path or shown,
                                 "note": note.strip().splitlines()[-1][:300] if note.strip() else ""})
            slowest.append({"input": number, "how": shown[:200], "cpu_s": round(took, 3), "bytes": len(made.data),
                            "file": ""})
            slowest = sorted(slowest, key=lambda s: -s["cpu_s"])[:KEEP_SLOWEST]
    finally:
        if target is not None:
            target.close()
    peak_kb = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, getattr(target, "peak_kb", 0))
    return {"first": first, "totals": totals, "exits": exits, "slowest": slowest, "findings": findings,
            "cpu_s": time.process_time() - started, "peak_mb": round(peak_kb / 1024, 1)}


def run_chunk(job: tuple[int, int, int, float, str, str]) -> dict[str, Any]:
    """Run inputs first..last-1; totals, the slowest inputs and every internal error found."""
    first, last, seed, timeout, out, surface = job
    if surface in MAKERS:
        return run_surface_chunk(job)
    totals = dict.fromkeys(OUTCOMES, 0)
    exits: dict[str, int] = {}
    slowest: list[dict[str, Any]] = []
    findings: list[dict[str, Any]] = []
    total_cpu = 0.0
    for number in range(first, last):
        made = campaign_input(number, seed, surface)
        path = Path.cwd() / f"input-{number}{made.suffix}"
        path.write_bytes(made.data)
        commands = [["check", str(path)], ["fmt", str(path)]] if made.command == "check" else [["scenario", str(path)]]
        primary, cpu = "accepted", 0.0
        for argv in commands:
            outcome, note, seconds, status = run_command(argv, timeout)
            cpu += seconds
            if argv[0] != "fmt":
                exits[str(status)] = exits.get(str(status), 0) + 1
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
    return {"first": first, "totals": totals, "exits": exits, "slowest": slowest, "findings": findings,
            "cpu_s": total_cpu, "peak_mb": round(peak / 1024, 1)}


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
        if (state["seed"], state["chunk"], state.get("surface")) != (args.seed, args.chunk, args.surface):
            sys.exit(f"{path} was made with --surface {state.get('surface')} --seed {state['seed']} "
                     f"--chunk {state['chunk']}; use the same")
        return state
    return {"surface": args.surface, "seed": args.seed, "chunk": args.chunk, "done": [],
            "totals": dict.fromkeys(OUTCOMES, 0), "exits": {}, "slowest": [], "findings": [], "peak_mb": 0.0,
            "cpu_s": 0.0}


def _save_state(path: Path, state: dict[str, Any]) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(state, indent=1), encoding="utf-8")
    temporary.replace(path)


def summary(state: dict[str, Any]) -> str:
    """The campaign's figures in words."""
    totals = state["totals"]
    tried = sum(totals.values())
    slow = state["slowest"][0] if state["slowest"] else None
    lines = [f"surface {state['surface']}: inputs tried: {tried:,}"] + \
        [f"  {name}: {totals[name]:,}" for name in OUTCOMES]
    lines.append("exit codes: " + ", ".join(f"{k}: {v:,}" for k, v in sorted(state["exits"].items())))
    if slow:
        lines.append(f"slowest input: {slow['cpu_s']:.2f} s CPU ({slow['how']}, {slow['bytes']:,} bytes, {slow['file']})")
    lines.append(f"largest worker peak memory: {state['peak_mb']:.0f} MB")
    lines.append(f"CPU time in workers: {state['cpu_s']:.0f} s")
    for finding in state["findings"][:20]:
        lines.append(f"  {finding['outcome']}: {finding['command']} ({finding['how']}): {finding['note']}")
    return "\n".join(lines)


def table(folders: list[str]) -> str:
    """The Markdown table of docs/fuzzing.md from campaigns' output folders (their state.json)."""
    lines = ["| surface | inputs | exit codes (or answers) | internal errors | hangs over the timeout | "
             "peak memory |", "|---|---:|---|---:|---:|---:|"]
    for folder in folders:
        state = json.loads((Path(folder) / "state.json").read_text(encoding="utf-8"))
        totals = state["totals"]
        exits = ", ".join(f"{k}: {v:,}" for k, v in sorted(state.get("exits", {}).items()))
        lines.append(f"| {state.get('surface', 'rulebook')} | {sum(totals.values()):,} | {exits} | "
                     f"{totals['internal error'] + totals.get('unlocated', 0):,} | {totals['timeout']:,} | "
                     f"{state['peak_mb']:.0f} MB |")
    return "\n".join(lines)


def recheck(folder: str, bound: float = 300.0) -> str:
    """Each timeout of a campaign run again alone, as a process of its own with `bound` seconds: whether
    it was slow work on a loaded machine (it ends, with its exit status and time) or a hang (it does not)."""
    import shlex
    import subprocess
    state = json.loads((Path(folder) / "state.json").read_text(encoding="utf-8"))
    lines = []
    for finding in state["findings"]:
        if finding["outcome"] != "timeout" or state.get("surface") in ("lsp", "serve"):
            continue
        command = finding["command"]
        with tempfile.TemporaryDirectory(prefix="cheatdsl-recheck-") as tmp:
            argv = (["sweep", command, "--out", str(Path(tmp) / "out")] if command.endswith(".bin")
                    else shlex.split(command))
            argv = [str(Path(tmp) / a) if a in ("explore-out", "sweep-out") else a for a in argv]
            started = time.monotonic()
            try:
                done = subprocess.run([sys.executable, "-m", "cheatdsl", *argv], cwd=tmp, capture_output=True,
                                      timeout=bound, env={**os.environ, "PYTHONPATH": str(ROOT)},
                                      stdin=subprocess.DEVNULL)
                result = f"ended with exit status {done.returncode} in {time.monotonic() - started:.1f} s"
            except subprocess.TimeoutExpired:
                result = f"still running after {bound:.0f} s: a hang"
        lines.append(f"input {finding['input']} ({' '.join(argv)[:100]}): {result}")
    return "\n".join(lines) or "no timeouts"


def main() -> None:
    """Run (or go on with) a campaign and print its figures."""
    if sys.argv[1:2] == ["--table"]:
        print(table(sys.argv[2:]))
        return
    if sys.argv[1:2] == ["--recheck"]:
        print(recheck(sys.argv[2]))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--surface", choices=SURFACES, default="rulebook", help="what to fuzz (default rulebook)")
    parser.add_argument("--inputs", type=int, default=20_000, help="inputs to try in all (default 20,000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default=None, help="output folder; give an earlier run's to go on with it")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--chunk", type=int, default=250, help="inputs a worker takes at a time")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds before an input counts as a hang")
    parser.add_argument("--json", action="store_true", help="print the state file's figures as JSON at the end")
    args = parser.parse_args()
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="cheatdsl-fuzz-"))
    out.mkdir(parents=True, exist_ok=True)
    state_path = out / "state.json"
    state = _load_state(state_path, args)
    done = set(state["done"])
    jobs = [(first, min(first + args.chunk, args.inputs), args.seed, args.timeout, str(out), args.surface)
            for first in range(0, args.inputs, args.chunk) if first not in done]
    print(f"output folder: {out}; {len(jobs)} chunks to run", flush=True)
    started = time.monotonic()
    with multiprocessing.Pool(args.workers, initializer=_start_worker, initargs=(str(out),), maxtasksperchild=20) as pool:
        for result in pool.imap_unordered(run_chunk, jobs):
            for name, count in result["totals"].items():
                state["totals"][name] += count
            for name, count in result["exits"].items():
                state["exits"][name] = state["exits"].get(name, 0) + count
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
