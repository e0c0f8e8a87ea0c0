"""The computer seats: bots from `cheatdsl.bots`, or the built-in house player (`--bots house`).

A bot sees only `state.view(seat)` (bots package) or `state.observation(seat)` (house player): its
own hand and the public record, never a hidden card.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol

from ..bots import make_bot
from ..engine import ACCEPT, KEEP, PASS, Action, Challenge, DiscardSet, Phase, Play
from ..model import ChallengeTest

if TYPE_CHECKING:
    from ..engine import Game, Observation, State

HOUSE = "house"


class Opponent(Protocol):
    """A computer seat: given the state, it chooses an action from what its seat may know."""

    name: str

    def act(self, state: State) -> Action: ...

    def notify(self, event: object) -> None: ...


class BotOpponent:
    """A bot of `cheatdsl.bots`, asked with the seat's view only."""

    def __init__(self, bot: object, seat: int, name: str) -> None:
        self.bot = bot
        self.seat = seat
        self.name = name

    def act(self, state: State) -> Action:
        return self.bot.act(state.view(self.seat))  # type: ignore[attr-defined]

    def notify(self, event: object) -> None:
        """A public event (a reveal), for bots that listen."""
        notify = getattr(self.bot, "notify", None)
        if notify is not None:
            notify(event)


def make_opponent(kind: str, seat: int, rng: random.Random) -> Opponent:
    """A computer seat of the named kind; ValueError for a name the bots package does not know."""
    if kind == HOUSE:
        return HousePlayer(seat, rng)
    try:
        bot = make_bot(kind, seat, rng)
    except (KeyError, LookupError, TypeError) as exc:
        raise ValueError(f"there is no bot `{kind}`: {exc}") from None
    return BotOpponent(bot, seat, kind)


class HousePlayer:
    """The practice table's computer player (seed 003): truthful cards when it has them, else a bluff;
    it challenges on its own cards, the claim's count and rank, and a claimant's last cards."""

    name = HOUSE

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def notify(self, event: object) -> None:
        """The house player keeps no memory of reveals."""

    def act(self, state: State) -> Action:
        obs = state.observation(self.seat)
        g = state.game
        if obs.phase is Phase.RESPOND:
            return self._respond(g, obs)
        if obs.phase is Phase.DISCARD:
            # The sets it may show follow from its own hand; it always puts them out.
            for action in state.legal_actions():
                if isinstance(action, DiscardSet):
                    return action
            return KEEP
        return self._play(g, obs, state.can_pass())

    def _play(self, g: Game, obs: Observation, may_pass: bool) -> Action:
        hand = list(obs.hand)
        if not obs.required:
            return PASS
        best = max(obs.required, key=lambda c: (_matching(g, hand, c), -obs.required.index(c)))
        honest = [c for c in hand if c == best] + [c for c in hand if g.wild and c == g.joker]
        top = len(hand) if g.max_cards is None else min(g.max_cards, len(hand))
        cards = honest[:top]
        if len(cards) < g.min_cards:
            if may_pass and self.rng.random() < 0.7:
                return PASS
            # Bluff with the cards it has most spare of: ranks it holds fewest of go first.
            rest = sorted((c for c in hand if c not in cards), key=lambda c: (hand.count(c), c))
            cards += rest[:max(g.min_cards - len(cards), 1 if not cards else 0)]
        cards = cards[:top]
        return Play(tuple(sorted(cards)), best, len(cards))

    def _respond(self, g: Game, obs: Observation) -> Action:
        newest = obs.claims[-1]
        claim, count = newest.claim, newest.count
        kinds = [k for k in g.rulebook.challenge.kinds if k.name in g.kinds]
        played = [k for k in kinds if k.test is ChallengeTest.PLAYED] or kinds
        if claim is None or not played:
            return ACCEPT
        held = sum(1 for c in obs.hand if c == claim)
        copies = g.deck_counts[claim] + (g.deck_counts[g.joker] if g.wild else 0)
        if held + count > copies:
            return Challenge(played[0].name)  # impossible with the cards in the deck
        chance = 0.08 + 0.3 * held / max(copies, 1) + 0.04 * count
        if newest.last_cards:
            chance = max(chance, 0.75)
        if newest.played != count:
            chance += 0.3
        return Challenge(played[0].name) if self.rng.random() < chance else ACCEPT


def _matching(g: Game, hand: list[int], claim: int) -> int:
    return sum(1 for c in hand if c == claim or (g.wild and c == g.joker))
