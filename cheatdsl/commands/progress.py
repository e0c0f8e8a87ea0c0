"""Progress on standard error: a bar in a terminal once the work has run a second; elsewhere (a log, a pipe,
CI) a one-line note once it has run NOTE_AFTER seconds, and again every NOTE_EVERY seconds."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress as Bar
    from rich.progress import TaskID

DELAY_SECONDS = 1.0
REFRESH_SECONDS = 0.1
NOTE_AFTER = 10.0  # off a terminal: the first note, for work running past this
NOTE_EVERY = 5.0


class Progress:
    """A rich progress bar for `total` steps, redrawn when `update` is called (no thread of its own).

    Nothing is drawn before `delay` seconds have passed; workers forked meanwhile are safe, since no refresh
    thread runs. When standard error is not a terminal a line such as `rating: 120 of 480 (25%), 31 s so far` is
    written instead, first after `note_after` seconds, then every `note_every` seconds (at the next `update`).
    """

    def __init__(self, what: str, total: int, stream: TextIO | None = None, delay: float = DELAY_SECONDS,
                 force: bool = False, note_after: float = NOTE_AFTER, note_every: float = NOTE_EVERY) -> None:
        self.what = what
        self.total = total
        self.stream = stream or sys.stderr
        self.delay = delay
        self.enabled = force or _is_terminal(self.stream)
        self.noted = 0.0  # when the last note was written (off a terminal)
        self.note_after, self.note_every = note_after, note_every
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
            self._note(done, total, label)
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

    def _note(self, done: int, total: int | None, label: str) -> None:
        """Off a terminal: a line of progress, at most every `note_every` seconds once `note_after` have passed."""
        now = time.monotonic()
        if now - self.started < self.note_after or now - self.noted < self.note_every:
            return
        self.noted = now
        self.total = total if total is not None else self.total
        share = f" ({done / self.total:.0%})" if self.total else ""
        of = f" of {self.total:,}" if self.total else ""
        what = f", {label}" if label else ""
        try:
            print(f"{self.what}: {done:,}{of}{share}, {now - self.started:.0f} s so far{what}", file=self.stream,
                  flush=True)
        except (OSError, ValueError):  # a closed pipe loses the note, never the work
            pass

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
