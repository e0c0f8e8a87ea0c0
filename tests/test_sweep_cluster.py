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
                                              tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
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
    err = capfd.readouterr().err
    assert "cheatdsl sweep: note: Dask reported a lost worker" in err, err
    for line in err.splitlines():  # Dask's own lines ("Restarting worker") are summarised, not printed
        assert line.startswith(("cheatdsl sweep", "wrote ")), line
    assert (tmp_path / "out" / "results.csv").read_text() == table
    assert cell_files(tmp_path / "out") == cells


def test_dask_messages_are_kept_and_summarised_in_the_tools_words(capfd: pytest.CaptureFixture[str]) -> None:
    """Issue 25: "third-party warnings captured and summarised in the tool's own words". Dask's log lines
    while cells run ("Couldn't gather 1 keys, rescheduling ...") do not reach the terminal; one sentence
    per kind says what they meant, and the logging set-up is the same afterwards."""
    import logging
    import warnings

    from cheatdsl.sweep.cluster import dask_messages

    logger = logging.getLogger("distributed")
    before = (list(logger.handlers), logger.propagate)
    with dask_messages() as kept:
        logging.getLogger("distributed.client").warning("Couldn't gather %s keys, rescheduling %s", 1, "{'x': ()}")
        logging.getLogger("distributed.client").warning("Couldn't gather %s keys, rescheduling %s", 2, "{'y': ()}")
        logging.getLogger("distributed.scheduler").warning("Removing worker 'tcp://127.0.0.1:1' caused the cluster to lose scattered data")
        logging.getLogger("distributed.comm").error("Some\n   other   message")
        logging.getLogger("distributed.client").info("an information line is not kept")
        warnings.warn("a deprecation from Dask", DeprecationWarning)
    assert (list(logger.handlers), logger.propagate) == before
    err = capfd.readouterr().err
    assert "Couldn't gather" not in err and "Removing worker" not in err
    said = kept.summary()
    assert said[0].startswith("Dask could not fetch a finished cell's result twice")
    assert said[1] == "Dask reported a lost worker once; its cells were run on another worker"
    assert said[2] == "Dask gave 2 other warnings, the first: «Some other message»"


def test_a_sweep_on_a_cluster_prints_no_raw_dask_lines(cluster: Any, reference: tuple[Path, str, dict[str, Any]],
                                                       tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """Issue 25: Dask's own warnings do not reach the user's terminal during a sweep: whatever the client
    logs is summarised as `note:` lines (none when Dask said nothing)."""
    spec, table, _ = reference
    capfd.readouterr()
    assert main(["sweep", str(spec), "--out", str(tmp_path / "out"), "--scheduler", cluster.scheduler_address]) == 0
    err = capfd.readouterr().err
    assert (tmp_path / "out" / "results.csv").read_text() == table
    for line in err.splitlines():
        assert line.startswith(("cheatdsl sweep", "wrote ")), line
