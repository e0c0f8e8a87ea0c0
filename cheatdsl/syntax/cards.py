"""Standard names of ranks and suits, so a rulebook can write `Q` and a formula `queens`."""

from __future__ import annotations

STANDARD_RANKS: dict[str, tuple[str, str]] = {
    "A": ("ace", "aces"), "2": ("two", "twos"), "3": ("three", "threes"), "4": ("four", "fours"),
    "5": ("five", "fives"), "6": ("six", "sixes"), "7": ("seven", "sevens"), "8": ("eight", "eights"),
    "9": ("nine", "nines"), "10": ("ten", "tens"), "J": ("jack", "jacks"), "Q": ("queen", "queens"),
    "K": ("king", "kings"),
}
STANDARD_SUITS: dict[str, str] = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
STANDARD_RANK_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
STANDARD_SUIT_ORDER = ("clubs", "diamonds", "hearts", "spades")
