"""The generic interpreter's speed next to the hand-coded engine's, measured in one run.

Both play English ascending Cheat at three seats with the greedy policy (every card of the required
rank, else one random card; each responder challenges with probability 0.15) and count actions the
same way: plays plus responses, every accept and challenge. Chance actions are not counted.

Rows:
  interpreter        `Game` + `State` from rulebooks/english-ascending.yaml, one `greedy` bot a seat,
                     each action chosen by `bot.act(view)` and applied by `state.apply_action`;
  simulate           the same through `cheatdsl.simulate` (per-game seeds, statistics recorded);
  hand-coded/seat    benchmarks/handcoded_english.py drawing each response separately: the fair yardstick,
                     since the interpreter decides every response with its own bot call;
  hand-coded/play    the same with its single-draw trick (one uniform per play picks the first challenger).

One core each, timed in process CPU time (so a busy machine disturbs the figures less), the same turn
cap (2000 plays); each row runs --repeats times, interleaved, and its fastest run counts.
Run: python benchmarks/engine_speed.py [--games N] [--repeats R] [--json]
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import random
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cheatdsl.bots import make_bot  # noqa: E402  (after the path is set)
from cheatdsl.engine import Game  # noqa: E402
from cheatdsl.load import load_rulebook  # noqa: E402
from cheatdsl.simulate import simulate  # noqa: E402

RULEBOOK = ROOT / "rulebooks" / "english-ascending.yaml"
PLAYERS = 3
TURN_CAP = 2000
RATE = 0.15
TARGET = 450_000


def handcoded() -> ModuleType:
    spec = importlib.util.spec_from_file_location("handcoded_english", ROOT / "benchmarks" / "handcoded_english.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def interpreter(games: int, seed: int) -> tuple[int, float]:
    """Greedy bots on the generic interpreter: (actions, CPU seconds)."""
    game = Game(load_rulebook(str(RULEBOOK)), PLAYERS, turn_cap=TURN_CAP)
    rng = random.Random(seed)
    actions = 0
    started = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcome(rng))
            actions -= 1
        acts = [make_bot("greedy", s, random.Random(rng.getrandbits(64)), challenge_rate=RATE).act
                for s in range(PLAYERS)]
        views = [state.view(s) for s in range(PLAYERS)]
        apply = state.apply_action
        seat = state.current_player()
        while seat >= 0:
            apply(acts[seat](views[seat]))
            seat = state.current_player()
        actions += len(state.history())
    return actions, time.process_time() - started


def through_simulate(games: int, seed: int) -> tuple[int, float]:
    """The same games' worth through `simulate` (bots per game, statistics kept): (actions, CPU seconds)."""
    rulebook = load_rulebook(str(RULEBOOK))
    started = time.process_time()
    out = simulate(rulebook, PLAYERS, games, seed, "greedy", turn_cap=TURN_CAP, challenge_rate=RATE)
    return out["actions"], time.process_time() - started


def hand_coded(module: ModuleType, per_seat: bool) -> Any:
    def run(games: int, seed: int) -> tuple[int, float]:
        rng = random.Random(seed)
        play = module.play_game
        actions = 0
        started = time.process_time()
        for _ in range(games):
            actions += play(rng, PLAYERS, RATE, TURN_CAP, per_seat=per_seat)[0]
        return actions, time.process_time() - started
    return run


def measure(games: int, seed: int, repeats: int) -> dict[str, Any]:
    """Every row `repeats` times, interleaved; each row's fastest run counts (the least disturbed)."""
    hc = handcoded()
    rows: dict[str, Any] = {
        "interpreter": interpreter,
        "simulate": through_simulate,
        "hand-coded/seat": hand_coded(hc, True),
        "hand-coded/play": hand_coded(hc, False),
    }
    best: dict[str, tuple[int, float]] = {}
    for _ in range(repeats):
        for name, fn in rows.items():
            gc.collect()
            actions, seconds = fn(games, seed)
            if name not in best or actions / seconds > best[name][0] / best[name][1]:
                best[name] = (actions, seconds)
    rates = {k: a / s for k, (a, s) in best.items()}
    return {
        "games": games, "players": PLAYERS, "seed": seed, "repeats": repeats, "python": sys.version.split()[0],
        "clock": "process CPU time (one core)",
        "rows": {k: {"actions": a, "seconds": s, "actions_per_second": rates[k]} for k, (a, s) in best.items()},
        "ratio_to_fair": rates["interpreter"] / rates["hand-coded/seat"],
        "ratio_to_trick": rates["interpreter"] / rates["hand-coded/play"],
        "simulate_ratio_to_fair": rates["simulate"] / rates["hand-coded/seat"],
        "target": TARGET,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="games per row (default 3000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3, help="runs per row; the fastest counts (default 3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = measure(args.games, args.seed, args.repeats)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for name, row in result["rows"].items():
        print(f"{name:16} {row['actions_per_second']:>12,.0f} actions/s  "
              f"({row['actions']:,} actions in {row['seconds']:.3f} s)")
    print(f"interpreter / hand-coded (per-seat draws, fair): {result['ratio_to_fair']:.2f}")
    print(f"interpreter / hand-coded (single-draw trick):     {result['ratio_to_trick']:.2f}")
    print(f"simulate / hand-coded (fair):                     {result['simulate_ratio_to_fair']:.2f}")
    rate = result["rows"]["simulate"]["actions_per_second"]
    print(f"target {TARGET:,} actions/s: {'met' if rate >= TARGET else 'missed'}; half the fair hand-coded rate: "
          f"{'met' if result['simulate_ratio_to_fair'] >= 0.5 else 'missed'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
