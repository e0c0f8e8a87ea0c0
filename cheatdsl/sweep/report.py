"""The sweep's HTML report: one self-contained page (inline CSS and SVG, no script, nothing fetched).

A table of the cells, the verdict matrix, and charts: win share by seat with 95% intervals, game
length and challenge success (drawn by `cheatdsl.compare.svg`), and the verdicts as a grid.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ..compare import svg
from ..compare.page import CSS as COMPARE_CSS
from ..simulate import Statistics
from .cells import Cell

VERDICT_COLOURS = {"proved": "#2f9e44", "refuted": "#e03131", "bounded": "#f59f00", "unknown": "#adb5bd",
                   "not_applicable": "#e9ecef", "error": "#862e9c"}
NUM = ' class="num"'
CSS = COMPARE_CSS + """
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.v-proved { background: #ebfbee; } td.v-refuted { background: #fff5f5; }
ul.clash li { margin: 0.2em 0; } code { font-size: 0.95em; }
div.scroll { overflow: auto; max-width: 100%; max-height: 80vh; margin: 0.6em 0; }
div.scroll table { width: auto; min-width: 100%; margin: 0; }
thead th { overflow-wrap: normal; word-break: normal; hyphens: auto; z-index: 1; }
@media (max-width: 640px) {
  div.scroll table { display: table; } div.scroll thead { display: table-header-group; }
  div.scroll tbody { display: table-row-group; } div.scroll tr { display: table-row; border: 0; padding: 0; }
  div.scroll th, div.scroll td { display: table-cell; border: 1px solid #ccc; }
}
"""


def _text(x: float, y: float, text: str, anchor: str = "start") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {svg.FONT}>{escape(text)}</text>'


def _label(x: float, y: float, name: str, room: float) -> str:
    """A row's label ending at x, cut to fit `room` pixels; the full name shows on hover."""
    return f"<g><title>{escape(name)}</title>{_text(x, y, _short(name, room), 'end')}</g>"


def _short(name: str, room: float) -> str:
    most = max(3, int(room // 6))
    return name if len(name) <= most else name[: most - 1] + "…"


def _svg(height: float, title: str, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{svg.WIDTH}" height="{int(height)}" '
            f'viewBox="0 0 {svg.WIDTH} {int(height)}"><title>{escape(title)}</title>' + "".join(body) + "</svg>")


def win_shares(names: Sequence[str], data: Sequence[Statistics | None]) -> str:
    """Per cell a row: each seat's win share as a dot on its 95% interval, the fair share dashed."""
    decided = {i: d for i, d in enumerate(data) if d is not None and d.decided}
    shown = list(decided)
    if not shown:
        return ""
    left, right, row, top = 200.0, svg.WIDTH - 20.0, 24.0, 10.0
    bottom = top + row * len(shown)

    def x(v: float) -> float:
        return left + (right - left) * v

    body = []
    for tick in (0, 0.25, 0.5, 0.75, 1):
        body.append(f'<line x1="{x(tick):.1f}" y1="{top}" x2="{x(tick):.1f}" y2="{bottom:.1f}" stroke="#e3e3e3"/>')
        body.append(_text(x(tick), bottom + 14, f"{round(tick * 100)}%", "middle"))
    seats = 0
    for k, i in enumerate(shown):
        shares = decided[i].win_shares
        seats = max(seats, len(shares))
        y = top + k * row
        body.append(_label(left - 6, y + row / 2 + 4, names[i], left - 10))
        fair = x(1 / len(shares))
        body.append(f'<line x1="{fair:.1f}" y1="{y + 2:.1f}" x2="{fair:.1f}" y2="{y + row - 2:.1f}" stroke="#333" '
                    'stroke-dasharray="3 2"/>')
        for w in shares:
            seat = w.seat
            mid = y + 4 + (row - 8) * (seat + 0.5) / len(shares)
            tip = (f"<title>{escape(names[i])}, seat {seat + 1}: {w.count} wins, {w.share:.1%} "
                   f"(95% {w.low:.1%} to {w.high:.1%})</title>")
            body.append(f'<g stroke="{svg.colour(seat)}" fill="{svg.colour(seat)}">{tip}'
                        f'<line x1="{x(w.low):.1f}" y1="{mid:.1f}" x2="{x(w.high):.1f}" y2="{mid:.1f}" '
                        'stroke-width="2"/>'
                        f'<circle cx="{x(w.share):.1f}" cy="{mid:.1f}" r="3"/></g>')
    body.append(_text((left + right) / 2, bottom + 28, "share of decided games won, with its 95% interval; "
                                                       "dashed: an equal share", "middle"))
    legend_y = bottom + 46
    for seat in range(seats):
        lx = left + 60 * seat
        body.append(f'<rect x="{lx:.1f}" y="{legend_y - 9:.1f}" width="10" height="10" fill="{svg.colour(seat)}"/>')
        body.append(_text(lx + 14, legend_y, f"seat {seat + 1}"))
    return _svg(legend_y + 10, "Win share by seat", body)


def verdict_grid(names: Sequence[str], verdicts: Sequence[Mapping[str, str]], ids: Sequence[str]) -> str:
    """A square per cell and property, coloured by the verdict."""
    shown = [i for i, v in enumerate(verdicts) if v]
    if not shown or not ids:
        return ""
    left, top, size = 200.0, 110.0, min(22.0, (svg.WIDTH - 210.0) / len(ids))
    body = []
    for j, pid in enumerate(ids):
        cx = left + j * size + size / 2
        body.append(f'<text x="{cx:.1f}" y="{top - 6:.1f}" transform="rotate(-60 {cx:.1f} {top - 6:.1f})" '
                    f'{svg.FONT}>{escape(pid)}</text>')
    for k, i in enumerate(shown):
        y = top + k * size
        body.append(_label(left - 6, y + size / 2 + 4, names[i], left - 10))
        for j, pid in enumerate(ids):
            verdict = verdicts[i].get(pid, "")
            fill = VERDICT_COLOURS.get(verdict, "#ffffff")
            body.append(f'<rect x="{left + j * size:.1f}" y="{y:.1f}" width="{size - 2:.1f}" height="{size - 2:.1f}" '
                        f'fill="{fill}"><title>{escape(names[i])}: {escape(pid)} {escape(verdict or "-")}</title>'
                        "</rect>")
    y = top + len(shown) * size + 16
    x = 10.0
    for verdict, fill in VERDICT_COLOURS.items():
        if x + 24 + 7 * len(verdict) > svg.WIDTH:  # the legend wraps rather than run past the drawing
            x, y = 10.0, y + 16
        body.append(f'<rect x="{x:.1f}" y="{y - 9:.1f}" width="10" height="10" fill="{fill}" stroke="#999"/>')
        body.append(_text(x + 14, y, verdict))
        x += 24 + 7 * len(verdict)
    return _svg(y + 10, "Verdict matrix", body)


def _fmt(value: Any, share: bool = False) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, float):
        return f"{value:.1%}" if share else f"{value:.2f}"
    return str(value)


def render(title: str, cells: Sequence[Cell], results: Mapping[str, Mapping[str, Any]],
           failed: Mapping[str, str] | None = None, witnesses: Mapping[str, Mapping[str, list[str]]] | None = None,
           note: str = "") -> str:
    """The whole page as text."""
    from .table import mean_interval
    failed = failed or {}
    witnesses = witnesses or {}
    names = [c.label for c in cells]
    got = [results.get(c.key) or {} for c in cells]
    sims = [Statistics.from_json(r["simulate"]) if "simulate" in r else None for r in got]
    verdicts = [{v["id"]: v["verdict"] for v in r.get("verify", [])} for r in got]
    ids = [p for p in _property_order() if any(p in v for v in verdicts)]
    done = sum(1 for r in got if r.get("status") == "done")
    clashes = [(c, r.get("reason", "")) for c, r in zip(cells, got) if r.get("status") == "clash"]
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">', f"<title>{escape(title)}</title>",
           f"<style>\n{CSS}\n</style>", "</head>", "<body>", f"<h1>{escape(title)}</h1>",
           f'<p id="summary">{len(cells)} cells: {done} run, {len(clashes)} clash, '
           f"{len(cells) - done - len(clashes)} missing. {escape(note)}</p>"]
    out += ['<h2 id="cells-heading">Cells</h2>', '<div class="scroll" id="cells-box">', '<table id="cells">', "<thead><tr>"]
    heads = ["rulebook", "variations", "players", "bots", "games", "status", "turns (mean, 95%)", "first player wins",
             "challenges caught"]
    out += [f'<th scope="col">{h}</th>' for h in heads] + ["</tr></thead>", '<tbody id="cell-rows">']
    for cell, result, sim in zip(cells, got, sims):
        status = result.get("status", "missing")
        why = result.get("reason") or failed.get(cell.key, "")
        turns = first = caught = ""
        if sim is not None:
            mean, low, high = mean_interval(sim.turns_histogram)
            turns = f"{mean:.1f} ({low:.1f} to {high:.1f})"
            fp = sim.first_player
            first = f"{fp.share:.1%} ({fp.low:.1%} to {fp.high:.1%})"
            caught = f"{sim.challenges.caught_share:.1%} of {sim.challenges.total}"
        cols = [cell.rulebook, "+".join(cell.variations) or "(as written)", _fmt(cell.players) or "verifier's",
                cell.bots, str(cell.games), status, turns, first, caught]
        out.append(f'<tr data-key="{cell.key}"' + (f' title="{escape(why)}"' if why else "") + ">")
        out.append(f'<th scope="row">{escape(cols[0])}</th>' + "".join(
            f"<td{NUM if k in (2, 4) else ''}>{escape(v)}</td>" for k, v in enumerate(cols[1:], 1)))
        out.append("</tr>")
    out += ["</tbody>", "</table>", "</div>"]
    if ids:
        out += ['<h2 id="verdicts-heading">Verdicts</h2>', '<div class="scroll" id="verdicts-box">', '<table id="verdicts">', "<thead><tr><th scope=\"col\">cell</th>"]
        out += [f'<th scope="col">{escape(p)}</th>' for p in ids] + ["</tr></thead>", '<tbody id="verdict-rows">']
        for cell, name, v in zip(cells, names, verdicts):
            if not v:
                continue
            out.append(f'<tr data-key="{cell.key}"><th scope="row">{escape(name)}</th>')
            for p in ids:
                verdict = v.get(p, "")
                files = witnesses.get(cell.key, {}).get(p, [])
                link = "".join(f' <a href="{escape(f)}">witness</a>' for f in files[:1])
                out.append(f'<td class="v-{escape(verdict)}">{escape(verdict)}{link}</td>')
            out.append("</tr>")
        out += ["</tbody>", "</table>", "</div>"]
    if clashes:
        out += ['<h2 id="clashes">Combinations that clash</h2>', '<ul class="clash">']
        out += [f"<li><strong>{escape(c.label)}</strong>: {escape(why)}</li>" for c, why in clashes]
        out.append("</ul>")
    if failed:
        out += ['<h2 id="failed">Cells that failed (run the same command again to retry them)</h2>', "<ul>"]
        out += [f"<li>{escape(c.label)}: {escape(failed[c.key])}</li>" for c in cells if c.key in failed]
        out.append("</ul>")
    plots = [("wins", "Win share by seat", win_shares(names, sims)),
             ("turns", "Game length", svg.turns_per_game(names, sims)),
             ("challenges", "Challenge success", svg.challenge_outcomes(names, sims)),
             ("verdicts", "Verdict matrix", verdict_grid(names, verdicts, ids))]
    plots = [p for p in plots if p[2]]
    if plots:
        out += ['<h2 id="charts">Charts</h2>', '<div class="plots">']
        out += [f'<figure id="plot-{key}"><figcaption>{escape(caption)}</figcaption>{body}</figure>'
                for key, caption, body in plots]
        out.append("</div>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def _property_order() -> tuple[str, ...]:
    from ..properties import PROPERTY_IDS
    return PROPERTY_IDS
