"""Argument types the commands share: whole numbers with a least value, and probabilities."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def count(what: str, least: int) -> Callable[[str], int]:
    """An argparse type: a whole number of `what`, at least `least` (`what` names it in the error)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, found {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{what} must be at least {least}")
        return value
    return parse


def probability(text: str) -> float:
    """An argparse type: a probability from 0 to 1 (the challenge rate)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a probability, found {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError("the challenge rate is a probability from 0 to 1")
    return value
