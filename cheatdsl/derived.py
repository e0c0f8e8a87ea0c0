"""A rulebook at a table of N players, worked out once: the tables every back end reads.

The interpreter (`engine.Game` holds one as `game.rules`) and the verifier (`verifier.encoding.spec.Spec`)
both read a rule's consequences from here (the count cap, the claims allowed after each claim, the
turn order, the challenges allowed, the set size, what a short stock or a hand emptied by sets does),
so neither works one out itself. Nothing here knows about a game in progress.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import FrozenInstanceError
from types import MappingProxyType

from .cards import JOKER, ClaimSpace, Table, as_claims
from .expr.context import ClaimFacts, TableFacts
from .model import (
    ChallengeKind,
    ClaimKind,
    CountRule,
    DealerChoice,
    Direction,
    EmptiedBySets,
    EndStyle,
    FailedCall,
    Formula,
    OutCheck,
    PenaltyKind,
    PileAfter,
    Priority,
    Reveal,
    RoundEnd,
    Rulebook,
    SetMode,
    ShortStock,
    Surplus,
    Window,
)


NO_CAP = 1 << 62  # a cap no count or turn reaches: what a rule without a cap is read as


class DealError(ValueError):
    """The deck cannot be dealt at this table; `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def turn_step(rb: Rulebook) -> int:
    """How play passes round the table: from seat s to seat s + step (1 clockwise, -1 anticlockwise)."""
    return 1 if rb.setup.direction is Direction.CLOCKWISE else -1


def seat_after(seat: int, step: int, places: int, players: int) -> int:
    """The seat `places` seats on from `seat` in turn order (`step` 1 clockwise, -1 anticlockwise) at a
    table of `players`, every seat counted; a negative `places` counts back."""
    return (seat + step * places) % players


def next_seat_in(seat: int, step: int, players: int, is_in: Callable[[int], bool]) -> int:
    """The first seat after `seat` in turn order that `is_in` says is still in the game (asked in turn
    order, nearest first); `seat` itself when no other seat is."""
    s = seat % players
    for places in range(1, players):
        t = seat_after(s, step, places, players)
        if is_in(t):
            return t
    return s


def allowed_kinds(rb: Rulebook, players: int) -> tuple[ChallengeKind, ...]:
    """The kinds of challenge that may be made at `players` seats (`allowed_when`), by name."""
    facts = TableFacts(players)
    return tuple(k for k in sorted(rb.challenge.kinds, key=lambda k: k.name)
                 if k.allowed_when is None or k.allowed_when.code(facts))


def set_size(rb: Rulebook, players: int, copies: int) -> int | None:
    """How many cards of one rank make a set that leaves the game, or None without sets."""
    if rb.sets is None:
        return None
    return int(rb.sets.size.code(TableFacts(players, copies=copies)))


def count_cap(rb: Rulebook, deck_size: int) -> int | None:
    """The highest count a play may call: the card cap, or with no cap (and any count callable) the
    whole deck; None where the count called is the number of cards played and nothing caps it."""
    claim = rb.claim
    if claim.count in (CountRule.EXACT, CountRule.EXTRA_ALLOWED):
        return claim.max_cards
    return claim.max_cards if claim.max_cards is not None else deck_size


def claim_set(formula: Formula, space: ClaimSpace, players: int, previous: int | None) -> frozenset[int]:
    """The claims of the table a claim formula allows after `previous` (None: nothing claimed yet)."""
    return frozenset(c for c in named_claims(formula, space, players, previous) if c in space.position)


def named_claims(formula: Formula, space: ClaimSpace, players: int, previous: int | None) -> frozenset[int]:
    """Every claim value a claim formula names after `previous`, those the table's deck lacks too
    (`FactUnavailable` where the formula asks for a fact a claim rule is not given)."""
    return as_claims(formula.code(ClaimFacts(space, players, previous)))


class Sealed:
    """A record that is frozen once made: setting or deleting an attribute after `_seal()` raises
    `FrozenInstanceError`."""

    _sealed = False

    def _seal(self) -> None:
        object.__setattr__(self, "_sealed", True)

    def __setattr__(self, name: str, value: object) -> None:
        if self._sealed:
            raise FrozenInstanceError(f"the rules of a table do not change: cannot set {name}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"the rules of a table do not change: cannot delete {name}")


class ClaimRules(Sealed):
    """Which claims may open the game, follow a claim and lead a new round at a table of `players`.

    Worked out from the claim formulas and the table's claims alone, so it exists at a table whose deck
    cannot be dealt too. The sets hold claims of the table (`space.position`); `outside` keeps, for each
    rule (`first`, `follow`, `lead`), the values a formula names that are no claim of the table.
    `follow` and `lead` are keyed by the previous claim's value; `lead_none` is a lead with nothing
    claimed before. Frozen like `TableRules`, which holds one as `claim_rules`.
    """

    def __init__(self, rulebook: Rulebook, players: int, space: ClaimSpace) -> None:
        claim, position = rulebook.claim, space.position
        outside: dict[str, set[int]] = {"first": set(), "follow": set(), "lead": set()}

        def allowed(rule: str, formula: Formula, previous: int | None) -> frozenset[int]:
            named = named_claims(formula, space, players, previous)
            outside[rule].update(v for v in named if v not in position)
            return frozenset(v for v in named if v in position)

        self.order = space.order
        self.first = allowed("first", claim.first, None)
        self.follow: Mapping[int, frozenset[int]] = MappingProxyType(
            {v: allowed("follow", claim.follow, v) for v in space.order})
        self.lead: Mapping[int, frozenset[int]] = MappingProxyType(
            {v: allowed("lead", claim.lead, v) for v in space.order})
        self.lead_none = claim_set(claim.lead, space, players, None)
        self.outside: Mapping[str, frozenset[int]] = MappingProxyType(
            {rule: frozenset(values) for rule, values in outside.items()})
        self._seal()

    def __eq__(self, other: object) -> bool:
        """Two tables' claim rules are equal when every set in them is."""
        return isinstance(other, ClaimRules) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # equal by value, and its mappings are not hashable


def holder_answers(table: Table, card: int) -> tuple[int | None, ...]:
    """Every seat `holder(card)` can name after the deal at `table`: any seat when the deck has the exact
    card (`suit * ranks + rank`), and nobody (None) when it may stay out of the hands or is not in the deck."""
    present = card % table.rank_count in table.ranks_in_play
    dealt = table.hand_sizes()
    undealt = isinstance(dealt, str) or table.set_aside + dealt[1] > 0
    return (*(range(table.players) if present else ()), *((None,) if undealt or not present else ()))


class TableRules(Sealed):
    """Everything the rules of `rulebook` imply at a table of `players`, before the first card.

    Card values are a rank index (claims by rank) or an exact card `suit * ranks + rank`, and
    `values` (`joker`) for the joker. Claim sets are keyed by the previous claim's value (`follow`,
    `lead`) and, for the interpreter's steps, indexed by it (`follow_sets`, `follow_claims`, ...).
    Seats are numbered as `seat_after` steps round the table.

    The record is frozen: setting or deleting an attribute after it is made raises
    `FrozenInstanceError`, and its tables are tuples, frozensets and read-only mappings, so every
    reader sees the rules the table began with.
    """

    def __init__(self, rulebook: Rulebook, players: int, table: Table | None = None) -> None:
        rb = self.rulebook = rulebook
        self.players = players
        self.table = table or Table(rulebook, players)
        self.space = ClaimSpace(self.table)
        self._deal(rb)
        self._seats()
        self._cards(rb)
        self._claims(rb)
        self._challenges(rb)
        self._ending(rb)
        self._seal()


    def _deal(self, rb: Rulebook) -> None:
        dealt = self.table.hand_sizes()
        if isinstance(dealt, str):
            raise DealError(dealt)
        hands, self.surplus = dealt
        self.hand_sizes = tuple(hands)
        to_stock = rb.deal.surplus is Surplus.STOCK
        self.stock_count = self.surplus if to_stock else 0
        # Cards that never reach a hand or the stock: those set aside, and a surplus with no stock.
        self.aside_count = self.table.set_aside + (0 if to_stock else self.surplus)
        self.step = turn_step(rb)
        self.dealer_by_lot = rb.setup.dealer is DealerChoice.LOT
        self.first_player = rb.setup.first_player

    def _seats(self) -> None:
        n, step = self.players, self.step
        # Every seat's neighbours in turn order, and the seats that answer its claims (every other seat, in turn).
        self.succ = tuple(seat_after(s, step, 1, n) for s in range(n))
        self.pred = tuple(seat_after(s, step, -1, n) for s in range(n))
        self.responders_of = tuple(tuple(seat_after(s, step, i, n) for i in range(1, n)) for s in range(n))

    def seat_after(self, seat: int, places: int = 1) -> int:
        """The seat `places` seats on from `seat` in turn order, every seat counted."""
        return seat_after(seat, self.step, places, self.players)

    def _cards(self, rb: Rulebook) -> None:
        self.rank_count = self.table.rank_count
        self.suit_count = len(rb.deck.suits)
        self.by_rank = rb.claim.kind is ClaimKind.RANK
        self.values = self.rank_count if self.by_rank else self.rank_count * self.suit_count
        self.joker = self.values
        self.wild = rb.deck.jokers_wild and rb.deck.jokers > 0
        # The value of each card of the deck, in the deck's order (`table.deck`).
        self.deck_values = tuple(self.card_value(card) for card in self.table.deck)
        counts = [0] * (self.values + 1)
        for value in self.deck_values:
            counts[value] += 1
        self.deck_counts = tuple(counts)
        self.ranks_in_play = self.table.ranks_in_play
        self.rank_symbols = tuple(x.symbol for x in rb.deck.ranks)
        self.rank_names = tuple(x.name for x in rb.deck.ranks)
        self.rank_plurals = tuple(x.plural for x in rb.deck.ranks)
        self.suit_names = tuple(x.name for x in rb.deck.suits)
        self.set_size = set_size(rb, self.players, self.table.copies)
        self.sets_forced = rb.sets is not None and rb.sets.mode is SetMode.FORCED
        self.sets_naturals_only = rb.sets is None or rb.sets.naturals_only

    def card_value(self, card: int) -> int:
        """The value of a physical card (`cards.py` numbering: suit * ranks + rank, or JOKER)."""
        if card == JOKER:
            return self.values
        return card % self.rank_count if self.by_rank else card

    def passes_as(self, value: int) -> frozenset[int]:
        """The claims a card of `value` passes as: its own value if that is a claim, every claim for a
        wild joker."""
        if value == self.values:
            return self.space.all_claims if self.wild else frozenset()
        return frozenset([value]) if value in self.space.position else frozenset()

    @property
    def card_values(self) -> range:
        """Every card value of the game, the joker (`joker`) last."""
        return range(self.values + 1)

    def count_matching(self, hand: list[int], claims: frozenset[int]) -> int:
        """Cards in `hand` (counts by card value) that would pass as one of `claims`: the exact value, or a
        wild joker."""
        total = sum(hand[c] for c in claims if 0 <= c < self.values)
        if self.wild and claims:
            total += hand[self.joker]
        return total

    def rank_count_in(self, hand: list[int], rank: int, naturals_only: bool = True) -> int:
        """Cards of `rank` in `hand` (all suits), with jokers unless `naturals_only`."""
        if self.by_rank:
            n = hand[rank]
        else:
            n = sum(hand[s * self.rank_count + rank] for s in range(self.suit_count))
        if not naturals_only:
            n += hand[self.joker]
        return n

    def _claims(self, rb: Rulebook) -> None:
        claim, space, n = rb.claim, self.space, self.players
        self.claim_order = space.order
        self.min_cards = claim.min_cards
        self.max_cards = claim.max_cards
        self.most_cards = claim.max_cards if claim.max_cards is not None else NO_CAP
        self.exact = claim.count is CountRule.EXACT
        self.any_count = claim.count is CountRule.ANY
        self.count_cap = count_cap(rb, len(self.table.deck))
        # The highest count a play may call when any count may be called (the cap above is then never None).
        self.any_count_cap: int = self.count_cap if self.count_cap is not None else NO_CAP
        self.reveal_all = rb.challenge.reveal is Reveal.PLAY
        # Without an exact count, a challenge that shows the whole play also judges the count called.
        self.count_judged = not self.exact and self.reveal_all
        self.claim_rules = ClaimRules(rb, n, space)
        # The same sets indexed by the previous claim (empty after a value that is no claim), each also as a
        # tuple in claim value order: what the interpreter reads at every turn.
        size = max(space.order, default=-1) + 1
        self.follow_sets = tuple(self.follow.get(v, frozenset()) for v in range(size))
        self.lead_sets = tuple(self.lead.get(v, frozenset()) for v in range(size))
        self.follow_claims = tuple(tuple(sorted(claims)) for claims in self.follow_sets)
        self.lead_claims = tuple(tuple(sorted(claims)) for claims in self.lead_sets)
        self.first_claims = tuple(sorted(self.first))
        self.lead_none_claims = tuple(sorted(self.lead_none))
        self.round_ends_on_challenge = RoundEnd.CHALLENGE in claim.round_ends
        self.round_ends_on_all_pass = RoundEnd.ALL_PASS in claim.round_ends
        passing = rb.passing
        self.may_pass = passing.allowed
        self.leader_may_pass = passing.allowed and passing.leader_may_pass
        self.all_pass_discards = passing.all_pass_pile is PileAfter.DISCARDED
        # The seat formulas in force: a rule about passing only where passing is allowed.
        self.pass_when = passing.when if passing.allowed else None
        self.all_pass_leader = passing.all_pass_leader if passing.allowed else None

    def _challenges(self, rb: Rulebook) -> None:
        penalty = rb.challenge.penalty
        self.kinds = allowed_kinds(rb, self.players)
        self.kind_by_name: Mapping[str, ChallengeKind] = MappingProxyType({k.name: k for k in self.kinds})
        self.kind_names = tuple(k.name for k in self.kinds)
        # Every kind the rulebook names, those not allowed at this table too (to say why a call is refused).
        self.all_kind_names = tuple(k.name for k in rb.challenge.kinds)
        self.show_pile = rb.challenge.show_pile
        self.next_player = rb.challenge.next_player
        self.take_pile = penalty.kind is PenaltyKind.TAKE_PILE
        self.draw = penalty.draw
        self.pile_after_discarded = penalty.pile_after is PileAfter.DISCARDED
        # A loser the stock cannot give the whole draw takes the pile as well.
        self.short_stock_takes_pile = not self.take_pile and penalty.short_stock is ShortStock.TAKE_PILE
        # A challenger whose call was wrong suffers nothing: no card taken, drawn or given it.
        self.failed_call_free = penalty.failed_call is FailedCall.FREE
        # `priority`: with `offered_in_turn` the responders answer one by one and the first challenge is
        # heard at once; otherwise every responder answers unseen and the priority picks among the callers
        # (the nearest clockwise, or by lot whoever called first).
        self.calls_at_once = rb.challenge.priority is not Priority.OFFERED_IN_TURN
        self.caller_by_lot = rb.challenge.priority is Priority.FIRST_CALLER
        # `window: before_next_play` at a table that passes: a pass does not close the last play's window,
        # so its responders are asked again after each pass (`count_of_three` closes it once all answered).
        self.window_through_passes = rb.passing.allowed and rb.challenge.window is Window.BEFORE_NEXT_PLAY

    def _ending(self, rb: Rulebook) -> None:
        end = rb.ending
        self.first_out = end.style is EndStyle.FIRST_OUT
        self.at_once = end.out_check is OutCheck.AT_ONCE
        # A seat left with no cards by its sets stays in, and its turns pass it by while it holds none.
        self.emptied_stays_in = self.set_size is not None and end.emptied_by_sets is EmptiedBySets.STAYS_IN
        self.turn_cap = end.turn_cap
        self.turn_start_win = end.turn_start_win

    @property
    def first(self) -> frozenset[int]:
        """The claims that may open the game."""
        return self.claim_rules.first

    @property
    def follow(self) -> Mapping[int, frozenset[int]]:
        """The claims that may follow each claim within a round, keyed by its value."""
        return self.claim_rules.follow

    @property
    def lead(self) -> Mapping[int, frozenset[int]]:
        """The claims that may lead a new round after each claim, keyed by its value."""
        return self.claim_rules.lead

    @property
    def lead_none(self) -> frozenset[int]:
        """The claims that may lead a round with nothing claimed before."""
        return self.claim_rules.lead_none

    def required_after(self, previous: int | None, leading: bool) -> tuple[tuple[int, ...], frozenset[int]]:
        """The claims allowed next, in claim value order and as a set: the first claim of the game, a lead,
        or a follow of `previous`."""
        if previous is None:
            return (self.lead_none_claims, self.lead_none) if leading else (self.first_claims, self.first)
        if leading:
            return self.lead_claims[previous], self.lead_sets[previous]
        return self.follow_claims[previous], self.follow_sets[previous]

    def __repr__(self) -> str:
        return f"TableRules({self.rulebook.name!r}, players={self.players})"
