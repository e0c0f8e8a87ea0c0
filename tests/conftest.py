"""Shared pytest options (`--regenerate` rewrites the golden playthroughs instead of comparing them),
and Hypothesis's folder and numba's cache kept under a temporary folder."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import hypothesis.configuration
import pytest

from cheatdsl.compiled.cache import sources_key

# Hypothesis keeps a folder of its own; the suite writes only under temporary folders, and removes
# this one when the run (or each parallel worker) ends.
_HYPOTHESIS_HOME = tempfile.TemporaryDirectory(prefix="cheatdsl-hypothesis-")
hypothesis.configuration.set_hypothesis_home_dir(_HYPOTHESIS_HOME.name)


# numba reads its cache folder once, when first imported (cheatdsl/compiled/cache.py): every test that
# runs the compiled engine, directly or through a command's `auto`, shares one kernel build in a temporary
# folder, kept between runs so the suite compiles it once.
os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(tempfile.gettempdir()) / "cheatdsl-test-numba" / sources_key()))


def pytest_unconfigure(config: pytest.Config) -> None:
    _HYPOTHESIS_HOME.cleanup()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--regenerate", action="store_true", default=False,
                     help="rewrite tests/golden/*.txt from the current engine instead of comparing with them")


@pytest.fixture
def regenerate(request: pytest.FixtureRequest) -> bool:
    """Whether the run was asked to rewrite golden files (`pytest --regenerate`)."""
    return bool(request.config.getoption("--regenerate"))
