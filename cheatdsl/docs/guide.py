"""The author's guide, `docs/guide.md`, generated from `docs/guide.src.md` by running every command in it.

    python -m cheatdsl.docs.guide            # rewrite docs/guide.md
    python -m cheatdsl.docs.guide --check    # exit 1 when docs/guide.md is not what the source gives now

The source is Markdown with two kinds of generated block:

    ```console                      each `$ cheatdsl ...` line is run (in order, in one scratch
    $ cheatdsl check FILE           directory) and followed by what it printed, then by
    ```                             `[exit status N]` when N is not 0

    ```yaml file=docs/examples/X    the block's body becomes the file's text
    ```

Everything else is copied as it stands.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .shell import ROOT, Ran, Workspace, normalise

SOURCE = Path("docs/guide.src.md")
TARGET = Path("docs/guide.md")
FENCE = re.compile(r"^```(\S*)(.*)$")
PROMPT = "$ "
HEADER = ("<!-- Generated from docs/guide.src.md by `python -m cheatdsl.docs.guide`, which runs every command "
          "shown; edit the source, not this file. -->\n\n")


class GuideError(ValueError):
    """A source the generator cannot build: an unclosed block, a missing file, a command it will not run."""


@dataclass
class Built:
    """The generated page, and every command run on the way."""

    text: str
    ran: list[Ran] = field(default_factory=list)


def _include(info: str, root: Path, line_no: int) -> str:
    match = re.search(r"\bfile=(\S+)", info)
    if match is None:
        return ""
    path = root / match.group(1)
    if not path.is_file():
        raise GuideError(f"{SOURCE}:{line_no}: no file {match.group(1)} to include")
    return path.read_text(encoding="utf-8")


def build(source: str, root: Path = ROOT, report: Callable[[Ran], None] | None = None) -> Built:
    """The guide from its source text: console blocks run, file blocks filled in."""
    lines = source.splitlines()
    out: list[str] = []
    built = Built("")
    with Workspace(root) as workspace:
        i = 0
        while i < len(lines):
            opening = FENCE.match(lines[i])
            if opening is None or not opening.group(1):
                out.append(lines[i])
                i += 1
                continue
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), None)
            if end is None:
                raise GuideError(f"{SOURCE}:{i + 1}: a ``` block that is never closed")
            body = lines[i + 1:end]
            language, info = opening.group(1), opening.group(2)
            out.append(f"```{language}")
            if language == "console":
                for line in body:
                    if not line.startswith(PROMPT):
                        raise GuideError(f"{SOURCE}:{i + 1}: a console block holds only `$ cheatdsl ...` lines, "
                                         f"found {line!r}")
                    ran = workspace.run(line[len(PROMPT):])
                    built.ran.append(ran)
                    if report:
                        report(ran)
                    out.append(line)
                    out.extend(ran.output.rstrip("\n").splitlines())
                    if ran.status:
                        out.append(f"[exit status {ran.status}]")
            else:
                included = _include(info, root, i + 1)
                out.extend(included.rstrip("\n").splitlines() if included else body)
            out.append("```")
            i = end + 1
    built.text = HEADER + "\n".join(out).rstrip("\n") + "\n"
    return built


def stale(committed: str, fresh: str) -> bool:
    """Whether the committed page differs from a fresh one in more than timings."""
    return normalise(committed) != normalise(fresh)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cheatdsl.docs.guide", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 when docs/guide.md is stale")
    args = parser.parse_args(argv)
    source = (ROOT / SOURCE).read_text(encoding="utf-8")

    def show(ran: Ran) -> None:
        print(f"{ran.seconds:6.2f} s  exit {ran.status}  $ {ran.line}", file=sys.stderr)

    try:
        built = build(source, ROOT, show)
    except GuideError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    target = ROOT / TARGET
    committed = target.read_text(encoding="utf-8") if target.is_file() else ""
    if args.check:
        if stale(committed, built.text):
            print(f"{TARGET} is stale: run `python -m cheatdsl.docs.guide`", file=sys.stderr)
            return 1
        print(f"{TARGET} is up to date", file=sys.stderr)
        return 0
    target.write_text(built.text, encoding="utf-8")
    total = sum(r.seconds for r in built.ran)
    print(f"wrote {TARGET}: {len(built.ran)} commands in {total:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
