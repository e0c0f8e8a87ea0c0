"""Progress on standard error: drawn only in a terminal, and only once the work has run a second."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress as Bar
    from rich.progress import TaskID

DELAY_SECONDS = 1.0
REFRESH_SECONDS = 0.1


class Progress:
    """A rich progress bar for `total` steps, redrawn when `update` is called (no thread of its own).

    Nothing is drawn when standard error is not a terminal, nor before `delay` seconds have passed;
    workers forked meanwhile are safe, since no refresh thread runs.
    """

    def __init__(self, what: str, total: int, stream: TextIO | None = None, delay: float = DELAY_SECONDS,
                 force: bool = False) -> None:
        self.what = what
        self.total = total
        self.stream = stream or sys.stderr
        self.delay = delay
        self.enabled = force or _is_terminal(self.stream)
        self.started = time.monotonic()
        self.drawn = 0.0
        self.bar: Bar | None = None
        self.task: TaskID | None = None
        self.label = ""

    def __enter__(self) -> Progress:
        self.started = time.monotonic()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def update(self, done: int, total: int | None = None, label: str = "") -> None:
        """`done` of `total` steps finished; `label` says what runs now."""
        if not self.enabled:
            return
        self.label = label or self.label
        now = time.monotonic()
        if now - self.started < self.delay or now - self.drawn < REFRESH_SECONDS:
            return
        if self.bar is None or self.task is None:
            self.bar, self.task = self._start()
        self.total = total if total is not None else self.total
        self.bar.update(self.task, completed=done, total=self.total, label=self.label)
        self.bar.refresh()
        self.drawn = now

    def _start(self) -> tuple[Bar, TaskID]:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as Bar
        console = Console(file=self.stream, force_terminal=True if self.stream is not sys.stderr else None)
        bar = Bar(TextColumn(self.what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.fields[label]}"), console=console, transient=True, auto_refresh=False)
        task = bar.add_task(self.what, total=self.total, label="")
        bar.tasks[-1].start_time = self.started  # the time shown counts from the start of the work
        bar.start()
        return bar, task


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
