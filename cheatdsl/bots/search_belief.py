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

from ..engine import Play, State, View

if TYPE_CHECKING:
    from .counter import Memory


def table_behind(view: View) -> State:
    """The state a view reads; a determinization replaces every hidden card of it before anything is read."""
    return view._state  # noqa: SLF001 - read only through `determinize`, which redraws what the seat cannot see


def hidden_pool(state: State, seat: int) -> list[int]:
    """Every card on the table but the seat's own hand (other hands, the pile, stock, aside), sorted."""
    pool: list[int] = []
    for s in range(state.game.players):
        if s != seat:
            pool += state.hand_cards(s)
    pool += state.pile_cards()
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


def determinize(view: View, memory: Memory, lie: float, rng: random.Random, own_top: Play | None = None) -> State:
    """A copy of the table with every card the seat cannot see drawn anew, consistent with its view.

    `lie` is the chance that the claim awaiting an answer (if any) is false; `memory` is the seat's
    `counter` memory, caught up with the view; `own_top` the seat's own last play, put back as it was
    when it is still the top of the pile (a challenge would turn those very cards over).
    """
    state = table_behind(view)
    seat = view.seat
    pool = hidden_pool(state, seat)
    rng.shuffle(pool)
    hands: dict[int, list[int]] = {s: [] for s in range(view.players) if s != seat}
    # Cards a seat is known to hold: taken at a challenge and not yet possibly put down.
    for s in hands:
        room = view.size_of(s)
        for value, k in enumerate(memory.known[s]):
            if not k:
                continue
            for _ in range(min(k, room - len(hands[s]))):
                if _take(pool, value):
                    hands[s].append(value)
    entries = state.pile_plays()  # read for who made each entry and its size only
    pile: list[list[int] | None] = [None] * len(entries)
    known_on_pile = [v for v, k in enumerate(memory.pile) for _ in range(k)]
    if entries and entries[-1][0] == seat and own_top is not None and len(own_top.cards) == len(entries[-1][1]):
        top = [c for c in own_top.cards if _take(pool, c)]
        for c in top:
            if c in known_on_pile:
                known_on_pile.remove(c)
        pile[-1] = top + [pool.pop() for _ in range(len(own_top.cards) - len(top))]
    pending = view.pending
    if pending is not None and entries and entries[-1][0] != seat:
        claim, _count, played, _last = pending
        pile[-1] = _draw_claim(view, pool, claim, played, rng.random() < lie)
    # The rest of the pile holds the cards the seat saw go there (its own, those turned over), its own
    # entries first.
    order = sorted((i for i in range(len(entries)) if pile[i] is None), key=lambda i: entries[i][0] != seat)
    for i in order:
        cards: list[int] = []
        while known_on_pile and len(cards) < len(entries[i][1]):
            c = known_on_pile.pop()
            if _take(pool, c):
                cards.append(c)
        pile[i] = cards + [pool.pop() for _ in range(len(entries[i][1]) - len(cards))]
    for s, held in hands.items():
        held += [pool.pop() for _ in range(view.size_of(s) - len(held))]
    stock = [pool.pop() for _ in range(view.stock_size)]
    aside = [pool.pop() for _ in range(len(state.aside()))]
    return state.rearranged(hands=hands, pile=pile, stock=stock, aside=aside)  # type: ignore[arg-type]


def _draw_claim(view: View, pool: list[int], claim: int, played: int, lie: bool) -> list[int]:
    """The cards of the pending packet: `played` cards that pass as `claim` (or, for a lie, where the
    first one does not; with every card judged, a lie may hold matching cards too). Falls back to any
    cards when the pool holds too few of the kind asked for."""
    game = view.game
    rules = game.rules
    passes = {claim} if 0 <= claim < rules.values else set()
    if rules.wild:
        passes.add(rules.joker)
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
