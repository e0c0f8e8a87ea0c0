"""`cheatdsl rate`'s time and figures for shipped profiles: the reference points of docs/ratings.md.

For each profile (default: every shipped one) at four seats (or the count nearest four it allows),
`cheatdsl.rate.rate` with --games games and the default ladder, timed by process CPU time and wall
time; each row prints the skill index, the first player's advantage, completion, duration, balance
and decisiveness with their 95% intervals. Target (issue 23): every shipped profile in minutes on two
cores (the profiles run one after another here: run two processes with disjoint --profiles to use both).

Run: python benchmarks/rate_speed.py [--games G] [--profiles a,b,...] [--seed S]
The rows go to standard output as JSON lines; nothing is written.
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


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=DEFAULT_GAMES)
    p.add_argument("--profiles", default="")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    for name in [n for n in args.profiles.split(",") if n] or shipped_names():
        rb = load_rulebook(str(shipped_path(name)))
        counts = list(rb.players.counts())
        n = min(counts, key=lambda c: (abs(c - 4), c))
        wall, cpu = time.perf_counter(), time.process_time()
        report = rate(rb, n, args.games, args.seed)
        row = report.as_json()
        print(json.dumps({"profile": name, "players": n, "games": args.games,
                          "cpu_seconds": round(time.process_time() - cpu, 1),
                          "wall_seconds": round(time.perf_counter() - wall, 1),
                          **{k: row[k] for k in ("skill_index", "first_player_advantage", "completion", "duration",
                                                 "balance", "decisiveness")},
                          "ladder": {e["bot"]: e["rating"] for e in row["ladder"]}}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
