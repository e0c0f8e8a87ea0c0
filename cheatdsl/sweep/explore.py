"""`cheatdsl explore`: every combination of a rulebook's variations (and player counts) through the verifier.

An explore is a sweep with no games: the cells are the combinations, each verified; a refutation's
witnesses are written as scenario files (`cheatdsl scenario FILE` replays one), and combinations
that clash are listed with the checker's reason.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from ..output import OutputError, file_in, output_folder, write_new
from .cells import Cell
from .spec import Spec
from .store import Store

Links = dict[str, dict[str, list[str]]]


def explore_spec(rulebook: str, players: str | tuple[int, ...] | None, properties: tuple[str, ...]) -> Spec:
    """The sweep an explore runs: a file is named from its own folder, a shipped profile by name."""
    path = Path(rulebook)
    if path.suffix and path.is_file():
        folder, reference = path.resolve().parent, path.name
    else:
        folder, reference = Path.cwd(), rulebook
    return Spec(name=(path.stem or "explore"), folder=folder, rulebooks=(reference,), variations="all",
                players=players, bots=("",), games=0, seed=0, verify=properties)


def save_witnesses(cells: list[Cell], results: dict[str, dict[str, Any]], store: Store) -> Links:
    """Write each refutation's witnesses as scenario files under witnesses/; their paths by cell and property."""
    from verifier.report import witnesses
    from verifier.properties.witness import scenario_of
    from verifier.properties.verdict import Result, Verdict
    folder: Path | None = None
    links: Links = {}
    for cell in cells:
        result = results.get(cell.key) or {}
        for data in result.get("verify", []):
            if data["verdict"] != "refuted":
                continue
            found = witnesses(Result(data["id"], Verdict(data["verdict"]), data["summary"], data["details"]))
            for n, w in found:
                folder = folder or output_folder(str(store.folder / "witnesses"))
                seat = w["expect"].get("winner", (w["expect"].get("out") or [None])[0])
                tail = [f"seat{seat}"] if data["id"] == "winnability" and seat is not None else []
                path = file_in(folder, cell.name, *cell.variations, data["id"], f"{n}p", *tail, suffix=".yaml")
                text = scenario_of(w, cell.source.path, cell.variations, path=str(path)).to_yaml()
                if not path.is_file() or path.read_text(encoding="utf-8") != text:
                    write_new(path, text, force=True)
                shown = str(path.relative_to(store.folder))
                entry = links.setdefault(cell.key, {}).setdefault(data["id"], [])
                if shown not in entry:
                    entry.append(shown)
    return links


LETTERS = {"proved": "P", "refuted": "R", "bounded": "B", "unknown": "U", "not_applicable": "-", "error": "E"}
LABEL_WIDTH = 48


def _label(cell: Cell) -> str:
    where = f" at {cell.players} players" if cell.players is not None else ""
    return ("+".join(cell.variations) or "(as written)") + where


def grid_text(cells: list[Cell], results: dict[str, dict[str, Any]]) -> str:
    """The verdict matrix as a grid: a row per combination verified, a column (numbered) per property."""
    rows = [(cell, results[cell.key]) for cell in cells if results.get(cell.key, {}).get("verify")]
    if not rows:
        return ""
    ids = [v["id"] for v in rows[0][1]["verify"]]
    width = min(LABEL_WIDTH, max(len(_label(c)) for c, _ in rows))
    lines = ["verdicts: " + ", ".join(f"{letter} {word.replace('_', ' ')}" for word, letter in LETTERS.items()),
             " " * width + " " + " ".join(f"{n + 1:>2}" for n in range(len(ids)))]
    for cell, result in rows:
        label = _label(cell)
        label = label if len(label) <= width else label[: width - 1] + "…"
        marks = {v["id"]: LETTERS.get(v["verdict"], "?") for v in result["verify"]}
        lines.append(f"{label:<{width}} " + " ".join(f"{marks.get(p, ' '):>2}" for p in ids))
    lines.append("properties: " + ", ".join(f"{n + 1} {p}" for n, p in enumerate(ids)))
    return "\n".join(textwrap.wrap(lines[0], 100) + lines[1:-1] + textwrap.wrap(lines[-1], 100))


def matrix_text(cells: list[Cell], results: dict[str, dict[str, Any]], links: Links, folder: Path) -> str:
    """The verdict grid, then per combination the properties it breaks with their witnesses; then clashes."""
    grid = grid_text(cells, results)
    lines: list[str] = [grid, ""] if grid else []
    clashes = []
    for cell in cells:
        result = results.get(cell.key)
        label, where = "+".join(cell.variations) or "(as written)", ""
        if cell.players is not None:
            where = f" at {cell.players} players"
        if result is None:
            lines.append(f"{label}{where}: not run (failed; run the same command again)")
            continue
        if result.get("status") == "clash":
            clashes.append(f"  {label}: {result.get('reason', '')}")
            continue
        verdicts = result.get("verify", [])
        expected = result.get("expect", {})
        # A refutation the combination's rulebook expects breaks nothing new: it is listed apart.
        broken = [v for v in verdicts if v["verdict"] == "refuted" and expected.get(v["id"]) != "refuted"]
        known = [v for v in verdicts if v["verdict"] == "refuted" and expected.get(v["id"]) == "refuted"]
        odd = [v for v in verdicts if v["verdict"] in ("unknown", "error")]
        if broken:
            lines.append(f"{label}{where}: breaks " + ", ".join(v["id"] for v in broken))
            for v in broken:
                files = links.get(cell.key, {}).get(v["id"], [])
                lines += textwrap.wrap(f"{v['id']}: {v['summary']}", 100, initial_indent="    ",
                                       subsequent_indent="      ", break_long_words=False)
                if files:
                    lines.append(f"      witness: {folder / files[0]}")
        else:
            lines.append(f"{label}{where}: breaks nothing checked")
        if known:
            lines.append("    refuted, as its rulebook expects: " + ", ".join(v["id"] for v in known))
            for v in known:
                files = links.get(cell.key, {}).get(v["id"], [])
                if files:
                    lines.append(f"      witness: {folder / files[0]}")
        if odd:
            lines.append("    undecided: " + ", ".join(f"{v['id']} ({v['verdict']})" for v in odd))
    if clashes:
        lines.append(f"{len(clashes)} combination{'s' if len(clashes) != 1 else ''} clash:")
        lines += clashes
    return "\n".join(lines)


__all__ = ["OutputError", "explore_spec", "matrix_text", "save_witnesses"]
