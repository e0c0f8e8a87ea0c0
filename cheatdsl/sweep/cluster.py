"""Running cells on a Dask distributed cluster (`dask scheduler`, `dask worker ADDRESS`); imported only then.

Each cell is one task. The scheduler hands a lost worker's tasks to another worker (up to
`distributed.scheduler.allowed-failures` deaths, 3 by default), so a dead worker costs only the
cells it was running; a cell that raises is retried `RETRIES` times before it is reported.
"""

from __future__ import annotations

import socket
import uuid
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


def run_on_dask(cells: list[Cell], address: Any, done: Done, failed: Failed) -> None:
    """Submit every cell and take each result as it completes, in whatever order."""
    if not cells:
        return
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
