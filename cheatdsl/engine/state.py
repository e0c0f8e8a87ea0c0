"""The state of one game: its cards and seats, the common steps (play, accept, pass) and a public interface.

Hands are lists of counts indexed by card value (`TableRules.card_values`). The pile is kept three ways,
newest last: the `Play` of each claim, who made it, and every card in one list (cards already on the
table in a position are one bundle with no claim); a play adds to each without building anything. Only this module reads or writes a state's fields: the rarer steps
(challenges, set discards, going out: `challenge.py`) and the deal (`deal.py`) go through the named
operations below, each one thing that happens at a card table (`take_pile`, `draw`, `pass_card`, ...).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from . import challenge as _challenge
from . import plays as _plays
from .actions import (
    ACCEPT,
    CHANCE,
    TERMINAL,
    Accept,
    Action,
    Challenge,
    ChanceCaller,
    ChanceDealer,
    ChanceShuffle,
    DiscardSet,
    IllegalAction,
    KeepSets,
    Pass,
    Phase,
    Play,
)
from .deal import deal
from .ending import Ending
from .refusals import Doing, Refusal
from .observation import Observation, observe
from .rearranging import same_cards_elsewhere
from .records import PileEntry, Result, RevealRecord, RuleGap
from .seating import close_up
from .view import View

if TYPE_CHECKING:
    from .challenge import Resolution
    from .context import Facts
    from .game import Game

_CHANCE, _PLAY, _RESPOND, _DISCARD, _TERMINAL = (Phase.CHANCE, Phase.PLAY, Phase.RESPOND, Phase.DISCARD,
                                                 Phase.TERMINAL)
_NOBODY: Mapping[int, int] = MappingProxyType({})  # the holders before a deal
_BUNDLE = -1  # who put down a pile entry that is the cards already on the table (no claim)

__all__ = ["PileEntry", "Result", "RevealRecord", "State"]


def _reading(field: str, doc: str) -> Any:
    """A read-only attribute served by a C getter of `field` (no Python frame per read)."""
    return property(attrgetter(field), doc=doc)


class State:
    """One game in progress: OpenSpiel-style `current_player`, `legal_actions`, `apply_action`."""

    __slots__ = (
        "game", "_phase", "_seat", "_dealer", "_hands", "_sizes", "_pile", "_pile_by", "_pile_cards", "_stock",
        "_aside", "_gone", "_sets", "_in", "_seating", "_in_count", "_out_order", "_next_in", "_prev_in",
        "_responders_of", "_previous", "_leading", "_required", "_required_set", "_claimant", "_responders",
        "_ri", "_calls", "_open", "_after_pass", "_passes", "_last_player", "_turns", "_history", "_reveals",
        "_pending", "_winner", "_loser", "_capped", "_reason", "_ending", "_holders", "_first", "_gaps",
    )

    def __init__(self, game: Game) -> None:
        n = game.players
        rules = game.rules
        self.game = game
        self._phase = _CHANCE
        self._seat = CHANCE
        self._dealer: int | None = None if rules.dealer_by_lot else 0
        width = rules.values + 1
        self._hands = [[0] * width for _ in range(n)]
        self._sizes = [0] * n
        self._pile: list[Play] = []
        self._pile_by: list[int] = []  # 2 * seat, plus 1 when the play emptied the hand; _BUNDLE
        self._pile_cards: list[int] = []  # every card on the pile, bottom first
        self._stock: list[int] = []  # top card last
        self._aside: list[int] = []
        self._gone: list[int] = []
        self._sets: list[tuple[int, int, tuple[int, ...]]] = []
        self._in = [True] * n
        self._seating: tuple[bool, ...] = tuple(self._in)
        self._in_count = n
        self._out_order: list[int] = []
        self._next_in = list(rules.succ)
        self._prev_in = list(rules.pred)
        self._responders_of = list(rules.responders_of)
        self._previous: int | None = None
        self._leading = False
        self._required: tuple[int, ...] = ()
        self._required_set: frozenset[int] = frozenset()
        self._claimant = -1
        self._responders: tuple[int, ...] = ()
        self._ri = 0
        # Calls made at once, unseen until every responder has answered: (seat, kind name), nearest first.
        self._calls: tuple[tuple[int, str], ...] = ()
        self._open = False  # the last play stood and may still be challenged (`window_through_passes`)
        self._after_pass = -1  # the seat to play once the answers asked again after a pass are in
        self._passes = self._turns = 0
        self._last_player: int | None = None
        self._history: list[Action] = []
        self._reveals: list[RevealRecord] = []
        self._pending: Resolution | None = None
        self._winner: int | None = None
        self._loser: int | None = None
        self._capped, self._reason = False, ""
        self._ending: Ending | None = None
        self._holders: Mapping[int, int] = _NOBODY
        self._first: int | None = None
        self._gaps: frozenset[RuleGap] = frozenset()

    # -- the OpenSpiel surface -----------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, or CHANCE, or TERMINAL."""
        return self._seat

    # The busiest reads are C getters (no Python frame per read); do not change the lists they return.
    phase: Phase = _reading("_phase", "What the game waits for.")
    to_act: int = _reading("_seat", "The seat to act (or CHANCE / TERMINAL).")
    required: tuple[int, ...] = _reading("_required", "The claims allowed for the play to be made (or pending).")
    sizes: list[int] = _reading("_sizes", "How many cards each seat holds (the state's own list: read, never change).")
    previous: int | None = _reading("_previous", "The last claim made, or None.")
    leading: bool = _reading("_leading", "Whether the play to be made leads a round.")
    dealer: int | None = _reading("_dealer", "The dealer's seat (None before the lot).")
    turns: int = _reading("_turns", "Plays and passes made so far (what the turn cap counts).")
    passes: int = _reading("_passes", "Passes in a row since the last play (all of them in a row end a round).")
    last_player: int | None = _reading("_last_player", "The seat that made the last play, or None before the first.")
    players_in: int = _reading("_in_count", "How many seats are still in the game.")
    seating: tuple[bool, ...] = _reading("_seating", "Whether each seat is still in (a new tuple whenever a seat leaves).")
    first_player: int | None = _reading(
        "_first", "The seat whose turn came first, as the deal (or a position) named it, even where the turn-start "
        "rules moved the turn on at once or ended the game; None before the deal or where the rules named nobody.")
    rule_gaps: frozenset[RuleGap] = _reading(
        "_gaps", "The gaps in the rules this game has met (a seat formula that named no seat, a round with no claim "
        "to lead), each filled by the interpreter to go on; empty while the rules have said every step.")
    records: Sequence[RevealRecord] = _reading("_reveals", "Every challenge's outcome so far (the state's own list).")
    holders: Mapping[int, int] = _reading(
        "_holders", "The seat dealt each exact card (`suit * ranks + rank`), for the whole game; a card set aside, left "
        "undealt or not in the deck is absent (with several packs, the first seat dealt a copy). Empty for a game "
        "entered as a position.")

    def is_terminal(self) -> bool:
        return self._phase is _TERMINAL

    def is_chance_node(self) -> bool:
        return self._phase is _CHANCE

    def history(self) -> list[Action]:
        """Every action applied so far, chance actions included: replaying them rebuilds this state."""
        return list(self._history)

    def history_length(self) -> int:
        """How many actions have been applied (chance actions included), without copying the history."""
        return len(self._history)

    def legal_actions(self, limit: int | None = None) -> list[Action]:
        """Every legal action in canonical order; raises TooManyActions past `limit` plays. At the shuffle any
        seed from 0 up is legal and none is listed: use `chance_outcome(rng)`."""
        return _plays.legal_actions(self, limit)

    def can_pass(self) -> bool:
        """Whether the seat to play may pass now."""
        rules = self.game.rules
        if self._phase is not _PLAY or not rules.may_pass or (self._leading and not rules.leader_may_pass):
            return False
        return rules.pass_when is None or bool(rules.pass_when.code(self._turn_facts(self._seat)))

    def _turn_facts(self, seat: int) -> Facts:
        """The facts of `seat`'s turn, for `turn_start_win` and `passing.when`."""
        return self.game.facts(self, self._dealer or 0, hand=self._sizes[seat], leading=self._leading,
                               required=self._required_set, acting=seat)

    def count_play_actions(self) -> int:
        """How many different plays the seat to play may make (without listing them)."""
        return _plays.count_plays(self)

    def sample_play(self, rng: random.Random) -> Play:
        """A play drawn uniformly from every legal play, without listing them."""
        return _plays.sample_play(self, rng)

    def is_legal(self, action: Action) -> bool:
        """Whether `action` may be applied now."""
        return self.refusal(action) is None

    def refusal(self, action: Action) -> IllegalAction | None:
        """The refusal `action` would meet now (`words.notation.refusal_text` says it), or None when legal."""
        handler = _HANDLERS.get(action.__class__)
        if handler is None:
            return IllegalAction(Refusal.NOT_AN_ACTION, state=self, action=action)
        trial = self.clone(history=False)
        try:
            handler(trial, action)
        except IllegalAction as exc:
            return exc
        return None

    def apply_action(self, action: Action) -> None:
        """Apply one action; raises IllegalAction, leaving the state unchanged, when it is not legal."""
        try:
            handler = _HANDLERS[action.__class__]
        except KeyError:
            raise IllegalAction(Refusal.NOT_AN_ACTION, state=self, action=action) from None
        handler(self, action)
        self._history.append(action)

    def returns(self) -> list[float]:
        """Zero-sum returns: the winner +1 (others share -1), or the loser -1 (others share +1)."""
        n = self.game.players
        out = [0.0] * n
        if self._phase is not _TERMINAL or self._capped:
            return out
        if self.game.rules.first_out and self._winner is not None:
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
        return observe(self, seat)

    def view(self, seat: int) -> View:
        """`seat`'s live, read-only view for a bot: its own hand, the public table, its legal choices."""
        return View(self, seat)

    def chance_outcome(self, rng: random.Random) -> Action:
        """A chance action drawn with `rng`: the dealer by lot, then a shuffle seed; mid-game, which of
        several seats that called at once called first (each equally likely)."""
        if self._phase is not _CHANCE:
            raise IllegalAction(Refusal.NOT_CHANCE, state=self)
        if self._calls:
            return ChanceCaller(self._calls[rng.randrange(len(self._calls))][0])
        if self._dealer is None:
            return ChanceDealer(rng.randrange(self.game.players))
        return ChanceShuffle(rng.getrandbits(64))

    def clone(self, history: bool = True) -> State:
        """An independent copy (`history=False`: sharing the history list, for a trial step only)."""
        other = State.__new__(State)
        _copy_written_out(self, other)
        other._hands = [list(h) for h in self._hands]
        other._history = list(self._history) if history else self._history
        return other

    def bare_copy(self) -> State:
        """An independent copy with no history and no record of challenges, for a search that reads neither
        (the verifier's exhaustive judge): its `records` hold only the challenges made after the copy."""
        other = self.clone(history=False)
        other._history = []
        other._reveals = []
        return other

    def position(self, turns: bool, holders: bool) -> tuple[Any, ...]:
        """Everything about this state that the rules read from now on, as one hashable value: two states with
        the same position play the same games from there. Left out: the history and the record of challenges
        (no rule reads them), what is worked out from the rest (hand sizes, the pile's cards in one list, the
        seats round the table), the turn count unless `turns` (a turn cap reads it), who was dealt each card
        unless `holders` (a formula read in play asks it), and the order of the cards set aside or gone out of
        play. A finished game is its ending, winner, loser and order out."""
        if self._phase is _TERMINAL:
            return ("over", self._ending, self._winner, self._loser, tuple(self._out_order))
        return (
            self._phase, self._seat, self._dealer, tuple(map(tuple, self._hands)), tuple(self._pile),
            tuple(self._pile_by), tuple(self._stock), tuple(sorted(self._aside)), tuple(sorted(self._gone)),
            tuple(self._sets), self._seating, tuple(self._out_order), self._previous, self._leading, self._required,
            self._claimant, self._responders, self._ri, self._calls, self._open, self._after_pass, self._passes,
            self._last_player, self._pending, self._turns if turns else -1,
            tuple(sorted(self._holders.items())) if holders else (),
        )

    def rearranged(self, hands: Mapping[int, Sequence[int]] | None = None,
                   pile: Sequence[Sequence[int]] | None = None, stock: Sequence[int] | None = None,
                   aside: Sequence[int] | None = None) -> State:
        """A copy with the same cards in other places (what a seat must not be able to tell apart): `hands` maps
        seats to their new cards (card values), `pile` gives each pile entry's cards bottom first, `stock` its
        cards top first. Raises ValueError unless every place keeps its size and the table keeps the same cards."""
        if not same_cards_elsewhere(self, hands or {}, pile, stock, aside):
            raise ValueError("a rearrangement keeps every place's size and the table's cards")
        other = self.clone()
        for seat, cards in (hands or {}).items():
            hand = other._hands[seat]
            hand[:] = [0] * len(hand)
            for c in cards:
                hand[c] += 1
        if pile is not None:
            other._pile[:] = [Play(tuple(cards), p.claim, p.count) for p, cards in zip(self._pile, pile)]
            other._pile_cards[:] = [c for cards in pile for c in cards]
        if stock is not None:
            other._stock[:] = reversed(stock)
        if aside is not None:
            other._aside[:] = aside
        return other

    # -- reading the table (do not change what these return) -----------------------------------

    def hand(self, seat: int) -> list[int]:
        """The count of each card value in `seat`'s hand (the state's own list: read only)."""
        return self._hands[seat]

    def hand_cards(self, seat: int) -> tuple[int, ...]:
        """`seat`'s hand as sorted card values."""
        cards: list[int] = []
        for v, k in enumerate(self._hands[seat]):
            if k:
                cards += [v] * k
        return tuple(cards)

    def hand_sizes(self) -> list[int]:
        return list(self._sizes)

    def hand_size(self, seat: int) -> int:
        return self._sizes[seat]

    def required_claims(self) -> tuple[int, ...]:
        """The claims allowed for the play to be made (or pending), in claim order."""
        return self._required

    @property
    def claimant(self) -> int | None:
        """The seat whose claim awaits responses (or the lot of who called first on it), or None."""
        return self._claimant if self._phase is _RESPOND or self._calls else None

    @property
    def window_open(self) -> bool:
        """Whether the last play stood and may still be challenged after a pass (`window: before_next_play`
        at a table that passes): no play, challenge or round's end has closed its window yet (its claimant
        may since have gone out, which closes it too)."""
        return self._open

    def callers(self) -> tuple[int, ...]:
        """The seats whose calls at once wait for the lot of who called first (empty at any other time:
        calls still being made are not public)."""
        return tuple(seat for seat, _ in self._calls) if self._phase is _CHANCE else ()

    def pending_play(self) -> Play | None:
        """The play awaiting responses, or None."""
        return self._pile[-1] if self._phase is _RESPOND else None

    @property
    def pending_claim(self) -> tuple[int, int, int, bool] | None:
        """The claim awaiting responses as (claim, count called, cards put down, the claimant's last cards)."""
        if self._phase is not _RESPOND:
            return None
        play = self._pile[-1]
        return play.claim, play.count, len(play.cards), self._pile_by[-1] & 1 == 1

    def pending_emptied(self) -> bool:
        """Whether the play awaiting responses put down the claimant's last cards."""
        return self._phase is _RESPOND and self._pile_by[-1] & 1 == 1

    def pile_cards(self) -> tuple[int, ...]:
        """Every card in the pile, bottom first."""
        return tuple(self._pile_cards)

    def pile_plays(self) -> tuple[PileEntry, ...]:
        """The pile as the table heard it, bottom first: (seat, cards, claim, count, emptied the hand). Cards
        already on the table in a position are one entry with no seat and no claim."""
        return tuple((None, p.cards, None, p.count, False) if by == _BUNDLE else
                     (by >> 1, p.cards, p.claim, p.count, by & 1 == 1) for p, by in zip(self._pile, self._pile_by))

    def pile_size(self) -> int:
        return len(self._pile_cards)

    def stock(self) -> tuple[int, ...]:
        """The stock, top card first."""
        return tuple(reversed(self._stock))

    def stock_size(self) -> int:
        return len(self._stock)

    def aside(self) -> tuple[int, ...]:
        return tuple(self._aside)

    def gone(self) -> tuple[int, ...]:
        """Cards put out of play unseen during the game (discarded piles, cards of seats gone out)."""
        return tuple(self._gone)

    def discarded_sets(self) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
        """Sets put out of the game, in public: (seat, rank, cards)."""
        return tuple(self._sets)

    def set_count(self) -> int:
        return len(self._sets)

    def discarded_set(self, index: int) -> tuple[int, int, tuple[int, ...]]:
        """The `index`-th set put out of the game: (seat, rank, cards)."""
        return self._sets[index]

    def reveals(self) -> tuple[RevealRecord, ...]:
        return tuple(self._reveals)

    def reveal_count(self) -> int:
        return len(self._reveals)

    def reveal(self, index: int) -> RevealRecord:
        """The `index`-th challenge of the game, in public."""
        return self._reveals[index]

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

    # -- what happens at the table: the operations the rarer steps and the deal are made of -----

    def lay_out(self, dealer: int, hands: Sequence[Sequence[int]], pile: Sequence[int] = (),
                stock: Sequence[int] = (), aside: Sequence[int] = (), holders: Mapping[int, int] = _NOBODY) -> None:
        """Cards go on an empty table: `hands` as counts per card value, the pile as one bundle (bottom
        first), the stock (top card first) and the cards set aside; `dealer` deals, and `holders` says
        which seat was dealt each exact card (kept, unchanged, for the whole game)."""
        self._dealer = dealer
        self._holders = MappingProxyType(dict(holders)) if holders else _NOBODY
        for seat, counts in enumerate(hands):
            self._hands[seat][:] = counts
            self._sizes[seat] = sum(counts)
        if pile:
            self._pile[:] = [Play(tuple(pile), -1, len(pile))]
            self._pile_by[:] = [_BUNDLE]
            self._pile_cards[:] = pile
        self._stock[:] = reversed(stock)
        self._aside[:] = aside

    def open_play(self, previous: int | None, leading: bool, last_player: int | None = None) -> None:
        """Play starts (or resumes in a position) after the claim `previous`; with `leading`, or before
        any claim, the next play leads a round. The seat to play comes with `begin_turn`."""
        self._previous = previous
        self._leading = leading or previous is None
        self._last_player = last_player
        self._required, self._required_set = self.game.rules.required_after(previous, leading)

    def pass_card(self, from_seat: int, to_seat: int, card: int) -> None:
        """One card goes from one hand to another (a card shown to a Force goes to the loser)."""
        self._hands[from_seat][card] -= 1
        self._sizes[from_seat] -= 1
        self._hands[to_seat][card] += 1
        self._sizes[to_seat] += 1

    def take_pile(self, seat: int) -> int:
        """`seat` picks up every card on the pile; returns how many."""
        hand = self._hands[seat]
        cards = self._pile_cards
        for c in cards:
            hand[c] += 1
        taken = len(cards)
        self._sizes[seat] += taken
        cards.clear()
        self._pile.clear()
        self._pile_by.clear()
        return taken

    def discard_pile(self) -> None:
        """The pile leaves the game unseen."""
        self._gone += self._pile_cards
        self._pile_cards.clear()
        self._pile.clear()
        self._pile_by.clear()

    def draw(self, seat: int, cards: int) -> int:
        """`seat` draws up to `cards` cards from the top of the stock; returns how many it got."""
        stock = self._stock
        drawn = min(cards, len(stock))
        hand = self._hands[seat]
        for _ in range(drawn):
            hand[stock.pop()] += 1
        self._sizes[seat] += drawn
        return drawn

    def put_down_set(self, seat: int, rank: int, cards: tuple[int, ...]) -> None:
        """`seat` shows `cards`, a set of `rank`, and puts them out of the game."""
        hand = self._hands[seat]
        for c in cards:
            hand[c] -= 1
        self._sizes[seat] -= len(cards)
        self._sets.append((seat, rank, cards))

    def record_reveal(self, record: RevealRecord) -> None:
        """A challenge's outcome goes on the public record."""
        self._reveals.append(record)

    def fill_gap(self, gap: RuleGap) -> None:
        """The rules left `gap` here and the interpreter filled it (kept in `rule_gaps`)."""
        if gap not in self._gaps:
            self._gaps = self._gaps | {gap}

    def new_round(self) -> None:
        """The next play leads a new round."""
        self._leading = True

    def ask_for_sets(self, seat: int, resolution: Resolution) -> None:
        """`seat` is to discard sets or keep them; `resolution` is handed back to `challenge` afterwards."""
        self._phase, self._seat, self._pending = _DISCARD, seat, resolution

    def leave(self, seat: int, hand_out_of_play: bool) -> None:
        """`seat` goes out of the game and the turn order closes up; with `hand_out_of_play` the cards it
        still holds leave the game unseen."""
        rules = self.game.rules
        self._in[seat] = False
        self._in_count -= 1
        self._out_order.append(seat)
        if hand_out_of_play:
            hand = self._hands[seat]
            for v, k in enumerate(hand):
                if k:
                    self._gone.extend([v] * k)
                    hand[v] = 0
            self._sizes[seat] = 0
        self._seating = tuple(self._in)
        # New lists, never changed in place, so clones share them.
        self._next_in, self._prev_in, self._responders_of = close_up(rules.succ, rules.pred, self._in)

    def next_turn(self, seat: int) -> None:
        """The claims allowed follow the last claim (a lead when a round begins); `seat` comes to play."""
        self._required, self._required_set = self.game.rules.required_after(self._previous, self._leading)
        if not self._required and self._leading and self._previous is not None:
            self.fill_gap(RuleGap.LEAD)
        self.begin_turn(seat)

    def finish(self, ending: Ending, reason: str, winner: int | None = None, loser: int | None = None) -> None:
        """The game is over, for `ending` (said in words as `reason`)."""
        self._phase, self._seat = _TERMINAL, TERMINAL
        self._capped, self._reason, self._ending = not ending.finished, reason, ending
        if winner is not None:
            self._winner = winner
        if loser is not None:
            self._loser = loser

    def begin_first_turn(self, seat: int) -> None:
        """The game's first turn comes to `seat` (kept as `first_player`): `begin_turn`."""
        self._first = seat
        self.begin_turn(seat)

    def begin_turn(self, seat: int) -> None:
        """`seat` comes to play: the turn cap, a turn-start win, or the play phase."""
        g = self.game
        rules = g.rules
        if rules.turn_start_win is not None or rules.emptied_stays_in:
            seat = self._turn_goes_to(seat)
            if seat < 0:
                return
        elif self._turns >= g.turn_limit:
            self.finish(Ending.TURN_CAP, f"stopped by the turn cap after {self._turns} turns")
            return
        self._phase = _PLAY
        self._seat = seat
        if (not self._required or self._sizes[seat] < rules.min_cards) and not self.can_pass():
            self.finish(Ending.NO_LEGAL_ACTION, f"seat {seat} has no legal action")

    def _turn_goes_to(self, seat: int) -> int:
        """Where the turn coming to `seat` lands: seats holding no cards passed over, seats winning at
        the start of their turn gone out; -1 when that ended the game (or the turn cap did)."""
        g = self.game
        rules = g.rules
        win = rules.turn_start_win.code if rules.turn_start_win is not None else None
        while True:
            if self._turns >= g.turn_limit:
                self.finish(Ending.TURN_CAP, f"stopped by the turn cap after {self._turns} turns")
                return -1
            if rules.emptied_stays_in and not self._sizes[seat]:
                seat = self._pass_over_empty(seat)
                if seat < 0:
                    return -1
            if win is None or not win(self._turn_facts(seat)):
                return seat
            _challenge.go_out(self, seat, "won at the start of the turn")
            if self._phase is _TERMINAL:
                return -1
            seat = self._next_in[seat]

    def _pass_over_empty(self, seat: int) -> int:
        """`emptied_by_sets: stays_in`: the first seat from `seat` on holding cards, whose turn it is;
        -1, the game stopped, when no seat still in holds a card."""
        start = seat
        while not self._sizes[seat]:
            seat = self._next_in[seat]
            if seat == start:
                self.finish(Ending.NO_LEGAL_ACTION, f"seat {seat} has no legal action: no seat still in "
                            "holds a card")
                return -1
        return seat

    def _empty_seats_in(self) -> int:
        """Seats still in holding no cards (passed over at their turns, so not counted among the passes)."""
        return sum(1 for s, k in enumerate(self._sizes) if not k and self._in[s])

    # -- steps ---------------------------------------------------------------------------------

    def _apply_play(self, action: Play) -> None:
        if self._phase is not _PLAY:
            raise IllegalAction(Refusal.NOT_NOW, state=self, doing=Doing.PLAY)
        rules = self.game.rules
        cards = action.cards
        claim = action.claim
        count = action.count
        try:
            n = len(cards)
            if (claim not in self._required_set or not rules.min_cards <= n <= rules.most_cards
                    or (count != n if rules.exact
                        else not rules.min_cards <= count <= (rules.any_count_cap if rules.any_count else n))):
                raise IllegalAction(Refusal.BAD_PLAY, state=self, action=action)
        except TypeError:
            raise IllegalAction(Refusal.NOT_A_PLAY, state=self, action=action) from None
        seat = self._seat
        hand = self._hands[seat]
        if n == 1:
            c = cards[0]
            try:
                held = hand[c] if c >= 0 else 0
            except (IndexError, TypeError):
                held = 0
            if not held:
                raise IllegalAction(Refusal.BAD_CARDS, state=self, action=action)
            hand[c] = held - 1
        else:
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
                raise IllegalAction(Refusal.BAD_CARDS, state=self, action=action)
        size = self._sizes[seat] - n
        self._sizes[seat] = size
        self._pile.append(action)
        self._pile_by.append(seat + seat + (not size))
        self._pile_cards += cards
        self._previous = claim
        self._leading = False
        self._open = False
        self._passes = 0
        self._last_player = seat
        self._turns += 1
        self._claimant = seat
        if not size and rules.at_once:
            self._stands()
            return
        self._responders = responders = self._responders_of[seat]
        self._ri = 0
        self._phase = _RESPOND
        self._seat = responders[0]

    def _apply_accept(self, action: Accept) -> None:
        if self._phase is not _RESPOND:
            raise IllegalAction(Refusal.NOT_NOW, state=self, doing=Doing.ACCEPT)
        ri = self._ri + 1
        if ri < len(self._responders):
            self._ri = ri
            self._seat = self._responders[ri]
        elif self._calls:
            self._hear_calls()
        elif self._after_pass >= 0:
            seat, self._after_pass = self._after_pass, -1
            self.begin_turn(seat)
        else:
            self._stands()

    def accept_until(self, seat: int = -1) -> tuple[int, ...]:
        """Every responder to answer before `seat` (all, when `seat` is not one) accepts, as `apply_action(ACCEPT)`
        once each would; returns their seats."""
        if self._phase is not _RESPOND:
            raise IllegalAction(Refusal.NOT_NOW, state=self, doing=Doing.ACCEPT)
        ri, responders = self._ri, self._responders
        stop = responders.index(seat, ri) if seat in responders[ri:] else len(responders)
        if stop > ri:
            self._history += (ACCEPT,) * (stop - ri)
            self._ri, self._seat = stop - 1, responders[stop - 1]
            self._apply_accept(ACCEPT)  # the last accept, as `apply_action` makes it
        return responders[ri:stop]

    def _stands(self) -> None:
        """The pending play stands: its player goes out on an empty hand, the next seat plays on."""
        claimant = self._claimant
        if not self._sizes[claimant]:
            _challenge.go_out(self, claimant, "emptied the hand")
            if self._phase is _TERMINAL:
                return
        rules = self.game.rules
        self._open = rules.window_through_passes and self._in[claimant]
        claim = self._previous
        self._required = rules.follow_claims[claim]  # type: ignore[index]
        self._required_set = rules.follow_sets[claim]  # type: ignore[index]
        self.begin_turn(self._next_in[claimant])

    def _apply_challenge(self, action: Challenge) -> None:
        if self._phase is not _RESPOND:
            raise IllegalAction(Refusal.NOT_NOW, state=self, doing=Doing.CHALLENGE)
        rules = self.game.rules
        kind = rules.kind_by_name.get(action.kind)
        if kind is None:
            raise IllegalAction(Refusal.BAD_KIND, state=self, kind=action.kind)
        if not rules.calls_at_once:
            self._hear(self._seat, action.kind)
            return
        self._calls += ((self._seat, action.kind),)
        ri = self._ri + 1
        if ri < len(self._responders):
            self._ri = ri
            self._seat = self._responders[ri]
        else:
            self._hear_calls()

    def _hear_calls(self) -> None:
        """Every responder has answered: the priority rule picks whose call is heard, or the lot does."""
        calls = self._calls
        if len(calls) > 1 and self.game.rules.caller_by_lot:
            self._phase = _CHANCE
            self._seat = CHANCE
            return
        # The calls are in the order the responders sit from the claimant's left: the first is nearest.
        self._hear(*calls[0])

    def _hear(self, seat: int, kind: str) -> None:
        """`seat`'s challenge is heard. It closes the play's window; one made after passes starts the count
        of passes again."""
        self._calls = ()
        self._open = False
        self._after_pass = -1
        self._passes = 0
        self._phase = _RESPOND  # after the lot, the claim is judged as any heard call is
        self._seat = seat
        _challenge.resolve(self, self.game.rules.kind_by_name[kind], seat)

    def _apply_caller(self, action: ChanceCaller) -> None:
        if self._phase is not _CHANCE or not self._calls:
            raise IllegalAction(Refusal.NO_LOT, state=self)
        for seat, kind in self._calls:
            if seat == action.seat:
                self._hear(seat, kind)
                return
        raise IllegalAction(Refusal.NOT_A_CALLER, state=self, seat=action.seat)

    def _apply_pass(self, action: Pass) -> None:
        rules = self.game.rules
        if self._phase is not _PLAY:
            raise IllegalAction(Refusal.NOT_NOW, state=self, doing=Doing.PASS)
        if not rules.may_pass:
            raise IllegalAction(Refusal.NO_PASSING, state=self)
        if self._leading and not rules.leader_may_pass:
            raise IllegalAction(Refusal.LEADER_MAY_NOT_PASS, state=self, seat=self._seat)
        if rules.pass_when is not None and not rules.pass_when.code(self._turn_facts(self._seat)):
            raise IllegalAction(Refusal.PASS_NEEDS, state=self, seat=self._seat)
        self._turns += 1
        self._passes += 1
        if self._passes >= self._in_count - (self._empty_seats_in() if rules.emptied_stays_in else 0):
            self._passes = 0
            self._open = False
            _challenge.all_passed(self)
        elif self._open and self._in[self._claimant]:
            # The window of the last play is still open: its responders are asked again before the next seat.
            self._after_pass = self._next_in[self._seat]
            self._responders = responders = self._responders_of[self._claimant]
            self._ri = 0
            self._phase = _RESPOND
            self._seat = responders[0]
        else:
            self.begin_turn(self._next_in[self._seat])

    def _apply_discard(self, action: DiscardSet) -> None:
        if self._phase is not _DISCARD:
            raise IllegalAction(Refusal.NOT_NOW, state=self, doing=Doing.DISCARD)
        if _challenge.discard_chosen_set(self, self._seat, action.rank):
            self._resume()

    def _apply_keep(self, action: KeepSets) -> None:
        if self._phase is not _DISCARD:
            raise IllegalAction(Refusal.NOT_NOW, state=self, doing=Doing.FINISH_DISCARDING)
        self._resume()

    def _resume(self) -> None:
        """The set discards after a challenge are over: the challenge's resolution goes on."""
        resolution = self._pending
        assert resolution is not None
        self._pending = None
        _challenge.finish_resolution(self, resolution)

    def _apply_dealer(self, action: ChanceDealer) -> None:
        if self._phase is not _CHANCE or self._dealer is not None or self._calls:
            raise IllegalAction(Refusal.NO_DEALER_CHOICE, state=self)
        if not isinstance(action.seat, int) or not 0 <= action.seat < self.game.players:
            raise IllegalAction(Refusal.NO_SUCH_SEAT, state=self, seat=action.seat)
        self._dealer = action.seat

    def _apply_shuffle(self, action: ChanceShuffle) -> None:
        if self._phase is not _CHANCE or self._dealer is None or self._calls:
            raise IllegalAction(Refusal.NO_SHUFFLE, state=self)
        if not isinstance(action.seed, int) or action.seed < 0:
            raise IllegalAction(Refusal.BAD_SEED, state=self, action=action)
        deal(self, action.seed)

# What `clone` shares (values never changed in place) and what it copies (lists a state changes).
_COPIED = ("_sizes", "_pile", "_pile_by", "_pile_cards", "_stock", "_aside", "_gone", "_sets", "_in", "_out_order",
           "_reveals")
_SHARED = tuple(name for name in State.__slots__ if name not in (*_COPIED, "_hands", "_history"))


# Copying a state: the plain copy, slot by slot, and the same copy written out, which `clone` uses. A state is
# copied for every step the verifier's exhaustive judge tries and every table the search bot plays out, so the
# copy is a hot path: written out, 0.53 against 3.1 microseconds a copy, and the judge 10 to 30% more states a
# second (docs/performance.md). tests/test_state_copy.py holds the two alike on every slot.


def _copy_plain(state: State, other: State, shared: tuple[str, ...]) -> None:
    """Every slot of `state` into `other`: the `shared` ones as they are, the `_COPIED` lists copied."""
    for name in shared:
        setattr(other, name, getattr(state, name))
    for name in _COPIED:
        setattr(other, name, list(getattr(state, name)))


def _copy_written_out(state: State, other: State) -> None:
    """`_copy_plain`, written out slot by slot (hands and history are the caller's)."""
    other.game = state.game
    other._phase = state._phase
    other._seat = state._seat
    other._dealer = state._dealer
    other._seating = state._seating
    other._in_count = state._in_count
    other._next_in = state._next_in
    other._prev_in = state._prev_in
    other._responders_of = state._responders_of
    other._previous = state._previous
    other._leading = state._leading
    other._required = state._required
    other._required_set = state._required_set
    other._claimant = state._claimant
    other._responders = state._responders
    other._ri = state._ri
    other._calls = state._calls
    other._open = state._open
    other._after_pass = state._after_pass
    other._passes = state._passes
    other._last_player = state._last_player
    other._turns = state._turns
    other._pending = state._pending
    other._winner = state._winner
    other._loser = state._loser
    other._capped = state._capped
    other._reason = state._reason
    other._ending = state._ending
    other._holders = state._holders
    other._first = state._first
    other._gaps = state._gaps
    other._sizes = state._sizes[:]
    other._pile = state._pile[:]
    other._pile_by = state._pile_by[:]
    other._pile_cards = state._pile_cards[:]
    other._stock = state._stock[:]
    other._aside = state._aside[:]
    other._gone = state._gone[:]
    other._sets = state._sets[:]
    other._in = state._in[:]
    other._out_order = state._out_order[:]
    other._reveals = state._reveals[:]

_HANDLERS: dict[type, Callable[[State, Any], None]] = {
    Play: State._apply_play,
    Accept: State._apply_accept,
    Challenge: State._apply_challenge,
    Pass: State._apply_pass,
    DiscardSet: State._apply_discard,
    KeepSets: State._apply_keep,
    ChanceDealer: State._apply_dealer,
    ChanceShuffle: State._apply_shuffle,
    ChanceCaller: State._apply_caller,
}
