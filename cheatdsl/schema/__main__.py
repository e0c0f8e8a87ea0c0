"""Rewrite the shipped JSON Schema copies (package and docs/schema/); `--check` only reports stale ones."""

from __future__ import annotations

import sys
from pathlib import Path

from . import FILE_NAME, schema_text

ROOT = Path(__file__).resolve().parents[2]
COPIES = (Path(__file__).resolve().parent / FILE_NAME, ROOT / "docs" / "schema" / FILE_NAME)


def main(argv: list[str]) -> int:
    """Write (or with --check, compare) every copy; 1 when a copy was stale under --check."""
    text = schema_text()
    stale = [p for p in COPIES if not p.is_file() or p.read_text(encoding="utf-8") != text]
    if "--check" in argv:
        for path in stale:
            print(f"{path} is out of date: run python -m cheatdsl.schema", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
