"""Reading a rulebook file's text safely: size, encoding and binary checks shared by both forms."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ..diagnostics import Diagnostics, shown
from ..files import FileRefused, Refusal, read_bytes
from ..limits import MAX_FILE_BYTES
from ..source import SourceFile, Span

STDIN = "-"
STDIN_NAME = "<stdin>"
_stdin_bytes: list[bytes] = []
_YAML_KEY = re.compile(r"^[A-Za-z_][\w-]*\s*:")


def display_name(path: str) -> str:
    """The name diagnostics give a file: its path, or <stdin>."""
    return STDIN_NAME if path == STDIN else path


def looks_like_dsl(text: str) -> bool:
    """Whether text read from standard input is the text DSL (its first rule is not `key: value`)."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return not _YAML_KEY.match(stripped)
    return False


def _read_bytes(path: str) -> bytes:
    """The file's bytes through the one file reader (FileRefused past the size limit or for what is
    no regular file); standard input is read once, at most one byte past the limit."""
    if path == STDIN:
        if not _stdin_bytes:
            _stdin_bytes.append(sys.stdin.buffer.read(MAX_FILE_BYTES + 1))
        return _stdin_bytes[0]
    return read_bytes(path, MAX_FILE_BYTES)


def stdin_bytes() -> bytes:
    """The rulebook read from standard input (read once, then kept, for every reader that asks)."""
    return _read_bytes(STDIN)


def read_source(path: str, diagnostics: Diagnostics, text: str | None = None) -> SourceFile | None:
    """The file's text (or `text`, an editor's unsaved copy of it), or None after recording why it
    cannot be read as a rulebook."""
    name = display_name(path)
    at = Span(name, 1, 1)
    try:
        if text is not None:
            data = text.encode("utf-8", errors="surrogatepass")[: MAX_FILE_BYTES + 1]
        else:
            data = _read_bytes(path)
    except FileRefused as refused:
        if refused.refusal is Refusal.TOO_LARGE:
            _too_large(at, diagnostics)
        elif refused.refusal is Refusal.UNREACHABLE:
            diagnostics.error(at, "E001", f"cannot read '{shown(path, 120)}': {refused.detail}")
            return None
        else:
            diagnostics.error(at, "E001", f"no rulebook file at '{shown(path, 120)}': {refused.words()}",
                              "name a rulebook file, or a shipped profile (`cheatdsl list`)")
        return None
    except (OSError, ValueError) as exc:
        diagnostics.error(at, "E001", f"cannot read '{shown(path, 120)}': "
                          f"{getattr(exc, 'strerror', None) or exc.__class__.__name__}")
        return None
    if len(data) > MAX_FILE_BYTES:
        _too_large(at, diagnostics)
        return None
    if b"\x00" in data:
        diagnostics.error(at, "E003", "file looks binary (it contains NUL bytes), not a rulebook")
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        diagnostics.error(Span(name, line, 1), "E003", "file is not valid UTF-8 text")
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    source = SourceFile(name, text)
    diagnostics.sources[name] = source
    if not text.strip():
        diagnostics.error(at, "E004", "the file is empty", "start from a shipped rulebook in rulebooks/")
        return None
    return source


def _too_large(at: Span, diagnostics: Diagnostics) -> None:
    diagnostics.error(at, "E002", f"file is over {MAX_FILE_BYTES:,} bytes, the most a rulebook may be",
                      "a rulebook is a page of rules, not a data set: check that this is the right file")


def file_problem(path: Path) -> str | None:
    """Why `path` is no readable regular file (missing, a folder, a device, unreachable), or None."""
    try:
        if path.is_file():
            return None
        if path.is_dir():
            return "is a folder"
        if path.exists():
            return "is not a regular file"
        return "does not exist"
    except (OSError, ValueError) as exc:
        return f"cannot be reached ({getattr(exc, 'strerror', None) or exc.__class__.__name__})"
