"""The `cheatdsl` command line: one subcommand per back end, loaded only when used."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from . import __version__
from .commands import COMMANDS
from .reach import INCLUDE_VARIABLE, including

# Commands that read no rulebook, so take no --include.
NO_RULEBOOKS = frozenset({"schema", "lsp", "list"})

DESCRIPTION = """Checkable, runnable, provable rulebooks for the Cheat family of card games.

Exit status for every command: 0 success, 1 the rulebook or run failed a check
(errors, a failed scenario, a refuted expectation), 2 usage error, 3 internal error."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand, or with the subcommand `only` alone (the others' modules
    stay unimported)."""
    parser = argparse.ArgumentParser(prog="cheatdsl", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"cheatdsl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if only is None else (only,):
        importlib.import_module(f".commands.{name}", __package__).register(sub)
    for name, command in sub.choices.items():
        if name not in NO_RULEBOOKS:
            command.add_argument("--include", "-I", action="append", default=[], metavar="DIR",
                                 help="let rulebooks extend files under DIR as well as shipped profiles and "
                                      f"their own folder (repeatable; also {INCLUDE_VARIABLE})")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    words = sys.argv[1:] if argv is None else argv
    # A command named first parses the same with its own subparser alone; anything else (an option, a
    # mistyped command) needs them all, for the top-level help and the list of choices.
    parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    module = importlib.import_module(f".commands.{args.command}", __package__)
    try:
        with including(getattr(args, "include", None) or []):
            return int(module.run(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug of ours: say so plainly, never a traceback
        if os.environ.get("CHEATDSL_DEBUG"):
            raise
        print(f"cheatdsl: internal error ({exc.__class__.__name__}: {exc}); "
              "set CHEATDSL_DEBUG=1 for details and please report it", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
