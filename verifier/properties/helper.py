"""A second process for one rulebook's player counts: it takes counts from the largest down while this
process works up from the smallest, and sends back what it found.

A count is analysed the same way wherever it runs (each property in a fresh Z3 context, the same
checks in the same order), so its results do not depend on which process made them. Two things pass
from count to count. The counterexample searches a property may make go to the smallest counts that
need one: the helper makes no search, its budget only records who asked, and if a search is still due
at such a count when its turn comes, this process analyses that count again with the real budget. The
recurrent set checked at the smallest count is only read by termination, which the helper leaves to
this process (it is cheap once that set is known).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..solving.shortcuts import die_with_parent
from .verdict import Result


@dataclass
class Count:
    """The results at one player count, the seconds each took, the verdicts to share with other
    rulebooks, and the properties that asked for a search their budget refused."""

    n: int
    results: dict[str, Result]
    seconds: dict[str, float]
    found: dict[tuple[str, int], dict[str, Any]]
    asked: set[str] = field(default_factory=set)
    by_helper: bool = False
    invariants: Any = None  # what `analysis.proved_so_far` gives, for the checks left to the other process


Run = Callable[[int, Any], Count]


class Helper:
    """Counts shared out between this process (from the smallest) and a forked helper (from the largest)."""

    def __init__(self, counts: Sequence[int], run: Run, budget: Any) -> None:
        self.counts = list(counts)
        self.run = run
        self.results: dict[int, Count] = {}
        ctx = multiprocessing.get_context("fork")
        # ends[0]: the next count this process takes; ends[1]: the next the helper takes.
        self.ends = ctx.Array("i", [0, len(self.counts) - 1])
        self.inbox, child_out = ctx.Pipe(duplex=False)
        self.first = self.counts[0]
        with self.ends.get_lock():
            self.ends[0] = 1  # the smallest count is ours before the helper starts
        parent = os.getpid()
        self.pid = os.fork()
        if self.pid == 0:  # the helper
            # A parent killed by the runner's timer must not leave a helper running (where Linux cannot be
            # asked, the helper stops between counts once its parent is gone).
            die_with_parent()
            self.inbox.close()
            finished: list[Count] = []
            try:
                self._work(parent, budget, finished)
            except BaseException:  # noqa: BLE001 - the counts it did not finish are done by the other process
                pass
            try:
                # Sent at the end, all at once: a big result never waits in the pipe while counts are left.
                child_out.send(finished)
            finally:
                os._exit(0)
        child_out.close()
        self.alive = True

    def _take(self, low: bool) -> int | None:
        with self.ends.get_lock():
            if self.ends[0] > self.ends[1]:
                return None
            i = self.ends[0] if low else self.ends[1]
            if low:
                self.ends[0] += 1
            else:
                self.ends[1] -= 1
            return i

    def _work(self, parent: int, budget: Any, finished: list[Count]) -> None:
        mine = _Recording(budget)
        while True:
            i = self._take(low=False)
            if i is None or os.getppid() != parent:
                return
            mine.asked = set()
            done = self.run(self.counts[i], mine)
            done.asked, done.by_helper = set(mine.asked), True
            finished.append(done)

    def ours(self) -> int | None:
        """The next count for this process, or None when every count is taken."""
        i = self._take(low=True)
        return None if i is None else self.counts[i]

    def collect(self) -> dict[int, Count]:
        """Every count the helper finished (waiting for it to end)."""
        if self.alive:
            try:
                for count in self.inbox.recv():
                    self.results[count.n] = count
            except (EOFError, OSError):
                pass
            self._reap()
        return self.results

    def close(self) -> None:
        """Stop the helper if it is still at work (this process gave up), and reap it."""
        if self.alive:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._reap()

    def _reap(self) -> None:
        self.alive = False
        self.inbox.close()
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


class _Recording:
    """The helper's budget: no searches (each property that asks is noted), and no recurrent set."""

    def __init__(self, budget: Any) -> None:
        self._budget = budget
        self.asked: set[str] = set()
        self.first = False

    def take(self, pid: str) -> bool:
        self.asked.add(pid)
        return False

    def seconds_left(self) -> float:
        return float(self._budget.seconds_left())

    def recurrence(self, rb: Any) -> Any:
        raise AssertionError("termination is left to the other process")
