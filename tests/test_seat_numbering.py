"""Seats are numbered the same way everywhere (issue 25, 'seats numbered the same way everywhere').

The lead's decision: count seats from 0 everywhere, as the scenario files, the notation, `simulate`'s
report and the JSON already do; a chart or report says "seat 0". A chart of places in turn order (who
played first, second, ...) is not a chart of seats, and says so in words ("first to play") rather than
with a number that differs from the table's seat. docs/language.md says what seat 0 is.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cheatdsl.compare import statistics, svg
from cheatdsl.docs import gallery
from cheatdsl.load import compile_rulebook
from cheatdsl.model import Rulebook
from cheatdsl.simulate import Statistics, simulate
from cheatdsl.simulate.report import render
from cheatdsl.sweep.report import win_shares

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
PLAYERS = 3
# Person-facing sentences that number seats from 1.
FROM_ONE = re.compile(r"seats? (?:are |is )?(?:numbered|counted) from (?:1|one)\b|seat 1 (?:is )?the first"
                      r"|first seat is seat 1|seat 1 the first", re.IGNORECASE)


def _rulebook() -> Rulebook:
    rb, d = compile_rulebook(str(ROOT / "rulebooks" / "english-ascending.yaml"))
    assert rb is not None, d.render()
    return rb


@pytest.fixture(scope="module")
def games() -> Statistics:
    """Eight seeded games of English ascending at three seats between honest bots."""
    return simulate(_rulebook(), players=PLAYERS, games=8, seed=0, bots=("honest",))


def _labels(drawing: str) -> list[str]:
    """The grey labels at the left of a share chart's rows, in order."""
    return [t.text or "" for t in ET.fromstring(drawing).iter(f"{SVG}text") if t.get("fill") == "#555"]


def test_simulate_report_numbers_seats_from_zero(games: Statistics) -> None:
    """The text report every other surface is measured against: `seat 0:` is the first line of wins by seat."""
    seats = re.findall(r"^  seat (\d+):", render(games), re.MULTILINE)
    assert seats == [str(k) for k in range(PLAYERS)]


def test_sweep_chart_labels_seats_as_simulate_does(games: Statistics) -> None:
    """The sweep's win share by seat is by table seat: its rows are labelled as `simulate` labels them."""
    drawing = win_shares(["english-ascending 3p"], [games])
    said = [f"seat {k}" for k in map(int, re.findall(r"^  seat (\d+):", render(games), re.MULTILINE))]
    assert _labels(drawing) == said == ["seat 0", "seat 1", "seat 2"]
    for share in games.win_shares:  # each seat's hover names the same seat as the text report
        assert f"seat {share.seat}: {share.count} of {games.decided} won" in drawing


def test_compare_chart_names_places_in_turn_order_in_words(games: Statistics) -> None:
    """Compare's wins chart counts from the first player to play, whichever seat that is: its rows say so in
    words, and no number in it can be read as a seat."""
    drawing = svg.wins_by_turn_order(["english-ascending"], [games])
    assert _labels(drawing) == ["first", "second", "third"]
    assert "first to play" in drawing and "from the first to play" in drawing
    assert not re.search(r"seat \d", drawing)


def test_gallery_chart_is_compares(games: Statistics) -> None:
    """The gallery's wins chart is compare's: places in words, no seat numbers."""
    rb = _rulebook()
    profile = gallery.Profile(rb.name, "rulebooks/english-ascending.yaml", ("rulebooks/english-ascending.yaml",), rb)
    drawn = gallery.charts(profile, games)
    title, drawing = drawn[f"{gallery.CHARTS}/english-ascending-wins.svg"]
    assert title == svg.WINS_TITLE
    assert _labels(drawing) == ["first", "second", "third"] and not re.search(r"seat \d", drawing)


def test_compare_table_names_places_like_its_chart(games: Statistics) -> None:
    """Compare's statistics table (and the gallery's, which is the same rows) names the same places."""
    rows = {r.key: r for r in statistics._rows([games])}
    row = rows["wins_by_seat"]
    assert row.label == "wins by turn order"
    assert re.findall(r"(first|second|third) \d+%", row.cells[0]) == ["first", "second", "third"]
    assert not re.search(r"seat \d", row.cells[0])


def test_places_past_ten_are_ordinals() -> None:
    """Eleven seats and more: `11th`, `12th`, `21st`, never a bare number."""
    assert [svg.place(k) for k in (0, 1, 9, 10, 11, 20, 21, 22)] == \
        ["first", "second", "tenth", "11th", "12th", "21st", "22nd", "23rd"]


def _prose() -> list[Path]:
    docs = ROOT / "docs"
    return sorted([*docs.glob("*.md"), *(docs / "gallery").glob("*.md")])


def test_no_docs_prose_numbers_seats_from_one() -> None:
    """No page says seats are numbered from 1 (docs/sweeps.md said so before)."""
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in _prose()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if FROM_ONE.search(line)]
    assert not found, "\n".join(found)


def test_no_report_code_adds_one_to_a_seat() -> None:
    """No person-facing text in the package writes a seat as its index plus one (`seat {w.seat + 1}`)."""
    sources = [*(ROOT / "cheatdsl").rglob("*.py"), *(ROOT / "verifier").rglob("*.py"),
               *(ROOT / "cheatdsl" / "serve" / "static").glob("*.js")]
    pattern = re.compile(r"[Ss]eat \{[^}]*\+ ?1\}|[Ss]eat \" ?\+ ?\(?[\w.]+ ?\+ ?1")
    found = [f"{p.relative_to(ROOT)}:{n}" for p in sources
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert not found, found


def test_language_reference_says_what_seat_zero_is_and_sweeps_links_it() -> None:
    """docs/language.md states the convention once; docs/sweeps.md points to it."""
    language = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    part = language.split("### Seat numbers", 1)[1].split("\n## ", 1)[0]
    assert "Seats are numbered from 0" in part and "`dealer: seat_zero` seat 0 deals" in part
    assert "language.md#seat-numbers" in (ROOT / "docs" / "sweeps.md").read_text(encoding="utf-8")
