"""Diagnostics: every problem found in a rulebook, located and rendered like a compiler's."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from .profiles import shown_path
from .source import NOWHERE, SourceFile, Span


def shown(text: str, limit: int = 80) -> str:
    """Text from a file or a command line as a message quotes it: control characters made visible,
    shortened to `limit`."""
    text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Severity(Enum):
    """How bad a diagnostic is."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Diagnostic:
    """One problem: where, how bad, a stable code, what is wrong and how to fix it."""

    span: Span
    severity: Severity
    code: str
    message: str
    hint: str = ""
    note: str = ""  # where the rule involved lives when it is not at `span` (a base rulebook's line)

    def render(self, sources: dict[str, SourceFile] | None = None) -> str:
        """`file:line:col: error[CODE]: message`, then the source line, a caret, the hint and the note."""
        head = f"{self.span}: {self.severity.value}[{self.code}]: {self.message}"
        lines = [head]
        source = (sources or {}).get(self.span.file)
        text = source.line(self.span.line) if source and self.span.line else ""
        if text:
            shown = text.replace("\t", " ")
            if len(shown) > 200:
                shown = shown[:200] + " ..."
            lines.append(f"  {shown}")
            caret_at = max(self.span.column - 1, 0)
            width = 1
            if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                width = self.span.end_column - self.span.column
            width = max(1, min(width, max(1, len(shown) - caret_at)))
            lines.append("  " + " " * min(caret_at, len(shown)) + "^" * width)
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        if self.note:
            lines.append(f"  note: {self.note}")
        return "\n".join(lines)

    def as_json(self) -> dict[str, object]:
        """The diagnostic as a plain mapping for `--format json`."""
        return {
            "file": shown_path(self.span.file),
            "line": self.span.line,
            "column": self.span.column,
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
            "note": self.note,
        }


class Diagnostics:
    """A collector: the front end adds every problem it finds and carries on."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []
        self.sources: dict[str, SourceFile] = {}

    def error(self, span: Span | None, code: str, message: str, hint: str = "") -> None:
        """Record an error at `span`."""
        self.items.append(Diagnostic(span or NOWHERE, Severity.ERROR, code, message, hint))

    def warning(self, span: Span | None, code: str, message: str, hint: str = "") -> None:
        """Record a warning at `span`."""
        self.items.append(Diagnostic(span or NOWHERE, Severity.WARNING, code, message, hint))

    def extend(self, items: Iterable[Diagnostic]) -> None:
        """Add diagnostics found elsewhere."""
        self.items.extend(items)

    @property
    def errors(self) -> list[Diagnostic]:
        """Only the errors."""
        return [d for d in self.items if d.severity is Severity.ERROR]

    def has_errors(self) -> bool:
        """True when at least one error was recorded."""
        return any(d.severity is Severity.ERROR for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        """Diagnostics in file order, duplicates removed."""
        seen: set[tuple[object, ...]] = set()
        out = []
        for d in sorted(self.items, key=lambda d: (d.span.file, d.span.line, d.span.column, d.code)):
            key = (d.span, d.code, d.message)
            if key not in seen:
                seen.add(key)
                out.append(d)
        return out

    def render(self) -> str:
        """All diagnostics, rendered one after another."""
        return "\n".join(d.render(self.sources) for d in self.sorted())

    def to_json(self) -> str:
        """All diagnostics as a JSON list."""
        return json.dumps([d.as_json() for d in self.sorted()], indent=2)


class RulebookError(Exception):
    """Raised when a rulebook cannot be compiled; carries every diagnostic found."""

    def __init__(self, diagnostics: Diagnostics) -> None:
        self.diagnostics = diagnostics
        super().__init__(diagnostics.render())
