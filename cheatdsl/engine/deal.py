"""Starting a game: the deal from a shuffle seed, or an explicit position."""

from __future__ import annotations

from _random import Random as _SeededGenerator  # the C generator under `random.Random`, seeded the same way
from typing import TYPE_CHECKING

from ..cards import JOKER  # noqa: F401 - the deck's joker card, for the words that write a deck in order
from ..model import Surplus
from . import challenge as _challenge
from .actions import Phase
from .ending import Ending

if TYPE_CHECKING:
    from .game import Game
    from .position import Position
    from .state import State

_STOCK, _TERMINAL = Surplus.STOCK, Phase.TERMINAL
JOKER_TEXT = "JK"


def card_symbol(game: Game, value: int) -> str:
    """A card's symbol from the rules' rank symbols and suit names: `7`, `K` (games claiming ranks), `7H`
    (games claiming exact cards), or `JK`; `words.notation.card_text` shows cards with it."""
    if value == game.rules.joker:
        return JOKER_TEXT
    rank = value % game.rules.rank_count
    if game.rules.by_rank:
        return game.rules.rank_symbols[rank]
    return game.rules.rank_symbols[rank] + game.rules.suit_names[value // game.rules.rank_count][0].upper()


def shuffled(deck: list[int], seed: int) -> list[int]:
    """`deck` shuffled in place exactly as `random.Random(seed).shuffle(deck)` does, with less overhead."""
    bits = _SeededGenerator(seed).getrandbits
    steps = _STEPS.get(len(deck))
    if steps is None:
        steps = _STEPS[len(deck)] = tuple((i, (i + 1).bit_length()) for i in range(len(deck) - 1, 0, -1))
    for i, k in steps:
        j = bits(k)
        while j > i:
            j = bits(k)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}  # deck size -> (position, bits of a draw), last first
_ORDERS: dict[tuple[int, int], list[int]] = {}  # (deck size, seed) -> where each place's card comes from


def shuffle_order(size: int, seed: int) -> list[int]:
    """The places of a deck of `size` cards in the order `shuffled(deck, seed)` leaves them: a shuffle moves places,
    whatever cards are in them, and the verifier deals the same seed at many tables and dealers (kept for the last
    few hundred decks dealt)."""
    order = _ORDERS.get((size, seed))
    if order is None:
        if len(_ORDERS) >= 512:
            _ORDERS.clear()
        order = _ORDERS[size, seed] = shuffled(list(range(size)), seed)
    return order


def deal(state: State, seed: int) -> None:
    """Shuffle with `random.Random(seed)`, set cards aside, deal from the dealer's left, then play."""
    deal_in_order(state, shuffle_order(len(state.game.rules.table.deck), seed))


def deal_deck(state: State, cards: list[int]) -> None:
    """Deal the deck laid in this order, top first (`cheatdsl.cards` numbering: every card of the table's deck
    once), as `deal` deals a shuffled one; raises ValueError when `cards` is not the table's deck."""
    deck = state.game.rules.table.deck
    places: dict[int, list[int]] = {}
    for place in reversed(range(len(deck))):
        places.setdefault(deck[place], []).append(place)
    order = []
    for card in cards:
        free = places.get(card)
        if not free:
            raise ValueError("the deck given holds a card more than the table's deck does"
                             if card in places else "the deck given holds a card the table's deck does not")
        order.append(free.pop())
    if len(order) != len(deck):
        raise ValueError(f"the deck given has {len(order)} cards, the table's deck {len(deck)}")
    deal_in_order(state, order)


def deck_dealing(game: Game, dealer: int, hands: list[list[int]], stock: list[int],
                 aside: list[int]) -> list[int] | None:
    """A deck in shuffled order (cards top first, `cheatdsl.cards` numbering) that the rules deal, with
    `dealer` dealing, into these hands (card values), this stock (top first) and these cards aside; None where
    the table's deck or its dealing cannot give them (the sizes differ, or a card is not in the deck). Which
    physical card stands for a card value is the first free one: a rule reading who was dealt a card may
    then name another seat, which the caller sees when it deals the deck."""
    rules = game.rules
    n = game.players
    set_aside = rules.table.set_aside
    dealt = set_aside + sum(rules.hand_sizes)
    size = len(rules.table.deck)
    free: dict[int, list[int]] = {}
    for card in reversed(rules.table.deck):
        free.setdefault(rules.card_value(card), []).append(card)
    order: list[int | None] = [None] * size
    wanted: list[tuple[list[int], list[int]]] = []
    for i in range(n):
        seat = rules.seat_after(dealer, i + 1)
        wanted.append((list(range(set_aside + i, dealt, n)), sorted(hands[seat])))
    to_stock = game.rulebook.deal.surplus is _STOCK
    surplus = list(range(dealt, size))
    wanted.append((surplus, list(stock)) if to_stock else (list(range(set_aside)) + surplus, sorted(aside)))
    if to_stock:
        wanted.append((list(range(set_aside)), sorted(aside)))
    for places, values in wanted:
        if len(places) != len(values):
            return None
        for place, value in zip(places, values):
            cards = free.get(value)
            if not cards:
                return None
            order[place] = cards.pop()
    if any(card is None for card in order):
        return None
    return [card for card in order if card is not None]


def deal_in_order(state: State, order: list[int]) -> None:
    """Deal the deck as if shuffled into `order` (the deck's places, top first: `order[i]` is the place of
    `rules.table.deck` that comes i-th), then play: what `deal` does after its shuffle, and what the
    verifier's exhaustive judge calls for each deal it enumerates."""
    g = state.game
    rules = g.rules
    n = g.players
    dealer = state.dealer or 0
    deck = list(map(rules.table.deck.__getitem__, order))
    values = list(map(rules.deck_values.__getitem__, order))
    set_aside = rules.table.set_aside
    aside = values[:set_aside]
    dealt = set_aside + sum(rules.hand_sizes)
    holders: dict[int, int] = {}
    hands: list[list[int]] = [[]] * n
    card_values = rules.card_values
    # Seats from the last dealt to the first, so a card dealt twice (several packs) keeps its first holder.
    for i in reversed(range(n)):
        seat = rules.seat_after(dealer, i + 1)
        hands[seat] = list(map(values[set_aside + i:dealt:n].count, card_values))
        holders.update(dict.fromkeys(deck[set_aside + i:dealt:n], seat))
    surplus = values[dealt:]
    if g.rulebook.deal.surplus is _STOCK:
        state.lay_out(dealer, hands, stock=surplus, aside=aside, holders=holders)
    else:
        state.lay_out(dealer, hands, aside=aside + surplus, holders=holders)
    if rules.sets_forced:
        for seat in range(n):
            _challenge.discard_forced_sets(state, seat)
    first = rules.first_player.code(g.facts(state, dealer))
    state.open_play(None, False)
    if first is None:
        # A rule gap, not ours to fill: e.g. the card that names the leader lies in the surplus.
        state.finish(Ending.NO_FIRST_PLAYER, "the rules name no first player for this deal")
        return
    first %= n
    _out_if_empty(state)
    if state.phase is not _TERMINAL:
        state.begin_first_turn(first if state.is_in(first) else state.left_of(first))


def _out_if_empty(state: State) -> None:
    """A seat whose whole dealt hand left as forced sets goes out at once."""
    for seat in range(state.game.players):
        if state.is_in(seat) and not state.hand_size(seat) and state.phase is not _TERMINAL:
            _challenge.go_out(state, seat, "was dealt no cards to keep")


def enter_position(state: State, position: Position) -> None:
    """Set `state` to `position`; raises ValueError when the position cannot happen at this table."""
    g = state.game
    rules = g.rules
    n = g.players
    if len(position.hands) != n:
        raise ValueError(f"the position gives {len(position.hands)} hands for {n} players")
    for seat in (position.to_play, position.dealer, *position.out):
        if not 0 <= seat < n:
            raise ValueError(f"there is no seat {seat} at a table of {n}")
    counts = [0] * (rules.values + 1)
    places = [*position.hands, position.pile, position.stock, position.aside]
    for cards in places:
        for c in cards:
            if not 0 <= c <= rules.values:
                raise ValueError(f"{c!r} is not a card of this game")
            counts[c] += 1
    for v, k in enumerate(counts):
        if k > rules.deck_counts[v]:
            raise ValueError(f"the position holds {k} of {card_symbol(g, v)}, the deck has {rules.deck_counts[v]}")
    if position.previous is not None and position.previous not in rules.space.position:
        raise ValueError(f"{position.previous!r} is not a claim of this game")
    hands = []
    for cards in position.hands:
        hand = [0] * (rules.values + 1)
        for c in cards:
            hand[c] += 1
        hands.append(hand)
    state.lay_out(position.dealer, hands, position.pile, position.stock, position.aside)
    if position.out and rules.first_out:
        raise ValueError("nobody can be out yet: the first player out wins and ends the game")
    for seat in position.out:
        if state.is_in(seat):
            if state.hand_size(seat):
                raise ValueError(f"seat {seat} is out of the game but holds cards")
            _challenge.go_out(state, seat, "was out already")
            if state.phase is Phase.TERMINAL:
                raise ValueError("the position has fewer than two seats still in the game")
    for seat in range(n):
        if state.is_in(seat) and not state.hand_size(seat):
            raise ValueError(f"seat {seat} holds no cards but is not out of the game")
    if not state.is_in(position.to_play):
        raise ValueError(f"seat {position.to_play} is to play but is out of the game")
    state.open_play(position.previous, position.leading, position.last_player)
    state.begin_first_turn(position.to_play)
