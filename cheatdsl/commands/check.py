"""`cheatdsl check RULEBOOK...`: every problem in every rulebook, located like a compiler's."""

from __future__ import annotations

import argparse
import json

from ..diagnostics import Diagnostics
from ..load import compile_rulebook
from ..scenario.files import is_scenario_file
from ..scenario.reader import read_scenario
from ..scenario.runner import load_game_rulebook
from ..syntax.reading import STDIN
from .arguments import (
    UsageError,
    add_format,
    add_rulebooks,
    add_variation,
    rulebook_arguments,
    unknown_variation,
    usage,
)

HELP = """Check rulebooks and print every problem found.

Each problem is printed as
  path:line:col: error[CODE]: message
followed by the source line, a caret under the place, a hint where one helps, and a note where
the rule involved is written elsewhere (a base rulebook's line). Warnings use `warning[CODE]`.
The problems are check's result, so they go to standard output, followed by a line
`N rulebooks checked: E errors, W warnings`. With --format json (or --json) the same is printed
as a JSON list of objects with the keys file, line, column, severity, code, message, hint, note.

A folder stands for the rulebooks in it; `-` reads one rulebook from standard input (shown as
<stdin>); a shipped profile can be named without its path (`cheatdsl check standard`).
A YAML file with a `scenario:` line is a scenario, not a rulebook: its fields and the rulebook it
names are checked as `cheatdsl scenario` reads them (codes S...), and the last line counts it as a
scenario (`cheatdsl scenario FILE` plays it). A problem a house rule causes in its base
rulebook is shown on the house rule's own line, with a note naming the base rule by its
rulebook's name and line.

Exit status: 0 when no errors were found, 1 when at least one error was found,
2 for a usage error (a variation the rulebook does not offer, a folder with no rulebook)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("check", help="check rulebooks for problems", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rulebooks(p)
    add_variation(p)
    add_format(p, ("text", "json"))


def run(args: argparse.Namespace) -> int:
    try:
        files = rulebook_arguments(args.files)
    except UsageError as exc:
        return usage("check", str(exc))
    everything = Diagnostics()
    scenarios = 0
    for path in files:
        d = Diagnostics()
        if path != STDIN and is_scenario_file(path):
            check_scenario(path, d)
            scenarios += 1
        else:
            compile_rulebook(path, args.variation, d)
            wrong = unknown_variation(path, d) if args.variation else None
            if wrong is not None:
                return usage("check", wrong)
        everything.items.extend(d.items)
        everything.sources.update(d.sources)
    if args.format == "json":
        print(json.dumps([x.as_json() for x in everything.sorted()], indent=2))
    else:
        text = everything.render()
        if text:
            print(text)
        errors = len(everything.errors)
        warnings = len(everything.items) - errors
        rulebooks = len(files) - scenarios
        checked = _plural(rulebooks, "rulebook")
        if scenarios:
            checked = (f"{checked} and " if rulebooks else "") + _plural(scenarios, "scenario")
        print(f"{checked} checked: {_plural(errors, 'error')}, {_plural(warnings, 'warning')}")
    return 1 if everything.has_errors() else 0


def check_scenario(path: str, d: Diagnostics) -> None:
    """A scenario file's problems as `cheatdsl scenario` would find them before playing: its fields,
    and the rulebook it names (found and compiled). Its actions are not played."""
    scenario = read_scenario(path, d)
    if scenario is not None and not d.has_errors():
        load_game_rulebook(scenario, d)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"
