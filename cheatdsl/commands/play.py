"""`cheatdsl play RULEBOOK`: a game in the terminal against computer players."""

from __future__ import annotations

import argparse
import random
import secrets
import sys
from collections.abc import Callable
from pathlib import Path

from .arguments import PLAYERS, SEAT, STDIN, TURN_CAP, add_variation, seed, unknown_variation, usage

HELP = """Play a rulebook in the terminal against computer players.

At your turn the screen shows the table, the required claim and your hand. Choose cards by
name (4 4 9, or 7H KD in games of exact cards) or by position under your hand (#4 #5 #8),
optionally followed by `as CLAIM` (4 4 9 as three fours); the game warns before you bluff.
When another player claims you accept or challenge; `pass` passes where the rules allow it.
Where the rulebook has them, a Force makes the claimant show the rank from hand, and after a
pickup you choose complete sets to discard (or the rules discard them for you).
`help` at your turn lists the answers, `quit` (or the end of input) leaves the table.

RULEBOOK is a file or a shipped profile's name, not `-`: your answers come from standard input.

Exit status: 0 when the game ends or you leave, 1 when the rulebook has errors,
2 for a usage error (a player count or seat the rulebook does not allow, an unknown bot or variation)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("play", help="play a rulebook in the terminal against bots", description=HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("rulebook", metavar="RULEBOOK", help="a rulebook file (.yaml, .yml or .cheat) or a shipped profile name")
    p.add_argument("--players", "-n", type=PLAYERS, default=None, metavar="N",
                   help="players at the table, you included (default: 4 where the rulebook allows it, else its fewest)")
    p.add_argument("--seat", type=SEAT, default=None, metavar="S",
                   help="your seat, 0 to N-1 (default: the seat that plays first)")
    p.add_argument("--bots", "-b", default="honest", metavar="NAME[,NAME...]",
                   help="the computer players' bots, one name for all or one per seat in turn order "
                        "(random, greedy, honest, counter, search; default honest, the practice table's players)")
    p.add_argument("--seed", "-s", type=seed, default=None, metavar="S",
                   help="the deal and the bots' choices (default: a fresh seed, shown so you can replay it)")
    add_variation(p)
    p.add_argument("--turn-cap", type=TURN_CAP, default=2000, metavar="T",
                   help="stop a game after T plays and passes (default 2000)")


def run(args: argparse.Namespace) -> int:
    from ..engine import Game
    from ..load import compile_rulebook
    from ..play import Console, play_game
    from ..play.opponents import make_opponent
    if args.rulebook == STDIN:
        return _usage("play reads your answers from standard input, so the rulebook cannot come from there too")
    if Path(args.rulebook).is_dir():
        return _usage(f"play needs one rulebook; '{args.rulebook}' is a folder")
    rulebook, diagnostics = compile_rulebook(args.rulebook, args.variation)
    if rulebook is None:
        wrong = unknown_variation(args.rulebook, diagnostics)
        if wrong is not None:
            return _usage(wrong)
        print(diagnostics.render(), file=sys.stderr)
        return 1
    players = rulebook.players.default if args.players is None else args.players
    if players not in rulebook.players.counts():
        return _usage(f"{rulebook.name} is for {rulebook.players.min} to {rulebook.players.max} players, "
                      f"not {players}")
    try:
        game = Game(rulebook, players, turn_cap=args.turn_cap)
    except ValueError as exc:
        return _usage(str(exc))
    if args.seat is not None and not 0 <= args.seat < players:
        return _usage(f"--seat must be from 0 to {players - 1}")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    for name in bots:
        try:
            make_opponent(name, 0, random.Random(0))
        except ValueError as exc:
            return _usage(str(exc))
    seed = args.seed if args.seed is not None else secrets.randbits(64)
    return play_game(game, Console(_reader(), print), seed, args.seat, bots)


def _reader() -> Callable[[str], str]:
    """`input`, echoing the answer when it does not come from a terminal, so a transcript reads well."""
    def read(prompt: str) -> str:
        answer = input(prompt)
        if not sys.stdin.isatty():
            print(answer)
        return answer
    return read


def _usage(message: str) -> int:
    return usage("play", message)
