"""More games where the interpreter's showed nothing: the same line-ups of bots on the compiled kernel.

The seeded games of `games.py` are few (48 a table), as each costs the interpreter's time. Where they have
shown no stuck game, or no win for some seat, the kernel plays `KERNEL_GAMES` more a line-up (the same
bots deciding by the same rules, its own random draws), and each game it shows is replayed by the
interpreter from the kernel's deal, action by action: the witness is the interpreter's game, starting from
the position the kernel dealt. The kernel's run seeds are fixed, so the same rulebook plays the same games
on every machine. Nothing is played where numba is missing or the kernel does not play the rules.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from cheatdsl.engine import Game, Position

from .games import LINEUPS, TURNS, Found, Run, ended
from .witness import dealt, dealt_as

if TYPE_CHECKING:
    from cheatdsl.compiled.run import CompiledTable

KERNEL_GAMES = 5000  # games a line-up on the kernel: a few tenths of a second a table, once numba is loaded
KERNEL_LOOK = frozenset({"stuck", "wins"})  # what a kernel game's record shows: no legal action, the winner


def kernel_games(game: Game, wanted: set[str], found: Found, games: int = KERNEL_GAMES) -> None:
    """Kernel games at this table, line-up by line-up, until each of `wanted` (a stuck game, every seat's
    win) that `found` still lacks is found or the games are spent; what they show is added to `found`."""
    from cheatdsl.compiled.cache import numba_available
    look = wanted & KERNEL_LOOK
    if not look or not numba_available():
        return
    from cheatdsl.compiled.run import CompiledTable, Refused
    n = game.players
    capped = Game(game.rulebook, n, turn_cap=TURNS, rules=game.rules)  # the kernel keeps room for so many turns
    for index, (names, rate) in enumerate(LINEUPS):
        if not _lacking(look, found, n):
            return
        bots = [names[s % len(names)] for s in range(n)]
        try:
            table = CompiledTable(capped, bots, index, rate)
        except Refused:
            return
        for i, record in enumerate(table.records(0, games)):
            found.games += 1
            if ("stuck" in look and "stuck" not in found.witnesses and record.stuck and record.first >= 0) or (
                    "wins" in look and record.winner >= 0 and record.winner not in found.wins):
                _replayed(game, table, i, names, rate, look, found)
                if not _lacking(look, found, n):
                    return


def _lacking(look: set[str], found: Found, n: int) -> bool:
    return ("stuck" in look and "stuck" not in found.witnesses) or ("wins" in look and len(found.wins) < n)


def _replayed(game: Game, table: CompiledTable, index: int, names: tuple[str, ...], rate: float, look: set[str],
              found: Found) -> None:
    """Game `index` of the kernel's `table` played again by the interpreter at `game`'s table, from the
    kernel's deal: what it shows goes into `found` (the interpreter judges, not the kernel's record)."""
    from cheatdsl.compiled.replay import actions_of, play_logged, start_of
    logged = play_logged(table, index)
    position = start_of(game, logged)
    if position is None or not len(logged.log):
        return  # nobody is named to play first, or the deal alone ended the game: no play to show
    if not dealt_like_the_interpreter(game, position):
        return  # sets left at the deal, which a position cannot show (or a deal the interpreter would not make)
    made = dealt_as(game, position)
    if isinstance(made, str):
        return  # the rules do not deal that table: no game from a deal to show
    state, deck = made
    start = {**deck, "compiled_run": table.seed, "game": index}
    run = Run(game, 0, 0, names, rate, start=(start, state))
    run.by = (f"played by bots ({', '.join(run.names)}) on the compiled engine (its run {table.seed}, game "
              f"{index}), replayed by the interpreter from that deal")
    for seat, action in actions_of(game, logged):
        run.apply(seat, action)
    found.actions += len(run.moves)
    ended(run, look, found)


def dealt_like_the_interpreter(game: Game, position: Position) -> bool:
    """Whether `position` is a deal the interpreter's own deal could have made: the whole deck in the hands, the
    stock and the cards dealt to nobody, nothing on the pile, and as many cards in each hand, the stock and
    aside as the interpreter deals with the same dealer. A deal at which sets left the game is not taken: a
    position cannot show those sets as put out, only as cards aside."""
    if position.pile or position.previous is not None:
        return False
    deck = Counter(v for v, k in enumerate(game.rules.deck_counts) for _ in range(k))
    held = Counter(c for hand in position.hands for c in hand)
    held.update(position.stock)
    held.update(position.aside)
    ref = dealt(game, 0, position.dealer)
    dealt_to = [ref.hand_size(s) + sum(len(c) for seat, _, c in ref.discarded_sets() if seat == s)
                for s in range(game.players)]
    return (held == deck and [len(h) for h in position.hands] == dealt_to
            and len(position.stock) == len(ref.stock())
            and len(position.aside) == len(ref.aside()))
