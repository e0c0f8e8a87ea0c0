"""A rulebook at one table as finite tables: the only input the Z3 encoding reads.

A spec holds the table's rules record (`cheatdsl.derived.TableRules`, as the interpreter's `Game` holds
it) and adds only what is the encoding's own: the card and claim classes its vectors are indexed by,
the sets of claims a play may be asked for, and the seat formulas tabulated as decision trees (see
`tabulate.py`). Every consequence of a rule is read from `spec.rules` under the record's own name. Two
rulebooks with equal specs at a player count play the same game there, so a spec is also the key under
which verdicts are cached (`key`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from cheatdsl.cards import Table
from cheatdsl.derived import DealError, TableRules, holder_answers
from cheatdsl.expr import FactUnavailable
from cheatdsl.model import ChallengeTest, Rulebook

from .tabulate import Tree, queries, tabulate

FIRST, FOLLOW, LEAD = 0, 1, 2

# The rules record's fields the encoding reads, which with the spec's own fields make up its key: two
# tables that agree on all of them are one game to the encoding. (`tests/test_derivation.py` checks that
# every field the verifier reads of `spec.rules` is here or stands for something the spec's own fields
# hold.)
KEY_FIELDS = (
    "players", "step", "by_rank", "rank_count", "min_cards", "max_cards", "exact", "any_count", "count_cap",
    "count_judged", "reveal_all", "take_pile", "draw", "pile_after_discarded", "round_ends_on_challenge",
    "round_ends_on_all_pass", "may_pass", "leader_may_pass", "all_pass_discards", "set_size", "sets_forced",
    "sets_naturals_only", "first_out", "at_once", "turn_cap", "hand_sizes", "aside_count", "stock_count",
    "dealer_by_lot", "emptied_stays_in", "short_stock_takes_pile", "window_through_passes",
    "failed_call_free",
)


@dataclass(frozen=True)
class Required:
    """The claims a play may be asked for, each as a position in `Spec.req_sets`: the first claim of the
    game, a follow of each claim (by position in `Spec.claims`), a lead after each, and a lead with
    nothing claimed before it."""

    first: int
    follow: tuple[int, ...]
    lead: tuple[int, ...]
    lead_none: int


@dataclass(frozen=True)
class Trees:
    """The rules record's seat and condition formulas tabulated as decision trees (`tabulate.py`); None
    where the rules have no such formula in force."""

    next_player: Tree
    first_player: Tree
    all_pass_leader: Tree | None
    pass_when: Tree | None
    turn_start_win: Tree | None


@dataclass(frozen=True, eq=False)
class Spec:
    """The tables of one rulebook at one player count. Seats are 0..players-1 in turn order.

    `rules` is the table's rules record. Card values are those of the interpreter (`Game.card_values`):
    a rank index, or an exact card `suit * ranks + rank`, and `rules.values` for the joker. `live` lists
    the values the deck holds and `deck` how many cards of each; every per-card vector of the encoding is
    indexed by position in `live`, and `matches` gives the claims (positions in `claims`) each passes as.
    Claims are indexed by their position in claim order; `req_sets` lists every distinct set of claims a
    play may be asked for, and `required` which one is asked for when. `held` lists the cards whose
    holder a formula read after the deal asks (`holder`, `dealt`). A spec made by `merge_values` has
    `merged` set: its card and claim classes are not the record's values and claims. `capped_at`, when
    given, is the turn cap the encoding steps with instead of `rules.turn_cap` (a Z3 variable where one
    step serves games stopped at any cap). `answers` keeps what the encoding has worked out about this
    table alone (whether its seat formulas treat every seat alike), so it is asked once a spec.
    """

    rules: TableRules
    live: tuple[int, ...]
    deck: tuple[int, ...]
    claims: tuple[int, ...]
    matches: tuple[frozenset[int], ...]
    req_sets: tuple[frozenset[int], ...]
    required: Required
    trees: Trees
    merged: bool = False
    held: tuple[int, ...] = ()
    capped_at: Any = None
    answers: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def n(self) -> int:
        return self.rules.players

    @property
    def width(self) -> int:
        return len(self.live)

    @property
    def total(self) -> int:
        return sum(self.deck)

    @property
    def turn_limit(self) -> Any:
        """The turn cap the encoding steps with: `capped_at` when given, else the rules' (None: no cap)."""
        return self.rules.turn_cap if self.capped_at is None else self.capped_at

    @cached_property
    def joker_index(self) -> int | None:
        """The position of the joker in `live`, or None (always None in a merged spec, whose classes
        are all natural cards)."""
        joker = self.rules.values
        return None if self.merged or joker not in self.live else self.live.index(joker)

    @cached_property
    def set_ranks(self) -> tuple[int, ...]:
        """The ranks whose discarded sets the state counts one by one: the ranks in play, or in a merged
        spec (where which cards make a set is left open) one count for every set."""
        return (0,) if self.merged else self.rules.ranks_in_play

    @cached_property
    def by_hand(self) -> tuple[bool, ...]:
        """For each kind of challenge allowed (`rules.kinds`), whether it is judged by a card of the
        claim shown from the challenger's hand (rather than by the cards played)."""
        return tuple(kind.test is ChallengeTest.HAND for kind in self.rules.kinds)

    def rank_of(self, i: int) -> int:
        """The rank of the live value at position `i` (-1 for the joker)."""
        return -1 if i == self.joker_index else self.live[i] % self.rules.rank_count

    @cached_property
    def seats_leave(self) -> bool:
        """Whether seats go out while the game goes on."""
        return not self.rules.first_out

    @cached_property
    def uses_stock(self) -> bool:
        return self.rules.stock_count > 0

    @cached_property
    def uses_gone(self) -> bool:
        """Whether cards can leave the game unseen (discarded piles, hands of seats going out)."""
        r = self.rules
        return ((r.may_pass and r.all_pass_discards) or ((not r.take_pile or r.failed_call_free)
                                                          and r.pile_after_discarded)
                or (r.turn_start_win is not None and not r.first_out))

    @cached_property
    def claim_index(self) -> dict[int, int]:
        return {v: i for i, v in enumerate(self.claims)}

    def succ(self, seat: int, places: int = 1) -> int:
        return (seat + self.rules.step * places) % self.rules.players

    @cached_property
    def key(self) -> tuple[Any, ...]:
        """What makes two specs one game to the encoding: the record's fields it reads (`KEY_FIELDS`, and
        the kinds of challenge by name and test) and the spec's own fields. A merged spec's card classes
        hold no joker and make sets of one rank, whatever the record says."""
        r = self.rules
        cards = (len(self.live), False, (0,)) if self.merged else (r.values, r.wild, r.ranks_in_play)
        kinds = tuple((kind.name, by_hand) for kind, by_hand in zip(r.kinds, self.by_hand))
        return (tuple(getattr(r, name) for name in KEY_FIELDS), cards, kinds, self.live, self.deck, self.claims,
                self.matches, self.req_sets, self.required, self.trees, self.merged, self.held, self.capped_at)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (Spec, SpecKey)) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __reduce__(self) -> tuple[Any, ...]:
        # The rules record holds compiled formulas, which do not travel between processes; what another
        # process does with a spec it is sent (a verdict's table) is look things up under its key.
        return (SpecKey, (self.key,))

    def __copy__(self) -> Spec:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Spec:
        return self


@dataclass(frozen=True, eq=False)
class SpecKey:
    """A spec as another process receives it (the table of invariants proved there, `analysis.made_here`):
    its key alone, equal to the spec it was made from and hashed alike, so verdicts are looked up under it."""

    key: tuple[Any, ...]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (Spec, SpecKey)) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


def merge_values(spec: Spec, keep: tuple[int, ...] = ()) -> Spec:
    """The abstraction of `spec` in which card values are merged: each value in `keep` (positions in
    `live`) stays a class of its own, every other value joins one class. What a challenge finds,
    what `holds` counts and which cards make a set are left open (any answer), so whatever holds of
    every play of the merged game holds of every play of the real one."""
    classes = [spec.deck[i] for i in keep]
    rest = spec.total - sum(classes)
    if rest or not classes:
        classes.append(rest)
    out = replace(spec, live=tuple(range(len(classes))), deck=tuple(classes),
                  matches=tuple(frozenset() for _ in classes), merged=True)
    if all(spec.req_sets):
        # Which claim is asked for then matters to nothing left: every step may claim the one claim.
        out = replace(out, claims=(0,), req_sets=(frozenset([0]),), required=Required(0, (0,), (0,), 0))
    return out


class SpecError(Exception):
    """The rules cannot be tabulated at this table (a formula reads too much, or the deal fails)."""


class FormulaUnavailable(SpecError, FactUnavailable):
    """A seat or condition formula reads a fact its place does not give (`holds` where no seat acts)."""


def build_spec(rb: Rulebook, n: int, table: Table | None = None, rules: TableRules | None = None) -> Spec:
    """The spec of `rb` at `n` players; SpecError when the table cannot be dealt or tabulated. `rules`:
    the record of `rb` at `n` players where the caller holds it already (the spec then holds that one).

    What the rules imply at the table comes from `TableRules`, as the interpreter's `Game` reads it;
    the spec holds that record and lays out the encoding's own tables beside it (card and claim classes,
    the claim sets asked for, the seat formulas tabulated)."""
    if rules is None:
        try:
            rules = TableRules(rb, n, table)
        except DealError as exc:
            raise SpecError(f"cannot deal: {exc.reason}") from None
    t, space = rules.table, rules.space
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
        rules=rules, live=live, deck=tuple(rules.deck_counts[v] for v in live), claims=claims, matches=matches,
        req_sets=req_sets, required=Required(first, follow, lead, lead_none),
        trees=Trees(next_player, first_player, all_pass_leader, pass_when, tsw), held=held,
    )
