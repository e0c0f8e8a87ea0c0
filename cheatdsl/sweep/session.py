"""A whole sweep: expand the spec, run the missing cells, then write the tidy table and the report."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cells import Cell, expand
from .run import Outcome, run_sweep
from .spec import Spec
from .store import Store, write_atomic

Update = Callable[[int, int, str], None]


@dataclass
class Finished:
    """What a sweep did: its cells, their results, the table's rows and the files written."""

    cells: list[Cell]
    outcome: Outcome
    rows: list[dict[str, Any]]
    written: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    parquet_missing: bool = False
    links: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return not self.outcome.failed and all(c.key in self.outcome.results for c in self.cells)


def run_spec(spec: Spec, folder: str | Path, jobs: int = 1, scheduler: Any = None, progress: Update | None = None,
             title: str = "", witnesses: Callable[[list[Cell], dict[str, dict[str, Any]], Store],
                                                  dict[str, dict[str, list[str]]]] | None = None) -> Finished:
    """Run the sweep into `folder`; SpecError for a spec that cannot run, OutputError for a folder."""
    if scheduler is not None:
        from .cluster import probe, require_dask
        require_dask()
        if isinstance(scheduler, str):
            probe(scheduler)  # a refused address is known before any rulebook is compiled
    notes: list[str] = []
    cells = expand(spec, notes)
    store = Store(folder)
    outcome = run_sweep(cells, store, jobs, scheduler, progress)
    return write_results(spec, cells, outcome, store, title, notes, witnesses)


def write_results(spec: Spec, cells: list[Cell], outcome: Outcome, store: Store, title: str = "",
                  notes: list[str] | None = None,
                  witnesses: Callable[..., dict[str, dict[str, list[str]]]] | None = None) -> Finished:
    """Write results.csv, results.parquet (with pyarrow) and report.html from the cells' results."""
    from .report import render
    from .table import csv_text, parquet_bytes, rows
    table = rows(cells, outcome.results)
    done = Finished(cells, outcome, table, notes=list(dict.fromkeys(notes or [])))
    links = witnesses(cells, outcome.results, store) if witnesses is not None else {}
    done.links = links
    csv_path = store.file("results.csv")
    write_atomic(csv_path, csv_text(table))
    done.written.append(csv_path)
    data = parquet_bytes(table)
    if data is None:
        done.parquet_missing = True
    else:
        path = store.file("results.parquet")
        write_atomic(path, data)
        done.written.append(path)
    page = store.file("report.html")
    write_atomic(page, render(title or f"Sweep {spec.name}", cells, outcome.results, outcome.failed, links))
    done.written.append(page)
    return done
