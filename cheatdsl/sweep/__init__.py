"""Sweeps: many cells (rulebook, variations, players, bots), each simulated and verified, locally or on Dask.

    spec = read_spec("house.sweep.yaml", Diagnostics())
    finished = run_spec(spec, "sweep-results/house", jobs=2)          # or scheduler="tcp://host:8786"

`cheatdsl sweep SPEC` and `cheatdsl explore RULEBOOK` are the commands; docs/sweeps.md the guide.
Dask is imported only when a scheduler is named, pyarrow only to write Parquet.
"""

from .cells import Cell, SpecError, expand
from .run import NeedsExtra, Outcome, run_sweep
from .session import Finished, run_spec
from .spec import FIELDS, Spec, read_spec

__all__ = ["FIELDS", "Cell", "Finished", "NeedsExtra", "Outcome", "Spec", "SpecError", "expand", "read_spec",
           "run_spec", "run_sweep"]
