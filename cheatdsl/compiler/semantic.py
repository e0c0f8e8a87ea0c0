"""Checks on a built rulebook that need the whole model: dealing, clashing rules, unused rules."""

from __future__ import annotations

from ..cards import ClaimSpace, Table, as_claims
from ..derived import set_size
from ..diagnostics import Diagnostics
from ..expr import ClaimFacts, TableFacts
from ..limits import MAX_DECK_CARDS
from ..model import ClaimKind, CountRule, PenaltyKind, RoundEnd, Rulebook, Surplus


def check_rulebook(rb: Rulebook, d: Diagnostics, lints: bool = True) -> None:
    """Record every problem that only shows once the whole rulebook is known; with `lints`, the author's
    warnings too."""
    claim, deck = rb.claim, rb.deck
    if claim.count is CountRule.EXTRA_ALLOWED and claim.max_cards == 1:
        d.error(claim.span, "E402", "a play is one card, yet extra cards may be slipped in beyond the count called",
                "one of these rules must go: a one-card play cannot hold extra cards")
    if claim.kind is ClaimKind.CARD and claim.max_cards != 1:
        d.error(claim.span, "E403", "a claim that names one exact card must be a play of exactly one card",
                "set `claim.cards: 1`")
    if RoundEnd.ALL_PASS in claim.round_ends and not rb.passing.allowed:
        d.error(claim.span, "E404", "a round ends when everyone passes, but passing is not allowed",
                "allow passing, or drop all_pass from `claim.round_ends`")
    if rb.challenge.penalty.kind is PenaltyKind.DRAW and rb.deal.surplus is not Surplus.STOCK:
        d.error(rb.challenge.penalty.span, "E405", "the loser of a challenge draws cards, but there is no stock",
                "set `deal.surplus: stock`")
    if deck.jokers_wild and deck.jokers == 0:
        d.warning(deck.span, "W401", "jokers are wild, but the deck has no jokers")
    if rb.sets is None and "emptied_by_sets" in dict(rb.ending.field_spans):
        d.warning(rb.ending.span_of("emptied_by_sets"), "W402",
                  "`ending.emptied_by_sets` says what becomes of a hand emptied by sets, but no sets leave the game",
                  "add a `sets` section, or drop this rule")
    penalty = rb.challenge.penalty
    if penalty.kind is not PenaltyKind.DRAW and "short_stock" in dict(penalty.field_spans):
        d.warning(penalty.span_of("short_stock"), "W403",
                  "`challenge.penalty.short_stock` says what the loser does when the stock runs short, but the "
                  "loser of a challenge takes the pile and draws nothing",
                  "drop this rule, or set `challenge.penalty.kind: draw`")
    for n in rb.players.counts():
        table = Table(rb, n)
        if table.packs < 1:
            d.error(deck.packs.span, "E410", f"with {n} players the deck has {table.packs} packs")
            continue
        if table.deck_size > MAX_DECK_CARDS:
            d.error(deck.packs.span, "E413", f"with {n} players the deck has {table.deck_size:,} cards; "
                    f"at most {MAX_DECK_CARDS:,} are supported", "use fewer packs")
            break
        if deck.ranks_used is not None and not 1 <= len(table.ranks_in_play) == int(deck.ranks_used.code(TableFacts(n))):
            d.error(deck.ranks_used.span, "E411", f"with {n} players {int(deck.ranks_used.code(TableFacts(n)))} ranks "
                    f"are used, but the deck lists {len(deck.ranks)}")
            continue
        sizes = table.hand_sizes()
        if isinstance(sizes, str):
            d.error(rb.players.span, "E401", f"the deck cannot be dealt to {n} players: {sizes}",
                    "narrow `players`, or change the deck or the deal")
            continue
        size = set_size(rb, n, table.copies)
        if rb.sets is not None and size is not None:
            most = table.copies + (0 if rb.sets.naturals_only else deck.jokers)
            if not 2 <= size <= most:
                d.error(rb.sets.size.span, "E414", f"with {n} players a set is {size} cards of one rank; "
                        f"it must be between 2 and the {most} that can be held")
        space = ClaimSpace(table)
        if not as_claims(claim.first.code(ClaimFacts(space, n))):
            d.error(claim.first.span, "E412", f"with {n} players the first claim `{claim.first.text}` names no card "
                    "in the deck")
    if lints:
        from .lints import lint_rulebook  # author's warnings (W5xx), once the rules are known to be sound
        lint_rulebook(rb, d)
