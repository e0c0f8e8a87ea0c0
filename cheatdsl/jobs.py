"""Worker processes sized to the machine and tied to their parent (`--jobs` of simulate, rate, sweep, explore).

`bounded(jobs)` clamps a `--jobs` asked for to the machine's cores and to what its free memory holds at a
worker's measured size, and says so when it clamps; `die_with_parent()` is a worker's first step, so that a
worker whose parent is killed (SIGTERM, SIGKILL, a closed terminal) leaves within a second instead of
running on, orphaned, holding its memory.
"""

from __future__ import annotations

import os
import threading
import time

# What one worker process holds at most, measured: `rate --jobs 200` took the machine from 0.9 GB to 10.9 GB
# (about 50 MB a worker), with a margin.
WORKER_BYTES = 64 << 20
PARENT_CHECK_SECONDS = 0.5  # how often a worker looks whether its parent is still there


def free_memory() -> int | None:
    """The bytes of memory free for new work (MemAvailable), or None where the machine does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def bounded(jobs: int, worker_bytes: int = WORKER_BYTES) -> tuple[int, str]:
    """`jobs` clamped to the cores and to half the free memory at `worker_bytes` a worker, and a one-line
    notice saying so ("" where nothing was clamped)."""
    cores = os.cpu_count() or 1
    free = free_memory()
    by_memory = max(1, free // 2 // worker_bytes) if free is not None else jobs
    most = max(1, min(cores, by_memory))
    if jobs <= most:
        return jobs, ""
    why = f"{cores} core{'s' if cores != 1 else ''}" if most == cores else "the free memory"
    return most, f"--jobs {jobs} is more than this machine's {why} can run at once: {most} workers it is"


def die_with_parent(every: float = PARENT_CHECK_SECONDS) -> None:
    """Leave at once, from a watching thread, when the parent process is gone (its worker is then adopted by
    another process): a worker whose parent was killed (SIGTERM, SIGKILL, a closed terminal) does not run on,
    orphaned, holding its memory. The thread looks every `every` seconds."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(every)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="cheatdsl-parent-watch", daemon=True).start()
