"""Winnability at one player count: for each seat, a game from a deal that the seat wins.

A legal game won by a seat proves that the seat can win, so each seat's proof is a game the interpreter
plays from a seeded deal, replayed and savable as a scenario. Each seat takes the first of:

1. a scripted greedy play from the deal of seed 0: the seat to win plays as many cards as it may, every
   other seat passes (or, where passing is not allowed or does not get there, plays the fewest cards);
   where the rules treat every seat alike and the dealer is drawn by lot, one such play turned round the
   table (the dealer moved with it) serves every seat;
2. the seeded games played by bots (`games.py`), as they come;
3. seeded games steered towards the seat's win (`games.steered_wins`): the seat plays as many cards as it
   may, the others pass or play the fewest, a lie where they can, and a seat challenges when that makes
   another seat than the winner-to-be pick up; now and then a seat acts at random instead. These take the
   challenges and pickups the scripted play and the model checker leave out (a seat that can only empty
   its hand after picking up cards);
4. for the seats no game has won, bounded model checking of the merged game from that deal, whose play
   counts only once the interpreter has replayed it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cheatdsl.engine import Game, Phase, State

from ..encoding.engine_state import constant, merged_values, read
from ..encoding.spec import Spec, merge_values
from ..encoding.symmetry import rotation_symmetric
from ..encoding.transitions import ACCEPT, PASS
from ..solving.solver import fresh_context
from .games import steered_wins
from .search import Trace, bmc
from .verdict import Result, proved, unknown
from .witness import Table, Witness, dealt, lowest, replay_shape, win_expected, words_text

PID = "winnability"
WIN_BMC_DEPTH = 24  # turns the model checker unrolls for a seat no game has won
GREEDY_TURNS = 600  # turns a scripted greedy play may take at most
_PLAY, _TERMINAL = Phase.PLAY, Phase.TERMINAL
PLAYS = 0  # the seed of the deal the scripted plays and the model checker start from


@dataclass
class Win:
    """One seat's win: the replayed game, how it was found ("greedy", "games", "steered" or "bmc") and what it
    was: seed, dealer, what each seat's player did (`bots`, seat by seat; `steered`, the seat the game was
    steered towards), turns and actions."""

    witness: Witness
    by: str
    game: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        return {"by": self.by, **self.game}


def winnability_at(a: Any, budget: Any) -> Result:
    """Proved when every seat has a replayed game it wins; unknown, naming the seats, when some has none."""
    from .analysis import games, replays
    sp = a.spec
    assert sp is not None
    n = sp.n
    wins = greedy_wins(sp, a.game, rotation_symmetric(sp) and sp.rules.dealer_by_lot)
    if len(wins) < n:
        found = games(a, "wins")
        for seat, w in sorted(found.wins.items()):
            if seat not in wins and replays(a, w):
                wins[seat] = Win(w, "games", found.played[seat])
    if len(wins) < n:
        for seat, (w, how) in sorted(steered_wins(a.game, [s for s in range(n) if s not in wins]).items()):
            if seat not in wins and replays(a, w):
                wins[seat] = Win(w, "steered", how)
    why = ""
    lost = [s for s in range(n) if s not in wins]
    if lost and not budget.take(PID):
        why = "no search left for them"
        lost = []
    for seat in lost:
        won = bmc_win(a, seat, budget)
        if isinstance(won, str):
            why = won
            break
        wins[seat] = won
    if len(wins) < n:
        lost = [s for s in range(n) if s not in wins]
        return unknown(PID, f"no game found in which {_seats(lost)} win{'s' if len(lost) == 1 else ''}: no "
                       "scripted greedy play, no game played by bots or steered towards its win"
                       f"{', and ' + why if why else ''}",
                       won={str(s): w.as_json() for s, w in sorted(wins.items())})
    return proved(PID, "every seat can win: " + "; ".join(_how(wins)),
                  witnesses={str(s): w.witness.as_json() for s, w in sorted(wins.items())},
                  games={str(s): w.as_json() for s, w in sorted(wins.items())},
                  found_by="+".join(by for by in ("greedy", "games", "steered", "bmc")
                                    if any(w.by == by for w in wins.values())),
                  rests_on=[f"a game from a deal won by each of the {n} seats, each replayed by the interpreter"])


def _seats(seats: list[int]) -> str:
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(map(str, seats))


def _how(wins: dict[int, Win]) -> list[str]:
    """How each seat's win was shown, seats grouped by the way."""
    out = []
    every = len(wins)
    greedy = sorted(s for s, w in wins.items() if w.by == "greedy")
    if greedy:
        turns = max(wins[s].game["turns"] for s in greedy)
        who = "each seat" if len(greedy) == every else _seats(greedy)
        out.append(f"{who} won a scripted greedy play from the deal of seed {PLAYS} (the winner plays as many "
                   f"cards as it may, the others pass or play the fewest), at most {turns} "
                   f"turn{'s' if turns != 1 else ''}, replayed by the interpreter")
    for s in sorted(s for s, w in wins.items() if w.by == "games"):
        g = wins[s].game
        dealt = (f"seed {g['seed']}" if "seed" in g else
                 f"the compiled engine's run {g['compiled_run']}, game {g['game']}, replayed from its deal")
        out.append(f"seat {s} won a game played by bots ({', '.join(g['bots'])}; {dealt}), "
                   f"{g['turns']} turns, replayed")
    for s in sorted(s for s, w in wins.items() if w.by == "steered"):
        g = wins[s].game
        out.append(f"seat {s} won a game steered towards seat {g['steered']}'s win (seed {g['seed']}, a random "
                   f"action {g['random_rate']:.0%} of the time), {g['turns']} turns, replayed")
    found = sorted(s for s, w in wins.items() if w.by == "bmc")
    if found:
        turns = max(wins[s].game["turns"] for s in found)
        out.append(f"{_seats(found)} won a play of at most {turns} turns from the deal of seed {PLAYS}, found by "
                   "bounded model checking and replayed by the interpreter")
    return out


def first_out(st: State) -> int | None:
    """The winner: the first seat out (in games that go on until a loser is left, before the end too)."""
    if st.phase is _TERMINAL:
        r = st.result()
        if r is not None and r.winner is not None:
            return r.winner
    elif st.players_in == st.game.players:
        return None  # nobody is out yet (the order out is empty)
    order = st.order_out()
    return order[0] if order and not st.game.rules.first_out else None


def policy_run(game: Game, st: State, target: int, passing: bool, limit: int = GREEDY_TURNS
               ) -> tuple[list[dict[str, Any]], Table] | None:
    """The turns, as step shapes, until `target` is out when it plays all it may and the others pass (or
    play the fewest cards), with the game played; None when someone else goes out first or the limit is
    reached."""
    table = Table(game, st)
    shapes: list[dict[str, Any]] = []
    for _ in range(limit):
        out = first_out(st)
        if out is not None:
            return (shapes, table) if out == target else None
        if st.phase is not _PLAY:
            return None
        seat = st.to_act
        if seat != target and passing and st.can_pass():
            table.turn(PASS, (), 0, 0, None, None)
            shapes.append({"kind": PASS, "cards": [0]})
            continue
        size = st.hand_size(seat)
        k = size if game.rules.max_cards is None else min(size, game.rules.max_cards)
        k = k if seat == target else game.rules.min_cards
        cards = lowest(st.hand(seat), k)
        required = st.required
        if len(cards) < k or k < game.rules.min_cards or not required:
            return None  # the seat cannot make the play the script would (a hand smaller than a play)
        table.turn(ACCEPT, cards, required[0], k, None, None)
        shapes.append({"kind": ACCEPT, "cards": [k]})
    return None


def _shape_trace(sp: Spec, shape: list[dict[str, Any]]) -> Trace:
    """A trace holding only the shape of each turn (what `replay_shape` reads), for a scripted play."""
    blank = {"claim": 0, "count": 0, "challenger": -1, "test": 0, "draws": [0], "discards": [0], "caught": None}
    return Trace(sp, [], [{**blank, **step, "count": sum(step["cards"])} for step in shape], found_by="greedy")


class _Deals:
    """The deal of seed PLAYS: with dealer 0 dealt once and copied for every play from it; with another
    dealer dealt when asked (each is asked for once)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.first = dealt(game, PLAYS, 0)

    def __call__(self, dealer: int) -> State:
        return self.first.clone() if dealer == 0 else dealt(self.game, PLAYS, dealer)


# A scripted play: its turns' shapes, whether the others pass in it, and the game played from the deal of
# seed PLAYS with dealer 0.
Scripted = tuple[list[dict[str, Any]], bool, Table]


def _greedy(deals: _Deals, aim: int) -> Scripted | None:
    """The shortest-tried scripted play from the deal of seed PLAYS (dealer 0) in which `aim` goes out first,
    with whether the others pass in it; None when neither way gets it there."""
    for passing in (True, False):
        run = policy_run(deals.game, deals(0), aim, passing)
        if run is not None:
            return run[0], passing, run[1]
    return None


def _replayed(sp: Spec, deals: _Deals, seat: int, play: Scripted, dealer: int, rotate: int) -> Win | None:
    """The scripted play replayed by the interpreter from the deal of seed PLAYS with `dealer`, turned
    `rotate` seats round the table: the win of `seat`, or None when the replay does not end so.

    Not turned (dealer 0, `rotate` 0), the replay would make the very turns the scripted play made, from the
    same deal: the game the scripted play was is that replay, and is taken as it is."""
    game = deals.game
    shape, passing, played = play
    if dealer == 0 and rotate == 0:
        table: Table | str = played
        st = played.state
    else:
        st = deals(dealer)
        table = replay_shape(game, st, _shape_trace(sp, shape), rotate=rotate)
    if isinstance(table, str) or first_out(st) != seat:
        return None
    expect = win_expected(st, seat)
    other = "passes" if passing else "plays the fewest cards"
    bots = ["plays all it may" if s == seat else other for s in range(game.players)]
    won = "wins" if game.rules.first_out else "goes out first"
    w = Witness(PID, game.players, {"seed": PLAYS, "dealer": dealer}, table.steps, expect, words_text(game, table.said[-3:]),
                f"seat {seat} {won} after {len(shape)} turns, a scripted greedy play (it plays as many cards as "
                f"it may, every other seat {other})")
    return Win(w, "greedy", {"seed": PLAYS, "dealer": dealer, "bots": bots, "turns": len(shape),
                             "actions": len(table.moves)})


def greedy_wins(sp: Spec, game: Game, symmetric: bool) -> dict[int, Win]:
    """The seats a scripted greedy play wins for, each with its replayed game. With `symmetric` (every seat
    alike, dealer by lot) the shortest play won by any seat is turned round the table first."""
    deals = _Deals(game)
    if deals.first.phase is not Phase.PLAY:
        return {}
    n = game.players
    wins: dict[int, Win] = {}
    plays: dict[int, Scripted | None] = {}
    if symmetric:
        for aim in range(n):
            plays[aim] = _greedy(deals, aim)
        tried = [(len(p[0]), aim) for aim, p in plays.items() if p is not None]
        if tried:
            _, w0 = min(tried)
            play = plays[w0]
            assert play is not None
            for seat in range(n):
                turn = (seat - w0) % n
                won = _replayed(sp, deals, seat, play, turn, turn)
                if won is not None:
                    wins[seat] = won
    for seat in range(n):
        if seat in wins:
            continue
        got = plays[seat] if seat in plays else _greedy(deals, seat)
        won = None if got is None else _replayed(sp, deals, seat, got, 0, 0)
        if won is not None:
            wins[seat] = won
    return wins


def bmc_win(a: Any, seat: int, budget: Any) -> Win | str:
    """A play of at most WIN_BMC_DEPTH turns (plays answered by all, and passes) from the deal of seed PLAYS
    in which `seat` goes out first, found by bounded model checking of the merged game and replayed by the
    interpreter; or why there is none."""
    sp, game = a.spec, a.game
    fresh_context()  # a search: its own terms only, as in `counterexample.search`
    merged = merge_values(sp)
    st = dealt(game, PLAYS, 0)
    if st.phase is not Phase.PLAY:
        return "the dealt game ends before a turn"
    start = constant(merged, merged_values(sp, merged, (), read(sp, st)))

    def goal(s: Any, t: Any, act: Any, b: Any, i: int) -> Any:
        return t.winner == seat

    res = bmc(merged, goal, WIN_BMC_DEPTH, start=start, kinds=(ACCEPT, PASS),
              timeout_ms=int(budget.seconds_left() * 1000))
    if res.unknown:
        return f"the search for a play seat {seat} wins stopped: {res.unknown}"
    if res.trace is None:
        return (f"bounded model checking finds no play of {WIN_BMC_DEPTH} turns from the deal of seed {PLAYS}, "
                f"without challenges, in which seat {seat} wins")
    table = replay_shape(game, st, res.trace)
    if isinstance(table, str) or first_out(st) != seat:
        return f"the play found for seat {seat} does not replay" + (f": {table}" if isinstance(table, str) else "")
    expect = win_expected(st, seat)
    turns = res.trace.depth
    w = Witness(PID, game.players, {"seed": PLAYS, "dealer": 0}, table.steps, expect, words_text(game, table.said[-3:]),
                f"seat {seat} {'wins' if game.rules.first_out else 'goes out first'} after {turns} turns, a play found "
                "by bounded model checking")
    return Win(w, "bmc", {"seed": PLAYS, "dealer": 0, "turns": turns, "actions": len(table.moves)})
