"""Every report kind stays readable at 1280 px and on a phone 390 px wide (issue 25; the project's layout rule).

The reports are written by their commands: compare (five profiles with the verifier's verdicts and 10
games each: four that play alike and Mogeln, whose games never finish; also at 900 and 360 px), a small
sweep, an explore of every property, and the gallery's index and longest pages as the docs site shows
them. One Chromium (driven by Selenium) lays each out in frames of each width, all in one probe page
that measures each frame: nothing may reach past the right edge, except inside a box that scrolls; a
chart's text, as drawn on a phone, is 9 px or more; column names break only between words; no column
sits empty; tables keep their header rows. Then it takes screenshots of each kind at 1280 and 390 px.
The charts are checked on their own too: one rulebook's long games must not squash the others' boxes,
names cut keep their full name, shares carry their intervals.
"""

from __future__ import annotations

import contextlib
import html
import io
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_html_browser import FLAGS, chromium, read_png

from cheatdsl.cli import main
from cheatdsl.compare import svg
from cheatdsl.simulate import Statistics
from tests.played import played

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["english-ascending", "standard", "full-rules", "standard-big-table", "mogeln"]
WIDE, PHONE = 1280, 390
WIDTHS = {"compare": (WIDE, 900, PHONE, 360), "sweep": (WIDE, PHONE), "explore": (WIDE, PHONE),
          "gallery": (WIDE, PHONE)}
DRIVER = "/usr/bin/chromedriver"
GALLERY_PAGES = 4
SMALLEST_TEXT = 9.0  # pixels: the least size of a chart's text as drawn on a phone
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
# Measures each frame's document: how wide it is, the furthest right edge of anything not inside a box that
# scrolls (such a box must itself fit), the boxes that scroll sideways, the smallest text of an inline chart
# as drawn (its font size times the chart's scale), the smallest scale of a chart drawn from an SVG file, the
# words of column headers broken across lines, the tables' columns with no value in any row, and whether each
# table's header row is shown.
PROBE = """<!DOCTYPE html><html><body style="margin:0">{frames}<script>
function measure(d, w) {{
  const scrolls = e => ["auto", "scroll"].includes(w.getComputedStyle(e).overflowX);
  const boxed = e => {{ for (let a = e.parentElement; a && a !== d.body; a = a.parentElement) {{
    if (scrolls(a) || w.getComputedStyle(a).overflowX === "hidden") return true; }} return false; }};
  let right = 0;
  const sideways = [];
  for (const e of d.querySelectorAll("body *")) {{
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || w.getComputedStyle(e).visibility === "hidden" || boxed(e)) continue;
    right = Math.max(right, r.right);
    if (scrolls(e) && e.scrollWidth > e.clientWidth + 1 && e.closest(".scroll, table")) sideways.push(e.id || e.className);
  }}
  let text = 99;
  for (const t of d.querySelectorAll("svg text")) {{
    const m = t.getScreenCTM();
    text = Math.min(text, parseFloat(w.getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b));
  }}
  let scale = 99;
  for (const img of d.querySelectorAll("img[src$='.svg']")) {{
    scale = Math.min(scale, img.getBoundingClientRect().width / img.naturalWidth);
  }}
  const broken = [];
  for (const th of d.querySelectorAll("thead th")) {{
    const walker = d.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {{
      for (const m of node.data.matchAll(/[^\\s-]+/g)) {{
        const range = d.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        if (Array.from(range.getClientRects()).filter(r => r.width && r.height).length > 1) broken.push(m[0]);
      }}
    }}
  }}
  const empty = [], hidden = [];
  for (const table of d.querySelectorAll("table")) {{
    const heads = table.querySelectorAll("thead th");
    if (table.tHead && !table.tHead.getBoundingClientRect().height) hidden.push(table.id);
    heads.forEach((th, k) => {{
      const rows = Array.from(table.querySelectorAll("tbody tr")).filter(tr => tr.cells.length === heads.length);
      if (rows.length && rows.every(tr => !tr.cells[k].textContent.trim())) empty.push(table.id + ": " + th.textContent);
    }});
  }}
  return {{scroll: d.documentElement.scrollWidth, client: d.documentElement.clientWidth, right: Math.ceil(right),
           sideways, text, scale, broken, empty, hidden}};
}}
window.addEventListener("load", () => {{
  window.measured = Array.from(document.querySelectorAll("iframe")).map(f => measure(f.contentDocument, f.contentWindow));
}});
</script></body></html>"""

Pages = dict[str, list[Path]]


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Pages:
    """Every report kind, written by its command: the compare page (five profiles with the verifier's verdicts
    and 10 games each: four that play alike and Mogeln, whose games never finish), a small sweep's report, an
    explore's report (every property, so sixteen verdict columns) and the gallery's index and longest pages as
    the docs site shows them (`mkdocs build`)."""
    chromium()
    tmp = tmp_path_factory.mktemp("layout")
    compare = tmp / "compare.html"
    assert main(["compare", *(str(ROOT / "rulebooks" / f"{n}.yaml") for n in NAMES), "--simulate", "10",
                 "--format", "html", "-o", str(compare)]) == 0
    spec = tmp / "layout.yaml"
    spec.write_text(SWEEP_SPEC)
    assert main(["sweep", str(spec), "--out", str(tmp / "sweep")]) == 0
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["explore", "verish-ne-verish", "-n", "2", "--out", str(tmp / "explore")]) == 0
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    site = tmp / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--site-dir", str(site)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    gallery = sorted((site / "gallery").glob("*/index.html"), key=lambda f: -f.stat().st_size)
    assert len(gallery) >= 20
    gallery = gallery[:GALLERY_PAGES]  # one template makes every page: the longest ones are measured
    return {"compare": [compare], "sweep": [tmp / "sweep" / "report.html"],
            "explore": [tmp / "explore" / "report.html"], "gallery": [site / "gallery" / "index.html", *gallery]}


@pytest.fixture(scope="module")
def browser(pages: Pages) -> Iterator[Any]:
    """One Chromium for the whole module, driven by Selenium (file pages may load the files beside them)."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service
    if not os.access(DRIVER, os.X_OK):
        if os.environ.get("CI"):
            pytest.fail("chromium-driver is not installed, and CI is set")
        pytest.skip("chromium-driver is not installed (apt-get install chromium-driver); with CI set this fails")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium()
    for flag in ("--headless=new", *FLAGS[1:], "--allow-file-access-from-files",
                 f"--user-data-dir={pages['compare'][0].parent / 'profile'}"):
        options.add_argument(flag)
    folder = pages["compare"][0].parent
    driver = webdriver.Chrome(service=Service(DRIVER, env={**os.environ, "TMPDIR": str(folder)}), options=options)
    driver.set_script_timeout(60)
    yield driver
    driver.quit()


def _loaded(driver: Any, test: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(driver, 60).until(lambda d: d.execute_script(test))


@pytest.fixture(scope="module")
def measured(pages: Pages, browser: Any) -> dict[tuple[str, str, int], dict[str, Any]]:
    """Each page laid out in frames of each width, all in one probe page: (kind, page, width) -> measures."""
    frames, keys = [], []
    for kind, files in pages.items():
        for file in files:
            # A page in a srcdoc frame shares the probe's origin, so the probe can read it; <base> finds its files.
            text = file.read_text(encoding="utf-8").replace("<head>", f'<head><base href="{file.parent.as_uri()}/">', 1)
            for width in WIDTHS[kind]:
                keys.append((kind, file.parent.name if kind == "gallery" else file.name, width))
                frames.append(f'<iframe width="{width}" height="2000" style="border:0;display:block" '
                              f'srcdoc="{html.escape(text, quote=True)}"></iframe>')
    probe = pages["compare"][0].with_name("probe.html")
    probe.write_text(PROBE.format(frames="".join(frames)), encoding="utf-8")
    browser.set_window_size(1400, 2000)
    browser.get(probe.as_uri())
    _loaded(browser, "return window.measured !== undefined")
    found = browser.execute_script("return window.measured")
    assert len(found) == len(keys)
    return dict(zip(keys, found))


def _each(measured: dict[tuple[str, str, int], dict[str, Any]], kind: str) -> list[tuple[str, int, dict[str, Any]]]:
    out = [(page, width, m) for (k, page, width), m in measured.items() if k == kind]
    assert out
    return out


@pytest.mark.parametrize("kind", list(WIDTHS))
def test_every_report_fits_1280_px_and_a_phone_without_sideways_scrolling(
        measured: dict[tuple[str, str, int], dict[str, Any]], kind: str) -> None:
    """Issue 25: 'reports (compare, gallery, sweep, explore) readable at 1280 and 390 px': at each width the page
    is no wider than its frame and nothing reaches past the right edge, except inside a box that scrolls."""
    for page, width, m in _each(measured, kind):
        assert m["client"] == width, (page, width, m)
        assert m["scroll"] <= width, f"{page} at {width} px is {m['scroll']} px wide: it scrolls sideways"
        assert m["right"] <= width, f"{page} at {width} px: something reaches {m['right']} px, past the right edge"


@pytest.mark.parametrize("kind", list(WIDTHS))
def test_charts_text_stays_readable_on_a_phone(measured: dict[tuple[str, str, int], dict[str, Any]],
                                               pages: Pages, kind: str) -> None:
    """Issue 25: 'gallery charts shrink to ~5 px text on a phone': every chart's text, as drawn at 390 px (and
    at 360 px for compare), is at least 9 px tall; the gallery's charts are SVG files, drawn at a scale that
    keeps their smallest font size at 9 px or more."""
    sizes = {float(v) for f in (ROOT / "docs" / "gallery" / "charts").glob("*.svg")
             for v in re.findall(r'font-size="([\d.]+)"', f.read_text(encoding="utf-8"))}
    for page, width, m in _each(measured, kind):
        if kind == "gallery":
            if page == "gallery":
                continue  # the index has no charts
            assert m["scale"] < 99, f"{page}: no chart drawn"
            assert m["scale"] * min(sizes) >= SMALLEST_TEXT, f"{page} at {width} px: charts drawn at {m['scale']:.2f}"
        else:
            assert m["text"] < 99, f"{page}: no chart drawn"
            assert m["text"] >= SMALLEST_TEXT, f"{page} at {width} px: chart text {m['text']:.1f} px"


@pytest.mark.parametrize("kind", ["compare", "sweep", "explore"])
def test_column_names_break_only_between_words(measured: dict[tuple[str, str, int], dict[str, Any]],
                                               kind: str) -> None:
    """Issue 25: 'explore report: headers break mid-word': no word of a column name is split over two lines."""
    for page, width, m in _each(measured, kind):
        assert not m["broken"], f"{page} at {width} px: column names broken mid-word: {m['broken']}"


@pytest.mark.parametrize("kind", ["compare", "sweep", "explore"])
def test_no_column_sits_empty(measured: dict[tuple[str, str, int], dict[str, Any]], kind: str) -> None:
    """Issue 25: 'explore report: sweep-only columns sit empty': every column shown has a value in some row."""
    for page, width, m in _each(measured, kind):
        assert not m["empty"], f"{page}: empty columns {m['empty']}"


@pytest.mark.parametrize("kind", ["sweep", "explore"])
def test_tables_scroll_in_their_box_with_their_headers(measured: dict[tuple[str, str, int], dict[str, Any]],
                                                       kind: str) -> None:
    """Issue 25: 'the verdict table overflows at 1280 px' and 'at 390 px the cells table loses its column
    names': at 1280 px no table needs to scroll sideways; at 390 px a table may, inside its own box, with its
    header row still shown."""
    for page, width, m in _each(measured, kind):
        assert not m["hidden"], f"{page} at {width} px: the header row of {m['hidden']} is hidden"
        if width == WIDE:
            assert not m["sideways"], f"{page} at {width} px: {m['sideways']} scroll sideways"


@pytest.mark.parametrize("kind", list(WIDTHS))
def test_screenshots_at_1280_px_and_on_a_phone(pages: Pages, browser: Any, kind: str, tmp_path: Path) -> None:
    """Chromium draws each report kind at 1280 and 390 px wide: the window's width, ink on it (the PNGs are
    left in the test's temporary folder to look at)."""
    page = pages[kind][0] if kind != "gallery" else pages[kind][1]
    for width in (WIDE, PHONE):
        browser.set_window_size(width, 1400)
        browser.get(page.as_uri())
        _loaded(browser, "return document.readyState === 'complete'")
        assert browser.execute_script("return document.documentElement.clientWidth") == width
        shot = tmp_path / f"{kind}-{width}.png"
        assert browser.save_screenshot(str(shot))
        w, h, rows = read_png(shot)
        assert w == width and h >= 1000, (w, h)
        ink = sum(len(row) - row.count(255) for row in rows) / (3 * w * h)  # the share of colour values not white
        assert ink >= 0.02, f"{kind} at {width} px: only {ink:.1%} of the page is not white"


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


def test_sweep_win_shares_number_seats_from_zero() -> None:
    """Issue 25: 'seats numbered the same way everywhere': the sweep's chart of table seats counts them from 0,
    as `simulate`, the notation and the data files do."""
    from cheatdsl.sweep.report import win_shares
    sim = played([30, 40, 50])
    drawing = win_shares(["a"], [sim])
    players = sim.settings.players
    assert all(f"seat {k}" in _words(drawing) for k in range(players))
    assert f"seat {players}" not in drawing


def test_sweep_chart_labels_cut_keep_the_full_name_on_hover() -> None:
    """Issue 25: 'full labels (... abbreviated with the full name on hover)': a cut cell name has its <title>."""
    from cheatdsl.sweep.report import win_shares
    long = "english-ascending+skip-pass+one-card-only 3p greedy,honest,random"
    drawing = win_shares([long], [played([30, 40, 50])])
    assert f"<title>{long}</title>" in drawing


SVG = "{http://www.w3.org/2000/svg}"
LONG = "english-ascending+skip-pass+one-card-only+show-the-pile+count-of-three 4p greedy,honest,random,search"


def _words(drawing: str) -> str:
    """All the text a chart draws, in order."""
    return " ".join(t.text or "" for t in ET.fromstring(drawing).iter(f"{SVG}text"))


@pytest.mark.parametrize("draw", [svg.turns_per_game, svg.wins_by_turn_order, svg.challenge_outcomes])
def test_compare_chart_labels_cut_keep_the_full_name_on_hover_and_in_a_key(draw: Any) -> None:
    """Issue 25: 'chart labels cut until four rows read the same': a name too long for the chart's width is cut
    with its full name in a <title> and spelled out whole, over as many lines as it needs, in a key under it;
    names that fit are written whole and no key is drawn."""
    sims = [played([30, 40, 50], caught=3, failed=2, wins=[0, 1, 1])] * 2
    cut = draw([LONG, LONG.replace("english", "scottish")], sims)
    assert f"<title>{LONG}</title>" in cut
    words = _words(cut)
    assert "names in full:" in words
    assert LONG.replace(" ", "") in words.replace(" ", "")
    fits = draw(["standard", "english-ascending"], sims)
    assert "names in full" not in fits and "…" not in fits
    assert "standard" in _words(fits) and "english-ascending" in _words(fits)


def test_compare_win_shares_carry_their_wilson_intervals_drawn_and_in_words() -> None:
    """Issue 25: 'win-share bars have no intervals': each place's share of the won games is a dot on a line from
    the low to the high end of its 95% Wilson interval, and the numbers are written beside it; the places are
    in turn order from the first to play, named in words, never as a seat number."""
    from cheatdsl.simulate import wilson
    sim = played([30] * 10, players=3, wins=[0, 0, 0, 0, 0, 1, 1, 1, 2, 2])
    drawing = svg.wins_by_turn_order(["three players"], [sim])
    words = _words(drawing)
    assert "95% Wilson interval" in words and "in turn order from the first to play" in words
    for place, won in zip(("first", "second", "third"), (5, 3, 2)):
        low, high = wilson(won, 10)
        assert place in words.split()
        assert f"{won / 10:.0%} ({low:.0%}–{high:.0%})" in words, words
        assert f"{place} to play: {won} of 10 won, {won / 10:.1%} (95% {low:.1%} to {high:.1%})" in drawing
    assert "seat " not in drawing
    tree = ET.fromstring(drawing)
    assert len(list(tree.iter(f"{SVG}circle"))) == 3


def test_challenge_chart_states_the_interval_of_the_share_caught() -> None:
    """Issue 25: 'intervals on every share': the share of challenges that caught a lie carries its 95% interval."""
    from cheatdsl.simulate import wilson
    drawing = svg.challenge_outcomes(["some"], [played([30, 40], caught=6, failed=14)])
    low, high = wilson(6, 20)
    assert f"caught 30% ({low:.0%}–{high:.0%})" in _words(drawing)
    assert f"95% interval of the share caught: {low:.1%} to {high:.1%}" in drawing
