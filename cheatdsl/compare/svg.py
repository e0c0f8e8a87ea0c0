"""Small inline SVG charts of simulation data, drawn by hand: no plotting library, no fonts, no scripts.

Each chart takes the column names and one rulebook's `Statistics` per column (None where there are
none) and returns the `<svg>` text, or "" when no rulebook has the data it needs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from ..simulate import Statistics
from ..tally import Spread

COLOURS = ("#1f6feb", "#d9480f", "#2f9e44", "#9c36b5", "#e8590c", "#0c8599", "#c2255c", "#5c940d", "#495057")
# Challenge outcomes in greys, so that they are never mistaken for a rulebook's own colour.
CAUGHT, TRUE_PLAY = "#343a40", "#ced4da"
WIDTH = 600
FONT = 'font-family="sans-serif" font-size="11"'

Data = Sequence[Statistics | None]


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


def _ticks(high: float, most: int = 6) -> list[float]:
    """Round tick values from 0 to at least `high`: steps of 1, 2 or 5 times a power of ten."""
    raw = max(high, 1) / most
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return [k * step for k in range(0, math.ceil(max(high, 1) / step) + 1)]


def _log_ticks(low: float, high: float) -> list[float]:
    """Ticks of 1, 2 and 5 times a power of ten from below `low` to above `high`."""
    k = math.floor(math.log10(max(low, 1)))
    out: list[float] = []
    while not out or out[-1] < high:
        for m in (1, 2, 5):
            v = m * 10 ** k
            if v * 2.5 > low or m == 1 and v <= low:
                out.append(v)
        k += 1
    first = max(i for i, v in enumerate(out) if v <= max(low, 1))
    last = min(i for i, v in enumerate(out) if v >= high)
    return out[first:last + 1]


def _turns(d: Statistics) -> Spread | None:
    """The turns summary of finished games (of every game when the histogram leaves none but the cap did not
    stop them all)."""
    from .unfinished import finished_turns
    found = finished_turns(d)
    return d.turns if found is None and d.capped < d.games else found


def turns_per_game(names: Sequence[str], data: Data) -> str:
    """A box plot per rulebook of its finished games: least to most turns, the middle half boxed, the median marked.

    Games stopped by the turn cap are counted at the row's end, not drawn; when one rulebook's games
    run ten times longer than another's the axis is logarithmic and says so.
    """
    stats = {i: d for i, d in enumerate(data) if d is not None and d.games}
    shown = list(stats)
    if not shown:
        return ""
    turns = {i: _turns(d) for i, d in stats.items()}
    drawn = [t for t in turns.values() if t is not None]
    low = min((t.least for t in drawn), default=1)
    high = max((t.most for t in drawn), default=1)
    medians = [t.median for t in drawn if t.median > 0]
    log = bool(medians) and high / max(min(medians), 1) > 20
    ticks = _log_ticks(low, high) if log else _ticks(high)
    left, right, row = 160.0, WIDTH - 110.0, 26.0
    top = 10.0
    bottom = top + row * len(shown)

    def x(v: float) -> float:
        if log:
            lo, hi = math.log10(ticks[0]), math.log10(ticks[-1])
            return left + (right - left) * (math.log10(max(v, ticks[0])) - lo) / (hi - lo)
        return left + (right - left) * v / ticks[-1]

    body = []
    for tick in ticks:
        body.append(f'<line x1="{x(tick):.1f}" y1="{top:.1f}" x2="{x(tick):.1f}" y2="{bottom:.1f}" stroke="#e3e3e3"/>')
        body.append(_text(x(tick), bottom + 14, f"{tick:g}", "middle"))
    axis = "turns in a finished game (plays and passes)" + ("; log scale" if log else "")
    body.append(_text((left + right) / 2, bottom + 28, axis, "middle"))
    for k, i in enumerate(shown):
        t, capped, games = turns[i], stats[i].capped, stats[i].games
        y = top + k * row
        mid = y + row / 2
        body.append(_text(left - 6, mid + 4, _short(names[i], left - 10), "end"))
        if t is None:
            body.append(_text(left + 4, mid + 4, f"no game finished: all {games} stopped by the turn cap",
                              extra=' fill="#b42318"'))
            continue
        q1, median, q3 = t.q1, t.median, t.q3
        least, most = t.least, t.most
        tip = (f"<title>{escape(names[i])}: {games - capped} finished games, least {least}, "
               f"quartiles {q1:g} / {median:g} / {q3:g}, most {most}"
               + (f"; {capped} stopped by the turn cap, not drawn" if capped else "") + "</title>")
        body.append(f'<g fill="{colour(i)}" stroke="{colour(i)}">{tip}'
                    f'<line x1="{x(least):.1f}" y1="{mid:.1f}" x2="{x(most):.1f}" y2="{mid:.1f}" '
                    'stroke-width="1.5"/>'
                    f'<line x1="{x(least):.1f}" y1="{mid - 6:.1f}" x2="{x(least):.1f}" y2="{mid + 6:.1f}"/>'
                    f'<line x1="{x(most):.1f}" y1="{mid - 6:.1f}" x2="{x(most):.1f}" y2="{mid + 6:.1f}"/>'
                    f'<rect x="{x(q1):.1f}" y="{y + 4:.1f}" width="{max(x(q3) - x(q1), 1.5):.1f}" '
                    f'height="{row - 8:.1f}" fill-opacity="0.35"/>'
                    f'<line x1="{x(median):.1f}" y1="{y + 3:.1f}" x2="{x(median):.1f}" y2="{y + row - 3:.1f}" '
                    'stroke-width="3"/></g>')
        body.append(_text(right + 6, mid + 4, f"median {median:g}"
                          + (f", +{capped} capped" if capped else "")))
    return _svg(int(bottom + 38), "Turns per game", body)


def wins_by_seat(names: Sequence[str], data: Data) -> str:
    """Bars of each seat's share of the wins, counted from the first player to play, a group per rulebook,
    a dashed line at a fair share."""
    counted = {i: d.wins_by_position for i, d in enumerate(data) if d is not None and d.wins_by_position}
    shown = [i for i, w in counted.items() if sum(w) > 0]
    if not shown:
        return ""
    left, right, top, bottom = 50.0, WIDTH - 20.0, 20.0, 180.0
    group = (right - left) / len(shown)
    peak = max(max(counted[i]) / sum(counted[i]) for i in shown)
    body = [f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#888"/>',
            _text(left - 4, top + 4, f"{round(100 * peak)}%", "end"), _text(left - 4, bottom, "0%", "end")]
    for g, i in enumerate(shown):
        wins = counted[i]
        total = sum(wins)
        x0 = left + g * group + 6
        bar = (group - 12) / len(wins)
        for seat, w in enumerate(wins):
            h = (bottom - top) * (w / total) / peak
            body.append(f'<rect x="{x0 + seat * bar:.1f}" y="{bottom - h:.1f}" width="{max(bar - 2, 1):.1f}" '
                        f'height="{h:.1f}" fill="{colour(i)}"><title>{escape(names[i])}, seat {seat + 1} from the '
                        f'first player: {w} of {total}</title></rect>')
            if bar >= 14:
                body.append(_text(x0 + seat * bar + (bar - 2) / 2, bottom + 12, str(seat + 1), "middle",
                                  ' fill="#555"'))
        fair = bottom - (bottom - top) * (1 / len(wins)) / peak
        body.append(f'<line x1="{x0:.1f}" y1="{fair:.1f}" x2="{x0 + group - 12:.1f}" y2="{fair:.1f}" '
                    'stroke="#333" stroke-dasharray="4 3"/>')
        body.append(_text(x0 + (group - 12) / 2, bottom + 26, _short(names[i], group - 12), "middle"))
    body.append(_text(left, bottom + 44, "bars: seats 1, 2, ... from the first player on; dashed: an equal share"))
    idle = [names[i] for i in counted if i not in shown]
    if idle:
        body.append(_text(left, bottom + 60, _short("no game won: " + ", ".join(idle), right - left)))
    return _svg(int(bottom + (70 if idle else 54)), "Wins by seat", body)


def challenge_outcomes(names: Sequence[str], data: Data) -> str:
    """A bar per rulebook split into challenges that caught a lie and challenges that found the play true."""
    shown: list[tuple[int, Statistics]] = []
    idle: list[int] = []
    for i, d in enumerate(data):
        if d is not None and d.challenges.caught + d.challenges.failed > 0:
            if d.games and d.unfinished >= d.games:  # games that never finished are no result to draw
                idle.append(i)
            else:
                shown.append((i, d))
    if not shown:
        return ""
    left, right, row = 160.0, WIDTH - 20.0, 22.0
    body = []
    y = 10.0
    for i, d in shown:
        caught, failed = d.challenges.caught, d.challenges.failed
        total = caught + failed
        split = left + (right - left) * caught / total
        body.append(_text(left - 6, y + 14, _short(names[i], left - 10), "end"))
        body.append(f'<rect x="{left}" y="{y}" width="{split - left:.1f}" height="{row - 4}" fill="{CAUGHT}">'
                    f'<title>caught a lie: {caught}</title></rect>')
        body.append(f'<rect x="{split:.1f}" y="{y}" width="{right - split:.1f}" height="{row - 4}" '
                    f'fill="{TRUE_PLAY}"><title>the play was true: {failed}</title></rect>')
        label = f"{round(100 * caught / total)}%"
        if split - left >= 8 * len(label):  # inside the dark bar, else just after it on the light one
            body.append(_text(left + 4, y + 13, label, extra=' fill="#fff"'))
        else:
            body.append(_text(split + 4, y + 13, label))
        y += row
    body.append(f'<rect x="{left}" y="{y + 6}" width="10" height="10" fill="{CAUGHT}"/>')
    body.append(_text(left + 14, y + 15, "caught a lie"))
    body.append(f'<rect x="{left + 110}" y="{y + 6}" width="10" height="10" fill="{TRUE_PLAY}"/>')
    body.append(_text(left + 124, y + 15, "the play was true"))
    if idle:
        body.append(_text(left, y + 32, _short("left out, no game finished: " + ", ".join(names[i] for i in idle),
                                               right - left)))
    return _svg(int(y + (42 if idle else 26)), "Challenge outcomes", body)
