"""`counter`: the honest bot with a memory of every card it has seen, to spot claims that cannot be true.

It remembers its own cards put on the pile, every card a challenge turned over (or the whole pile,
where it is shown), who picked the pile up, and the sets discarded. Knowledge of another hand is a
lower bound: when a seat puts down cards, each remembered count of that seat drops by as many cards
as it put down, since any of them may have gone. A claim needing more matching cards than could be
outside its memory is a certain lie; otherwise it judges like `honest`, with the cards it knows of
taken out of the unseen pool.

Cards of a pile that left the game unseen (everyone passed) stay counted as "in the pile"; if a later
pile is picked up they are credited to the taker. That errs only towards fewer certain lies about the
taker, and they are out of everyone else's reach either way.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine import ACCEPT, Action, Game, Phase, Play, RevealRecord, View
from ..model import ChallengeTest
from .honest import HonestBot

_RESPOND = Phase.RESPOND


class Memory:
    """What one seat has seen: lower bounds on other hands, known pile cards and known discards,
    each kept with its running total so that a look at the table is a few additions."""

    def __init__(self, game: Game, seat: int, sizes: tuple[int, ...]) -> None:
        rules = game.rules
        width = rules.values + 1
        self.game = game
        self.seat = seat
        self.hand_test = {name for name, kind in rules.kind_by_name.items() if kind.test is ChallengeTest.HAND}
        self.known = [[0] * width for _ in range(game.players)]
        self.known_total = [0] * game.players
        self.pile = [0] * width
        self.pile_total = 0
        self.gone = [0] * width
        self.gone_total = 0
        self.sizes = list(sizes)
        self.received = [0] * game.players
        self.reveals = 0
        self.sets = 0
        self.log: list[RevealRecord] = []

    def catch_up(self, view: View) -> None:
        """Take in every public event since the last look, then let seats that put cards down forget."""
        while self.reveals < view.reveal_count:
            self.reveal(view.reveal(self.reveals))
        while self.sets < view.set_count:
            _, _, cards = view.discarded_set(self.sets)
            for c in cards:
                self.gone[c] += 1
            self.gone_total += len(cards)
            self.sets += 1
        sizes, received, known_total, me = self.sizes, self.received, self.known_total, self.seat
        for s, now in enumerate(view.hand_sizes):
            out = sizes[s] + received[s] - now
            sizes[s] = now
            received[s] = 0
            if out > 0 and known_total[s] and s != me:
                known = self.known[s]
                total = 0
                for v, k in enumerate(known):
                    if k:
                        known[v] = k = k - out if k > out else 0
                        total += k
                known_total[s] = total

    def reveal(self, r: RevealRecord) -> None:
        """A challenge, as the table saw it."""
        self.log.append(r)
        self.reveals += 1
        rules = self.game.rules
        me = self.seat
        if r.kind in self.hand_test:
            if not r.caught and r.revealed and r.paid:
                self.received[r.loser] += 1  # the card shown goes to the wrong challenger
                if r.loser != me:
                    self.known[r.loser][r.revealed[0]] += 1
                    self.known_total[r.loser] += 1
        elif r.pile is not None:
            self.pile = [0] * len(self.pile)
            for c in r.pile:
                self.pile[c] += 1
            self.pile_total = len(r.pile)
        elif r.claimant != me:
            for c in r.revealed:
                self.pile[c] += 1
            self.pile_total += len(r.revealed)
        self.received[r.loser] += r.taken
        if r.paid and (rules.take_pile or r.pile_taken):
            if r.loser != me:
                known = self.known[r.loser]
                for v, k in enumerate(self.pile):
                    if k:
                        known[v] += k
                self.known_total[r.loser] += self.pile_total
            self._clear_pile()
        elif rules.pile_after_discarded:
            for v, k in enumerate(self.pile):
                self.gone[v] += k
            self.gone_total += self.pile_total
            self._clear_pile()

    def _clear_pile(self) -> None:
        self.pile = [0] * len(self.pile)
        self.pile_total = 0

    def played(self, play: Play) -> None:
        """Its own cards went onto the pile."""
        for c in play.cards:
            self.pile[c] += 1
        self.pile_total += len(play.cards)

    def elsewhere(self, value: int, claimant: int) -> int:
        """Cards of `value` known to be outside the claimant's hand (and outside its own)."""
        n = self.pile[value] + self.gone[value]
        for s, known in enumerate(self.known):
            if s != claimant and s != self.seat:
                n += known[value]
        return n

    def elsewhere_total(self, claimant: int) -> int:
        """Cards known to be outside the claimant's hand (and outside its own), of any value."""
        n = self.pile_total + self.gone_total
        for s, total in enumerate(self.known_total):
            if s != claimant and s != self.seat:
                n += total
        return n


class CounterBot(HonestBot):
    """Like `honest`, but remembers revealed cards and pickups to call certain lies for sure."""

    name = "counter"

    def __init__(self, seat: int, rng: random.Random, challenge_rate: float = 0.15, **options: Any) -> None:
        super().__init__(seat, rng, challenge_rate, **options)
        self.memory: Memory | None = None

    def _remember(self, view: View) -> Memory:
        """The memory, brought up to what `view` shows (a new one for a new game)."""
        if view.hand is not self._hand:
            self._meet(view)
        memory = self.memory
        if memory is None or memory.game is not view.game:
            memory = self.memory = Memory(view.game, self.seat, view.hand_sizes)
        memory.catch_up(view)
        return memory

    def act(self, view: View) -> Action:
        memory = self._remember(view)
        if view.phase is _RESPOND:
            return self._respond(view)
        action = super().act(view)
        if isinstance(action, Play):
            memory.played(action)
        return action

    def notify(self, event: object) -> None:
        """A challenge heard as it happens (the view would show it at the next look anyway)."""
        memory = self.memory
        if memory is not None and isinstance(event, RevealRecord) and not any(e is event for e in memory.log[-8:]):
            memory.reveal(event)

    def _respond(self, view: View) -> Action:
        if self._challenge is None:
            return ACCEPT
        claimant = view.claimant
        assert claimant is not None and self.memory is not None
        claim, count, played, last = view.pending  # type: ignore[misc]
        if self._force is not None and (last or self._unmatched(view, claimant, claim) <= 0):
            return self._force  # nothing left that the claimant could show
        lie = self.chance_of_lie(view, claimant, claim, count, played)
        return self._challenge if self.doubts(view, lie, last) else ACCEPT

    def _unmatched(self, view: View, claimant: int, claim: int) -> int:
        """Cards passing as `claim` that could be in the claimant's hand or among those just played."""
        t = self._t
        rules = t.rules
        memory = self.memory
        assert memory is not None
        out = t.matching(self._hand, claim)
        if 0 <= claim < rules.values:
            out += memory.elsewhere(claim, claimant)
        if rules.wild:
            out += memory.elsewhere(rules.joker, claimant)
        return t.copies[claim] - out

    def chance_of_lie(self, view: View, claimant: int, claim: int, count: int, played: int) -> float:
        if view.hand is not self._hand:
            self._meet(view)
        t = self._t
        rules = t.rules
        if rules.count_judged and count != played:
            return 1.0
        memory = self.memory
        assert memory is not None
        matching = self._unmatched(view, claimant, claim)
        if (played if rules.reveal_all else 1) > matching:
            return 1.0
        key = (self._deck - view.hand_size - memory.elsewhere_total(claimant), matching,
               view.size_of(claimant) + played, played, 1 if t.one_choice else len(view.required))
        lie = t.lies.get(key)
        return lie if lie is not None else t.lie(key)
