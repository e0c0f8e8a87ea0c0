"""The JSON Schema (draft 2020-12) of a sweep spec, generated from the reader's field table.

`python -m cheatdsl.sweep.schema` rewrites docs/schema/sweep.schema.json; `--check` only reports a stale copy.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

from .spec import FIELDS, _property_ids

DRAFT = "https://json-schema.org/draft/2020-12/schema"
FILE_NAME = "sweep.schema.json"
COPY = Path(__file__).resolve().parents[2] / "docs" / "schema" / FILE_NAME


def _fill(node: Any) -> Any:
    """The field's schema with the property ids written in."""
    if isinstance(node, dict):
        return {k: (_property_ids() if v == "PROPERTY_IDS" else _fill(v)) for k, v in node.items()}
    if isinstance(node, list):
        return [_fill(v) for v in node]
    return node


def schema() -> dict[str, Any]:
    """The schema as a dict: one property per field of the table, its text as the description."""
    properties = {}
    for f in FIELDS:
        entry = _fill(copy.deepcopy(f.schema))
        entry["description"] = f.doc
        if f.default is not None:
            entry["default"] = f.default
        properties[f.name] = entry
    return {"$schema": DRAFT, "$id": "https://cheatdsl.invalid/schema/" + FILE_NAME, "title": "cheatdsl sweep spec",
            "description": "A sweep: rulebooks x variations x player counts x bot mixes, each cell simulated and "
                           "optionally verified (`cheatdsl sweep SPEC`, docs/sweeps.md).",
            "type": "object", "properties": properties, "required": [f.name for f in FIELDS if f.required],
            "additionalProperties": False}


def schema_text() -> str:
    """The schema as the file holds it."""
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    """Write the copy (or with --check, compare it); 1 when it was stale under --check."""
    text = schema_text()
    stale = not COPY.is_file() or COPY.read_text(encoding="utf-8") != text
    if "--check" in argv:
        if stale:
            print(f"{COPY} is out of date: run python -m cheatdsl.sweep.schema", file=sys.stderr)
        return 1 if stale else 0
    if stale:
        COPY.parent.mkdir(parents=True, exist_ok=True)
        COPY.write_text(text, encoding="utf-8")
        print(f"wrote {COPY}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
