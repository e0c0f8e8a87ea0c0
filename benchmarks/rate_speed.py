"""`cheatdsl rate`'s time and figures for shipped profiles: the reference points of docs/ratings.md.

For each profile (default: every shipped one) at four seats (or the count nearest four it allows),
`cheatdsl.rate.rate` with --games games and the default ladder, timed by process CPU time and wall
time; each row prints the skill index, the first player's advantage, completion, duration, balance
and decisiveness with their 95% intervals. Target (issue 23): every shipped profile in minutes on two
cores (the profiles run one after another here: run two processes with disjoint --profiles to use both).

Each row also holds the headline figures (issue 39): skill_edge, luck_share and the bluffing figures
(lie share, lies caught, calls won, lie value). The search bots play out where `cheatdsl rate` plays
them by default (the compiled engine where numba is installed).

Run: python benchmarks/rate_speed.py [--games G] [--profiles a,b,...] [--seed S] [--jobs J]
The rows go to standard output as JSON lines; nothing is written.
     python benchmarks/rate_speed.py --markdown LINES   prints those lines as docs/ratings.md's table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cheatdsl.load import load_rulebook  # noqa: E402  (after the path is set)
from cheatdsl.profiles import shipped_names, shipped_path  # noqa: E402
from cheatdsl.rate import DEFAULT_GAMES, rate  # noqa: E402
from cheatdsl.simulate.engine import Engine, search_playouts  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=DEFAULT_GAMES)
    p.add_argument("--profiles", default="")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--markdown", metavar="LINES", help="print the JSON lines of an earlier run as a Markdown table")
    args = p.parse_args()
    if args.markdown:
        print(markdown([json.loads(line) for line in Path(args.markdown).read_text().splitlines() if line.strip()]))
        return 0
    playouts = search_playouts(Engine.AUTO)
    for name in [n for n in args.profiles.split(",") if n] or shipped_names():
        rb = load_rulebook(str(shipped_path(name)))
        counts = list(rb.players.counts())
        n = min(counts, key=lambda c: (abs(c - 4), c))
        wall, cpu = time.perf_counter(), time.process_time()
        report = rate(rb, n, args.games, args.seed, playouts=playouts, jobs=args.jobs)
        row = report.as_json()
        print(json.dumps({"profile": name, "players": n, "games": args.games,
                          "cpu_seconds": round(time.process_time() - cpu, 1),
                          "wall_seconds": round(time.perf_counter() - wall, 1),
                          **{k: row[k] for k in ("skill_index", "first_player_advantage", "completion", "duration",
                                                 "balance", "decisiveness") + HEADLINE if k in row},
                          "ladder": {e["bot"]: e["rating"] for e in row["ladder"]}}), flush=True)
    return 0


HEADLINE = ("skill_edge", "luck_share", "bluffing")


def _cell(e: dict[str, float | None], scale: float = 1.0, form: str = "{:.2f}") -> str:
    if not e or e.get("value") is None:
        return "-"
    return " ".join([form.format(scale * e["value"]),  # type: ignore[operator]
                     f"({form.format(scale * e['low'])} to {form.format(scale * e['high'])})"])  # type: ignore


def markdown(rows: list[dict]) -> str:
    """The reference table of docs/ratings.md from the rows of a run."""
    out = ["| profile | seats | wall s | skill edge (points) | luck share | lies / caught / calls won | "
           "lie value (points) | skill index | duration (turns) |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        b = r.get("bluffing", {})
        lies = " / ".join(_cell(b.get(k, {}), 1.0, "{:.2f}").split(" (")[0] for k in ("lie_share", "lies_caught",
                                                                                      "calls_won"))
        out.append(f"| {r['profile']} | {r['players']} | {r['wall_seconds']:.0f} | "
                   f"{_cell(r.get('skill_edge', {}), 100, '{:+.1f}')} | {_cell(r.get('luck_share', {}))} | {lies} | "
                   f"{_cell(b.get('lie_value', {}), 100, '{:+.1f}')} | {_cell(r['skill_index'], 1, '{:.3f}')} | "
                   f"{_cell(r['duration'], 1, '{:.0f}')} |")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
