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
from typing import Any

from ..engine import ACCEPT, PASS, Action, Game, Phase, View
from .base import Bot, bluff_play, discard_or_keep, pad_to_minimum
from .simple import check_rate
from .table import card_to_give_up, tables_for

_PLAY, _RESPOND = Phase.PLAY, Phase.RESPOND
CERTAIN = 1.0        # a claim its own cards prove false is always challenged
DOUBT = 0.5          # a claim this likely a lie is doubted at `challenge_rate` (more, the likelier)
LAST_DOUBT = 0.1     # ... or, when accepting lets the claimant win, one with a fair doubt
LAST_DOUBT_OUT = 0.3  # ... or one whose acceptance puts the claimant out of a last-holder-loses game


class HonestBot(Bot):
    """Seed 003's opponents: truthful cards when held, otherwise a bluff (or a pass where allowed).

    Everything that depends only on the rules (plays, odds, the order to give cards up) comes from
    the table's shared `Tables`, so a turn reads its own hand and the claim and looks the rest up.
    """

    name = "honest"
    options = ("challenge_rate",)

    def __init__(self, seat: int, rng: random.Random, challenge_rate: float = 0.15, **options: Any) -> None:
        super().__init__(seat, rng, **options)
        self.challenge_rate = check_rate(challenge_rate)
        self._game: Game | None = None
        self._hand: list[int] = []  # the hand of the view last seen (the state's own list)

    def _meet(self, view: View) -> None:
        """Look up the table's shared facts once per game, and keep the view's live hand."""
        game = view.game
        self._hand = view.hand  # the state's own list, changed in place: read, never changed
        if game is self._game:
            return
        self._game = game
        t = self._t = tables_for(game)
        self._challenge = t.challenge
        self._force = t.force
        self._deck = t.deck
        self._cap = t.cap
        self._last_doubt = LAST_DOUBT if game.rules.first_out else LAST_DOUBT_OUT

    def act(self, view: View) -> Action:
        if view.hand is not self._hand:
            self._meet(view)
        phase = view.phase
        if phase is _PLAY:
            return self._play(view)
        if phase is not _RESPOND:
            return discard_or_keep(view)
        # Responding, written out here as it is most of the actions taken.
        challenge = self._challenge
        if challenge is None:
            return ACCEPT
        claim, count, played, last = view.pending  # type: ignore[misc]
        if last and self._force is not None:
            return self._force  # an empty hand has no card to show
        t = self._t
        rules = t.rules
        if rules.count_judged and count != played:
            return challenge  # a count that differs from the cards put down is caught for sure
        hand = self._hand
        unseen = t.copies[claim] - hand[claim] - hand[rules.joker] if rules.wild else t.copies[claim] - hand[claim]
        key = (self._deck - view.hand_size, unseen, view.size_of(view.claimant) + played,  # type: ignore[arg-type]
               played, 1 if t.one_choice else len(view.required))
        lie = t.lies.get(key)
        if lie is None:
            lie = t.lie(key)
        if lie >= CERTAIN or (last and lie > self._last_doubt):
            return challenge
        return challenge if self.rng.random() < self.challenge_rate * lie / DOUBT else ACCEPT

    # -- playing -------------------------------------------------------------------------------

    def _play(self, view: View) -> Action:
        t = self._t
        rules = t.rules
        required = view.required
        if t.simple and len(required) == 1:
            held = self._hand[required[0]]
            if held:
                return t.naturals[required[0]][held if held < self._cap else self._cap]
        if not required or view.hand_size < rules.min_cards:
            return PASS
        hand = self._hand
        if len(required) == 1:
            claim = required[0]
            held = t.matching(hand, claim)
        else:
            claim, held = required[0], -1
            for c in required:
                k = t.matching(hand, c)
                if k > held:
                    claim, held = c, k
        if held:
            most = held if held < self._cap else self._cap
            naturals = hand[claim] if 0 <= claim < rules.values else 0
            if naturals > most:
                naturals = most
            jokers = min(hand[rules.joker], most - naturals) if rules.wild else 0
            play = t.truth(claim, naturals, jokers)
            return play if naturals + jokers >= rules.min_cards else pad_to_minimum(view, play, self.rng)
        if rules.may_pass and view.may_pass:
            return PASS
        if len(required) > 1:
            claim = required[self.rng.randrange(len(required))]
        card = self._bluff_card(view, claim)
        if rules.min_cards <= 1:
            return t.bluff(card, claim)
        return bluff_play(view, claim, card, self.rng)

    def _bluff_card(self, view: View, claim: int) -> int:
        """A card it will miss least: one it will be asked for last (or never), counting ahead from
        `claim`; among those, one of the values it holds fewest of, drawn at random."""
        order = self._t.give_up_order(claim, view.players - len(view.out))
        return card_to_give_up(order, self._hand, self.rng.randrange)

    # -- judging a claim -----------------------------------------------------------------------

    def doubts(self, view: View, lie: float, last: bool) -> bool:
        """Whether to challenge a claim that is a lie with probability `lie`."""
        if view.hand is not self._hand:
            self._meet(view)
        if lie >= CERTAIN:
            return True
        if last and lie > self._last_doubt:
            return True
        return self.rng.random() < self.challenge_rate * lie / DOUBT

    def chance_of_lie(self, view: View, claimant: int, claim: int, count: int, played: int) -> float:
        """From its own hand, the claim and the claimant's hand size only."""
        if view.hand is not self._hand:
            self._meet(view)
        t = self._t
        rules = t.rules
        if rules.count_judged and count != played:
            return 1.0
        key = (self._deck - view.hand_size, t.unseen_matching(view.hand, claim),
               view.size_of(claimant) + played, played, 1 if t.one_choice else len(view.required))
        lie = t.lies.get(key)
        return lie if lie is not None else t.lie(key)

