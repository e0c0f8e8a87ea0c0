"""Listing, counting and sampling legal actions, kept apart from stepping.

Plays are multisets of card values, so `count_plays` and `sample_play` work from the hand's
counts with a small polynomial product (the number of ways to pick k cards from bounded counts)
and never list a play; games without a card cap can have astronomically many.
"""

from __future__ import annotations

import random
from itertools import accumulate, chain
from operator import add, mul, sub
from typing import TYPE_CHECKING

from .actions import (
    KEEP,
    PASS,
    Action,
    ChanceCaller,
    ChanceDealer,
    DiscardSet,
    IllegalAction,
    Phase,
    Play,
    TooManyActions,
)
from .refusals import Refusal
from .challenge import complete_sets

if TYPE_CHECKING:
    from ..derived import TableRules
    from .state import State

MAX_LEGAL_ACTIONS = 100_000
_CHANCE, _PLAY, _RESPOND, _DISCARD = Phase.CHANCE, Phase.PLAY, Phase.RESPOND, Phase.DISCARD


def legal_actions(state: State, limit: int | None = None) -> list[Action]:
    """Every legal action in canonical order (`actions.action_key`)."""
    phase = state.phase
    g = state.game
    if phase is _RESPOND:
        return list(g.responses)
    if phase is _PLAY:
        cap = MAX_LEGAL_ACTIONS if limit is None else limit
        total = count_plays(state)
        if total > cap:
            raise TooManyActions(total, cap)
        out: list[Action] = list(_plays(state))
        if state.can_pass():
            out.append(PASS)
        return out
    if phase is _DISCARD:
        return [*(DiscardSet(r) for r in complete_sets(state, state.current_player())), KEEP]
    if phase is _CHANCE and state.callers():
        return [ChanceCaller(s) for s in sorted(state.callers())]
    if phase is _CHANCE and state.dealer is None:
        return [ChanceDealer(s) for s in range(g.players)]
    return []


def _bounds(state: State) -> tuple[int, int]:
    rules = state.game.rules
    held = state.sizes[state.to_act]
    top = held if rules.max_cards is None else min(rules.max_cards, held)
    return rules.min_cards, top


def _count_choices(state: State, k: int) -> int:
    """How many counts may be called for a play of k cards."""
    rules = state.game.rules
    if rules.exact:
        return 1
    if rules.any_count:
        return max(0, rules.any_count_cap - rules.min_cards + 1)
    top = k if rules.max_cards is None else min(k, rules.max_cards)
    return max(0, top - rules.min_cards + 1)


def _plays(state: State) -> list[Play]:
    low, high = _bounds(state)
    if high < low or not state.required:
        return []  # without a claim to make there is no play, whatever cards could be chosen
    rules = state.game.rules
    hand = state.hand(state.to_act)
    avail = [(v, k) for v, k in enumerate(hand) if k]
    groups: list[list[tuple[int, ...]]] = [[] for _ in range(high + 1)]

    def walk(i: int, chosen: list[int]) -> None:
        if len(chosen) >= low:
            groups[len(chosen)].append(tuple(chosen))
        if len(chosen) == high:
            return
        for j in range(i, len(avail)):
            v, k = avail[j]
            room = min(k, high - len(chosen))
            for m in range(1, room + 1):
                walk(j + 1, chosen + [v] * m)

    walk(0, [])
    out = []
    for claim in state.required:
        for k in range(low, high + 1):
            counts = range(rules.min_cards, rules.min_cards + _count_choices(state, k)) if not rules.exact else [k]
            for count in counts:
                for cards in sorted(groups[k]):
                    out.append(Play(cards, claim, count))
    return out


_LAST: list[tuple[tuple[int, ...], int, list[list[int]]]] = [((), -1, [])]  # the hand last counted
_NONE = (0,)


def _suffixes(hand: list[int], high: int) -> list[list[int]]:
    """suffix[i][t]: multisets of t cards (t up to `high`) that can be taken from the values held from the i-th
    held value on (counts per value); suffix[0] counts whole plays. A row stops at the most cards those values
    hold (every entry past it is 0). A bot counts the plays, then draws one from the same hand: the tables of
    the last hand are kept for that draw (read and replaced whole, so games played in other threads never see
    half of one)."""
    key = tuple(hand)
    last = _LAST[0]
    if last[0] == key and last[1] == high:
        return last[2]
    ways = [1]
    suffix = [ways]
    for k in reversed(key):
        if k:
            ways = _ways_with(ways, k, high)
            suffix.append(ways)
    suffix.reverse()
    _LAST[0] = (key, high, suffix)
    return suffix


def count_plays(state: State) -> int:
    """How many different plays the seat to play may make."""
    if state.phase is not _PLAY:
        return 0
    low, high = _bounds(state)
    if high < low:
        return 0
    ways = _suffixes(state.hand(state.to_act), high)[0]
    return sum(_weights(state.game.rules, ways[low:high + 1])) * len(state.required)


def _weights(rules: TableRules, ways: list[int]) -> list[int]:
    """The plays of each size from the smallest allowed on (`ways`: the ways to pick their cards), times the counts
    that may be called for each (as `_count_choices` says: every size here is within the card cap)."""
    if rules.exact:
        return ways
    if rules.any_count:
        return [w * max(0, rules.any_count_cap - rules.min_cards + 1) for w in ways]
    return list(map(mul, ways, range(1, len(ways) + 1)))


def sample_play(state: State, rng: random.Random) -> Play:
    """A play drawn uniformly from every legal play."""
    if state.phase is not _PLAY:
        raise IllegalAction(Refusal.NO_PLAY_NOW, state=state)
    low, high = _bounds(state)
    seat = state.to_act
    hand = state.hand(seat)
    high = max(high, 0)
    suffix = _suffixes(hand, high)
    ways = suffix[0]
    rules = state.game.rules
    weights = _weights(rules, ways[low:high + 1])  # from `low` cards on
    total = sum(weights)
    required = state.required
    if total == 0 or not required:
        raise IllegalAction(Refusal.NOTHING_TO_PLAY, state=state, seat=seat)
    randrange = rng.randrange
    claim = required[randrange(len(required))] if len(required) > 1 else required[0]
    pick = randrange(total)
    k = 0
    while pick >= weights[k]:
        pick -= weights[k]
        k += 1
    k += low
    count = k if rules.exact else rules.min_cards + randrange(_count_choices(state, k))
    chosen: list[int] = []
    need = k
    i = 0
    for v, c in enumerate(hand):
        if not c:
            continue
        rest = suffix[i + 1]
        pick = randrange(suffix[i][need])
        # Entries past the end of `rest` are 0: taking fewer than need - top of this value cannot be.
        top = len(rest) - 1
        j = need - top if need > top else 0
        while pick >= rest[need - j]:
            pick -= rest[need - j]
            j += 1
        if j:
            chosen += [v] * j
            need -= j
        if not need:
            break
        i += 1
    return Play(tuple(chosen), claim, count)


def _ways_with(ways: list[int], count: int, high: int) -> list[int]:
    """`ways` after one more value held `count` times, up to `high` cards: new[t] = sum of ways[t - j], j in
    0..count (an entry past the end of `ways` is 0)."""
    top = len(ways) - 1 + count
    if top > high:
        top = high
    if count == 1:
        return list(map(add, ways + [0] if top == len(ways) else ways[:top + 1], chain(_NONE, ways)))
    run = list(accumulate((ways + [0] * count)[:top + 1]))
    return run[:count + 1] + list(map(sub, run[count + 1:], run))
