"""`cheatdsl scenario FILE...`: run table rulings written as scenarios and report each one."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..scenario.runner import ScenarioResult

HELP = """Run scenario files: a position or a seeded deal, actions, and what must hold afterwards.

A scenario starts from a deal by the rules, `seed: N` (the deck shuffled with that seed) or
`deck: [AC, 7H, ..., JK]` (every card of the table's deck once, top first, each with its suit,
dealt as a shuffled deck is: cards set aside, hands from the dealer's left, the surplus, forced sets,
the first player and the turn-start rules all as the rulebook says), with `dealer: N` where the
dealer is drawn by lot; or from a table set by hand, `position:` (no deal rule is applied to it).

Each scenario prints one line,
  PASS path: name
or
  FAIL path: name
followed by each failure as
  path:line:col: failed: step or expectation
    expected: ...
    actual:   ...
and the table at the end. A scenario file that cannot be read prints diagnostics as
`path:line:col: error[CODE]: message` with the source line and a caret; a rulebook given
in place of a scenario is reported as one. A folder runs every *.yaml scenario under it (in
sub-folders too). Everything above, and the closing line `N scenarios: P passed, F failed`, is
printed on standard output; places that could not be searched go to standard error.

Every seat the game asks must answer in the actions ("2: accept"), the responders after a call
too where calls are made at once. When two or more call and the rules leave whose call is heard
to chance (`challenge.priority: first_caller`), the scenario writes the lot as
"chance: seat N called first"; one that does not fails and says so, unless it ends there
expecting `callers: [N, M]` (the seats waiting for the lot). `challenger: N` is the seat heard.

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
        result = _rulebook_given(path) or run_scenario(path)
        internal = internal or result.internal_error
        if not result.passed:
            failed += 1
        if not result.passed or not args.quiet:
            print(result.render())
    total = len(files)
    print(f"{total} scenario{'s' if total != 1 else ''}: {total - failed} passed, {failed} failed")
    if internal:
        return 3
    return 1 if failed or problems or not files else 0


RULEBOOK_KEYS = ("title", "extends", "deck", "deal", "claim", "challenge", "ending", "use", "drop")


def _rulebook_given(path: str) -> ScenarioResult | None:
    """A failed result saying that `path` is a rulebook, not a scenario; None when it is no rulebook."""
    from ..diagnostics import Diagnostics
    from ..files import FileRefused, read_text
    from ..scenario.runner import ScenarioResult
    from ..source import SourceFile, Span
    try:
        text = read_text(path)
    except FileRefused:
        return None  # the scenario reader says why
    keys = {line.split(":", 1)[0].strip() for line in text.splitlines()
            if line[:1].isalpha() and ":" in line}
    if "scenario" in keys or not (path.endswith(".cheat") or keys & set(RULEBOOK_KEYS)):
        return None
    d = Diagnostics()
    d.sources[path] = SourceFile(path, text)
    first = next((i for i, line in enumerate(text.splitlines(), 1) if line[:1].isalpha()), 1)
    d.error(Span(path, first, 1), "S012", "this is a rulebook, not a scenario",
            f"check a rulebook with `cheatdsl check {path}`; a scenario file starts with `scenario: NAME` "
            "and names its rulebook with `rulebook:` (`cheatdsl scenario --help`)")
    return ScenarioResult(path, Path(path).stem, diagnostics=d)
