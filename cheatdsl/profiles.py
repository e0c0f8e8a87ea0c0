"""The profiles shipped with cheatdsl: where they are, finding one by name, and rulebook names."""

from __future__ import annotations

import json
import os
import re
from importlib import resources
from pathlib import Path
from typing import Any

RULEBOOK_SUFFIXES = (".yaml", ".yml", ".cheat")
SHIPPED_SUFFIXES = (".yaml", ".cheat")

# Rulebook, variation, property and lesson names: letters, digits, '-', '_' and '.', no leading dot,
# so that a name joined to a folder always stays inside it.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
NAME_RULE = "letters, digits, '-', '_' and '.', at most 100, starting with a letter or digit"


def is_safe_name(name: object) -> bool:
    """Whether `name` may be used as a rulebook, variation, property or lesson name."""
    return isinstance(name, str) and NAME_PATTERN.fullmatch(name) is not None and ".." not in name


def shipped_dir() -> Path:
    """The folder of the shipped profiles: inside the installed package, or a checkout's rulebooks/."""
    packaged = resources.files("cheatdsl").joinpath("rulebooks")
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "rulebooks"


def shipped_ratings_path() -> Path:
    """The stored ratings of the shipped profiles (what `python -m cheatdsl.docs.gallery --rate` measured):
    inside the installed package, or a checkout's docs/gallery/ratings.json."""
    packaged = resources.files("cheatdsl").joinpath("ratings.json")
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "docs" / "gallery" / "ratings.json"


def read_ratings(path: Path) -> dict[str, dict[str, Any]]:
    """The stored ratings' entries by profile name (`cheatdsl.docs.ratings`); none where the file is missing or
    is not such a file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {str(e["profile"]): e for e in data.get("profiles", []) if isinstance(e, dict) and "profile" in e}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def shipped_path(name: str) -> Path | None:
    """The shipped profile called `name` (YAML before the text form), or None when there is none."""
    if not is_safe_name(name):
        return None
    folder = shipped_dir()
    stem = name
    for suffix in SHIPPED_SUFFIXES:
        if name.endswith(suffix):
            stem = name[: -len(suffix)]
            candidates: tuple[str, ...] = (suffix,)
            break
    else:
        candidates = SHIPPED_SUFFIXES
    for suffix in candidates:
        path = folder / f"{stem}{suffix}"
        if path.is_file():
            return path
    return None


def shipped_names() -> list[str]:
    """The names of the shipped profiles, in name order, each once."""
    try:
        files = list(shipped_dir().iterdir())
    except OSError:
        return []
    return sorted({p.stem for p in files if p.suffix in SHIPPED_SUFFIXES and is_safe_name(p.stem)})


def shipped_files() -> list[Path]:
    """Every shipped rulebook file (both forms of a profile written twice), in name order."""
    try:
        files = list(shipped_dir().iterdir())
    except OSError:
        return []
    return sorted(p for p in files if p.suffix in SHIPPED_SUFFIXES and is_safe_name(p.stem))


def locate(argument: str) -> str:
    """A rulebook named on the command line as a path to read: an existing path, else a shipped name.

    Anything else is returned as given, so that reading it reports the missing file.
    """
    if argument == "-":
        return argument
    try:
        if Path(argument).exists():
            return argument
    except (OSError, ValueError):
        return argument
    shipped = shipped_path(argument)
    return str(shipped) if shipped is not None else argument


def command_name(rulebook: str) -> str:
    """How a command line names `rulebook`: a shipped profile by name, anything else as it was given."""
    try:
        real = Path(rulebook).resolve()
        if real.parent == shipped_dir().resolve() and shipped_path(real.stem) == real:
            return real.stem
    except (OSError, RuntimeError, ValueError):
        pass
    return rulebook


def shown_path(path: str) -> str:
    """How a message names the file at `path`: a shipped profile by its name (with its suffix when the
    name alone would pick the other form), never by where it is installed; any other file as given."""
    if not path or path.startswith("<"):
        return path
    try:
        real = Path(path).resolve()
        if real.parent != shipped_dir().resolve():
            return path
    except (OSError, RuntimeError, ValueError):
        return path
    if shipped_path(real.stem) == real:
        return real.stem
    return real.name if shipped_path(real.name) == real else path


def reference_to(rulebook: str, folder: str) -> str:
    """How a file written in `folder` names `rulebook`: a shipped profile by name, else a relative path."""
    located = locate(rulebook)
    name = command_name(located)
    if name != located:
        return name
    try:
        return os.path.relpath(Path(located).resolve(), Path(folder).resolve())
    except (OSError, RuntimeError, ValueError):
        return located
