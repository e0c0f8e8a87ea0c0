"""`cheatdsl scenario FILE...`: run table rulings written as scenarios and report each one."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = """Run scenario files: a position or a seeded deal, actions, and what must hold afterwards.

Each scenario prints one line,
  PASS path: name
or
  FAIL path: name
followed by each failure as
  path:line:col: failed: step or expectation
    expected: ...
    actual:   ...
and the table at the end. A scenario file that cannot be read prints diagnostics as
`path:line:col: error[CODE]: message` with the source line and a caret.
A directory runs every *.yaml scenario under it.

Exit status: 0 when every scenario passes, 1 when one fails or cannot be read, 2 for a usage error,
3 when cheatdsl itself failed on a scenario (reported as error[S900]; set CHEATDSL_DEBUG=1 for details)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("scenario", help="run scenario files (table rulings as tests)", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", metavar="FILE", help="scenario files, or directories of them")
    p.add_argument("--quiet", "-q", action="store_true", help="print only failures and the summary")


def scenario_files(paths: list[str], problems: list[str] | None = None) -> list[str]:
    """The files named, with folders expanded to the scenario files under them; what could not be
    looked at goes to `problems`."""
    from ..scenario.files import Found, find_scenarios
    found = Found()
    for path in paths:
        try:
            is_folder = Path(path).is_dir()
        except (OSError, ValueError):
            is_folder = False
        if is_folder:
            find_scenarios(path, found)
        else:
            found.files.append(path)
    if problems is not None:
        problems.extend(found.problems)
    return found.files


def run(args: argparse.Namespace) -> int:
    from ..scenario import run_scenario
    problems: list[str] = []
    files = scenario_files(args.files, problems)
    for problem in problems:
        print(f"cheatdsl scenario: {problem}", file=sys.stderr)
    failed = 0
    internal = False
    for path in files:
        result = run_scenario(path)
        internal = internal or result.internal_error
        if not result.passed:
            failed += 1
        if not result.passed or not args.quiet:
            print(result.render())
    total = len(files)
    print(f"{total} scenario{'s' if total != 1 else ''}: {total - failed} passed, {failed} failed", file=sys.stderr)
    if internal:
        return 3
    return 1 if failed or problems or not files else 0
