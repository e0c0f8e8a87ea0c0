"""The transition relation: one turn of the game as Z3 constraints between two states.

A step is one turn, as "How a rulebook is played" (docs/language.md) tells it:

- play and accept: the seat to play puts `cards` down calling `count` of `claim`; every other seat
  still in accepts; the play stands (an empty hand goes out) and the claimant's left plays next;
- play and challenge: the same play, then the seat `challenger` challenges with challenge kind
  `test` (the seats between them accepted first); the cards are judged, the loser picks up the
  pile or draws from the stock (and takes the pile too when the stock runs short, by
  `short_stock`), sets are discarded, empty hands go out, `next_player` plays;
- pass: the seat to play passes; when every seat still in has passed in a row the pile may leave
  the game and `all_pass_leader` leads a new round. With `window: before_next_play` at a table that
  passes, the last play stays open (`open`) until a play, a challenge or everyone passing: after a
  pass its responders are asked again, and a `challenger` (any seat from 0 up; -1 for none) may
  challenge it then, judged on the play's cards the state keeps apart (`top`, `topcount`).

After each, the next turn begins as the interpreter begins it: the turn cap, a turn-start win, and
"no legal action" (`stuck`). Every fact a step does not change is stated equal in the next state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import z3

from ..solving.terms import and_, eq, ge, gt, implies, int_var, le, lt, minus, ne, not_, or_, plus, times
from .spec import FOLLOW, LEAD, Spec
from .state import (
    State,
    Term,
    allowed,
    constant,
    count_true,
    equal,
    false,
    hand,
    hand_vector,
    holds,
    in_count,
    is_seat,
    ite,
    merge,
    next_in,
    num,
    pick,
    required_empty,
    required_id,
    set_hand,
    total,
    true,
    zero,
)
from .tabulate import Leaf, Tree

ACCEPT, CHALLENGE, PASS = 0, 1, 2
KIND_WORDS = {ACCEPT: "play, accepted", CHALLENGE: "play, challenged", PASS: "pass"}


@dataclass
class Action:
    """The choices of one step: which step, the cards and claim of a play, who challenges and how,
    the cards drawn from the stock, and the sets the loser of a challenge chooses to discard."""

    kind: Term
    cards: list[Term]
    claim: Term
    count: Term
    challenger: Term
    test: Term
    draws: list[Term]
    discards: list[Term]


def fresh_action(spec: Spec, name: str) -> Action:
    w = spec.width
    drawn = spec.uses_stock and not spec.rules.take_pile
    draws = [int_var(f"{name}.draw{i}") for i in range(w)] if drawn else [zero()] * w
    optional = spec.rules.set_size is not None and not spec.rules.sets_forced
    discards = [int_var(f"{name}.discard{r}") if optional else zero() for r in range(len(spec.set_ranks))]
    return Action(int_var(f"{name}.kind"), [int_var(f"{name}.card{i}") for i in range(w)], int_var(f"{name}.claim"),
                  int_var(f"{name}.count"), int_var(f"{name}.challenger"), int_var(f"{name}.test"), draws, discards)


def _int(v: Term) -> Term:
    return num(v) if isinstance(v, int) and not isinstance(v, bool) else v


class Builder:
    """Builds the constraints of a spec's steps; one builder serves every step of an unrolling."""

    def __init__(self, spec: Spec, name_terms: bool = True) -> None:
        self.spec = spec
        self.naming = name_terms
        self.defs: list[Term] = []
        self.fresh_count = 0
        self.opened: dict[tuple[Any, ...], Term] = {}
        self.resolution: dict[str, Term] = {}
        self.window_caught: Term | None = None  # the verdict of a challenge made after a pass, in the last pass step
        self.required_index = {frozenset(spec.claims[i] for i in s): k for k, s in enumerate(spec.req_sets)}
        r = spec.rules.rank_count
        self.rank_values: list[list[int]] = []
        for rank in spec.set_ranks:
            self.rank_values.append(sorted(i for i, v in enumerate(spec.live)
                                           if i != spec.joker_index and v % r == rank))

    def name(self, term: Term, label: str) -> Term:
        """`term`, or with named terms on, a fresh variable defined equal to it (one case split, not many)."""
        if not self.naming or not z3.is_expr(term) or z3.is_const(term):
            return term
        var = self.free(label, term.sort())
        self.defs.append(eq(var, term))
        return var

    def free(self, label: str, sort: z3.SortRef | None = None) -> Term:
        """A fresh variable; its constraints go to `defs`, which every caller asserts with the step."""
        self.fresh_count += 1
        return z3.Const(f"{label}!{self.fresh_count}", z3.IntSort() if sort is None else sort)

    # -- formulas ----------------------------------------------------------------------------

    def tree(self, tree: Tree, facts: dict[Any, Term], s: State, seat: Term, leaf: Any) -> Term:
        """The Z3 term of a tabulated formula, each branch point read in state `s` for `seat`."""
        if isinstance(tree, Leaf):
            return leaf(tree.value)
        query = tree.query
        branches = list(tree.branches)
        if query[0] == "fact" and not z3.is_expr(facts.get(query[1], None)) and query[1] in facts:
            value = facts[query[1]]
            for answer, sub in branches:
                if answer == value:
                    return self.tree(sub, facts, s, seat, leaf)
        # Answers leading to the same subtree share one test; the largest group is the default.
        groups: dict[Tree, list[Any]] = {}
        for answer, sub in branches:
            groups.setdefault(sub, []).append(answer)
        ordered = sorted(groups.items(), key=lambda g: len(g[1]))
        out = self.tree(ordered[-1][0], facts, s, seat, leaf)
        for sub, answers in reversed(ordered[:-1]):
            cond = or_([self._answer(query, a, facts, s, seat) for a in answers])
            out = ite(cond, self.tree(sub, facts, s, seat, leaf), out)
        return out

    def _answer(self, query: tuple[Any, ...], answer: Any, facts: dict[Any, Term], s: State, seat: Term) -> Term:
        kind = query[0]
        if kind == "in":
            term = s.inn[query[1]]
            return term if answer else not_(term)
        if kind == "holds":
            if self.spec.merged:  # the merged game does not know which cards pass as which claims
                key = ("holds", id(s), seat.get_id() if z3.is_expr(seat) else seat, query[1])
                if key not in self.opened:
                    got = self.free("holds")
                    self.defs += [ge(got, 0), le(got, hand(s, seat))]
                    self.opened[key] = got
                return eq(self.opened[key], answer)
            return eq(holds(self.spec, s, seat, query[1]), answer)
        if kind == "holder":  # the deal's own variable at the deal, the state's (kept since) later
            held = facts[query] if query in facts else s.holder[query[1]]
            return eq(held, -1 if answer is None else answer)
        name = query[1]
        if name == "hand":
            return eq(hand(s, seat), answer)
        if name == "leading":
            return s.leading if answer else not_(s.leading)
        if name == "required":
            if self.spec.merged and answer not in self.required_index:
                # Claims were merged too: which claims are asked for is left open.
                opened = ("required", id(s), None, None)
                if opened not in self.opened:
                    self.opened[opened] = self.free("required")
                return eq(self.opened[opened], hash(answer))
            return eq(required_id(self.spec, s), self.required_index[answer])
        if name == "dealer":
            return eq(s.dealer, answer)
        term = facts[name]
        if isinstance(answer, bool):
            return term if answer else not_(term)
        return eq(term, answer)

    def seat_rule(self, tree: Tree, facts: dict[Any, Term], s: State) -> tuple[Term, Term]:
        """(seat, defined) of a seat formula; an undefined result (no seat) reads as -1."""
        n = self.spec.n

        def leaf(v: Any) -> Term:
            ok = isinstance(v, int) and not isinstance(v, bool)
            return num(v % n if ok else -1)
        seat = self.tree(tree, facts, s, None, leaf)
        return seat, ge(seat, 0)

    def condition(self, tree: Tree, s: State, seat: Term) -> Term:
        """A condition formula of the seat to act (`turn_start_win`, `passing.when`)."""
        return self.tree(tree, {"dealer": s.dealer}, s, seat, lambda v: true() if v else false())

    def can_pass(self, s: State, seat: Term) -> Term:
        sp = self.spec
        if not sp.rules.may_pass:
            return false()
        out = true() if sp.rules.leader_may_pass else not_(s.leading)
        if sp.trees.pass_when is not None:
            out = and_(out, self.condition(sp.trees.pass_when, s, seat))
        return out

    # -- going out and the next turn ---------------------------------------------------------

    def go_out(self, s: State, seat: Term, cond: Term) -> State:
        """`seat` leaves the game when `cond`: the first out wins, or the last one holding cards loses."""
        if z3.is_false(cond):
            return s
        sp = self.spec
        seat = _int(seat)
        t = s.copy()
        if sp.rules.first_out:
            t.over = or_(s.over, cond)
            t.winner = ite(cond, seat, s.winner)
            return t
        t.inn = [and_(s.inn[i], not_(and_(cond, is_seat(seat, i)))) for i in range(sp.n)]
        t.winner = ite(and_(cond, eq(s.winner, -1)), seat, s.winner)
        left = in_count(t)
        if sp.trees.turn_start_win is not None:
            # A seat leaving a game that goes on puts the cards it still holds out of play.
            drop = and_(cond, gt(left, 1))
            row = hand_vector(s, seat)
            t.gone = [plus(g, ite(drop, v, zero())) for g, v in zip(s.gone, row)]
            set_hand(t, seat, [ite(drop, zero(), v) for v in row])
        ends = and_(cond, le(left, 1))
        t.over = or_(s.over, ends)
        remaining: Term = num(-1)
        for i in range(sp.n - 1, -1, -1):
            remaining = ite(t.inn[i], num(i), remaining)
        t.loser = ite(ends, remaining, s.loser)
        return t

    def begin_turn(self, s: State, seat: Term) -> State:
        """`seat` comes to play: the turn cap, turn-start wins (the next seat on), or no legal action."""
        sp = self.spec
        t = s.copy()
        if sp.turn_limit is not None:
            cap = ge(t.turns, sp.turn_limit)
            t.over = or_(t.over, cap)
            t.capped = or_(t.capped, cap)
        cur = _int(seat)
        if sp.trees.turn_start_win is None:
            cur = self.pass_over_empty(t, cur)
        else:
            active = not_(t.over)
            for _ in range(1 if sp.rules.first_out else sp.n):
                cur = self.pass_over_empty(t, cur)
                win = and_(active, self.condition(sp.trees.turn_start_win, t, cur))
                t = self.go_out(t, cur, win)
                cur = ite(win, next_in(sp, t, cur), cur)
                active = and_(win, not_(t.over))
        t.actor = cur
        rid = required_id(sp, t)
        cannot_play = or_(required_empty(sp, rid), lt(hand(t, cur), sp.rules.min_cards))
        stuck = and_(not_(t.over), cannot_play, not_(self.can_pass(t, cur)))
        if sp.rules.emptied_stays_in:  # passed over all the way round: no seat still in holds a card
            stuck = or_(stuck, and_(not_(t.over), eq(hand(t, cur), 0)))
        t.stuck = or_(t.stuck, stuck)
        t.over = or_(t.over, stuck)
        t.capped = or_(t.capped, stuck)
        return t

    def pass_over_empty(self, s: State, seat: Term) -> Term:
        """`emptied_by_sets: stays_in`: the first seat from `seat` on holding cards (turns pass by an
        empty hand); `seat` itself otherwise."""
        sp = self.spec
        if not sp.rules.emptied_stays_in:
            return seat
        for _ in range(sp.n - 1):
            seat = self.name(ite(eq(hand(s, seat), 0), next_in(sp, s, seat), seat), "passed_over")
        return seat

    # -- a play --------------------------------------------------------------------------------

    def play(self, s: State, a: Action) -> tuple[list[Term], State, Term]:
        """The guard of a play, the state with the cards on the pile, and the number of cards."""
        sp = self.spec
        x = a.cards
        m = total(x)
        row = hand_vector(s, s.actor)
        guard = [not_(s.over), allowed(sp, required_id(sp, s), a.claim), ge(m, sp.rules.min_cards)]
        guard += [and_(ge(xi, 0), le(xi, ri)) for xi, ri in zip(x, row)]
        if sp.rules.max_cards is not None:
            guard.append(le(m, sp.rules.max_cards))
        if sp.rules.exact:
            guard.append(eq(a.count, m))
        elif sp.rules.any_count and sp.rules.count_cap is not None:
            guard += [ge(a.count, sp.rules.min_cards), le(a.count, sp.rules.count_cap)]
        else:  # extra cards may be slipped in: the count called is at most the cards played
            guard += [ge(a.count, sp.rules.min_cards), le(a.count, m)]
        t = s.copy()
        set_hand(t, s.actor, [minus(r, xi) for r, xi in zip(row, x)])
        t.pile = [plus(p, xi) for p, xi in zip(s.pile, x)]
        t.prev = a.claim
        t.leading = false()
        t.open = false()
        if sp.rules.window_through_passes:  # the play's cards, kept apart while it may be challenged after a pass
            t.top = list(x)
            t.topcount = a.count
        if sp.rules.may_pass:
            t.passes = zero()
            t.last = s.actor
        if sp.turn_limit is not None:
            t.turns = plus(s.turns, 1)
        return guard, t, m

    def stands(self, t: State, claimant: Term) -> State:
        """The play stands: an empty hand goes out, then the claimant's left plays the next claim."""
        out = self.go_out(t, claimant, eq(hand(t, claimant), 0))
        out.mode = num(FOLLOW)
        if self.spec.rules.window_through_passes:
            out.open = and_(pick(claimant, out.inn), not_(out.over))
            out.top = [ite(out.open, x, zero()) for x in out.top]
            out.topcount = ite(out.open, out.topcount, zero())
        return merge(out.over, out, self.begin_turn(out, next_in(self.spec, out, claimant)))

    # -- a challenge ---------------------------------------------------------------------------

    def _match(self, i: int, claim: Term) -> Term:
        m = self.spec.matches[i]
        if not m:
            return false()
        if len(m) == len(self.spec.claims):
            return true()
        return or_([eq(claim, c) for c in sorted(m)])

    def caught_by_cards(self, x: list[Term], claim: Term, count: Term, m: Term) -> Term:
        """A challenge that turns the play `x` (called as `count` of `claim`, `m` cards) over: a card that does
        not pass as the claim, or a wrong count."""
        sp = self.spec
        if sp.merged:
            return self.free("caught", z3.BoolSort())
        if sp.rules.reveal_all:
            judged = [gt(xi, 0) for xi in x]
        else:  # only the top card: the play's highest value
            judged = [and_(gt(x[i], 0), *[eq(x[j], 0) for j in range(i + 1, len(x))]) for i in range(len(x))]
        bad = [and_(j, not_(self._match(i, claim))) for i, j in enumerate(judged)]
        caught = or_(bad) if bad else false()
        if sp.rules.count_judged:
            caught = or_(caught, ne(m, count))
        return caught

    def shown_by_hand(self, t: State, claimant: Term, claim: Term) -> tuple[Term, list[Term]]:
        """Force: (caught, card shown) when the claimant must show a card of the claim from hand."""
        sp = self.spec
        row = hand_vector(t, claimant)
        if sp.merged:  # caught or not, and if not, a card of some class is shown
            caught = self.free("caught", z3.BoolSort())
            shown = [self.free("shown") for _ in row]
            self.defs += [and_(x >= 0, x <= 1, x <= r) for x, r in zip(shown, row)]
            self.defs.append(total(shown) == ite(caught, zero(), num(1)))
            return caught, shown
        index = sp.claim_index
        natural_of = [index.get(v, -1) if i != sp.joker_index else -1 for i, v in enumerate(sp.live)]
        naturals = [and_(eq(claim, c), gt(row[i], 0)) for i, c in enumerate(natural_of) if c >= 0]
        natural = or_(naturals) if naturals else false()
        joker = gt(row[sp.joker_index], 0) if sp.rules.wild and sp.joker_index is not None else false()
        shown = []
        for i, c in enumerate(natural_of):
            if c >= 0:
                shown.append(ite(and_(natural, eq(claim, c), gt(row[i], 0)), num(1), zero()))
            elif i == sp.joker_index:
                shown.append(ite(and_(not_(natural), joker), num(1), zero()))
            else:
                shown.append(zero())
        return not_(or_(natural, joker)), shown

    def challenge(self, s: State, t1: State, a: Action, m: Term, window: bool = False) -> tuple[list[Term], State]:
        """The guard and the result of the play `t1` challenged by `a.challenger` with kind `a.test`; with
        `window`, of the last play (by `s.last`, of claim `s.prev`) challenged after the pass `t1`."""
        sp = self.spec
        claimant, ch = (s.last, a.challenger) if window else (s.actor, a.challenger)
        claim = s.prev if window else a.claim
        guard = [ge(ch, 0), lt(ch, sp.n), ne(ch, claimant), pick(ch, t1.inn), ge(a.test, 0),
                 lt(a.test, len(sp.by_hand))]
        if not sp.by_hand:
            guard.append(false())
        if sp.rules.at_once:
            guard.append(gt(hand(t1, claimant), 0))
        caught: Term = false()
        shown: list[Term] = [zero()] * sp.width
        for k in range(len(sp.by_hand) - 1, -1, -1):
            if sp.by_hand[k]:
                c_k, shown_k = self.shown_by_hand(t1, claimant, claim)
            elif window:  # the open play, kept apart from the pile beneath
                c_k, shown_k = self.caught_by_cards(s.top, claim, s.topcount, total(s.top)), [zero()] * sp.width
            else:
                c_k, shown_k = self.caught_by_cards(a.cards, a.claim, a.count, m), [zero()] * sp.width
            caught = c_k if k == len(sp.by_hand) - 1 else ite(eq(a.test, k), c_k, caught)
            shown = shown_k if k == len(sp.by_hand) - 1 else [ite(eq(a.test, k), x, y) for x, y in zip(shown_k, shown)]
        caught = self.name(caught, "caught")
        winner = self.name(ite(caught, ch, claimant), "winner")
        loser = self.name(ite(caught, claimant, ch), "loser")
        t = t1.copy()
        if sp.rules.window_through_passes:
            t.open = false()
            t.passes = zero()
            t.top = [zero()] * sp.width
            t.topcount = zero()
        # `failed_call: free`: only a caught claimant pays; a wrong call leaves every hand as it was (`unpaid`).
        free = sp.rules.failed_call_free
        unpaid = t.copy()
        payer = claimant if free else loser
        if not free and any(not (z3.is_int_value(x) and x.as_long() == 0) for x in shown):
            # The card shown goes from the claimant to the loser, who is the challenger.
            set_hand(t, claimant, [minus(h, x) for h, x in zip(hand_vector(t1, claimant), shown)])
            moved = t.copy()
            set_hand(moved, ch, [plus(h, x) for h, x in zip(hand_vector(t, ch), shown)])
            t = moved
        row = hand_vector(t, payer)
        gained: Term = total(shown)
        if sp.rules.take_pile:
            gained = plus(gained, total(t.pile))
            row = [plus(h, p) for h, p in zip(row, t.pile)]
            t.pile = [zero()] * sp.width
        else:
            d = a.draws
            short: Term = true()  # the stock cannot fill the draw (with no stock, it never can)
            if sp.uses_stock:
                guard += [and_(ge(di, 0), le(di, st)) for di, st in zip(d, t.stock)]
                stock = total(t.stock)
                short = lt(stock, sp.rules.draw)
                guard.append(eq(total(d), ite(short, stock, num(sp.rules.draw))))
                t.stock = [minus(st, di) for st, di in zip(t.stock, d)]
                row = [plus(h, di) for h, di in zip(row, d)]
                gained = plus(gained, total(d))
            if sp.rules.short_stock_takes_pile:  # `short_stock: take_pile`: then the loser takes the pile as well
                short = self.name(short, "short")
                row = [plus(h, ite(short, p, zero())) for h, p in zip(row, t.pile)]
                gained = plus(gained, ite(short, total(t.pile), zero()))
                if sp.rules.pile_after_discarded:
                    t.gone = [plus(g, ite(short, zero(), p)) for g, p in zip(t.gone, t.pile)]
                    t.pile = [zero()] * sp.width
                else:
                    t.pile = [ite(short, zero(), p) for p in t.pile]
            elif sp.rules.pile_after_discarded:
                t.gone = [plus(g, p) for g, p in zip(t.gone, t.pile)]
                t.pile = [zero()] * sp.width
        if sp.rules.round_ends_on_challenge:
            t.leading = true()
        by_sets: Term = false()
        if sp.rules.set_size is not None:
            row = [self.name(x, "picked") for x in row]
            before = total(t.nsets)
            row = self.discard_sets(t, row, a.discards, guard)
            by_sets = gt(total(t.nsets), before)
        set_hand(t, payer, row)
        if free:
            if sp.rules.pile_after_discarded:
                unpaid.gone = [plus(g, p) for g, p in zip(unpaid.gone, unpaid.pile)]
                unpaid.pile = [zero()] * sp.width
            if sp.rules.round_ends_on_challenge:
                unpaid.leading = true()
            t = merge(caught, t, unpaid)
            gained = ite(caught, gained, zero())
            by_sets = and_(caught, by_sets)
        self.resolution = {"caught": caught, "winner": winner, "loser": loser, "gained": gained, "by_sets": by_sets,
                           "paid": caught if free else true()}
        return guard, self.finish_resolution(t, claimant, ch, caught, winner, loser)

    def discard_sets(self, t: State, row: list[Term], chosen: Sequence[Term], guard: list[Term]) -> list[Term]:
        """Complete sets leave `row` (every one if forced, else `chosen` per rank); naturals first."""
        sp = self.spec
        size = sp.rules.set_size
        assert size is not None
        row = list(row)
        if sp.merged:  # some cards of each class make up k sets: which ones is left open
            sets = self.free("sets") if sp.rules.sets_forced else chosen[0]
            taken = [self.free("taken") for _ in row]
            guard += [ge(sets, 0), *[and_(ge(x, 0), le(x, r)) for x, r in zip(taken, row)], eq(total(taken), times(sets, size))]
            t.sets = [plus(a, x) for a, x in zip(t.sets, taken)]
            t.nsets = [plus(t.nsets[0], sets)]
            return [minus(r, x) for r, x in zip(row, taken)]
        j = sp.joker_index
        jokers_free = not sp.rules.sets_naturals_only and j is not None
        for r, values in enumerate(self.rank_values):
            naturals = total([row[i] for i in values])
            held = plus(naturals, row[j]) if jokers_free and j is not None else naturals
            most = (sum(sp.deck[i] for i in values) + (sp.deck[j] if jokers_free and j is not None else 0)) // size
            if sp.rules.sets_forced:
                k: Term = zero()
                for q in range(1, most + 1):
                    k = ite(ge(held, q * size), num(q), k)
                k = self.name(k, "sets")
            else:
                k = chosen[r]
                guard += [ge(k, 0), le(times(k, size), held)]
            need: Term = times(k, size)
            for i in values:
                take = ite(lt(row[i], need), row[i], need)
                t.sets[i] = plus(t.sets[i], take)
                row[i] = minus(row[i], take)
                need = minus(need, take)
            if jokers_free and j is not None:
                t.sets[j] = plus(t.sets[j], need)
                row[j] = minus(row[j], need)
            t.nsets[r] = plus(t.nsets[r], k)
        return row

    def leave_in_order(self, t: State, first: Term, cand: Sequence[Term]) -> State:
        """Seats with `cand` go out one by one in turn order from `first`, until one seat is left."""
        sp = self.spec
        n = sp.n

        def order(a: int) -> list[int]:
            return [sp.succ(a, i) for i in range(n)]

        def before(a: int) -> list[Term]:
            out: list[Term] = [zero()] * n
            for i, s in enumerate(order(a)):
                out[s] = total([ite(cand[o], num(1), zero()) for o in order(a)[:i]])
            return out

        def first_of(a: int) -> Term:
            out: Term = num(-1)
            for s in reversed(order(a)):
                out = ite(cand[s], num(s), out)
            return out

        c = constant(first)
        firsts = [first_of(a) for a in range(n)] if c is None else []
        earliest = first_of(c) if c is not None else pick(first, firsts)
        anyone = or_(list(cand))
        out = t.copy()
        if sp.rules.first_out:
            out.over = or_(t.over, anyone)
            out.winner = ite(anyone, earliest, t.winner)
            return out
        counts = before(c) if c is not None else [pick(first, [before(a)[s] for a in range(n)]) for s in range(n)]
        inside = in_count(t)
        goes = [and_(cand[s], ge(minus(inside, counts[s]), 2)) for s in range(n)]
        out.inn = [and_(t.inn[s], not_(goes[s])) for s in range(n)]
        out.winner = ite(and_(anyone, eq(t.winner, -1)), earliest, t.winner)
        ends = and_(anyone, le(minus(inside, count_true(cand)), 1))
        out.over = or_(t.over, ends)
        remaining: Term = num(-1)
        for s in range(n - 1, -1, -1):
            remaining = ite(out.inn[s], num(s), remaining)
        out.loser = ite(ends, remaining, t.loser)
        return out

    def finish_resolution(self, t: State, claimant: Term, ch: Term, caught: Term, winner: Term,
                          loser: Term) -> State:
        """Empty hands of the claimant and the loser go out (the claimant first; a caught claimant stays
        unless its sets emptied it, and with `emptied_by_sets: stays_in` a loser its sets emptied
        stays), then `next_player` plays. Any other seat holding nothing (a caught claimant of an
        earlier challenge, left so by a short stock) stays as it is."""
        sp = self.spec
        by_sets = self.resolution.get("by_sets", false())
        if sp.rules.emptied_stays_in:
            cand = [and_(t.inn[s], eq(hand(t, s), 0), or_(is_seat(claimant, s), is_seat(loser, s)),
                           not_(and_(is_seat(loser, s), by_sets)), not_(and_(is_seat(claimant, s), caught)))
                    for s in range(sp.n)]
        else:
            kept = [caught] if z3.is_false(by_sets) else [caught, not_(by_sets)]
            cand = [and_(t.inn[s], eq(hand(t, s), 0), or_(is_seat(claimant, s), is_seat(loser, s)),
                           not_(and_(is_seat(claimant, s), *kept)))
                    for s in range(sp.n)]
        out = self.leave_in_order(t, claimant, cand)
        facts = {"claimant": claimant, "challenger": ch, "winner": winner, "loser": loser, "caught": caught}
        nxt, defined = self.seat_rule(sp.trees.next_player, facts, out)
        nxt = ite(defined, nxt, claimant)
        nxt = ite(pick(nxt, out.inn), nxt, next_in(sp, out, nxt))
        go = out.copy()
        go.nodef = or_(out.nodef, not_(defined))
        go.mode = ite(go.leading, num(LEAD), num(FOLLOW))
        return merge(out.over, out, self.begin_turn(go, nxt))

    # -- a pass --------------------------------------------------------------------------------

    def pass_turn(self, s: State, a: Action | None = None) -> tuple[list[Term], State]:
        """The guard and the result of a pass; with `a`, where the last play is still open, `a.challenger`
        may challenge it after the pass (without, every responder lets it stand)."""
        sp = self.spec
        if not sp.rules.may_pass:
            return [false()], s
        guard = [not_(s.over), self.can_pass(s, s.actor)]
        t = s.copy()
        if sp.turn_limit is not None:
            t.turns = plus(s.turns, 1)
        t.passes = plus(s.passes, 1)
        everyone = ge(t.passes, in_count(s))
        if sp.rules.emptied_stays_in:  # seats passed over for an empty hand are not among the passes
            everyone = ge(t.passes, minus(in_count(s), count_true([and_(s.inn[i], eq(hand(s, i), 0)) for i in range(sp.n)])))
        on = self.begin_turn(t, next_in(sp, t, s.actor))
        if sp.rules.window_through_passes and sp.rules.kinds and a is not None:
            # The last play is asked about again: `a.challenger` >= 0 challenges it, -1 lets it stand.
            claimant = and_(ge(s.last, 0), lt(s.last, sp.n), pick(s.last, s.inn))
            called = self.name(and_(not_(everyone), s.open, claimant, ge(a.challenger, 0)), "called")
            kept = self.resolution
            ch_guard, challenged = self.challenge(s, t, a, zero(), window=True)
            self.window_caught = self.resolution["caught"]
            self.resolution = kept
            guard.append(implies(called, and_(ch_guard)))
            on = merge(called, challenged, on)
        return guard, merge(everyone, self.all_passed(t, s.actor), on)

    def all_passed(self, s: State, seat: Term) -> State:
        """Every seat still in passed in a row: the pile may leave; a new round may be led."""
        sp = self.spec
        t = s.copy()
        t.passes = zero()
        if sp.rules.window_through_passes:
            t.open = false()
            t.top = [zero()] * sp.width
            t.topcount = zero()
        if sp.rules.all_pass_discards:
            t.gone = [g + p for g, p in zip(t.gone, t.pile)]
            t.pile = [zero()] * sp.width
        if sp.rules.round_ends_on_all_pass and sp.trees.all_pass_leader is not None:
            last = ite(ge(t.last, 0), t.last, next_in(sp, t, seat))
            leader, defined = self.seat_rule(sp.trees.all_pass_leader, {"last_player": last}, t)
            leader = ite(defined, leader, last)
            leader = ite(pick(leader, t.inn), leader, next_in(sp, t, leader))
            t.nodef = or_(t.nodef, not_(defined))
            t.leading = true()
            t.mode = num(LEAD)
            return self.begin_turn(t, leader)
        return self.begin_turn(t, next_in(sp, t, seat))

    # -- the step ------------------------------------------------------------------------------

    def step(self, s: State, a: Action) -> tuple[Term, State]:
        """(the step is legal, the state after it) for the choices `a` in state `s`."""
        play_guard, t1, m = self.play(s, a)
        accepted = self.stands(t1, s.actor)
        ch_guard, challenged = self.challenge(s, t1, a, m)
        pass_guard, passed = self.pass_turn(s, a)
        legal = or_(and_(eq(a.kind, ACCEPT), *play_guard), and_(eq(a.kind, CHALLENGE), *play_guard, *ch_guard),
                      and_(eq(a.kind, PASS), *pass_guard))
        after = merge(eq(a.kind, ACCEPT), accepted, merge(eq(a.kind, CHALLENGE), challenged, passed))
        return legal, after

    def step_kind(self, s: State, a: Action, kind: int) -> tuple[Term, State]:
        """(legal, after) for one kind of step only: smaller terms, for checks split by kind."""
        if kind == PASS:
            guard, after = self.pass_turn(s, a)
            return and_(guard), after
        play_guard, t1, m = self.play(s, a)
        if kind == ACCEPT:
            return and_(play_guard), self.stands(t1, s.actor)
        ch_guard, after = self.challenge(s, t1, a, m)
        return and_(*play_guard, *ch_guard), after

    def transition(self, s: State, t: State, a: Action, only: Sequence[str] | None = None,
                   kind: int | None = None) -> list[Term]:
        """Constraints saying that `t` follows `s` by the legal step `a` (of one kind, if given);
        with `only`, just the named fields of `t` are constrained (a check reading no others)."""
        start = len(self.defs)
        if kind is None:
            legal, after = self.step(s, a)
        else:
            legal, after = self.step_kind(s, a, kind)
            legal = and_(legal, eq(a.kind, kind))
        return [legal, *self.defs[start:], *equal(t, after, only)]
