"""The compiled engine against the Python engine at scale: action-log replays and statistics.

Part 1, replays: games spread over every shipped rulebook and fixture the kernel plays, at two player
counts each, a fifth with greedy bots, a fifth random, honest, counter, a fifth the four by seat; each
compiled game's action log is replayed by the Python engine, which must reach the same
pile and hands after every action and the same end. Prints the games replayed and the disagreements
(the target is 0).
Part 2, statistics: for each shipped rulebook the kernel plays (greedy, honest and counter bots, the fewest
seats), --stats games on each engine: win share of each seat, turns a game, challenges a play, with the
difference against its 99% interval.

Run: python benchmarks/compiled_agreement.py [--games 100000] [--stats 5000] [--seed S] [--json]
Needs numba; numba's cache goes under the user cache folder (cheatdsl/compiled/cache.py).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cheatdsl.compiled.replay import Disagreement, play_logged, replay  # noqa: E402
from cheatdsl.compiled.run import CompiledTable, unsupported  # noqa: E402
from cheatdsl.engine import Game  # noqa: E402
from cheatdsl.load import load_rulebook  # noqa: E402
from cheatdsl.simulate.play import Table  # noqa: E402
from cheatdsl.tally import GameRecord  # noqa: E402

TURN_CAP = 2000
RATE = 0.15


def tables() -> list[tuple[str, Game]]:
    """Every shipped rulebook and fixture the kernel plays, at two player counts."""
    out = []
    for path in sorted([*ROOT.glob("rulebooks/*.yaml"), *ROOT.glob("rulebooks/*.cheat"),
                        *ROOT.glob("tests/fixtures/*.yaml")]):
        try:
            rb = load_rulebook(str(path))
        except Exception:
            continue
        for n in sorted({rb.players.min, min(rb.players.max, rb.players.min + 2)}):
            game = Game(rb, n, turn_cap=TURN_CAP)
            if unsupported(game, ["greedy"]) is None:
                out.append((f"{path.name}@{n}", game))
    return out


def replays(games: int, seed: int) -> dict[str, Any]:
    cases = tables()
    per = max(1, games // len(cases))
    played = 0
    wrong: list[str] = []
    started = time.perf_counter()
    for name, game in cases:
        n = game.players
        # A fifth of each table's games greedy, a fifth random, honest, counter, and a fifth the four bots
        # taking the seats in turn.
        mixes = (["greedy"] * n, ["random"] * n, ["honest"] * n, ["counter"] * n,
                 [("random", "greedy", "honest", "counter")[s % 4] for s in range(n)])
        for part, bots in enumerate(mixes):
            table = CompiledTable(game, bots, seed, RATE)
            for i in range(part * per // 5, (part + 1) * per // 5):
                try:
                    replay(game, play_logged(table, i))
                except Disagreement as exc:
                    wrong.append(f"{name} {','.join(bots)} game {i}: {exc}")
                played += 1
    return {"tables": len(cases), "games": played, "disagreements": len(wrong), "examples": wrong[:5],
            "seconds": round(time.perf_counter() - started, 1)}


def summary(records: list[GameRecord], players: int) -> dict[str, tuple[float, float]]:
    games = len(records)
    out: dict[str, tuple[float, float]] = {}
    for seat in range(players):
        p = sum(r.winner == seat for r in records) / games
        out[f"win share seat {seat}"] = (p, math.sqrt(max(p * (1 - p), 1e-12) / games))
    for key, values in (("turns", [r.turns for r in records]),
                        ("challenges a play", [r.challenges / max(r.plays, 1) for r in records])):
        mean = sum(values) / games
        var = sum((v - mean) ** 2 for v in values) / max(games - 1, 1)
        out[key] = (mean, math.sqrt(var / games))
    return out


def statistics(games: int, seed: int) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    for name, game in tables():
        if "fixtures" in str(game.rulebook.path) or not name.endswith(f"@{game.rulebook.players.min}"):
            continue
        for bot in ("greedy", "honest", "counter"):
            bots = [bot] * game.players
            python = Table(game.rulebook, game.players, bots, seed, TURN_CAP, RATE)
            a = summary(python.play(0, games), game.players)
            b = summary(CompiledTable(python.game, bots, seed, RATE).play(0, games), game.players)
            row = {}
            for key, (ma, sa) in a.items():
                mb, sb = b[key]
                bound = 2.576 * math.hypot(sa, sb)
                row[key] = {"python": round(ma, 4), "compiled": round(mb, 4), "bound": round(bound, 4),
                            "within": abs(ma - mb) <= bound}
            rows[f"{name} {bot}"] = row
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games replayed in all (default 100,000)")
    parser.add_argument("--stats", type=int, default=5000, help="games a rulebook and engine for part 2")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = {"replays": replays(args.games, args.seed), "statistics": statistics(args.stats, args.seed)}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    r = result["replays"]
    print(f"replays: {r['games']:,} games over {r['tables']} tables, {r['disagreements']} disagreements "
          f"({r['seconds']} s)")
    for example in r["examples"]:
        print("  " + example)
    outside = 0
    for name, row in result["statistics"].items():
        for key, v in row.items():
            outside += not v["within"]
            print(f"  {name:42} {key:20} python {v['python']:>9} compiled {v['compiled']:>9} "
                  f"|diff| <= {v['bound']:<8} {'ok' if v['within'] else 'OUTSIDE'}")
    print(f"statistics: {outside} outside their 99% intervals (about 1 in 100 expected by chance)")
    return 0 if r["disagreements"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
