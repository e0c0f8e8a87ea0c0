"""`cheatdsl simulate RULEBOOK`: many games between bots, and what they show about the rules."""

from __future__ import annotations

import argparse
import json
import sys

from .arguments import (
    JOBS,
    PLAYERS,
    TURN_CAP,
    UsageError,
    add_format,
    add_rulebooks,
    add_variation,
    count,
    probability,
    rulebook_arguments,
    seed,
    unknown_variation,
    usage,
    workers_for,
)

HELP = """Play many games of a rulebook between bots and report the statistics.

Bots (--bots, one name for every seat or one per seat, comma-separated):
  random   every legal action equally likely
  greedy   every card of the required rank up to the cap, else one random card;
           challenges at --challenge-rate
  honest   the practice table's opponents (seed 003): truthful cards when held, else a bluff;
           challenges from its own hand, the claim and the claimant's last cards
  counter  honest, and remembers revealed cards and pickups to call certain lies

The report: games played and those stopped by the turn cap, actions (plays, passes, responses,
set discards), turns per game (plays and passes: mean, median, 95th percentile), challenges per
game and the share that caught a lie, forced bluffs (plays by a seat holding nothing that passes
as a claim allowed), cards taken at each pickup, wins by seat with a 95% Wilson interval, the
first player's advantage (its win share against a fair share), and in last-holder-loses games
the loser by seat. Win shares count decided games only.

Game i is dealt and played from a seed worked out from (--seed, i), so the same seed gives the
same numbers whatever --jobs. With --format json (or --json) one JSON object is printed instead,
with at least the keys games, actions, capped, turns (plays and passes in each game), wins_by_seat.

A progress bar is drawn on standard error when it is a terminal and the games take over a second.

With --records FILE each game is also written to FILE as one JSON line, in game order, as games
end: {"game", "seed", "first", "winner", "loser", "ending", "turns", "actions", "plays",
"forced", "challenges", "caught", "pickups"}; the statistics themselves take memory that does not
grow with the number of games.

Engines (--engine): the compiled engine (numba, `pip install cheatdsl[compiled]`) plays the same
rules and bots as the Python engine with its own random draws, so its numbers agree within their
intervals, not digit for digit. It plays every rule declared as its own in cheatdsl/played_by.py (all
those of the shipped rulebooks; the rest it refuses by the field's name, and a deck too large for its
tables by the memory they would take, see docs/engine.md) and the random, greedy, honest and counter
bots; `auto` uses it when it plays the run and the run would take the Python engine more than about 2 s
(estimated from the decisions of its first two games), and `compiled` says why when it cannot. Its kernel
is compiled once and kept in ~/.cache/cheatdsl/numba (or $XDG_CACHE_HOME), in a folder named by a hash of
the kernel's sources.

Exit status: 0 simulated; 1 the rulebook has errors (printed like `cheatdsl check`), or with
--strict some game did not finish;
2 usage error (a bot that does not exist, a player count the rulebook does not allow, a variation
it does not offer, ...)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("simulate", help="play many games between bots and report statistics", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rulebooks(p, many=False, dest="file")
    p.add_argument("--players", "-n", type=PLAYERS, metavar="N",
                   help="seats at the table (default: 4 where the rulebook allows it, else its fewest)")
    p.add_argument("--games", "-g", type=count("a number of games", 1, 1_000_000_000_000), default=1000, metavar="G",
                   help="games to play, 1 to 10^12 (default 1000); memory does not grow with G")
    p.add_argument("--seed", "-s", type=seed, default=0, metavar="S", help="the run's seed (default 0)")
    p.add_argument("--bots", "-b", default="honest", metavar="A,B,...",
                   help="a bot for every seat, or one per seat in seat order (default honest)")
    p.add_argument("--turn-cap", type=TURN_CAP, metavar="T",
                   help="stop a game after T plays and passes (default 2000, or the rulebook's own cap)")
    p.add_argument("--jobs", "-j", type=JOBS, default=1, metavar="J",
                   help="worker processes (default 1); the numbers do not depend on it")
    add_variation(p)
    p.add_argument("--challenge-rate", type=probability, default=0.15, metavar="R",
                   help="how often greedy challenges; honest and counter challenge a claim they find "
                        "likelier true than false at most this often (default 0.15)")
    p.add_argument("--engine", choices=("auto", "compiled", "python"), default="auto",
                   help="auto (default): the compiled engine when it plays the rules and the run would take "
                        "the Python engine more than about 2 s (estimated from the decisions of its first two "
                        "games), else the Python engine; compiled: the compiled engine or an error saying why not; "
                        "python: the Python engine (the reference)")
    add_format(p, ("text", "json"))
    p.add_argument("--strict", action="store_true",
                   help="exit 1 when any game is unfinished (stopped by the turn cap or with no legal action)")
    p.add_argument("--records", metavar="FILE",
                   help="also write one JSON line per game to FILE, in game order, as games end")
    p.add_argument("--force", action="store_true", help="with --records: overwrite FILE if it exists")


def run(args: argparse.Namespace) -> int:
    args.jobs = workers_for("simulate", args.jobs)
    from ..diagnostics import Diagnostics
    from ..load import compile_rulebook
    from ..simulate import seat_bots, simulate
    from ..simulate.report import render

    try:
        files = rulebook_arguments([args.file])
    except UsageError as exc:
        return _usage(str(exc))
    if len(files) != 1:
        return _usage(f"simulate plays one rulebook; the folder '{args.file}' holds {len(files)}")
    d = Diagnostics()
    rulebook, _ = compile_rulebook(files[0], args.variation, d)
    if rulebook is None:
        wrong = unknown_variation(files[0], d)
        if wrong is not None:
            return _usage(wrong)
        text = d.render()
        if text:
            print(text, file=sys.stderr)
        errors = len(d.errors)
        shown = "<stdin>" if args.file == "-" else args.file
        print(f"{errors} error{'s' if errors != 1 else ''} in {shown}; nothing simulated", file=sys.stderr)
        return 1
    players = args.players if args.players is not None else rulebook.players.default
    if players not in rulebook.players.counts():
        return _usage(f"{rulebook.name} is for {rulebook.players.min}..{rulebook.players.max} players, not {players}")
    try:
        seat_bots(args.bots, players)
    except ValueError as exc:
        return _usage(str(exc))
    from ..output import OutputError
    from ..simulate.records import RecordWriter
    from ..simulate.engine import Engine
    from .progress import Progress
    try:
        with RecordWriter(args.records, args.seed, args.force) as records, \
                Progress("simulating", args.games) as bar:
            stats = simulate(rulebook, players, args.games, args.seed, args.bots, turn_cap=args.turn_cap,
                             jobs=args.jobs, challenge_rate=args.challenge_rate,
                             progress=bar.update,
                             record=records.write if args.records else None,
                             engine=Engine(args.engine), notice=_notice)
    except OutputError as exc:
        return _usage(str(exc))
    except ValueError as exc:  # a table the rules cannot deal, for one
        return _usage(str(exc))
    if args.format == "json":
        print(json.dumps(stats.as_json(), indent=2))
    else:
        print(render(stats))
    if args.strict and stats.unfinished:
        print(f"cheatdsl simulate: {stats.unfinished} of {stats.games} games did not finish (--strict)",
              file=sys.stderr)
        return 1
    return 0


def _notice(message: str) -> None:
    print(f"cheatdsl simulate: {message}", file=sys.stderr)



def _usage(message: str) -> int:
    return usage("simulate", message)
