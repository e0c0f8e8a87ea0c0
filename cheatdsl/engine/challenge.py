"""Challenges, set discards, everyone passing and players going out: the rarer steps of a game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model import ChallengeKind, ChallengeTest
from . import state as _state  # a cycle: read only at call time (its RevealRecord)
from .actions import TERMINAL, Phase
from .ending import Ending

if TYPE_CHECKING:
    from .state import State


def resolve(state: State, kind: ChallengeKind, challenger: int) -> None:
    """Judge the pending play, make the loser pay, then discards, going out and the next turn."""
    g = state.game
    claimant = state._claimant
    _, cards, claim, count, _ = state._pile[-1]
    shown: int | None = None
    if kind.test is ChallengeTest.HAND:
        # Force: the claimant must show a card of the claimed rank from hand, if there is one.
        shown = _card_to_show(state, claimant, claim)
        caught = shown is None
        revealed: tuple[int, ...] = () if shown is None else (shown,)
    else:
        revealed = cards if g.reveal_all else cards[-1:]
        # With a count that may differ from the cards, a challenge that turns them all counts them.
        caught = g.count_judged and len(cards) != count
        if not caught:
            joker = g.joker if g.wild else -1
            for c in revealed:
                if c != claim and c != joker:
                    caught = True
                    break
    winner, loser = (challenger, claimant) if caught else (claimant, challenger)
    pile_seen = state.pile_cards() if g.show_pile else None
    hands, sizes = state._hands, state._sizes
    if shown is not None:
        hands[claimant][shown] -= 1
        sizes[claimant] -= 1
        hands[loser][shown] += 1
        sizes[loser] += 1
    before = sizes[loser]
    pile_taken = 0
    if g.take_pile:
        _take_pile(state, loser)
    else:
        drawn = min(g.draw, len(state._stock))
        for _ in range(drawn):
            card = state._stock.pop()
            hands[loser][card] += 1
            sizes[loser] += 1
        if drawn < g.draw and g.short_stock_takes_pile:
            # `short_stock: take_pile`: the stock ran short, so the pile (never empty: it holds the
            # play just judged) goes to the loser as well.
            pile_taken = state._pile_n
            _take_pile(state, loser)
        elif g.pile_after_discarded:
            _discard_pile(state)
    state._reveals.append(_state.RevealRecord(kind.name, claimant, challenger, claim, count, revealed, caught,
                                              loser, sizes[loser] - before, pile_seen, pile_taken))
    if g.round_ends_on_challenge:
        state._leading = True
    state._pending = (claimant, challenger, winner, loser, caught, len(state._sets))
    if g.set_size is not None:
        if g.sets_forced:
            discard_forced_sets(state, loser)
        elif complete_sets(state, loser):
            state._phase = Phase.DISCARD
            state._seat = loser
            return
    finish_resolution(state)


def _card_to_show(state: State, seat: int, claim: int) -> int | None:
    g = state.game
    hand = state._hands[seat]
    if 0 <= claim < g.values and hand[claim]:
        return claim
    if g.wild and hand[g.joker]:
        return g.joker
    return None


def _take_pile(state: State, seat: int) -> None:
    hand = state._hands[seat]
    for entry in state._pile:
        for c in entry[1]:
            hand[c] += 1
    state._sizes[seat] += state._pile_n
    state._pile = []
    state._pile_n = 0


def _discard_pile(state: State) -> None:
    for entry in state._pile:
        state._gone.extend(entry[1])
    state._pile = []
    state._pile_n = 0


def finish_resolution(state: State) -> None:
    """After a challenge (and any set discards): empty hands go out, then the next player plays."""
    g = state.game
    claimant, challenger, winner, loser, caught, sets_before = state._pending  # type: ignore[misc]
    state._pending = None
    nxt = settle(state, claimant, challenger, winner, loser, caught, len(state._sets) > sets_before)
    if nxt is None:
        return
    state._required, state._required_set = g.required_after(state._previous, state._leading)
    state.begin_turn(nxt)


def settle(state: State, claimant: int, challenger: int, winner: int, loser: int, caught: bool,
           by_sets: bool) -> int | None:
    """A challenge paid for: empty hands go out; the seat `next_player` names, or None when the game is over.

    `by_sets`: the loser discarded sets after its pickup.
    """
    g = state.game
    # An empty hand goes out: the claimant's whose play survived (or showed its last card to a
    # Force). The loser's hand emptied by the sets it discarded goes out or stays in as
    # `ending.emptied_by_sets` says. A caught claimant left with nothing otherwise (an empty stock
    # to draw from, with `short_stock: nothing`) has not survived the challenge and stays in.
    sizes = state._sizes
    for seat in (claimant, loser):
        if sizes[seat] or not state._in[seat]:
            continue
        if seat == loser and by_sets:
            if g.emptied_stays_in:
                continue
            how = "discarded the last cards as sets"
        elif seat == claimant and caught:
            continue
        else:
            how = "emptied the hand"
        go_out(state, seat, how)
        if state._phase is Phase.TERMINAL:
            return None
    # The formula reads only these facts and the seating, so its answer is kept per game.
    key = (claimant, challenger, caught, state._dealer, state._seating)
    nxt = g.next_player_memo.get(key)
    if nxt is None:
        facts = g.facts(state, state._dealer or 0, claimant=claimant, challenger=challenger, winner=winner,
                        loser=loser, caught=caught)
        nxt = g.next_player(facts)
        nxt = claimant if nxt is None else nxt % g.players
        if not state._in[nxt]:
            nxt = state._next_in[nxt]
        g.next_player_memo[key] = nxt
    return nxt


def all_passed(state: State) -> None:
    """Every seat still in passed in a row: the pile may leave, and a new round may begin."""
    g = state.game
    state._passes = 0
    if g.all_pass_discards:
        _discard_pile(state)
    seat = state._seat
    if g.round_ends_on_all_pass and g.all_pass_leader is not None:
        last = state._last_player if state._last_player is not None else state._next_in[seat]
        leader = g.all_pass_leader(g.facts(state, state._dealer or 0, last_player=last))
        leader = last if leader is None else leader % g.players
        if not state._in[leader]:
            leader = state._next_in[leader]
        state._leading = True
        state._required, state._required_set = g.required_after(state._previous, True)
        state.begin_turn(leader)
    else:
        state.begin_turn(state._next_in[seat])


# -- sets ----------------------------------------------------------------------------------------

def complete_sets(state: State, seat: int) -> list[int]:
    """Ranks of which `seat` holds a complete set."""
    g = state.game
    size = g.set_size
    if size is None or size <= 0:
        return []
    hand = state._hands[seat]
    return [r for r in g.ranks_in_play if g.rank_count_in(hand, r, g.sets_naturals_only) >= size]


def discard_set(state: State, seat: int, rank: int) -> None:
    """Put one set of `rank` from `seat`'s hand out of the game, naturals first."""
    g = state.game
    hand = state._hands[seat]
    need = g.set_size or 0
    taken: list[int] = []
    values = [rank] if g.by_rank else [s * g.rank_count + rank for s in range(g.suit_count)]
    if not g.sets_naturals_only:
        values.append(g.joker)
    for v in values:
        while need and hand[v]:
            hand[v] -= 1
            taken.append(v)
            need -= 1
    state._sizes[seat] -= len(taken)
    state._sets.append((seat, rank, tuple(sorted(taken))))


def discard_forced_sets(state: State, seat: int) -> None:
    """Every complete set in `seat`'s hand leaves at once."""
    while True:
        ranks = complete_sets(state, seat)
        if not ranks:
            return
        discard_set(state, seat, ranks[0])


def discard_chosen_set(state: State, rank: int) -> None:
    """The discarding player shows a set of `rank`; the phase ends when no set is left."""
    from .actions import IllegalAction
    seat = state._seat
    if not isinstance(rank, int) or rank not in complete_sets(state, seat):
        from .notation import rank_words
        name = rank_words(state.game, rank) if isinstance(rank, int) else repr(rank)
        raise IllegalAction(f"seat {seat} holds no complete set of {name}")
    discard_set(state, seat, rank)
    if not complete_sets(state, seat):
        finish_resolution(state)


# -- going out and the end -----------------------------------------------------------------------

def go_out(state: State, seat: int, how: str) -> None:
    """`seat` leaves the game: the first out wins, or the last one holding cards loses."""
    g = state.game
    state._in[seat] = False
    state._in_count -= 1
    state._out_order.append(seat)
    if not g.first_out and state._in_count > 1 and state._sizes[seat]:
        # A seat leaving a game that goes on (a turn-start win) puts its cards out of play.
        hand = state._hands[seat]
        for v, k in enumerate(hand):
            if k:
                state._gone.extend([v] * k)
                hand[v] = 0
        state._sizes[seat] = 0
    _reseat(state)
    if g.first_out:
        state._winner = seat
        finish(state, Ending.WON, f"seat {seat} {how} and wins")
    elif state._in_count <= 1:
        if state._winner is None:
            state._winner = state._out_order[0]
        left = [s for s in range(g.players) if state._in[s]]
        state._loser = left[0] if left else None
        finish(state, Ending.LAST_HOLDER, f"seat {state._loser} is the last one holding cards")


def _reseat(state: State) -> None:
    g = state.game
    n = g.players
    inside = state._in
    state._seating = tuple(inside)
    for s in range(n):
        t = g.succ[s]
        while not inside[t] and t != s:
            t = g.succ[t]
        state._next_in[s] = t
        t = g.pred[s]
        while not inside[t] and t != s:
            t = g.pred[t]
        state._prev_in[s] = t
    for s in range(n):
        order = []
        t = g.succ[s]
        while t != s:
            if inside[t]:
                order.append(t)
            t = g.succ[t]
        state._responders_of[s] = tuple(order)


def finish(state: State, ending: Ending, reason: str) -> None:
    """The game is over, for `ending` (said in words as `reason`)."""
    state._phase = Phase.TERMINAL
    state._seat = TERMINAL
    state._capped = not ending.finished
    state._reason = reason
    state._ending = ending
