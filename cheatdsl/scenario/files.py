"""Finding scenario files under a folder without following links out of it or walking for ever."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

MAX_ENTRIES = 50_000
HEAD_BYTES = 65_536


@dataclass
class Found:
    """The scenario files found under some folders, and what could not be looked at, in words."""

    files: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def find_scenarios(folder: str, found: Found) -> None:
    """Add the scenario files under `folder` (sorted), and a line for each place that could not be read."""
    seen = 0
    files: list[str] = []

    def unreadable(error: OSError) -> None:
        found.problems.append(f"{error.filename}: cannot be read ({error.strerror or error.__class__.__name__})")

    for here, folders, names in os.walk(folder, onerror=unreadable, followlinks=False):
        folders.sort()
        seen += len(folders) + len(names)
        if seen > MAX_ENTRIES:
            found.problems.append(f"{folder}: more than {MAX_ENTRIES:,} files and folders; "
                                  "name a smaller folder of scenarios")
            break
        for name in sorted(names):
            if name.endswith(".yaml") and _is_scenario(Path(here) / name):
                files.append(os.path.join(here, name))
    found.files.extend(sorted(files))


def is_scenario_text(text: str) -> bool:
    """Whether YAML text is a scenario rather than a rulebook: a line of its first 64 KB starts with
    `scenario:` (a top-level key no rulebook has). `check`, the pre-commit hook and the language
    server all tell the two kinds of file apart by this."""
    return any(line.startswith("scenario:") for line in text[:HEAD_BYTES].splitlines())


def is_scenario_file(path: str) -> bool:
    """Whether the file at `path` is a YAML scenario file (a .cheat file is always a rulebook)."""
    return path.endswith((".yaml", ".yml")) and _is_scenario(Path(path))


def _is_scenario(path: Path) -> bool:
    """Whether a regular file is a scenario by its first 64 KB."""
    try:
        if not path.is_file():
            return False
        with open(path, "rb") as handle:
            head = handle.read(HEAD_BYTES).decode("utf-8", errors="replace")
    except (OSError, ValueError):
        return False
    return is_scenario_text(head)
