"""`cheatdsl explore RULEBOOK`: every combination of its variations (and player counts) through the verifier."""

from __future__ import annotations

import argparse

from ..properties import PROPERTY_IDS
from .arguments import add_format, shown_value, usage, whole_number, workers_for
from .sweep import add_runner, carry_out

HELP = """Verify every combination of a rulebook's variations: which combinations break which property.

Each combination (the rulebook as written, each variation alone, every pair, ... all of them) is
verified like `cheatdsl verify -V A -V B RULEBOOK`; with --players, at each count named (or every
count the rulebook allows, --players all) as a row of its own, otherwise at the counts the verifier
chooses. Combinations the checker refuses (variations that name each other in `conflicts:`) are
listed with its reason and not verified.

Output: per combination the properties it breaks, each with its summary and the first witness; the
witnesses are written as scenario files in DIR/witnesses/ (`cheatdsl scenario FILE` replays one).
DIR (--out, default explore-results/NAME) also holds cells/ (a result file per combination, so an
interrupted explore resumes where it stopped), results.csv, results.parquet and report.html (the
verdict matrix). --jobs and --scheduler run combinations side by side, as in `cheatdsl sweep`.

Exit status: 0 every combination has its verdicts; 1 a combination failed (run again to retry);
2 usage error; 130 interrupted."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("explore", help="verify every combination of a rulebook's variations", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="RULEBOOK", help="a rulebook file or a shipped profile's name")
    p.add_argument("--players", "-n", type=_players, metavar="N,M|all",
                   help="verify at these player counts, a row each (all: every count the rulebook allows; default: the "
                        "counts the verifier chooses)")
    p.add_argument("--property", "-p", action="append", choices=PROPERTY_IDS, metavar="ID", dest="properties",
                   help="verify only this property (repeatable): " + ", ".join(PROPERTY_IDS))
    add_runner(p, "explore-results/NAME")
    add_format(p, ("text", "json"))


def _players(text: str) -> str | tuple[int, ...]:
    if text.strip() == "all":
        return "all"
    numbers = [whole_number(t) for t in text.split(",")]
    if None in numbers or not all(1 <= n <= 1_000 for n in numbers):  # type: ignore[operator]
        raise argparse.ArgumentTypeError("expected player counts from 1 to 1,000 such as 3,4 or all, "
                                         f"found {shown_value(text)}")
    counts = tuple(sorted(set(numbers)))  # type: ignore[type-var]
    return counts


def run(args: argparse.Namespace) -> int:
    if not args.scheduler:  # a cluster's workers are the cluster's own
        args.jobs = workers_for("explore", args.jobs)
    from ..sweep.explore import explore_spec

    if args.file == "-":
        return usage("explore", "explore reads a rulebook file or a shipped profile, not standard input")
    ids = tuple(p for p in PROPERTY_IDS if p in args.properties) if args.properties else PROPERTY_IDS
    spec = explore_spec(args.file, args.players, ids)
    out = args.out or f"explore-results/{spec.name}"
    return carry_out("explore", spec, out, args, title=f"Explore {args.file}", explore=True)
