"""A rulebook at a table of N players: everything that can be worked out before the first card.

Claim sets for every previous claim, turn order, challenge kinds and the compiled formulas are
computed once here, so that a step of play is a few list operations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..cards import JOKER, ClaimSpace, Table, as_claims
from ..model import (
    ChallengeKind,
    ClaimKind,
    CountRule,
    DealerChoice,
    Direction,
    EmptiedBySets,
    EndStyle,
    OutCheck,
    PenaltyKind,
    PileAfter,
    Reveal,
    RoundEnd,
    Rulebook,
    SetMode,
    ShortStock,
)
from .actions import ACCEPT, Action, Challenge
from .context import ClaimFacts, Facts, facts_class

if TYPE_CHECKING:
    from .position import Position
    from .state import State

NO_CAP = 1 << 62


class Game:
    """An immutable game spec: a compiled rulebook played by `players` seats."""

    def __init__(self, rulebook: Rulebook, players: int, turn_cap: int | None = None) -> None:
        if players not in rulebook.players.counts():
            raise ValueError(f"{rulebook.name} is for {rulebook.players.min}..{rulebook.players.max} players, "
                             f"not {players}")
        self.rulebook = rulebook
        self.players = players
        self.table = Table(rulebook, players)
        self.space = ClaimSpace(self.table)
        dealt = self.table.hand_sizes()
        if isinstance(dealt, str):
            raise ValueError(f"{rulebook.name} cannot be dealt to {players} players: {dealt}")
        self.hand_sizes, self.surplus = dealt
        self.facts_type = facts_class(self)
        self._cards(rulebook)
        self._seats(rulebook)
        self._claims(rulebook)
        self._challenges(rulebook)
        self._ending(rulebook, turn_cap)

    # -- cards ---------------------------------------------------------------------------------

    def _cards(self, rb: Rulebook) -> None:
        self.rank_count = r = self.table.rank_count
        self.suit_count = len(rb.deck.suits)
        self.by_rank = rb.claim.kind is ClaimKind.RANK
        self.values = r if self.by_rank else r * self.suit_count
        self.joker = self.values
        self.wild = rb.deck.jokers_wild and rb.deck.jokers > 0
        self.rank_of = [v % r for v in range(self.values)] + [-1]
        self.copies = self.table.copies
        self.value_of_card = {c: self.card_value(c) for c in self.table.deck}
        deck_values = [self.card_value(c) for c in self.table.deck]
        self.deck_counts = [0] * (self.values + 1)
        for v in deck_values:
            self.deck_counts[v] += 1
        self.rank_symbols = tuple(x.symbol for x in rb.deck.ranks)
        self.rank_names = tuple(x.name for x in rb.deck.ranks)
        self.rank_plurals = tuple(x.plural for x in rb.deck.ranks)
        self.suit_names = tuple(x.name for x in rb.deck.suits)
        self.ranks_in_play = self.table.ranks_in_play
        if rb.sets is None:
            self.set_size: int | None = None
        else:
            self.set_size = int(rb.sets.size.code(_SetFacts(self.players, self.copies)))
        self.sets_forced = rb.sets is not None and rb.sets.mode is SetMode.FORCED
        self.sets_naturals_only = rb.sets is None or rb.sets.naturals_only

    def card_value(self, card: int) -> int:
        """The game's value for a physical card (`cards.py` numbering: suit * ranks + rank, or JOKER)."""
        if card == JOKER:
            return self.joker
        return card % self.rank_count if self.by_rank else card

    @property
    def card_values(self) -> range:
        """Every card value of the game, the joker (`joker`) last."""
        return range(self.values + 1)

    def count_matching(self, hand: list[int], claims: frozenset[int]) -> int:
        """Cards in `hand` that would pass as one of `claims`: the exact value, or a wild joker."""
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

    # -- seats ---------------------------------------------------------------------------------

    def _seats(self, rb: Rulebook) -> None:
        n = self.players
        self.step = 1 if rb.setup.direction is Direction.CLOCKWISE else -1
        self.succ = [(s + self.step) % n for s in range(n)]
        self.pred = [(s - self.step) % n for s in range(n)]
        self.responders_of = tuple(tuple(self.seat_after(s, i) for i in range(1, n)) for s in range(n))
        self.dealer_by_lot = rb.setup.dealer is DealerChoice.LOT
        self.first_player = rb.setup.first_player.code

    def seat_after(self, seat: int, places: int = 1) -> int:
        """The seat `places` seats on in turn order, every seat counted."""
        return (seat + self.step * places) % self.players

    # -- claims --------------------------------------------------------------------------------

    def _claims(self, rb: Rulebook) -> None:
        claim = rb.claim
        self.claim_order = self.space.order
        self.min_cards = claim.min_cards
        self.max_cards = claim.max_cards
        self.most_cards = claim.max_cards if claim.max_cards is not None else NO_CAP
        self.exact = claim.count is CountRule.EXACT
        self.any_count = claim.count is CountRule.ANY
        # The highest count that may be called: the card cap, or with no cap the whole deck.
        if self.exact or claim.count is CountRule.EXTRA_ALLOWED:
            self.count_cap = claim.max_cards
        else:
            self.count_cap = claim.max_cards if claim.max_cards is not None else len(self.table.deck)
        # The highest count a play may call when any count may be called (the cap above is then never None).
        self.any_count_cap: int = self.count_cap if self.count_cap is not None else NO_CAP
        self.reveal_all = rb.challenge.reveal is Reveal.PLAY
        self.count_judged = not self.exact and self.reveal_all
        size = max(self.claim_order, default=-1) + 1
        self.follow: list[tuple[int, ...]] = [()] * size
        self.follow_sets: list[frozenset[int]] = [frozenset()] * size
        self.lead: list[tuple[int, ...]] = [()] * size
        self.lead_sets: list[frozenset[int]] = [frozenset()] * size
        for prev in self.claim_order:
            self.follow_sets[prev] = self._claim_set(claim.follow.code, prev)
            self.follow[prev] = tuple(sorted(self.follow_sets[prev]))
            self.lead_sets[prev] = self._claim_set(claim.lead.code, prev)
            self.lead[prev] = tuple(sorted(self.lead_sets[prev]))
        self.first_set = self._claim_set(claim.first.code, None)
        self.first = tuple(sorted(self.first_set))
        self.lead_none_set = self._claim_set(claim.lead.code, None)
        self.lead_none = tuple(sorted(self.lead_none_set))
        self.round_ends_on_challenge = RoundEnd.CHALLENGE in claim.round_ends
        self.round_ends_on_all_pass = RoundEnd.ALL_PASS in claim.round_ends
        passing = rb.passing
        self.may_pass = passing.allowed
        self.pass_when = passing.when.code if passing.allowed and passing.when is not None else None
        self.pass_when_text = passing.when.text if passing.when is not None else ""
        self.leader_may_pass = passing.allowed and passing.leader_may_pass
        self.all_pass_discards = passing.all_pass_pile is PileAfter.DISCARDED
        self.all_pass_leader = passing.all_pass_leader.code if passing.all_pass_leader else None

    def _claim_set(self, code: Callable[[Any], Any], previous: int | None) -> frozenset[int]:
        return frozenset(c for c in as_claims(code(ClaimFacts(self, previous))) if c in self.space.position)

    def required_after(self, previous: int | None, leading: bool) -> tuple[tuple[int, ...], frozenset[int]]:
        """The claims allowed next: the first claim of the game, a lead, or a follow of `previous`."""
        if previous is None:
            return (self.lead_none, self.lead_none_set) if leading else (self.first, self.first_set)
        if leading:
            return self.lead[previous], self.lead_sets[previous]
        return self.follow[previous], self.follow_sets[previous]

    # -- challenges ----------------------------------------------------------------------------

    def _challenges(self, rb: Rulebook) -> None:
        ch = rb.challenge
        allowed: list[ChallengeKind] = []
        for kind in ch.kinds:
            if kind.allowed_when is None or kind.allowed_when.code(_SetFacts(self.players, self.copies)):
                allowed.append(kind)
        self.kinds: dict[str, ChallengeKind] = {k.name: k for k in sorted(allowed, key=lambda k: k.name)}
        self.kind_names = tuple(self.kinds)
        self.responses: tuple[Action, ...] = (ACCEPT, *(Challenge(k) for k in self.kind_names))
        self.all_kind_names = tuple(k.name for k in ch.kinds)
        self.show_pile = ch.show_pile
        self.take_pile = ch.penalty.kind is PenaltyKind.TAKE_PILE
        self.draw = ch.penalty.draw
        self.pile_after_discarded = ch.penalty.pile_after is PileAfter.DISCARDED
        # A loser the stock cannot give the whole draw takes the pile as well.
        self.short_stock_takes_pile = not self.take_pile and ch.penalty.short_stock is ShortStock.TAKE_PILE
        self.next_player = ch.next_player.code
        self.next_player_memo: dict[tuple[object, ...], int] = {}

    # -- ending --------------------------------------------------------------------------------

    def _ending(self, rb: Rulebook, turn_cap: int | None) -> None:
        end = rb.ending
        self.first_out = end.style is EndStyle.FIRST_OUT
        self.at_once = end.out_check is OutCheck.AT_ONCE
        self.turn_start_win = end.turn_start_win.code if end.turn_start_win else None
        # A seat left with no cards by its sets stays in, and its turns pass it by while it holds none.
        self.emptied_stays_in = self.set_size is not None and end.emptied_by_sets is EmptiedBySets.STAYS_IN
        caps = [c for c in (end.turn_cap, turn_cap) if c is not None]
        self.turn_cap = min(caps) if caps else NO_CAP

    # -- states --------------------------------------------------------------------------------

    def new_initial_state(self) -> State:
        """A game before the deal: chance chooses the dealer (when by lot), then shuffles."""
        from .state import State
        return State(self)

    def state_from_position(self, position: Position) -> State:
        """A game in the middle: explicit hands, pile, stock and the seat to play (for scenarios)."""
        from .deal import enter_position
        from .state import State
        state = State(self)
        enter_position(state, position)
        return state

    def facts(self, state: State | None, dealer: int = 0, **values: Any) -> Facts:
        """A formula context for a seat formula."""
        return self.facts_type(state, dealer, **values)

    def __repr__(self) -> str:
        return f"Game({self.rulebook.name!r}, players={self.players})"


class _SetFacts:
    def __init__(self, players: int, copies: int) -> None:
        self.players = players
        self.copies = copies
