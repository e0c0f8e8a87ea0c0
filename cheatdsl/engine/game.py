"""A rulebook at a table of N players, laid out for the interpreter before the first card.

What the rules imply (claim sets for every previous claim, challenge kinds, count cap, set size)
comes from `cheatdsl.derived`; here it is indexed for speed with the turn order and the compiled
formulas, so that a step of play is a few list operations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import ClaimSpace, Table
from ..derived import DealError, TableRules
from ..model import ChallengeKind, Rulebook
from .actions import ACCEPT, Action, Challenge
from .context import Facts, facts_class

if TYPE_CHECKING:
    from .position import Position
    from .state import State

NO_CAP = 1 << 62


class Game:
    """An immutable game spec: a compiled rulebook played by `players` seats.

    What the rules imply at this table is read from `rules` (`cheatdsl.derived.TableRules`, which
    the verifier reads too); what is kept here is laid out for the interpreter's steps.
    """

    def __init__(self, rulebook: Rulebook, players: int, turn_cap: int | None = None) -> None:
        if players not in rulebook.players.counts():
            raise ValueError(f"{rulebook.name} is for {rulebook.players.min}..{rulebook.players.max} players, "
                             f"not {players}")
        self.rulebook = rulebook
        self.players = players
        try:
            self.rules = rules = TableRules(rulebook, players)
        except DealError as exc:
            raise ValueError(f"{rulebook.name} cannot be dealt to {players} players: {exc.reason}") from None
        self.table: Table = rules.table
        self.space: ClaimSpace = rules.space
        self.hand_sizes, self.surplus = rules.hand_sizes, rules.surplus
        self.facts_type = facts_class(self)
        self._cards(rulebook, rules)
        self._seats(rulebook, rules)
        self._claims(rulebook, rules)
        self._challenges(rulebook, rules)
        self._ending(rules, turn_cap)

    # -- cards ---------------------------------------------------------------------------------

    def _cards(self, rb: Rulebook, rules: TableRules) -> None:
        self.rank_count = r = rules.rank_count
        self.suit_count = rules.suit_count
        self.by_rank = rules.by_rank
        self.values = rules.values
        self.joker = self.values
        self.wild = rules.wild
        self.rank_of = [v % r for v in range(self.values)] + [-1]
        self.copies = self.table.copies
        self.value_of_card = {c: self.card_value(c) for c in self.table.deck}
        self.deck_counts = list(rules.deck_counts)
        self.rank_symbols = tuple(x.symbol for x in rb.deck.ranks)
        self.rank_names = tuple(x.name for x in rb.deck.ranks)
        self.rank_plurals = tuple(x.plural for x in rb.deck.ranks)
        self.suit_names = tuple(x.name for x in rb.deck.suits)
        self.ranks_in_play = rules.ranks_in_play
        self.set_size: int | None = rules.set_size
        self.sets_forced = rules.sets_forced
        self.sets_naturals_only = rules.sets_naturals_only

    def card_value(self, card: int) -> int:
        """The game's value for a physical card (`cards.py` numbering: suit * ranks + rank, or JOKER)."""
        return self.rules.card_value(card)

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

    def _seats(self, rb: Rulebook, rules: TableRules) -> None:
        n = self.players
        self.step = rules.step
        self.succ = [(s + self.step) % n for s in range(n)]
        self.pred = [(s - self.step) % n for s in range(n)]
        self.responders_of = tuple(tuple(self.seat_after(s, i) for i in range(1, n)) for s in range(n))
        self.dealer_by_lot = rules.dealer_by_lot
        self.first_player = rules.first_player.code

    def seat_after(self, seat: int, places: int = 1) -> int:
        """The seat `places` seats on in turn order, every seat counted."""
        return (seat + self.step * places) % self.players

    # -- claims --------------------------------------------------------------------------------

    def _claims(self, rb: Rulebook, rules: TableRules) -> None:
        self.claim_order = rules.claim_order
        self.min_cards = rules.min_cards
        self.max_cards = rules.max_cards
        self.most_cards = rules.max_cards if rules.max_cards is not None else NO_CAP
        self.exact = rules.exact
        self.any_count = rules.any_count
        self.count_cap = rules.count_cap
        # The highest count a play may call when any count may be called (the cap above is then never None).
        self.any_count_cap: int = self.count_cap if self.count_cap is not None else NO_CAP
        self.reveal_all = rules.reveal_all
        self.count_judged = rules.count_judged
        size = max(self.claim_order, default=-1) + 1
        # The claim sets, as lists indexed by the previous claim, each as a set and in claim value order.
        self.follow: list[tuple[int, ...]] = [()] * size
        self.follow_sets: list[frozenset[int]] = [frozenset()] * size
        self.lead: list[tuple[int, ...]] = [()] * size
        self.lead_sets: list[frozenset[int]] = [frozenset()] * size
        for prev in self.claim_order:
            self.follow_sets[prev] = rules.follow[prev]
            self.follow[prev] = tuple(sorted(rules.follow[prev]))
            self.lead_sets[prev] = rules.lead[prev]
            self.lead[prev] = tuple(sorted(rules.lead[prev]))
        self.first_set = rules.first
        self.first = tuple(sorted(self.first_set))
        self.lead_none_set = rules.lead_none
        self.lead_none = tuple(sorted(self.lead_none_set))
        self.round_ends_on_challenge = rules.round_ends_on_challenge
        self.round_ends_on_all_pass = rules.round_ends_on_all_pass
        self.may_pass = rules.may_pass
        self.pass_when = rules.pass_when.code if rules.pass_when is not None else None
        self.pass_when_text = rb.passing.when.text if rb.passing.when is not None else ""
        self.leader_may_pass = rules.leader_may_pass
        self.all_pass_discards = rules.all_pass_discards
        self.all_pass_leader = rules.all_pass_leader.code if rules.all_pass_leader is not None else None

    def required_after(self, previous: int | None, leading: bool) -> tuple[tuple[int, ...], frozenset[int]]:
        """The claims allowed next: the first claim of the game, a lead, or a follow of `previous`."""
        if previous is None:
            return (self.lead_none, self.lead_none_set) if leading else (self.first, self.first_set)
        if leading:
            return self.lead[previous], self.lead_sets[previous]
        return self.follow[previous], self.follow_sets[previous]

    # -- challenges ----------------------------------------------------------------------------

    def _challenges(self, rb: Rulebook, rules: TableRules) -> None:
        ch = rb.challenge
        self.kinds: dict[str, ChallengeKind] = {k.name: k for k in rules.kinds}
        self.kind_names = tuple(self.kinds)
        self.responses: tuple[Action, ...] = (ACCEPT, *(Challenge(k) for k in self.kind_names))
        self.all_kind_names = tuple(k.name for k in ch.kinds)
        self.show_pile = ch.show_pile
        self.take_pile = rules.take_pile
        self.draw = rules.draw
        self.pile_after_discarded = rules.pile_after_discarded
        self.short_stock_takes_pile = rules.short_stock_takes_pile
        self.next_player = rules.next_player.code
        self.next_player_memo: dict[tuple[object, ...], int] = {}
        self.card_memo: dict[str, int] = {}  # a card's text -> its value, for the texts read so far
        self.calls_at_once = rules.calls_at_once
        self.caller_by_lot = rules.caller_by_lot
        self.window_through_passes = rules.window_through_passes

    # -- ending --------------------------------------------------------------------------------

    def _ending(self, rules: TableRules, turn_cap: int | None) -> None:
        self.first_out = rules.first_out
        self.at_once = rules.at_once
        self.turn_start_win = rules.turn_start_win.code if rules.turn_start_win is not None else None
        self.emptied_stays_in = rules.emptied_stays_in
        caps = [c for c in (rules.turn_cap, turn_cap) if c is not None]
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

