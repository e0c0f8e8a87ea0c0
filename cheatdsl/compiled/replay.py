"""A compiled game's action log replayed by the Python engine, which must agree after every action."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from ..engine import (ACCEPT, CHANCE, KEEP as KEEP_SETS, PASS, ChanceCaller, Challenge, DiscardSet, Game, Play,
                      Position, State)
from ..engine.deal import enter_position
from .position import turn_start
from .run import CompiledTable
from .tables import KernelTables


class LoggedGame(NamedTuple):
    """One kernel game: its deal, its actions and the state after each, and its record."""

    dealer: int
    hands: np.ndarray    # counts by seat, then the cards dealt to nobody or put out as sets at the deal
    stock: tuple[int, ...]  # the stock after the deal, top card first
    log: np.ndarray      # [kind, seat, claim, count, card...] per action
    states: np.ndarray   # [pile size, hand sizes...] after each action
    record: np.ndarray
    pickups: tuple[int, ...]


def _log_room(t: KernelTables, turns: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The arrays a logged game of at most `turns` turns fills: its record, pickups, action log and the states
    after each action (a turn's rows: the play, the answers, the caller's lot, the sets)."""
    from .common import RECORD_WIDTH
    rows = turns * (t.rules.players + 2 + (t.rules.values if t.rules.set_size else 0)) + 1
    return (np.zeros(RECORD_WIDTH, dtype=np.int64), np.zeros(turns + 1, dtype=np.int64),
            np.zeros((rows, 4 + t.rules.max_cards), dtype=np.int64),
            np.zeros((rows, 1 + t.rules.players), dtype=np.int64))


def play_logged(table: CompiledTable, index: int) -> LoggedGame:
    """Game `index` of `table`'s run, with its action log."""
    from .common import DEALER, LOG_ROWS, PICKUPS
    from .kernel import play_logged as kernel_game
    t = table.tables
    record, pickups, log, states = _log_room(t, t.rules.turn_cap)
    hands = np.zeros((t.rules.players + 1, t.rules.faces), dtype=np.int64)
    stock = np.zeros(max(1, t.rules.stock_size), dtype=np.int64)
    kernel_game(t, np.uint64(table.seed & ((1 << 64) - 1)), index, table.rates, table.policies, record, pickups, hands,
                stock, log, states)
    n = int(record[LOG_ROWS])
    return LoggedGame(int(record[DEALER]), hands, tuple(stock[:t.rules.stock_size].tolist()), log[:n], states[:n],
                      record,
                      tuple(pickups[:record[PICKUPS]].tolist()))


def play_logged_from(table: CompiledTable, state: State, seed: int) -> LoggedGame:
    """The kernel's game from `state`, a turn's start the Python engine holds (a deal it made, the first player
    to play), played on by `table`'s bots from the random stream `seed`, with its action log. Its `hands` are
    those of `state`, one row a seat (no row for the cards in no hand)."""
    from .common import LOG_ROWS, PICKUPS
    from .kernel import play_logged_from as kernel_game
    t = table.tables
    turns = max(0, state.game.turn_limit - state.turns)
    at = turn_start(state, t.rules.values, t.rules.faces)
    record, pickups, log, states = _log_room(t, turns)
    hands = at.hands.copy()
    gone = np.zeros(t.rules.faces + 1, dtype=np.int64)  # the cards put out in sets (at the deal, where they are forced)
    for _, _, cards in state.discarded_sets():
        for card in cards:
            gone[card] += 1
    gone[t.rules.faces] = gone[:t.rules.faces].sum()
    kernel_game(t, at.dealer, at.hands, at.pile, at.stock, at.seated, at.seat, at.row, at.situation, at.play_cards,
                gone, turns, np.uint64(seed & ((1 << 64) - 1)), table.rates, table.policies, record, pickups, log,
                states)
    n = int(record[LOG_ROWS])
    return LoggedGame(at.dealer, hands, tuple(at.stock.tolist()), log[:n], states[:n], record,
                      tuple(pickups[:record[PICKUPS]].tolist()))


class Disagreement(AssertionError):
    """The Python engine reached another state than the kernel; the message says where."""


def start_of(game: Game, logged: LoggedGame) -> Position | None:
    """The position `logged` starts from, as the Python engine enters it (the hands dealt, the first player the
    deal names, the stock and the cards dealt to nobody); None where the deal names nobody to play first."""
    n = game.players
    cards = [tuple(int(v) for v in range(logged.hands.shape[1]) for _ in range(int(logged.hands[s, v])))
             for s in range(n + 1)]
    first = _first_named(game, logged)
    if first < 0:
        return None
    return Position(hands=tuple(cards[:n]), to_play=first, dealer=logged.dealer, aside=cards[n], stock=logged.stock,
                    out=tuple(s for s in range(n) if not cards[s]))


def actions_of(game: Game, logged: LoggedGame) -> Iterator[tuple[int, object]]:
    """The logged actions in the Python engine's terms, each with the seat that acts (CHANCE: who of several
    callers called first)."""
    from .common import CALLER, CHALLENGE, DISCARD, KEEP, PASS as PASS_ROW, PLAY
    kinds = game.rules.kind_names
    for row in logged.log.tolist():
        if row[0] == CALLER:
            yield CHANCE, ChanceCaller(row[1])
            continue
        if row[0] == PLAY:
            action: object = Play(tuple(sorted(c for c in row[4:] if c >= 0)), row[2], row[3])
        elif row[0] == DISCARD:
            action = DiscardSet(row[2])
        elif row[0] == KEEP:
            action = KEEP_SETS
        elif row[0] == PASS_ROW:
            action = PASS
        else:
            action = Challenge(kinds[row[2]]) if row[0] == CHALLENGE else ACCEPT
        yield row[1], action


def replay(game: Game, logged: LoggedGame) -> tuple[int | None, str, int]:
    """Replay `logged` through the Python engine, checking the pile and hand sizes after every action
    and the end; returns the Python engine's (winner, ending name, turns)."""
    from .common import FIRST, LOSER, STUCK, WINNER
    n = game.players
    emptied = tuple(s for s in range(n) if not logged.hands[s].any())  # dealt only sets, which left at once
    if emptied and game.rules.first_out:
        if len(logged.log) or int(logged.record[WINNER]) != emptied[0]:
            raise Disagreement(f"seat {emptied[0]} was dealt only sets and wins, but the kernel's game went on")
        return emptied[0], "WON", 0
    if len(emptied) >= n - 1 and not game.rules.first_out:
        # Every seat but one (or all) dealt only sets: the first of them out, the last one in loses at the deal.
        held = [s for s in range(n) if s not in emptied]
        loser = held[0] if held else emptied[-1]
        if len(logged.log) or (int(logged.record[WINNER]), int(logged.record[LOSER])) != (emptied[0], loser):
            raise Disagreement(f"seats {list(emptied)} were dealt only sets, so seat {loser} loses at the deal, "
                               "but the kernel's game went otherwise")
        return emptied[0], "LAST_HOLDER", 0
    position = start_of(game, logged)
    first = -1 if position is None else position.to_play
    if first != int(logged.record[FIRST]):
        raise Disagreement(f"the deal names seat {first} to play first, the kernel seat {int(logged.record[FIRST])}")
    if position is None:
        if not logged.record[STUCK] or len(logged.log):
            raise Disagreement("the deal names nobody to play first, but the kernel's game went on")
        return None, "NO_FIRST_PLAYER", 0
    state = game.new_initial_state()
    enter_position(state, position)
    return follow(state, logged)


def follow(state: State, logged: LoggedGame) -> tuple[int | None, str, int]:
    """Apply `logged`'s actions to `state` (where the kernel's game started), checking the pile and hand sizes
    after every action and the end; returns the Python engine's (winner, ending name, turns)."""
    from .common import CAPPED, LOSER, STUCK, TURNS, WINNER
    game = state.game
    for i, (seat, action) in enumerate(actions_of(game, logged)):
        if seat != CHANCE and state.current_player() != seat:
            raise Disagreement(f"action {i}: the kernel's seat {seat} acts, the engine's {state.current_player()}")
        state.apply_action(action)
        got = [state.pile_size(), *state.hand_sizes()]
        if got != logged.states[i].tolist():
            raise Disagreement(f"action {i} ({action}): the engine has pile and hands {got}, "
                               f"the kernel {logged.states[i].tolist()}")
    result = state.result()
    if result is None:
        raise Disagreement(f"the kernel's game ended after {len(logged.log)} actions, the engine's goes on")
    winner = result.winner if not result.capped and result.winner is not None else -1
    loser = result.loser if not result.capped and result.loser is not None else -1
    kernel = (int(logged.record[WINNER]), int(logged.record[LOSER]), int(logged.record[TURNS]))
    unfinished = bool(logged.record[CAPPED] or logged.record[STUCK])  # the engine's `capped`: stopped unfinished
    if (winner, loser, state.turns) != kernel or unfinished != result.capped:
        raise Disagreement(f"the engine ends with winner {winner}, loser {loser} after {state.turns} turns, "
                           f"the kernel with winner {kernel[0]}, loser {kernel[1]} after {kernel[2]}")
    return (winner if winner >= 0 else None), result.ending.name, state.turns


def _first_named(game: Game, logged: LoggedGame) -> int:
    """The seat `setup.first_player` names for the logged deal, as the engine's deal reads it (-1: none), the
    cards' holders known where a card is the only one of its value."""
    rules = game.rules
    n = game.players
    hands = [[int(k) for k in logged.hands[s]] + [0] * (rules.values + 1 - logged.hands.shape[1]) for s in range(n)]
    # Who holds an exact card is known where its value is that card alone: a claim by card, or a rank with one copy.
    holders = {card: s for s in range(n) for card in set(rules.table.deck)
               if rules.deck_counts[rules.card_value(card)] == 1 and hands[s][rules.card_value(card)]}
    state = game.new_initial_state()
    state.lay_out(logged.dealer, hands, holders=holders)
    for s in range(n):
        if not sum(hands[s]):  # dealt only sets, which left at once
            state.leave(s, False)
    seat = rules.first_player.code(game.facts(state, logged.dealer))
    if seat is None:
        return -1
    seat %= n
    return seat if state.is_in(seat) else state.left_of(seat)
