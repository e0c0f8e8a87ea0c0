"""The one reader of a user's file: a regular file of at most a given size, or a refusal saying why.

Every file a command reads on a user's word (rulebooks, scenarios, sweep specs, lesson files, the
documents the language server is asked about) comes through here, so a named pipe, a device such
as /dev/zero, a folder or a file larger than the limit is refused at once instead of being read
for ever or whole.
"""

from __future__ import annotations

import enum
import os
import stat

from .limits import MAX_FILE_BYTES


class Refusal(enum.Enum):
    """Why a file was not read."""

    MISSING = "does not exist"
    FOLDER = "is a folder"
    NOT_REGULAR = "is not a regular file (a pipe, a device or a socket)"
    UNREACHABLE = "cannot be reached"
    TOO_LARGE = "is too large"
    NOT_TEXT = "is not UTF-8 text"


class FileRefused(Exception):
    """A file that was not read: `refusal` says why, `line` where (1 unless the text is bad further in)."""

    def __init__(self, path: str, refusal: Refusal, detail: str = "", line: int = 1) -> None:
        self.path = path
        self.refusal = refusal
        self.detail = detail
        self.line = line
        super().__init__(self.words())

    def words(self) -> str:
        """What went wrong, in a sentence that does not name the file (the caller's location does)."""
        if self.refusal is Refusal.UNREACHABLE and self.detail:
            return f"it cannot be read ({self.detail})"
        if self.refusal is Refusal.TOO_LARGE:
            return f"it is larger than {self.detail} bytes"
        return f"it {self.refusal.value}"


def _kind(mode: int) -> Refusal | None:
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return Refusal.FOLDER
    return Refusal.NOT_REGULAR


def read_bytes(path: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file at `path`, or FileRefused when it is missing, no regular file,
    unreadable or longer than `limit` bytes (at most `limit + 1` bytes are ever read)."""
    try:
        before = os.stat(path)
    except FileNotFoundError:
        raise FileRefused(path, Refusal.MISSING) from None
    except (OSError, ValueError) as exc:
        raise FileRefused(path, Refusal.UNREACHABLE, _reason(exc)) from None
    refusal = _kind(before.st_mode)
    if refusal is not None:
        raise FileRefused(path, refusal)
    if before.st_size > limit:
        raise FileRefused(path, Refusal.TOO_LARGE, f"{limit:,}")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        handle = os.open(path, flags)
    except FileNotFoundError:
        raise FileRefused(path, Refusal.MISSING) from None
    except (OSError, ValueError) as exc:
        raise FileRefused(path, Refusal.UNREACHABLE, _reason(exc)) from None
    try:
        refusal = _kind(os.fstat(handle).st_mode)  # the name may have been swapped since the look
        if refusal is not None:
            raise FileRefused(path, refusal)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(handle, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise FileRefused(path, Refusal.UNREACHABLE, _reason(exc)) from None
    finally:
        os.close(handle)
    if size > limit:
        raise FileRefused(path, Refusal.TOO_LARGE, f"{limit:,}")
    return b"".join(chunks)


def read_text(path: str, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file at `path` (a leading byte-order mark dropped), or
    FileRefused as read_bytes says, or with the line where the text stops being UTF-8."""
    return decode(path, read_bytes(path, limit))


def decode(path: str, data: bytes) -> str:
    """`data` as UTF-8 text without a leading byte-order mark, or FileRefused naming the bad line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileRefused(path, Refusal.NOT_TEXT, line=data[: exc.start].count(b"\n") + 1) from None
    return text[1:] if text.startswith("\ufeff") else text


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or exc.__class__.__name__
