"""Reading a rulebook file's text safely: size, encoding and binary checks shared by both forms."""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import Diagnostics
from ..source import SourceFile, Span
from .limits import MAX_FILE_BYTES


def read_source(path: str, diagnostics: Diagnostics) -> SourceFile | None:
    """The file's text, or None after recording why it cannot be read as a rulebook."""
    at = Span(path, 1, 1)
    file = Path(path)
    try:
        if not file.is_file():
            diagnostics.error(at, "E001", f"no rulebook file at '{path}'")
            return None
        size = file.stat().st_size
        if size > MAX_FILE_BYTES:
            diagnostics.error(
                at, "E002", f"file is {size:,} bytes; a rulebook may be at most {MAX_FILE_BYTES:,}",
                "a rulebook is a page of rules, not a data set: check that this is the right file",
            )
            return None
        data = file.read_bytes()
    except OSError as exc:
        diagnostics.error(at, "E001", f"cannot read '{path}': {exc.strerror or exc}")
        return None
    if b"\x00" in data:
        diagnostics.error(at, "E003", "file looks binary (it contains NUL bytes), not a rulebook")
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        diagnostics.error(Span(path, line, 1), "E003", "file is not valid UTF-8 text")
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    source = SourceFile(path, text)
    diagnostics.sources[path] = source
    if not text.strip():
        diagnostics.error(at, "E004", "the file is empty", "start from a shipped rulebook in rulebooks/")
        return None
    return source
