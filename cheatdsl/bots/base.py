"""What every bot shares: the interface, and building plays, counts and set discards from a view.

A bot reads only its seat's `View` (`State.view(seat)`): its own hand and the public table.
Plays are cached once built (a `Play` is an immutable value), so a bot's hot path allocates little.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine import KEEP, Action, DiscardSet, Game, Play, View
from ..model import ChallengeTest

_PLAYS: dict[tuple[int, ...], Play] = {}


class Bot:
    """A player for one seat: `act(view)` picks a legal action; `notify(event)` hears public events."""

    name = "bot"
    options: tuple[str, ...] = ()  # the keyword options `make_bot` may pass

    def __init__(self, seat: int, rng: random.Random, **options: Any) -> None:
        if options:
            raise TypeError(f"the {self.name} bot takes no option {', '.join(sorted(options))}")
        self.seat = seat
        self.rng = rng

    def act(self, view: View) -> Action:
        """The action this seat takes now; `view.to_act` is this seat."""
        raise NotImplementedError

    def notify(self, event: object) -> None:
        """A public event (a `RevealRecord` after a challenge); optional, the view carries the same."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat})"


def play_of(cards: tuple[int, ...], claim: int, count: int) -> Play:
    """The Play with these fields, built once."""
    key = (claim, count, *cards)
    p = _PLAYS.get(key)
    if p is None:
        p = _PLAYS[key] = Play(cards, claim, count)
    return p


def count_to_call(game: Game, cards: int) -> int:
    """The honest count for `cards` cards where the rules allow it (else the nearest allowed)."""
    rules = game.rules
    if rules.exact:
        return cards
    top = rules.count_cap if rules.count_cap is not None else cards
    return max(rules.min_cards, min(cards, top))


def truthful_play(view: View, claim: int, most: int) -> Play:
    """Up to `most` cards that pass as `claim`: naturals first, then wild jokers."""
    g = view.game
    rules = g.rules
    hand = view.hand
    naturals = hand[claim] if 0 <= claim < rules.values else 0
    n = min(naturals, most)
    jokers = min(hand[rules.joker], most - n) if rules.wild else 0
    cards = (claim,) * n + (rules.joker,) * jokers
    return play_of(cards, claim, count_to_call(g, len(cards)))


def random_card(view: View, rng_random: Any) -> int:
    """One card drawn uniformly from the hand (every card held equally likely); `rng_random` is `rng.random`."""
    pick = int(rng_random() * view.hand_size)
    for v, k in enumerate(view.hand):
        if pick < k:
            return v
        pick -= k
    raise ValueError("no card to draw")  # only with an empty hand


def random_cards(view: View, rng: random.Random, k: int, base: tuple[int, ...] = ()) -> tuple[int, ...]:
    """`base` plus `k` more cards drawn from what is left of the hand, sorted."""
    pool = list(view.hand_cards())
    for c in base:
        pool.remove(c)
    return tuple(sorted(base + tuple(rng.sample(pool, k))))


def bluff_play(view: View, claim: int, card: int, rng: random.Random) -> Play:
    """`card` put down as `claim` (with random cards added if the rules ask for more)."""
    g = view.game
    rules = g.rules
    if rules.min_cards <= 1:
        return play_of((card,), claim, count_to_call(g, 1))
    cards = random_cards(view, rng, rules.min_cards - 1, (card,))
    return play_of(cards, claim, count_to_call(g, len(cards)))


def pad_to_minimum(view: View, play: Play, rng: random.Random) -> Play:
    """`play` with random cards added when it holds fewer than the rules' minimum."""
    g = view.game
    short = g.rules.min_cards - len(play.cards)
    if short <= 0:
        return play
    cards = random_cards(view, rng, short, play.cards)
    return play_of(cards, play.claim, count_to_call(g, len(cards)))


NEVER = 1 << 30  # a claim the order as it stands will never ask of this seat


def turns_until(game: Game, claim: int, seats: int) -> dict[int, int]:
    """Counting ahead from `claim`, played now: for each claim the order will ask of this seat, in how
    many of its turns (1 is its next turn), with `seats` seats in play and the order going on as it
    stands. Empty where a later claim is a choice rather than a single claim, as nothing can be counted."""
    rules = game.rules
    ahead: dict[int, int] = {}
    follow = rules.follow_claims
    c = claim
    for turn in range(1, len(rules.claim_order) + 1):
        for _ in range(seats):
            nxt = follow[c] if 0 <= c < len(follow) else ()
            if len(nxt) != 1:
                return {}
            c = nxt[0]
        ahead.setdefault(c, turn)
    return ahead


def discard_or_keep(view: View) -> Action:
    """In the discard phase: put out the first complete set held, else keep the rest."""
    for a in view.legal_actions():
        if isinstance(a, DiscardSet):
            return a
    return KEEP


def preferred_challenge(game: Game) -> Action | None:
    """The challenge a bot calls by default: the first kind that turns the played cards over."""
    kinds = game.responses[1:]
    for a in kinds:
        if game.rules.kind_by_name[a.kind].test is ChallengeTest.PLAYED:  # type: ignore[union-attr]
            return a
    return kinds[0] if kinds else None


def force_challenge(game: Game) -> Action | None:
    """The challenge that makes the claimant show a card from hand, if the table has one."""
    for a in game.responses[1:]:
        if game.rules.kind_by_name[a.kind].test is ChallengeTest.HAND:  # type: ignore[union-attr]
            return a
    return None


def cards_to_match(game: Game, played: int) -> int:
    """How many of the cards put down must pass as the claim for it to be true."""
    return played if game.rules.reveal_all else 1


def count_is_a_lie(game: Game, count: int, played: int) -> bool:
    """With counts judged, a count called that differs from the cards put down is caught for sure."""
    return game.rules.count_judged and count != played


def copies_of(game: Game, claim: int) -> int:
    """Cards in the deck that pass as `claim`: its natural copies and any wild jokers."""
    rules = game.rules
    natural = rules.deck_counts[claim] if 0 <= claim < rules.values else 0
    return natural + (rules.deck_counts[rules.joker] if rules.wild else 0)

