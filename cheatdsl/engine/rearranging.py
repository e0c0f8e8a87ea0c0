"""Whether cards moved to other places of a table are the same cards in places of the same sizes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import State


def same_cards_elsewhere(state: State, hands: Mapping[int, Sequence[int]], pile: Sequence[Sequence[int]] | None,
                         stock: Sequence[int] | None, aside: Sequence[int] | None) -> bool:
    """Whether the given places (None: left as they are) keep each place's size and the table's cards.

    `hands` maps seats to their new cards, `pile` gives each pile entry's cards, `stock` and `aside`
    their cards; the order within a place does not matter here.
    """
    # Each card value counted in (the places as they are) and out (the places given): the same cards where
    # every count ends at nought.
    counts = [0] * len(state.hand(0))
    sizes: list[tuple[int, int]] = []
    before: list[int] = []
    after: list[int] = []
    for seat, cards in hands.items():
        for v, k in enumerate(state.hand(seat)):
            counts[v] += k
        after += cards
        sizes.append((state.hand_size(seat), len(cards)))
    if pile is not None:
        plays = state.pile_plays()
        sizes += [(len(entry[1]), len(cards)) for entry, cards in zip(plays, pile)]
        sizes.append((len(plays), len(pile)))
        before += state.pile_cards()
        after += [c for cards in pile for c in cards]
    for now, new in ((state.stock(), stock), (state.aside(), aside)):
        if new is not None:
            sizes.append((len(now), len(new)))
            before += now
            after += new
    if not all(a == b for a, b in sizes):
        return False
    for c in before:
        counts[c] += 1
    for c in after:
        if not 0 <= c < len(counts):
            return False
        counts[c] -= 1
    return not any(counts)
