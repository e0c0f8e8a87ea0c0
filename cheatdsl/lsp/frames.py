"""Cutting the language server's input into messages, whatever bytes arrive.

A message is a `Content-Length: N` header, optional other headers, an empty line and N bytes of
JSON. A frame that breaks this (a length that is negative, not a number or too large, a body that
is not JSON, a length shorter or longer than the body, stray bytes between messages) is reported
once as a problem and skipped; reading goes on at the next `Content-Length:` header, so the next
well-formed message is always served.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

MAX_MESSAGE_BYTES = 16_000_000
"""The largest body taken: far above any rulebook (1,000,000 bytes) an editor sends as text."""
MAX_HEADER_BYTES = 8_192
_HEADER = re.compile(rb"content-length:[ \t]*([^\r\n]*)\r?\n", re.IGNORECASE)
# A header that cuts short the body before it must start a line or follow the body's closing bracket,
# so that text inside a JSON string is never taken for one.
_NEXT_HEADER = re.compile(rb"(?:(?<=[\n}\]]))content-length:[ \t]*([^\r\n]*)\r?\n", re.IGNORECASE)
_HEADERS_END = re.compile(rb"\r?\n\r?\n")
_DIGITS = re.compile(rb"[0-9]{1,10}")
_OTHER_HEADERS = re.compile(rb"(?:[A-Za-z][A-Za-z0-9-]*:[^\r\n]*\r?\n)*\Z")


@dataclass(frozen=True)
class Message:
    """The body of one frame, checked to be JSON (the server reads it again into its own types)."""

    body: bytes


@dataclass(frozen=True)
class BadFrame:
    """A frame that could not be read, in words (answered with a JSON-RPC parse error)."""

    reason: str


class Frames:
    """Bytes in (`feed`), messages and bad frames out (`take`); holds at most one frame's bytes."""

    def __init__(self, max_body: int = MAX_MESSAGE_BYTES) -> None:
        self._buffer = bytearray()
        self._max_body = max_body
        self._looked = 0  # how far a body still arriving was searched for a next header (none found)

    def feed(self, data: bytes) -> None:
        """Add bytes read from the client."""
        self._buffer += data

    def take(self) -> list[Message | BadFrame]:
        """Every message and bad frame complete in the bytes fed so far, in order."""
        out: list[Message | BadFrame] = []
        while True:
            item = self._next()
            if item is None:
                return out
            out.append(item)

    def _drop(self, count: int) -> None:
        del self._buffer[:count]
        self._looked = 0

    def _next(self) -> Message | BadFrame | None:
        buffer = self._buffer
        header = _HEADER.search(buffer)
        if header is None:
            # Keep only a tail that could still become the start of a header.
            self._drop(max(0, len(buffer) - 64))
            return None
        before = bytes(buffer[: header.start()])
        stray = before[: _OTHER_HEADERS.search(before).start()].strip()  # a Content-Type first is no stray
        if stray:
            self._drop(header.start())
            return BadFrame(f"{len(stray)} stray bytes before a message were skipped")
        end = _HEADERS_END.search(buffer, header.end() - 2)
        if end is None:
            if len(buffer) > MAX_HEADER_BYTES:
                self._drop(header.end())
                return BadFrame("a message's headers never ended; skipped")
            return None
        value = header.group(1).strip()
        body_start = end.end()
        if not _DIGITS.fullmatch(value) or int(value) > self._max_body:
            self._drop(body_start)
            return BadFrame(f"Content-Length {_shown(value)} is not a length from 0 to {self._max_body:,}")
        length = int(value)
        available = len(buffer) - body_start
        if available < length:
            return self._early_end(max(body_start, self._looked), len(buffer), body_start)
        body = bytes(buffer[body_start: body_start + length])
        try:
            json.loads(body)
        except (ValueError, RecursionError):
            early = self._early_end(body_start, body_start + length, body_start)
            if early is not None:
                return early
            self._drop(body_start)  # read on from the body: a next header inside it is found
            return BadFrame(f"a body of {length} bytes is not JSON")
        self._drop(body_start + length)
        return Message(body)

    def _early_end(self, start: int, stop: int, body_start: int) -> Message | BadFrame | None:
        """When another complete header starts inside what the length claims for this body (searched
        from `start` to `stop`), the length was too long: the bytes before that header are this body
        (a message if they are JSON). Each byte of a body still arriving is searched once."""
        buffer = self._buffer
        following = _NEXT_HEADER.search(buffer, max(body_start, start - MAX_HEADER_BYTES // 128), stop)
        if following is None:
            self._looked = stop
            return None
        if _HEADERS_END.search(buffer, following.end() - 2, following.end() + MAX_HEADER_BYTES) is None:
            self._looked = following.start()
            return None
        body = bytes(buffer[body_start: following.start()])
        self._drop(following.start())
        try:
            json.loads(body)
            return Message(body)
        except (ValueError, RecursionError):
            return BadFrame(f"a body of {len(body)} bytes before the next message is not JSON")


def _shown(value: bytes) -> str:
    text = value[:40].decode("utf-8", errors="replace")
    return repr(text) + ("..." if len(value) > 40 else "")
