"""The initial states: every deal the rules allow, and the first turn after it.

The dealer is any seat (by lot) or seat 0; each seat gets the hand size the deal gives its place
from the dealer's left, any cards of the deck; the rest is set aside or is the stock. Forced sets
leave a dealt hand at once, an empty hand goes out, and the first player (`setup.first_player`,
whose `holder(card)` reads which seat was dealt that card) begins as every turn begins.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from ..solving.terms import and_, eq, ge, int_var, lt, not_, or_, plus
from .spec import FIRST, Spec
from .state import State, Term, false, hand, ite, merge, next_in, num, pick, total, true, zero
from .tabulate import queries
from .transitions import Builder


@dataclass
class Deal:
    """The choices of a deal: the dealer, the dealt hands, the cards aside and in the stock, and for
    each card `first_player` asks about, the seat dealt it (-1: nobody)."""

    dealer: z3.ArithRef
    dealt: list[list[Term]]
    aside: list[Term]
    stock: list[Term]
    holders: dict[int, z3.ArithRef]


def dealt_size(spec: Spec, seat: int, dealer: Term) -> Term:
    """Cards dealt to `seat`: the deal goes one at a time from the dealer's left in turn order."""
    sizes = []
    for d in range(spec.n):
        place = ((seat - d) * spec.rules.step - 1) % spec.n
        sizes.append(num(spec.rules.hand_sizes[place]))
    return pick(dealer, sizes) if spec.rules.dealer_by_lot else sizes[0]


def initial(b: Builder, name: str, plain: bool = False) -> tuple[list[Term], State, Deal]:
    """(constraints, the state after the deal and the first turn's start, the deal's choices).

    With `plain`, no dealt hand holds a complete set that forced discards would take away, so the
    deal can be written as a scenario position."""
    sp = b.spec
    n, w = sp.n, sp.width
    mark = len(b.defs)
    dealer = int_var(f"{name}.dealer")
    dealt = [[int_var(f"{name}.dealt{s}_{i}") for i in range(w)] for s in range(n)]
    aside = [int_var(f"{name}.aside{i}") if sp.rules.aside_count else zero() for i in range(w)]
    stock = [int_var(f"{name}.stock{i}") if sp.uses_stock else zero() for i in range(w)]
    cons: list[Term] = [ge(dealer, 0), lt(dealer, n if sp.rules.dealer_by_lot else 1)]
    for s in range(n):
        cons += [ge(x, 0) for x in dealt[s]]
        cons.append(eq(total(dealt[s]), dealt_size(sp, s, dealer)))
    cons += [ge(x, 0) for x in aside if z3.is_const(x) and not z3.is_int_value(x)]
    cons += [ge(x, 0) for x in stock if z3.is_const(x) and not z3.is_int_value(x)]
    cons.append(eq(total(aside), sp.rules.aside_count))
    cons.append(eq(total(stock), sp.rules.stock_count))
    for i in range(w):
        cons.append(eq(plus(plus(total([dealt[s][i] for s in range(n)]), aside[i]), stock[i]), sp.deck[i]))
    if plain and sp.rules.set_size is not None and sp.rules.sets_forced and not sp.merged:
        for values in b.rank_values:
            cons += [lt(total([dealt[s][i] for i in values]), sp.rules.set_size) for s in range(n)]

    t = State()
    t.h = [list(row) for row in dealt]
    t.pile = [zero()] * w
    t.stock = list(stock)
    t.aside = list(aside)
    t.gone = [zero()] * w
    t.sets = [zero()] * w
    t.nsets = [zero()] * len(sp.set_ranks)
    t.inn = [true()] * n
    t.prev = num(-1)
    t.mode = num(FIRST)
    t.actor = zero()
    t.passes = zero()
    t.last = num(-1)
    t.turns = zero()
    t.dealer = dealer
    t.winner = num(-1)
    t.loser = num(-1)
    t.leading = true()
    t.over = t.capped = t.stuck = t.nodef = t.open = false()
    t.top = [zero()] * sp.width
    t.topcount = zero()
    if sp.rules.set_size is not None and sp.rules.sets_forced and not (plain and not sp.merged):
        for s in range(n):
            t.h[s] = b.discard_sets(t, t.h[s], [zero()] * len(sp.set_ranks), cons)

    holders: dict[int, z3.ArithRef] = {}
    facts: dict[object, Term] = {"dealer": dealer}
    asked = [q[1] for q in queries(sp.trees.first_player) if q[0] == "holder"]
    for card in (*asked, *(c for c in sp.held if c not in asked)):
        q = ("holder", card)
        hv = int_var(f"{name}.holder{card}")
        holders[card] = hv
        facts[q] = hv
        if sp.merged:  # which class the card is in is left open
            cons.append(or_(eq(hv, -1), and_(ge(hv, 0), lt(hv, n))))
            continue
        value = sp.rules.values if card >= 10_000 else (card % sp.rules.rank_count if sp.rules.by_rank else card)
        if value not in sp.live:
            cons.append(eq(hv, -1))
            continue
        i = sp.live.index(value)
        options = [and_(eq(hv, s), ge(dealt[s][i], 1)) for s in range(n)]
        options.append(and_(eq(hv, -1), ge(plus(aside[i], stock[i]), 1)))
        cons.append(or_(options))
    t.holder = {card: holders[card] for card in sp.held}
    first, defined = b.seat_rule(sp.trees.first_player, facts, t)
    first = ite(defined, first, pick(dealer, [num(sp.succ(d)) for d in range(n)]))
    for s in range(n):
        t = b.go_out(t, s, and_(eq(hand(t, s), 0), not_(t.over)))
    start = ite(pick(first, t.inn), first, next_in(sp, t, first))
    begun = b.begin_turn(t, start)
    cons += b.defs[mark:]
    return cons, merge(t.over, t, begun), Deal(dealer, dealt, aside, stock, holders)
