"""The search bot's targets (issue 23): its speed in decisions a second, and its win share against honest.

Speed: the search bot at one seat of English ascending (or --speed-profile; four seats, three `honest`
bots), whole games; every decision it makes is timed by process CPU time around `bot.act(view)`, those
it searched (more than one sensible choice) and all of them. Target: 50 decisions a second at default effort.

Strength: for each profile named (default: every shipped profile), --games games at four seats (or
the count nearest four the profile allows) with the search bot at one seat, rotated game by game, and
`honest` at the others; its share of the decided games with a 95% Wilson interval, beside the fair
share. Target: the interval's low end above 0.35 on every profile that ends, with 1,000 games each.
Games stopped by the turn cap (2,000 turns) are counted apart.

With --playouts compiled the search bot's playouts run on the compiled kernel (cheatdsl/compiled/playouts.py)
wherever it plays the profile, on the Python engine elsewhere; it needs numba.

Run: python benchmarks/search_bot.py [--effort low|default|high] [--games G] [--profiles a,b,...]
                                     [--speed-games S] [--playouts python|compiled] [--first-game F] [--json]
Games are numbered from 1 and seeded by their numbers: `--first-game 501 --games 500` plays the second
half of `--games 1000`, so a long run can be split between processes and its counts ("good" of
"decided") added up.
The figures go to standard output; nothing is written.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cheatdsl.bots import make_bot  # noqa: E402  (after the path is set)
from cheatdsl.engine import CHANCE, Game  # noqa: E402
from cheatdsl.profiles import shipped_names, shipped_path  # noqa: E402
from cheatdsl.load import load_rulebook  # noqa: E402
from cheatdsl.simulate.summary import wilson  # noqa: E402

CAP = 2000


def table_size(counts: list[int]) -> int:
    return min(counts, key=lambda c: (abs(c - 4), c))


def play(game: Game, seed: int, me: int, effort: str, clock: list[float] | None = None,
         options: dict[str, Any] | None = None) -> tuple[int, int, int, int]:
    """One game: (search's result: 1 won, 0 lost, -1 undecided; decisions; searched decisions; 0); the
    search bot made with `options` besides its effort (`playouts`, `horizon`)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcome(rng))
    bots = [make_bot("search", s, random.Random(seed * 31 + s), effort=effort, **(options or {})) if s == me
            else make_bot("honest", s, random.Random(seed * 31 + s)) for s in range(game.players)]
    views = [state.view(s) for s in range(game.players)]
    decisions = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(state.chance_outcome(rng))
            continue
        if seat == me and clock is not None:
            t = time.process_time()
            action = bots[seat].act(views[seat])
            clock[0] += time.process_time() - t
            decisions += 1
        else:
            action = bots[seat].act(views[seat])
        state.apply_action(action)
    result = state.result()
    assert result is not None
    if not result.ending.finished:
        outcome = -1
    elif game.rules.first_out:
        outcome = int(result.winner == me)
    else:
        outcome = int(result.loser != me)
    return outcome, decisions, bots[me].searched, 0  # type: ignore[attr-defined]


def speed(effort: str, games: int, options: dict[str, Any] | None = None,
          profile: str = "english-ascending") -> dict[str, Any]:
    """The search bot's decisions a second over `games` games of `profile` at four seats."""
    game = Game(load_rulebook(str(shipped_path(profile))), 4, turn_cap=CAP)
    clock = [0.0]
    decisions = searched = 0
    for i in range(games):
        _, d, s, _ = play(game, 7000 + i, i % 4, effort, clock, options)
        decisions += d
        searched += s
    return {"profile": profile, "effort": effort, "games": games, "decisions": decisions, "searched": searched,
            "seconds": round(clock[0], 2), "decisions_per_second": round(decisions / clock[0], 1),
            "searched_per_second": round(searched / clock[0], 1) if searched else None}


def strength(name: str, effort: str, games: int, options: dict[str, Any] | None = None,
             first: int = 1) -> dict[str, Any]:
    """Games `first`..`first`+`games`-1 of `name` (each seeded by its number, so runs of consecutive
    ranges add up to one run of their union), the search bot's seat rotated by the game's number."""
    rb = load_rulebook(str(shipped_path(name)))
    n = table_size(list(rb.players.counts()))
    game = Game(rb, n, turn_cap=CAP)
    good = decided = 0
    start = time.process_time()
    for i in range(first - 1, first - 1 + games):
        outcome, *_ = play(game, 1 + i, i % n, effort, options=options)
        if outcome >= 0:
            decided += 1
            good += outcome
    low, high = wilson(good, decided) if decided else (float("nan"), float("nan"))
    # In last-holder-loses games "good" is not losing: its fair share is (n-1)/n, not 1/n.
    fair = 1 / n if game.rules.first_out else (n - 1) / n
    return {"profile": name, "players": n, "games": games, "first_game": first, "decided": decided,
            "good": good, "result": "won" if game.rules.first_out else "not lost",
            "share": round(good / decided, 3) if decided else None,
            "low": round(low, 4), "high": round(high, 4), "fair": round(fair, 3),
            "cpu_seconds": round(time.process_time() - start, 1)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--effort", default="default", choices=("low", "default", "high"))
    p.add_argument("--games", type=int, default=200, help="games per profile for the win share (default 200)")
    p.add_argument("--speed-games", type=int, default=20, help="games timed for the speed (default 20)")
    p.add_argument("--profiles", default="", help="comma-separated shipped profiles (default: every one)")
    p.add_argument("--playouts", default="python", choices=("python", "compiled"),
                   help="the search bot's playouts: the Python engine (default) or the compiled kernel")
    p.add_argument("--horizon", type=int, default=None, help="decisions played on after each candidate "
                   "(default: the effort's)")
    p.add_argument("--determinizations", type=int, default=None, help="tables drawn per decision "
                   "(default: the effort's)")
    p.add_argument("--speed-profile", default="english-ascending", choices=shipped_names(),
                   help="the shipped profile of the timed games (default english-ascending, the target's)")
    p.add_argument("--first-game", type=int, default=1, help="the number of the first game played (default 1): "
                   "games are seeded by their numbers, so two runs of consecutive ranges add up to one")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.first_game < 1:
        p.error("--first-game is a game number from 1")
    names = [n for n in args.profiles.split(",") if n] or shipped_names()
    options: dict[str, Any] = {name: value for name, value in (("horizon", args.horizon),
                                                                ("determinizations", args.determinizations))
                               if value is not None}
    if args.playouts == "compiled":
        from cheatdsl.compiled.playouts import CompiledPlayouts
        options["playouts"] = CompiledPlayouts()
    timed = speed(args.effort, args.speed_games, options, args.speed_profile) if args.speed_games else None
    out: dict[str, Any] = {"speed": timed, "strength": []}
    if not args.json and out["speed"]:
        print(json.dumps(out["speed"]))
    for name in names if args.games else []:
        row = strength(name, args.effort, args.games, options, args.first_game)
        out["strength"].append(row)
        if not args.json:
            print(json.dumps(row), flush=True)
    if args.json:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
