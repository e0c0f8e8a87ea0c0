"""Which files a rulebook or scenario may name: shipped profiles, its own folder, included folders.

A rulebook is untrusted data, so `extends:` (and a scenario's `rulebook:`) may reach only
- a shipped profile by name (`extends: NAME`, as `cheatdsl list` shows them),
- a file in the naming file's own folder or below it (`extends: house/base.yaml`),
- a file under a folder the user included (`--include DIR`, or CHEATDSL_INCLUDE, several folders
  separated by the system's path separator).
Paths are compared after symlinks are followed, so a link that leaves those folders is refused like
any other path outside them, with one message that says nothing of the target.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from .diagnostics import shown
from .profiles import RULEBOOK_SUFFIXES, shipped_path

INCLUDE_VARIABLE = "CHEATDSL_INCLUDE"
MAX_REFERENCE_CHARS = 1_000
MAX_COMPONENT_CHARS = 255

_included: ContextVar[tuple[str, ...]] = ContextVar("cheatdsl_included", default=())

REACH_RULE = ("a rulebook may name a shipped profile, a file in its own folder or below it, "
              f"or a file under a folder given with --include (or {INCLUDE_VARIABLE})")


@contextmanager
def including(folders: list[str] | tuple[str, ...]) -> Iterator[None]:
    """Let rulebooks read under `folders` (besides the environment's) while the block runs."""
    token = _included.set(tuple(folders))
    try:
        yield
    finally:
        _included.reset(token)


def included_folders() -> list[Path]:
    """The folders the user included, from the command line and the environment, as real paths."""
    named = list(_included.get())
    named += [p for p in os.environ.get(INCLUDE_VARIABLE, "").split(os.pathsep) if p]
    out = []
    for folder in named:
        real = real_path(Path(folder))
        if real is not None:
            out.append(real)
    return out


def real_path(path: Path) -> Path | None:
    """The path with symlinks followed, or None when it cannot be worked out (a loop, a NUL, ...)."""
    try:
        return Path(os.path.realpath(path, strict=False))
    except (OSError, ValueError, RuntimeError):
        return None


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


@dataclass(frozen=True)
class Reached:
    """A file a reference may be read from."""

    path: Path


@dataclass(frozen=True)
class Refused:
    """A reference that may not be followed; `message` says nothing about the target."""

    message: str
    hint: str
    code: str = "E306"


@dataclass(frozen=True)
class Unknown:
    """A bare name that is no shipped profile."""

    name: str


def well_formed(reference: str) -> bool:
    """Whether a reference is short, relative, and free of NULs and drive letters."""
    if not reference or len(reference) > MAX_REFERENCE_CHARS or "\x00" in reference or "\\" in reference:
        return False
    if reference.startswith(("/", "~")) or (len(reference) > 1 and reference[1] == ":"):
        return False
    return all(len(part) <= MAX_COMPONENT_CHARS for part in reference.split("/"))


def resolve_reference(reference: str, here: Path, what: str = "extends") -> Reached | Refused | Unknown:
    """Where `reference`, named in a file in folder `here`, may be read from, or why it may not."""
    refused = Refused(f"`{what}` may not reach '{shown(reference)}'", REACH_RULE)
    if not well_formed(reference):
        return refused
    if "/" not in reference and Path(reference).suffix not in RULEBOOK_SUFFIXES:
        shipped = shipped_path(reference)
        return Reached(shipped) if shipped is not None else Unknown(reference)
    folders = [here, *included_folders()]
    candidates = []
    for index, folder in enumerate(folders):
        base = real_path(folder) if index == 0 else folder
        if base is None:
            continue
        target = real_path(base / reference)
        if target is None:
            continue
        if any(_inside(target, root) for root in (base, *folders[1:])):
            candidates.append(target)
    if not candidates:
        return refused
    for target in candidates:
        if _exists(target):
            return Reached(target)
    return Reached(candidates[0])


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False
