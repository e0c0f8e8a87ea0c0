"""The state of one game and its steps: plays, passes and responses, each a few list operations.

Hands are lists of counts indexed by card value (`Game.card_values`). The pile is a list of plays
`(seat, cards, claim, count, last_cards)`, newest last; cards already on the table in a position are one
bundle with no claim. Challenges, set discards and going out are in `challenge.py`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from . import challenge as _challenge
from .actions import (
    CHANCE,
    Accept,
    Action,
    Challenge,
    ChanceDealer,
    ChanceShuffle,
    DiscardSet,
    IllegalAction,
    KeepSets,
    Pass,
    Phase,
    Play,
)
from .ending import Ending

if TYPE_CHECKING:
    from .game import Game
    from .observation import Observation
    from .view import View

_CHANCE, _PLAY, _RESPOND, _DISCARD, _TERMINAL = (Phase.CHANCE, Phase.PLAY, Phase.RESPOND, Phase.DISCARD,
                                                 Phase.TERMINAL)
PileEntry = tuple  # (seat | None, cards, claim | None, count, emptied the hand)


@dataclass(frozen=True)
class Result:
    """How a finished game ended; `reason` says it in words for people, `ending` for programs."""

    winner: int | None
    order_out: tuple[int, ...]
    loser: int | None
    capped: bool
    reason: str
    ending: Ending


class RevealRecord(NamedTuple):
    """A challenge, in public: what was turned over, the verdict, who lost and how many cards they got.

    `taken` counts every card the loser got; `pile_taken`, those of them that came from the pile
    because the stock ran short (`challenge.penalty.short_stock: take_pile`).
    """

    kind: str
    claimant: int
    challenger: int
    claim: int
    count: int  # type: ignore[assignment]  # a field named like tuple.count, read as record.count
    revealed: tuple[int, ...]
    caught: bool
    loser: int
    taken: int
    pile: tuple[int, ...] | None
    pile_taken: int = 0


class State:
    """One game in progress: OpenSpiel-style `current_player`, `legal_actions`, `apply_action`."""

    def __init__(self, game: Game) -> None:
        n = game.players
        self.game = game
        self._phase = _CHANCE
        self._seat = CHANCE
        self._dealer: int | None = None if game.dealer_by_lot else 0
        width = game.values + 1
        self._hands = [[0] * width for _ in range(n)]
        self._sizes = [0] * n
        self._pile: list[PileEntry] = []
        self._pile_n = 0
        self._stock: list[int] = []
        self._aside: list[int] = []
        self._gone: list[int] = []
        self._sets: list[tuple[int, int, tuple[int, ...]]] = []
        self._in = [True] * n
        self._seating: tuple[bool, ...] = tuple(self._in)
        self._in_count = n
        self._out_order: list[int] = []
        self._next_in = list(game.succ)
        self._prev_in = list(game.pred)
        self._responders_of = list(game.responders_of)
        self._previous: int | None = None
        self._leading = False
        self._required: tuple[int, ...] = ()
        self._required_set: frozenset[int] = frozenset()
        self._claimant = -1
        self._responders: tuple[int, ...] = ()
        self._ri = 0
        self._passes = 0
        self._last_player: int | None = None
        self._turns = 0
        self._history: list[Action] = []
        self._reveals: list[RevealRecord] = []
        self._pending: tuple[int, int, int, int, bool, int] | None = None
        self._holders: dict[int, int] = {}
        self._winner: int | None = None
        self._loser: int | None = None
        self._capped = False
        self._reason = ""
        self._ending: Ending | None = None

    # -- the OpenSpiel surface -----------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, or CHANCE, or TERMINAL."""
        return self._seat

    @property
    def phase(self) -> Phase:
        return self._phase

    def is_terminal(self) -> bool:
        return self._phase is _TERMINAL

    def is_chance_node(self) -> bool:
        return self._phase is _CHANCE

    def history(self) -> list[Action]:
        """Every action applied so far, chance actions included: replaying them rebuilds this state."""
        return list(self._history)

    def legal_actions(self, limit: int | None = None) -> list[Action]:
        """Every legal action in canonical order; raises TooManyActions past `limit` plays.

        At the shuffle any seed from 0 up is legal and none is listed: use `chance_outcome(rng)`.
        """
        from .plays import legal_actions
        return legal_actions(self, limit)

    def can_pass(self) -> bool:
        """Whether the seat to play may pass now."""
        g = self.game
        if self._phase is not _PLAY or not g.may_pass or (self._leading and not g.leader_may_pass):
            return False
        return g.pass_when is None or bool(g.pass_when(self._turn_facts(self._seat)))

    def _turn_facts(self, seat: int) -> object:
        """The facts of `seat`'s turn, for `turn_start_win` and `passing.when`."""
        return self.game.facts(self, self._dealer or 0, hand=self._sizes[seat], leading=self._leading,
                               required=self._required_set, acting=seat)

    def count_play_actions(self) -> int:
        """How many different plays the seat to play may make (without listing them)."""
        from .plays import count_plays
        return count_plays(self)

    def sample_play(self, rng: random.Random) -> Play:
        """A play drawn uniformly from every legal play, without listing them."""
        from .plays import sample_play
        return sample_play(self, rng)

    def is_legal(self, action: Action) -> bool:
        """Whether `action` may be applied now."""
        return self.why_illegal(action) is None

    def why_illegal(self, action: Action) -> str | None:
        """Why `action` may not be applied now, or None when it may."""
        handler = _HANDLERS.get(action.__class__)
        if handler is None:
            return f"{action!r} is not an action of this game"
        trial = self.clone(history=False)
        try:
            handler(trial, action)
        except IllegalAction as exc:
            return str(exc)
        return None

    def apply_action(self, action: Action) -> None:
        """Apply one action; raises IllegalAction, leaving the state unchanged, when it is not legal."""
        try:
            handler = _HANDLERS[action.__class__]
        except KeyError:
            raise IllegalAction(f"{action!r} is not an action of this game") from None
        handler(self, action)
        self._history.append(action)

    def returns(self) -> list[float]:
        """Zero-sum returns: the winner +1 (others share -1), or the loser -1 (others share +1)."""
        n = self.game.players
        out = [0.0] * n
        if self._phase is not _TERMINAL or self._capped:
            return out
        if self.game.first_out and self._winner is not None:
            out = [-1.0 / (n - 1)] * n
            out[self._winner] = 1.0
        elif self._loser is not None:
            out = [1.0 / (n - 1)] * n
            out[self._loser] = -1.0
        return out

    def result(self) -> Result | None:
        """How the game ended, or None while it goes on."""
        if self._phase is not _TERMINAL:
            return None
        assert self._ending is not None
        return Result(self._winner, tuple(self._out_order), self._loser, self._capped, self._reason, self._ending)

    def observation(self, seat: int) -> Observation:
        """What `seat` may know: its own hand and everything public."""
        from .observation import observe
        return observe(self, seat)

    def view(self, seat: int) -> View:
        """`seat`'s live, read-only view for a bot: its own hand, the public table, its legal choices."""
        from .view import View
        return View(self, seat)

    def chance_outcome(self, rng: random.Random) -> Action:
        """A chance action drawn with `rng` (the dealer by lot, then a shuffle seed)."""
        if self._phase is not _CHANCE:
            raise IllegalAction("it is not chance's turn")
        if self._dealer is None:
            return ChanceDealer(rng.randrange(self.game.players))
        return ChanceShuffle(rng.getrandbits(64))

    def clone(self, history: bool = True) -> State:
        """An independent copy (`history=False`: sharing the history list, for a trial step only)."""
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        other._hands = [list(h) for h in self._hands]
        other._sizes = list(self._sizes)
        other._pile = list(self._pile)
        other._stock = list(self._stock)
        other._aside = list(self._aside)
        other._gone = list(self._gone)
        other._sets = list(self._sets)
        other._in = list(self._in)
        other._out_order = list(self._out_order)
        other._next_in = list(self._next_in)
        other._prev_in = list(self._prev_in)
        other._responders_of = list(self._responders_of)
        if history:
            other._history = list(self._history)
        other._reveals = list(self._reveals)
        return other

    # -- fast read access for bots and tests (do not mutate what they return) ------------------

    def hand(self, seat: int) -> list[int]:
        """The count of each card value in `seat`'s hand (the state's own list: read only)."""
        return self._hands[seat]

    def hand_cards(self, seat: int) -> tuple[int, ...]:
        """`seat`'s hand as sorted card values."""
        return tuple(v for v, k in enumerate(self._hands[seat]) for _ in range(k))

    def hand_sizes(self) -> list[int]:
        return list(self._sizes)

    def hand_size(self, seat: int) -> int:
        return self._sizes[seat]

    def required_claims(self) -> tuple[int, ...]:
        """The claims allowed for the play to be made (or pending), in claim order."""
        return self._required

    @property
    def previous(self) -> int | None:
        """The last claim made, or None."""
        return self._previous

    @property
    def leading(self) -> bool:
        """Whether the play to be made leads a round."""
        return self._leading

    @property
    def dealer(self) -> int | None:
        return self._dealer

    @property
    def claimant(self) -> int | None:
        """The seat whose claim awaits responses, or None."""
        return self._claimant if self._phase is _RESPOND else None

    @property
    def passes(self) -> int:
        """Passes in a row since the last play (all of them in a row clear the pile where the rules say so)."""
        return self._passes

    @property
    def last_player(self) -> int | None:
        """The seat that made the last play, or None before the first."""
        return self._last_player

    @property
    def turns(self) -> int:
        """Plays and passes made so far (what the turn cap counts)."""
        return self._turns

    def pile_cards(self) -> tuple[int, ...]:
        """Every card in the pile, bottom first."""
        return tuple(c for entry in self._pile for c in entry[1])

    def pile_size(self) -> int:
        return self._pile_n

    def stock(self) -> tuple[int, ...]:
        """The stock, top card first."""
        return tuple(reversed(self._stock))

    def aside(self) -> tuple[int, ...]:
        return tuple(self._aside)

    def gone(self) -> tuple[int, ...]:
        """Cards put out of play unseen during the game (discarded piles, cards of seats gone out)."""
        return tuple(self._gone)

    def discarded_sets(self) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
        """Sets put out of the game, in public: (seat, rank, cards)."""
        return tuple(self._sets)

    def reveals(self) -> tuple[RevealRecord, ...]:
        return tuple(self._reveals)

    def seats_in(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.game.players) if self._in[s])

    def is_in(self, seat: int) -> bool:
        return self._in[seat]

    def order_out(self) -> tuple[int, ...]:
        return tuple(self._out_order)

    def left_of(self, seat: int) -> int:
        """The next seat in turn order still in the game."""
        return self._next_in[seat]

    def right_of(self, seat: int) -> int:
        """The previous seat in turn order still in the game."""
        return self._prev_in[seat]

    def __str__(self) -> str:
        from .notation import describe_state
        return describe_state(self)

    # -- steps ---------------------------------------------------------------------------------

    def _apply_play(self, action: Play) -> None:
        if self._phase is not _PLAY:
            raise IllegalAction(self._not_now("play cards"))
        g = self.game
        cards = action.cards
        claim = action.claim
        count = action.count
        try:
            n = len(cards)
            if (claim not in self._required_set or not g.min_cards <= n <= g.most_cards
                    or (count != n if g.exact else not g.min_cards <= count <= (g.any_count_cap if g.any_count else n))):
                raise IllegalAction(self._bad_play(action))
        except TypeError:
            raise IllegalAction(f"{action!r} is not a play: cards are a tuple of card values, "
                                "the claim and the count whole numbers") from None
        seat = self._seat
        hand = self._hands[seat]
        taken = 0
        try:
            last = 0
            for c in cards:
                if c < last or not hand[c]:
                    break
                hand[c] -= 1
                taken += 1
                last = c
        except (IndexError, TypeError):
            pass
        if taken != n:
            for c in cards[:taken]:
                hand[c] += 1
            raise IllegalAction(self._bad_cards(action))
        size = self._sizes[seat] - n
        self._sizes[seat] = size
        self._pile.append((seat, cards, claim, count, not size))
        self._pile_n += n
        self._previous = claim
        self._leading = False
        self._passes = 0
        self._last_player = seat
        self._turns += 1
        self._claimant = seat
        if not size and g.at_once:
            self._stands()
            return
        self._responders = responders = self._responders_of[seat]
        self._ri = 0
        self._phase = _RESPOND
        self._seat = responders[0]

    def _apply_accept(self, action: Accept) -> None:
        if self._phase is not _RESPOND:
            raise IllegalAction(self._not_now("accept a claim"))
        ri = self._ri + 1
        if ri < len(self._responders):
            self._ri = ri
            self._seat = self._responders[ri]
        else:
            self._stands()

    def _stands(self) -> None:
        """The pending play stands: its player goes out on an empty hand, the next seat plays on."""
        claimant = self._claimant
        if not self._sizes[claimant]:
            _challenge.go_out(self, claimant, "emptied the hand")
            if self._phase is _TERMINAL:
                return
        g = self.game
        claim = self._previous
        self._required = g.follow[claim]  # type: ignore[index]
        self._required_set = g.follow_sets[claim]  # type: ignore[index]
        self.begin_turn(self._next_in[claimant])

    def _apply_challenge(self, action: Challenge) -> None:
        if self._phase is not _RESPOND:
            raise IllegalAction(self._not_now("challenge"))
        kind = self.game.kinds.get(action.kind)
        if kind is None:
            raise IllegalAction(self._bad_kind(action.kind))
        _challenge.resolve(self, kind, self._seat)

    def _apply_pass(self, action: Pass) -> None:
        g = self.game
        if self._phase is not _PLAY:
            raise IllegalAction(self._not_now("pass"))
        if not g.may_pass:
            raise IllegalAction("passing is not allowed: a player without the rank must bluff")
        if self._leading and not g.leader_may_pass:
            raise IllegalAction(f"seat {self._seat} leads the round and may not pass")
        if g.pass_when is not None and not g.pass_when(self._turn_facts(self._seat)):
            raise IllegalAction(f"seat {self._seat} may not pass now: passing needs `{g.pass_when_text}`")
        self._turns += 1
        self._passes += 1
        if self._passes >= self._in_count - (self._empty_seats_in() if g.emptied_stays_in else 0):
            _challenge.all_passed(self)
        else:
            self.begin_turn(self._next_in[self._seat])

    def _apply_discard(self, action: DiscardSet) -> None:
        if self._phase is not _DISCARD:
            raise IllegalAction(self._not_now("discard a set"))
        _challenge.discard_chosen_set(self, action.rank)

    def _apply_keep(self, action: KeepSets) -> None:
        if self._phase is not _DISCARD:
            raise IllegalAction(self._not_now("finish discarding sets"))
        _challenge.finish_resolution(self)

    def _apply_dealer(self, action: ChanceDealer) -> None:
        if self._phase is not _CHANCE or self._dealer is not None:
            raise IllegalAction("the dealer is not being chosen now")
        if not isinstance(action.seat, int) or not 0 <= action.seat < self.game.players:
            raise IllegalAction(f"there is no seat {action.seat} to deal")
        self._dealer = action.seat

    def _apply_shuffle(self, action: ChanceShuffle) -> None:
        if self._phase is not _CHANCE or self._dealer is None:
            raise IllegalAction("the deck is not being shuffled now")
        if not isinstance(action.seed, int) or action.seed < 0:
            raise IllegalAction(f"a shuffle seed is a whole number from 0 up, not {action.seed!r}")
        from .deal import deal
        deal(self, action.seed)

    def begin_turn(self, seat: int) -> None:
        """`seat` comes to play: the turn cap, a turn-start win, or the play phase."""
        g = self.game
        win = g.turn_start_win
        while True:
            if self._turns >= g.turn_cap:
                _challenge.finish(self, Ending.TURN_CAP, f"stopped by the turn cap after {self._turns} turns")
                return
            if g.emptied_stays_in and not self._sizes[seat]:
                seat = self._pass_over_empty(seat)
                if seat < 0:
                    return
            if win is None or not win(self._turn_facts(seat)):
                break
            _challenge.go_out(self, seat, "won at the start of the turn")
            if self._phase is _TERMINAL:
                return
            seat = self._next_in[seat]
        self._phase = _PLAY
        self._seat = seat
        if (not self._required or self._sizes[seat] < g.min_cards) and not self.can_pass():
            _challenge.finish(self, Ending.NO_LEGAL_ACTION, f"seat {seat} has no legal action")

    def _pass_over_empty(self, seat: int) -> int:
        """`emptied_by_sets: stays_in`: the first seat from `seat` on holding cards, whose turn it is;
        -1, the game stopped, when no seat still in holds a card."""
        start = seat
        while not self._sizes[seat]:
            seat = self._next_in[seat]
            if seat == start:
                _challenge.finish(self, Ending.NO_LEGAL_ACTION, f"seat {seat} has no legal action: no seat still in "
                                  "holds a card")
                return -1
        return seat

    def _empty_seats_in(self) -> int:
        """Seats still in holding no cards (passed over at their turns, so not counted among the passes)."""
        return sum(1 for s, k in enumerate(self._sizes) if not k and self._in[s])

    # -- messages (built only when an action is refused) ---------------------------------------

    def _not_now(self, what: str) -> str:
        from .notation import phase_text
        return f"cannot {what} now: {phase_text(self)}"

    def _bad_play(self, action: Play) -> str:
        from .notation import bad_play_text
        return bad_play_text(self, action)

    def _bad_cards(self, action: Play) -> str:
        from .notation import bad_cards_text
        return bad_cards_text(self, action)

    def _bad_kind(self, kind: str) -> str:
        g = self.game
        if kind in g.all_kind_names:
            return f"the challenge `{kind}` is not allowed with {g.players} players"
        return f"there is no challenge `{kind}`; this game has " + ", ".join(f"`{k}`" for k in g.kind_names)


_HANDLERS: dict[type, Callable[[State, object], None]] = {
    Play: State._apply_play,  # type: ignore[dict-item]
    Accept: State._apply_accept,  # type: ignore[dict-item]
    Challenge: State._apply_challenge,  # type: ignore[dict-item]
    Pass: State._apply_pass,  # type: ignore[dict-item]
    DiscardSet: State._apply_discard,  # type: ignore[dict-item]
    KeepSets: State._apply_keep,  # type: ignore[dict-item]
    ChanceDealer: State._apply_dealer,  # type: ignore[dict-item]
    ChanceShuffle: State._apply_shuffle,  # type: ignore[dict-item]
}

