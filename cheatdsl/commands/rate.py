"""`cheatdsl rate RULEBOOK`: a ladder of bots on one rulebook, its ratings, and what the rules reward."""

from __future__ import annotations

import argparse
import json
import sys

from .arguments import (
    JOBS,
    TURN_CAP,
    UsageError,
    add_format,
    add_rulebooks,
    add_variation,
    count,
    rulebook_arguments,
    seed,
    unknown_variation,
    usage,
    workers_for,
)

HELP = """Play a ladder of bots of increasing strength on a rulebook, fit their ratings, and report
what the rules reward: skill or luck, what bluffing is worth, the seat, the length of a game.

The headline tables, each over duplicate deals (every seating of a deal gets the same cards):
  skill edge     the strongest entrant (search) at a table of honest bots, at every seat of each
                 deal in turn: its share of the good result less a fair 1/N (0 where every choice
                 is forced or changes nothing)
  luck share     search at every seat, each deal played twice with fresh random numbers: the share
                 of the variance of a seat's result the deal and seat decide (1: the bots' draws
                 change nothing)
  bluffing       at that table: the share of plays that are lies, of lies caught, of calls won;
                 lie value: search at a table of copies of itself that never lie when a truthful
                 play is open, its share less 1/N (what lying is worth under these rules)

The ladder: random, greedy, honest, counter, search-low (the search bot at low effort) and search
(default effort). A sixth of the games each is the strong table (the N strongest entrants in every
rotation) and each headline table; the rest is a round robin (every group of N entrants in every
rotation). With too few games for a deal at each headline table, the ladder alone is played.

The report (every interval a 95% bootstrap over the deals):
  ratings        a Plackett-Luce maximum-likelihood fit of who won (or lost), on the Elo scale
  skill index    2P - 1, P the chance the strongest entrant beats the weakest head to head:
                 0 a coin-flip game, 1 the stronger always wins (the ladder's ends)
  rating spread  the strongest rating less the weakest, in Elo points (does not level off near 1)
  seats          each position's share of the good result from the first player on, less a fair
                 1/N, at the strong table (first player: position 0)
  completion, duration, balance, decisiveness
                 at the strong table, in Ludii's words (docs/ratings.md)

With --format json (or --json) one JSON object with the keys skill_edge, luck_share ({value, low,
high} each), bluffing {lie_share, lies_caught, calls_won, lie_value}, headline_games, skill_index,
rating_spread {value, low, high}, ladder [{bot, rating, low, high}], seat_advantage [{position,
value, low, high}], first_player_advantage, completion, duration, balance, decisiveness ({value,
low, high} each), games (every game played).

Game i is dealt from a seed worked out from (--seed, i): the same seed gives the same report.

Exit status: 0 rated; 1 the rulebook has errors; 2 usage error."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from ..rate import DEFAULT_GAMES
    p = sub.add_parser("rate", help="rate a ladder of bots on a rulebook: skill, luck, seats, length",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rulebooks(p, many=False, dest="file")
    p.add_argument("--players", "-n", type=count("a number of players", 2, 1_000), metavar="N",
                   help="seats at the table (default: 4 where the rulebook allows it, else its fewest)")
    p.add_argument("--games", "-g", type=count("a number of games", 1, 1_000_000), default=DEFAULT_GAMES, metavar="G",
                   help=f"games to play (default {DEFAULT_GAMES}: about two minutes with numba on one core)")
    p.add_argument("--seed", "-s", type=seed, default=0, metavar="S", help="the run's seed (default 0)")
    p.add_argument("--samples", type=count("a number of bootstrap samples", 10, 100_000), default=200, metavar="B",
                   help="bootstrap resamples for the intervals (default 200)")
    p.add_argument("--turn-cap", type=TURN_CAP, metavar="T",
                   help="stop a game after T plays and passes (default 2000)")
    p.add_argument("--engine", choices=("auto", "compiled", "python"), default="auto",
                   help="where the search bots' playouts run: auto (default), the compiled engine where numba is "
                        "installed and it plays the rules, else the Python engine; compiled: the compiled engine "
                        "where it plays the rules, an error without numba; python: the Python engine. The compiled "
                        "engine plays the playouts' honest bots (it plays random, greedy, honest and counter) and "
                        "every rule declared as its own in cheatdsl/played_by.py; it refuses the rest by the "
                        "field's name (docs/engine.md)")
    p.add_argument("--jobs", "-j", type=JOBS, default=1, metavar="J",
                   help="worker processes for the games (default 1; where the platform forks); the figures do "
                        "not depend on it")
    add_variation(p)
    add_format(p, ("text", "json"))


def run(args: argparse.Namespace) -> int:
    args.jobs = workers_for("rate", args.jobs)
    from ..diagnostics import Diagnostics
    from ..load import compile_rulebook
    from ..rate import rate
    from ..rate.text import render
    from .progress import Progress

    try:
        files = rulebook_arguments([args.file])
    except UsageError as exc:
        return usage("rate", str(exc))
    if len(files) != 1:
        return usage("rate", f"rate plays one rulebook; the folder '{args.file}' holds {len(files)}")
    d = Diagnostics()
    rulebook, _ = compile_rulebook(files[0], args.variation, d)
    if rulebook is None:
        wrong = unknown_variation(files[0], d)
        if wrong is not None:
            return usage("rate", wrong)
        text = d.render()
        if text:
            print(text, file=sys.stderr)
        errors = len(d.errors)
        print(f"{errors} error{'s' if errors != 1 else ''} in {args.file}; nothing rated", file=sys.stderr)
        return 1
    allowed = rulebook.players.counts()
    players = args.players if args.players is not None else rulebook.players.default
    if players not in allowed:
        return usage("rate", f"{rulebook.name} is for {rulebook.players.min}..{rulebook.players.max} players, "
                             f"not {players}")
    from ..simulate.engine import Engine, EngineUnavailable, search_playouts
    try:
        playouts = search_playouts(Engine(args.engine), notice=lambda text: print(text, file=sys.stderr))
    except EngineUnavailable as exc:
        return usage("rate", str(exc))
    try:
        with Progress("rating", args.games) as bar:
            done = [0]

            def one_more(games: int) -> None:  # the ladder says each game done as `1`; the bar counts them
                done[0] += games
                bar.update(done[0])

            report = rate(rulebook, players, args.games, args.seed, samples=args.samples, turn_cap=args.turn_cap,
                          progress=one_more, playouts=playouts, jobs=args.jobs)
    except ValueError as exc:  # a table the rules cannot deal, for one
        return usage("rate", str(exc))
    print(json.dumps(report.as_json(), indent=2) if args.format == "json" else render(report))
    return 0
