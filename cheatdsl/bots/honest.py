"""The practice table's computer opponents (seed 003): truthful when they can be, doubtful when the odds say so.

Seed 003: "The computer opponents prefer truthful cards when available and otherwise bluff. Their
challenge decisions use their own hand, the visible claim count and rank, and whether the claimant
has no cards left. They do not inspect the hidden packet, earlier face-down cards or another player's
private hand to decide."

How `honest` judges a claim of k cards: of the cards it cannot see, how many would pass as the claim,
and so how likely a hand of the claimant's size (before the play) held none, or exactly k. It takes a
claimant to play truthfully whatever it holds of the claim (all of it, up to the cap), and to bluff
k cards with a chance halving at each card more. The chance of a lie is then

    P(held none) * 2**-k  /  (P(held none) * 2**-k  +  P(held exactly k; or k or more, at the cap))

and where the claimant could choose among r claims, P(held none of any) and P(held exactly k of one)
stand in, taking the claims as alike and independent.

When it must bluff it counts ahead, as seed 002 advises ("you know which ranks you will have to
play on your next turns. Keep real cards for them"): where the order of claims is fixed, it puts down
a card its own turns will ask for last, or never; otherwise (or among those) one it holds fewest of.

It challenges a certain lie and, when accepting would let the claimant go out, one with a fair doubt;
otherwise it doubts now and then, at `challenge_rate` scaled by its suspicion (twice the rate for a
claim as likely false as true), as seed 002 warns that calling on a big pile is a risk. A bot that
challenged every likely lie would never let a game of one exact card a play end.
"""

from __future__ import annotations

import random
from math import comb
from typing import Any

from ..engine import ACCEPT, PASS, Action, Game, Phase, View
from .base import (
    NEVER,
    Bot,
    bluff_play,
    cards_to_match,
    copies_of,
    count_is_a_lie,
    discard_or_keep,
    force_challenge,
    pad_to_minimum,
    preferred_challenge,
    truthful_play,
    turns_until,
)
from .simple import check_rate

_PLAY, _RESPOND = Phase.PLAY, Phase.RESPOND
CERTAIN = 1.0        # a claim its own cards prove false is always challenged
DOUBT = 0.5          # a claim this likely a lie is doubted at `challenge_rate` (more, the likelier)
LAST_DOUBT = 0.1     # ... or, when accepting lets the claimant win, one with a fair doubt
LAST_DOUBT_OUT = 0.3  # ... or one whose acceptance puts the claimant out of a last-holder-loses game

_ODDS: dict[tuple[int, int, int], tuple[float, ...]] = {}


def hand_odds(pool: int, matching: int, hand: int) -> tuple[float, ...]:
    """P(x good cards) for x = 0, 1, ...: a hand of `hand` cards drawn from `pool`, `matching` of them good."""
    hand = max(0, min(hand, pool))
    matching = max(0, min(matching, pool))
    key = (pool, matching, hand)
    odds = _ODDS.get(key)
    if odds is None:
        total = comb(pool, hand)
        odds = _ODDS[key] = tuple(comb(matching, x) * comb(pool - matching, hand - x) / total
                                  for x in range(min(matching, hand) + 1))
    return odds


def chance_of_lie(odds: tuple[float, ...], played: int, need: int, cap: int, choices: int = 1) -> float:
    """The chance that `played` cards claimed are a bluff, for a claimant whose holding of the claim has
    these `odds`, who could choose among `choices` claims (taken as alike and independent)."""
    if need >= len(odds):
        return 1.0  # fewer cards that pass are unseen than must match
    exact = sum(odds[played:]) if played >= cap else (odds[played] if played < len(odds) else 0.0)
    bluff = odds[0] ** choices * 0.5 ** played
    truth = 1.0 - (1.0 - exact) ** choices
    return bluff / (bluff + truth) if bluff + truth > 0 else 1.0


class HonestBot(Bot):
    """Seed 003's opponents: truthful cards when held, otherwise a bluff (or a pass where allowed)."""

    name = "honest"
    options = ("challenge_rate",)

    def __init__(self, seat: int, rng: random.Random, challenge_rate: float = 0.15, **options: Any) -> None:
        super().__init__(seat, rng, **options)
        self.challenge_rate = check_rate(challenge_rate)
        self._game: Game | None = None

    def _meet(self, game: Game) -> None:
        self._game = game
        self._challenge = preferred_challenge(game)
        self._force = force_challenge(game)
        self._deck = len(game.table.deck)
        self._cap = game.max_cards if game.max_cards is not None else 1 << 30
        self._wild = game.wild
        self._ahead: dict[tuple[int, int], dict[int, int]] = {}

    def act(self, view: View) -> Action:
        if view.game is not self._game:
            self._meet(view.game)
        phase = view.phase
        if phase is _RESPOND:
            return self._respond(view)
        if phase is _PLAY:
            return self._play(view)
        return discard_or_keep(view)

    # -- playing -------------------------------------------------------------------------------

    def _play(self, view: View) -> Action:
        g = view.game
        required = view.required
        if not required or view.hand_size < g.min_cards:
            return PASS
        claim, held = required[0], -1
        for c in required:
            k = view.matching(c)
            if k > held:
                claim, held = c, k
        if held:
            return pad_to_minimum(view, truthful_play(view, claim, min(held, self._cap)), self.rng)
        if view.may_pass:
            return PASS
        if len(required) > 1:
            claim = required[self.rng.randrange(len(required))]
        return bluff_play(view, claim, self._bluff_card(view, claim), self.rng)

    def _bluff_card(self, view: View, claim: int) -> int:
        """A card it will miss least: one it will be asked for last (or never), counting ahead from
        `claim`; among those, one of the values it holds fewest of, drawn at random."""
        hand = view.hand
        seats = view.players - len(view.out)
        key = (claim, seats)
        ahead = self._ahead.get(key)
        if ahead is None:
            ahead = self._ahead[key] = turns_until(view.game, claim, seats)
            if self._wild:
                ahead[view.game.joker] = 0  # a wild joker passes as any claim: never the card to give up
        best: tuple[int, int] | None = None
        values: list[int] = []
        for v, k in enumerate(hand):
            if k:
                rank = (ahead.get(v, NEVER), -k)
                if best is None or rank > best:
                    best, values = rank, [v]
                elif rank == best:
                    values.append(v)
        return values[self.rng.randrange(len(values))]

    # -- responding ----------------------------------------------------------------------------

    def _respond(self, view: View) -> Action:
        challenge = self._challenge
        if challenge is None:
            return ACCEPT
        claimant = view.claimant
        assert claimant is not None
        claim, count, played, last = view.pending  # type: ignore[misc]
        if last and self._force is not None:
            return self._force  # an empty hand has no card to show
        lie = self.chance_of_lie(view, claimant, claim, count, played)
        return challenge if self.doubts(view, lie, last) else ACCEPT

    def doubts(self, view: View, lie: float, last: bool) -> bool:
        """Whether to challenge a claim that is a lie with probability `lie`."""
        if lie >= CERTAIN:
            return True
        if last:
            if lie > (LAST_DOUBT if view.game.first_out else LAST_DOUBT_OUT):
                return True
        return self.rng.random() < self.challenge_rate * lie / DOUBT

    def chance_of_lie(self, view: View, claimant: int, claim: int, count: int, played: int) -> float:
        """From its own hand, the claim and the claimant's hand size only."""
        g = view.game
        if count_is_a_lie(g, count, played):
            return 1.0
        matching = copies_of(g, claim) - view.matching(claim)
        odds = hand_odds(self._deck - view.hand_size, matching, view.size_of(claimant) + played)
        return chance_of_lie(odds, played, cards_to_match(g, played), self._cap, len(view.required))
