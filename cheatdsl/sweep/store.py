"""The results folder: one JSON file per finished cell, each written whole (a temporary file, then a rename).

    DIR/cells/cell-KEY.json   a finished cell (KEY: the cell's key)
    DIR/results.csv           the tidy table, and DIR/results.parquet with pyarrow
    DIR/report.html           the report
    DIR/witnesses/*.yaml      explore's witnesses, as scenario files

Resuming reads the cells whose file exists and carries the same key; the others are run again.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..files import FileRefused, read_text
from ..output import OutputError, file_in, output_folder
from .cells import Cell

CELL_BYTES = 64_000_000
"""The largest cell result read back; a file past it (or no regular file) is no result: the cell runs again."""


class Store:
    """A results folder, made if missing; OutputError when it cannot be."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = output_folder(str(folder))
        self.cells = output_folder(str(self.folder / "cells"))

    def path(self, cell: Cell) -> Path:
        """Where the cell's result is kept."""
        return file_in(self.cells, "cell", cell.key, suffix=".json")

    def load(self, cell: Cell) -> dict[str, Any] | None:
        """The cell's saved result, or None when it is missing, unreadable or another cell's."""
        try:
            data = json.loads(read_text(str(self.path(cell)), CELL_BYTES))
        except (FileRefused, OSError, ValueError, RecursionError):
            return None
        if not isinstance(data, dict) or data.get("key") != cell.key or data.get("status") not in ("done", "clash"):
            return None
        return data

    def save(self, cell: Cell, result: dict[str, Any]) -> None:
        """Keep a finished cell's result."""
        write_atomic(self.path(cell), json.dumps(result, sort_keys=True, ensure_ascii=False) + "\n")

    def file(self, name: str) -> Path:
        """A file of the folder's own (name: a plain name with its suffix)."""
        stem, dot, suffix = name.partition(".")
        return file_in(self.folder, stem, suffix=dot + suffix)


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write `path` whole or not at all: a temporary file beside it, then a rename over it."""
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise OutputError(f"'{path}' exists and is not a plain file; nothing was written there")
    try:
        handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data.encode("utf-8") if isinstance(data, str) else data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise OutputError(f"cannot write '{path}': {exc.strerror or exc.__class__.__name__}") from None
