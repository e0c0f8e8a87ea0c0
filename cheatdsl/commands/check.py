"""`cheatdsl check FILE...`: every problem in every rulebook, located like a compiler's."""

from __future__ import annotations

import argparse
import json
import sys

from ..diagnostics import Diagnostics
from ..load import compile_rulebook

HELP = """Check rulebooks and print every problem found.

Each problem is printed as
  path:line:col: error[CODE]: message
followed by the source line, a caret under the place, and a hint where one helps.
Warnings use `warning[CODE]`. With --format json the same is printed as a JSON list of
objects with the keys file, line, column, severity, code, message, hint.

Exit status: 0 when no errors were found, 1 when at least one error was found,
2 for a usage error."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("check", help="check rulebooks for problems", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", metavar="FILE", help="rulebook files (.yaml or .cheat)")
    p.add_argument("--variation", "-V", action="append", default=[], metavar="NAME",
                   help="switch a named variation on (repeatable)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format")


def run(args: argparse.Namespace) -> int:
    everything = Diagnostics()
    for path in args.files:
        d = Diagnostics()
        compile_rulebook(path, args.variation, d)
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
        files = len(args.files)
        print(f"{files} rulebook{'s' if files != 1 else ''} checked: {errors} error{'s' if errors != 1 else ''}, "
              f"{warnings} warning{'s' if warnings != 1 else ''}", file=sys.stderr)
    return 1 if everything.has_errors() else 0
