"""The sweep's report.html opened in headless Chromium, as test_html_browser.py opens the compare page.

A tiny sweep (two rulebooks, a variation, two bot mixes, 12 games a cell, one property verified)
writes the page; Chromium parses it (`--dump-dom`: the cells table and the verdict matrix with a row
per cell, four figures each one SVG with shapes, no script) and draws it (`--screenshot`: not blank,
holding the seats' colours of the win-share chart and the verdict colours, which only drawn SVG puts
there). Skipped without Chromium, failed when CI is set, as there.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from test_html_browser import FLAGS, _Dom, chromium, read_png

from cheatdsl.cli import main
from cheatdsl.compare import svg
from cheatdsl.sweep.report import VERDICT_COLOURS

SPEC = """\
sweep: browser
rulebooks: [verish-ne-verish, english-ascending]
variations: each
players: [3]
bots: [honest, "greedy,honest,random"]
games: 12
seed: 3
verify: [ranks-exist, seat-fairness]
"""
CELLS = 6
WIDTH, HEIGHT, SCALE = 1280, 2400, 0.5


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The report as Chromium's DOM, and its screenshot."""
    browser = chromium()
    tmp = tmp_path_factory.mktemp("sweep-browser")
    spec = tmp / "browser.yaml"
    spec.write_text(SPEC)
    assert main(["sweep", str(spec), "--out", str(tmp / "out")]) == 0
    page = tmp / "out" / "report.html"
    common = [browser, *FLAGS, f"--user-data-dir={tmp / 'profile'}"]
    dom = subprocess.run([*common, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "TMPDIR": str(tmp)})
    assert dom.returncode == 0, dom.stderr[-2000:]
    shot = tmp / "report.png"
    done = subprocess.run([*common, f"--screenshot={shot}", f"--window-size={WIDTH},{HEIGHT}",
                           f"--force-device-scale-factor={SCALE}", page.as_uri()],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TMPDIR": str(tmp)})
    assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
    return dom.stdout, shot


def test_browser_sees_the_cells_and_the_verdict_matrix(rendered: tuple[str, Path]) -> None:
    """Rule: the report is self-contained (no script) with a row per cell in the cells table and the matrix."""
    dom = _Dom()
    dom.feed(rendered[0])
    assert dom.scripts == 0 and dom.tables == 2
    assert len(dom.groups["cell-rows"]) == CELLS and len(dom.groups["verdict-rows"]) == CELLS
    assert all(cells == 8 for _, cells in dom.groups["cell-rows"])
    assert all(cells == 2 for _, cells in dom.groups["verdict-rows"])  # one per property verified


def test_browser_sees_four_svg_charts(rendered: tuple[str, Path]) -> None:
    """Rule: win share by seat (with intervals), game length, challenge success and the verdict grid are drawn."""
    dom = _Dom()
    dom.feed(rendered[0])
    assert sorted(dom.figures) == ["plot-challenges", "plot-turns", "plot-verdicts", "plot-wins"]
    for name, tags in dom.figures.items():
        assert tags.get("svg") == 1, name
        assert tags.get("rect", 0) + tags.get("line", 0) >= CELLS, (name, tags)
    assert dom.figures["plot-wins"].get("circle", 0) == CELLS * 3  # a dot per seat, on its interval line
    assert dom.figures["plot-verdicts"].get("rect", 0) >= CELLS * 2


def test_screenshot_draws_the_charts_colours(rendered: tuple[str, Path]) -> None:
    """Rule: the drawn page is far from blank and holds the seats' and the verdicts' colours."""
    width, height, rows = read_png(rendered[1])
    assert (width, height) == (int(WIDTH * SCALE), int(HEIGHT * SCALE))
    pixels = [row[i:i + 3] for row in rows for i in range(0, len(row), 3)]
    colours = set(pixels)
    assert len(colours) >= 50
    wanted = [svg.colour(0), svg.colour(1), svg.colour(2), VERDICT_COLOURS["proved"]]
    for colour in wanted:
        want = bytes(int(colour[k:k + 2], 16) for k in (1, 3, 5))
        assert any(all(abs(x - y) <= 8 for x, y in zip(p, want)) for p in colours), colour
