"""The odds behind the honest bot's doubts: what a hand drawn from the unseen cards holds of a claim,
and from that the chance that a claim is a bluff (the formula is in `honest.py`'s docstring)."""

from __future__ import annotations

from math import comb

_ODDS: dict[tuple[int, int, int], tuple[float, ...]] = {}


def hand_odds(pool: int, matching: int, hand: int) -> tuple[float, ...]:
    """P(x good cards) for x = 0, 1, ...: a hand of `hand` cards drawn from `pool`, `matching` of them good."""
    hand = max(0, min(hand, pool))
    matching = max(0, min(matching, pool))
    key = (pool, matching, hand)
    odds = _ODDS.get(key)
    if odds is None:
        total = comb(pool, hand)
        odds = _ODDS[key] = tuple(comb(matching, x) * comb(pool - matching, hand - x) / total
                                  for x in range(min(matching, hand) + 1))
    return odds


def chance_of_lie(odds: tuple[float, ...], played: int, need: int, cap: int, choices: int = 1) -> float:
    """The chance that `played` cards claimed are a bluff, for a claimant whose holding of the claim has
    these `odds`, who could choose among `choices` claims (taken as alike and independent)."""
    if need >= len(odds):
        return 1.0  # fewer cards that pass are unseen than must match
    exact = sum(odds[played:]) if played >= cap else (odds[played] if played < len(odds) else 0.0)
    bluff = odds[0] ** choices * 0.5 ** played
    truth = 1.0 - (1.0 - exact) ** choices
    return bluff / (bluff + truth) if bluff + truth > 0 else 1.0
