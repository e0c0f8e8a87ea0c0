"""The turn order among the seats still in: who follows and precedes each seat, and who answers its claims."""

from __future__ import annotations

from collections.abc import Sequence


def close_up(succ: Sequence[int], pred: Sequence[int], inside: Sequence[bool],
             ) -> tuple[list[int], list[int], list[tuple[int, ...]]]:
    """The turn order once the seats not `inside` have left: for every seat, the next seat in and the
    previous seat in (itself when no other is in), and the seats in that answer its claims, in turn order.

    `succ` and `pred` are the table's order of all seats (`TableRules.succ`, `TableRules.pred`).
    """
    players = len(succ)
    next_in, prev_in, responders = [0] * players, [0] * players, []
    for s in range(players):
        t = succ[s]
        while not inside[t] and t != s:
            t = succ[t]
        next_in[s] = t
        t = pred[s]
        while not inside[t] and t != s:
            t = pred[t]
        prev_in[s] = t
        order = []
        t = succ[s]
        while t != s:
            if inside[t]:
                order.append(t)
            t = succ[t]
        responders.append(tuple(order))
    return next_in, prev_in, responders
