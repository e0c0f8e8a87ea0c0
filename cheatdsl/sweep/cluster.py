"""Running cells on a Dask distributed cluster (`dask scheduler`, `dask worker ADDRESS`); imported only then.

Each cell is one task. The scheduler hands a lost worker's tasks to another worker (up to
`distributed.scheduler.allowed-failures` deaths, 3 by default), so a dead worker costs only the
cells it was running; a cell that raises is retried `RETRIES` times before it is reported.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import uuid
import warnings
from collections.abc import Iterator
from typing import Any

from .cells import Cell
from .run import EXTRA, Done, Failed, NeedsExtra
from .work import run_cell

RETRIES = 1
CONNECT_SECONDS = 20
PROBE_SECONDS = 5


def require_dask() -> None:
    """NeedsExtra when Dask distributed is not installed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise NeedsExtra(f"--scheduler needs Dask distributed: {EXTRA}") from None


def probe(address: str) -> None:
    """NeedsExtra at once when a tcp:// (or bare HOST:PORT) address cannot be reached: a refused
    connection or an unknown host is known in milliseconds, where Dask would retry for CONNECT_SECONDS."""
    scheme, _, rest = address.rpartition("://")
    if scheme not in ("", "tcp"):
        return
    host, _, port = rest.rstrip("/").rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS):
            pass
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise NeedsExtra(f"cannot reach the Dask scheduler at {address}: {reason}") from None


def client_for(address: Any) -> Any:
    """A Dask client of the scheduler at `address` (or of a cluster object); NeedsExtra without Dask."""
    require_dask()
    if isinstance(address, str):
        probe(address)
    from distributed import Client
    try:
        return Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise NeedsExtra(f"cannot reach the Dask scheduler at {address}: {exc}") from None


class DaskMessages(logging.Handler):
    """What Dask's own loggers and warnings say while a sweep runs, kept instead of printed, to be
    summarised in the tool's words (`summary`) once the cells are done."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.messages.append(record.getMessage())
        except Exception:  # a message Dask cannot format is still counted
            self.messages.append(str(record.msg))

    def summary(self) -> list[str]:
        """One sentence per kind of message met, with how often: a result gathered again, a worker
        lost, anything else (quoted once)."""
        regathered = [m for m in self.messages if m.startswith("Couldn't gather")]
        lost = [m for m in self.messages if _about_a_lost_worker(m)]
        other = [m for m in self.messages if m not in regathered and m not in lost]
        out = []
        if regathered:
            out.append(f"Dask could not fetch a finished cell's result {_times(len(regathered))} (a worker went "
                       "away holding it) and ran that cell again; the results are unchanged")
        if lost:
            out.append(f"Dask reported a lost worker {_times(len(lost))}; its cells were run on another worker")
        if other:
            first = " ".join(other[0].split())
            first = first if len(first) <= 160 else first[:157] + "..."
            out.append(f"Dask gave {len(other)} other warning{'s' if len(other) != 1 else ''}, the first: «{first}»")
        return out


def _about_a_lost_worker(message: str) -> bool:
    text = message.lower()
    return "worker" in text and any(w in text for w in ("lost", "remov", "restart", "died", "closed"))


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


@contextlib.contextmanager
def dask_messages() -> Iterator[DaskMessages]:
    """While inside, Dask's log messages (the `distributed` loggers, WARNING and above) and Python warnings
    go to the returned collector instead of the terminal; the logging set-up is restored on leaving."""
    kept = DaskMessages()
    logger = logging.getLogger("distributed")
    handlers, propagate = list(logger.handlers), logger.propagate
    for h in handlers:
        logger.removeHandler(h)
    logger.addHandler(kept)
    logger.propagate = False
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield kept
        kept.messages.extend(str(w.message) for w in caught)
    finally:
        logger.removeHandler(kept)
        for h in handlers:
            logger.addHandler(h)
        logger.propagate = propagate


def run_on_dask(cells: list[Cell], address: Any, done: Done, failed: Failed) -> list[str]:
    """Submit every cell and take each result as it completes, in whatever order; Dask's own messages
    meanwhile are kept, and returned summarised in the tool's words (one sentence a kind)."""
    if not cells:
        return []
    with dask_messages() as messages:
        _run(cells, address, done, failed)
    return messages.summary()


def _run(cells: list[Cell], address: Any, done: Done, failed: Failed) -> None:
    client = client_for(address)
    from distributed import as_completed
    run = uuid.uuid4().hex[:8]
    try:
        futures = {client.submit(run_cell, cell, key=f"cheatdsl-cell-{cell.key}-{run}", pure=False,
                                 retries=RETRIES): cell for cell in cells}
        with client.as_current():
            for future in as_completed(futures):
                cell = futures[future]
                if future.status == "error":
                    exc = future.exception()
                    failed(cell, f"{type(exc).__name__}: {exc}")
                else:
                    done(cell, future.result())
                future.release()
    finally:
        client.close()
