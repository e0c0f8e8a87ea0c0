"""`cheatdsl verify RULEBOOK...`: prove or refute each rulebook's properties with Z3."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import TYPE_CHECKING, Any

from ..model import Rulebook
from ..profiles import shown_path
from ..properties import PROPERTY_IDS
from ..scenario.files import is_scenario_file
from .arguments import (
    PLAYERS,
    SEARCHES,
    SEARCH_EFFORT,
    STATE_BUDGET,
    STDIN,
    TIME_LIMIT,
    UsageError,
    add_format,
    add_rulebooks,
    add_variation,
    rulebook_arguments,
    unknown_variation,
    usage,
)

if TYPE_CHECKING:
    from verifier.report import RulebookReport

HELP = """Prove or refute properties of rulebooks with the Z3 solver.

Each property gets one verdict:
  proved          the property holds (at every player count checked)
  refuted         it fails; details carry a witness (the player counts, seat, rank or rules)
  bounded         no counterexample up to depth K, and no more than that is claimed
  unknown         the solver could not decide (its reason is given); never counted as proved
  not_applicable  the property does not arise under these rules

The properties of the transition system (card-conservation, discards, no-deadlock, turn-order,
termination, winner, winnability, challenge-resolution) are checked on a Z3 encoding of the game
generated from the rulebook; their counterexamples and witnesses are plays the interpreter has
replayed. Each is printed under its property in the game's words; with --save-witnesses DIR each
is written as a scenario file (run it with `cheatdsl scenario FILE`). With --certificates DIR, every
property proved by induction is written as SMT-LIB 2 obligations (each must answer unsat) with a
manifest.json, for another solver to re-check (docs/soundness.md).

Output (text, fits 100 columns): per rulebook a heading `PATH: TITLE, MIN..MAX players`, then
per property a line `PROPERTY  VERDICT  [FAILS ...]` with the summary wrapped under it, and a
closing line `N rulebooks verified: M problems` listing the problems. Where the verdict depends on
the player count, the worst verdict is shown with the player counts that have it. With
--format md: the properties and a table of verdicts as Markdown (docs/properties.md). With
--format json (or --json) the output is one object
  {"rulebooks": [{"path", "rulebook", "players", "variations",
                  "results": [{"id", "verdict", "summary", "details"}, ...],
                  "expectations": [{"id", "expected", "verdict", "status", "at"}, ...],
                  "problems": [...],
                  "warnings": [{"code", "rule", "at", "players", "message", "hint"}, ...]}, ...],
   "exit_status": N}
A rule the verifier shows can never fire (W506: a `passing.when` no turn of any game meets, from the
invariants proved of every game) is a warning under its rulebook, located, with a hint; so is a call
that does not see the whole play, where a call on a claim past the cards is not sure to win (W507,
on `challenge.reveal: top_card` or a Force call's `test: hand`). Neither changes the exit status.
A rulebook that does not compile is listed with "error" and its diagnostics go to stderr.
A house rule (a file with `extends:`) is judged against its base: the base is verified too, at the
same player counts, and a verdict as in the base is no problem (`[as in standard]`), one better is
marked so, and one worse than the base's (proved there, refuted or unknown here) fails; the file's
own `expect:` comes first (`expect: inherit` takes the base's expectations as the file's own). The
JSON gives each property beside its base's under "against_base".
A scenario file given among the rulebooks is skipped with a one-line note on stderr.
A progress bar is drawn on standard error when it is a terminal and the run takes over a second.

Exit status:
  0  no verdict contradicts the rulebook's `expect:` section, no property the rulebook
     does not expect to be refuted is refuted (in a house rule: none is worse than in its base)
  1  an expectation failed, a property was refuted unexpectedly, or a rulebook did not compile.
     An expectation is met by the same verdict (`holds`/`fails` mean proved/refuted; a
     proof also meets `bounded`); one on a property not implemented yet is pending and
     changes nothing; with --property, expectations on other properties are not checked.
  2  usage error (unknown property or variation, --players outside a rulebook's range)
  3  internal error: a check raised an exception (its verdict is shown as `error`), a bug to report"""


# verifier.properties.settings.HEAVY_SECONDS, named here so that --help does not load Z3 (a test keeps the two equal)
TIME_LIMIT_DEFAULT = 320.0
# verifier.properties.judging's budgets and verifier.exhaustive.AUTO_DECK, likewise (a test keeps them equal)
AUTO_BUDGET = 100_000
FORCED_BUDGET = 1_000_000
AUTO_DECK = 16


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("verify", help="prove or refute rulebook properties with Z3", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rulebooks(p)
    p.add_argument("--property", "-p", action="append", choices=PROPERTY_IDS, metavar="ID", dest="properties",
                   help="verify only this property (repeatable): " + ", ".join(PROPERTY_IDS))
    p.add_argument("--players", "-n", type=PLAYERS, metavar="N",
                   help="verify at this player count only (default: every count the rulebook allows)")
    add_variation(p)
    add_format(p, ("text", "json", "md"), aliases=(("--markdown", "md"),))
    p.add_argument("--save-witnesses", metavar="DIR",
                   help="write every counterexample and witness as a scenario file in DIR")
    p.add_argument("--force", action="store_true",
                   help="with --save-witnesses: overwrite scenario files that exist (kept otherwise)")
    p.add_argument("--certificates", metavar="DIR",
                   help="write every property proved by induction as SMT-LIB 2 obligations (each must answer unsat) "
                        "with a manifest.json in DIR, for a second solver to re-check (docs/soundness.md)")
    p.add_argument("--searches", type=SEARCHES, metavar="N",
                   help="counterexample searches per property and rulebook, at the smallest player counts that "
                        "need one (default 1); where none is made a failed induction is unknown, never a pass")
    p.add_argument("--search-effort", type=SEARCH_EFFORT, metavar="X",
                   help="scale the resource limit of every counterexample search (default 1; 4 searches deeper)")
    p.add_argument("--time-limit", type=TIME_LIMIT, metavar="SECONDS",
                   help=f"the wall-clock seconds a rulebook's heavy checks may take together, from 1 to 86400 "
                        f"(default {TIME_LIMIT_DEFAULT:g}); a property still running then is cut short and "
                        "reported unknown, saying so")
    judge = p.add_mutually_exclusive_group()
    judge.add_argument("--exhaustive", action="store_const", const="always", default="auto",
                       help="decide the properties of play with the exhaustive judge at every player count: every "
                            "state reachable from every deal, stepped by the interpreter (docs/soundness.md), "
                            "within --exhaustive-budget states a count. Without it the judge runs where the deck "
                            f"has at most {AUTO_DECK} cards and the deals are few, within {AUTO_BUDGET:,} states. "
                            "Its verdicts say \"decided over all N states from M deals\"; a search stopped by its "
                            "budget decides only what it met (a game that refutes)")
    judge.add_argument("--no-exhaustive", action="store_const", const="never", dest="exhaustive",
                       help="the symbolic verifier alone, even where the judge could decide")
    p.add_argument("--exhaustive-budget", type=STATE_BUDGET, metavar="STATES",
                   help=f"the most states the judge explores at one player count, from 1 to 100,000,000 (default "
                        f"{AUTO_BUDGET:,} in auto, {FORCED_BUDGET:,} with --exhaustive); about 0.5 KB each")
    p.add_argument("--engine", choices=("auto", "python"), default="auto",
                   help="auto (default): where the verifier's games played by bots on the interpreter show no "
                        "stuck game or no win for some seat, play more on the compiled engine when it plays the "
                        "rules (each game it shows is replayed by the interpreter); python: the interpreter's only")


def dropped_note(shown: str, rulebook: Rulebook) -> str:
    """One line naming the base rulebook's expectations a house rule did not take over."""
    said = ", ".join(e.property for e in rulebook.dropped_expectations)
    base = shown_path(rulebook.chain[1]) if len(rulebook.chain) > 1 else "its base"
    return textwrap.fill(f"{shown}: the expectations of {base} are not judged here, as a house rule does not "
                         f"take them over ({said}); write `expect: inherit` to keep them, or restate those "
                         "that still hold", 100, subsequent_indent="  ", break_on_hyphens=False)


def base_request(rulebook: Rulebook, asked: tuple[str, ...] | None, counts: tuple[int, ...] | None) -> Any:
    """The request that verifies a house rule's base (`extends:`) as it stands, at the house rule's player counts
    the base allows, for the properties asked; None for a rulebook that extends nothing, a base that does not
    compile, or no count in common."""
    from verifier.api import Request

    from ..load import compile_rulebook
    if len(rulebook.chain) < 2:
        return None
    base, d = compile_rulebook(rulebook.chain[1], (), lints=False)
    if base is None:
        return None
    allowed = set(base.players.counts())
    common = tuple(n for n in (counts or tuple(rulebook.players.counts())) if n in allowed)
    if not common:
        return None
    return Request(base, asked, common)


def run(args: argparse.Namespace) -> int:
    from verifier.api import Caches, Request, Settings, dead_rules, verify_many
    from verifier.properties.firing import unsure_calls
    from verifier.report import Report, RulebookReport, save_witnesses

    from ..simulate.engine import Engine

    given = {"searches": args.searches, "effort": args.search_effort, "time_limit": args.time_limit}
    from verifier.properties.judging import Judging, Mode, states_memory_holds
    mode = Mode(args.exhaustive)
    budget = args.exhaustive_budget or (FORCED_BUDGET if mode is Mode.ALWAYS else AUTO_BUDGET)
    holds = states_memory_holds()
    if holds is not None and budget > holds:
        print(f"verify: --exhaustive-budget {budget:,} states is more than half the free memory holds; "
              f"{holds:,} states it is", file=sys.stderr)
        budget = holds
    settings = Settings(**{name: value for name, value in given.items() if value is not None},
                        engine=Engine(args.engine), judging=Judging(mode, budget))

    from ..load import compile_rulebook
    from .progress import Progress

    try:
        files = rulebook_arguments(args.files)
    except UsageError as exc:
        return usage("verify", str(exc))
    report = Report()
    jobs = []
    bases = []  # each house rule's base, verified beside it
    certify_at: list[tuple[int, ...]] = []
    for path in files:
        shown = "<stdin>" if path == STDIN else shown_path(path)
        if path != STDIN and is_scenario_file(path):
            print(f"{shown}: a scenario, not a rulebook: skipped (`cheatdsl scenario` plays it)", file=sys.stderr)
            continue
        # Only errors are shown here; the warnings that break a game are the report's problems.
        rulebook, d = compile_rulebook(path, args.variation, lints=False)
        if rulebook is None:
            wrong = unknown_variation(path, d)
            if wrong is not None:
                return usage("verify", wrong)
            text = d.render()
            if text:
                print(text, file=sys.stderr)
            report.rulebooks.append(RulebookReport(shown, error=f"{len(d.errors)} error(s) in the rulebook"))
            continue
        counts = None
        if args.players is not None:
            if args.players not in rulebook.players.counts():
                return usage("verify", f"{shown} is for {rulebook.players.min}..{rulebook.players.max} "
                                       f"players, not {args.players}")
            counts = (args.players,)
        report.rulebooks.append(RulebookReport(shown, rulebook))
        asked = None if args.properties is None else tuple(args.properties)
        jobs.append((report.rulebooks[-1], Request(rulebook, asked, counts)))
        certify_at.append(counts or tuple(rulebook.players.counts()))
        base = base_request(rulebook, asked, counts)
        if base is not None:
            bases.append((report.rulebooks[-1], base))
        elif rulebook.dropped_expectations:
            print(dropped_note(shown, rulebook), file=sys.stderr)
    # A base several house rules share is verified once (at the counts and properties they ask alike).
    once: dict[tuple[str, Any, Any], int] = {}
    distinct = []
    for _, request in bases:
        key = (request.rulebook.chain[0], request.properties, request.counts)
        if key not in once:
            once[key] = len(distinct)
            distinct.append(request)
    caches = Caches()  # the invariants the workers prove come back here, for the rule checks below
    with Progress("verifying", 0) as bar:
        results = verify_many([job for _, job in jobs] + distinct, settings, caches, progress=bar.update)
    for (entry, request), timed in zip(jobs, results):
        entry.timed = timed
        entry.warnings = dead_rules(request.rulebook, request.counts, settings, caches)
        entry.warnings += unsure_calls(request.rulebook, next(
            (t.result for t in timed if t.result.id == "claim-threshold"), None))
    for entry, request in bases:
        entry.base = request.rulebook.name
        entry.base_timed = results[len(jobs) + once[(request.rulebook.chain[0], request.properties, request.counts)]]
    if args.save_witnesses:
        from ..output import OutputError
        try:
            written = save_witnesses(report, args.save_witnesses, tuple(args.variation), args.force)
        except OutputError as exc:
            print(f"cheatdsl verify: {exc}", file=sys.stderr)
            return 2
        print(f"{len(written)} witness scenario{'s' if len(written) != 1 else ''} written to {args.save_witnesses}",
              file=sys.stderr)
    if args.certificates:
        try:
            written = _certificates(args.certificates, [entry for entry, _ in jobs], certify_at)
        except OSError as exc:
            print(f"cheatdsl verify: cannot write certificates to {args.certificates}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 2
        print(f"{written} certificate file{'s' if written != 1 else ''} and a manifest written to {args.certificates}",
              file=sys.stderr)
    if args.format == "md":
        from verifier.docs import markdown
        print(markdown(report))
    elif args.format == "json":
        print(json.dumps(report.as_json(), indent=2, ensure_ascii=False))
    else:
        print(report.render())
        print(report.tally())
    return report.exit_status


def _certificates(folder: str, entries: list[RulebookReport], counts: list[tuple[int, ...]]) -> int:
    """Write the certificates of every property each rulebook had proved, at each player count; the number of
    files written (the manifest aside)."""
    import os

    from verifier.certificates import certify, write_manifest
    from verifier.properties.verdict import Verdict

    os.makedirs(folder, exist_ok=True)
    manifest = []
    for entry, at in zip(entries, counts):
        proved = [t.result.id for t in entry.timed if t.result.verdict is Verdict.PROVED]
        if not proved or entry.rulebook is None:
            continue
        for n in at:
            manifest.append(certify(entry.rulebook, n, proved, folder, entry.path))
    write_manifest(folder, manifest)
    return sum(len(m["files"]) for m in manifest)
