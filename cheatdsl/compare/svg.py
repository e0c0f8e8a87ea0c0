"""Small inline SVG charts of simulation data, drawn by hand: no plotting library, no fonts, no scripts.

Each chart takes the column names and one statistics dict per rulebook (None where there is none)
and returns the `<svg>` text, or "" when no rulebook has the data it needs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

COLOURS = ("#1f6feb", "#d9480f", "#2f9e44", "#9c36b5", "#e8590c", "#0c8599", "#c2255c", "#5c940d", "#495057")
WIDTH = 640
FONT = 'font-family="sans-serif" font-size="11"'

Data = Sequence[Mapping[str, Any] | None]


def colour(i: int) -> str:
    return COLOURS[i % len(COLOURS)]


def _svg(height: int, title: str, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}"><title>{escape(title)}</title>' + "".join(body) + "</svg>")


def _text(x: float, y: float, text: str, anchor: str = "start", extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {FONT}{extra}>{escape(text)}</text>'


def _short(name: str, room: float) -> str:
    """`name` cut to fit `room` pixels of 11px text (about 6px a character)."""
    most = max(3, int(room // 6))
    return name if len(name) <= most else name[: most - 1] + "…"


def _legend(names: Sequence[str], shown: Sequence[int], y: float) -> list[str]:
    out, x = [], 50.0
    for i in shown:
        out.append(f'<rect x="{x:.1f}" y="{y - 9:.1f}" width="10" height="10" fill="{colour(i)}"/>')
        out.append(_text(x + 14, y, names[i]))
        x += 24 + 7 * len(names[i])
    return out


def _usable(data: Data, key: str) -> list[int]:
    out = []
    for i, d in enumerate(data):
        try:
            if d is not None and d.get(key):
                out.append(i)
        except AttributeError:
            continue
    return out


def turns_per_game(names: Sequence[str], data: Data, bins: int = 12) -> str:
    """A frequency polygon per rulebook: the share of games that lasted each number of plays."""
    shown = [i for i in _usable(data, "turns") if all(isinstance(t, (int, float)) for t in data[i]["turns"])]  # type: ignore[index]
    if not shown:
        return ""
    every = [int(t) for i in shown for t in data[i]["turns"]]  # type: ignore[index]
    low, high = min(every), max(every)
    step = max(1, math.ceil((high - low + 1) / bins))
    bins = math.ceil((high - low + 1) / step)
    left, right, top, bottom = 50.0, WIDTH - 20.0, 20.0, 200.0
    shares = []
    for i in shown:
        turns = data[i]["turns"]  # type: ignore[index]
        counts = [0] * bins
        for t in turns:
            counts[min(bins - 1, (int(t) - low) // step)] += 1
        shares.append([c / len(turns) for c in counts])
    peak = max(max(s) for s in shares) or 1.0
    body = [f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#888"/>',
            f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#888"/>',
            _text(left - 4, top + 4, f"{round(100 * peak)}%", "end"), _text(left - 4, bottom, "0%", "end")]
    for k in range(0, bins + 1, max(1, bins // 4)):
        x = left + (right - left) * k / bins
        body.append(_text(x, bottom + 14, str(low + k * step), "middle"))
    body.append(_text((left + right) / 2, bottom + 28, "plays in a game", "middle"))
    for i, share in zip(shown, shares):
        points = " ".join(f"{left + (right - left) * (k + 0.5) / bins:.1f},{bottom - (bottom - top) * s / peak:.1f}"
                          for k, s in enumerate(share))
        body.append(f'<polyline fill="none" stroke="{colour(i)}" stroke-width="2" points="{points}"/>')
    body += _legend(names, shown, bottom + 48)
    return _svg(int(bottom + 58), "Plays per game", body)


def wins_by_seat(names: Sequence[str], data: Data) -> str:
    """Bars of each seat's share of the wins, a group per rulebook, a dashed line at a fair share."""
    shown = [i for i in _usable(data, "wins_by_seat") if sum(data[i]["wins_by_seat"]) > 0]  # type: ignore[index]
    if not shown:
        return ""
    left, right, top, bottom = 50.0, WIDTH - 20.0, 20.0, 180.0
    group = (right - left) / len(shown)
    peak = max(max(w) / sum(w) for w in (data[i]["wins_by_seat"] for i in shown))  # type: ignore[index]
    body = [f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#888"/>',
            _text(left - 4, top + 4, f"{round(100 * peak)}%", "end"), _text(left - 4, bottom, "0%", "end")]
    for g, i in enumerate(shown):
        wins = data[i]["wins_by_seat"]  # type: ignore[index]
        total = sum(wins)
        x0 = left + g * group + 6
        bar = (group - 12) / len(wins)
        for seat, w in enumerate(wins):
            h = (bottom - top) * (w / total) / peak
            body.append(f'<rect x="{x0 + seat * bar:.1f}" y="{bottom - h:.1f}" width="{max(bar - 2, 1):.1f}" '
                        f'height="{h:.1f}" fill="{colour(i)}"><title>{escape(names[i])}, seat {seat}: '
                        f'{w} of {total}</title></rect>')
        fair = bottom - (bottom - top) * (1 / len(wins)) / peak
        body.append(f'<line x1="{x0:.1f}" y1="{fair:.1f}" x2="{x0 + group - 12:.1f}" y2="{fair:.1f}" '
                    'stroke="#333" stroke-dasharray="4 3"/>')
        body.append(_text(x0 + (group - 12) / 2, bottom + 14, _short(names[i], group - 12), "middle"))
    body.append(_text(left, bottom + 30, "bars: seats from the first player on; dashed: an equal share"))
    return _svg(int(bottom + 40), "Wins by seat", body)


def challenge_outcomes(names: Sequence[str], data: Data) -> str:
    """A bar per rulebook split into challenges that caught a lie and challenges that found the play true."""
    shown = []
    for i in _usable(data, "challenges"):
        c = data[i]["challenges"]  # type: ignore[index]
        if isinstance(c, Mapping) and c.get("caught", 0) + c.get("failed", 0) > 0:
            shown.append(i)
    if not shown:
        return ""
    left, right, row = 160.0, WIDTH - 20.0, 22.0
    body = []
    y = 10.0
    for i in shown:
        c = data[i]["challenges"]  # type: ignore[index]
        caught, failed = c.get("caught", 0), c.get("failed", 0)
        total = caught + failed
        split = left + (right - left) * caught / total
        body.append(_text(left - 6, y + 14, _short(names[i], left - 10), "end"))
        body.append(f'<rect x="{left}" y="{y}" width="{split - left:.1f}" height="{row - 4}" fill="{COLOURS[2]}">'
                    f'<title>caught a lie: {caught}</title></rect>')
        body.append(f'<rect x="{split:.1f}" y="{y}" width="{right - split:.1f}" height="{row - 4}" '
                    f'fill="{COLOURS[1]}"><title>the play was true: {failed}</title></rect>')
        body.append(_text(left + 4, y + 13, f"{round(100 * caught / total)}%", extra=' fill="#fff"'))
        y += row
    body.append(f'<rect x="{left}" y="{y + 6}" width="10" height="10" fill="{COLOURS[2]}"/>')
    body.append(_text(left + 14, y + 15, "caught a lie"))
    body.append(f'<rect x="{left + 110}" y="{y + 6}" width="10" height="10" fill="{COLOURS[1]}"/>')
    body.append(_text(left + 124, y + 15, "the play was true"))
    return _svg(int(y + 26), "Challenge outcomes", body)
