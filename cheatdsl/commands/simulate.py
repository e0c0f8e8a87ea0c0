"""`cheatdsl simulate RULEBOOK`: many games between bots, and what they show about the rules."""

from __future__ import annotations

import argparse
import json
import sys

from .arguments import count, probability

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
same numbers whatever --jobs. With --json one JSON object is printed instead, with at least the
keys games, actions, capped, turns (plays and passes in each game), wins_by_seat.

A progress bar is drawn on standard error when it is a terminal (never with --json).

Exit status: 0 simulated; 1 the rulebook has errors (printed like `cheatdsl check`);
2 usage error (a bot that does not exist, a player count the rulebook does not allow, ...)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("simulate", help="play many games between bots and report statistics", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="RULEBOOK", help="a rulebook file (.yaml or .cheat)")
    p.add_argument("--players", "-n", type=count("a number of players", 1), metavar="N",
                   help="seats at the table (default: the fewest the rulebook allows)")
    p.add_argument("--games", "-g", type=count("a number of games", 1), default=1000, metavar="G",
                   help="games to play (default 1000)")
    p.add_argument("--seed", "-s", type=count("a seed", 0), default=0, metavar="S", help="the run's seed (default 0)")
    p.add_argument("--bots", "-b", default="honest", metavar="A,B,...",
                   help="a bot for every seat, or one per seat in seat order (default honest)")
    p.add_argument("--turn-cap", type=count("a turn cap", 1), metavar="T",
                   help="stop a game after T plays and passes (default 2000, or the rulebook's own cap)")
    p.add_argument("--jobs", "-j", type=count("a number of jobs", 1), default=1, metavar="J",
                   help="worker processes (default 1); the numbers do not depend on it")
    p.add_argument("--variation", "-V", action="append", default=[], metavar="NAME",
                   help="switch a named variation on (repeatable)")
    p.add_argument("--challenge-rate", type=probability, default=0.15, metavar="R",
                   help="how often greedy challenges; honest and counter challenge a claim they find "
                        "likelier true than false at most this often (default 0.15)")
    p.add_argument("--json", action="store_true", help="print the statistics as one JSON object")


def run(args: argparse.Namespace) -> int:
    from ..diagnostics import Diagnostics
    from ..load import compile_rulebook
    from ..simulate import seat_bots, simulate
    from ..simulate.report import render

    d = Diagnostics()
    rulebook, _ = compile_rulebook(args.file, args.variation, d)
    if rulebook is None:
        text = d.render()
        if text:
            print(text, file=sys.stderr)
        errors = len(d.errors)
        print(f"{errors} error{'s' if errors != 1 else ''} in {args.file}; nothing simulated", file=sys.stderr)
        return 1
    players = args.players if args.players is not None else rulebook.players.min
    if players not in rulebook.players.counts():
        return _usage(f"{rulebook.name} is for {rulebook.players.min}..{rulebook.players.max} players, not {players}")
    try:
        seat_bots(args.bots, players)
    except ValueError as exc:
        return _usage(str(exc))
    progress = None if args.json else _progress_bar(args.games)
    try:
        with progress or _Nothing():
            stats = simulate(rulebook, players, args.games, args.seed, args.bots, turn_cap=args.turn_cap,
                             jobs=args.jobs, challenge_rate=args.challenge_rate,
                             progress=progress.update if progress else None)
    except ValueError as exc:  # a table the rules cannot deal, for one
        return _usage(str(exc))
    if args.json:
        print(json.dumps(stats, indent=2))
    else:
        print(render(stats))
    return 0


def _usage(message: str) -> int:
    print(f"cheatdsl simulate: error: {message}", file=sys.stderr)
    return 2


class _Nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


class _Bar:
    """A rich progress bar on standard error, for a terminal only.

    Redrawn as games finish, with no refresh thread of its own: worker processes are forked safely.
    """

    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        self.progress = Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                                 console=Console(stderr=True), transient=True, auto_refresh=False)
        self.task = self.progress.add_task("games", total=total)

    def update(self, done: int, total: int) -> None:
        self.progress.update(self.task, completed=done, total=total)
        self.progress.refresh()

    def __enter__(self) -> _Bar:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()


def _progress_bar(total: int) -> _Bar | None:
    if not sys.stderr.isatty():
        return None
    try:
        return _Bar(total)
    except ImportError:  # rich is a dependency, but a bar is not worth failing for
        return None
