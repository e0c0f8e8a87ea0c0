"""Running `cheatdsl` command lines as a reader would, and capturing what they print.

Each command runs in a child process (`python -m cheatdsl ...`) in a scratch directory that sees the
repository's `rulebooks/` and `docs/` through links, so files a command writes (an HTML page,
scenario files) land in the scratch directory and never in the repository. Standard output and
standard error are captured together, in the order written.
"""

from __future__ import annotations

import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = "cheatdsl"
TIMEOUT_SECONDS = 300.0
# Things that differ from one run or machine to the next; `normalise` masks them before comparing.
TIMING = re.compile(r"\b\d+(?:\.\d+)? ?(?:ms|s|seconds)\b")


class CommandError(ValueError):
    """A command line the generator will not run (not `cheatdsl ...`, or not parsable)."""


@dataclass(frozen=True)
class Ran:
    """One command line and what it printed."""

    line: str
    output: str
    status: int
    seconds: float


class Workspace:
    """A scratch directory linking to the repository's rulebooks and docs; commands run there, in order."""

    def __init__(self, root: Path = ROOT) -> None:
        self.root = root
        self._tmp = tempfile.TemporaryDirectory(prefix="cheatdsl-docs-")
        self.path = Path(self._tmp.name)
        for name in ("rulebooks", "docs"):
            (self.path / name).symlink_to(root / name, target_is_directory=True)

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._tmp.cleanup()

    def _environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CHEATDSL_")}
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(self.root), env.get("PYTHONPATH", "")) if p)
        env.update(PYTHONUNBUFFERED="1", PYTHONHASHSEED="0", COLUMNS="100", NO_COLOR="1", TERM="dumb")
        return env

    def arguments(self, line: str) -> list[str]:
        """The words of `line` after `cheatdsl`, with glob patterns expanded in the scratch directory."""
        try:
            words = shlex.split(line)
        except ValueError as exc:
            raise CommandError(f"cannot read the command line {line!r}: {exc}") from None
        if not words or words[0] != PROGRAM:
            raise CommandError(f"only `{PROGRAM} ...` commands are run, not {line!r}")
        out = []
        for word in words[1:]:
            found = sorted(glob.glob(word, root_dir=self.path)) if glob.has_magic(word) else []
            out.extend(found or [word])
        return out

    def run(self, line: str) -> Ran:
        """Run one command line; its output with the scratch directory's and the repository's paths made relative."""
        command = [sys.executable, "-m", PROGRAM, *self.arguments(line)]
        start = time.perf_counter()
        done = subprocess.run(command, cwd=self.path, env=self._environment(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT_SECONDS)
        seconds = time.perf_counter() - start
        return Ran(line, self.relative(done.stdout), done.returncode, seconds)

    def relative(self, text: str) -> str:
        """`text` with absolute paths into the scratch directory or the repository written relative to it."""
        for base in sorted({str(self.path.resolve()), str(self.path), str(self.root)}, key=len, reverse=True):
            text = text.replace(base + os.sep, "")
        return text


def normalise(text: str) -> str:
    """`text` with what varies between runs masked (timings), for comparing a committed page with a fresh one."""
    return TIMING.sub("<time>", text)
