"""`cheatdsl list`: the profiles shipped with cheatdsl, by name, with their players and variations."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

HELP = """List the shipped profiles: the names every command takes in place of a file.

Each profile prints as
  NAME  PLAYERS  TITLE
      variations: NAME, NAME, ...
With --format json the list is printed as JSON:
  [{"name", "title", "players": [min, max], "path", "forms": [".yaml", ".cheat"],
    "variations": [{"name", "summary"}, ...]}, ...]

Exit status: 0, or 3 if a shipped profile does not compile (a fault of the package)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("list", help="list the shipped profiles", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--format", "-f", choices=("text", "json"), default="text", help="output format")
    p.add_argument("--json", action="store_const", const="json", dest="format", help="the same as --format json")


def run(args: argparse.Namespace) -> int:
    from ..load import compile_rulebook
    from ..profiles import shipped_files, shipped_path

    entries: list[dict[str, Any]] = []
    broken = []
    files = shipped_files()
    for name in sorted({f.stem for f in files}):
        path = shipped_path(name)
        rulebook, _ = compile_rulebook(str(path))
        if rulebook is None:
            broken.append(name)
            continue
        entries.append({
            "name": name, "title": rulebook.title, "players": [rulebook.players.min, rulebook.players.max],
            "path": str(path), "forms": sorted({f.suffix for f in files if f.stem == name}),
            "variations": [{"name": v.name, "summary": v.summary} for v in rulebook.variations],
        })
    if args.format == "json":
        print(json.dumps(entries, indent=2, ensure_ascii=False))
    else:
        width = max((len(e["name"]) for e in entries), default=0)
        for e in entries:
            low, high = e["players"]
            players = f"{low}-{high}" if high != low else f"{low}"
            print(f"{e['name']:<{width}}  {players:>5} players  {e['title']}")
            if e["variations"]:
                print(" " * (width + 2) + "variations: " + ", ".join(v["name"] for v in e["variations"]))
    for name in broken:
        print(f"cheatdsl list: the shipped profile '{name}' does not compile; please report it", file=sys.stderr)
    return 3 if broken else 0
