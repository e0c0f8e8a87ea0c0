"""A rulebook at a table of N players, worked out once: the tables every back end reads.

The interpreter (`engine.Game`) and the verifier (`verifier.system.spec.Spec`) both read a rule's
consequences from here (the count cap, the claims allowed after each claim, the challenges allowed,
the set size, what a short stock or a hand emptied by sets does), so neither works one out itself.
Nothing here knows about a game in progress.
"""

from __future__ import annotations

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


class DealError(ValueError):
    """The deck cannot be dealt at this table; `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def turn_step(rb: Rulebook) -> int:
    """How play passes round the table: from seat s to seat s + step (1 clockwise, -1 anticlockwise)."""
    return 1 if rb.setup.direction is Direction.CLOCKWISE else -1


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
    return frozenset(c for c in as_claims(formula.code(ClaimFacts(space, players, previous))) if c in space.position)


def holder_answers(table: Table, card: int) -> tuple[int | None, ...]:
    """Every seat `holder(card)` can name after the deal at `table`: any seat when the deck has the exact
    card (`suit * ranks + rank`), and nobody (None) when it may stay out of the hands or is not in the deck."""
    present = card % table.rank_count in table.ranks_in_play
    dealt = table.hand_sizes()
    undealt = isinstance(dealt, str) or table.set_aside + dealt[1] > 0
    return (*(range(table.players) if present else ()), *((None,) if undealt or not present else ()))


class TableRules:
    """Everything the rules of `rulebook` imply at a table of `players`, before the first card.

    Card values are a rank index (claims by rank) or an exact card `suit * ranks + rank`, and
    `values` for the joker. Claim sets are keyed by the previous claim's value.
    """

    def __init__(self, rulebook: Rulebook, players: int, table: Table | None = None) -> None:
        rb = self.rulebook = rulebook
        self.players = players
        self.table = table or Table(rulebook, players)
        self.space = ClaimSpace(self.table)
        self._deal(rb)
        self._cards(rb)
        self._claims(rb)
        self._challenges(rb)
        self._ending(rb)

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

    def _cards(self, rb: Rulebook) -> None:
        self.rank_count = self.table.rank_count
        self.suit_count = len(rb.deck.suits)
        self.by_rank = rb.claim.kind is ClaimKind.RANK
        self.values = self.rank_count if self.by_rank else self.rank_count * self.suit_count
        self.wild = rb.deck.jokers_wild and rb.deck.jokers > 0
        counts = [0] * (self.values + 1)
        for card in self.table.deck:
            counts[self.card_value(card)] += 1
        self.deck_counts = tuple(counts)
        self.ranks_in_play = self.table.ranks_in_play
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

    def _claims(self, rb: Rulebook) -> None:
        claim, space, n = rb.claim, self.space, self.players
        self.claim_order = space.order
        self.min_cards = claim.min_cards
        self.max_cards = claim.max_cards
        self.exact = claim.count is CountRule.EXACT
        self.any_count = claim.count is CountRule.ANY
        self.count_cap = count_cap(rb, len(self.table.deck))
        self.reveal_all = rb.challenge.reveal is Reveal.PLAY
        # Without an exact count, a challenge that shows the whole play also judges the count called.
        self.count_judged = not self.exact and self.reveal_all
        self.first = claim_set(claim.first, space, n, None)
        self.lead_none = claim_set(claim.lead, space, n, None)
        self.follow = {v: claim_set(claim.follow, space, n, v) for v in space.order}
        self.lead = {v: claim_set(claim.lead, space, n, v) for v in space.order}
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
        self.next_player = rb.challenge.next_player
        self.take_pile = penalty.kind is PenaltyKind.TAKE_PILE
        self.draw = penalty.draw
        self.pile_after_discarded = penalty.pile_after is PileAfter.DISCARDED
        # A loser the stock cannot give the whole draw takes the pile as well.
        self.short_stock_takes_pile = not self.take_pile and penalty.short_stock is ShortStock.TAKE_PILE
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

    def required_after(self, previous: int | None, leading: bool) -> frozenset[int]:
        """The claims allowed next: the first claim of the game, a lead, or a follow of `previous`."""
        if previous is None:
            return self.lead_none if leading else self.first
        return (self.lead if leading else self.follow)[previous]

    def __repr__(self) -> str:
        return f"TableRules({self.rulebook.name!r}, players={self.players})"
