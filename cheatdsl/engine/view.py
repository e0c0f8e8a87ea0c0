"""What a bot sees: one seat's own hand and the public table, read live from the state.

`State.view(seat)` is cheap and live: it holds no copy, so one view per seat serves a whole game,
and reading it allocates nothing unless a method says it builds a tuple. Everything a view gives is
the seat's own hand or public at the table (hand sizes, claims, counts actually put down, reveals,
discarded sets, the rules); the cards of other hands, the pile, the stock and the cards aside are
never reachable through its API. `State.observation(seat)` stays the full frozen record.
"""

from __future__ import annotations

import random
from operator import attrgetter
from typing import TYPE_CHECKING

from .actions import Action, Challenge, IllegalAction, Phase, Play
from .refusals import Refusal

if TYPE_CHECKING:
    from .game import Game
    from .state import RevealRecord, State

_PLAY, _RESPOND = Phase.PLAY, Phase.RESPOND


class View:
    """One seat's live window on a game: its own hand, public facts and its legal choices."""

    __slots__ = ("_state", "_hand", "_sizes", "seat", "game")

    def __init__(self, state: State, seat: int) -> None:
        if not 0 <= seat < state.game.players:
            raise ValueError(f"there is no seat {seat}")
        self._state = state
        self._hand = state.hand(seat)  # a state changes its lists in place, never replaces them
        self._sizes = state.sizes
        self.seat = seat
        self.game: Game = state.game  # the rules at this table: public

    # -- whose turn, and for what ------------------------------------------------------------
    # (the busiest accessors read through C getters: no Python frame per read)

    phase: Phase = property(attrgetter("_state.phase"))  # type: ignore[assignment]
    to_act: int = property(attrgetter("_state.to_act"), doc="The seat to act (or CHANCE / TERMINAL).")  # type: ignore[assignment]

    @property
    def my_turn(self) -> bool:
        return self._state.to_act == self.seat

    @property
    def responding(self) -> bool:
        """Whether this seat is asked to accept or challenge the pending claim now."""
        s = self._state
        return s.phase is _RESPOND and s.to_act == self.seat

    # -- own hand ------------------------------------------------------------------------------

    hand: list[int] = property(attrgetter("_hand"),  # type: ignore[assignment]
                               doc="Own cards as a count per card value (the state's own list: read, never change).")

    @property
    def hand_size(self) -> int:
        return self._sizes[self.seat]

    def hand_cards(self) -> tuple[int, ...]:
        """Own cards as sorted card values."""
        return self._state.hand_cards(self.seat)

    def matching(self, claim: int) -> int:
        """Own cards that would pass as `claim` (the exact value, or a wild joker)."""
        rules = self.game.rules
        hand = self._hand
        n = hand[claim] if 0 <= claim < rules.values else 0
        return n + hand[rules.joker] if rules.wild else n

    # -- public facts --------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.game.players

    def size_of(self, seat: int) -> int:
        """How many cards `seat` holds (public)."""
        return self._sizes[seat]

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(self._sizes)

    def is_in(self, seat: int) -> bool:
        return self._state.is_in(seat)

    @property
    def out(self) -> tuple[int, ...]:
        """Seats gone out, in order."""
        return self._state.order_out()

    required: tuple[int, ...] = property(attrgetter("_state.required"),  # type: ignore[assignment]
                                         doc="The claims allowed for the play to be made (or pending).")
    previous: int | None = property(attrgetter("_state.previous"))  # type: ignore[assignment]
    leading: bool = property(attrgetter("_state.leading"))  # type: ignore[assignment]
    turns: int = property(attrgetter("_state.turns"))  # type: ignore[assignment]
    dealer: int | None = property(attrgetter("_state.dealer"))  # type: ignore[assignment]
    claimant: int | None = property(attrgetter("_state.claimant"),  # type: ignore[assignment]
                                    doc="The seat whose claim awaits responses, or None.")

    pending: tuple[int, int, int, bool] | None = property(  # type: ignore[assignment]
        attrgetter("_state.pending_claim"),
        doc="The claim awaiting responses as (claim, count called, cards put down, the claimant's last cards).")

    @property
    def claim(self) -> int | None:
        """The pending claim's value, or None."""
        play = self._state.pending_play()
        return None if play is None else play.claim

    @property
    def claim_count(self) -> int:
        """The number called in the pending claim (0 when none is pending)."""
        play = self._state.pending_play()
        return 0 if play is None else play.count

    @property
    def claim_played(self) -> int:
        """Cards actually put down with the pending claim (public: everyone sees the packet)."""
        play = self._state.pending_play()
        return 0 if play is None else len(play.cards)

    @property
    def claimant_last(self) -> bool:
        """Whether the pending claim put down the claimant's last cards."""
        return self._state.pending_emptied()

    @property
    def pile_size(self) -> int:
        return self._state.pile_size()

    @property
    def stock_size(self) -> int:
        return self._state.stock_size()

    @property
    def reveal_count(self) -> int:
        return self._state.reveal_count()

    def reveal(self, index: int) -> RevealRecord:
        """The `index`-th challenge of the game, in public (what was turned over, who took what)."""
        return self._state.reveal(index)

    @property
    def reveals(self) -> tuple[RevealRecord, ...]:
        return self._state.reveals()

    @property
    def set_count(self) -> int:
        return self._state.set_count()

    def discarded_set(self, index: int) -> tuple[int, int, tuple[int, ...]]:
        """The `index`-th set put out of the game: (seat, rank, cards), shown to all."""
        return self._state.discarded_set(index)

    # -- the rules of the moment ---------------------------------------------------------------

    @property
    def card_cap(self) -> int | None:
        """The most cards a play may hold, or None for no limit."""
        return self.game.rules.max_cards

    @property
    def min_cards(self) -> int:
        return self.game.rules.min_cards

    @property
    def challenge_kinds(self) -> tuple[str, ...]:
        """Names of the challenges allowed at this table."""
        return self.game.rules.kind_names

    @property
    def responses(self) -> tuple[Action, ...]:
        """Accept, then one challenge per kind allowed (the same objects every time)."""
        return self.game.responses

    def challenge(self, kind: str) -> Challenge:
        """The response object for challenge `kind`."""
        for a in self.game.responses[1:]:
            if a.kind == kind:  # type: ignore[union-attr]
                return a  # type: ignore[return-value]
        raise ValueError(f"there is no challenge `{kind}` at this table")

    @property
    def may_pass(self) -> bool:
        """Whether this seat may pass now (False when it is not this seat's turn to play)."""
        s = self._state
        return s.to_act == self.seat and s.can_pass()

    @property
    def can_play(self) -> bool:
        """Whether this seat has a play to make now (some claim allowed, enough cards)."""
        s = self._state
        return (s.phase is _PLAY and s.to_act == self.seat and bool(s.required)
                and self._sizes[self.seat] >= self.game.rules.min_cards)

    # -- legal choices (this seat's own; empty when it is not this seat's turn) ----------------

    def legal_actions(self, limit: int | None = None) -> list[Action]:
        """This seat's legal actions in canonical order (`State.legal_actions`), or [] when not its turn."""
        s = self._state
        return s.legal_actions(limit) if s.to_act == self.seat else []

    def count_play_actions(self) -> int:
        s = self._state
        return s.count_play_actions() if s.to_act == self.seat else 0

    def sample_play(self, rng: random.Random) -> Play:
        """A play drawn uniformly from this seat's legal plays."""
        s = self._state
        if s.to_act != self.seat:
            raise IllegalAction(Refusal.NOT_YOUR_TURN, state=s, seat=self.seat)
        return s.sample_play(rng)

    def snapshot(self) -> tuple[object, ...]:
        """Everything this view can tell, as one comparable value (for tests and logs)."""
        s = self._state
        return (self.seat, s.phase, s.to_act, self.hand_cards(), tuple(self._sizes), s.seating,
                s.order_out(), s.required, s.previous, s.leading, s.turns, s.dealer, self.claimant,
                self.pending, s.pile_size(), s.stock_size(), s.reveals(), s.discarded_sets(),
                self.may_pass, self.can_play)

    def __repr__(self) -> str:
        return f"<View seat {self.seat} of {self.game!r}>"
