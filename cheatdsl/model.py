"""The compiled rulebook: frozen dataclasses every back end reads, each carrying its source span.

Nothing here knows YAML or Lark. The checker, interpreter, verifier and comparison all read this.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .expr.ast import Expr, unparse
from .expr.context import FormulaContext
from .source import NOWHERE, Span


class ClaimKind(Enum):
    """What a claim names: a rank with a count ("two 7s"), or one exact card ("the two of hearts")."""

    RANK = "rank"
    CARD = "card"


class CountRule(Enum):
    """Whether the number of cards played must equal the number called."""

    EXACT = "exact"
    EXTRA_ALLOWED = "extra_allowed"
    ANY = "any"


class AfterLast(Enum):
    """What `next` gives after the last claim in the order (and `prev` before the first)."""

    WRAP = "wrap"
    NOTHING = "nothing"


class RoundEnd(Enum):
    """Events that end a round, so that the next play leads with a fresh claim."""

    CHALLENGE = "challenge"
    ALL_PASS = "all_pass"


class DealStyle(Enum):
    """How the cards are dealt."""

    ALL = "all"
    EQUAL = "equal"
    FIXED = "fixed"


class Surplus(Enum):
    """Where cards not dealt into hands go."""

    ASIDE = "aside"
    STOCK = "stock"


class DealerChoice(Enum):
    """How the dealer is chosen: by lot (a chance action) or always seat 0."""

    LOT = "lot"
    SEAT_ZERO = "seat_zero"


class Direction(Enum):
    """Which way turns go round the table."""

    CLOCKWISE = "clockwise"
    ANTICLOCKWISE = "anticlockwise"


class Priority(Enum):
    """Who wins when several players challenge the same play at once."""

    FIRST_CLOCKWISE = "first_clockwise"
    OFFERED_IN_TURN = "offered_in_turn"
    FIRST_CALLER = "first_caller"


class Window(Enum):
    """How long a play may be challenged: until the next play, or a count of three at slow tables."""

    BEFORE_NEXT_PLAY = "before_next_play"
    COUNT_OF_THREE = "count_of_three"


class Reveal(Enum):
    """Which cards a challenge turns over."""

    PLAY = "play"
    TOP_CARD = "top_card"


class ChallengeTest(Enum):
    """What a kind of challenge tests: the cards just played, or the claimant's hand (Force)."""

    PLAYED = "played"
    HAND = "hand"


class PenaltyKind(Enum):
    """What the loser of a challenge suffers."""

    TAKE_PILE = "take_pile"
    DRAW = "draw"


class PileAfter(Enum):
    """What happens to the pile when it is not taken into a hand."""

    STAYS = "stays"
    DISCARDED = "discarded"


class ShortStock(Enum):
    """What the loser of a draw penalty does when the stock cannot supply the whole draw: draws what
    is left and nothing more, or draws what is left and takes the pile as well."""

    NOTHING = "nothing"
    TAKE_PILE = "take_pile"


class FailedCall(Enum):
    """What a challenger suffers whose call was wrong (the claim was true): the penalty, as a caught claimant
    would, or nothing at all."""

    PAYS = "pays"
    FREE = "free"


class SetMode(Enum):
    """Whether discarding a complete set is the player's choice or compulsory."""

    OPTIONAL = "optional"
    FORCED = "forced"


class EndStyle(Enum):
    """How the game ends: the first player out wins, or players go out until one loser is left."""

    FIRST_OUT = "first_out"
    LAST_HOLDER_LOSES = "last_holder_loses"


class OutCheck(Enum):
    """When an empty hand counts: after the last play survives its challenge window, or at once."""

    AFTER_WINDOW = "after_window"
    AT_ONCE = "at_once"


class EmptiedBySets(Enum):
    """A seat whose hand is left empty by the sets it discarded after losing a challenge: it is out,
    or it stays in and is passed over while its hand is empty."""

    OUT = "out"
    STAYS_IN = "stays_in"


class Located:
    """A section of rules that remembers where each of its rules was written."""

    span: Span
    field_spans: tuple[tuple[str, Span], ...]

    def span_of(self, name: str) -> Span:
        """Where the rule `name` of this section was written (the section's span if not written)."""
        return dict(self.field_spans).get(name, self.span)


@dataclass(frozen=True)
class Formula:
    """A checked rule formula: its text, its tree, and the closure that computes it."""

    canonical: str
    text: str = field(compare=False)
    expr: Expr = field(repr=False, compare=False)
    code: Callable[[FormulaContext], Any] = field(repr=False, compare=False)
    span: Span = field(default=NOWHERE, compare=False)

    @classmethod
    def of(cls, text: str, expr: Expr, code: Callable[[FormulaContext], Any], span: Span) -> Formula:
        """A formula whose equality is that of its canonical text (spacing and brackets ignored)."""
        return cls(unparse(expr), text, expr, code, span)


@dataclass(frozen=True)
class Rank:
    """A rank of the deck: its symbol on the card and its names in words."""

    symbol: str
    name: str
    plural: str
    span: Span = field(default=NOWHERE, compare=False)


@dataclass(frozen=True)
class Suit:
    """A suit of the deck."""

    name: str
    symbol: str
    span: Span = field(default=NOWHERE, compare=False)


DEFAULT_TABLE = 4  # the table size every command plays by default, where a rulebook allows it


@dataclass(frozen=True)
class PlayerRange(Located):
    """How many players the rulebook is for."""

    min: int
    max: int
    span: Span = field(default=NOWHERE, compare=False)
    field_spans: tuple[tuple[str, Span], ...] = field(default=(), compare=False, repr=False)

    def counts(self) -> range:
        """Every player count in the range."""
        return range(self.min, self.max + 1)

    @property
    def default(self) -> int:
        """The table every command plays when no player count is given: four where the range allows it,
        else the fewest it allows."""
        return DEFAULT_TABLE if self.min <= DEFAULT_TABLE <= self.max else self.min


@dataclass(frozen=True)
class Deck(Located):
    """The cards: ranks in claim order, suits, packs shuffled together, jokers."""

    ranks: tuple[Rank, ...]
    suits: tuple[Suit, ...]
    packs: Formula
    jokers: int
    jokers_wild: bool
    ranks_used: Formula | None
    span: Span = field(default=NOWHERE, compare=False)
    field_spans: tuple[tuple[str, Span], ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Deal(Located):
    """How cards reach the hands, and what happens to the rest."""

    style: DealStyle
    hand_size: Formula | None
    minimum_hand: int
    set_aside: Formula
    surplus: Surplus
    span: Span = field(default=NOWHERE, compare=False)
    field_spans: tuple[tuple[str, Span], ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Setup(Located):
    """Who deals, who plays first, and which way play goes."""

    dealer: DealerChoice
    first_player: Formula
    direction: Direction
    span: Span = field(default=NOWHERE, compare=False)
    field_spans: tuple[tuple[str, Span], ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class ClaimRules(Located):
    """What a play claims and which claims are allowed."""

    kind: ClaimKind
    min_cards: int
    max_cards: int | None
    count: CountRule
    first: Formula
    follow: Formula
    lead: Formula
    after_last: AfterLast
    round_ends: frozenset[RoundEnd]
    span: Span = field(default=NOWHERE, compare=False)
    field_spans: tuple[tuple[str, Span], ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Passing(Located):
    """Whether a player may pass, and what happens when everyone does."""

    allowed: bool
    when: Formula | None
    leader_may_pass: bool
    all_pass_pile: PileAfter
    all_pass_leader: Formula | None
    span: Span = field(default=NOWHERE, compare=False)
    field_spans: tuple[tuple[str, Span], ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class ChallengeKind(Located):
    """One way to challenge a play ("Cheat!", "Force"), when it may be used, and what it tests."""

    name: str
    call: str
    test: ChallengeTest
    allowed_when: Formula | None
    span: Span = field(default=NOWHERE, compare=False)
    field_spans: tuple[tuple[str, Span], ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Penalty(Located):
    """What the loser of a challenge suffers."""

    kind: PenaltyKind
    draw: int
    pile_after: PileAfter
    short_stock: ShortStock
    failed_call: FailedCall = FailedCall.PAYS
    span: Span = field(default=NOWHERE, compare=False)
    field_spans: tuple[tuple[str, Span], ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class ChallengeRules(Located):
    """Who may challenge, what is revealed and judged, who pays, and who plays next."""

    kinds: tuple[ChallengeKind, ...]
    window: Window
    priority: Priority
    reveal: Reveal
    show_pile: bool
    penalty: Penalty
    next_player: Formula
    span: Span = field(default=NOWHERE, compare=False)
    field_spans: tuple[tuple[str, Span], ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class SetDiscard(Located):
    """Complete sets of one rank leaving the game after a pickup."""

    size: Formula
    mode: SetMode
    naturals_only: bool
    span: Span = field(default=NOWHERE, compare=False)
    field_spans: tuple[tuple[str, Span], ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Ending(Located):
    """When a player goes out, who wins or loses, and any rule that stops endless play."""

    style: EndStyle
    out_check: OutCheck
    turn_start_win: Formula | None
    turn_cap: int | None
    emptied_by_sets: EmptiedBySets
    span: Span = field(default=NOWHERE, compare=False)
    field_spans: tuple[tuple[str, Span], ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Expectation:
    """A verdict the rulebook expects the verifier to give for one property."""

    property: str
    verdict: str
    span: Span = field(default=NOWHERE, compare=False)


@dataclass(frozen=True)
class VariationInfo:
    """A named variation the rulebook offers, and whether it is switched on."""

    name: str
    summary: str
    conflicts: tuple[str, ...]
    active: bool
    span: Span = field(default=NOWHERE, compare=False)


@dataclass(frozen=True)
class Rulebook:
    """One compiled rulebook: a table's complete rules, variations already applied."""

    name: str
    title: str
    source: str
    path: str = field(compare=False)
    chain: tuple[str, ...] = field(compare=False)
    players: PlayerRange
    deck: Deck
    deal: Deal
    setup: Setup
    claim: ClaimRules
    passing: Passing
    challenge: ChallengeRules
    sets: SetDiscard | None
    ending: Ending
    expectations: tuple[Expectation, ...]
    variations: tuple[VariationInfo, ...]
    span: Span = field(default=NOWHERE, compare=False)
    # The base rulebook's expectations a house rule did not take over (`expect: inherit` keeps them).
    dropped_expectations: tuple[Expectation, ...] = field(default=(), compare=False)

    @property
    def active_variations(self) -> tuple[str, ...]:
        """Names of the variations switched on."""
        return tuple(v.name for v in self.variations if v.active)
