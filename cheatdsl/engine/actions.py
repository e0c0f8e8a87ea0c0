"""Actions, player constants and the errors a state raises; every game is a list of these.

A card in an action is a *card value* of the game (see `game.rules.card_values`): in games that claim a
rank it is the rank's index (suits never matter there), in games that claim exact cards it is
`suit * ranks + rank`; the joker is `TableRules.joker`. Cards in a play are listed in ascending order and
the last one lies on top.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from .refusals import Doing, Refusal

if TYPE_CHECKING:
    from .state import State

CHANCE = -1
TERMINAL = -4


class Phase(Enum):
    """What the game is waiting for."""

    CHANCE = "chance"
    PLAY = "play"
    RESPOND = "respond"
    DISCARD = "discard"
    TERMINAL = "terminal"


class IllegalAction(Exception):
    """An action the rules do not allow in this state.

    The engine always refuses with a `Refusal`, the state it was refused in (which a refusal leaves
    unchanged) and what was tried; `words.notation.refusal_text` says why in the game's words, and is what
    a person is shown. `str()` of such a refusal is a short record, not a sentence. Code above the engine
    (the scenario runner) may still give a plain message, which is its own sentence.
    """

    def __init__(self, reason: Refusal | str, *, state: State | None = None, doing: Doing | None = None,
                 action: object = None, kind: str | None = None, seat: int | None = None,
                 rank: object = None) -> None:
        self.reason = reason
        self.state = state
        self.doing = doing
        self.action = action
        self.kind = kind
        self.seat = seat
        self.rank = rank
        super().__init__(reason)

    def __str__(self) -> str:
        if not isinstance(self.reason, Refusal):
            return self.reason
        # Made only when asked for: a search bot meets many refusals and reads none of them.
        fields = {"doing": self.doing and self.doing.value, "action": self.action, "kind": self.kind,
                  "seat": self.seat, "rank": self.rank}
        return f"{self.reason.value}: " + ", ".join(f"{k}={v!r}" for k, v in fields.items() if v is not None)


class TooManyActions(Exception):
    """`legal_actions()` would list more plays than its limit; count or sample them instead."""

    def __init__(self, count: int, limit: int) -> None:
        self.count = count
        self.limit = limit
        super().__init__(f"{count:,} legal plays exceed the limit of {limit:,}; "
                         "use count_play_actions() and sample_play(rng)")


@dataclass(frozen=True, slots=True)
class Play:
    """Cards put face down with a claim: `count` cards of `claim` (a rank index or an exact card)."""

    cards: tuple[int, ...]
    claim: int
    count: int


@dataclass(frozen=True, slots=True)
class Pass:
    """The seat to play passes instead of playing."""


@dataclass(frozen=True, slots=True)
class Accept:
    """A responder lets the pending claim stand."""


@dataclass(frozen=True, slots=True)
class Challenge:
    """A responder challenges the pending claim with one of the rulebook's challenge kinds."""

    kind: str


@dataclass(frozen=True, slots=True)
class DiscardSet:
    """The player who picked up shows a complete set of this rank and puts it out of the game."""

    rank: int


@dataclass(frozen=True, slots=True)
class KeepSets:
    """The player who picked up is done discarding sets."""


@dataclass(frozen=True, slots=True)
class ChanceDealer:
    """Chance: the lot makes this seat the dealer."""

    seat: int


@dataclass(frozen=True, slots=True)
class ChanceShuffle:
    """Chance: the deck is shuffled by `random.Random(seed).shuffle`."""

    seed: int


@dataclass(frozen=True, slots=True)
class ChanceCaller:
    """Chance: of several seats that called at once, this one called first (`priority: first_caller`)."""

    seat: int


Action = Play | Pass | Accept | Challenge | DiscardSet | KeepSets | ChanceDealer | ChanceShuffle | ChanceCaller

PASS = Pass()
ACCEPT = Accept()
KEEP = KeepSets()

_KIND_ORDER = {Play: 0, Pass: 1, Accept: 2, Challenge: 3, DiscardSet: 4, KeepSets: 5, ChanceDealer: 6,
               ChanceShuffle: 7, ChanceCaller: 8}


def action_key(action: Action) -> tuple[object, ...]:
    """The canonical sort key of `legal_actions()`: by kind, then by the action's fields."""
    if isinstance(action, Play):
        return (0, action.claim, len(action.cards), action.count, action.cards)
    if isinstance(action, Challenge):
        return (3, action.kind)
    if isinstance(action, DiscardSet):
        return (4, action.rank)
    if isinstance(action, ChanceDealer):
        return (6, action.seat)
    if isinstance(action, ChanceShuffle):
        return (7, action.seed)
    if isinstance(action, ChanceCaller):
        return (8, action.seat)
    return (_KIND_ORDER[type(action)],)
