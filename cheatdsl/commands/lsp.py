"""`cheatdsl lsp`: the language server for editors, over standard input and output."""

from __future__ import annotations

import argparse
import sys

HELP = """Run the language server for rulebooks (.cheat files and rulebook YAML) over standard
input and output, for an editor to start (docs/editors.md sets up VS Code, Neovim, Helix
and Emacs).

It shows `cheatdsl check`'s diagnostics as a file is opened and edited (the same codes and
places), the reference text of a field on hover, completion of section keys, field names and
allowed values, go to definition for `extends:` and variation names, formatting of .cheat
files with `cheatdsl fmt`'s printer (a file with comments is left as it is), and the file's
sections as document symbols. YAML files that are not rulebooks (scenario files, say) get
no diagnostics.

It answers only for documents the editor opened (it never reads a file a request names), and
survives any bytes on standard input: a malformed message is answered with a parse error and
skipped, and the next one is served (docs/cli.md, "Limits on input"). Problems are logged to
standard error one line each, never as a traceback.

It needs the `lsp` extra: pip install 'cheatdsl[lsp]'.

Exit status: 0 when the editor shut the server down, 2 when the extra is not installed or
for a usage error."""

INSTALL = "cheatdsl lsp: the language server needs pygls; install it with: pip install 'cheatdsl[lsp]'"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("lsp", help="run the language server for editors (stdio)", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--stdio", action="store_true", help="talk over standard input and output (the default and only way)")


def run(args: argparse.Namespace) -> int:
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        print(INSTALL, file=sys.stderr)
        return 2
    from ..lsp.server import serve

    serve()
    return 0
