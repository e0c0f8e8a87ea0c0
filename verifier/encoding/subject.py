"""A rulebook under verification: its tables per player count, claim names, and shared caches."""

from __future__ import annotations

from typing import Any

from cheatdsl.cards import JOKER, ClaimSpace, Table
from cheatdsl.derived import ClaimRules, DealError, TableRules
from cheatdsl.engine import Game
from cheatdsl.expr import FactUnavailable
from cheatdsl.model import ClaimKind, Rulebook


class Subject:
    """One compiled rulebook and the player counts to verify it at."""

    def __init__(self, rulebook: Rulebook, counts: tuple[int, ...] | None = None) -> None:
        self.rb = rulebook
        self.counts = counts or tuple(rulebook.players.counts())
        self._tables: dict[int, Table] = {}
        self._spaces: dict[int, ClaimSpace] = {}
        self._rules: dict[int, TableRules] = {}
        self._claims: dict[int, ClaimRules] = {}
        self._games: dict[int, Game] = {}
        self.cache: dict[Any, Any] = {}

    def table(self, n: int) -> Table:
        if n not in self._tables:
            self._tables[n] = Table(self.rb, n)
        return self._tables[n]

    def rules(self, n: int) -> TableRules:
        """The rules record at `n` players (`cheatdsl.derived.DealError` where the deck cannot be dealt)."""
        if n not in self._rules:
            self._rules[n] = TableRules(self.rb, n, self.table(n))
        return self._rules[n]

    def claim_rules(self, n: int) -> ClaimRules:
        """Which claims may open, follow and lead at `n` players: the rules record's, or at a table whose
        deck cannot be dealt (no record) the same rules worked out alone (`FactUnavailable` where a claim
        formula asks for a fact a claim rule is not given)."""
        if n not in self._claims:
            try:
                self._claims[n] = self.rules(n).claim_rules
            except DealError:
                self._claims[n] = ClaimRules(self.rb, n, self.space(n))
        return self._claims[n]

    def game(self, n: int) -> Game:
        """The interpreter's game at `n` players, holding this subject's rules record (ValueError, as `Game`
        gives it, where the deck cannot be dealt)."""
        if n not in self._games:
            try:
                rules: TableRules | None = self.rules(n)
            except DealError:
                rules = None  # `Game` says why, in the words it gives every caller
            self._games[n] = Game(self.rb, n, rules=rules)
        return self._games[n]

    def space(self, n: int) -> ClaimSpace:
        """The claims of the table at `n` players: the rules record's, or its own where there is none."""
        if n not in self._spaces:
            try:
                self._spaces[n] = self.rules(n).space
            except (DealError, FactUnavailable):
                self._spaces[n] = ClaimSpace(self.table(n))
        return self._spaces[n]

    @property
    def cards(self) -> bool:
        """Whether claims name exact cards rather than a count and a rank."""
        return self.rb.claim.kind is ClaimKind.CARD

    def card_name(self, card: int) -> str:
        if card == JOKER:
            return "joker"
        r = len(self.rb.deck.ranks)
        suit, rank = divmod(card, r)
        if not 0 <= suit < len(self.rb.deck.suits):
            return f"card {card}"
        return f"{self.rb.deck.ranks[rank].name} of {self.rb.deck.suits[suit].name}"

    def claim_name(self, value: int) -> str:
        """A claim as a card player writes it: `7` for sevens, `7♥` for the seven of hearts."""
        r = len(self.rb.deck.ranks)
        if self.cards:
            suit, rank = divmod(value, r)
            return self.rb.deck.ranks[rank].symbol + self.rb.deck.suits[suit].symbol
        return self.rb.deck.ranks[value].symbol if 0 <= value < r else f"claim {value}"

    def claim_list(self, values: Any, limit: int = 16) -> str:
        names = [self.claim_name(v) for v in values]
        if len(names) > limit:
            return ", ".join(names[:limit]) + f", ... ({len(names)} in all)"
        return ", ".join(names)

    def copies_of_claim(self, n: int, value: int) -> int:
        """Natural cards in the deck that make a claim of `value` true."""
        t = self.table(n)
        r = t.rank_count
        if self.cards:
            return t.packs if value % r in t.ranks_in_play and value // r < len(self.rb.deck.suits) else 0
        return t.copies if value in t.ranks_in_play else 0

    def copies_of_card(self, n: int, card: int) -> int:
        t = self.table(n)
        return t.packs if card % t.rank_count in t.ranks_in_play else 0

