"""`cheatdsl compare A B ...`: rulebooks side by side, a column per rulebook, a row per rule dimension."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from .arguments import UsageError as ArgumentError
from .arguments import GAMES, PLAYERS, add_format, add_rulebooks, add_variation, rulebook_arguments, seed, usage

HELP = """Compare rulebooks side by side.

One table: a column per rulebook, a row per rule dimension of the rules catalogue (players, deck,
deal, what is claimed, required claim, cards per play, count honesty, passing, challenges, penalty,
who plays next, sets, winning and ending), each in plain words. Rows on which the rulebooks differ
are marked with ≠ (highlighted in HTML, "differs": true in JSON); a figure measured by games (the
statistics of --simulate, the ratings of --rate) only where some two rulebooks' figures differ beyond
chance (the 95% interval of their difference leaves out 0), and one sentence leading the statistics
says which do.

Below the rules: the verifier's verdicts side by side (from `cheatdsl verify --format json`, run in a
child process; "verifier unavailable" when it cannot be run, or skipped with --no-verify), and
with --simulate G the statistics of G games per rulebook between honest bots, as `cheatdsl simulate`
plays them: turns per game, unfinished games, wins by turn order (first to play, second, ...),
challenges and how many caught a lie, forced bluffs, cards at a pickup, each share with its 95%
interval; in HTML also three inline SVG charts (turns per game, wins by turn order, challenge
outcomes). Every rulebook sits at one player count they all allow, the nearest to 4, unless
--players says which; --seed fixes the games, so the same seed gives the same numbers.

Formats: text (fits 100 columns; many rulebooks are split into several tables), md (Markdown),
html (one self-contained page: inline CSS and SVG, nothing fetched), json (or --json):
  {"rulebooks": [{"name", "rulebook", "title", "path", "variations"}, ...],
   "rules": [{"key", "label", "cells": [one per rulebook], "differs"}, ...],
   "verdicts": {"title", "note", "rows": [...], "data": [...]},
   "statistics": {"title", "note", "findings": [sentence, ...], "rows": [...], "data": [...]}}
where each "data" entry of "statistics" is one rulebook's dict as `cheatdsl simulate --format json`
prints it.

--variation NAME switches NAME on in every rulebook that offers it. A folder stands for the
rulebooks in it; `-` reads one from standard input. A progress bar is drawn on standard error
when it is a terminal and the comparison takes over a second (the verifier, each rulebook simulated).

Exit status: 0 compared; 1 a rulebook has errors (printed like `cheatdsl check`, nothing compared);
2 usage error (a variation no rulebook offers, a player count a rulebook does not allow, an output
file that cannot be written, a folder with no rulebook)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("compare", help="compare rulebooks side by side", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rulebooks(p)
    add_variation(p, "switch a named variation on in every rulebook that offers it (repeatable)")
    p.add_argument("--simulate", type=GAMES, metavar="G",
                   help="simulate G games per rulebook and compare statistics (default: none, no simulation)")
    p.add_argument("--rate", type=GAMES, metavar="G",
                   help="play a ladder of G games of bots per rulebook (`cheatdsl rate`) and compare skill index, "
                        "seats and length (default: none, no ladder)")
    p.add_argument("--seed", "-s", type=seed, default=0, metavar="S",
                   help="with --simulate or --rate: the games' seed (default 0)")
    p.add_argument("--players", "-n", type=PLAYERS, metavar="N",
                   help="with --simulate or --rate: seat N players at every rulebook (default: 4 where every rulebook "
                        "allows it, else the fewest they all allow, else each rulebook's own: 4 or its fewest)")
    add_format(p, ("text", "md", "html", "json"))
    p.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of standard output")
    p.add_argument("--no-verify", action="store_true", help="leave the verifier's verdicts out")


def run(args: argparse.Namespace) -> int:
    from ..compare import page, statistics, text, verdicts
    from ..compare.grid import Comparison, as_json, columns_for, rules_section
    from ..compare.inputs import UsageError, load
    from ..properties import PROPERTY_IDS
    from .progress import Progress

    try:
        files = rulebook_arguments(args.files)
        loaded = load(files, args.variation)
    except (UsageError, ArgumentError) as exc:
        return usage("compare", str(exc))
    if not loaded.ok:
        loaded.report()
        return 1
    rulebooks = loaded.rulebooks
    try:
        seats = statistics.seats_for(rulebooks, args.players)
    except statistics.TableSizeError as exc:
        return usage("compare", str(exc))
    columns = columns_for(rulebooks, loaded.requested)
    sections = [rules_section(rulebooks)]
    # The bar counts the verifier's properties, then the games (simulated, then rated). The verifier runs
    # first and alone: its workers are forked from this process, never while another thread runs.
    checks = 0 if args.no_verify else len(PROPERTY_IDS) * len(rulebooks)
    steps = checks + ((args.simulate or 0) + (args.rate or 0)) * len(rulebooks)
    with Progress("comparing", steps) as bar:
        if args.no_verify:
            sections.append(verdicts.section(None, "verifier not run (--no-verify)"))
        else:
            def checked(done: int, total: int, label: str) -> None:
                bar.update(min(done, checks), label=f"verifying {label}" if label else "verifying")
            data, note = verdicts.collect(files, loaded.requested, progress=checked)
            sections.append(verdicts.section(data, note))

        def games_done(before: int, games: int, doing: str) -> Callable[[int, str, int], None]:
            def update(i: int, name: str, done: int) -> None:
                bar.update(before + i * games + min(done, games), label=f"{doing} {name}")
            return update

        stats = None
        if args.simulate:
            stats = statistics.collect(rulebooks, args.simulate, args.seed, seats,
                                       progress=games_done(checks, args.simulate, "simulating"))
        rated = None
        if args.rate:
            from ..compare import ratings
            rated = ratings.collect(rulebooks, args.rate, args.seed, seats,
                                    progress=games_done(checks + (args.simulate or 0) * len(rulebooks), args.rate,
                                                        "rating"))
        bar.update(steps, label="done")
        if stats is not None:
            sections.append(statistics.section(columns, stats))
        if rated is not None:
            sections.append(ratings.section(columns, rated))
    comparison = Comparison(columns, tuple(sections))
    if args.format == "json":
        output = json.dumps(as_json(comparison), indent=2, ensure_ascii=False) + "\n"
    elif args.format == "md":
        output = text.markdown(comparison)
    elif args.format == "html":
        output = page.render(comparison)
    else:
        output = text.render(comparison)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(output)
        except OSError as exc:
            print(f"cheatdsl compare: error: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(output)
    return 0
