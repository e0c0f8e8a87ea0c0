"""The practice table's profile cards (issue 39, "Done when": "the gallery and the practice table's profile
cards show `skill_edge`, `luck_share` and `lie_value`").

A card shows what `cheatdsl rate` measured for a shipped profile, as the gallery stores it; it is offered only
where the rulebook is that shipped profile with the files the figures were measured from, so an edited copy,
a house rule or a profile changed since never shows figures that are not its own.
"""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path
from typing import Any

from cheatdsl.load import load_rulebook
from cheatdsl.profiles import read_ratings, shipped_path, shipped_ratings_path
from cheatdsl.serve import build_catalog, create_app
from cheatdsl.serve.cards import FIGURES, card
from cheatdsl.sweep.cells import source_of

with warnings.catch_warnings():  # starlette 1.x suggests httpx2 for its test client; httpx is what we have
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def _figure(value: float) -> dict[str, float]:
    return {"value": value, "low": value - 0.1, "high": value + 0.1}


def stored_for(name: str, **changes: Any) -> dict[str, dict[str, Any]]:
    """A stored rating of the shipped profile `name`, made from its files as they are."""
    rb = load_rulebook(str(shipped_path(name)))
    entry: dict[str, Any] = {"profile": name, "files": source_of(rb).digest, "players": 4, "games": 120,
                             "skill_edge": _figure(0.325), "luck_share": _figure(0.21), "lie_value": _figure(0.0)}
    entry.update(changes)
    return {name: entry}


def test_a_shipped_profile_as_measured_gets_its_three_figures() -> None:
    path = str(shipped_path("english-ascending"))
    got = card(path, load_rulebook(path), stored_for("english-ascending"))
    assert got is not None and got["profile"] == "english-ascending" and got["players"] == 4
    assert [got[f]["value"] for f in FIGURES] == [0.325, 0.21, 0.0]


def test_no_card_where_the_files_changed_since_or_the_rulebook_is_a_copy(tmp_path: Path) -> None:
    """A profile edited since it was measured, and a copy of a shipped profile elsewhere (a house rule's base
    edited by hand), get no card: the figures are another rulebook's."""
    path = str(shipped_path("english-ascending"))
    rb = load_rulebook(path)
    assert card(path, rb, stored_for("english-ascending", files="0" * 32)) is None
    copy = tmp_path / "english-ascending.yaml"
    shutil.copy(path, copy)
    assert card(str(copy), load_rulebook(str(copy)), stored_for("english-ascending")) is None
    assert card(path, None, stored_for("english-ascending")) is None


def test_a_profile_not_rated_says_why_and_one_not_measured_yet_has_no_figures() -> None:
    path = str(shipped_path("standard"))
    rb = load_rulebook(path)
    why = "60% of the games between honest bots do not end"
    assert card(path, rb, stored_for("standard", not_rated=why)) == {"profile": "standard", "not_rated": why}
    old = stored_for("standard")
    for name in FIGURES:
        del old["standard"][name]
    assert all(card(path, rb, old)[name] is None for name in FIGURES)  # type: ignore[index]


def test_the_api_sends_each_rulebooks_card(tmp_path: Path) -> None:
    copy = tmp_path / "mine.yaml"
    shutil.copy(shipped_path("english-ascending"), copy)  # type: ignore[arg-type]
    app = create_app(build_catalog(["english-ascending", str(copy)]), ratings=stored_for("english-ascending"))
    rulebooks = TestClient(app, base_url="http://127.0.0.1").get("/api/tables").json()["rulebooks"]
    assert rulebooks[0]["card"]["skill_edge"] == _figure(0.325)
    assert rulebooks[1]["card"] is None


def test_the_stored_ratings_the_wheel_carries_are_read() -> None:
    """The cards read the gallery's stored ratings (docs/gallery/ratings.json in a checkout, cheatdsl/ratings.json
    in the wheel): every entry of the file is found by its profile's name."""
    stored = read_ratings(shipped_ratings_path())
    assert stored, shipped_ratings_path()
    assert "english-ascending" in stored


def test_a_figure_too_few_games_could_measure_is_sent_as_undefined() -> None:
    """A luck share with no value (too few replayed deals ended twice) is sent as such, not as "not measured"."""
    path = str(shipped_path("canadian-bluff-one-pack"))
    stored = stored_for("canadian-bluff-one-pack", luck_share={"value": None, "low": None, "high": None})
    got = card(path, load_rulebook(path), stored)
    assert got is not None and got["luck_share"] == {"value": None, "low": None, "high": None}
    assert got["skill_edge"]["value"] == 0.325
