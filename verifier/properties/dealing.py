"""Properties of the deal and the first move: deal, consistency.

Hand sizes, cards set aside and the surplus are integers; each rule of the rulebook becomes one
constraint labelled with the place it was written, so an unsat core names the clashing lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any

import z3

from cheatdsl.derived import DealError, turn_step
from cheatdsl.expr import FactUnavailable
from cheatdsl.model import DealerChoice, DealStyle, PenaltyKind

from ..encoding.facts import NotConcrete, facts_for, holder_cards, seat_of
from ..encoding.subject import Subject
from ..solving.shortcuts import Raw
from ..solving.solver import ask, new_solver, truth
from ..solving.terms import eq, ge, int_value, int_var, le, plus
from .registry import register
from .verdict import Result, combine, proved, refuted, unknown

DEAL = "deal"
CONSISTENCY = "consistency"
MAX_ROWS = 20_000


@dataclass(frozen=True)
class Rule:
    """One rule as a constraint: its name in the rulebook, where it was written, and its meaning here."""

    name: str
    at: str
    constraint: z3.BoolRef


@dataclass
class DealVars:
    hands: list[z3.ArithRef]
    aside: z3.ArithRef
    surplus: z3.ArithRef


def deal_rules(subject: Subject, n: int) -> tuple[DealVars, list[Rule]]:
    """The deal's variables and the rules that constrain them at `n` players."""
    rb, t = subject.rb, subject.table(n)
    deal = rb.deal
    r = Raw()
    v = DealVars([r.int_var(f"hand_{i}") for i in range(n)], r.int_var("aside"), r.int_var("surplus"))
    h, a, x = v.hands, v.aside, v.surplus
    total = len(t.deck)
    deck_at = str(rb.deck.ranks_used.span if rb.deck.ranks_used is not None else rb.deck.packs.span)
    rules = [
        Rule("deck", deck_at, r.formula(r.eq(r.plus(r.plus(r.add(h), a), x), total))),
        Rule("deal.set_aside", str(deal.set_aside.span), r.formula(r.eq(a, t.set_aside))),
        Rule("deal.style", str(deal.span), r.formula(r.and_(r.ge(x, 0), *[r.ge(hi, 1) for hi in h]))),
    ]
    available = total - t.set_aside
    if deal.style is DealStyle.ALL:
        # Every card goes out one at a time from the dealer's left: hands fall by at most one, never rise.
        steps = [r.and_(r.ge(h[i], h[i + 1]), r.ge(h[i + 1], r.minus(h[i], 1))) for i in range(n - 1)]
        rules.append(Rule("deal.style", str(deal.span),
                          r.formula(r.and_(r.eq(x, 0), r.le(h[0], r.plus(h[-1], 1)), *steps))))
    else:
        each = r.int_var("each")
        rules.append(Rule("deal.style", str(deal.span), r.formula(r.and_(*[r.eq(hi, each) for hi in h]))))
        if deal.style is DealStyle.EQUAL:
            biggest = r.gt(r.times(r.plus(each, 1), n), available)
            if deal.hand_size is not None:
                cap = facts_for(deal.hand_size, n, cards=available)
                rules.append(Rule("deal.hand_size", str(deal.hand_size.span), r.formula(r.le(each, cap))))
                biggest = r.or_(biggest, r.eq(each, cap))
            rules.append(Rule("deal.style", str(deal.span),
                              r.formula(r.and_(r.le(r.times(each, n), available), biggest))))
            rules.append(Rule("deal.minimum_hand", str(deal.span), r.formula(r.ge(each, deal.minimum_hand))))
        else:
            assert deal.hand_size is not None
            size = facts_for(deal.hand_size, n, cards=available)
            rules.append(Rule("deal.hand_size", str(deal.hand_size.span), r.formula(r.eq(each, size))))
    return v, rules


def _hands_text(hands: tuple[int, ...] | list[int]) -> str:
    return f"{hands[0]} each" if len(set(hands)) == 1 else "/".join(map(str, hands))


def _deal_at(subject: Subject, n: int) -> Result:
    rb = subject.rb
    try:
        record = subject.rules(n)
    except DealError as exc:
        return refuted(DEAL, f"cannot deal: {exc.reason}", players=n)
    hands, left, set_aside = record.hand_sizes, record.surplus, record.table.set_aside
    v, rules = deal_rules(subject, n)
    s = new_solver()
    r = Raw()
    r.assert_(s, *[rule.constraint for rule in rules])
    fixed = [*(eq(hi, k) for hi, k in zip(v.hands, hands)), eq(v.aside, set_aside), eq(v.surplus, left)]
    a = ask(s, *fixed)
    if not a.sat:
        return unknown(DEAL, a.reason) if a.unknown else refuted(
            DEAL, f"dealing {_hands_text(hands)} breaks the deal rules", hands=list(hands))
    # The rules allow no other deal: the sizes are determined.
    s.push()
    r.assert_(s, r.or_([r.not_(f) for f in fixed]))
    other = ask(s)
    s.pop()
    if other.unknown:
        return unknown(DEAL, other.reason)
    if other.sat:
        alt = [int_value(other.model, hi) for hi in v.hands]
        return refuted(DEAL, f"the rules do not fix the deal: {_hands_text(hands)} and {_hands_text(alt)} both fit",
                       hands=list(hands), other=alt)
    stock = record.stock_count
    details: dict[str, Any] = {"hands": list(hands), "set_aside": set_aside,
                               "surplus": left, "surplus_to": rb.deal.surplus.value}
    gap = _first_player_gap(subject, n, s, fixed, v, details)
    if gap is not None:
        return gap
    if rb.challenge.penalty.kind is PenaltyKind.DRAW and stock < 1:
        return refuted(DEAL, f"{_hands_text(hands)} leaves no stock, so the draw penalty has nothing to draw",
                       **details)
    text = _hands_text(hands)
    if set_aside:
        text += f", {set_aside} set aside"
    if left:
        text += f", {left} {'in the stock' if stock else 'left aside'}"
    return proved(DEAL, text, **details)


Row = tuple[int, tuple[int | None, ...], int | None]


def _first_player_gap(subject: Subject, n: int, s: z3.Solver, fixed: list[z3.BoolRef], v: DealVars,
                      details: dict[str, Any]) -> Result | None:
    """A deal in which `first_player` names nobody (its card undealt, absent, or held twice), or None."""
    first, t = subject.rb.setup.first_player, subject.table(n)
    out_of_hands = t.set_aside + details["surplus"]
    cards = holder_cards(first, subject.rb)
    options: list[list[int | None]] = []
    for card in cards:
        copies = subject.copies_of_card(n, card)
        if copies > 1 and card in holder_cards(first, subject.rb, ("holder",)):
            return refuted(DEAL, f"`first_player: {first.text}` names the holder of the {subject.card_name(card)}, "
                           f"but the deck has {copies} and {copies} seats may hold one",
                           card=subject.card_name(card), copies=copies, at=str(first.span), **details)
        # Can every copy of the card be among the cards set aside or left over?
        undealt = int_var("undealt")
        s.push()
        s.add(*fixed, ge(undealt, 0), le(undealt, copies), le(undealt, plus(v.aside, v.surplus)), eq(undealt, copies))
        a = ask(s)
        s.pop()
        if a.unknown:
            return unknown(DEAL, a.reason)
        options.append([*(range(n) if copies else []), *([None] if a.sat else [])])
    leaders = _leaders(subject, n, cards, options)
    if isinstance(leaders, str):
        return unknown(DEAL, leaders)
    for dealer, held, seat in leaders:
        if seat is not None:
            continue
        where = [_placement(subject, n, c, h, out_of_hands) for c, h in zip(cards, held)]
        if not all(x is None for _, h, x in leaders if h == held):
            where.append(f"seat {dealer} deals")
        return refuted(DEAL, f"when {' and '.join(where) or 'the cards are dealt'}, `first_player: {first.text}` "
                       "names nobody", card=", ".join(subject.card_name(c) for c in cards), at=str(first.span),
                       **details)
    return None


def _placement(subject: Subject, n: int, card: int, holder: int | None, out_of_hands: int) -> str:
    name = subject.card_name(card)
    if holder is not None:
        return f"seat {holder} holds the {name}"
    if subject.copies_of_card(n, card) == 0:
        return f"the deck has no {name}"
    return f"the {name} is {'the one card' if out_of_hands == 1 else f'among the {out_of_hands} cards'} not dealt"


def _leaders(subject: Subject, n: int, cards: tuple[int, ...],
             options: list[list[int | None]]) -> list[Row] | str:
    """(dealer, holders of the named cards, first player) for every dealer and every way to hold those cards."""
    rb = subject.rb
    dealers = range(n) if rb.setup.dealer is DealerChoice.LOT else (0,)
    size = len(dealers)
    for o in options:
        size *= len(o)
    if size > MAX_ROWS:
        return "too many ways to seat the cards `first_player` names"
    rows: list[Row] = []
    for dealer in dealers:
        for held in product(*options):
            try:
                seat = seat_of(rb.setup.first_player, n, step=turn_step(rb), dealer=dealer,
                               holders=dict(zip(cards, held)))
            except NotConcrete as exc:
                return f"first_player depends on {exc}"
            rows.append((dealer, held, seat))
    return rows


def _deal_summary(by: Mapping[int, Result]) -> str:
    return "; ".join(f"{n}: {r.summary}" for n, r in sorted(by.items()))


@register(DEAL, "every player count in range deals as the rules say, and the first player is always dealt in")
def deal(subject: Subject) -> Result:
    by = {n: _deal_at(subject, n) for n in subject.counts}
    return combine(DEAL, by, _deal_summary)


def _consistency_at(subject: Subject, n: int) -> Result:
    rb = subject.rb
    v, rules = deal_rules(subject, n)
    space = subject.space(n)
    try:
        claims = subject.claim_rules(n)
    except FactUnavailable as exc:
        return unknown(CONSISTENCY, f"the first claim depends on {exc}")
    first = claims.first | claims.outside["first"]  # the deck's lack of a claim is a fact this check reports
    cards = holder_cards(rb.setup.first_player, rb)
    leaders = _leaders(subject, n, cards, [[*range(n), None] for _ in cards])
    if isinstance(leaders, str):
        return unknown(CONSISTENCY, leaders)
    deck_rule = "deck.ranks_used" if rb.deck.ranks_used is not None else "deck"
    deck_at = str(rb.deck.ranks_used.span if rb.deck.ranks_used is not None else rb.deck.span)
    r = Raw()
    leader, dealer, claim, count = (r.int_var(name) for name in ("leader", "dealer", "claim", "count"))
    holder = {c: r.int_var(f"holder_{c}") for c in cards}
    plays = r.bool_var("plays")
    # A pass that depends on the hand (`passing.when`) is not counted on as a first move.
    lead_pass = rb.passing.allowed and rb.passing.leader_may_pass and rb.passing.when is None
    dealers = n if rb.setup.dealer is DealerChoice.LOT else 1
    rules.append(Rule("setup.dealer", str(rb.setup.span), r.formula(r.and_(r.ge(dealer, 0), r.lt(dealer, dealers)))))
    # z3 terms kept in the list, not pointers: Z3 simplifies a term held twice differently (it caches
    # the result), so each row stays held while the solver reads it, as it always was.
    rows = [r.formula(r.and_(r.eq(dealer, d), *[r.eq(holder[c], -1 if h is None else h) for c, h in zip(cards, held)],
                             r.eq(leader, seat)))
            for d, held, seat in leaders if seat is not None]
    rules.append(Rule("setup.first_player", str(rb.setup.first_player.span),
                      r.formula(r.or_(rows) if rows else r.bool_val(False))))
    for c, hv in holder.items():
        copies = subject.copies_of_card(n, c)
        rules.append(Rule(deck_rule, deck_at, r.formula(r.implies(r.ge(hv, 0), r.bool_val(copies >= 1)))))
    first_claims = r.or_([r.eq(claim, c) for c in first]) if first else r.bool_val(False)
    rules.append(Rule("claim.first", str(rb.claim.first.span), r.formula(r.implies(plays, first_claims))))
    rules.append(Rule(deck_rule, deck_at,
                      r.formula(r.implies(plays, r.or_([r.eq(claim, c) for c in space.order])))))
    most = rb.claim.max_cards
    cards_played = r.and_(r.ge(count, rb.claim.min_cards), *([r.le(count, most)] if most else []))
    rules.append(Rule("claim.cards", str(rb.claim.span), r.formula(r.implies(plays, cards_played))))
    rules.append(Rule("passing", str(rb.passing.span), r.formula(r.or_(plays, r.bool_val(lead_pass)))))
    s = new_solver(cores=True)
    # Facts of the game itself, not rules of this rulebook: a seat holds a named card or nobody does
    # because it is out of the hands; a play comes from the leader's hand.
    for c, hv in holder.items():
        copies = subject.copies_of_card(n, c)
        r.assert_(s, r.ge(hv, -1), r.lt(hv, n),
                  r.implies(r.eq(hv, -1), r.or_(r.bool_val(copies == 0), r.ge(r.plus(v.aside, v.surplus), copies))))
    r.assert_(s, r.implies(plays, r.or_([r.and_(r.eq(leader, i), r.ge(v.hands[i], count)) for i in range(n)])))
    labels: dict[str, Rule] = {}
    for i, rule in enumerate(rules):
        label = f"r{i}"
        labels[label] = rule
        r.track(s, rule.constraint, r.bool_var(label))
    a = ask(s)
    if a.unknown:
        return unknown(CONSISTENCY, a.reason)
    if a.sat:
        m = a.model
        hands = [int_value(m, h) for h in v.hands]
        who = int_value(m, leader)
        if truth(m, plays):
            k = int_value(m, count)
            called = subject.claim_name(int_value(m, claim))
            move = f"seat {who} leads with {k} card{'s' if k != 1 else ''} called {called}"
        else:
            move = f"seat {who} passes"
        return proved(CONSISTENCY, "the rules admit a legal deal and a first move",
                      witness=f"hands {_hands_text(hands)}, dealer seat {int_value(m, dealer)}; {move}")
    clash: list[dict[str, str]] = []
    for label in a.core:
        rule = labels[label]
        item = {"rule": rule.name, "at": rule.at}
        if item not in clash:
            clash.append(item)
    named = " and ".join(f"{c['rule']} ({c['at']})" for c in clash)
    return refuted(CONSISTENCY, f"no legal deal and first move: {named} clash", clash=clash)


@register(CONSISTENCY, "the rules and the variations switched on admit a legal deal and a first move")
def consistency(subject: Subject) -> Result:
    by = {n: _consistency_at(subject, n) for n in subject.counts}
    return combine(CONSISTENCY, by)
