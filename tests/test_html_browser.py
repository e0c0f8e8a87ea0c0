"""`cheatdsl compare --format html` opened in a real headless browser (Chromium from the system packages).

The page is written by the command (three rulebooks: 000 English ascending, 001's up-or-down variation
and Verish' ne verish'; the verifier's verdicts; 20 simulated games each), then Chromium parses it
(`--dump-dom`: one table with a row per rule dimension, per property and per statistic, and the three
SVG charts) and draws it (`--screenshot`: a PNG of the expected size, neither blank nor flat, holding
the charts' own colours, which only a drawn SVG puts there).

Without Chromium the test is skipped, unless the CI variable is set: `.ci/run` installs it, so there a
missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest

from cheatdsl.cli import main
from cheatdsl.compare import svg
from cheatdsl.compare.describe import DIMENSIONS
from cheatdsl.properties import PROPERTY_IDS

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["english-ascending", "standard-up-or-down", "verish-ne-verish"]
STATISTICS = 8
WIDTH, HEIGHT, SCALE = 1280, 3600, 0.5  # CSS pixels; the PNG is SCALE times that
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def chromium() -> str:
    """The browser's path; skips the test without one, or fails it when CI is set."""
    found = shutil.which("chromium") or ("/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None)
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail("chromium is not installed, and CI is set: .ci/run installs it (apt-get install chromium)")
    pytest.skip("chromium is not installed (apt-get install chromium); with CI set this is a failure")


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The compare page as Chromium's DOM, and its screenshot."""
    browser = chromium()
    tmp = tmp_path_factory.mktemp("browser")
    page = tmp / "compare.html"
    code = main(["compare", *(str(ROOT / "rulebooks" / f"{n}.yaml") for n in NAMES), "--simulate", "20",
                 "--format", "html", "-o", str(page)])
    assert code == 0
    common = [browser, *FLAGS, f"--user-data-dir={tmp / 'profile'}"]
    dom = subprocess.run([*common, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "TMPDIR": str(tmp)})
    assert dom.returncode == 0, dom.stderr[-2000:]
    shot = tmp / "compare.png"
    done = subprocess.run([*common, f"--screenshot={shot}", f"--window-size={WIDTH},{HEIGHT}",
                           f"--force-device-scale-factor={SCALE}", page.as_uri()],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TMPDIR": str(tmp)})
    assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
    return dom.stdout, shot


class _Dom(HTMLParser):
    """Tables' row groups and rows, and the shapes inside each figure's SVG."""

    def __init__(self) -> None:
        super().__init__()
        self.tables = 0
        self.head: list[str] = []
        self.groups: dict[str, list[tuple[str, int]]] = {}  # tbody id -> (row key, cells)
        self.figures: dict[str, dict[str, int]] = {}  # figure id -> tag counts inside it
        self.scripts = 0
        self._group: str | None = None
        self._row: str | None = None
        self._cells = 0
        self._figure: str | None = None
        self._in_head = False
        self._text: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table":
            self.tables += 1
        elif tag == "script":
            self.scripts += 1
        elif tag == "thead":
            self._in_head = True
        elif tag == "th" and self._in_head:
            self._text = []
        elif tag == "tbody":
            self._group = a.get("id") or ""
            self.groups[self._group] = []
        elif tag == "tr" and self._group is not None and a.get("data-key"):
            self._row, self._cells = a["data-key"], 0
        elif tag == "td" and self._row is not None:
            self._cells += 1
        elif tag == "figure":
            self._figure = a.get("id") or ""
            self.figures[self._figure] = {}
        if self._figure is not None and tag != "figure":
            self.figures[self._figure][tag] = self.figures[self._figure].get(tag, 0) + 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "thead":
            self._in_head = False
        elif tag == "th" and self._text is not None:
            self.head.append("".join(self._text).strip())
            self._text = None
        elif tag == "tr" and self._row is not None and self._group is not None:
            self.groups[self._group].append((self._row, self._cells))
            self._row = None
        elif tag == "tbody":
            self._group = None
        elif tag == "figure":
            self._figure = None

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)


def test_browser_sees_one_table_with_every_row(rendered: tuple[str, Path]) -> None:
    """The DOM Chromium builds: one table, a column per rulebook, a row per dimension, property and statistic."""
    dom = _Dom()
    dom.feed(rendered[0])
    assert dom.tables == 1 and dom.scripts == 0
    assert dom.head[2:] == NAMES
    assert list(dom.groups) == ["rules", "verdicts", "statistics"]
    assert [key for key, _ in dom.groups["rules"]] == [d.key for d in DIMENSIONS]
    assert len(dom.groups["verdicts"]) == len(PROPERTY_IDS)
    assert len(dom.groups["statistics"]) == STATISTICS
    for group in dom.groups.values():
        assert all(cells == 1 + len(NAMES) for _, cells in group)  # the ≠ mark, then a cell per rulebook
    # A refutation the rulebook expects is set apart as expected, not as an alarm.
    assert 'class="v-refuted expected"' in rendered[0] and "refuted, as expected" in rendered[0]
    assert 'class="v-refuted unexpected"' not in rendered[0]


def test_browser_sees_three_svg_charts(rendered: tuple[str, Path]) -> None:
    """Turns per game, wins by turn order and challenge outcomes, each an SVG with shapes in it."""
    dom = _Dom()
    dom.feed(rendered[0])
    assert sorted(dom.figures) == ["plot-challenges", "plot-turns", "plot-wins"]
    for name, tags in dom.figures.items():
        assert tags.get("svg") == 1, name
        assert tags.get("rect", 0) + tags.get("line", 0) >= len(NAMES), (name, tags)
        assert tags.get("text", 0) >= len(NAMES), (name, tags)


def read_png(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and rows of RGB pixels of an 8-bit RGB or RGBA PNG (RGBA cut down to RGB)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks, header = 8, [], b""
    while pos < len(data):
        (size,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + size]
        pos += 12 + size
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
    width, height, depth, colour_type = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour_type in (2, 6), (depth, colour_type)
    bpp = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    low, high = int.from_bytes(b"\x7f" * stride, "big"), int.from_bytes(b"\x80" * stride, "big")
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif kind == 2:  # bytewise sums without carries, on the whole row at once
            a, b = int.from_bytes(line, "big"), int.from_bytes(prev, "big")
            line = bytearray((((a & low) + (b & low)) ^ ((a ^ b) & high)).to_bytes(stride, "big"))
        elif kind in (3, 4):
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                if kind == 3:
                    line[i] = (line[i] + ((a + b) >> 1)) & 255
                    continue
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if bpp == 3 else bytes(v for i, v in enumerate(line) if i % 4 != 3))
        prev = line
    return width, height, rows


def test_screenshot_is_a_drawn_page(rendered: tuple[str, Path]) -> None:
    """The screenshot: the window's size, far from blank or flat, with the charts' colours drawn in it."""
    width, height, rows = read_png(rendered[1])
    assert (width, height) == (int(WIDTH * SCALE), int(HEIGHT * SCALE))
    pixels = [row[i:i + 3] for row in rows for i in range(0, len(row), 3)]
    colours = set(pixels)
    ink = sum(1 for p in pixels if p != b"\xff\xff\xff") / len(pixels)
    assert len(colours) >= 50, f"only {len(colours)} colours: a flat image"
    assert ink >= 0.05, f"only {ink:.1%} of the page is not white"
    for i in range(3):  # one series colour per rulebook, solid inside the charts' bars and boxes
        want = bytes(int(svg.colour(i)[k:k + 2], 16) for k in (1, 3, 5))
        near = [p for p in colours if all(abs(x - y) <= 6 for x, y in zip(p, want))]
        assert near, f"the colour {svg.colour(i)} of {NAMES[i]}'s charts is nowhere on the screenshot"


def test_missing_browser_skips_locally_and_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Chromium: a skip that says why on a workstation, a failure when CI is set."""
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="chromium is not installed"):
        chromium()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI is set"):
        chromium()
