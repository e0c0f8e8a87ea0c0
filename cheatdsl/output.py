"""Writing the files commands produce (witness scenarios, diff games, docs pages) inside one folder."""

from __future__ import annotations

from pathlib import Path
from typing import IO

from .profiles import is_safe_name


class OutputError(Exception):
    """A file a command was asked to write that cannot or may not be written (a usage error)."""


def output_folder(folder: str) -> Path:
    """The folder, made if missing; OutputError when it is a file or cannot be made."""
    path = Path(folder)
    try:
        if path.exists() and not path.is_dir():
            raise OutputError(f"'{folder}' is a file, not a folder: name a folder to write into")
        path.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as exc:
        raise OutputError(f"cannot make the folder '{folder}': "
                          f"{getattr(exc, 'strerror', None) or exc.__class__.__name__}") from None
    return path


def file_in(folder: Path, *parts: str, suffix: str = "") -> Path:
    """`folder/part1-part2...suffix`, each part a plain name, so the file stays inside the folder."""
    for part in parts:
        if not is_safe_name(part):
            raise OutputError(f"'{part}' is not a plain name; a file cannot be named after it")
    return folder / ("-".join(parts) + suffix)


def open_new(path: Path, force: bool = False) -> IO[str]:
    """`path` opened for writing; an existing file is kept (OutputError) unless `force`."""
    try:
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise OutputError(f"'{path}' exists and is not a plain file; nothing was written there")
        return open(path, "w" if force else "x", encoding="utf-8")
    except FileExistsError:
        raise OutputError(f"'{path}' exists; pass --force to overwrite it") from None
    except OSError as exc:
        raise OutputError(f"cannot write '{path}': {exc.strerror or exc.__class__.__name__}") from None


def write_new(path: Path, text: str, force: bool = False) -> None:
    """Write `text` to `path`; an existing file is kept (OutputError) unless `force`."""
    with open_new(path, force) as handle:
        handle.write(text)
