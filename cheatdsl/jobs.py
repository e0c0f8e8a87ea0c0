"""Worker processes sized to the machine and tied to their parent (`--jobs` of simulate, rate, sweep, explore).

`bounded(jobs)` clamps a `--jobs` asked for to the machine's cores and to what its free memory holds at a
worker's measured size, and says so when it clamps; `die_with_parent()` is a worker's first step, so that a
worker whose parent is killed (SIGTERM, SIGKILL, a closed terminal) is sent SIGTERM by the kernel instead of
running on, orphaned, holding its memory.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

# What one worker process holds at most, measured: `rate --jobs 200` took the machine from 0.9 GB to 10.9 GB
# (about 50 MB a worker), with a margin.
WORKER_BYTES = 64 << 20
_PR_SET_PDEATHSIG = 1  # prctl(2)


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


def die_with_parent() -> None:
    """Ask the kernel to send this process SIGTERM when its parent dies (Linux; elsewhere nothing is done)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        return
    # The parent may have died before the request was made: then nobody would send the signal.
    if os.getppid() == 1:
        os._exit(1)
