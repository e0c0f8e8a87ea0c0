"""`cheatdsl sweep --scheduler` on a `distributed.LocalCluster` of two worker processes on 127.0.0.1.

The cluster gives exactly the results of `--jobs 1`; a worker killed mid-sweep costs only the cells
it was running, which the scheduler runs again on the other worker, and the results are unchanged.
Skipped when Dask distributed is not installed (the `sweep` extra).
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cheatdsl.cli import main

distributed = pytest.importorskip("distributed")

SPEC = """\
sweep: cluster
rulebooks: [verish-ne-verish, english-ascending]
variations: each
players: [3]
bots: [honest, greedy]
games: 40
seed: 11
verify: [ranks-exist]
"""


def cell_files(folder: Path) -> dict[str, Any]:
    return {p.name: json.loads(p.read_text()) for p in sorted((folder / "cells").glob("cell-*.json"))}


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """Two worker processes, one thread each, on loopback, no dashboard; closed after the module."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=50) as local:
        yield local


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict[str, Any]]:
    """The spec, and its results with --jobs 1."""
    tmp = tmp_path_factory.mktemp("cluster-reference")
    spec = tmp / "cluster.yaml"
    spec.write_text(SPEC)
    assert main(["sweep", str(spec), "--out", str(tmp / "out")]) == 0
    return spec, (tmp / "out" / "results.csv").read_text(), cell_files(tmp / "out")


def test_local_cluster_gives_the_results_of_one_job(cluster: Any, reference: tuple[Path, str, dict[str, Any]],
                                                    tmp_path: Path) -> None:
    """Rule: the same sweep on two Dask workers writes the very table and cell files of --jobs 1."""
    spec, table, cells = reference
    assert main(["sweep", str(spec), "--out", str(tmp_path / "out"), "--scheduler", cluster.scheduler_address]) == 0
    assert (tmp_path / "out" / "results.csv").read_text() == table
    assert cell_files(tmp_path / "out") == cells
    assert main(["explore", "verish-ne-verish", "-n", "2", "-p", "termination", "--out", str(tmp_path / "ex1")]) == 0
    assert main(["explore", "verish-ne-verish", "-n", "2", "-p", "termination", "--out", str(tmp_path / "ex2"),
                 "--scheduler", cluster.scheduler_address]) == 0
    assert cell_files(tmp_path / "ex1") == cell_files(tmp_path / "ex2")
    assert (tmp_path / "ex1" / "results.csv").read_text() == (tmp_path / "ex2" / "results.csv").read_text()


def test_a_killed_worker_costs_only_its_cells(cluster: Any, reference: tuple[Path, str, dict[str, Any]],
                                              tmp_path: Path) -> None:
    """Rule: a Dask worker killed mid-cell (SIGKILL) loses that cell only; the sweep completes, results unchanged."""
    spec, table, cells = reference
    watch = distributed.Client(cluster.scheduler_address, set_as_default=False)
    pids = watch.run(os.getpid)
    killed: list[int] = []
    stop = threading.Event()

    def killer() -> None:
        while not stop.is_set():
            busy = [w for w, tasks in watch.processing().items() if any("cheatdsl-cell" in t for t in tasks)]
            if busy and busy[0] in pids:
                os.kill(pids[busy[0]], signal.SIGKILL)
                killed.append(pids[busy[0]])
                return
            time.sleep(0.005)

    watcher = threading.Thread(target=killer)
    watcher.start()
    try:
        code = main(["sweep", str(spec), "--out", str(tmp_path / "out"), "--scheduler", cluster.scheduler_address])
    finally:
        stop.set()
        watcher.join()
        watch.close()
    assert killed, "no worker was busy to be killed"
    assert code == 0
    assert (tmp_path / "out" / "results.csv").read_text() == table
    assert cell_files(tmp_path / "out") == cells
