"""The worker processes of the heavy checks (verifier/workers.py): a task past its time is killed and reads
unknown, a crash is the tool's error, and each rulebook starts from the state a process forked for it alone
would start from, whatever its worker verified before (the project's rule: a verdict and its words do not
depend on the order rulebooks are verified in)."""

from __future__ import annotations

import multiprocessing
import os
import time
from typing import Any

from test_verifier import RULEBOOKS

from cheatdsl.load import load_rulebook
from verifier.runner import verify_all
from verifier.properties.settings import Caches
from verifier.workers import Workers

CTX = multiprocessing.get_context("fork")


def _finish(pool: Workers, tasks: int, seconds: float = 20) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    end = time.perf_counter() + seconds
    while len(out) < tasks and time.perf_counter() < end:
        out.update(pool.finished())
        pool.wait(0.05)
    return out


def test_a_task_past_its_time_is_killed_and_the_next_runs_on_a_new_worker() -> None:
    def run(i: int, helper: bool, caches: Caches) -> dict[str, Any]:
        if i == 0:
            time.sleep(30)
        return {"results": [], "found": {}, "made": {}, "pid": os.getpid()}

    pool = Workers(CTX, 1, run)
    try:
        start = time.perf_counter()
        pool.give(0, False, 0.3)
        got = _finish(pool, 1)
        assert time.perf_counter() - start < 10
        assert got[0] == {"error": "killed after 0.3 s"}
        pool.give(1, False, 10)
        assert "results" in _finish(pool, 1)[1]
    finally:
        pool.close()


def test_a_crash_is_an_internal_error_not_a_verdict() -> None:
    def run(i: int, helper: bool, caches: Caches) -> dict[str, Any]:
        if i == 0:
            raise ValueError("a bug")
        os._exit(3)

    pool = Workers(CTX, 1, run)
    try:
        pool.give(0, False, 10)
        assert _finish(pool, 1)[0] == {"error": "internal error: ValueError: a bug", "internal": True}
        pool.give(1, False, 10)
        got = _finish(pool, 1)[1]
        assert got["internal"] and "ended with status 3" in got["error"]
    finally:
        pool.close()


def test_each_task_starts_from_the_caches_its_worker_was_forked_with() -> None:
    given = Caches(analyses={("made before", None): 0})

    def run(i: int, helper: bool, caches: Caches) -> dict[str, Any]:
        seen = sorted(caches.analyses.values())
        caches.analyses[(f"task {i}", None)] = i
        return {"results": [], "found": {}, "made": {}, "seen": seen, "pid": os.getpid()}

    pool = Workers(CTX, 1, run, given)
    try:
        pool.give(0, False, 10)
        first = _finish(pool, 1)[0]
        pool.give(1, False, 10)
        second = _finish(pool, 1)[1]
    finally:
        pool.close()
    assert first["pid"] == second["pid"]  # one worker did both
    assert first["seen"] == second["seen"] == [0]
    assert list(given.analyses) == [("made before", None)]  # the parent's own are untouched


def test_a_task_is_given_what_the_parent_collected_since_its_worker_was_forked() -> None:
    """Issue 27 point 3: workers receive what they need as arguments (no module global is set in them)."""
    def run(i: int, helper: bool, caches: Caches) -> dict[str, Any]:
        return {"results": [], "found": {("deal", i): {}}, "made": {}, "known": sorted(caches.known),
                "helper": helper, "pid": os.getpid()}

    pool = Workers(CTX, 1, run)
    try:
        pool.give(0, False, 10)
        first = _finish(pool, 1)[0]
        pool.share({("deal", 0): {}}, {})
        pool.give(1, True, 10)
        second = _finish(pool, 1)[1]
    finally:
        pool.close()
    assert first["pid"] == second["pid"]
    assert (first["known"], first["helper"]) == ([], False)
    assert (second["known"], second["helper"]) == ([("deal", 0)], True)


def _heavy(timed: list[Any]) -> dict[str, Any]:
    return {t.result.id: (t.result.verdict, t.result.summary, {k: v for k, v in t.result.details.items()
                                                              if k != "seconds"}) for t in timed}


def test_a_rulebook_reads_the_same_after_others_in_its_worker_as_alone() -> None:
    # full-rules.yaml plays some of standard-count-of-three.yaml's tables: verified first by the same worker,
    # its proofs are handed on as they would be to a process forked later, and nothing else is.
    first = load_rulebook(str(RULEBOOKS / "full-rules.yaml"))
    then = load_rulebook(str(RULEBOOKS / "standard-count-of-three.yaml"))
    together = verify_all([(first, None, None), (then, None, None)], parallel=1)[1]
    alone = verify_all([(then, None, None)], parallel=1)[0]
    assert _heavy(together) == _heavy(alone)
