"""A rulebook at one table as finite tables: the only input the Z3 encoding reads.

Everything a rule decides is looked up here: which claims are allowed after which, which card
passes as which claim, who plays after a challenge (a decision tree, see `tabulate.py`), how many
cards each seat is dealt. Two rulebooks with equal specs at a player count play the same game there,
so a spec is also the key under which verdicts are cached.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from cheatdsl.cards import Table
from cheatdsl.derived import DealError, TableRules, holder_answers
from cheatdsl.expr import FactUnavailable
from cheatdsl.model import ChallengeTest, Rulebook

from .tabulate import Tree, queries, tabulate

FIRST, FOLLOW, LEAD = 0, 1, 2


@dataclass(frozen=True)
class Spec:
    """The tables of one rulebook at one player count. Seats are 0..players-1 in turn order.

    Every table is read from `cheatdsl.derived.TableRules`, as the interpreter's `Game` reads it.
    Card values are those of the interpreter (`Game.card_values`): a rank index, or an exact card
    `suit * ranks + rank`, and `values` for the joker. `live` lists the values the deck holds; every
    per-card vector of the encoding is indexed by position in `live`. Claims are indexed by their
    position in claim order; `req_sets` lists every distinct set of claims a play may be asked for.
    """

    players: int
    step: int
    by_rank: bool
    rank_count: int
    values: int
    live: tuple[int, ...]
    deck: tuple[int, ...]
    wild: bool
    claims: tuple[int, ...]
    matches: tuple[frozenset[int], ...]
    req_sets: tuple[frozenset[int], ...]
    first: int
    follow: tuple[int, ...]
    lead: tuple[int, ...]
    lead_none: int
    min_cards: int
    max_cards: int | None
    exact: bool
    any_count: bool
    count_cap: int | None
    count_judged: bool
    reveal_all: bool
    kinds: tuple[tuple[str, bool], ...]
    take_pile: bool
    draw: int
    pile_discarded: bool
    round_ends_challenge: bool
    round_ends_all_pass: bool
    may_pass: bool
    leader_may_pass: bool
    all_pass_discards: bool
    all_pass_leader: Tree | None
    pass_when: Tree | None
    next_player: Tree
    set_size: int | None
    sets_forced: bool
    sets_naturals_only: bool
    ranks_in_play: tuple[int, ...]
    first_out: bool
    at_once: bool
    turn_start_win: Tree | None
    turn_cap: int | None
    hand_sizes: tuple[int, ...]
    aside_count: int
    stock_count: int
    dealer_by_lot: bool
    first_player: Tree
    emptied_stays_in: bool = False  # `ending.emptied_by_sets: stays_in` (with sets): empty seats are passed over
    short_stock_takes_pile: bool = False  # `penalty.short_stock: take_pile`: a draw the stock cannot fill takes the pile too
    window_through_passes: bool = False  # `window: before_next_play` with passing: a pass leaves the last play open
    merged: bool = False
    held: tuple[int, ...] = ()  # the cards whose holder a formula read after the deal asks (`holder`, `dealt`)

    @property
    def n(self) -> int:
        return self.players

    @property
    def width(self) -> int:
        return len(self.live)

    @property
    def total(self) -> int:
        return sum(self.deck)

    @cached_property
    def joker_index(self) -> int | None:
        """The position of the joker in `live`, or None."""
        return self.live.index(self.values) if self.values in self.live else None

    def rank_of(self, i: int) -> int:
        """The rank of the live value at position `i` (-1 for the joker)."""
        v = self.live[i]
        return -1 if v == self.values else v % self.rank_count

    @cached_property
    def seats_leave(self) -> bool:
        """Whether seats go out while the game goes on."""
        return not self.first_out

    @cached_property
    def uses_stock(self) -> bool:
        return self.stock_count > 0

    @cached_property
    def uses_gone(self) -> bool:
        """Whether cards can leave the game unseen (discarded piles, hands of seats going out)."""
        return ((self.may_pass and self.all_pass_discards) or (not self.take_pile and self.pile_discarded)
                or (self.turn_start_win is not None and not self.first_out))

    @cached_property
    def claim_index(self) -> dict[int, int]:
        return {v: i for i, v in enumerate(self.claims)}

    def succ(self, seat: int, places: int = 1) -> int:
        return (seat + self.step * places) % self.players


def merge_values(spec: Spec, keep: tuple[int, ...] = ()) -> Spec:
    """The abstraction of `spec` in which card values are merged: each value in `keep` (positions in
    `live`) stays a class of its own, every other value joins one class. What a challenge finds,
    what `holds` counts and which cards make a set are left open (any answer), so whatever holds of
    every play of the merged game holds of every play of the real one."""
    classes = [spec.deck[i] for i in keep]
    rest = spec.total - sum(classes)
    if rest or not classes:
        classes.append(rest)
    out = replace(spec, live=tuple(range(len(classes))), deck=tuple(classes), values=len(classes),
                  wild=False, matches=tuple(frozenset() for _ in classes), ranks_in_play=(0,), merged=True)
    if all(spec.req_sets):
        # Which claim is asked for then matters to nothing left: every step may claim the one claim.
        out = replace(out, claims=(0,), req_sets=(frozenset([0]),), first=0, follow=(0,), lead=(0,), lead_none=0)
    return out


class SpecError(Exception):
    """The rules cannot be tabulated at this table (a formula reads too much, or the deal fails)."""


class FormulaUnavailable(SpecError, FactUnavailable):
    """A seat or condition formula reads a fact its place does not give (`holds` where no seat acts)."""


def build_spec(rb: Rulebook, n: int, table: Table | None = None) -> Spec:
    """The spec of `rb` at `n` players; SpecError when the table cannot be dealt or tabulated.

    What the rules imply at the table comes from `TableRules`, as the interpreter's `Game` reads it;
    here it is laid out as the encoding's tables, and the seat formulas are tabulated."""
    try:
        rules = TableRules(rb, n, table)
    except DealError as exc:
        raise SpecError(f"cannot deal: {exc.reason}") from None
    t, space = rules.table, rules.space
    values = rules.values
    live = tuple(v for v, count in enumerate(rules.deck_counts) if count)
    claims = tuple(rules.claim_order)
    index = {v: i for i, v in enumerate(claims)}
    matches = tuple(frozenset(index[c] for c in rules.passes_as(v)) for v in live)
    step = rules.step

    sets: list[frozenset[int]] = []

    def rid(values_set: frozenset[int]) -> int:
        s = frozenset(index[v] for v in values_set)
        if s not in sets:
            sets.append(s)
        return sets.index(s)

    first = rid(rules.first)
    follow = tuple(rid(rules.follow[v]) for v in claims)
    lead = tuple(rid(rules.lead[v]) for v in claims)
    lead_none = rid(rules.lead_none)
    req_sets = tuple(sets)
    required_values = [frozenset(claims[i] for i in s) for s in req_sets]

    hand_max = len(t.deck)
    first_out = rules.first_out
    kinds = tuple((kind.name, kind.test is ChallengeTest.HAND) for kind in rules.kinds)

    def seat_tree(place: str, code: Any, domains: dict[str, Any], seats_out: bool, acting: bool = False) -> Tree:
        # `holder` reads the deal where a seat is chosen; `holds` where a seat acts, as in the interpreter.
        try:
            return tabulate(code, n, step, space, domains, seats_out=seats_out, hand_max=hand_max,
                            holder_answers=None if acting else lambda card: holder_answers(t, card), acting=acting)
        except FactUnavailable as exc:
            raise FormulaUnavailable(f"`{place}` reads {exc}, which is not known there") from None

    seats = range(n)
    turn_domains = {"hand": range(hand_max + 1), "leading": (False, True), "required": required_values}
    next_player = seat_tree("next_player", rules.next_player.code,
                            {"claimant": seats, "challenger": seats, "winner": seats, "loser": seats,
                             "caught": (False, True), "dealer": seats}, not first_out)
    all_pass_leader = None
    if rules.all_pass_leader is not None:
        all_pass_leader = seat_tree("all_pass_leader", rules.all_pass_leader.code,
                                    {"last_player": seats, "dealer": seats}, not first_out)
    pass_when = None
    if rules.pass_when is not None:
        pass_when = seat_tree("passing.when", rules.pass_when.code, {**turn_domains, "dealer": seats},
                              not first_out, acting=True)
    tsw = None
    if rules.turn_start_win is not None:
        tsw = seat_tree("turn_start_win", rules.turn_start_win.code, {**turn_domains, "dealer": seats},
                        not first_out, acting=True)
    first_player = seat_tree("first_player", rules.first_player.code, {"dealer": seats}, False)
    later = [tree for tree in (next_player, all_pass_leader, pass_when, tsw) if tree is not None]
    held = tuple(sorted({q[1] for tree in later for q in queries(tree) if q[0] == "holder"}))
    return Spec(
        players=n, step=step, by_rank=rules.by_rank, rank_count=rules.rank_count, values=values, live=live,
        deck=tuple(rules.deck_counts[v] for v in live), wild=rules.wild, claims=claims, matches=matches,
        req_sets=req_sets, first=first, follow=follow, lead=lead, lead_none=lead_none, min_cards=rules.min_cards,
        max_cards=rules.max_cards, exact=rules.exact, any_count=rules.any_count, count_cap=rules.count_cap,
        count_judged=rules.count_judged, reveal_all=rules.reveal_all, kinds=kinds, take_pile=rules.take_pile,
        draw=rules.draw, pile_discarded=rules.pile_after_discarded,
        round_ends_challenge=rules.round_ends_on_challenge, round_ends_all_pass=rules.round_ends_on_all_pass,
        may_pass=rules.may_pass, leader_may_pass=rules.leader_may_pass, all_pass_discards=rules.all_pass_discards,
        all_pass_leader=all_pass_leader, pass_when=pass_when, next_player=next_player, set_size=rules.set_size,
        sets_forced=rules.sets_forced, sets_naturals_only=rules.sets_naturals_only,
        ranks_in_play=rules.ranks_in_play, first_out=first_out, at_once=rules.at_once, turn_start_win=tsw,
        turn_cap=rules.turn_cap, hand_sizes=rules.hand_sizes, aside_count=rules.aside_count,
        stock_count=rules.stock_count, dealer_by_lot=rules.dealer_by_lot, first_player=first_player,
        emptied_stays_in=rules.emptied_stays_in, short_stock_takes_pile=rules.short_stock_takes_pile, held=held,
        window_through_passes=rules.window_through_passes,
    )
