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
    before: list[int] = []
    after: list[int] = []
    sizes: list[tuple[int, int]] = []
    for seat, cards in hands.items():
        before += state.hand_cards(seat)
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
    return all(a == b for a, b in sizes) and sorted(before) == sorted(after)
