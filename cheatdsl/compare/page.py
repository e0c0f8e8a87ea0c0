"""The comparison as one self-contained HTML page: inline CSS and SVG, nothing fetched from the network."""

from __future__ import annotations

from html import escape

from .grid import Comparison, Section
from .text import LEGEND, MARK

CSS = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; background: #fff; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; }
table { border-collapse: collapse; margin: 0.6em 0; width: 100%; }
th, td { border: 1px solid #ccc; padding: 0.35em 0.6em; vertical-align: top; text-align: left; overflow-wrap: break-word; }
thead th { background: #f1f3f5; position: sticky; top: 0; overflow-wrap: anywhere; }
tbody th { font-weight: 600; min-width: 7.5em; }
tr.differs td, tr.differs th { background: #fff4d6; }
td.mark { color: #b35900; font-weight: 700; text-align: center; width: 1.2em; }
td.v-proved { color: #1b6e2a; } td.v-refuted { color: #b42318; font-weight: 600; }
td.v-unknown, td.v-bounded { color: #8a6100; } td.v-not_applicable { color: #777; }
td.expected { color: #3d4f63; font-weight: 400; font-style: italic; }
td.v-proved.expected { color: #1b6e2a; font-style: normal; }
td.unexpected, tr.differs td.unexpected { background: #fde2e1; color: #b42318; font-weight: 700; }
tr.section th { background: #343a40; color: #fff; font-size: 1.05em; padding-top: 0.5em; }
tr.note td { color: #555; font-style: italic; }
tr.finding td { background: #eef4ff; border-left: 4px solid #1f6feb; }
div.plots { display: flex; flex-wrap: wrap; gap: 0 2em; align-items: flex-start; }
figure { margin: 1em 0; max-width: 100%; } figcaption { font-weight: 600; margin-bottom: 0.3em; }
figure svg { max-width: 100%; height: auto; }
dl.files dt { font-weight: 600; } dl.files dd { margin: 0 0 0.4em 1em; color: #555; overflow-wrap: anywhere; }
@media (max-width: 640px) {
  body { margin: 0.6em; }
  table, tbody, tr, th, td { display: block; width: auto; }
  thead { display: none; }
  tr { border-top: 1px solid #ccc; padding: 0.2em 0; }
  th, td { border: none; padding: 0.15em 0.4em; }
  td.mark { display: none; }
  td[data-column]::before { content: attr(data-column) ": "; font-weight: 600; color: #444; font-style: normal; }
}
""".strip()


def _head(comparison: Comparison) -> list[str]:
    out = ["<thead><tr>", f'<th scope="col" class="mark" title="{escape(LEGEND)}">{MARK}</th><th scope="col"></th>']
    for c in comparison.columns:
        out.append(f'<th scope="col" title="{escape(c.title)}: {escape(c.path)}">{escape(c.heading)}</th>')
    out.append("</tr></thead>")
    return out


def _body(comparison: Comparison, section: Section) -> list[str]:
    span = len(comparison.columns) + 2
    out = [f'<tbody id="{escape(section.key)}">',
           f'<tr class="section"><th colspan="{span}" scope="rowgroup">{escape(section.title)}</th></tr>']
    if section.note:
        out.append(f'<tr class="note"><td colspan="{span}">{escape(section.note)}</td></tr>')
    for finding in section.findings:
        out.append(f'<tr class="finding"><td colspan="{span}">{escape(finding)}</td></tr>')
    for row in section.rows:
        klass = ' class="differs"' if row.differs else ""
        out.append(f'<tr{klass} data-key="{escape(row.key)}">')
        out.append(f'<td class="mark">{MARK if row.differs else ""}</td><th scope="row">{escape(row.label)}</th>')
        for i, cell in enumerate(row.cells):
            note = row.notes[i] if i < len(row.notes) else ""
            title = f' title="{escape(note)}"' if note else ""
            classes = [f"v-{cell.split(' ', 1)[0].rstrip(',')}"] if section.key == "verdicts" else []
            classes += [row.readings[i]] if i < len(row.readings) and row.readings[i] else []
            css = f' class="{escape(" ".join(classes))}"' if classes else ""
            column = escape(comparison.columns[i].heading) if i < len(comparison.columns) else ""
            out.append(f'<td{css}{title} data-column="{column}">{escape(cell)}</td>')
        out.append("</tr>")
    out.append("</tbody>")
    return out


def render(comparison: Comparison) -> str:
    """The whole page as text: one table (a column per rulebook, a row group per section), then any plots."""
    names = ", ".join(c.heading for c in comparison.columns)
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>Rulebooks compared: {escape(names)}</title>", f"<style>\n{CSS}\n</style>", "</head>", "<body>",
           "<h1>Rulebooks compared</h1>", '<dl class="files">']
    for c in comparison.columns:
        out.append(f"<dt>{escape(c.heading)}</dt><dd>{escape(c.title)}, <code>{escape(c.path)}</code></dd>")
    out += ["</dl>", f"<p>{escape(LEGEND)}; those rows are highlighted.</p>", '<table id="comparison">']
    out += _head(comparison)
    for section in comparison.sections:
        out += _body(comparison, section)
    out.append("</table>")
    for section in comparison.sections:
        if not section.plots:
            continue
        out.append(f'<h2 id="plots-{escape(section.key)}">{escape(section.title)} charts</h2>')
        out.append('<div class="plots">')
        for plot in section.plots:
            out.append(f'<figure id="plot-{escape(plot.key)}"><figcaption>{escape(plot.title)}</figcaption>'
                       f"{plot.svg}</figure>")
        out.append("</div>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
