"""Seeds: any whole number a user writes, reduced one way to the range every back end can store."""

from __future__ import annotations

SEED_RANGE = 2**63
"""Seeds are kept from 0 to 2**63 - 1: a signed 64-bit integer column (Parquet, Dask, numba) holds each."""


def reduce_seed(seed: int) -> int:
    """The seed as the tool uses it: `seed` modulo 2**63, so 0 to 2**63 - 1 are unchanged, -1 is
    2**63 - 1 and 2**63 is 0. Every command and the sweep spec reduce through here, so a seed gives the
    same games whatever --jobs, Dask or the result file."""
    return seed % SEED_RANGE
