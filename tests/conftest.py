"""Shared pytest options (`--regenerate` rewrites the golden playthroughs instead of comparing them),
and Hypothesis's folder kept under a temporary folder."""

from __future__ import annotations

import tempfile

import hypothesis.configuration
import pytest

# Hypothesis keeps a folder of its own; the suite writes only under temporary folders, and removes
# this one when the run (or each parallel worker) ends.
_HYPOTHESIS_HOME = tempfile.TemporaryDirectory(prefix="cheatdsl-hypothesis-")
hypothesis.configuration.set_hypothesis_home_dir(_HYPOTHESIS_HOME.name)


def pytest_unconfigure(config: pytest.Config) -> None:
    _HYPOTHESIS_HOME.cleanup()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--regenerate", action="store_true", default=False,
                     help="rewrite tests/golden/*.txt from the current engine instead of comparing with them")


@pytest.fixture
def regenerate(request: pytest.FixtureRequest) -> bool:
    """Whether the run was asked to rewrite golden files (`pytest --regenerate`)."""
    return bool(request.config.getoption("--regenerate"))
