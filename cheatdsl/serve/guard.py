"""Which requests the practice table answers: only pages of this machine may drive it.

A page from another site can make a browser send requests to 127.0.0.1 (a form or a `fetch` with a plain
content type), and a name the other site controls can be pointed at 127.0.0.1 after the page has loaded
(DNS rebinding). So every request must name this server in its `Host` header (its bound address, or
localhost), and a request that changes something must come from a page of the same origin: its `Origin`
header names this server, or it has none and says it carries JSON (which a browser only sends across sites
after asking, and this server never agrees).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from enum import Enum

LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
ANY_ADDRESS = frozenset({"0.0.0.0", "::"})
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class Verdict(Enum):
    """What the guard says of a request."""

    ALLOWED = "allowed"
    FOREIGN_HOST = "foreign host"
    FOREIGN_ORIGIN = "foreign origin"


@dataclass(frozen=True)
class Guard:
    """The names this server answers to: its bound address and localhost. Bound to every interface, it
    answers to any address written as numbers (a name could be anyone's)."""

    bound: str = "127.0.0.1"

    def host_allowed(self, host_header: str) -> bool:
        name = _host_name(host_header)
        if name is None:
            return False
        if name in LOCAL_NAMES or name == self.bound.strip("[]").lower():
            return True
        return self.bound in ANY_ADDRESS and _is_address(name)

    def check(self, method: str, host: str | None, origin: str | None, content_type: str | None) -> Verdict:
        if host is None or not self.host_allowed(host):
            return Verdict.FOREIGN_HOST
        if method.upper() not in STATE_CHANGING:
            return Verdict.ALLOWED
        if origin is None:
            kind = (content_type or "").split(";")[0].strip().lower()
            return Verdict.ALLOWED if kind == "application/json" else Verdict.FOREIGN_ORIGIN
        if origin.lower() in (f"http://{host.lower()}", f"https://{host.lower()}"):
            return Verdict.ALLOWED
        return Verdict.FOREIGN_ORIGIN


def _host_name(header: str) -> str | None:
    """The name in a Host header without its port (`[::1]:8000` -> `::1`), or None when it is malformed."""
    header = header.strip().lower()
    if not header or len(header) > 255:
        return None
    if header.startswith("["):
        end = header.find("]")
        if end < 0 or (header[end + 1:] and not _port(header[end + 1:])):
            return None
        return header[1:end]
    name, _, port = header.partition(":")
    if port and not _port(":" + port):
        return None
    return name


def _port(text: str) -> bool:
    return text.startswith(":") and text[1:].isascii() and text[1:].isdigit() and len(text) <= 6


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True
