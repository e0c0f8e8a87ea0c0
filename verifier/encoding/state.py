"""The state of a game as counts, in Z3: cards of each value per seat and per place, and the turn.

A `State` holds one Z3 term per fact. `fresh(spec, name)` makes a state of variables; the
transition builder copies a state and replaces terms, so that everything it does not replace
stays equal (the frame conditions). Facts a rulebook cannot change are constants here (the stock
of a game with no stock is all zeros), so they cost nothing and need no frame condition.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import z3

from ..solving.shortcuts import truth_terms
from ..solving.terms import (
    all_of,
    and_,
    any_of,
    bool_var,
    eq,
    ge,
    int_constant,
    int_var,
    ite,
    lt,
    or_,
    sum_nonzero,
)
from .spec import FIRST, FOLLOW, LEAD, Spec

Term = Any  # a z3 expression, or a Python int/bool standing for a constant



def num(value: int) -> z3.ArithRef:
    """The numeral `value` in the current Z3 context, made once per context (kept on the context)."""
    ctx = z3.main_ctx()
    cache: dict[int, z3.ArithRef] | None = getattr(ctx, "cheatdsl_numbers", None)
    if cache is None:
        cache = {}
        ctx.cheatdsl_numbers = cache  # type: ignore[attr-defined]
    got = cache.get(value)
    if got is None:
        got = cache[value] = z3.IntVal(value)
    return got


def remembered(parts: tuple[Any, ...], build: Callable[[], Term]) -> Term:
    """`build()`, made once per Z3 context for the same `parts` (terms, numbers, names or objects such as
    a spec): big terms that many steps ask for again (the claims asked for after each previous claim)
    cost their construction once. The parts are kept with the term, so no id is reused meanwhile."""
    ctx = z3.main_ctx()
    cache: dict[tuple[Any, ...], tuple[Any, Term]] | None = getattr(ctx, "cheatdsl_terms", None)
    if cache is None:
        cache = {}
        ctx.cheatdsl_terms = cache  # type: ignore[attr-defined]
    key = tuple((0, p.get_id()) if z3.is_expr(p) else (1, p) if isinstance(p, (int, str)) else (2, id(p))
                for p in parts)
    got = cache.get(key)
    if got is None:
        got = cache[key] = (parts, build())
    return got[1]


def zero() -> z3.ArithRef:
    """0 in the current Z3 context (made anew per context, so that no term outlives its context)."""
    return num(0)


def true() -> z3.BoolRef:
    """`true` in the current Z3 context (one term per context, made once)."""
    return truth_terms(z3.main_ctx())[0]


def false() -> z3.BoolRef:
    """`false` in the current Z3 context."""
    return truth_terms(z3.main_ctx())[1]

VECTORS = ("pile", "stock", "aside", "gone", "sets", "top")
SCALARS = ("prev", "mode", "actor", "passes", "last", "turns", "dealer", "winner", "loser", "topcount")
FLAGS = ("leading", "over", "capped", "stuck", "nodef", "open")
CARDS = ("h", *VECTORS, "nsets")


class State:
    """One game state: `h[seat][i]` cards of live value i in a hand; per-value vectors for the pile,
    stock, cards set aside, cards gone out of play unseen and cards in discarded sets; `nsets[r]`
    sets of rank r discarded; the last claim `prev` (-1 before any), the claim `mode` (first,
    follow, lead), the seat to act, passes in a row, the last seat to play, turns played, the
    dealer, seats still `inn`, the winner and loser (-1 for none), and whether the game is over,
    stopped (`capped`), stuck with no legal action, or led by a rule that named no seat (`nodef`);
    `holder[card]` is the seat dealt each card a seat formula asks about (`Spec.held`, -1 for
    nobody), fixed by the deal for the whole game; and whether the last play stood and may still be
    challenged after a pass (`open`), with that play's cards `top` (a part of the pile, counted there
    too) and the count called, `topcount` (zero when not open)."""

    h: list[list[Term]]
    pile: list[Term]
    stock: list[Term]
    aside: list[Term]
    gone: list[Term]
    sets: list[Term]
    top: list[Term]
    nsets: list[Term]
    inn: list[Term]
    prev: Term
    mode: Term
    actor: Term
    passes: Term
    last: Term
    turns: Term
    dealer: Term
    winner: Term
    loser: Term
    topcount: Term
    leading: Term
    over: Term
    capped: Term
    stuck: Term
    nodef: Term
    holder: dict[int, Term] = {}  # never changed in place: every state of a game shares it
    open: Term

    def copy(self) -> State:
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        other.h = [list(row) for row in self.h]
        for name in (*VECTORS, "nsets", "inn"):
            setattr(other, name, list(getattr(self, name)))
        return other

    def items(self) -> Iterator[tuple[str, str, Term]]:
        """Every fact as (field, name, term): vectors flattened, each with its index in the name."""
        for s, row in enumerate(self.h):
            for i, term in enumerate(row):
                yield "h", f"h{s}_{i}", term
        for name in (*VECTORS, "nsets", "inn"):
            for i, term in enumerate(getattr(self, name)):
                yield name, f"{name}{i}", term
        for name in (*SCALARS, *FLAGS):
            yield name, name, getattr(self, name)
        for card, term in self.holder.items():
            yield "holder", f"holder{card}", term


def fresh(spec: Spec, name: str) -> State:
    """A state of fresh Z3 variables named `name.<fact>`; facts the rules cannot change are constants."""
    n, w = spec.n, spec.width

    def ints(label: str, count: int, used: bool = True) -> list[Term]:
        return [int_var(f"{name}.{label}{i}") if used else zero() for i in range(count)]

    s = State()
    s.h = [ints(f"h{seat}_", w) for seat in range(n)]
    s.pile = ints("pile", w)
    s.stock = ints("stock", w, spec.uses_stock)
    s.aside = ints("aside", w, spec.rules.aside_count > 0)
    s.gone = ints("gone", w, spec.uses_gone)
    s.sets = ints("sets", w, spec.rules.set_size is not None)
    s.nsets = ints("nsets", len(spec.set_ranks), spec.rules.set_size is not None)
    s.inn = [bool_var(f"{name}.in{i}") if spec.seats_leave else true() for i in range(n)]
    s.prev = int_var(f"{name}.prev")
    s.mode = int_var(f"{name}.mode")
    s.actor = int_var(f"{name}.actor")
    s.passes = int_var(f"{name}.passes") if spec.rules.may_pass else zero()
    s.last = int_var(f"{name}.last") if spec.rules.may_pass else num(-1)
    s.turns = int_var(f"{name}.turns") if spec.turn_limit is not None else zero()
    s.dealer = int_var(f"{name}.dealer")
    s.winner = int_var(f"{name}.winner")
    s.loser = int_var(f"{name}.loser") if not spec.rules.first_out else num(-1)
    s.leading = bool_var(f"{name}.leading")
    s.over = bool_var(f"{name}.over")
    s.capped = bool_var(f"{name}.capped")
    s.stuck = bool_var(f"{name}.stuck")
    s.nodef = bool_var(f"{name}.nodef")
    s.holder = {card: int_var(f"{name}.holder{card}") for card in spec.held}
    s.open = bool_var(f"{name}.open") if spec.rules.window_through_passes else false()
    s.top = ints("top", w, spec.rules.window_through_passes)
    s.topcount = int_var(f"{name}.topcount") if spec.rules.window_through_passes else zero()
    return s


def equal(a: State, b: State, only: Sequence[str] | None = None) -> list[z3.BoolRef]:
    """a == b fact by fact (only the fields named, if given: `h`, `pile`, `actor` ...); a fact that is
    the same term on both sides needs no constraint."""
    out = []
    for (field, _, x), (_, _, y) in zip(a.items(), b.items()):
        if only is not None and field not in only:
            continue
        if x is y or (z3.is_expr(x) and z3.is_expr(y) and x.eq(y)):
            continue
        out.append(eq(x, y))
    return out


# -- small builders ------------------------------------------------------------------------------

# `ite(cond, a, b)` (from `terms`): If(cond, a, b), folded when the branches are the same term or the
# condition is constant.


def merge(cond: Term, a: State, b: State) -> State:
    """The state that is `a` when `cond` holds and `b` otherwise, fact by fact."""
    if z3.is_true(cond):
        return a
    if z3.is_false(cond):
        return b
    out = b.copy()
    out.h = [[ite(cond, x, y) for x, y in zip(ra, rb)] for ra, rb in zip(a.h, b.h)]
    for name in (*VECTORS, "nsets", "inn"):
        setattr(out, name, [ite(cond, x, y) for x, y in zip(getattr(a, name), getattr(b, name))])
    for name in (*SCALARS, *FLAGS):
        setattr(out, name, ite(cond, getattr(a, name), getattr(b, name)))
    return out


def constant(term: Term) -> int | None:
    """The value of a seat or count given as a Python int or a Z3 numeral, else None."""
    if isinstance(term, int) and not isinstance(term, bool):
        return term
    return int_constant(term)


def is_seat(seat: Term, s: int) -> Term:
    """seat == s, folded for a seat given as a constant."""
    c = constant(seat)
    if c is not None:
        return true() if c == s else false()
    return eq(seat, s)


def pick(seat: Term, items: Sequence[Term]) -> Term:
    """items[seat] for a seat that is a Z3 term (an If chain) or a constant."""
    c = constant(seat)
    if c is not None:
        return items[c] if 0 <= c < len(items) else items[-1]
    out = items[-1]
    for s in range(len(items) - 2, -1, -1):
        out = ite(eq(seat, s), items[s], out)
    return out


def total(terms: Sequence[Term]) -> Term:
    """The sum of the terms that are not the numeral 0, made as `z3.Sum` makes it."""
    return sum_nonzero(terms, zero())


def count_true(flags: Sequence[Term]) -> Term:
    return total([ite(f, num(1), zero()) for f in flags])


def hand(s: State, seat: Term) -> Term:
    """Cards held by `seat`."""
    c = constant(seat)
    if c is not None:  # the same term `pick` gives, without summing every other hand
        return total(s.h[c] if 0 <= c < len(s.h) else s.h[-1])
    return pick(seat, [total(row) for row in s.h])


def hand_vector(s: State, seat: Term) -> list[Term]:
    return [pick(seat, [s.h[t][i] for t in range(len(s.h))]) for i in range(len(s.h[0]))]


def set_hand(s: State, seat: Term, vector: Sequence[Term]) -> None:
    """Give `seat` the hand `vector`, every other hand unchanged."""
    for t in range(len(s.h)):
        cond = is_seat(seat, t)
        s.h[t] = [ite(cond, v, old) for v, old in zip(vector, s.h[t])]


def in_count(s: State) -> Term:
    return count_true(s.inn)


def next_in(spec: Spec, s: State, seat: Term) -> Term:
    """The next seat in turn order still in the game (the seat itself when it is the only one)."""
    def after(a: int) -> Term:
        out: Term = num(a)
        for i in range(spec.n - 1, 0, -1):
            t = spec.succ(a, i)
            out = ite(s.inn[t], num(t), out)
        return out
    if isinstance(seat, int):
        return after(seat)
    return pick(seat, [after(a) for a in range(spec.n)])


def required_id(spec: Spec, s: State) -> Term:
    """The index in `spec.req_sets` of the claims allowed for the next play."""
    return remembered(("required", spec, s.prev, s.mode), lambda: _required_id(spec, s.prev, s.mode))


def _required_id(spec: Spec, prev: Term, mode: Term) -> Term:
    tests: dict[int, Term] = {}  # prev == p, made once for both tables and only where a table changes

    def by_prev(table: Sequence[int], none: int) -> Term:
        out: Term = num(none)
        for p in range(len(table) - 1, -1, -1):
            value = num(table[p])
            if value is out:
                continue
            if p not in tests:
                tests[p] = eq(prev, p)
            out = ite(tests[p], value, out)
        return out
    follow = by_prev(spec.required.follow, spec.required.first)
    lead = by_prev(spec.required.lead, spec.required.lead_none)
    return ite(eq(mode, FIRST), num(spec.required.first), ite(eq(mode, FOLLOW), follow, lead))


def allowed(spec: Spec, rid: Term, claim: Term) -> Term:
    """Whether claim index `claim` is among the required set `rid`."""
    return remembered(("allowed", spec, rid, claim), lambda: _allowed(spec, rid, claim))


def _allowed(spec: Spec, rid: Term, claim: Term) -> Term:
    options = []
    tests: dict[int, Term] = {}  # claim == c, made once for every set it is in
    for i, claims in enumerate(spec.req_sets):
        if not claims:
            continue
        if len(claims) == len(spec.claims):
            inside: Term = and_(ge(claim, 0), lt(claim, len(spec.claims)))
        else:
            for c in claims:
                if c not in tests:
                    tests[c] = eq(claim, c)
            inside = any_of([tests[c] for c in sorted(claims)])
        options.append(all_of([eq(rid, i), inside]))
    return any_of(options) if options else false()


def required_empty(spec: Spec, rid: Term) -> Term:
    empty = [i for i, claims in enumerate(spec.req_sets) if not claims]
    return or_([eq(rid, i) for i in empty]) if empty else false()


def holds(spec: Spec, s: State, seat: Term, claim_values: frozenset[int]) -> Term:
    """Cards of `seat` that pass as one of these claims (wild jokers count), as `holds()` reads it."""
    row = hand_vector(s, seat)
    parts = [row[i] for i, v in enumerate(spec.live) if v in claim_values and i != spec.joker_index]
    if spec.rules.wild and claim_values and spec.joker_index is not None:
        parts.append(row[spec.joker_index])
    return total(parts)


__all__ = ["FIRST", "FOLLOW", "LEAD", "State", "fresh", "equal", "merge", "ite", "pick", "hand", "next_in"]
