"""`python -m cheatdsl.docs [--check]`: regenerate (or check) the author's guide, the gallery and the command
reference."""

from __future__ import annotations

import sys

from . import gallery, guide, reference


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a not in ("--check",) for a in args):
        print("usage: python -m cheatdsl.docs [--check]\n  regenerate docs/guide.md and docs/gallery/ "
              "(--check: exit 1 when either is stale, writing nothing)", file=sys.stderr)
        return 2
    return max(guide.main(args), gallery.main(args), reference.main(args))


if __name__ == "__main__":
    sys.exit(main())
