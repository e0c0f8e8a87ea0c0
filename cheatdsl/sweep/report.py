"""The sweep's HTML report: one self-contained page (inline CSS and SVG, no script, nothing fetched).

A sentence on what differs beyond chance between the cells (`differences.py`), a table of the cells, the
verdict matrix, and charts: win share by seat with 95% intervals, game
length and challenge success (drawn by `cheatdsl.compare.svg`), and the verdicts as a grid.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ..compare import svg
from ..compare.page import CSS as COMPARE_CSS
from ..simulate import Statistics, wilson
from .cells import Cell
from .differences import differences

VERDICT_COLOURS = {"proved": "#2f9e44", "refuted": "#e03131", "bounded": "#f59f00", "unknown": "#adb5bd",
                   "not_applicable": "#e9ecef", "error": "#862e9c"}
EXPECTED_COLOUR = "#91a7c4"  # a refutation (or an undecided verdict) the rulebook expects: no failure, not red
EXPECTED_KEY = "as expected"


def verdict_colour(verdict: str, expected: str | None) -> str:
    """A verdict's fill: its own colour, or the expected one where the rulebook expects that verdict and it is not a
    proof (a proof keeps its green)."""
    if expected == verdict and verdict not in ("proved", "not_applicable"):
        return EXPECTED_COLOUR
    return VERDICT_COLOURS.get(verdict, "#ffffff")
NUM = ' class="num"'
CSS = COMPARE_CSS + """
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.v-proved { background: #ebfbee; } td.v-refuted { background: #fff5f5; }
td.v-refuted.expected, td.v-unknown.expected, td.v-bounded.expected { background: #eef2f8; color: #3d4f63; }
ul.clash li { margin: 0.2em 0; } code { font-size: 0.95em; }
div.scroll { overflow: auto; max-width: 100%; max-height: 80vh; margin: 0.6em 0; }
div.scroll table { width: auto; min-width: 100%; margin: 0; }
thead th { overflow-wrap: normal; word-break: normal; z-index: 2; }
div.scroll tbody th { position: sticky; left: 0; background: #fff; z-index: 1; }
div.scroll thead th:first-child { left: 0; z-index: 3; }
#verdicts th.property { vertical-align: bottom; padding: 0.4em 0.25em; }
#verdicts.upright th.property span { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; }
#verdicts td { padding: 0.3em 0.4em; }
#cells td { white-space: nowrap; }
@media (max-width: 640px) {
  div.scroll table { display: table; } div.scroll thead { display: table-header-group; }
  div.scroll tbody { display: table-row-group; } div.scroll tr { display: table-row; border: 0; padding: 0; }
  div.scroll th, div.scroll td { display: table-cell; border: 1px solid #ccc; }
}
"""


def _text(x: float, y: float, text: str, anchor: str = "start") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {svg.FONT}>{escape(text)}</text>'


def win_shares(names: Sequence[str], data: Sequence[Statistics | None]) -> str:
    """Per cell a line per seat: its win share as a dot on its 95% interval, the fair share dashed."""
    return svg.share_rows(names, [d.win_shares if d is not None and d.decided else None for d in data],
                          "Win share by seat", "decided games", by_seat=True)


def verdict_grid(names: Sequence[str], verdicts: Sequence[Mapping[str, str]], ids: Sequence[str],
                 expected: Sequence[Mapping[str, str]] = ()) -> str:
    """A square per cell and property, coloured by the verdict (a verdict the cell's rulebook expects, other than
    a proof, in the expected colour); each cell's name on a line above its squares."""
    shown = [i for i, v in enumerate(verdicts) if v]
    if not shown or not ids:
        return ""
    left, size = svg.PAD, min(22.0, (svg.WIDTH - 2 * svg.PAD - 70) / len(ids))
    top = svg.PAD + 0.87 * svg.CHAR * max(len(p) for p in ids) + 8  # property names slanted at 60 degrees
    body = []
    for j, pid in enumerate(ids):
        cx = left + j * size + size / 2
        body.append(f'<text x="{cx:.1f}" y="{top - 6:.1f}" transform="rotate(-60 {cx:.1f} {top - 6:.1f})" '
                    f'{svg.FONT}>{escape(pid)}</text>')
    cut = []
    y = top
    for i in shown:
        name_text, short = svg.label(left, y + 11, names[i], svg.WIDTH - 2 * svg.PAD)
        body.append(name_text)
        cut += [i] if short else []
        y += svg.LINE
        for j, pid in enumerate(ids):
            verdict = verdicts[i].get(pid, "")
            wanted = expected[i].get(pid) if i < len(expected) else None
            fill = verdict_colour(verdict, wanted)
            said = f" ({EXPECTED_KEY})" if wanted == verdict and verdict else ""
            body.append(f'<rect x="{left + j * size:.1f}" y="{y:.1f}" width="{size - 2:.1f}" height="{size - 2:.1f}" '
                        f'fill="{fill}"><title>{escape(names[i])}: {escape(pid)} {escape(verdict or "-")}{said}'
                        "</title></rect>")
        y += size + 2
    y += 14
    x = left
    for verdict, fill in [*VERDICT_COLOURS.items(), (f"refuted or undecided, {EXPECTED_KEY}", EXPECTED_COLOUR)]:
        word = verdict.replace("_", " ")
        if x + 18 + svg.CHAR * len(word) > svg.WIDTH - svg.PAD:  # the key wraps rather than run past the drawing
            x, y = left, y + svg.LINE
        body.append(f'<rect x="{x:.1f}" y="{y - 9:.1f}" width="10" height="10" fill="{fill}" stroke="#999"/>')
        body.append(_text(x + 14, y, word))
        x += 24 + svg.CHAR * len(word)
    key, end = svg.legend(names, cut, y + 20, keyed=False)
    return svg.drawing(end if cut else y + 6, "Verdict matrix", body + key)


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
    failed = failed or {}
    witnesses = witnesses or {}
    names = _names(cells)
    got = [results.get(c.key) or {} for c in cells]
    sims = [Statistics.from_json(r["simulate"]) if "simulate" in r else None for r in got]
    verdicts = [{v["id"]: v["verdict"] for v in r.get("verify", [])} for r in got]
    expected = [r.get("expect", {}) for r in got]
    ids = [p for p in _property_order() if any(p in v for v in verdicts)]
    done = sum(1 for r in got if r.get("status") == "done")
    clashes = [(c, r.get("reason", "")) for c, r in zip(cells, got) if r.get("status") == "clash"]
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">', f"<title>{escape(title)}</title>",
           f"<style>\n{CSS}\n</style>", "</head>", "<body>", f"<h1>{escape(title)}</h1>",
           f'<p id="summary">{len(cells)} cells: {done} run, {len(clashes)} clash, '
           f"{len(cells) - done - len(clashes)} missing. {escape(note)}</p>"]
    said = differences(names, sims, [r.get("rate") or {} for r in got])
    if said:
        out.append(f'<p id="differences">{escape(said)}</p>')
    out += _cells_table(cells, got, sims, failed)
    if ids:
        out += _verdicts_table(cells, names, verdicts, ids, witnesses, expected)
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
             ("verdicts", "Verdict matrix", verdict_grid(names, verdicts, ids, expected))]
    plots = [p for p in plots if p[2]]
    if plots:
        out += ['<h2 id="charts">Charts</h2>', '<div class="plots">']
        out += [f'<figure id="plot-{key}"><figcaption>{escape(caption)}</figcaption>{body}</figure>'
                for key, caption, body in plots]
        out.append("</div>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def _names(cells: Sequence[Cell]) -> list[str]:
    """Each cell's name in the verdict table and the charts; when every cell plays one rulebook (an explore
    always does) the name leaves the rulebook out, since the title and the cells table give it."""
    if len({c.name for c in cells}) != 1:
        return [c.label for c in cells]
    return [" ".join(p for p in ("+".join(c.variations) or "(as written)",
                                 "" if c.players is None else f"{c.players}p", c.bots if c.games else "") if p)
            for c in cells]


UPRIGHT, UPRIGHT_FROM = ' class="upright"', 6
CELL_HEADS = ("rulebook", "variations", "players", "bots", "games", "status", "turns (mean, 95%)",
              "first player wins (95%)", "challenges caught (95%)", "skill index (95%)",
              "first-player advantage, strong bots (95%)")


def _cells_table(cells: Sequence[Cell], got: Sequence[Mapping[str, Any]], sims: Sequence[Statistics | None],
                 failed: Mapping[str, str]) -> list[str]:
    """The cells table: a row per cell, leaving out the columns no cell has a value in (an explore plays no
    games, so it has no bots, games or game statistics)."""
    from .table import mean_interval
    rows = []
    for cell, result, sim in zip(cells, got, sims):
        turns = first = caught = ""
        if sim is not None:
            mean, low, high = mean_interval(sim.turns_histogram)
            turns = f"{mean:.1f} ({low:.1f} to {high:.1f})"
            fp = sim.first_player
            first = f"{fp.share:.1%} ({fp.low:.1%} to {fp.high:.1%})"
            c = sim.challenges
            low, high = wilson(c.caught, c.total)
            caught = f"{c.caught_share:.1%} ({low:.1%} to {high:.1%}) of {c.total}" if c.total else "none made"
        skill = advantage = ""
        rating = result.get("rate")
        if rating is not None:
            from ..rate.text import figure_text
            skill = figure_text(rating["skill_index"], "{:.2f}")
            advantage = figure_text(rating["first_player_advantage"], "{:+.1%}")
        rows.append([cell.rulebook, "+".join(cell.variations) or "(as written)", _fmt(cell.players) or "verifier's",
                     cell.bots, str(cell.games) if cell.games else "", result.get("status", "missing"), turns,
                     first, caught, skill, advantage])
    kept = [k for k in range(len(CELL_HEADS)) if k == 0 or any(row[k] for row in rows)]
    out = ['<h2 id="cells-heading">Cells</h2>', '<div class="scroll" id="cells-box">', '<table id="cells">',
           "<thead><tr>"]
    out += [f'<th scope="col">{escape(CELL_HEADS[k])}</th>' for k in kept] + ["</tr></thead>",
                                                                             '<tbody id="cell-rows">']
    for cell, result, row in zip(cells, got, rows):
        why = result.get("reason") or failed.get(cell.key, "")
        out.append(f'<tr data-key="{cell.key}"' + (f' title="{escape(why)}"' if why else "") + ">")
        out.append(f'<th scope="row">{escape(row[0])}</th>' + "".join(
            f"<td{NUM if k in (2, 4) else ''}>{escape(row[k])}</td>" for k in kept[1:]))
        out.append("</tr>")
    return out + ["</tbody>", "</table>", "</div>"]


def _verdicts_table(cells: Sequence[Cell], names: Sequence[str], verdicts: Sequence[Mapping[str, str]],
                    ids: Sequence[str], witnesses: Mapping[str, Mapping[str, list[str]]],
                    expected: Sequence[Mapping[str, str]]) -> list[str]:
    """The verdict matrix as a table: a row per cell verified, a column per property; past a few properties their
    names are written upwards, so that sixteen fit 1280 pixels without breaking a word."""
    out = ['<h2 id="verdicts-heading">Verdicts</h2>', '<div class="scroll" id="verdicts-box">',
           f'<table id="verdicts"{UPRIGHT if len(ids) > UPRIGHT_FROM else ""}>', '<thead><tr><th scope="col">cell</th>']
    out += [f'<th scope="col" class="property" title="{escape(p)}"><span>{escape(p)}</span></th>' for p in ids]
    out += ["</tr></thead>", '<tbody id="verdict-rows">']
    for cell, name, v, wanted in zip(cells, names, verdicts, expected):
        if not v:
            continue
        out.append(f'<tr data-key="{cell.key}"><th scope="row">{escape(name)}</th>')
        for p in ids:
            verdict = v.get(p, "")
            files = witnesses.get(cell.key, {}).get(p, [])
            link = "".join(f' <a href="{escape(f)}">witness</a>' for f in files[:1])
            kind = " expected" if verdict and wanted.get(p) == verdict else ""
            title = f' title="{EXPECTED_KEY}"' if kind else ""
            out.append(f'<td class="v-{escape(verdict)}{kind}"{title}>{escape(verdict.replace("_", " "))}{link}</td>')
        out.append("</tr>")
    return out + ["</tbody>", "</table>", "</div>"]


def _property_order() -> tuple[str, ...]:
    from ..properties import PROPERTY_IDS
    return PROPERTY_IDS
