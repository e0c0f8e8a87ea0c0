"""Every deal a rulebook's dealing can make at a table, each made by the interpreter's own dealing.

A deal is fixed by which cards land in which places of the shuffled deck: the cards set aside, each
seat's hand (its order does not matter), and the surplus (in order where it is a stock, drawn from the
top). Cards that no rule tells apart are one kind here: card values where no formula read during play
asks who was dealt a card, exact cards where one does (`holder(...)`, `dealt(...)`). Each distinct deal
is enumerated once, turned into an order of the deck's places, and dealt by `engine.deal.deal_in_order`,
so the forced sets, the first player and the turn-start rules are the interpreter's; with the dealer
drawn by lot, each deal is made once for every dealer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from cheatdsl.engine import Game, State
from cheatdsl.model import Surplus

from ..properties.witness import dealt_in_order

# Formula functions that read the deal the game began with.
DEAL_READERS = ("holder(", "dealt(")


def reads_deal_in_play(game: Game) -> bool:
    """Whether a formula read during play (after the deal) asks who was dealt a card: then two deals of the
    same card values to the same places are different games."""
    rules = game.rules
    formulas = (rules.turn_start_win, rules.pass_when, rules.next_player, rules.all_pass_leader)
    return any(f is not None and any(word in f.canonical for word in DEAL_READERS) for f in formulas)


def reads_deal(game: Game) -> bool:
    """Whether any seat formula, the first player's included, asks who was dealt a card."""
    first = game.rules.first_player
    return reads_deal_in_play(game) or any(word in first.canonical for word in DEAL_READERS)


def places(game: Game) -> tuple[tuple[int, ...], ...]:
    """The places of the shuffled deck, top first, in groups whose cards are dealt to one place: the cards
    set aside, each dealing turn's hand, then the surplus (one group a card where it is a stock, whose order
    is drawn; one group where it is set aside)."""
    rules = game.rules
    n = game.players
    aside = rules.table.set_aside
    dealt = aside + sum(rules.hand_sizes)
    size = len(rules.table.deck)
    groups: list[tuple[int, ...]] = [tuple(range(aside))] if aside else []
    groups += [tuple(range(aside + i, dealt, n)) for i in range(n) if aside + i < dealt]
    if game.rulebook.deal.surplus is Surplus.STOCK:
        groups += [(p,) for p in range(dealt, size)]
    elif dealt < size:
        groups.append(tuple(range(dealt, size)))
    return tuple(groups)


def _kinds(game: Game) -> list[int]:
    """Each deck place's kind of card: its exact card where the deal is read by a formula, else its value."""
    rules = game.rules
    return list(rules.table.deck) if reads_deal(game) else list(rules.deck_values)


def _splits(left: Counter[int], size: int, kinds: list[int], start: int = 0) -> Iterator[list[int]]:
    """Every multiset of `size` cards taken from `left` (kinds from `kinds[start:]` on), as sorted lists.

    While the caller holds a multiset yielded, `left` is short of exactly those cards (they are put back
    when the generator goes on), so the caller deals the rest from `left` as it stands."""
    if size == 0:
        yield []
        return
    for i in range(start, len(kinds)):
        k = kinds[i]
        have = left[k]
        if not have:
            continue
        for take in range(min(have, size), 0, -1):
            left[k] -= take
            for rest in _splits(left, size - take, kinds, i + 1):
                yield [k] * take + rest
            left[k] += take


def deal_count(game: Game, stop: int) -> int:
    """How many distinct deals (for one dealer) there are, counted up to `stop` (past it, `stop`)."""
    groups = places(game)
    kinds = _kinds(game)
    memo: dict[tuple[int, tuple[int, ...]], int] = {}
    order = sorted(set(kinds))

    def count(g: int, left: Counter[int]) -> int:
        if g == len(groups):
            return 1
        key = (g, tuple(left[k] for k in order))
        if key in memo:
            return memo[key]
        total = 0
        for _ in _splits(left, len(groups[g]), order):
            total += count(g + 1, left)
            if total >= stop:
                break
        memo[key] = total = min(total, stop)
        return total

    return count(0, Counter(kinds))


def orders(game: Game) -> Iterator[list[int]]:
    """Each distinct deal as an order of the deck's places (`deal_in_order`'s argument)."""
    groups = places(game)
    kinds = _kinds(game)
    where: dict[int, list[int]] = {}
    for p, k in enumerate(kinds):
        where.setdefault(k, []).append(p)
    order = sorted(where)
    size = len(kinds)

    def fill(g: int, left: Counter[int], chosen: list[list[int]]) -> Iterator[list[int]]:
        if g == len(groups):
            out = [0] * size
            free = {k: list(ps) for k, ps in where.items()}
            for group, cards in zip(groups, chosen):
                for place, k in zip(group, cards):
                    out[place] = free[k].pop()
            yield out
            return
        for cards in _splits(left, len(groups[g]), order):
            chosen.append(cards)
            yield from fill(g + 1, left, chosen)
            chosen.pop()

    yield from fill(0, Counter(kinds), [])


@dataclass(frozen=True)
class Deal:
    """One deal enumerated: the dealer, the order of the deck's places, and the state the interpreter dealt."""

    dealer: int | None
    order: tuple[int, ...]
    state: State


def every_deal(game: Game) -> Iterator[Deal]:
    """Every distinct deal at `game`'s table, dealt by the interpreter (for each dealer, where drawn by lot)."""
    dealers: list[int | None] = list(range(game.players)) if game.rules.dealer_by_lot else [None]
    for order in orders(game):
        for dealer in dealers:
            yield Deal(dealer, tuple(order), dealt_in_order(game, dealer, order))


def deals_for_every_dealer(game: Game, stop: int) -> int:
    """How many deals `every_deal` makes, counted up to `stop`."""
    per = deal_count(game, stop)
    return min(stop, per * (game.players if game.rules.dealer_by_lot else 1))
