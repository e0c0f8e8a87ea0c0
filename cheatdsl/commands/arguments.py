"""What the commands share: rulebook arguments, --format, --variation, and argument types."""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from ..diagnostics import Diagnostics
from ..profiles import RULEBOOK_SUFFIXES
from ..seeds import reduce_seed

STDIN = "-"


class UsageError(Exception):
    """A command line that cannot be carried out whatever the rulebooks say (exit status 2)."""


def rulebook_arguments(items: Sequence[str]) -> list[str]:
    """The rulebooks named: a folder stands for its *.yaml, *.yml and *.cheat files (sorted, not recursive).

    `-` (standard input) may be named once. UsageError for a folder with no rulebook in it.
    """
    out: list[str] = []
    for item in items:
        folder = Path(item) if item != STDIN else None
        if folder is not None and _is_folder(folder):
            found = sorted(str(f) for f in folder.iterdir() if f.suffix in RULEBOOK_SUFFIXES and f.is_file())
            if not found:
                raise UsageError(f"no rulebook in the folder '{item}' (rulebooks end in "
                                 + ", ".join(RULEBOOK_SUFFIXES) + ")")
            out.extend(found)
        else:
            out.append(item)
    if out.count(STDIN) > 1:
        raise UsageError("standard input (`-`) can be read only once")
    return out


def _is_folder(path: Path) -> bool:
    """Whether `path` is a folder; a name the system cannot look up (too long, a NUL) is none."""
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def usage(command: str, message: str) -> int:
    """Print a usage error the way argparse does, and return its exit status, 2."""
    print(f"cheatdsl {command}: error: {message}", file=sys.stderr)
    return 2


def add_rulebooks(p: argparse.ArgumentParser, many: bool = True, dest: str = "files",
                  metavar: str = "RULEBOOK") -> None:
    """The positional rulebook argument(s): files, shipped profile names, folders, or `-`."""
    if many:
        p.add_argument(dest, nargs="+", metavar=metavar,
                       help="rulebook files (.yaml, .yml or .cheat), shipped profile names, folders of "
                            "rulebooks, or - for standard input")
    else:
        p.add_argument(dest, metavar=metavar,
                       help="a rulebook file (.yaml, .yml or .cheat), a shipped profile name, or - for standard input")


def add_format(p: argparse.ArgumentParser, choices: Sequence[str], aliases: Sequence[tuple[str, str]] = ()) -> None:
    """--format with `choices` (text first, the default), --json for --format json, and older aliases."""
    p.add_argument("--format", "-f", choices=tuple(choices), default="text", metavar="FORMAT",
                   help="output format: " + ", ".join(choices) + " (default text)")
    if "json" in choices:
        p.add_argument("--json", dest="format", action="store_const", const="json", help="same as --format json")
    for flag, value in aliases:
        p.add_argument(flag, dest="format", action="store_const", const=value, help=f"same as --format {value}")


def add_variation(p: argparse.ArgumentParser, help: str = "switch a named variation on (repeatable)") -> None:
    """--variation/-V NAME, repeatable."""
    p.add_argument("--variation", "-V", action="append", default=[], metavar="NAME", help=help)


def unknown_variation(path: str, d: Diagnostics) -> str | None:
    """The usage error for a --variation `path` does not offer, with the names it does; None if there is none."""
    asked = [x for x in d.errors if x.code == "E304" and x.span.file == "<command line>"]
    if not asked:
        return None
    from ..load import compile_rulebook
    plain, _ = compile_rulebook(path)
    names = [v.name for v in plain.variations] if plain is not None else []
    unknown = ", ".join(x.message.removeprefix("unknown variation ") for x in asked)
    shown = "<stdin>" if path == STDIN else path
    offered = f"its variations: {', '.join(names)}" if names else "it offers no variations"
    return f"{shown} has no variation {unknown}; {offered}"


def count(what: str, least: int, most: int) -> Callable[[str], int]:
    """An argparse type: a whole number of `what` from `least` to `most`; outside, the error (exit 2)
    gives the range (docs/cli.md lists every option's range)."""
    def parse(text: str) -> int:
        value = whole_number(text)
        if value is None or not least <= value <= most:
            raise argparse.ArgumentTypeError(
                f"expected {what} from {least:,} to {most:,}, found {shown_value(text)}")
        return value
    return parse


def amount(what: str, least: float, most: float) -> Callable[[str], float]:
    """An argparse type: a number (not necessarily whole) from `least` to `most`, the range in the error."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not least <= value <= most:  # NaN is in no range
            raise argparse.ArgumentTypeError(f"expected {what} from {least:,g} to {most:,g}, found {shown_value(text)}")
        return value
    return parse


def shown_value(text: str) -> str:
    """A value from the command line as an error quotes it: at most 40 characters."""
    return repr(text[:40] + "...") if len(text) > 40 else repr(text)


# The ranges of the numeric options (docs/cli.md, "Ranges"; a test keeps the two the same).
PLAYERS = count("a number of players", 1, 1_000)
SEAT = count("a seat", 0, 999)
GAMES = count("a number of games", 1, 100_000_000)
TURN_CAP = count("a turn cap", 1, 10_000_000)
JOBS = count("a number of jobs", 1, 1_024)
SEARCHES = count("a number of searches", 0, 1_000)
SEARCH_EFFORT = amount("a search effort", 0.01, 1_000)
TIME_LIMIT = amount("a time limit in seconds", 1, 86_400)
STATE_BUDGET = count("a number of states", 1, 100_000_000)


def seed(text: str) -> int:
    """An argparse type: any whole number, reduced by cheatdsl.seeds.reduce_seed (modulo 2**63)."""
    value = whole_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a seed (a whole number), found {shown_value(text)}")
    return reduce_seed(value)


_WHOLE = re.compile(r"[+-]?[0-9]{1,4000}")


def whole_number(text: str) -> int | None:
    """`text` as a whole number written in ASCII digits with an optional sign (not `1_000`, not `٣`),
    or None."""
    text = text.strip()
    return int(text) if _WHOLE.fullmatch(text) else None


probability = amount("a probability", 0, 1)  # the challenge rate


def write_result(command: str, text: str, output: str | None) -> int:
    """Write a command's result to standard output, or to the file `output`; the exit status."""
    if output is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(output).write_text(text, encoding="utf-8")
    except (OSError, ValueError) as exc:
        print(f"cheatdsl {command}: cannot write '{output}': {getattr(exc, 'strerror', None) or exc}",
              file=sys.stderr)
        return 1
    return 0


def workers_for(command: str, jobs: int) -> int:
    """`--jobs` bounded by the machine's cores and free memory (`cheatdsl.jobs.bounded`), saying so on standard
    error where it is clamped."""
    from ..jobs import bounded
    workers, notice = bounded(jobs)
    if notice:
        print(f"cheatdsl {command}: {notice}", file=sys.stderr)
    return workers
