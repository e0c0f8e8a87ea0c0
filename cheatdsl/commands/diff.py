"""`cheatdsl diff BASE VARIANT`: what a house rule or variant changes, rule by rule, in sentences."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from .arguments import (
    UsageError,
    add_format,
    add_rulebooks,
    add_variation,
    rulebook_arguments,
    unknown_variation,
    usage,
)

if TYPE_CHECKING:
    from ..compare.diff import Diff

HELP = """Say what VARIANT changes in BASE, rule by rule, as sentences grouped by rule dimension:

  count honesty
    - a play may hold extra cards beyond the count called; a challenge catches them
        (before: the count called must be the count played: only the rank may be a lie)

Both rulebooks are compiled and compared field by field; formulas are compared by their canonical
text (and by value where that can be worked out), never by how they were written. When nothing
differs in meaning the output is "same game: ..." (the YAML and text forms of one rulebook, rules
in another order, a variation that restates the default). Changes that make no difference under
the other rules, changes of wording only (what a challenger says) and changes to the verdicts the
rulebook expects are listed apart. With --verify the verifier is run on both and the verdicts
that change are listed.

With --game, a seeded game is searched (the same deal and the same actions, chosen by a simple
random policy, under both rulebooks) until an action is legal under one and refused under the
other, or leaves the two tables in different states; --game-dir DIR writes it as two scenario
files, VARIANT-vs-BASE.base.yaml and VARIANT-vs-BASE.variant.yaml, each passing under its own
rulebook (`cheatdsl scenario DIR/*.yaml`).

--variation NAME switches NAME on in VARIANT, so `cheatdsl diff R R -V NAME` shows what the
variation NAME of R changes.

With --format md the same is Markdown (a heading per rule dimension, a bullet per change).
With --format json (or --json): {"base", "variant", "same_game", "changes": [{"dimension", "label", "field",
"sentence", "before"}], "no_difference_in_play": [...], "wording": [...], "expectations": [...],
"verdicts": [...] (with --verify)}.

BASE or VARIANT may be `-` (standard input, one of them) or a shipped profile's name.

Exit status: 0 compared (whether or not the games differ); 1 a rulebook has errors (printed like
`cheatdsl check`, on standard error); 2 usage error (a variation VARIANT does not offer, ...)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("diff", help="what a variant changes in a base rulebook", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rulebooks(p, many=False, dest="base", metavar="BASE")
    add_rulebooks(p, many=False, dest="variant", metavar="VARIANT")
    add_variation(p, "switch a named variation on in VARIANT (repeatable)")
    add_format(p, ("text", "md", "json"))
    p.add_argument("--verify", action="store_true", help="also list the verifier verdicts that change")
    p.add_argument("--game", action="store_true",
                   help="search a seeded game the two rulebooks play differently, and say where they part")
    p.add_argument("--game-dir", metavar="DIR",
                   help="with --game: write that game as two scenario files (one per rulebook) into DIR")
    p.add_argument("--force", action="store_true",
                   help="with --game-dir: overwrite scenario files that exist (kept otherwise)")


def run(args: argparse.Namespace) -> int:
    from ..compare import verdicts
    from ..compare.diff import diff
    from ..compare.diff_report import as_json, render_markdown, render_text
    from ..compare.inputs import Loaded, load

    try:
        named = rulebook_arguments([args.base, args.variant])
    except UsageError as exc:
        return usage("diff", str(exc))
    if len(named) != 2:
        return usage("diff", "diff takes two rulebooks, BASE and VARIANT, not folders")
    args.base, args.variant = named
    base = load([args.base])
    variant = load([args.variant], args.variation, everywhere=True)
    wrong = unknown_variation(args.variant, variant.diagnostics) if args.variation else None
    if wrong is not None:
        return usage("diff", wrong)
    if not (base.ok and variant.ok):
        both = Loaded()
        for part in (base, variant):
            both.diagnostics.items.extend(part.diagnostics.items)
            both.diagnostics.sources.update(part.diagnostics.sources)
        both.report()
        return 1
    result = diff(base.rulebooks[0], variant.rulebooks[0])
    if args.verify:
        data, note = verdicts.collect([args.base, args.variant], [(), tuple(args.variation)])
        if data is None or data[0] is None or data[1] is None:
            result.verdicts = [note or "verifier unavailable"]
        else:
            result.verdicts = verdicts.changes(data[0], data[1])
    if args.game or args.game_dir:
        _game(result, args)
    if args.format == "json":
        print(json.dumps(as_json(result), indent=2, ensure_ascii=False))
    elif args.format == "md":
        sys.stdout.write(render_markdown(result))
    else:
        sys.stdout.write(render_text(result))
    return 0


def _game(result: Diff, args: argparse.Namespace) -> None:
    """Fill in the distinguishing game (and write its scenarios) when the two are not the same game."""
    from pathlib import Path

    from ..compare import distinguish

    if result.same_game:
        result.game = "none: the two rulebooks are the same game"
        return
    found, why = distinguish.search(result.base, result.variant)
    if found is None:
        result.game = f"none found: {why}"
        return
    result.game = found.sentence(result.base.name, result.variant.name)
    if not args.game_dir:
        return
    from ..output import OutputError, output_folder, write_new
    try:
        output_folder(args.game_dir)
        for path, scenario in distinguish.scenarios(found, result.base, result.variant, args.game_dir,
                                                    ((), tuple(args.variation))):
            write_new(Path(path), scenario.to_yaml(), args.force)
            result.game_files.append(path)
    except (OutputError, ValueError) as exc:
        result.game += f" (not written: {exc})"
