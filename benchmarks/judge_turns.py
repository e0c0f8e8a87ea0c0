"""What seat rotation saves the exhaustive judge: states explored and process CPU seconds, with and without it.

Run: python benchmarks/judge_turns.py [--first I] [--count N] [--budget STATES] [--json]

For the generated rulebooks I..I+N-1 (`tests/small_rulebooks.generate`), at every player count where the judge
turns states by default (every seat alike, the dealer drawn by lot: `verifier.exhaustive.rotation.worth_turning`),
the table is explored from every deal up to --budget states twice in this process, without and with the
reduction; one line a table (states, whether complete, CPU seconds each way), then the totals: tables, tables
complete each way, states and seconds where both searches were complete. Nothing is written.
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--budget", type=int, default=60_000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    from small_rulebooks import generate, text_of

    from cheatdsl.engine import Game
    from cheatdsl.load import load_rulebook
    from verifier.exhaustive.deals import deals_for_every_dealer
    from verifier.exhaustive.explore import explore
    from verifier.exhaustive.rotation import worth_turning
    rows = []
    with tempfile.TemporaryDirectory(prefix="judge-turns-") as tmp:
        for i in range(args.first, args.first + args.count):
            data = generate(i)
            path = Path(tmp) / f"{data['rulebook']}.yaml"
            path.write_text(text_of(data))
            rb = load_rulebook(str(path))
            for n in rb.players.counts():
                try:
                    game = Game(rb, n)
                except ValueError:
                    continue
                if not worth_turning(game) or deals_for_every_dealer(game, args.budget // 10 + 1) > args.budget // 10:
                    continue  # the tables the judge takes on unasked (a tenth of the budget in deals at most)
                row: dict[str, object] = {"rulebook": i, "players": n}
                for name, turns in (("plain", False), ("turned", True)):
                    start = time.process_time()
                    x = explore(Game(rb, n), args.budget, turns=turns)
                    row[name] = {"states": x.states, "complete": x.complete,
                                 "seconds": round(time.process_time() - start, 3)}
                rows.append(row)
                if not args.json:
                    p, t = row["plain"], row["turned"]
                    done = {k: "complete" if v["complete"] else "stopped "  # type: ignore[index]
                            for k, v in (("plain", p), ("turned", t))}
                    print(f"rulebook {i} at {n}: {p['states']:>7,} states {done['plain']} {p['seconds']:6.2f} s"  # type: ignore[index]
                          f" | turned {t['states']:>7,} {done['turned']} {t['seconds']:6.2f} s", flush=True)  # type: ignore[index]
    both = [r for r in rows if r["plain"]["complete"] and r["turned"]["complete"]]  # type: ignore[index]
    total = {
        "tables": len(rows),
        "complete_plain": sum(1 for r in rows if r["plain"]["complete"]),  # type: ignore[index]
        "complete_turned": sum(1 for r in rows if r["turned"]["complete"]),  # type: ignore[index]
        "both_complete": len(both),
        "states_plain": sum(r["plain"]["states"] for r in both),  # type: ignore[index]
        "states_turned": sum(r["turned"]["states"] for r in both),  # type: ignore[index]
        "seconds_plain": round(sum(r["plain"]["seconds"] for r in both), 2),  # type: ignore[index]
        "seconds_turned": round(sum(r["turned"]["seconds"] for r in both), 2),  # type: ignore[index]
    }
    print(json.dumps({"rows": rows, "total": total} if args.json else total))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
