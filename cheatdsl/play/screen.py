"""The player's screen at the start of a turn: the table, the required claim and the hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..words.notation import card_text, rank_words
from ..model import Surplus
from .words import Voices, choices_words, display_order, number_word, plural

if TYPE_CHECKING:
    from ..engine import Game, State

WIDTH = 72
PER_ROW = 15


def rule(title: str = "") -> str:
    """`── title ─────…` across the screen."""
    if not title:
        return "─" * WIDTH
    head = f"── {title} "
    return head + "─" * max(3, WIDTH - len(head))


def table_line(state: State, v: Voices) -> str:
    """`Robin 17 · Alex 15 (out) · pile 6 · stock 20`: every hand's size and the piles in the middle."""
    g = state.game
    parts = []
    for i in range(1, g.players):
        seat = g.rules.seat_after(v.you or 0, i) if v.you is not None else i
        mark = "" if state.is_in(seat) else " (out)"
        parts.append(f"{v.name(seat)} {state.hand_size(seat)}{mark}")
    if v.you is not None:
        parts.insert(0, f"You {state.hand_size(v.you)}" + ("" if state.is_in(v.you) else " (out)"))
    parts.append(f"pile {state.pile_size()}")
    if g.rulebook.deal.surplus is Surplus.STOCK:
        parts.append(f"stock {len(state.stock())}")
    return " · ".join(parts)


def cards_rule(g: Game) -> str:
    """`1 to 4 cards`, `1 card`, `1 or more cards`."""
    if g.rules.max_cards == g.rules.min_cards:
        return plural(g.rules.min_cards, "card")
    if g.rules.max_cards is None:
        return f"{g.rules.min_cards} or more cards"
    return f"{g.rules.min_cards} to {g.rules.max_cards} cards"


def count_rule(g: Game) -> str:
    if g.rules.exact:
        return "the count you call is the count you play"
    if g.rules.any_count:
        return f"you may call any count from {g.rules.min_cards} to {g.rules.count_cap}"
    return "you may put down more cards than you call"


def required_lines(state: State) -> list[str]:
    """THE REQUIRED CLAIM, and what a play may be."""
    g = state.game
    claims = state.required_claims()
    passing = state.can_pass()
    if not claims:
        return ["NOTHING CAN BE CLAIMED NOW: you must pass."]
    choices = choices_words(g, claims).upper()
    if len(claims) == 1:
        head = f"THE REQUIRED CLAIM: {choices}"
    elif state.leading:
        head = f"YOU LEAD: CLAIM {choices}"
    else:
        head = f"YOUR CLAIM: {choices}"
    play = f"Play {cards_rule(g)} face down; {count_rule(g)}"
    if passing:
        play += ", or pass"
    return [head, play + "."]


def hand_lines(g: Game, hand: Sequence[int], top: int | None = None) -> list[str]:
    """The hand, sorted as held, with each card's position under it for selecting by `#n`."""
    cards = display_order(g, hand)
    select = "" if top is None else f" · SELECT UP TO {top}" if top < len(cards) else " · SELECT ANY"
    lines = [f"YOUR HAND · {plural(len(cards), 'CARD', 'CARDS')}{select}"]
    if not cards:
        return lines + ["  (no cards)"]
    names = [card_text(g, c) for c in cards]
    width = max(max(len(n) for n in names), len(f"#{len(cards)}")) + 1
    for start in range(0, len(cards), PER_ROW):
        row = names[start:start + PER_ROW]
        lines.append("  " + "".join(n.ljust(width) for n in row).rstrip())
        lines.append("  " + "".join(f"#{start + i + 1}".ljust(width) for i in range(len(row))).rstrip())
    return lines


def evidence_line(g: Game, hand: Sequence[int], claim: int, count: int) -> str:
    """What your own cards say about a claim: `You hold one seven; four are in the deck.`"""
    held = sum(1 for c in hand if c == claim)
    copies = g.rules.deck_counts[claim]
    if g.rules.by_rank:
        text = f"You hold {number_word(held)} {rank_words(g, claim, held)}; the deck has {copies}."
    else:
        text = "You hold that very card." if held else "You do not hold that card."
    if held + count > copies + (g.rules.deck_counts[g.rules.joker] if g.rules.wild else 0):
        text += " The claim is impossible!"
    return text
