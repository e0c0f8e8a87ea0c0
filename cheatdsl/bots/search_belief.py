"""Determinizing one seat's view: a whole table whose hidden cards are drawn to fit what the seat knows.

What the seat knows and keeps: its own hand, the cards it put on the pile itself, the size of every
hidden place (each hand, each pile entry, the stock, the cards set aside), every public event, and
what `counter`'s memory makes of them: cards a challenge turned over that a seat took into its hand
(while that seat has not put down as many cards since), and the cards turned over that lie on the
pile still. Everything else it cannot see is drawn at random from the cards it cannot account for.

The claim awaiting an answer is drawn as a lie with the chance the seat's memory gives it (`counter`'s
odds: its own hand, the cards it knows of, the claimant's hand size, the count put down), and as the
truth otherwise, so a sample treats a claim neither as always true nor, as a uniform draw would, as
almost always false.

The cards of the hidden places are only ever read all together, sorted, as the pool to draw from, so
moving hidden cards between hidden places cannot change a sample: a seat's decision depends on its view
and its random numbers only. Cards that left the game unseen (a pile discarded after a round of passes)
stay where they are: the pool is the deck less those, which the table does not show (a small leak,
documented in docs/ratings.md).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..engine import State, View

if TYPE_CHECKING:
    from .counter import Memory


def table_behind(view: View) -> State:
    """The state a view reads; a determinization replaces every hidden card of it before anything is read."""
    return view._state  # noqa: SLF001 - read only through `determinize`, which redraws what the seat cannot see


def hidden_pool(state: State, seat: int) -> list[int]:
    """Every card the seat cannot see where it lies (other hands, others' pile entries, stock, aside), sorted."""
    pool: list[int] = []
    for s in range(state.game.players):
        if s != seat:
            pool += state.hand_cards(s)
    for who, cards, *_ in state.pile_plays():
        if who != seat:
            pool += cards
    pool += state.stock()
    pool += state.aside()
    pool.sort()
    return pool


def _take(pool: list[int], value: int) -> bool:
    """Remove one card of `value` from `pool` (kept in no order); False when there is none."""
    try:
        pool.remove(value)
    except ValueError:
        return False
    return True


def determinize(view: View, memory: Memory, lie: float, rng: random.Random) -> State:
    """A copy of the table with every card the seat cannot see drawn anew, consistent with its view.

    `lie` is the chance that the claim awaiting an answer (if any) is false; `memory` is the seat's
    `counter` memory, caught up with the view.
    """
    state = table_behind(view)
    seat = view.seat
    game = view.game
    pool = hidden_pool(state, seat)
    rng.shuffle(pool)
    players = game.players
    hands: dict[int, list[int]] = {s: [] for s in range(players) if s != seat}
    # Cards a seat is known to hold: taken at a challenge and not yet possibly put down.
    for s in hands:
        room = state.hand_size(s)
        for value, k in enumerate(memory.known[s]):
            for _ in range(min(k, room - len(hands[s]))):
                if _take(pool, value):
                    hands[s].append(value)
    entries = state.pile_plays()
    pile: list[list[int] | None] = [list(cards) if who == seat else None for who, cards, *_ in entries]
    pending = view.pending
    if pending is not None and entries and entries[-1][0] != seat:
        claim, _count, played, _last = pending
        pile[-1] = _draw_claim(view, pool, claim, played, rng.random() < lie)
    for i, entry in enumerate(entries):
        if pile[i] is None:
            pile[i] = [pool.pop() for _ in entry[1]]
    for s, cards in hands.items():
        cards += [pool.pop() for _ in range(state.hand_size(s) - len(cards))]
    stock = [pool.pop() for _ in range(state.stock_size())]
    aside = [pool.pop() for _ in range(len(state.aside()))]
    return state.rearranged(hands=hands, pile=pile, stock=stock, aside=aside)  # type: ignore[arg-type]


def _draw_claim(view: View, pool: list[int], claim: int, played: int, lie: bool) -> list[int]:
    """The cards of the pending packet: `played` cards that pass as `claim` (or, for a lie, where the
    first one does not; with every card judged, a lie may hold matching cards too). Falls back to any
    cards when the pool holds too few of the kind asked for."""
    game = view.game
    passes = {claim} if 0 <= claim < game.values else set()
    if game.wild:
        passes.add(game.joker)
    cards: list[int] = []
    if lie:
        for i, value in enumerate(pool):
            if value not in passes:
                cards.append(pool.pop(i))
                break
    else:
        for _ in range(played):
            for i, value in enumerate(pool):
                if value in passes:
                    cards.append(pool.pop(i))
                    break
    while len(cards) < played:
        cards.append(pool.pop())
    return cards
