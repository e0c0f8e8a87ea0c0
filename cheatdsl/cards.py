"""Physical cards and the space of claims, for a rulebook at a given player count.

A card is a small int: `suit * R + rank` with R the number of ranks listed in the deck; a joker is
`JOKER`. A claim value is a rank index (claims of a count and rank) or a card int (exact-card claims).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .expr.context import TableFacts
from .model import AfterLast, ClaimKind, DealStyle, Rulebook

JOKER = 10_000


@dataclass(frozen=True)
class Table:
    """Facts that follow from the rulebook once the player count is known."""

    rulebook: Rulebook
    players: int

    @property
    def rank_count(self) -> int:
        return len(self.rulebook.deck.ranks)

    @cached_property
    def packs(self) -> int:
        return int(self.rulebook.deck.packs.code(TableFacts(self.players)))

    @cached_property
    def ranks_in_play(self) -> tuple[int, ...]:
        """Indexes of the ranks actually in the deck at this table, in claim order."""
        used = self.rulebook.deck.ranks_used
        n = self.rank_count if used is None else int(used.code(TableFacts(self.players)))
        return tuple(range(max(0, min(n, self.rank_count))))

    @cached_property
    def deck_size(self) -> int:
        """Cards in the deck, counted without laying them out."""
        return max(self.packs, 0) * len(self.rulebook.deck.suits) * len(self.ranks_in_play) + self.rulebook.deck.jokers

    @cached_property
    def deck(self) -> tuple[int, ...]:
        """Every card in the deck before shuffling, in a fixed order."""
        r = self.rank_count
        cards = [s * r + k for _ in range(max(self.packs, 0)) for s in range(len(self.rulebook.deck.suits))
                 for k in self.ranks_in_play]
        cards.extend([JOKER] * self.rulebook.deck.jokers)
        return tuple(cards)

    @cached_property
    def copies(self) -> int:
        """Natural cards of one rank in the deck."""
        return max(self.packs, 0) * len(self.rulebook.deck.suits)

    @cached_property
    def set_aside(self) -> int:
        return int(self.rulebook.deal.set_aside.code(TableFacts(self.players, cards=len(self.deck))))

    def hand_sizes(self) -> tuple[tuple[int, ...], int] | str:
        """Cards dealt to each seat (from the dealer's left) and cards left over, or why it cannot deal."""
        deal = self.rulebook.deal
        n = self.players
        available = len(self.deck) - self.set_aside
        if self.set_aside < 0:
            return f"sets aside {self.set_aside} cards"
        if available < n:
            return f"{len(self.deck)} cards, {self.set_aside} set aside, cannot give each of {n} players a card"
        if deal.style is DealStyle.ALL:
            base, extra = divmod(available, n)
            return tuple(base + (1 if i < extra else 0) for i in range(n)), 0
        if deal.style is DealStyle.EQUAL:
            each = available // n
            if deal.hand_size is not None:
                each = min(each, int(deal.hand_size.code(TableFacts(n, cards=available))))
            if each < deal.minimum_hand:
                return (f"{available} cards give {n} players {each} each, fewer than the minimum of "
                        f"{deal.minimum_hand}")
            return (each,) * n, available - each * n
        assert deal.hand_size is not None
        each = int(deal.hand_size.code(TableFacts(n, cards=available)))
        if each * n > available:
            return f"{n} hands of {each} need {each * n} cards, the deck has {available}"
        if each < 1:
            return f"a hand of {each} cards"
        return (each,) * n, available - each * n


class ClaimSpace:
    """Every claim that can be made at a table, in claim order, with next/prev/above/below."""

    def __init__(self, table: Table) -> None:
        rb = table.rulebook
        self.kind = rb.claim.kind
        self.rank_count = table.rank_count
        r = self.rank_count
        if self.kind is ClaimKind.RANK:
            self.order: tuple[int, ...] = table.ranks_in_play
        else:
            self.order = tuple(s * r + k for s in range(len(rb.deck.suits)) for k in table.ranks_in_play)
        self.wrap = rb.claim.after_last is AfterLast.WRAP
        self.position = {v: i for i, v in enumerate(self.order)}
        self.all_claims = frozenset(self.order)

    def next_claim(self, value: int | None) -> int | None:
        if value is None or value not in self.position:
            return None
        i = self.position[value] + 1
        if i == len(self.order):
            return self.order[0] if self.wrap else None
        return self.order[i]

    def prev_claim(self, value: int | None) -> int | None:
        if value is None or value not in self.position:
            return None
        i = self.position[value] - 1
        if i < 0:
            return self.order[-1] if self.wrap else None
        return self.order[i]

    def _same_suit(self, value: int) -> tuple[int, ...]:
        if self.kind is ClaimKind.RANK:
            return self.order
        suit = value // self.rank_count
        return tuple(v for v in self.order if v // self.rank_count == suit)

    def above(self, value: int | None) -> frozenset[int]:
        if value is None or value not in self.position:
            return frozenset()
        line = self._same_suit(value)
        return frozenset(line[line.index(value) + 1:])

    def below(self, value: int | None) -> frozenset[int]:
        if value is None or value not in self.position:
            return frozenset()
        line = self._same_suit(value)
        return frozenset(line[: line.index(value)])


def as_claims(value: object) -> frozenset[int]:
    """A formula's claim result as a set; None (no claim) is the empty set."""
    if value is None:
        return frozenset()
    if isinstance(value, frozenset):
        return frozenset(v for v in value if v is not None)
    return frozenset((value,))  # type: ignore[arg-type]
