"""Running properties on rulebooks: light checks in this process, heavy ones in worker processes with a
kill timer.

Z3's timeout and rlimit are not hard wall-clock bounds, so the heavy checks of a rulebook run together
in a forked worker (`workers.py`) that is killed when their time is up; the verdicts are then `unknown`
with the reason, never a pass. Workers verify the rulebooks side by side (one per core by default),
dearest first, while this process runs the light checks; a rulebook started when a core is left over
shares its player counts with a helper process (`helper.py`), with the same results.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from cheatdsl.derived import DealError
from cheatdsl.jobs import die_with_parent
from cheatdsl.model import Rulebook
from cheatdsl.played_by import Engine, unplayed

from .encoding.subject import Subject
from .properties.registry import Property, properties
from .properties.settings import DEFAULT, HEAVY_SECONDS, Caches, Settings
from .properties.verdict import Result, Verdict, internal_error, unknown
from .solving.shortcuts import reuse_freed_blocks
from .solving.solver import fresh_context
from .workers import Workers

__all__ = ["HEAVY_SECONDS", "Timed", "run_isolated", "verify", "verify_all", "workers"]
# How long this process sleeps between looks at the kill timers and the progress bar while the workers
# verify (a worker's answer wakes it at once): the bar is redrawn no more often than this.
WAIT_SECONDS = 0.1


@dataclass(frozen=True)
class Timed:
    """A property's result, whether it is implemented, and the seconds it took."""

    result: Result
    implemented: bool
    seconds: float


def _unmodelled(subject: Subject) -> str | None:
    """Why the symbolic encoding does not model the rulebook at one of its counts (`played_by`), or None."""
    for n in subject.counts:
        try:
            why = unplayed(subject.rules(n), Engine.VERIFIER)
        except DealError:
            continue
        if why is not None:
            return why
    return None


def _safe(prop: Property, subject: Subject, settings: Settings = DEFAULT, caches: Caches | None = None) -> Result:
    try:
        why = _unmodelled(subject)
        if why is not None:
            return unknown(prop.id, f"the verifier does not model {why}")
        return prop.run(subject, settings, caches)
    except Exception as exc:  # a bug in a check must never read as a verdict
        return internal_error(prop.id, exc)


def _child(conn: Any, fn: Callable[[], Any]) -> None:
    die_with_parent()
    try:
        conn.send(fn())
    except BaseException as exc:  # noqa: BLE001 - report anything back to the parent
        conn.send({"error": f"internal error: {type(exc).__name__}: {exc}", "internal": True})
    finally:
        conn.close()


def _from_json(data: dict[str, Any]) -> Result:
    return Result(data["id"], Verdict(data["verdict"]), data["summary"], data["details"])


def run_isolated(pid: str, fn: Callable[[], Result], seconds: float) -> Result:
    """Run `fn` in a forked child; after `seconds` the child is killed and the verdict is unknown."""
    try:
        ctx = multiprocessing.get_context("fork")
    except ValueError:
        return fn()
    job = _Job(ctx, lambda: fn().as_json(), seconds)
    data = job.wait()
    if "error" in data:
        return _failed(pid, data)
    return _from_json(data)


def _failed(pid: str, data: dict[str, Any]) -> Result:
    """The result of a child that sent no result: killed at its time limit (unknown) or crashed (an error)."""
    if data.get("internal"):
        return Result(pid, Verdict.ERROR, data["error"], {"internal_error": True})
    return unknown(pid, data["error"])


class _Job:
    """A forked child computing `fn()`, with the time it is allowed."""

    def __init__(self, ctx: Any, fn: Callable[[], Any], seconds: float) -> None:
        self.parent, child = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=_child, args=(child, fn), daemon=True)
        self.proc.start()
        child.close()
        self.deadline = time.perf_counter() + seconds
        self.seconds = seconds
        self.data: Any = None

    def ready(self) -> bool:
        if self.data is not None:
            return True
        left = self.deadline - time.perf_counter()
        if self.parent.poll(0 if left > 0 else 0):
            self._read()
            return True
        if left <= 0:
            self._stop({"error": f"killed after {self.seconds:g} s"})
            return True
        return False

    def _read(self) -> None:
        try:
            self.data = self.parent.recv()
        except EOFError:
            self.proc.join()
            # Nothing sent and not killed by its timer: the child crashed (a bug, or the machine ran out of memory).
            self.data = {"error": f"internal error: the check's process ended with status {self.proc.exitcode}",
                         "internal": True}
        self._stop(None)

    def _stop(self, data: Any) -> None:
        if data is not None:
            self.data = data
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join()
        self.parent.close()

    def wait(self) -> Any:
        while not self.ready():
            self.parent.poll(min(0.05, max(self.deadline - time.perf_counter(), 0)))
        return self.data


def _heavy_batch(props: list[Property], subject: Subject, settings: Settings, caches: Caches) -> dict[str, Any]:
    """Run the heavy properties of one subject together, so that they share one analysis; with the verdicts,
    invariants and recurrent sets that rulebooks verified later may take."""
    out = []
    for prop in props:
        start = time.perf_counter()
        result = _safe(prop, subject, settings, caches)
        out.append((result.as_json(), time.perf_counter() - start))
    return {"results": out, "found": dict(caches.found), "made": caches.made_here()}


@dataclass
class _Plan:
    rulebook: Rulebook
    wanted: list[str]
    subject: Subject
    heavy: list[Property]
    started: float = 0.0


def verify(rulebook: Rulebook, ids: Iterable[str] | None = None, counts: tuple[int, ...] | None = None,
           settings: Settings = DEFAULT, caches: Caches | None = None, *,
           heavy_seconds: float | None = None) -> list[Timed]:
    """Every selected property of `rulebook`, in the project's order; `heavy_seconds` stands for
    `settings.time_limit` (as benchmarks/soundness_campaign.py passes it)."""
    if heavy_seconds is not None:
        settings = replace(settings, time_limit=heavy_seconds)
    return verify_all([(rulebook, ids, counts)], settings, caches)[0]


def workers() -> int:
    """Children run side by side: one per core (two at least), or CHEATDSL_VERIFY_WORKERS."""
    env = os.environ.get("CHEATDSL_VERIFY_WORKERS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    return max(2, os.cpu_count() or 1)


def verify_all(jobs: Sequence[tuple[Rulebook, Iterable[str] | None, tuple[int, ...] | None]],
               settings: Settings = DEFAULT, caches: Caches | None = None, *, parallel: int | None = None,
               progress: Callable[[int, int, str], None] | None = None) -> list[list[Timed]]:
    """Verify several rulebooks with `settings`: heavy batches run in children, light checks here meanwhile.

    `caches` (new ones by default) start the heavy checks and gather the verdicts and proofs they make, for
    later runs given the same caches. `progress(done, total, label)` is called as properties finish, and
    while waiting for children.
    """
    from .properties import transition
    caches = Caches() if caches is None else caches
    heavy_seconds = settings.time_limit
    table = properties()
    plans = []
    for rulebook, ids, counts in jobs:
        wanted = list(ids) if ids is not None else list(table)
        subject = Subject(rulebook, counts)
        plans.append(_Plan(rulebook, wanted, subject, [table[p] for p in wanted if table[p].heavy]))
    try:
        ctx = multiprocessing.get_context("fork")
    except ValueError:
        ctx = None
    if any(p.heavy for p in plans):
        # Imported once here rather than in every child (each would spend a tenth of a second on them); the
        # report reads the lints here anyway.
        from cheatdsl.compiler import lints  # noqa: F401

        from .properties import analysis  # noqa: F401
        if any(prop.id == "winnability" for p in plans for prop in p.heavy):
            from .properties import winnability  # noqa: F401
    limit = parallel or workers()
    # The dearest first, so that the last to finish are short; rulebooks sharing specs with one done
    # before then find its verdicts known.
    pending = sorted((p for p in plans if p.heavy), key=lambda p: -transition.weight(p.subject))
    number = {id(p): i for i, p in enumerate(plans)}
    pool = None if ctx is None else Workers(
        ctx, limit, lambda i, helper, given: _heavy_batch(plans[i].heavy, plans[i].subject,
                                                          replace(settings, helper=helper), given), caches)
    running: dict[int, _Plan] = {}
    heavy_results: dict[int, dict[str, tuple[Result, float]]] = {}
    total = sum(len(p.wanted) for p in plans)
    finished = [0]

    def tick(label: str = "", steps: int = 0) -> None:
        finished[0] += steps
        if progress is not None:
            progress(finished[0], total, label)

    def collect(plan: _Plan, data: dict[str, Any]) -> None:
        got: dict[str, tuple[Result, float]] = {}
        if "error" in data:
            for prop in plan.heavy:
                got[prop.id] = (_failed(prop.id, data), time.perf_counter() - plan.started)
        else:
            for res, seconds in data["results"]:
                got[res["id"]] = (_from_json(res), seconds)
            caches.adopt(data["found"], data["made"])
            if pool is not None:
                pool.share(data["found"], data["made"])
        heavy_results[id(plan)] = got
        tick(plan.rulebook.name, len(plan.heavy))

    def pump(block: bool) -> None:
        while pending and (pool is None or pool.idle()):
            plan = pending.pop(0)
            plan.started = time.perf_counter()
            if pool is None:
                # As a worker would: from a copy of the caches, handing back what it found.
                collect(plan, _heavy_batch(plan.heavy, plan.subject, settings, caches.copy()))
                continue
            # A core no other rulebook will use: the worker may share its player counts with a helper.
            helper = not pending and pool.busy() + 1 < limit
            pool.give(number[id(plan)], helper, heavy_seconds + 5.0)
            running[number[id(plan)]] = plan
        while running:
            assert pool is not None
            done = pool.finished()
            for i, data in done:
                collect(running.pop(i), data)
            if done or not block:
                return
            tick()
            pool.wait(WAIT_SECONDS)

    out: list[list[Timed]] = []
    light: dict[int, dict[str, Timed]] = {}
    try:
        pump(False)
        reuse_freed_blocks()  # once the first workers are forked (see its docstring)
        for plan in plans:
            got: dict[str, Timed] = {}
            fresh_context()  # each rulebook's light checks give the same results alone or after others
            for pid in plan.wanted:
                prop = table[pid]
                if prop.heavy:
                    continue
                start = time.perf_counter()
                result = _safe(prop, plan.subject)
                got[pid] = Timed(result, prop.implemented, time.perf_counter() - start)
                tick(f"{plan.rulebook.name}: {pid}", 1)
                pump(False)
            light[id(plan)] = got
        while pending or running:
            pump(True)
    finally:
        if pool is not None:
            pool.close()
    for plan in plans:
        got = light[id(plan)]
        for prop in plan.heavy:
            result, seconds = heavy_results[id(plan)][prop.id]
            got[prop.id] = Timed(result, prop.implemented, seconds)
        _judge(plan, got, settings, ctx)
        out.append([got[pid] for pid in plan.wanted])
    return out


def _judge(plan: _Plan, got: dict[str, Timed], settings: Settings, ctx: Any) -> None:
    """The exhaustive judge's verdicts in place of the symbolic ones, at each player count where it runs
    (`verifier.exhaustive.eligible`), each count's search in a forked child with the run's time limit."""
    from .exhaustive import AUTO_SECONDS, JUDGED, Mode, eligible
    from .exhaustive.merge import merged
    pids = tuple(pid for pid in plan.wanted if pid in JUDGED)
    if not pids or settings.judging.mode is Mode.NEVER:
        return
    subject = plan.subject
    judged: dict[str, dict[int, Result]] = {pid: {} for pid in pids}
    spent = 0.0
    for n in subject.counts:
        if not eligible(subject, n, settings.judging):
            continue
        start = time.perf_counter()
        seconds = settings.time_limit
        if settings.judging.mode is not Mode.ALWAYS:
            seconds = min(seconds, AUTO_SECONDS)
        data = _judge_count(subject, n, pids, settings, seconds, ctx)
        spent += time.perf_counter() - start
        if "results" not in data:
            continue  # killed or crashed: the symbolic verdicts stand at this count
        for pid, res in data["results"].items():
            if res is not None:
                judged[pid][n] = _from_json(res)
    for pid in pids:
        if judged[pid]:
            t = got[pid]
            got[pid] = Timed(merged(t.result, subject.counts, judged[pid]), t.implemented,
                             t.seconds + spent / len(pids))


def _judge_count(subject: Subject, n: int, pids: tuple[str, ...], settings: Settings, seconds: float,
                 ctx: Any) -> dict[str, Any]:
    """The judge's answer at `n` players, in a forked child killed after `seconds` (and 5 s of grace) where the
    platform forks: its JSON, or the child's error."""
    from .exhaustive import judge_at

    def run() -> dict[str, Any]:
        return judge_at(subject, n, pids, settings.judging, seconds)
    return run() if ctx is None else _Job(ctx, run, seconds + 5.0).wait()
