"""How fast the exhaustive judge explores: states and steps a second of process CPU time, on one core.

Run: python benchmarks/judge_speed.py [--budget STATES] [--repeats R]

Each table below is explored from every deal up to --budget states (`verifier.exhaustive.explore`, in this
process: one core), R times; the best run's figures are printed, one line a table, then a JSON line with
every figure. The tables are the judge's fixtures (tests/fixtures/judge-*.yaml), the tiny table of
tests/test_exhaustive_judge.py, and a generated one; each is named with its player count.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

TABLES = (("tests/fixtures/judge-top-card.yaml", 2), ("tests/fixtures/judge-top-card.yaml", 3),
          ("tests/fixtures/judge-force-passes-cards.yaml", 3), ("tests/fixtures/judge-turn-start-win.yaml", 3),
          ("generated:7", 0))


def _rulebook(name: str, folder: Path) -> object:
    from cheatdsl.load import load_rulebook
    if name.startswith("generated:"):
        from small_rulebooks import generate, text_of
        data = generate(int(name.split(":")[1]))
        path = folder / f"{data['rulebook']}.yaml"
        path.write_text(text_of(data))
        return load_rulebook(str(path))
    return load_rulebook(str(ROOT / name))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    from cheatdsl.engine import Game
    from verifier.exhaustive.explore import explore
    rows = []
    with tempfile.TemporaryDirectory(prefix="judge-speed-") as tmp:
        for name, players in TABLES:
            rb = _rulebook(name, Path(tmp))
            n = players or rb.players.counts()[0]  # type: ignore[attr-defined]
            best = None
            for _ in range(args.repeats):
                game = Game(rb, n)  # type: ignore[arg-type]
                start = time.process_time()
                x = explore(game, args.budget)
                cpu = time.process_time() - start
                if best is None or cpu < best[0]:
                    best = (cpu, x.states, x.edges, x.deals, x.complete)
            assert best is not None
            cpu, states, edges, deals, complete = best
            row = {"table": f"{name} at {n}", "states": states, "steps": edges, "deals": deals,
                   "complete": complete, "cpu_s": round(cpu, 3), "states_per_s": round(states / cpu),
                   "steps_per_s": round(edges / cpu)}
            rows.append(row)
            print(f"{row['table']:55} {states:>9,} states {'(all)' if complete else '(budget)':9} "
                  f"{row['states_per_s']:>8,} states/s {row['steps_per_s']:>8,} steps/s", flush=True)
    total_states = sum(r["states"] for r in rows)
    total_cpu = sum(r["cpu_s"] for r in rows)
    print(json.dumps({"tables": rows, "states_per_s": round(total_states / total_cpu),
                      "steps_per_s": round(sum(r["steps"] for r in rows) / total_cpu)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
