"""The gallery of shipped profiles, `docs/gallery/`: a page per rulebook in `rulebooks/`, and an index.

    python -m cheatdsl.docs.gallery            # rewrite docs/gallery/
    python -m cheatdsl.docs.gallery --check    # exit 1 when a page is stale, missing or left over

Each page gives the rulebook's rules in plain words (as `cheatdsl compare` words them), what it
changes in the rulebook it extends (as `cheatdsl diff` says it), the verifier's verdicts (from
`cheatdsl verify --format json`) and the statistics of a few seeded games between honest bots (as
`cheatdsl compare --simulate` counts them), with the compare page's charts as SVG files in
`charts/`, and what the rulebook rewards (skill index, first-player advantage) from the ratings stored
in `docs/gallery/ratings.json` (`ratings.py`):

    python -m cheatdsl.docs.gallery --rate     # play the rating ladder for each profile and store it

Nothing here names a profile: the pages are whatever the rulebooks directory holds.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..compare import identical, statistics, svg, unfinished, verdicts
from ..compare.describe import DIMENSIONS, describe
from ..compare.diff import Diff, diff
from ..compare.grid import Column, Section
from ..diagnostics import Diagnostics
from ..load import compile_rulebook
from ..model import Rulebook
from ..properties import PROPERTY_IDS
from ..simulate import Statistics
from . import ratings
from .shell import ROOT

RULEBOOKS = Path("rulebooks")
TARGET = Path("docs/gallery")
INDEX = "README.md"
CHARTS = "charts"
KINDS = (".md", ".svg")
GAMES = 100
SEED = 0
SUFFIXES = (".yaml", ".cheat")
HEADER = ("<!-- Generated from the rulebooks by `python -m cheatdsl.docs.gallery`; edit the rulebook, "
          "not this page. -->\n\n")


class GalleryError(ValueError):
    """A shipped rulebook that does not compile: the gallery shows only rulebooks that do."""


@dataclass(frozen=True)
class Profile:
    """One shipped rulebook: the file its page is built from, and its other surface forms."""

    name: str
    path: str                  # relative to the repository: rulebooks/NAME.yaml
    forms: tuple[str, ...]     # every file of this rulebook, the page's own first
    rulebook: Rulebook


def _cell(text: Any) -> str:
    """A Markdown table cell: pipes escaped, on one line."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _players(rb: Rulebook) -> str:
    low, high = rb.players.min, rb.players.max
    return str(low) if high == low else f"{low} to {high}"


def _link(path: str) -> str:
    return f"[`{path}`](../../{path})"


def profiles(root: Path = ROOT) -> list[Profile]:
    """Every rulebook in `rulebooks/`, one per rulebook name (YAML before the text form), in name order."""
    files = sorted(p for p in (root / RULEBOOKS).iterdir() if p.suffix in SUFFIXES)
    compiled: dict[str, list[tuple[str, Rulebook]]] = {}
    problems = []
    for file in files:
        relative = file.relative_to(root).as_posix()
        d = Diagnostics()
        rb, _ = compile_rulebook(str(file), (), d)
        if rb is None:
            problems.append(relative)
            continue
        compiled.setdefault(rb.name, []).append((relative, rb))
    if problems:
        raise GalleryError("these rulebooks do not compile (see `cheatdsl check`): " + ", ".join(problems))
    out = []
    for name in sorted(compiled):
        forms = sorted(compiled[name], key=lambda f: (SUFFIXES.index(Path(f[0]).suffix), f[0]))
        out.append(Profile(name, forms[0][0], tuple(f for f, _ in forms), forms[0][1]))
    return out


def base_of(profile: Profile, root: Path = ROOT) -> tuple[str, Rulebook] | None:
    """The rulebook `profile` extends, as its file compiles on its own, or None."""
    if len(profile.rulebook.chain) < 2:
        return None
    path = Path(profile.rulebook.chain[1])
    rb, _ = compile_rulebook(str(path if path.is_absolute() else root / path))
    if rb is None:
        return None
    return rb.name, rb


def _verdicts(found: Mapping[str, Any] | None, note: str) -> list[str]:
    out = ["## Verifier verdicts", ""]
    if found is None or "results" not in found:
        return out + [note or "The verifier gave no verdicts for this rulebook.", ""]
    expected = {str(e["id"]): e for e in found.get("expectations", [])}
    read = verdicts.from_report(found) or {}
    out += ["Each property at every player count the rulebook allows, beside the rulebook's own `expect:` "
            "(pending: the verifier does not decide that property yet). A verdict the rulebook expects is a known "
            "property of the game, a refutation too (for example that play can go on for ever); one it does not "
            "expect is in bold.", "",
            "| property | verdict | expected | what the verifier found |", "|---|---|---|---|"]
    order = {p: i for i, p in enumerate(PROPERTY_IDS)}
    for result in sorted(found["results"], key=lambda r: (order.get(str(r["id"]), len(order)), str(r["id"]))):
        pid = str(result["id"])
        e = expected.get(pid)
        wanted = "" if e is None else f"{e['expected']}" + ("" if e.get("status") == "met" else f" ({e['status']})")
        verdict = _cell(verdicts.cell(read.get(pid)))
        if verdicts.reading(read.get(pid)) == verdicts.UNEXPECTED:
            verdict = f"**{verdict}**"
        out.append(f"| {_cell(pid)} | {verdict} | {_cell(wanted)} | {_cell(result.get('summary', ''))} |")
    return out + [""]


def _changes(found: Diff, base: str) -> list[str]:
    out = [f"## What it changes from {base}", ""]
    if found.same_game:
        out += [f"It plays exactly as [{base}]({base}.md)."]
    else:
        out += [f"As `cheatdsl diff` says it, rule by rule, with the rule of [{base}]({base}.md) it replaces:", ""]
        out += [f"- **{c.label}**: {c.sentence} (before: {c.before})" for c in found.changes]
    extra = [f"- {w}" for w in found.wording] + [f"- {e}" for e in found.expectations]
    if extra:
        out += ["", "In words or expectations only:", ""] + extra
    return out + [""]


def _section(profile: Profile, data: statistics.Simulated, note: str,
             found: Mapping[str, Any] | None = None) -> Section:
    column = Column(profile.name, profile.rulebook.title, profile.path, profile.rulebook.active_variations,
                    profile.rulebook)
    read = None if found is None else [verdicts.from_report(found)]
    return statistics.section((column,), None if data is None else [data], note, read, found is not None)


def charts(profile: Profile, data: statistics.Simulated, note: str = "") -> dict[str, tuple[str, str]]:
    """The page's charts, as `cheatdsl compare --format html` draws them: file name to (title, SVG)."""
    return {f"{CHARTS}/{profile.name}-{plot.key}.svg": (plot.title, plot.svg + "\n")
            for plot in _section(profile, data, note).plots}


def same_as_base(profile: Profile, based: tuple[str, Rulebook] | None, data: statistics.Simulated,
                 base_data: statistics.Simulated) -> str:
    """A finding when a house rule's games came out identical to those of the rulebook it extends, else ""."""
    if based is None or not isinstance(data, Statistics):
        return ""
    if identical.fingerprint(data) is None or identical.fingerprint(data) != identical.fingerprint(base_data):
        return ""
    bots = ", ".join(sorted(set(data.settings.bots))) or "the same"
    return identical.sentence([profile.name, based[0]], [profile.rulebook, based[1]], data.settings.players, bots)


def _simulation(profile: Profile, players: int, data: statistics.Simulated, note: str,
                found: Mapping[str, Any] | None = None, same: str = "") -> list[str]:
    section = _section(profile, data, note, found)
    command = f"cheatdsl simulate {profile.path} --players {players} --games {GAMES} --seed {SEED}"
    out = ["## Simulation", "", section.note, ""]
    for finding in (*section.findings, *([same] if same else [])):
        out += [f"> **Finding.** {finding}", ""]
    if section.rows:
        out += [f"The full report: `{command}`.", "", "| statistic | value |", "|---|---|"]
        out += [f"| {_cell(r.label)} | {_cell(r.cells[0])} |" for r in section.rows]
    drawn = charts(profile, data, note)
    if drawn:
        out += ["", "### Charts", ""]
        out += [f"![{title}]({name})\n" for name, (title, _) in drawn.items()]
    return out + [""]


def page(profile: Profile, based: tuple[str, Rulebook] | None, found: Mapping[str, Any] | None, verify_note: str,
         players: int, stats: statistics.Simulated, stats_note: str, same: str = "",
         rated: Mapping[str, Any] | None = None) -> str:
    """One profile's page."""
    rb = profile.rulebook
    files = ", ".join(_link(f) for f in profile.forms)
    facts = [("rulebook", f"`{rb.name}`"), ("file" if len(profile.forms) == 1 else "files", files),
             ("players", _players(rb)),
             ("source", rb.source)]
    if based is not None:
        used = f", with {', '.join(f'`{v}`' for v in rb.active_variations)} switched on" if rb.active_variations else ""
        facts.append(("extends", f"[{based[0]}]({based[0]}.md){used}"))
    offered = [f"`{v.name}`{'' if not v.summary else ': ' + v.summary}" for v in rb.variations]
    if offered:
        facts.append(("variations offered", "; ".join(offered)))
    out = [f"# {rb.title}", "", f"[All profiles]({INDEX})", "", "| fact | value |", "|---|---|"]
    out += [f"| {k} | {_cell(v)} |" for k, v in facts]
    out += [""]
    if based is not None:
        out += _changes(diff(based[1], rb), based[0])
    cells = describe(rb)
    out += ["## Rules in plain words", "", "| rule | in plain words |", "|---|---|"]
    out += [f"| {_cell(d.label)} | {_cell(cells[d.key])} |" for d in DIMENSIONS]
    out += [""]
    out += _verdicts(found, verify_note)
    out += _simulation(profile, players, stats, stats_note, found, same)
    out += ratings.page_lines(rated, profile.path)
    return HEADER + "\n".join(out).rstrip("\n") + "\n"


def _tally(found: Mapping[str, Any] | None) -> str:
    if found is None or "results" not in found:
        return "-"
    counts: dict[str, int] = {}
    for r in found["results"]:
        counts[str(r["verdict"])] = counts.get(str(r["verdict"]), 0) + 1
    read = verdicts.from_report(found) or {}
    unexpected = sum(verdicts.reading(e) == verdicts.UNEXPECTED for e in read.values())
    said = [f"{counts[v]} {v}" for v in ("proved", "refuted", "bounded", "unknown", "not_applicable") if v in counts]
    refuted = [e for e in read.values() if e.get("verdict") == "refuted"]
    if refuted and all(verdicts.reading(e) == verdicts.EXPECTED for e in refuted):
        said[[s.split(" ", 1)[1] for s in said].index("refuted")] += " (as expected)"
    if unexpected:
        said.append(f"**{unexpected} not as expected**")
    return ", ".join(said)


def _finished(stats: Statistics) -> tuple[str, str]:
    """The index's cells: the median turns of finished games, and the unfinished share with why."""
    capped, stuck, left = stats.capped, stats.stuck, stats.unfinished
    turns = unfinished.finished_turns(stats)
    median = "no game finished" if turns is None else f"{turns.median:g}"
    if not left:
        return median, "0%"
    why = ", ".join(w for w in (f"{capped} at the turn cap" if capped else "",
                                f"{stuck} with no legal action" if stuck else "") if w)
    return median, f"**{svg.counted_share(left, stats.games)}** ({why})"


def index(rows: Sequence[tuple[Profile, tuple[str, Rulebook] | None, Mapping[str, Any] | None,
                              statistics.Simulated]], rated: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """The gallery's front page: profiles first, then the house rules and variants built on them."""
    out = ["# Gallery of shipped profiles", "",
           f"A page per rulebook in `{RULEBOOKS}/`: its rules in plain words, what it changes in the rulebook it "
           "extends, the verifier's verdicts and the statistics of "
           f"{GAMES} seeded games between honest bots (seed {SEED}, at the player count nearest 4 it allows), "
           "with charts of them. Games stopped by the turn cap or left with no legal action have no result: they "
           "are counted apart, each page says why they did not finish, and the turns are those of finished games.",
           "",
           "The pages are generated from the rulebooks; to bring them up to date after a rulebook, the verifier "
           "or the simulator changes, run `python -m cheatdsl.docs.gallery` (a test fails while they are stale). "
           "To set a few of them side by side, use `cheatdsl compare` (`docs/guide.md` shows how).", "",
           "The skill index and the first-player advantage between strong bots come from the rating ladder "
           f"(`cheatdsl rate`, {ratings.GAMES} games a profile; docs/ratings.md), with 95% intervals; they are "
           f"stored in `ratings.json` and refreshed by `{ratings.REFRESH}` (a test fails when a rulebook "
           "changed since).", ""]
    rated = rated or {}
    for title, keep in (("Profiles", lambda based: based is None), ("House rules and variants", lambda based: based)):
        chosen = [r for r in rows if keep(r[1])]
        if not chosen:
            continue
        out += [f"## {title}", "", "| profile | title | players | extends | verdicts | turns per finished game "
                "(median) | unfinished games | skill index (95%) | first-player advantage (95%) |",
                "|---|---|---|---|---|---|---|---|---|"]
        for profile, based, found, stats in chosen:
            rb = profile.rulebook
            parent = f"[{based[0]}]({based[0]}.md)" if based else ""
            turns = left = "-"
            if isinstance(stats, Statistics) and stats.games:
                turns, left = _finished(stats)
            skill, advantage = ratings.index_cells(rated.get(profile.name))
            out.append(f"| [{rb.name}]({rb.name}.md) | {_cell(rb.title)} | {_players(rb)} | {parent} | {_tally(found)} | "
                       f"{turns} | {left} | {skill} | {advantage} |")
        out.append("")
    return HEADER + "\n".join(out).rstrip("\n") + "\n"


def build(root: Path = ROOT) -> dict[str, str]:
    """Every gallery file's name (relative to docs/gallery/) and text: pages, the index, charts."""
    found = profiles(root)
    paths = [p.path for p in found]
    # The verifier first and alone: its workers are forked from this process, never while another thread runs.
    entries, verify_note = verdicts.reports(paths, [() for _ in paths], verdicts.TIMEOUT_SECONDS, str(root))
    seats = [statistics.table_size([p.rulebook])[0] for p in found]
    simulated = [statistics.collect([p.rulebook], GAMES, SEED, [n])[0] for p, n in zip(found, seats)]
    files: dict[str, str] = {}
    rows = []
    rated = ratings.load(root)
    by_name = {p.name: simulated[i] for i, p in enumerate(found)}
    for i, profile in enumerate(found):
        based = base_of(profile, root)
        entry = entries[i] if entries is not None else None
        stats = simulated[i]
        same = same_as_base(profile, based, stats, by_name.get(based[0]) if based else None)
        files[f"{profile.name}.md"] = page(profile, based, entry, verify_note, seats[i], stats, "", same,
                                           rated.get(profile.name))
        files.update((name, svg) for name, (_, svg) in charts(profile, stats).items())
        rows.append((profile, based, entry, stats))
    files[INDEX] = index(rows, rated)
    return files


def rate(root: Path = ROOT, games: int = ratings.GAMES, only: Sequence[str] = (), workers: int = 1) -> list[str]:
    """Play the rating ladder for each profile (those named in `only`, or all) and store the entries; the
    profiles whose games between honest bots mostly do not end are stored as not rated, with why."""
    found = [p for p in profiles(root) if not only or p.name in only]
    missing = sorted(set(only) - {p.name for p in found})
    if missing:
        raise GalleryError(f"no shipped rulebook named {', '.join(missing)}")
    seats = [statistics.table_size([p.rulebook])[0] for p in found]
    simulated = [statistics.collect([p.rulebook], GAMES, SEED, [n])[0] for p, n in zip(found, seats)]
    jobs = [(p.name, str(root / p.path), n, ratings.unfinished_share(stats))
            for p, n, stats in zip(found, seats, simulated)]
    stored = ratings.load(root)
    for entry in ratings.rate_all(jobs, games, workers):
        stored[entry["profile"]] = entry
    ratings.save(stored, root)
    return [p.name for p in found]


def _committed(folder: Path) -> set[str]:
    """The gallery's files (pages and charts), as paths relative to its folder."""
    if not folder.is_dir():
        return set()
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.suffix in KINDS and p.is_file()}


def differences(files: dict[str, str], root: Path = ROOT) -> list[str]:
    """What is stale in the committed gallery: pages and charts that differ, are missing or are left over."""
    folder = root / TARGET
    committed = _committed(folder)
    out = [f"{name}: missing" for name in sorted(set(files) - committed)]
    out += [f"{name}: no rulebook makes it any more" for name in sorted(committed - set(files))]
    out += [f"{name}: stale" for name in sorted(set(files) & committed)
            if (folder / name).read_text(encoding="utf-8") != files[name]]
    return out


def write(files: dict[str, str], root: Path = ROOT) -> None:
    """Write the gallery, removing pages and charts no rulebook makes any more."""
    folder = root / TARGET
    folder.mkdir(parents=True, exist_ok=True)
    for old in _committed(folder) - set(files):
        (folder / old).unlink()
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cheatdsl.docs.gallery", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 when the gallery is stale")
    parser.add_argument("--rate", action="store_true",
                        help=f"play the rating ladder for each profile and store it in {ratings.RATINGS.as_posix()} "
                             "(minutes a profile), then rewrite the gallery")
    parser.add_argument("--games", type=int, default=ratings.GAMES, metavar="G",
                        help=f"with --rate: the ladder's games a profile (default {ratings.GAMES})")
    parser.add_argument("--only", nargs="+", default=[], metavar="NAME", help="with --rate: only these profiles")
    parser.add_argument("--jobs", type=int, default=1, metavar="J", help="with --rate: profiles rated side by side")
    args = parser.parse_args(argv)
    if not args.rate and (args.only or args.jobs != 1 or args.games != ratings.GAMES):
        parser.error("--games, --only and --jobs go with --rate")
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs are whole numbers from 1")
    try:
        if args.rate:
            done = rate(ROOT, args.games, args.only, args.jobs)
            print(f"rated {len(done)} profiles into {ratings.RATINGS.as_posix()}", file=sys.stderr)
        files = build(ROOT)
    except GalleryError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.check:
        stale = differences(files, ROOT)
        for line in stale:
            print(f"{TARGET.as_posix()}/{line}", file=sys.stderr)
        print(f"{TARGET.as_posix()} is {'stale: run `python -m cheatdsl.docs.gallery`' if stale else 'up to date'}",
              file=sys.stderr)
        return 1 if stale else 0
    write(files, ROOT)
    print(f"wrote {len(files)} pages and charts to {TARGET.as_posix()}{os.sep}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
