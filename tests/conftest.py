"""Shared pytest options: `--regenerate` rewrites the golden playthroughs instead of comparing them."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--regenerate", action="store_true", default=False,
                     help="rewrite tests/golden/*.txt from the current engine instead of comparing with them")


@pytest.fixture
def regenerate(request: pytest.FixtureRequest) -> bool:
    """Whether the run was asked to rewrite golden files (`pytest --regenerate`)."""
    return bool(request.config.getoption("--regenerate"))
