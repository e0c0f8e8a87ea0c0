"""Running properties on a rulebook: light checks in this process, heavy ones in a child with a kill timer.

Z3's timeout and rlimit are not hard wall-clock bounds, so a heavy check runs in a forked child that is
killed when its time is up; the verdict is then `unknown` with the reason, never a pass.
"""

from __future__ import annotations

import multiprocessing
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from cheatdsl.model import Rulebook

from .registry import Property, properties
from .subject import Subject
from .verdict import Result, Verdict, unknown

HEAVY_SECONDS = 60.0


@dataclass(frozen=True)
class Timed:
    """A property's result, whether it is implemented, and the seconds it took."""

    result: Result
    implemented: bool
    seconds: float


def _safe(prop: Property, subject: Subject) -> Result:
    try:
        return prop.run(subject)
    except Exception as exc:  # a bug in a check must never read as a verdict
        return unknown(prop.id, f"internal error: {type(exc).__name__}: {exc}",
                       traceback=traceback.format_exc(limit=4))


def _child(conn: Any, fn: Callable[[], Result]) -> None:
    try:
        conn.send(fn().as_json())
    except BaseException as exc:  # noqa: BLE001 - report anything back to the parent
        conn.send({"error": f"{type(exc).__name__}: {exc}"})
    finally:
        conn.close()


def run_isolated(pid: str, fn: Callable[[], Result], seconds: float) -> Result:
    """Run `fn` in a forked child; after `seconds` the child is killed and the verdict is unknown."""
    try:
        ctx = multiprocessing.get_context("fork")
    except ValueError:
        return fn()
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, fn), daemon=True)
    proc.start()
    child.close()
    try:
        if parent.poll(seconds):
            try:
                data = parent.recv()
            except EOFError:
                data = {"error": f"the check's process ended with status {proc.exitcode}"}
        else:
            data = {"error": f"killed after {seconds:g} s"}
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()
    if "error" in data:
        return unknown(pid, data["error"])
    return Result(data["id"], Verdict(data["verdict"]), data["summary"], data["details"])


def verify(rulebook: Rulebook, ids: Iterable[str] | None = None, counts: tuple[int, ...] | None = None,
           *, heavy_seconds: float = HEAVY_SECONDS) -> list[Timed]:
    """Every selected property of `rulebook`, in the project's order."""
    table = properties()
    wanted = list(ids) if ids is not None else list(table)
    subject = Subject(rulebook, counts)
    out = []
    for pid in wanted:
        prop = table[pid]
        start = time.perf_counter()
        if prop.heavy:
            result = run_isolated(pid, lambda: _safe(prop, subject), heavy_seconds)
        else:
            result = _safe(prop, subject)
        out.append(Timed(result, prop.implemented, time.perf_counter() - start))
    return out
