"""`cheatdsl fmt FILE --to yaml|cheat`: one rulebook file written in the other surface form."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..diagnostics import Diagnostics
from ..profiles import locate
from ..source import SourceFile, Span
from ..syntax.dsl_reader import read_dsl
from ..syntax.emit import EmitError, same_tree, to_dsl, to_yaml
from ..syntax.loader import read_tree
from ..syntax.reading import STDIN, looks_like_dsl
from ..syntax.tree import MapNode, Node, kind_of
from ..syntax.yaml_reader import read_yaml
from .arguments import add_rulebooks, usage, write_result

HELP = """Write one rulebook file in the other form: YAML as the text DSL, or the DSL as YAML.

Only the file itself is converted, not merged with the rulebook it extends: `extends`, `drop`
and `use` are kept as written. Comments are not carried over. The text is printed, or written
to OUT with -o. Without --to, a .cheat file becomes YAML and anything else becomes DSL. FILE may
be `-` (standard input: DSL text becomes YAML, YAML becomes DSL) or a shipped profile's name.

A file that cannot be read is reported as `check` reports it,
  path:line:col: error[CODE]: message
on standard error, and nothing is written.

Exit status: 0 when the file was converted, 1 when it has errors or OUT cannot be written,
2 for a usage error."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("fmt", help="convert a rulebook between YAML and the text DSL", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rulebooks(p, many=False, dest="file", metavar="FILE")
    p.add_argument("--to", choices=("yaml", "cheat"), default=None,
                   help="the form to write (default: the other one)")
    p.add_argument("-o", "--output", metavar="OUT", default=None, help="write here instead of printing")


def convert(tree: MapNode, form: str) -> str:
    """The tree as text in `form` ('yaml' or 'cheat')."""
    return to_yaml(tree) if form == "yaml" else to_dsl(tree)


def reread(text: str, form: str) -> Node | None:
    """The tree of text just written, read back the way a file of that form would be."""
    d = Diagnostics()
    source = SourceFile(f"<fmt output>.{form}", text)
    return read_yaml(source, d) if form == "yaml" else read_dsl(source, d)


def run(args: argparse.Namespace) -> int:
    path: str = locate(args.file)
    if Path(path).is_dir() and path != STDIN:
        return usage("fmt", f"fmt converts one file; '{path}' is a folder")
    d = Diagnostics()
    tree = read_tree(path, d)
    if path == STDIN:
        source = d.sources.get("<stdin>")
        dsl = source is not None and looks_like_dsl(source.text)
        form: str = args.to or ("yaml" if dsl else "cheat")
        path = "<stdin>"
    else:
        form = args.to or ("yaml" if path.endswith(".cheat") else "cheat")
    if tree is not None and not isinstance(tree, MapNode):
        d.error(tree.span, "E020", f"a rulebook must be a set of named sections, found {kind_of(tree)}",
                "start the file with `rulebook: my-table`")
        tree = None
    if isinstance(tree, MapNode) and not tree.entries:
        d.error(tree.span, "E004", "the file holds no rules")
        tree = None
    if tree is None or d.has_errors():
        _report(d, path)
        return 1
    try:
        text = convert(tree, form)
    except EmitError as exc:
        d.error(Span(path, 1, 1), "E042", f"cannot write this rulebook as {form}: {exc}")
        _report(d, path)
        return 1
    back = reread(text, form)
    if back is None or not same_tree(tree, back):
        d.error(Span(path, 1, 1), "E042", f"cannot write this rulebook as {form}: the text would read back differently",
                "please report this as a cheatdsl bug, with the file")
        _report(d, path)
        return 1
    if d.items:
        print(d.render(), file=sys.stderr)
    return write_result("fmt", text, args.output)


def _report(d: Diagnostics, path: str) -> None:
    text = d.render()
    if text:
        print(text, file=sys.stderr)
    errors = len(d.errors)
    print(f"{path}: not converted: {errors} error{'s' if errors != 1 else ''}", file=sys.stderr)
