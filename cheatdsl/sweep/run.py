"""Running a sweep's missing cells: in this process, in local worker processes, or on a Dask cluster.

Each finished cell is saved as it comes in, so an interrupted sweep loses only the cells running then.
A local worker that dies costs its cell, which runs again (up to `ATTEMPTS` times); on Dask the
scheduler does the same for a lost worker. The results never depend on which worker ran a cell.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from .. import __version__
from ..jobs import die_with_parent
from .cells import Cell
from .store import Store
from .work import run_cell

ATTEMPTS = 3
EXTRA = "pip install 'cheatdsl[sweep]'"

Done = Callable[[Cell, dict[str, Any]], None]
Failed = Callable[[Cell, str], None]
Games = Callable[[Cell, int], None]


class NeedsExtra(Exception):
    """An optional dependency that is not installed (a usage error naming the extra)."""


@dataclass
class Outcome:
    """The results of every cell by key, how many were read back, and the cells that failed (key: why)."""

    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    reused: int = 0
    ran: int = 0
    failed: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # what the cluster said, in the tool's words


class Tally:
    """Cells and games finished, drawn as one progress bar (games) labelled with the cells."""

    def __init__(self, cells: list[Cell], update: Callable[[int, int, str], None] | None) -> None:
        self.cells, self.games = len(cells), sum(c.games for c in cells)
        self.cells_done = self.games_done = 0
        self.partial: dict[str, int] = {}
        self.update = update

    def games_in(self, cell: Cell, done: int) -> None:
        self.partial[cell.key] = done
        self.draw()

    def finished(self, cell: Cell) -> None:
        self.partial.pop(cell.key, None)
        self.cells_done += 1
        self.games_done += cell.games
        self.draw()

    def draw(self) -> None:
        if self.update is not None:
            games = self.games_done + sum(self.partial.values())
            self.update(games if self.games else self.cells_done, self.games or self.cells,
                        f"{self.cells_done}/{self.cells} cells")


def run_sweep(cells: list[Cell], store: Store, jobs: int = 1, scheduler: str | None = None,
              progress: Callable[[int, int, str], None] | None = None) -> Outcome:
    """Run the cells with no saved result and save each as it finishes; every cell's result by key."""
    outcome = Outcome()
    unique = list({c.key: c for c in cells}.values())
    tally = Tally(unique, progress)
    todo = []
    for cell in unique:
        if cell.clash:  # known without running anything
            outcome.results[cell.key] = run_cell(cell)
            tally.finished(cell)
            continue
        saved = store.load(cell)
        if saved is None:
            todo.append(cell)
            continue
        outcome.results[cell.key] = saved
        outcome.reused += 1
        tally.finished(cell)

    def done(cell: Cell, result: dict[str, Any]) -> None:
        if result.get("version") != __version__:
            failed(cell, f"the worker runs cheatdsl {result.get('version')}, this machine {__version__}")
            return
        store.save(cell, result)
        outcome.results[cell.key] = result
        outcome.ran += 1
        tally.finished(cell)

    def failed(cell: Cell, why: str) -> None:
        outcome.failed[cell.key] = why
        tally.finished(cell)

    if scheduler is not None:
        from .cluster import run_on_dask
        outcome.notes.extend(run_on_dask(todo, scheduler, done, failed))
    elif jobs <= 1:
        from verifier.properties.settings import Caches  # no solver loaded for a sweep that verifies nothing
        caches = Caches()  # the verdicts one cell finds, for the cells after it
        for cell in todo:
            def step(n: int, _total: int, c: Cell = cell) -> None:
                tally.games_in(c, n)
            try:
                result = run_cell(cell, step, caches)
            except Exception as exc:  # a cell's failure is reported, the others still run
                failed(cell, f"{type(exc).__name__}: {exc}")
                continue
            done(cell, result)
    else:
        run_local(todo, jobs, done, failed, tally.games_in)
    return outcome


def run_local(cells: list[Cell], jobs: int, done: Done, failed: Failed, games: Games | None = None) -> None:
    """Each cell in a process of its own, `jobs` at a time; a process that dies runs its cell again."""
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    queue = deque(cells)
    attempts: dict[str, int] = {}
    running: dict[Any, tuple[Any, Cell]] = {}
    try:
        while queue or running:
            while queue and len(running) < jobs:
                cell = queue.popleft()
                parent, child = ctx.Pipe(duplex=False)
                proc = ctx.Process(target=_child, args=(child, cell), name=f"cheatdsl-sweep-{cell.key}")
                proc.start()
                child.close()
                running[parent] = (proc, cell)
            for conn in wait(list(running)):
                assert isinstance(conn, Connection)
                proc, cell = running[conn]
                value: Any
                try:
                    kind, value = conn.recv()
                except (EOFError, OSError):
                    kind, value = "died", None
                if kind == "games":
                    if games is not None:
                        games(cell, value)
                    continue
                del running[conn]
                conn.close()
                proc.join()
                if kind == "done":
                    done(cell, value)
                elif kind == "error":
                    failed(cell, value)
                else:
                    attempts[cell.key] = attempts.get(cell.key, 0) + 1
                    if attempts[cell.key] >= ATTEMPTS:
                        failed(cell, f"its worker process died {ATTEMPTS} times (exit status {proc.exitcode})")
                    else:
                        queue.append(cell)
    finally:
        for conn, (proc, _) in running.items():
            proc.kill()
            proc.join()
            conn.close()


def _child(conn: Any, cell: Cell) -> None:
    """A local worker: run the cell, reporting games as they finish, then the result or the error."""
    die_with_parent()
    def progress(done: int, _total: int) -> None:
        conn.send(("games", done))
    try:
        conn.send(("done", run_cell(cell, progress)))
    except Exception as exc:  # noqa: BLE001 - the parent reports it, and the sweep goes on
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()
