"""Worker processes for the heavy checks: each forked once, verifying one rulebook after another.

A process forked for every rulebook maps its memory afresh each time (most of a run's system time
went there); a worker maps it once. Each rulebook still starts from the state a process forked for it
alone would start from: each task is given a copy of the heavy checks' caches as they were when the
worker was forked, with what the parent has collected since (the verdicts and invariants other
rulebooks proved), so that verdicts and their words do not depend on which worker verified what before.
A task not finished in its time has its worker killed (a new one is forked for the next task), and its
verdicts are `unknown`, never a pass.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from cheatdsl.jobs import die_with_parent

from .properties.settings import Caches, Shared

# The heavy batch of task i, as plain data: (task, helper allowed, the caches it starts from).
Run = Callable[[int, bool, Caches], dict[str, Any]]


def _serve(conn: Any, run: Run, caches: Caches) -> None:
    """A worker's loop: (task, helper allowed, shared since the last task) in, the task's batch out.

    Each task gets a copy of `caches` as they were at the fork, with what the parent collected from the
    workers since, taken as the parent took it, in the same order."""
    die_with_parent()
    forked = caches.copy()
    shared: list[Shared] = []
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, helper, news = message
        shared.extend(news)
        task = forked.copy()
        for found, made in shared:
            task.adopt(found, made)
        try:
            out = run(index, helper, task)
        except BaseException as exc:  # noqa: BLE001 - reported back as the tool's error, never a verdict
            out = {"error": f"internal error: {type(exc).__name__}: {exc}", "internal": True}
        conn.send(out)


class _Worker:
    """One worker process: the task it is at (None when idle), and when that task's time is up."""

    def __init__(self, ctx: Any, run: Run, caches: Caches, seen: int) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.proc = ctx.Process(target=_serve, args=(child, run, caches), daemon=True)
        self.proc.start()
        child.close()
        self.seen = seen  # entries of the shared log it already holds
        self.task: int | None = None
        self.deadline = 0.0
        self.seconds = 0.0

    def stop(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join()
        self.conn.close()


class Workers:
    """At most `size` workers; tasks are indices that `run` (inherited by the fork) turns into batches, each
    starting from `caches` as they are when its worker is forked, with what was shared since."""

    def __init__(self, ctx: Any, size: int, run: Run, caches: Caches | None = None) -> None:
        self.ctx, self.size, self.run = ctx, size, run
        self.caches = Caches() if caches is None else caches
        self.log: list[Shared] = []
        self.workers: list[_Worker] = []

    def busy(self) -> int:
        return sum(w.task is not None for w in self.workers)

    def idle(self) -> bool:
        return self.busy() < self.size

    def share(self, found: dict[Any, Any], made: dict[str, Any]) -> None:
        """Data collected from a batch (after the parent took it), for the tasks given from now on."""
        self.log.append((found, made))

    def give(self, index: int, helper: bool, seconds: float) -> None:
        """Start task `index` on an idle worker (forked now if none is idle)."""
        worker = next((w for w in self.workers if w.task is None), None)
        if worker is None:
            worker = _Worker(self.ctx, self.run, self.caches, len(self.log))
            self.workers.append(worker)
        worker.conn.send((index, helper, self.log[worker.seen:]))
        worker.seen = len(self.log)
        worker.task, worker.seconds = index, seconds
        worker.deadline = time.perf_counter() + seconds

    def finished(self) -> list[tuple[int, dict[str, Any]]]:
        """The tasks done since the last call, with their batches; a task past its time, or whose worker
        died, with an error in place of its batch (its worker is replaced by a new one when next needed)."""
        out = []
        for w in list(self.workers):
            if w.task is None:
                continue
            data: dict[str, Any] | None = None
            if w.conn.poll(0):
                try:
                    data = w.conn.recv()
                except (EOFError, OSError):
                    w.proc.join()
                    data = {"error": "internal error: the check's process ended with status "
                                     f"{w.proc.exitcode}", "internal": True}
            elif time.perf_counter() > w.deadline:
                data = {"error": f"killed after {w.seconds:g} s"}
            if data is None:
                continue
            out.append((w.task, data))
            w.task = None
            if "results" not in data:
                w.stop()
                self.workers.remove(w)
        return out

    def wait(self, seconds: float) -> None:
        """Sleep until a busy worker has something to say, or `seconds` pass."""
        from multiprocessing.connection import wait
        conns = [w.conn for w in self.workers if w.task is not None]
        if conns:
            wait(conns, timeout=seconds)
        else:
            time.sleep(seconds)

    def close(self) -> None:
        """Let idle workers end, and stop any still at work."""
        for w in self.workers:
            if w.task is None:
                try:
                    w.conn.send(None)
                    w.proc.join(timeout=5)
                except (OSError, ValueError):
                    pass
            w.stop()
        self.workers = []
