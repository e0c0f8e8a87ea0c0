"""The compare page and its charts stay readable at 900 px and on a phone (the project's layout rule).

One page is written (five profiles with the verifier's verdicts and 10 games each: four that play
alike and Mogeln, whose games never finish). Chromium lays it out in frames 900 and 360 pixels wide
(`--dump-dom` of a probe page that measures each frame: nothing may reach past its right edge, so the
page never scrolls sideways), then takes screenshots at 900 and 390 pixels wide.
The turns chart is checked on its own: one rulebook's long games must not squash the others' boxes.
"""

from __future__ import annotations

import html
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_html_browser import FLAGS, chromium, read_png

from cheatdsl.cli import main
from cheatdsl.compare import svg
from cheatdsl.simulate import Statistics
from tests.played import played

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["english-ascending", "standard", "full-rules", "standard-big-table", "mogeln"]
WIDTHS = (900, 360)
SHOTS = (900, 390)
PROBE = """<!DOCTYPE html><html><body style="margin:0">{frames}<script>
window.addEventListener("load", () => {{
  for (const f of document.querySelectorAll("iframe")) {{
    const d = f.contentDocument;
    const right = Math.max(...Array.from(d.querySelectorAll("body *")).map(e => e.getBoundingClientRect().right));
    f.setAttribute("data-fit", [d.documentElement.scrollWidth, d.documentElement.clientWidth, Math.ceil(right)].join(" "));
  }}
}});
</script></body></html>"""


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """The compare page, and the command line that wrote it."""
    browser = chromium()
    tmp = tmp_path_factory.mktemp("layout")
    page = tmp / "compare.html"
    code = main(["compare", *(str(ROOT / "rulebooks" / f"{n}.yaml") for n in NAMES), "--simulate", "10",
                 "--format", "html", "-o", str(page)])
    assert code == 0
    return page, [browser, *FLAGS, f"--user-data-dir={tmp / 'profile'}"]


def test_page_fits_900_px_and_a_phone_without_sideways_scrolling(written: tuple[Path, list[str]]) -> None:
    """In frames 900 and 360 px wide, the page is no wider than the frame and nothing reaches past its edge."""
    page, common = written
    text = page.read_text(encoding="utf-8")
    frames = "".join(f'<iframe id="w{w}" width="{w}" height="2000" style="border:0;display:block" '
                     f'srcdoc="{html.escape(text, quote=True)}"></iframe>' for w in WIDTHS)
    probe = page.with_name("probe.html")
    probe.write_text(PROBE.format(frames=frames), encoding="utf-8")
    dom = subprocess.run([*common, "--window-size=1000,4200", "--virtual-time-budget=5000", "--dump-dom",
                          probe.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = dict(re.findall(r'id="w(\d+)"[^>]*data-fit="([\d ]+)"', dom.stdout))
    assert sorted(found) == sorted(str(w) for w in WIDTHS), dom.stdout[-500:]
    for width in WIDTHS:
        scroll, client, right = (int(v) for v in found[str(width)].split())
        assert client == width, (width, client)
        assert scroll <= width, f"at {width} px the page is {scroll} px wide: it scrolls sideways"
        assert right <= width, f"at {width} px something reaches {right} px, past the right edge"


def test_screenshots_at_900_px_and_on_a_phone(written: tuple[Path, list[str]], tmp_path: Path) -> None:
    """Chromium draws the page at 900 and 390 px wide: the window's width, ink on it, the charts' colours."""
    page, common = written
    for width in SHOTS:
        shot = tmp_path / f"compare-{width}.png"
        done = subprocess.run([*common, f"--screenshot={shot}", f"--window-size={width},2400", page.as_uri()],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
        w, h, rows = read_png(shot)
        assert (w, h) == (width, 2400)
        ink = sum(1 for row in rows for i in range(0, len(row), 3) if row[i:i + 3] != b"\xff\xff\xff")
        assert ink / (w * h) >= 0.05, f"at {width} px only {ink / (w * h):.1%} of the page is not white"


def _data(lengths: list[int], capped: int = 0, cap: int = 2000, caught: int = 0, failed: int = 0) -> Statistics:
    return played(lengths, capped, cap=cap, caught=caught, failed=failed)


def _boxes(drawing: str) -> list[float]:
    """The widths of the boxes (the middle halves) of a turns chart."""
    tree = ET.fromstring(drawing)
    return [float(r.get("width", 0)) for r in tree.iter("{http://www.w3.org/2000/svg}rect")]


def test_turns_chart_is_not_squashed_by_one_outlier() -> None:
    """Games fifty times longer in one column: a log axis, said on the chart, and the short games' box stays wide."""
    short = _data([30, 40, 50, 60, 80, 90])
    long = _data([1500, 1800, 1900, 1950])
    drawing = svg.turns_per_game(["short", "long"], [short, long])
    assert "log scale" in drawing
    assert _boxes(drawing)[0] >= 40, _boxes(drawing)
    plain = svg.turns_per_game(["short", "also short"], [short, _data([40, 50, 70, 100])])
    assert "log scale" not in plain


def test_turns_chart_leaves_capped_games_out_and_counts_them() -> None:
    """Capped games are not drawn at the cap: the box is of finished games, the row counts the capped ones."""
    some = _data([30, 40, 50, 60], capped=2)
    none = _data([], capped=5)
    drawing = svg.turns_per_game(["some", "none"], [some, none])
    assert "+2 capped" in drawing and "no game finished: all 5 stopped by the turn cap" in drawing
    assert "log scale" not in drawing and ">2000<" not in drawing
    assert len(_boxes(drawing)) == 1


def test_challenge_chart_draws_no_games_that_never_finished() -> None:
    """A rulebook whose every game was capped gets no bar of challenge outcomes, only a line naming it."""
    ended = _data([30, 40], caught=5, failed=5)
    capped = _data([], capped=3, caught=5000, failed=10)
    drawing = svg.challenge_outcomes(["ended", "capped"], [ended, capped])
    assert "left out, no game finished: capped" in drawing
    assert len(_boxes(drawing)) == 2 + 2  # the one bar's two parts, and the two legend keys
    assert svg.challenge_outcomes(["capped"], [capped]) == ""


SWEEP_SPEC = """\
sweep: layout
rulebooks: [verish-ne-verish, english-ascending]
variations: each
players: [3]
bots: [honest, "greedy,honest,random"]
games: 8
seed: 3
verify: [ranks-exist, seat-fairness]
"""
SWEEP_WIDTHS = (1280, 390)


def _fits(page: Path, common: list[str], widths: tuple[int, ...]) -> dict[int, tuple[int, int, int]]:
    """Per frame width: the page's scroll width, the frame's width, the furthest right edge of any element
    outside a scrolling box (a table scrolls inside its own box, which must itself fit)."""
    text = page.read_text(encoding="utf-8")
    frames = "".join(f'<iframe id="w{w}" width="{w}" height="2000" style="border:0;display:block" '
                     f'srcdoc="{html.escape(text, quote=True)}"></iframe>' for w in widths)
    probe = page.with_name("probe.html")
    probe.write_text(PROBE.replace("d.querySelectorAll(\"body *\")",
                                   "d.querySelectorAll(\"body *:not(div.scroll *)\")").format(frames=frames),
                     encoding="utf-8")
    dom = subprocess.run([*common, "--window-size=1400,4200", "--virtual-time-budget=5000", "--dump-dom",
                          probe.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = dict(re.findall(r'id="w(\d+)"[^>]*data-fit="([\d ]+)"', dom.stdout))
    assert sorted(found) == sorted(str(w) for w in widths), dom.stdout[-500:]
    return {w: tuple(int(v) for v in found[str(w)].split()) for w in widths}  # type: ignore[misc]


@pytest.fixture(scope="module")
def sweep_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A small sweep's report.html (issue 25: the sweep report readable at 1280 and 390 px)."""
    browser = chromium()
    tmp = tmp_path_factory.mktemp("sweep-layout")
    spec = tmp / "layout.yaml"
    spec.write_text(SWEEP_SPEC)
    assert main(["sweep", str(spec), "--out", str(tmp / "out")]) == 0
    return tmp / "out" / "report.html", [browser, *FLAGS, f"--user-data-dir={tmp / 'profile'}"]


def test_sweep_report_fits_1280_px_and_a_phone(sweep_report: tuple[Path, list[str]]) -> None:
    """Issue 25: at 1280 and 390 px the sweep report never scrolls sideways; its tables scroll in their box."""
    page, common = sweep_report
    for width, (scroll, client, right) in _fits(page, common, SWEEP_WIDTHS).items():
        assert client == width, (width, client)
        assert scroll <= width, f"at {width} px the sweep report is {scroll} px wide: it scrolls sideways"
        assert right <= width, f"at {width} px something reaches {right} px, past the right edge"


def test_sweep_cells_table_keeps_its_column_names_on_a_phone(sweep_report: tuple[Path, list[str]]) -> None:
    """Issue 25: 'at 390 px the sweep cells table loses its column names': the header row stays shown."""
    page, common = sweep_report
    text = page.read_text(encoding="utf-8")
    probe = page.with_name("heads.html")
    probe.write_text(f'<!DOCTYPE html><html><body style="margin:0"><iframe id="f" width="390" height="2000" '
                     f'srcdoc="{html.escape(text, quote=True)}"></iframe><script>window.addEventListener("load",'
                     '()=>{const d=document.getElementById("f").contentDocument;'
                     'const h=d.querySelector("#cells thead").getBoundingClientRect().height;'
                     'document.body.setAttribute("data-head",Math.round(h));});</script></body></html>',
                     encoding="utf-8")
    dom = subprocess.run([*common, "--window-size=400,2100", "--virtual-time-budget=5000", "--dump-dom",
                          probe.as_uri()], capture_output=True, text=True, timeout=120)
    height = re.search(r'data-head="(\d+)"', dom.stdout)
    assert height is not None, dom.stdout[-500:]
    assert int(height.group(1)) > 0, "the cells table's column names are hidden at 390 px"


def test_sweep_win_shares_number_seats_from_one() -> None:
    """Issue 25: 'the docs number seats from 1 while the sweep report numbers them from 0'."""
    from cheatdsl.sweep.report import win_shares
    sim = played([30, 40, 50])
    drawing = win_shares(["a"], [sim])
    assert "seat 1" in drawing and "seat 0" not in drawing


def test_sweep_chart_labels_cut_keep_the_full_name_on_hover() -> None:
    """Issue 25: 'full labels (... abbreviated with the full name on hover)': a cut cell name has its <title>."""
    from cheatdsl.sweep.report import win_shares
    long = "english-ascending+skip-pass+one-card-only 3p greedy,honest,random"
    drawing = win_shares([long], [played([30, 40, 50])])
    assert f"<title>{long}</title>" in drawing
