"""`cheatdsl sweep SPEC`: simulate (and verify) every cell of a sweep spec, locally or on a Dask cluster."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from .arguments import JOBS, add_format, shown_value, usage, workers_for

HELP = """Run a sweep: every cell of a spec (rulebooks x variations x player counts x bot mixes) simulated
with `simulate` and, where the spec asks, verified with `verify`.

The spec is a small YAML file (docs/sweeps.md; JSON Schema docs/schema/sweep.schema.json):
  sweep: house-rules
  rulebooks: [standard, house.yaml]      # shipped names, or files beside the spec
  variations: each                       # none, each, all, or [[], [counting-down], ...]
  players: [3, 4]                        # or min, all
  bots: [honest, "greedy,honest,random"]
  games: 200
  seed: 0
  verify: true                           # or false, or a list of property ids
  rate: 0                                # or G: rate each cell with G ladder games

Results go to --out DIR (default: sweep-results/NAME in the spec's folder):
  cells/cell-KEY.json   each finished cell, written as it completes
  results.csv           the tidy table: a row per cell, every statistic with its 95% interval, every verdict
  results.parquet       the same table (needs pyarrow: pip install 'cheatdsl[sweep]')
  report.html           the report: tables and charts, one self-contained page

Run the same command again after an interruption (Ctrl-C, a lost worker, a restart): only the cells
with no result file are run. Each cell's seed derives from the sweep's seed and the cell itself, and
game i of a cell from (cell seed, i), so the results are the same whatever --jobs or the cluster.

Local by default (--jobs J processes on this machine); --scheduler ADDRESS runs the cells on a Dask
distributed cluster (`dask scheduler`, `dask worker ADDRESS`; needs pip install 'cheatdsl[sweep]').
A progress bar (games, and cells done) is drawn on standard error when it is a terminal.

Output: a line per cell and a closing tally on standard output; with --format json one object
{"folder", "cells": [row, ...], "failed": {key: reason}, "files": [...]}.

Exit status: 0 every cell has its result; 1 a cell failed (run the command again to retry it);
2 usage error (a bad spec, a rulebook it may not name, Dask missing for --scheduler); 130 interrupted."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("sweep", help="simulate and verify every cell of a sweep spec, locally or on Dask",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("spec", metavar="SPEC", help="the sweep spec (YAML)")
    add_runner(p, "sweep-results/NAME in the spec's folder")
    add_format(p, ("text", "json"))


def add_runner(p: argparse.ArgumentParser, default_out: str) -> None:
    """--out, --jobs and --scheduler, shared with `explore`."""
    p.add_argument("--out", metavar="DIR", help=f"the results folder (default {default_out})")
    p.add_argument("--jobs", "-j", type=JOBS, default=1, metavar="J",
                   help="worker processes on this machine (default 1); the results do not depend on it")
    p.add_argument("--scheduler", metavar="ADDRESS", type=scheduler_address,
                   help="run the cells on the Dask scheduler at ADDRESS (tcp://HOST:8786) instead (default: none, on "
                        "this machine)")
    p.add_argument("--force", action="store_true",
                   help="start even when the work is over 1,000 cells or an estimated hour (the size and the "
                        "estimate are printed first either way)")


SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
_ADDRESS = re.compile(r"(?:(?P<scheme>[a-z]+)://)?"
                      r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]{1,253}):(?P<port>[0-9]{1,5})/?")


def scheduler_address(text: str) -> str:
    """An argparse type: a Dask scheduler's address, [SCHEME://]HOST:PORT, checked before anything runs."""
    found = _ADDRESS.fullmatch(text.strip())
    if found is None or (found["scheme"] or "tcp") not in SCHEMES or not 1 <= int(found["port"]) <= 65535:
        raise argparse.ArgumentTypeError(
            f"expected a scheduler address such as tcp://HOST:8786 (schemes {', '.join(SCHEMES)}; "
            f"port 1 to 65535), found {shown_value(text)}")
    return text.strip()


def run(args: argparse.Namespace) -> int:
    if not args.scheduler:  # a cluster's workers are the cluster's own
        args.jobs = workers_for("sweep", args.jobs)
    from ..diagnostics import Diagnostics
    from ..sweep.spec import read_spec

    d = Diagnostics()
    spec = read_spec(args.spec, d)
    if spec is None:
        print(d.render(), file=sys.stderr)
        return usage("sweep", f"the spec '{args.spec}' cannot be read")
    out = args.out or str(spec.folder / "sweep-results" / spec.name)
    return carry_out("sweep", spec, out, args)


def carry_out(command: str, spec: Any, out: str, args: argparse.Namespace, title: str = "",
              explore: bool = False) -> int:
    """Run the spec into `out` with the runner options; print the cells and the tally."""
    from ..output import OutputError
    from ..sweep import NeedsExtra, SpecError, run_spec
    from ..sweep.size import size_of
    from .progress import Progress

    try:
        size = size_of(spec)
    except SpecError as exc:
        return usage(command, str(exc))
    print(f"cheatdsl {command}: {size.words(args.jobs)}", file=sys.stderr)
    refused = size.too_big(args.jobs)
    if refused is not None and not args.force:
        return usage(command, f"not started: {refused}; run it with --force, or ask for less "
                              "(docs/cli.md, \"Long work\")")
    hook = None
    if explore:
        from ..sweep.explore import save_witnesses
        hook = save_witnesses
    try:
        with Progress(command, 0) as bar:
            finished = run_spec(spec, out, args.jobs, args.scheduler, bar.update,
                                title, hook)
    except (SpecError, NeedsExtra, OutputError) as exc:
        return usage(command, str(exc))
    except KeyboardInterrupt:
        saved = len(list(Path(out, "cells").glob("cell-*.json")))
        print(f"cheatdsl {command}: interrupted; {saved} cell results are saved in {out}: "
              "run the same command to resume", file=sys.stderr)
        return 130
    if not finished.cells:
        return usage(command, "no cell to run: " + ("; ".join(finished.notes) or "the spec asks for none"))
    for note in finished.notes:
        print(f"cheatdsl {command}: note: {note}", file=sys.stderr)
    if finished.parquet_missing:
        print(f"cheatdsl {command}: note: results.parquet not written: Parquet needs pyarrow "
              "(pip install 'cheatdsl[sweep]'); results.csv holds the same table", file=sys.stderr)
    outcome = finished.outcome
    if args.format == "json":
        print(json.dumps({"folder": out, "cells": finished.rows, "failed": outcome.failed,
                          "files": [str(p) for p in finished.written]}, indent=2, ensure_ascii=False))
    elif explore:
        from ..sweep.explore import matrix_text
        print(matrix_text(finished.cells, outcome.results, finished.links, Path(out)))
    else:
        for row in finished.rows:
            print(_line(row, outcome.failed))
    clash = sum(1 for r in finished.rows if r["status"] == "clash")
    print(f"{len(finished.rows)} cells: {outcome.ran} run now, {outcome.reused} already done, {clash} clash, "
          f"{len(outcome.failed)} failed" + ("" if args.format == "json" else f"; results in {out}"),
          file=sys.stderr if args.format == "json" else sys.stdout)
    for key, why in outcome.failed.items():
        print(f"cheatdsl {command}: cell {key} failed: {why}", file=sys.stderr)
    for note in outcome.notes:
        print(f"cheatdsl {command}: note: {note}", file=sys.stderr)
    print(f"wrote {', '.join(str(p) for p in finished.written)}", file=sys.stderr)
    return 0 if finished.complete else 1


def _line(row: dict[str, Any], failed: dict[str, str]) -> str:
    """One cell in a line: what it is, then its headline numbers or why it has none."""
    what = f"{row['rulebook']}{'+' + row['variations'] if row['variations'] else ''}"
    if row["players"] is not None:
        what += f" {row['players']}p"
    if row["games"]:
        what += f" {row['bots']}"
    if row["status"] == "clash":
        return f"{what}: clash: {row['reason']}"
    if row["status"] != "done":
        return f"{what}: failed: {failed.get(row['key'], 'no result')}"
    parts = []
    if "turns_mean" in row:
        parts.append(f"{row['games_played']} games, turns {row['turns_mean']:.1f}, first player wins "
                     f"{row['first_share']:.1%} ({row['first_low']:.1%} to {row['first_high']:.1%})")
    if row.get("rate_games"):
        from ..rate.text import figure_text

        def figure(name: str, form: str) -> str:
            return figure_text({"value": row.get(name), "low": row.get(f"{name}_low"),
                                "high": row.get(f"{name}_high")}, form, "95% ")
        parts.append(f"skill index {figure('skill_index', '{:.2f}')}, first-player advantage between strong "
                     f"bots {figure('first_player_advantage', '{:+.1%}')} ({row['rate_games']} ladder games)")
    refuted = [k.removeprefix("verdict_") for k, v in row.items() if k.startswith("verdict_") and v == "refuted"]
    if any(k.startswith("verdict_") for k in row):
        parts.append("refuted: " + (", ".join(refuted) or "none"))
    return f"{what}: " + "; ".join(parts)
