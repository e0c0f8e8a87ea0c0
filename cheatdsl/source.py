"""Source files and spans: where in a rulebook a piece of the model came from."""

from __future__ import annotations

from dataclasses import dataclass, field

from .profiles import shown_path


@dataclass(frozen=True)
class Span:
    """A location in a source file; lines and columns count from 1."""

    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        """`file:line:column`, a shipped profile named by its name, not where it is installed."""
        return f"{shown_path(self.file)}:{self.line}:{self.column}"

    def shifted(self, chars: int) -> Span:
        """The same place moved `chars` columns to the right (for text inside a scalar)."""
        return Span(self.file, self.line, self.column + chars, self.end_line, self.end_column)


NOWHERE = Span("<builtin>", 0, 0)


@dataclass
class SourceFile:
    """The text of one rulebook file, kept so diagnostics can quote its lines."""

    path: str
    text: str
    _lines: list[str] = field(default_factory=list, repr=False)

    def line(self, number: int) -> str:
        """The text of line `number` (1-based), or '' when out of range."""
        if not self._lines:
            self._lines = self.text.splitlines()
        if 1 <= number <= len(self._lines):
            return self._lines[number - 1]
        return ""
