"""Two bots without judgement: `random` (every legal action equally likely) and `greedy`."""

from __future__ import annotations

import random
from typing import Any

from ..engine import ACCEPT, PASS, Action, Game, Phase, Play, View
from .base import (
    Bot,
    bluff_play,
    discard_or_keep,
    pad_to_minimum,
    play_of,
    preferred_challenge,
    random_card,
    truthful_play,
)

_PLAY, _RESPOND = Phase.PLAY, Phase.RESPOND
SMALL = 64  # a play phase with at most this many legal actions is listed; larger ones are sampled
# Plays depend on nothing but their numbers, so every game shares them: key claim*4096+cards, card*4096+claim.
_TRUTH: dict[int, Play] = {}
_BLUFF: dict[int, Play] = {}


class RandomBot(Bot):
    """Uniform over the legal actions, plays sampled without listing them when there are many."""

    name = "random"

    def act(self, view: View) -> Action:
        rng = self.rng
        phase = view.phase
        if phase is _RESPOND:
            responses = view.responses
            return responses[rng.randrange(len(responses))]
        if phase is _PLAY:
            plays = view.count_play_actions()
            total = plays + view.may_pass
            if total <= SMALL:
                actions = view.legal_actions()
                return actions[rng.randrange(len(actions))]
            return view.sample_play(rng) if rng.randrange(total) < plays else PASS
        actions = view.legal_actions()
        return actions[rng.randrange(len(actions))]


def check_rate(rate: float) -> float:
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"challenge_rate is a probability from 0 to 1, not {rate!r}")
    return float(rate)


class GreedyBot(Bot):
    """Plays every card of the required rank (up to the cap), else one random card; challenges at a fixed rate.

    With several claims allowed it takes the one it holds most of (the first in claim order on a tie)
    and bluffs a claim drawn at random. It passes only when it has no play.
    """

    name = "greedy"
    options = ("challenge_rate",)

    def __init__(self, seat: int, rng: random.Random, challenge_rate: float = 0.15, **options: Any) -> None:
        super().__init__(seat, rng, **options)
        self.challenge_rate = check_rate(challenge_rate)
        self._random = rng.random
        self._game: Game | None = None
        self._challenge: Action = ACCEPT

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state["_random"]  # a builtin bound to the rng: rebound to the rng's copy
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._random = self.rng.random

    def _meet(self, game: Game) -> None:
        """Work out, once per game, what the rules let this bot do."""
        rules = game.rules
        self._game = game
        self._challenge = preferred_challenge(game) or ACCEPT
        self._cap = rules.max_cards if rules.max_cards is not None else 1 << 30
        # One natural card a value, counts as played, no minimum above one: plays need no helper.
        self._simple = not rules.wild and rules.exact and rules.min_cards <= 1

    def act(self, view: View) -> Action:
        phase = view.phase
        if phase is _RESPOND:
            if self._random() < self.challenge_rate:
                if view.game is not self._game:
                    self._meet(view.game)
                return self._challenge
            return ACCEPT
        if phase is not _PLAY:
            return discard_or_keep(view)
        if view.game is not self._game:
            self._meet(view.game)
        required = view.required
        if len(required) != 1 or not self._simple:
            return self._play(view, required)
        claim = required[0]
        hand = view.hand
        held = hand[claim]
        if held:
            if held > self._cap:
                held = self._cap
            play = _TRUTH.get(claim * 4096 + held)
            if play is None:
                play = _TRUTH[claim * 4096 + held] = play_of((claim,) * held, claim, held)
            return play
        size = view.hand_size
        if not size:
            return PASS
        pick = int(self._random() * size)
        card = 0
        for k in hand:
            if pick < k:
                break
            pick -= k
            card += 1
        play = _BLUFF.get(card * 4096 + claim)
        if play is None:
            play = _BLUFF[card * 4096 + claim] = play_of((card,), claim, 1)
        return play

    def _play(self, view: View, required: tuple[int, ...]) -> Action:
        """The general case: several claims allowed, wild jokers, counts or minimums to mind."""
        g = view.game
        if not required or view.hand_size < g.rules.min_cards:
            return PASS
        claim, held = required[0], -1
        for c in required:
            k = view.matching(c)
            if k > held:
                claim, held = c, k
        if not held and len(required) > 1:
            claim = required[self.rng.randrange(len(required))]
        if held:
            return pad_to_minimum(view, truthful_play(view, claim, min(held, self._cap)), self.rng)
        card = random_card(view, self._random)
        return bluff_play(view, claim, card, self.rng)
