"""Issue 41 point 5: worker pools bounded by the machine, and workers that die with their parent.

`rate --jobs 200` took a two-core machine from 0.9 GB to 10.9 GB and a SIGTERM to it left 81 of 200 workers
alive holding 7.7 GB. `--jobs` is now clamped to the cores (and to the free memory at a worker's measured
size) with a notice, and each worker asks the kernel for SIGTERM when its parent dies.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cheatdsl.jobs import bounded

ROOT = Path(__file__).resolve().parent.parent


def test_jobs_past_the_cores_are_clamped_with_a_notice() -> None:
    cores = os.cpu_count() or 1
    assert bounded(1) == (1, "")
    workers, notice = bounded(cores + 200)
    assert workers <= cores and f"--jobs {cores + 200}" in notice
    workers, notice = bounded(cores, worker_bytes=1 << 60)  # a worker larger than any memory: one at a time
    assert workers == 1 and "free memory" in notice


WORKER = """
import os, signal, sys, time
sys.path.insert(0, sys.argv[1])
from cheatdsl.jobs import die_with_parent
middle = os.fork()
if middle == 0:
    worker = os.fork()
    if worker == 0:
        os.close(1)
        os.close(2)
        if sys.argv[2] == "watch":
            die_with_parent(0.1)
        time.sleep(30)
        os._exit(0)
    print(worker, flush=True)
    time.sleep(30)
    os._exit(0)
time.sleep(0.5)
os.kill(middle, signal.SIGKILL)
os.waitpid(middle, 0)
"""


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.parametrize("watch", [True, False], ids=["watched", "unwatched"])
def test_a_worker_leaves_when_its_parent_is_killed(watch: bool) -> None:
    """A worker whose parent is killed with SIGKILL (no clean-up runs) is gone within two seconds when it made
    the request; one that did not is still there (the request is what ends it)."""
    out = subprocess.run([sys.executable, "-c", WORKER, str(ROOT), "watch" if watch else "-"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=60)
    worker = int(out.stdout.split()[0])
    try:
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and _alive(worker):
            time.sleep(0.05)
        assert _alive(worker) is not watch
    finally:
        if _alive(worker):
            os.kill(worker, signal.SIGKILL)


@pytest.mark.skipif("fork" not in __import__("multiprocessing").get_all_start_methods(), reason="forks workers")
def test_the_pools_of_rate_and_simulate_make_that_request(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Each pool's workers make the request first: a forked worker runs the stand-in given here, which leaves
    a mark."""
    from cheatdsl.engine import Game
    from cheatdsl.load import load_rulebook
    from cheatdsl.rate import matches
    from cheatdsl.simulate import runner

    def mark() -> None:
        (tmp_path / f"worker-{os.getpid()}").write_text("asked")
    monkeypatch.setattr(matches, "die_with_parent", mark)
    monkeypatch.setattr(runner, "die_with_parent", mark)
    english = load_rulebook(str(ROOT / "rulebooks" / "english-ascending.yaml"))
    from cheatdsl.rate.entrants import LADDER
    game = Game(english, 3)
    matches.play_matches(game, LADDER[:3], [[0, 1, 2]] * 4, 1, jobs=2)
    assert len(list(tmp_path.glob("worker-*"))) >= 1
    before = set(tmp_path.glob("worker-*"))
    runner.simulate(english, 3, 200, seed=1, bots="greedy", jobs=2)
    assert set(tmp_path.glob("worker-*")) - before


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid`, read from /proc."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; the parent-death signal is Linux's")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_rate_workers_end_with_their_parent(sig: signal.Signals, tmp_path: Path) -> None:
    """A running `rate --jobs 2` is sent the signal once its workers are up: within a few seconds none of them
    is left running two seconds later."""
    # The parent is started with SIGINT at its default: a suite run in the background of a shell without job
    # control inherits SIGINT ignored, and so would a `rate` started from it, which no interrupt then reaches.
    proc = subprocess.Popen([sys.executable, "-m", "cheatdsl", "rate", "english-ascending", "--games", "400",
                             "--samples", "10", "--jobs", "2", "--engine", "python"],
                            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT)},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while time.monotonic() < deadline and len(workers) < 2:
            workers = _children(proc.pid)
            time.sleep(0.1)
        assert len(workers) >= 2, "the workers did not start"
        proc.send_signal(sig)
        proc.wait(timeout=30)
        # A worker busy with a game (the search bot's take seconds) would finish it first, and the next,
        # were it not sent the signal.
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.1)
        assert not [w for w in workers if _alive(w)]
    finally:
        if proc.poll() is None:
            proc.kill()
