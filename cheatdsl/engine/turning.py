"""A state's position with the seats turned round the table: the same game, every seat moved along.

`State.position` is everything the rules read from a state on; `turned(position, players, k)` is the
position of the same state with seat s sitting at seat (s + k) % players: each hand, each seat named (the seat
to act, the dealer, the claimant, the last player, the callers, the responders, the seats out, who put down
each pile entry, who put out each set, who was dealt each card, the challenge being settled) moved along,
and nothing else. Where the rules read seats only relative to one another (no formula read in play names a
seat by its number), turning a position round the table turns every game from it the same way: the
exhaustive judge then explores one position of each turn (`verifier/exhaustive/rotation.py`).

It reads the layout `State.position` builds; tests/test_turning.py holds the two together.
"""

from __future__ import annotations

from typing import Any

_BUNDLE = -1  # `State._pile_by`: a pile entry nobody put down (`state._BUNDLE`)


def turned(position: tuple[Any, ...], players: int, k: int) -> tuple[Any, ...]:
    """`position` (`State.position`'s value) with every seat moved `k` places: seat s becomes (s + k) % players."""
    if k % players == 0:
        return position

    def seat(s: int | None) -> int | None:
        return s if s is None or s < 0 else (s + k) % players

    def each(seats: tuple[int, ...]) -> tuple[int, ...]:
        return tuple((s + k) % players for s in seats)

    def by_seat(values: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(values[(i - k) % players] for i in range(players))

    if position[0] == "over":
        _, ending, winner, loser, out = position
        return ("over", ending, seat(winner), seat(loser), each(out))
    (phase, to_act, dealer, hands, pile, pile_by, stock, aside, gone, sets, seating, out, previous, leading,
     required, claimant, responders, ri, calls, is_open, after_pass, passes, last_player, pending, turns,
     holders) = position
    return (
        phase, seat(to_act), seat(dealer), by_seat(hands), pile,
        tuple(b if b == _BUNDLE else 2 * (((b >> 1) + k) % players) + (b & 1) for b in pile_by),
        stock, aside, gone, tuple((seat(s), rank, cards) for s, rank, cards in sets), by_seat(seating), each(out),
        previous, leading, required, seat(claimant), each(responders), ri,
        tuple((seat(s), kind) for s, kind in calls), is_open, seat(after_pass), passes, seat(last_player),
        None if pending is None else (seat(pending[0]), seat(pending[1]), seat(pending[2]), seat(pending[3]),
                                      *pending[4:]),
        turns, tuple((card, seat(s)) for card, s in holders),
    )
