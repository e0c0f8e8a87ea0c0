"""The compiled engine against the Python engine at scale: action-log replays and statistics.

Part 1, replays: games spread over every shipped rulebook and fixture the kernel plays, at two player
counts each, a fifth with greedy bots, a fifth random, honest, counter, a fifth the four by seat; each
compiled game's action log is replayed by the Python engine, which must reach the same
pile and hands after every action and the same end. Prints the games replayed and the disagreements
(the target is 0).
Part 2, statistics: for each shipped rulebook the kernel plays (greedy, honest and counter bots, the fewest
seats), --stats games on each engine: win share of each seat, turns a game, challenges a play, with the
difference against its 99% interval.

Part 3, generated rulebooks (`--generated N`, instead of parts 1 and 2): rulebooks 0..N-1 of the schema-driven
generator (tests/small_rulebooks.py, the differential campaign's), at every player count the kernel plays,
with greedy, honest and counter tables and the four bots by seat. Each table: --per games of each engine
compared (each seat's win share, the first player's, turns and challenges a game, as z scores; the largest
|z| of the table, Bonferroni over its figures since they hang together (the seats' shares add up to one),
flagged below --alpha, 1e-4 by default, so that a thousand rulebooks flag about one table by chance), the
kernel's games replayed by the Python engine from the kernel's deal and from the Python engine's own, and the kernel's decisions held against the Python bots at the same states
(tests/kernel_decisions.py, pooled over the run). Prints one JSON line.

Run: python benchmarks/compiled_agreement.py [--games 100000] [--stats 5000] [--seed S] [--json]
     python benchmarks/compiled_agreement.py --generated 1000 [--per 300] [--start I] [--variants]
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


BOTS = ("random", "greedy", "honest", "counter")


def _z_scores(a: list[GameRecord], b: list[GameRecord], players: int) -> dict[str, float]:
    """Each statistic's difference between two engines' games over its standard error (0 where neither varies)."""
    out: dict[str, float] = {}
    rows: list[tuple[str, list[float], list[float]]] = []
    for seat in range(players):
        rows.append((f"win share seat {seat}", [float(r.winner == seat) for r in a],
                     [float(r.winner == seat) for r in b]))
    rows.append(("first player wins", [float(r.winner == r.first >= 0) for r in a],
                 [float(r.winner == r.first >= 0) for r in b]))
    rows.append(("turns", [float(r.turns) for r in a], [float(r.turns) for r in b]))
    rows.append(("challenges", [float(r.challenges) for r in a], [float(r.challenges) for r in b]))
    for key, xs, ys in rows:
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        vx = sum((x - mx) ** 2 for x in xs) / max(1, len(xs) - 1)
        vy = sum((y - my) ** 2 for y in ys) / max(1, len(ys) - 1)
        se = math.sqrt(vx / len(xs) + vy / len(ys))
        if se > 0:
            out[key] = (mx - my) / se
    return out


def _summary(result: dict[str, Any], decisions: Any, started: float) -> dict[str, Any]:
    """The run's figures so far, the kernel's decisions pooled."""
    out = dict(result)
    out["exact_decisions"] = decisions.exact
    out["decision_failures"] = decisions.failures()
    out["pooled"] = {k: str(v) for k, v in decisions.pooled().items()}
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


def generated(count: int, start: int, per: int, seed: int, alpha: float, out: Path | None = None,
              variants: bool = False) -> dict[str, Any]:
    """Part 3: rulebooks start..start+count-1 of the generator on both engines (see the module's docstring). With
    `out`, the figures so far are written there after each rulebook (a run stopped part way keeps them), and a
    line a rulebook goes to standard error."""
    import random as random_module
    import tempfile

    sys.path.insert(0, str(ROOT / "tests"))
    import kernel_decisions
    import small_rulebooks

    from cheatdsl.compiled.replay import follow, play_logged_from
    from cheatdsl.compiled.run import Refused, RefusedForMemory

    decisions = kernel_decisions.Decisions()
    result: dict[str, Any] = {"rulebooks": 0, "tables": 0, "refused": 0, "games": 0, "replayed": 0,
                              "disagreements": 0, "flagged": 0, "examples": [], "refusals": {}}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="compiled-agreement-") as tmp:
        for i in range(start, start + count):
            data = small_rulebooks.variant(i) if variants else small_rulebooks.generate(i)
            path = Path(tmp) / f"{data['rulebook']}.yaml"
            path.write_text(small_rulebooks.text_of(data))
            rb = load_rulebook(str(path))
            result["rulebooks"] += 1
            counts = list(rb.players.counts())
            # A variant of a shipped rulebook: its fewest seats and two more (its decks are whole packs).
            for n in (sorted({counts[0], counts[min(2, len(counts) - 1)]}) if variants else counts):
                game = Game(rb, n, turn_cap=200)
                for bots in (["greedy"] * n, ["honest"] * n, ["counter"] * n, [BOTS[s % 4] for s in range(n)]):
                    try:
                        table = CompiledTable(game, bots, seed, RATE)
                    except (Refused, RefusedForMemory) as exc:
                        result["refused"] += 1
                        why = str(exc).split(": use")[0]
                        result["refusals"][why] = result["refusals"].get(why, 0) + 1
                        break
                    result["tables"] += 1
                    python = Table(rb, n, bots, seed, 200, RATE).play(0, per)
                    compiled = table.play(0, per)
                    result["games"] += 2 * per
                    z = _z_scores(python, compiled, n)
                    # The figures hang together (the seats' shares add up to one, the first player is a seat), so
                    # the largest |z| is tested, Bonferroni over the figures, not the sum of their squares.
                    p = min(1.0, len(z) * min(math.erfc(abs(v) / math.sqrt(2)) for v in z.values())) if z else 1.0
                    name = f"{data['rulebook']} at {n} ({','.join(bots)})"
                    if p < alpha:
                        result["flagged"] += 1
                        worst = max(z, key=lambda k: abs(z[k]))
                        result["examples"].append(f"{name}: p {p:.1e}, {worst} z {z[worst]:+.1f}")
                    for index in range(3):
                        try:
                            replay(game, play_logged(table, index))
                            state = game.new_initial_state()
                            rng = random_module.Random(repr((i, n, index)))
                            while state.is_chance_node():
                                state.apply_action(state.chance_outcome(rng))
                            if not state.is_terminal():
                                follow(state, play_logged_from(table, state.clone(), index))
                            kernel_decisions.check_game(game, bots, seed, index, decisions)
                            result["replayed"] += 3
                        except Disagreement as exc:
                            result["disagreements"] += 1
                            result["examples"].append(f"{name} game {index}: {exc}")
            if out is not None:
                so_far = _summary(result, decisions, started)
                out.write_text(json.dumps(so_far) + "\n", encoding="utf-8")
                print(f"rulebook {i}: {result['tables']} tables, {result['flagged']} flagged, "
                      f"{result['disagreements']} disagreements, {len(so_far['decision_failures'])} decision "
                      f"failures, {so_far['seconds']} s", file=sys.stderr, flush=True)
    return _summary(result, decisions, started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games replayed in all (default 100,000)")
    parser.add_argument("--stats", type=int, default=5000, help="games a rulebook and engine for part 2")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--generated", type=int, default=0, metavar="N",
                        help="part 3 alone: N rulebooks of the generator on both engines")
    parser.add_argument("--start", type=int, default=0, help="the first generated rulebook (default 0)")
    parser.add_argument("--per", type=int, default=300, help="games a table and engine in part 3 (default 300)")
    parser.add_argument("--alpha", type=float, default=1e-4, help="a table is flagged below this p (default 1e-4)")
    parser.add_argument("--out", type=Path, help="part 3: write the figures so far to this file after each rulebook")
    parser.add_argument("--variants", action="store_true",
                        help="part 3 on variants of the shipped rulebooks (one to five fields changed: "
                             "tests/small_rulebooks.variant) instead of generated rulebooks")
    args = parser.parse_args(argv)
    if args.generated:
        out = generated(args.generated, args.start, args.per, args.seed, args.alpha, args.out, args.variants)
        print(json.dumps(out))
        return 0 if not (out["disagreements"] or out["flagged"] or out["decision_failures"]) else 1
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
