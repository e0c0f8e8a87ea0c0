"""What the bots work out once per table and share: plays by their numbers, the copies of each claim,
the chance that a claim is a lie, and the order in which to give cards up when bluffing.

Everything here depends only on the `Game` (its rules read from `rules`, never copied) and on numbers a
bot reads from its view, so one `Tables` serves every bot at every table of the same game, and a bot's
turn is a few look-ups.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress, repeat
from operator import eq, itemgetter
from typing import NamedTuple
from weakref import WeakKeyDictionary

from ..derived import TableRules
from ..engine import Game, Play
from .base import NEVER, copies_of, count_to_call, force_challenge, play_of, preferred_challenge, turns_until
from .odds import chance_of_lie, hand_odds

LieKey = tuple[int, int, int, int, int]  # (unseen pool, unseen matching, claimant's hand before, played, choices)


class GiveUp(NamedTuple):
    """Card values in the order to give them up and, for each position, the values asked for at the
    same turn with a getter of their counts in a hand (None for a value alone at its turn)."""

    values: tuple[int, ...]
    groups: tuple[tuple[tuple[int, ...], Callable[[list[int]], tuple[int, ...]] | None], ...]
    one_each: bool  # no value has two cards in the deck: a count held is 0 or 1


_TABLES: WeakKeyDictionary[Game, Tables] = WeakKeyDictionary()
# Lie chances depend on the game only through what a claim must show and the cap: shared by such games.
_LIES: dict[tuple[bool, int], dict[LieKey, float]] = {}


class Tables:
    """One game's facts for the bots, filled in as they are first asked for."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rules = rules = game.rules
        self.deck = len(rules.table.deck)
        self.cap = rules.max_cards if rules.max_cards is not None else 1 << 30
        # One natural card a value and counts called as played: a play is its claim and its cards.
        self.simple = not rules.wild and rules.exact and rules.min_cards <= 1
        self.challenge = preferred_challenge(game)
        self.force = force_challenge(game)
        self.copies = [copies_of(game, c) for c in range(rules.values + 1)]
        self.one_choice = one_choice(rules)
        # Whether a claim made may be followed by a choice of claims (so that it steers the turns after it).
        self.follow_choice = any(len(claims) > 1 for claims in rules.follow_claims)
        # With `simple`: naturals[claim][n] is n cards of `claim` claimed as they are.
        self.naturals = [[play_of((claim,) * n, claim, n) for n in range(rules.deck_counts[claim] + 1)]
                         for claim in range(rules.values)] if self.simple else []
        self.lies = _LIES.setdefault((rules.reveal_all, self.cap), {})
        self.truths: dict[tuple[int, int, int], Play] = {}
        self.bluffs: dict[tuple[int, int], Play] = {}
        self.giving_up: dict[tuple[int, int], GiveUp] = {}

    def __deepcopy__(self, memo: dict[int, object]) -> Tables:
        return self  # facts of the rules, shared like the game: not part of a bot's state of mind

    def matching(self, hand: list[int], claim: int) -> int:
        """Cards of `hand` that pass as `claim` (as `View.matching`)."""
        rules = self.rules
        n = hand[claim] if 0 <= claim < rules.values else 0
        return n + hand[rules.joker] if rules.wild else n

    def unseen_matching(self, hand: list[int], claim: int) -> int:
        """Cards passing as `claim` outside `hand`: the deck's copies less those held."""
        return self.copies[claim] - self.matching(hand, claim)

    def lie(self, key: LieKey) -> float:
        """The honest bot's chance that a claim is a bluff (`honest.chance_of_lie`), worked out once."""
        pool, matching, hand, played, choices = key
        need = played if self.rules.reveal_all else 1
        lie = self.lies[key] = chance_of_lie(hand_odds(pool, matching, hand), played, need, self.cap, choices)
        return lie

    def truth(self, claim: int, naturals: int, jokers: int) -> Play:
        """`naturals` cards of `claim` and `jokers` wild jokers claimed as `claim` (`base.truthful_play`)."""
        key = (claim, naturals, jokers)
        play = self.truths.get(key)
        if play is None:
            cards = (claim,) * naturals + (self.rules.joker,) * jokers
            play = self.truths[key] = play_of(cards, claim, count_to_call(self.game, len(cards)))
        return play

    def bluff(self, card: int, claim: int) -> Play:
        """One `card` put down as `claim` (where a play may hold one card)."""
        key = (card, claim)
        play = self.bluffs.get(key)
        if play is None:
            play = self.bluffs[key] = play_of((card,), claim, count_to_call(self.game, 1))
        return play

    def give_up_order(self, claim: int, seats: int) -> GiveUp:
        """The card values in the order to give them up, counting ahead from `claim` with `seats` seats
        in play: those this seat's turns will ask for latest (or never) first, a wild joker last, each
        group of values asked for at the same turn ascending (see `card_to_give_up`)."""
        rules = self.rules
        key = (claim, seats)
        order = self.giving_up.get(key)
        if order is None:
            ahead = turns_until(self.game, claim, seats)
            if rules.wild:
                ahead[rules.joker] = 0  # a wild joker passes as any claim: never the card to give up
            by_turn: dict[int, list[int]] = {}
            for v in range(rules.values + 1):
                by_turn.setdefault(ahead.get(v, NEVER), []).append(v)
            values: list[int] = []
            groups: list[tuple[tuple[int, ...], Callable[[list[int]], tuple[int, ...]] | None]] = []
            for _, group in sorted(by_turn.items(), reverse=True):
                values += group
                groups += [(tuple(group), itemgetter(*group) if len(group) > 1 else None)] * len(group)
            order = self.giving_up[key] = GiveUp(tuple(values), tuple(groups), max(rules.deck_counts) <= 1)
        return order


def tables_for(game: Game) -> Tables:
    """The shared `Tables` of `game`."""
    tables = _TABLES.get(game)
    if tables is None:
        tables = _TABLES[game] = Tables(game)
    return tables


def card_to_give_up(order: GiveUp, hand: list[int], draw: Callable[[int], int]) -> int:
    """From the first group of `order` in which `hand` holds a card, one of the values held fewest of;
    `draw(n)` picks among the n tied values (ascending), as `rng.randrange` does."""
    values = order.values
    first = 0
    while not hand[values[first]]:  # IndexError only with an empty hand
        first += 1
    group, counts_of = order.groups[first]
    if counts_of is None:
        draw(1)  # the only value: drawn all the same, so that the random stream goes on as for a group
        return values[first]
    counts = counts_of(hand)
    if order.one_each:
        tied = list(compress(group, counts))
    else:
        tied = list(compress(group, map(eq, counts, repeat(min(filter(None, counts))))))
    return tied[draw(len(tied))]


def one_choice(rules: TableRules) -> bool:
    """Whether every play has a single claim to make at most (else a responder weighs the claimant's choice)."""
    return all(len(claims) <= 1 for claims in (rules.first, rules.lead_none, *rules.follow_sets, *rules.lead_sets))
