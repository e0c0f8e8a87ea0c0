"""`python -m cheatdsl.docs.reference [--check]`: docs/reference/, one page per command, made from the
command's own argument parser (its description, usage, every option with its default, and its exit status),
so the pages cannot drift from `cheatdsl COMMAND --help`."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from ..cli import DESCRIPTION, build_parser

ROOT = Path(__file__).resolve().parents[2]
FOLDER = "docs/reference"
WIDTH = 100  # usage lines are wrapped at this width whatever the terminal is


def pages() -> dict[str, str]:
    """The reference pages by file name: `index.md` and `COMMAND.md` for every command."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    commands: dict[str, argparse.ArgumentParser] = dict(sub.choices)
    summaries = {a.dest: a.help or "" for a in sub._choices_actions}
    built = {"index.md": _index(commands, summaries)}
    for name, command in commands.items():
        built[f"{name}.md"] = _page(name, command, summaries.get(name, ""))
    return built


def _index(commands: dict[str, argparse.ArgumentParser], summaries: dict[str, str]) -> str:
    lines = ["# Command reference", "",
             "One page per command, generated from its argument parser by `python -m cheatdsl.docs.reference`",
             "(a test fails when a page is out of date). The conventions every command shares are in",
             "[the command line page](../cli.md).", "", "```", DESCRIPTION, "```", "",
             "| command | what it does |", "|---|---|"]
    lines += [f"| [`{name}`]({name}.md) | {_cell(summaries.get(name, ''))} |" for name in commands]
    return "\n".join(lines) + "\n"


def _page(name: str, command: argparse.ArgumentParser, summary: str) -> str:
    formatter = argparse.HelpFormatter(command.prog, width=WIDTH)
    formatter.add_usage(command.usage, command._actions, command._mutually_exclusive_groups, prefix="")
    usage = formatter.format_help().strip()
    description = (command.description or summary).strip()
    exit_status = ""
    match = re.search(r"^Exit status.*", description, re.M | re.S)
    if match:
        exit_status, description = match.group(0).strip(), description[:match.start()].rstrip()
    lines = [f"# cheatdsl {name}", "", _cell(summary) + ("." if summary and not summary.endswith(".") else ""), "",
             "```", usage, "```", ""]
    if description:
        lines += ["```", description, "```", ""]
    lines += ["## Arguments and options", "", "| argument or option | default | what it does |", "|---|---|---|"]
    for action in command._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        lines.append(f"| {_spelling(action)} | {_default(action)} | {_cell(_help(command, action))} |")
    lines += ["", "## Exit status", ""]
    lines.append(_cell(exit_status) if exit_status else
                 "0 success, 1 the rulebook or run failed a check, 2 usage error, 3 internal error.")
    return "\n".join(lines) + "\n"


def _spelling(action: argparse.Action) -> str:
    if not action.option_strings:
        return f"`{action.metavar or action.dest}`"
    shown = ", ".join(f"`{o}`" for o in action.option_strings)
    if action.nargs != 0:
        metavar = action.metavar or action.dest.upper()
        if action.choices is not None and action.metavar is None:
            metavar = "{" + ",".join(str(c) for c in action.choices) + "}"
        shown += f" `{metavar}`"
    return shown


def _default(action: argparse.Action) -> str:
    value = action.default
    if value is None or value is argparse.SUPPRESS or value is False or value == []:
        return ""
    return f"`{value}`"


def _help(command: argparse.ArgumentParser, action: argparse.Action) -> str:
    if action.help is None or action.help is argparse.SUPPRESS:
        return ""
    return argparse.HelpFormatter(command.prog)._expand_help(action)


def _cell(text: str) -> str:
    """Text fit for one table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cheatdsl.docs.reference", description=__doc__)
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 when a page is stale")
    args = parser.parse_args(argv)
    folder = ROOT / FOLDER
    built = pages()
    present = {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.md")} if folder.is_dir() else {}
    stale = sorted(n for n in set(built) | set(present) if built.get(n) != present.get(n))
    if args.check:
        if stale:
            print(f"{FOLDER} is stale ({', '.join(stale)}): run `python -m cheatdsl.docs.reference`",
                  file=sys.stderr)
            return 1
        print(f"{FOLDER} is up to date", file=sys.stderr)
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    for name in set(present) - set(built):
        (folder / name).unlink()
    for name, text in built.items():
        (folder / name).write_text(text, encoding="utf-8")
    print(f"wrote {FOLDER}: {len(built)} pages ({len(stale)} changed)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
