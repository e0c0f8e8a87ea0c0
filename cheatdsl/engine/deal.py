"""Starting a game: the deal from a shuffle seed, or an explicit position."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..model import Surplus
from . import challenge as _challenge
from .actions import Phase
from .ending import Ending

if TYPE_CHECKING:
    from .position import Position
    from .state import State


def deal(state: State, seed: int) -> None:
    """Shuffle with `random.Random(seed)`, set cards aside, deal from the dealer's left, then play."""
    g = state.game
    n = g.players
    dealer = state._dealer or 0
    deck = list(g.table.deck)
    random.Random(seed).shuffle(deck)
    value = g.value_of_card
    aside = g.table.set_aside
    state._aside = [value[c] for c in deck[:aside]]
    rest = deck[aside:]
    dealt = sum(g.hand_sizes)
    holders: dict[int, int] = {}
    # Seats from the last dealt to the first, so a card dealt twice (several packs) keeps its first holder.
    for i in reversed(range(n)):
        seat = g.seat_after(dealer, i + 1)
        cards = rest[i:dealt:n]
        hand = state._hands[seat]
        for c in cards:
            hand[value[c]] += 1
        holders.update(dict.fromkeys(cards, seat))
        state._sizes[seat] = len(cards)
    surplus = [value[c] for c in rest[dealt:]]
    if g.rulebook.deal.surplus is Surplus.STOCK:
        state._stock = surplus[::-1]
    else:
        state._aside.extend(surplus)
    state._holders = holders
    if g.sets_forced:
        for seat in range(n):
            _challenge.discard_forced_sets(state, seat)
    first = g.first_player(g.facts(state, dealer, holders=holders))
    state._required, state._required_set = g.required_after(None, False)
    state._leading = True
    if first is None:
        # A rule gap, not ours to fill: e.g. the card that names the leader lies in the surplus.
        _challenge.finish(state, Ending.NO_FIRST_PLAYER, "the rules name no first player for this deal")
        return
    first %= n
    _out_if_empty(state)
    if state._phase is not Phase.TERMINAL:
        state.begin_turn(first if state._in[first] else state._next_in[first])


def _out_if_empty(state: State) -> None:
    """A seat whose whole dealt hand left as forced sets goes out at once."""
    for seat in range(state.game.players):
        if state._in[seat] and not state._sizes[seat] and state._phase is not Phase.TERMINAL:
            _challenge.go_out(state, seat, "was dealt no cards to keep")


def enter_position(state: State, position: Position) -> None:
    """Set `state` to `position`; raises ValueError when the position cannot happen at this table."""
    g = state.game
    n = g.players
    if len(position.hands) != n:
        raise ValueError(f"the position gives {len(position.hands)} hands for {n} players")
    for seat in (position.to_play, position.dealer, *position.out):
        if not 0 <= seat < n:
            raise ValueError(f"there is no seat {seat} at a table of {n}")
    counts = [0] * (g.values + 1)
    places = [*position.hands, position.pile, position.stock, position.aside]
    for cards in places:
        for c in cards:
            if not 0 <= c <= g.values:
                raise ValueError(f"{c!r} is not a card of this game")
            counts[c] += 1
    from .notation import card_text
    for v, k in enumerate(counts):
        if k > g.deck_counts[v]:
            raise ValueError(f"the position holds {k} of {card_text(g, v)}, the deck has {g.deck_counts[v]}")
    if position.previous is not None and position.previous not in g.space.position:
        raise ValueError(f"{position.previous!r} is not a claim of this game")
    state._dealer = position.dealer
    for seat, cards in enumerate(position.hands):
        hand = state._hands[seat]
        for c in cards:
            hand[c] += 1
        state._sizes[seat] = len(cards)
    if position.pile:
        state._pile = [(None, tuple(position.pile), None, len(position.pile), False)]
        state._pile_n = len(position.pile)
    state._stock = list(reversed(position.stock))
    state._aside = list(position.aside)
    if position.out and g.first_out:
        raise ValueError("nobody can be out yet: the first player out wins and ends the game")
    for seat in position.out:
        if state._in[seat]:
            if state._sizes[seat]:
                raise ValueError(f"seat {seat} is out of the game but holds cards")
            _challenge.go_out(state, seat, "was out already")
            if state._phase is Phase.TERMINAL:
                raise ValueError("the position has fewer than two seats still in the game")
    for seat in range(n):
        if state._in[seat] and not state._sizes[seat]:
            raise ValueError(f"seat {seat} holds no cards but is not out of the game")
    if not state._in[position.to_play]:
        raise ValueError(f"seat {position.to_play} is to play but is out of the game")
    state._previous = position.previous
    state._leading = position.leading or position.previous is None
    state._last_player = position.last_player
    state._required, state._required_set = g.required_after(position.previous, position.leading)
    state.begin_turn(position.to_play)
