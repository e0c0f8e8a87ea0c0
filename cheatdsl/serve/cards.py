"""The practice table's profile cards: what a shipped profile rewards, as the gallery's stored ratings say.

The figures are `cheatdsl rate`'s headline figures (docs/ratings.md), measured once for each shipped profile
and stored with the hash of the rulebook files they were measured from (docs/gallery/ratings.json, carried in
the wheel). A card is offered only for a rulebook that is a shipped profile whose files still hash alike, so a
house rule or an edited profile never shows another rulebook's figures.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..model import Rulebook
from ..profiles import read_ratings, shipped_dir, shipped_ratings_path
from ..sweep.cells import source_of

FIGURES = ("skill_edge", "luck_share", "lie_value")  # the card's figures, each {value, low, high}


def stored_ratings() -> dict[str, dict[str, Any]]:
    """The shipped profiles' stored ratings by profile name (none where the file is missing)."""
    return read_ratings(shipped_ratings_path())


def _figure(value: object) -> dict[str, float | None] | None:
    """A stored figure as the page reads it: {value, low, high}; each None where the ladder could not measure it
    (too few of its games ended), None where it was not measured at all."""
    if not isinstance(value, Mapping):
        return None
    if all(isinstance(value.get(k), (int, float)) for k in ("value", "low", "high")):
        return {k: float(value[k]) for k in ("value", "low", "high")}
    return {"value": None, "low": None, "high": None}


def card(path: str, rulebook: Rulebook | None, stored: Mapping[str, Mapping[str, Any]]) -> dict[str, Any] | None:
    """The profile card of the rulebook read from `path`: None where it is not a shipped profile or has no
    stored entry made from its files as they are; else its name and the players and games the figures were
    measured at, with each figure of `FIGURES` ({value, low, high}, each None where the games could not measure
    it; the figure None where it was not measured), or why the profile is not rated."""
    if rulebook is None:
        return None
    file = Path(path).resolve()
    if file.parent != shipped_dir().resolve():
        return None
    entry = stored.get(file.stem)
    if entry is None or entry.get("files") != source_of(rulebook).digest:
        return None
    if "not_rated" in entry:
        return {"profile": file.stem, "not_rated": str(entry["not_rated"])}
    out: dict[str, Any] = {"profile": file.stem, "players": entry.get("players"), "games": entry.get("games")}
    for name in FIGURES:
        out[name] = _figure(entry.get(name))
    return out
