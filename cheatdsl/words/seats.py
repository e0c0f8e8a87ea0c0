"""Seats and places in turn order in words, as every report says them: seats from 0, places from the first."""

from __future__ import annotations

PLACES = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def place(position: int) -> str:
    """A place in turn order in words, 0 the first to play: `first`, `second`, ..., `11th`."""
    if position < len(PLACES):
        return PLACES[position]
    n = position + 1
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def seat_name(seat: int) -> str:
    """A table seat as every report numbers it, from 0: `seat 0`."""
    return f"seat {seat}"
