"""The gallery's ratings: what each shipped profile rewards, from the rating ladder (`cheatdsl rate`).

The ladder takes minutes a profile, so its figures are stored in `docs/gallery/ratings.json` and the
gallery build only reads them:

    python -m cheatdsl.docs.gallery --rate [--games G] [--jobs J] [--only NAME ...]   # play and store

Each entry is keyed by the profile's name and holds the hash of the rulebook files it was made from (the
page's own file and every file it extends), the games, seed and turn cap, and the skill index and the
first-player advantage between strong bots, the skill edge, the luck share and the lie value with their
95% intervals, or why it is not rated (games
between honest bots that mostly do not end). `stale` names the entries whose files changed since; a test
fails on them, naming the command that refreshes them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from ..model import Rulebook
from ..profiles import read_ratings
from ..rate.headline import figure_in
from ..rate.text import figure_text as figure
from ..simulate import Statistics

RATINGS = Path("docs/gallery/ratings.json")
GAMES = 120
SEED = 0
TURN_CAP = 500
UNFINISHED_LIMIT = 0.5  # past this share of unfinished games between honest bots, a profile is not rated
REFRESH = "python -m cheatdsl.docs.gallery --rate"


def files_digest(rb: Rulebook) -> str:
    """The hash of the rulebook's files (its own and those it extends), as a sweep keys a cell by them."""
    from ..sweep.cells import source_of
    return source_of(rb).digest


def load(root: Path) -> dict[str, dict[str, Any]]:
    """The stored entries by profile name (none when the file is missing)."""
    return read_ratings(root / RATINGS)


def save(entries: Mapping[str, dict[str, Any]], root: Path) -> None:
    """Write the entries, in name order, as the gallery reads them."""
    text = json.dumps({"made_by": REFRESH, "profiles": [entries[k] for k in sorted(entries)]}, indent=1,
                      sort_keys=True)
    (root / RATINGS).write_text(text + "\n", encoding="utf-8")


def stale(current: Mapping[str, Rulebook], stored: Mapping[str, dict[str, Any]]) -> list[str]:
    """Why stored ratings do not fit the rulebooks now: a profile not rated yet, or whose files changed."""
    out = [f"{name}: no rating stored" for name in sorted(set(current) - set(stored))]
    out += [f"{name}: its rulebook files changed since it was rated" for name in sorted(set(current) & set(stored))
            if stored[name]["files"] != files_digest(current[name])]
    return out


def rate_profile(name: str, path: str, players: int, unfinished: float, games: int = GAMES, seed: int = SEED,
                 turn_cap: int = TURN_CAP) -> dict[str, Any]:
    """One profile's entry: the ladder played at `players` seats, or why it is not (`unfinished`: the share of
    the gallery's games between honest bots that did not end)."""
    from ..load import load_rulebook
    from ..rate import rate
    from ..simulate.engine import Engine, search_playouts
    rb = load_rulebook(path)
    entry: dict[str, Any] = {"profile": name, "files": files_digest(rb), "players": players, "games": games,
                             "seed": seed, "turn_cap": turn_cap}
    if unfinished > UNFINISHED_LIMIT:
        entry["not_rated"] = (f"{unfinished:.0%} of the games between honest bots do not end, so a ladder's games "
                              "would mostly be stopped by the turn cap")
        return entry
    # The search bots play out on the kernel where numba is installed, as `cheatdsl rate` does by default.
    playouts = search_playouts(Engine.AUTO)
    report = rate(rb, players, games=games, seed=seed, turn_cap=turn_cap, playouts=playouts).as_json()
    for key in ("skill_index", "first_player_advantage", "completion", "skill_edge", "luck_share", "lie_value"):
        figure = figure_in(report, key)
        if figure is not None:
            entry[key] = figure
    return entry


def rate_all(jobs: Sequence[tuple[str, str, int, float]], games: int = GAMES, workers: int = 1) -> list[dict[str, Any]]:
    """The entries of (name, path, players, unfinished share) jobs, `workers` profiles side by side."""
    if workers <= 1:
        return [rate_profile(*job, games=games) for job in jobs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(rate_profile, *job, games=games) for job in jobs]
        return [f.result() for f in futures]


def unfinished_share(stats: Any) -> float:
    """The share of a gallery simulation's games that did not end (1 where nothing was simulated)."""
    if not isinstance(stats, Statistics) or not stats.games:
        return 1.0
    return stats.unfinished / stats.games


def index_cells(entry: Mapping[str, Any] | None) -> tuple[str, str]:
    """The index's two cells: skill index and first-player advantage, or why there are none."""
    if entry is None:
        return "not rated yet", "-"
    if "not_rated" in entry:
        return "not rated", "-"
    return figure(entry.get("skill_index"), "{:.2f}"), figure(entry.get("first_player_advantage"), "{:+.1%}")


def page_lines(entry: Mapping[str, Any] | None, path: str) -> list[str]:
    """The page's section on what the rulebook rewards."""
    out = ["## What it rewards", ""]
    if entry is None:
        return out + [f"Not rated yet: `{REFRESH} --only NAME` plays the rating ladder and stores it.", ""]
    if "not_rated" in entry:
        return out + [f"Not rated: {entry['not_rated']}.", ""]
    command = (f"cheatdsl rate {path} --players {entry['players']} --games {entry['games']} --seed {entry['seed']} "
               f"--turn-cap {entry['turn_cap']}")
    return out + [
        f"From the rating ladder (`{command}`; docs/ratings.md explains the figures), with 95% intervals:", "",
        "| figure | value |", "|---|---|",
        f"| skill index (0: a coin-flip game; higher: stronger bots win more) | {figure(entry.get('skill_index'), '{:.2f}')} |",
        f"| first-player advantage between strong bots (share of wins above fair) | "
        f"{figure(entry.get('first_player_advantage'), '{:+.1%}')} |",
        f"| strong table's games that ended | {figure(entry.get('completion'), '{:.0%}')} |",
        *([f"| skill edge: the search bot among honest bots, share of wins above fair | "
           f"{figure(entry.get('skill_edge'), '{:+.1%}')} |",
           f"| luck share: the part of a seat's result the deal and seat decide | "
           f"{figure(entry.get('luck_share'), '{:.2f}')} |",
           f"| lie value: the search bot among copies that never lie when they can tell the truth | "
           f"{figure(entry.get('lie_value'), '{:+.1%}')} |"] if "skill_edge" in entry else
          ["| skill edge, luck share, lie value | not measured yet: refreshed by "
           f"`{REFRESH} --only NAME` |"]), ""]
