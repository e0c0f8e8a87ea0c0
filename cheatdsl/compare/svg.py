"""Small inline SVG charts of simulation data, drawn by hand: no plotting library, no fonts, no scripts.

Each chart takes the column names and one rulebook's `Statistics` per column (None where there are
none) and returns the `<svg>` text, or "" when no rulebook has the data it needs.

The charts are drawn 400 units wide with 11-unit text, so that a phone 390 pixels wide shows them at
nearly full size (text of 9 pixels or more). Each row's name sits on a line of its own above the row,
across the chart's whole width; a name still too long is cut, with the full name on hover and in a
key under the chart. Every share is drawn with its 95% Wilson interval.

Seats are numbered from 0, as `simulate`, the notation and the data files number them; a chart of
places in turn order names them in words ("first", "second", ...) so that no number in it can be
read as a seat.
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Sequence
from html import escape

from ..simulate import Statistics
from ..simulate.stats import Share
from ..simulate.summary import shares as seat_shares
from ..simulate.summary import wilson
from ..tally import Spread
from ..words.seats import place, seat_name

COLOURS = ("#1f6feb", "#d9480f", "#2f9e44", "#9c36b5", "#e8590c", "#0c8599", "#c2255c", "#5c940d", "#495057")
# Challenge outcomes in greys, so that they are never mistaken for a rulebook's own colour.
CAUGHT, TRUE_PLAY = "#343a40", "#ced4da"
INTERVAL = "#f08c00"
WIDTH = 400
PAD = 8.0
CHAR = 6.2  # about the width of one character of 11-unit sans-serif text
LINE = 14.0
FONT = 'font-family="sans-serif" font-size="11"'

Data = Sequence[Statistics | None]


def colour(i: int) -> str:
    return COLOURS[i % len(COLOURS)]


def drawing(height: float, title: str, body: list[str]) -> str:
    """The `<svg>` element: the chart's width, `height`, its title for screen readers, then `body`."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{WIDTH}" height="{int(height)}" '
            f'viewBox="0 0 {WIDTH} {int(height)}"><title>{escape(title)}</title>' + "".join(body) + "</svg>")


def _text(x: float, y: float, text: str, anchor: str = "start", extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {FONT}{extra}>{escape(text)}</text>'


def _short(name: str, room: float) -> str:
    """`name` cut to fit `room` units of 11-unit text."""
    most = max(3, int(room // CHAR))
    return name if len(name) <= most else name[: most - 1] + "…"


def label(x: float, y: float, name: str, room: float, anchor: str = "start") -> tuple[str, bool]:
    """A row's name, cut to fit `room` units with the full name on hover; and whether it was cut."""
    shown = _short(name, room)
    if shown == name:
        return _text(x, y, name, anchor), False
    return f"<g><title>{escape(name)}</title>{_text(x, y, shown, anchor)}</g>", True


def _wrap(text: str, room: float) -> list[str]:
    """`text` over lines of at most `room` units, broken after a space, `+`, `-` or `,` where it can be."""
    most = max(8, int(room // CHAR))
    lines: list[str] = []
    line = ""
    for part in re.findall(r"[^ +,-]*[ +,-]?", text):
        while len(part) > most:
            if line:
                lines.append(line.rstrip())
                line = ""
            lines.append(part[:most])
            part = part[most:]
        if line and len(line) + len(part.rstrip()) > most:
            lines.append(line.rstrip())
            line = ""
        line += part
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _notes(y: float, text: str) -> tuple[list[str], float]:
    """A sentence under a chart, wrapped to its width; the drawing and the y below it."""
    lines = textwrap.wrap(text, int((WIDTH - 2 * PAD) // CHAR))
    return [_text(PAD, y + LINE * k, line) for k, line in enumerate(lines)], y + LINE * len(lines)


def legend(names: Sequence[str], cut: Sequence[int], y: float, keyed: bool = True) -> tuple[list[str], float]:
    """Under the chart, the full name of every row whose name was cut (beside its colour when `keyed`),
    wrapped over as many lines as it needs; the drawing and the y below it."""
    if not cut:
        return [], y
    out = [_text(PAD, y, "names in full:")]
    y += LINE
    for i in cut:
        lines = _wrap(names[i], WIDTH - 2 * PAD - 14)
        if keyed:
            out.append(f'<rect x="{PAD:.1f}" y="{y - 9:.1f}" width="10" height="10" fill="{colour(i)}"/>')
        out += [_text(PAD + 14, y + LINE * k, line) for k, line in enumerate(lines)]
        y += LINE * len(lines) + 2
    return out, y


def percent(share: float, low: float, high: float) -> str:
    """A share with its 95% interval, as the charts write it: `29% (21%–39%)`."""
    return f"{share:.0%} ({low:.0%}–{high:.0%})"


def counted_share(count: int, trials: int) -> str:
    """`count` of `trials` as a share with its 95% Wilson interval: `29% (21%–39%)`."""
    low, high = wilson(count, trials)
    return percent(count / trials if trials else 0.0, low, high)


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

    Games stopped by the turn cap are counted on the row's line, not drawn; when one rulebook's games
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
    left, right, row = PAD + 6, WIDTH - PAD - 16, 38.0
    top = 6.0
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
    cut = []
    for k, i in enumerate(shown):
        t, capped, games = turns[i], stats[i].capped, stats[i].games
        y = top + k * row
        mid = y + 25
        said = "" if t is None else f"median {t.median:g}" + (f", +{capped} capped" if capped else "")
        name_text, short = label(PAD, y + 11, names[i], WIDTH - 2 * PAD - CHAR * len(said) - 10)
        body.append(name_text)
        cut += [i] if short else []
        if t is None:
            body.append(_text(left, mid + 4, f"no game finished: all {games} stopped by the turn cap",
                              extra=' fill="#b42318"'))
            continue
        body.append(_text(WIDTH - PAD, y + 11, said, "end"))
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
                    f'<rect x="{x(q1):.1f}" y="{mid - 8:.1f}" width="{max(x(q3) - x(q1), 1.5):.1f}" '
                    'height="16" fill-opacity="0.35"/>'
                    f'<line x1="{x(median):.1f}" y1="{mid - 9:.1f}" x2="{x(median):.1f}" y2="{mid + 9:.1f}" '
                    'stroke-width="3"/></g>')
    key, end = legend(names, cut, bottom + 48)
    return drawing(end - 4 if cut else bottom + 38, "Turns per game", body + key)


def share_rows(names: Sequence[str], shares: Sequence[Sequence[Share] | None], title: str, counted: str,
               by_seat: bool = False, idle: str = "", in_turn_order: bool = False) -> str:
    """Per row a line per seat: its share as a dot on its 95% interval, the numbers beside it, an equal
    share dashed. Seats are numbered from 0 (`seat 0`); with `in_turn_order` each `Share.seat` is a place
    in turn order instead, named in words (`first`: the first to play). `counted` says what a share is
    of. The dots take the row's colour, or the seat's with `by_seat`; `idle` is a line under the chart
    naming rows with no share."""
    shown = [i for i, s in enumerate(shares) if s]
    if not shown:
        return ""
    rows = {i: list(shares[i] or ()) for i in shown}
    ticks = [t / 100 for t in _ticks(100 * max(w.high for i in shown for w in rows[i]), 4)]
    left, right, seat_row, top = PAD + 46, WIDTH - PAD - 94, 14.0, 6.0

    def x(v: float) -> float:
        return left + (right - left) * v / ticks[-1]

    def who(k: int) -> tuple[str, str]:
        """The row's label and the words for it on hover."""
        return (place(k), f"{place(k)} to play") if in_turn_order else (seat_name(k), seat_name(k))

    heights = [LINE + seat_row * len(rows[i]) + 6 for i in shown]
    bottom = top + sum(heights)
    body = []
    for tick in ticks:
        body.append(f'<line x1="{x(tick):.1f}" y1="{top:.1f}" x2="{x(tick):.1f}" y2="{bottom:.1f}" stroke="#e3e3e3"/>')
        body.append(_text(x(tick), bottom + 14, f"{tick:.0%}", "middle"))
    cut = []
    y = top
    for i, height in zip(shown, heights):
        name_text, short = label(PAD, y + 11, names[i], WIDTH - 2 * PAD)
        body.append(name_text)
        cut += [i] if short else []
        seats = rows[i]
        total = sum(w.count for w in seats)
        fair = x(1 / len(seats))
        body.append(f'<line x1="{fair:.1f}" y1="{y + LINE:.1f}" x2="{fair:.1f}" y2="{y + height - 4:.1f}" '
                    'stroke="#333" stroke-dasharray="3 2"/>')
        for w in seats:
            mid = y + LINE + seat_row * (w.seat + 0.5)
            paint = colour(w.seat if by_seat else i)
            short_name, long_name = who(w.seat)
            tip = (f"<title>{escape(names[i])}, {long_name}: {w.count} of {total} won, {w.share:.1%} "
                   f"(95% {w.low:.1%} to {w.high:.1%})</title>")
            body.append(_text(PAD, mid + 4, short_name, extra=' fill="#555"'))
            body.append(f'<g stroke="{paint}" fill="{paint}">{tip}'
                        f'<line x1="{x(w.low):.1f}" y1="{mid:.1f}" x2="{x(w.high):.1f}" y2="{mid:.1f}" '
                        'stroke-width="2"/>'
                        f'<circle cx="{x(w.share):.1f}" cy="{mid:.1f}" r="3"/></g>')
            body.append(_text(WIDTH - PAD, mid + 4, percent(w.share, w.low, w.high), "end"))
        y += height
    whose = (f"each place's share of {counted}, places in turn order from the first to play" if in_turn_order
             else f"the seat's share of {counted}")
    notes, end = _notes(bottom + 30, f"dot: {whose}; line: its 95% Wilson interval; dashed: an equal share")
    if idle:
        notes.append(_text(PAD, end, _short(idle, WIDTH - 2 * PAD)))
        end += LINE
    key, end = legend(names, cut, end + 4, keyed=not by_seat)
    return drawing(end, title, body + notes + key)


WINS_TITLE = "Wins by turn order"


def wins_by_turn_order(names: Sequence[str], data: Data) -> str:
    """Each place in turn order's share of the won games with its 95% interval, from the first player to
    play (named in words, `first`, not as a seat), a block per rulebook, a dashed line at an equal share."""
    counted = {i: d.wins_by_position for i, d in enumerate(data) if d is not None and d.wins_by_position}
    won = [seat_shares(counted[i], sum(counted[i])) if i in counted and sum(counted[i]) else None
           for i in range(len(data))]
    idle = [names[i] for i in counted if won[i] is None]
    return share_rows(names, won, WINS_TITLE, "won games",
                      idle="no game won: " + ", ".join(idle) if idle else "", in_turn_order=True)


def challenge_outcomes(names: Sequence[str], data: Data) -> str:
    """A bar per rulebook split into challenges that caught a lie and challenges that found the play true,
    with the 95% interval of the share caught."""
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
    left, right, row = PAD, WIDTH - PAD, 36.0
    body = []
    cut = []
    y = 6.0
    for i, d in shown:
        caught, failed = d.challenges.caught, d.challenges.failed
        total = caught + failed
        low, high = wilson(caught, total)
        said = f"caught {percent(caught / total, low, high)}"
        name_text, short = label(left, y + 11, names[i], right - left - CHAR * len(said) - 10)
        body.append(name_text)
        cut += [i] if short else []
        body.append(_text(right, y + 11, said, "end"))
        split = left + (right - left) * caught / total
        bar = y + 15
        body.append(f'<rect x="{left}" y="{bar}" width="{split - left:.1f}" height="14" fill="{CAUGHT}">'
                    f'<title>caught a lie: {caught}</title></rect>')
        body.append(f'<rect x="{split:.1f}" y="{bar}" width="{right - split:.1f}" height="14" '
                    f'fill="{TRUE_PLAY}"><title>the play was true: {failed}</title></rect>')
        x0, x1 = left + (right - left) * low, left + (right - left) * high
        body.append(f'<g stroke="{INTERVAL}" stroke-width="2"><title>95% interval of the share caught: '
                    f'{low:.1%} to {high:.1%}</title>'
                    f'<line x1="{x0:.1f}" y1="{bar + 7:.1f}" x2="{x1:.1f}" y2="{bar + 7:.1f}"/>'
                    f'<line x1="{x0:.1f}" y1="{bar + 2:.1f}" x2="{x0:.1f}" y2="{bar + 12:.1f}"/>'
                    f'<line x1="{x1:.1f}" y1="{bar + 2:.1f}" x2="{x1:.1f}" y2="{bar + 12:.1f}"/></g>')
        y += row
    body.append(f'<rect x="{left}" y="{y + 1}" width="10" height="10" fill="{CAUGHT}"/>')
    body.append(_text(left + 14, y + 10, "caught a lie"))
    body.append(f'<rect x="{left + 110}" y="{y + 1}" width="10" height="10" fill="{TRUE_PLAY}"/>')
    body.append(_text(left + 124, y + 10, "the play was true"))
    notes, end = _notes(y + 10 + LINE, "across each bar: the 95% Wilson interval of the share caught")
    body += notes
    if idle:
        body.append(_text(left, end, _short("left out, no game finished: " + ", ".join(names[i] for i in idle),
                                            right - left)))
        end += LINE
    key, end = legend(names, cut, end, keyed=False)
    return drawing(end - 4, "Challenge outcomes", body + key)
