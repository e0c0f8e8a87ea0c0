"""`cheatdsl schema`: the JSON Schema of the YAML form, for editors."""

from __future__ import annotations

import argparse

from ..schema import schema_text
from .arguments import write_result

HELP = """Print the JSON Schema (draft 2020-12) of a rulebook in the YAML form.

It is generated from the compiler's own field table: every section and field, with its
reference text, its type and its allowed values. Editors use it to complete and flag rules
as they are typed (docs/editors.md); put this line at the top of a rulebook to point an
editor with the YAML language server at it:
  # yaml-language-server: $schema=PATH/TO/rulebook.schema.json
The schema is a help while typing: `cheatdsl check` stays the authority (formulas, values
that depend on the deck, rules that clash, bases that `extends` names are its job).
A copy ships in docs/schema/rulebook.schema.json.

Exit status: 0 when the schema was printed or written, 1 when OUT cannot be written,
2 for a usage error."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("schema", help="print the JSON Schema of the YAML form", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-o", "--output", metavar="OUT", default=None, help="write here instead of printing")


def run(args: argparse.Namespace) -> int:
    text = schema_text()
    return write_result("schema", text, args.output)
