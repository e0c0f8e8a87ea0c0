"""Challenges, set discards, everyone passing and players going out: the rarer steps of a game.

Each step reads the state through its public interface and changes it through its named operations
(`take_pile`, `draw`, `pass_card`, `leave`, ...); the state calls these steps, never the other way round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model import ChallengeKind, ChallengeTest
from .actions import IllegalAction, Phase
from .ending import Ending
from .refusals import Refusal
from .records import RevealRecord, RuleGap

if TYPE_CHECKING:
    from ..derived import TableRules
    from .state import State

# What a challenge leaves to do after the loser's set discards: the claimant, the challenger, the winner,
# the loser, whether the claim was caught, and how many sets were out before.
Resolution = tuple[int, int, int, int, bool, int]

# Enum members read once: reading them from the class in a busy step costs more than the step's arithmetic.
_HAND, _TERMINAL = ChallengeTest.HAND, Phase.TERMINAL


def turned_over(rules: TableRules, cards: tuple[int, ...], claim: int, count: int) -> tuple[tuple[int, ...], bool]:
    """What a challenge that turns the play over shows (the whole play, or its top card) and whether that
    catches it: a card that does not pass as the claim or, where the whole play is shown and the count
    may differ, a count other than the cards."""
    revealed = cards if rules.reveal_all else cards[-1:]
    if rules.count_judged and len(cards) != count:
        return revealed, True
    joker = rules.joker if rules.wild else -1
    for c in revealed:
        if c != claim and c != joker:
            return revealed, True
    return revealed, False


def resolve(state: State, kind: ChallengeKind, challenger: int) -> None:
    """Judge the pending play, make the loser pay, then discards, going out and the next turn."""
    rules = state.game.rules
    claimant: int = state.claimant  # type: ignore[assignment]  # a claim is pending
    play = state.pending_play()
    assert play is not None and claimant is not None
    cards, claim, count = play.cards, play.claim, play.count
    shown: int | None = None
    if kind.test is _HAND:
        # Force: the claimant must show a card of the claimed rank from hand, if there is one.
        shown = _card_to_show(state, claimant, claim)
        caught = shown is None
        revealed: tuple[int, ...] = () if shown is None else (shown,)
    else:
        revealed, caught = turned_over(rules, cards, claim, count)
    winner, loser = (challenger, claimant) if caught else (claimant, challenger)
    pile_seen = state.pile_cards() if rules.show_pile else None
    # `failed_call: free`: a wrong call costs the challenger nothing (no card taken, drawn or given; no sets).
    paid = caught or not rules.failed_call_free
    if shown is not None and paid:
        state.pass_card(claimant, loser, shown)
    taken = pile_taken = 0
    if not paid:
        if rules.pile_after_discarded:
            state.discard_pile()
    elif rules.take_pile:
        taken = state.take_pile(loser)
    else:
        taken = state.draw(loser, rules.draw)
        if taken < rules.draw and rules.short_stock_takes_pile:
            # `short_stock: take_pile`: the stock ran short, so the pile (never empty: it holds the
            # play just judged) goes to the loser as well.
            pile_taken = state.take_pile(loser)
            taken += pile_taken
        elif rules.pile_after_discarded:
            state.discard_pile()
    state.record_reveal(RevealRecord(kind.name, claimant, challenger, claim, count, revealed, caught, loser,
                                     taken, pile_seen, pile_taken, paid))
    if rules.round_ends_on_challenge:
        state.new_round()
    resolution = (claimant, challenger, winner, loser, caught, 0 if rules.set_size is None else state.set_count())
    if rules.set_size is not None and paid:
        if rules.sets_forced:
            discard_forced_sets(state, loser)
        elif complete_sets(state, loser):
            state.ask_for_sets(loser, resolution)
            return
    finish_resolution(state, resolution)


def _card_to_show(state: State, seat: int, claim: int) -> int | None:
    rules = state.game.rules
    hand = state.hand(seat)
    if 0 <= claim < rules.values and hand[claim]:
        return claim
    if rules.wild and hand[rules.joker]:
        return rules.joker
    return None


def finish_resolution(state: State, resolution: Resolution) -> None:
    """After a challenge (and any set discards): empty hands go out, then the next player plays."""
    claimant, challenger, winner, loser, caught, sets_before = resolution
    by_sets = state.game.rules.set_size is not None and state.set_count() > sets_before
    nxt = settle(state, claimant, challenger, winner, loser, caught, by_sets)
    if nxt is not None:
        state.next_turn(nxt)


def settle(state: State, claimant: int, challenger: int, winner: int, loser: int, caught: bool,
           by_sets: bool) -> int | None:
    """A challenge paid for: empty hands go out; the seat `next_player` names, or None when the game is over.

    `by_sets`: the loser discarded sets after its pickup.
    """
    g = state.game
    rules = g.rules
    # An empty hand goes out: the claimant's whose play survived (or showed its last card to a
    # Force). The loser's hand emptied by the sets it discarded goes out or stays in as
    # `ending.emptied_by_sets` says. A caught claimant left with nothing otherwise (an empty stock
    # to draw from, with `short_stock: nothing`) has not survived the challenge and stays in.
    sizes = state.sizes
    for seat in (claimant, loser):
        if sizes[seat] or not state.seating[seat]:  # read again: the claimant may be the loser, gone out
            continue
        if seat == loser and by_sets:
            if rules.emptied_stays_in:
                continue
            how = "discarded the last cards as sets"
        elif seat == claimant and caught:
            continue
        else:
            how = "emptied the hand"
        go_out(state, seat, how)
        if state.phase is _TERMINAL:
            return None
    # The formula reads only these facts, the seating and the deal, so its answer is kept per table
    # unless it read the deal (who was dealt a card differs from game to game).
    dealer = state.dealer
    key = (claimant, challenger, caught, dealer, state.seating)
    memo = g.next_player_memo.get(key)
    if memo is None:
        facts = g.facts(state, dealer or 0, claimant=claimant, challenger=challenger, winner=winner,
                        loser=loser, caught=caught)
        named = rules.next_player.code(facts)
        nxt = claimant if named is None else named % g.players
        if not state.is_in(nxt):
            nxt = state.left_of(nxt)
        memo = (nxt, named is None)
        if not facts.read_deal:
            g.next_player_memo[key] = memo
    if memo[1]:
        state.fill_gap(RuleGap.NEXT_PLAYER)
    return memo[0]


def all_passed(state: State) -> None:
    """Every seat still in passed in a row: the pile may leave, and a new round may begin."""
    g = state.game
    rules = g.rules
    if rules.all_pass_discards:
        state.discard_pile()
    seat = state.current_player()
    if rules.round_ends_on_all_pass and rules.all_pass_leader is not None:
        last = state.last_player if state.last_player is not None else state.left_of(seat)
        named = rules.all_pass_leader.code(g.facts(state, state.dealer or 0, last_player=last))
        if named is None:
            state.fill_gap(RuleGap.ALL_PASS_LEADER)
        leader = last if named is None else named % g.players
        if not state.is_in(leader):
            leader = state.left_of(leader)
        state.new_round()
        state.next_turn(leader)
    else:
        state.begin_turn(state.left_of(seat))


# -- sets ----------------------------------------------------------------------------------------

def complete_sets(state: State, seat: int) -> list[int]:
    """Ranks of which `seat` holds a complete set."""
    rules = state.game.rules
    size = rules.set_size
    if size is None or size <= 0:
        return []
    hand = state.hand(seat)
    if rules.by_rank:  # `rank_count_in` written out: it runs after every challenge
        need = size if rules.sets_naturals_only else size - hand[rules.joker]
        return [r for r in rules.ranks_in_play if hand[r] >= need]
    return [r for r in rules.ranks_in_play if rules.rank_count_in(hand, r, rules.sets_naturals_only) >= size]


def discard_set(state: State, seat: int, rank: int) -> None:
    """Put one set of `rank` from `seat`'s hand out of the game, naturals first."""
    rules = state.game.rules
    hand = state.hand(seat)
    need = rules.set_size or 0
    taken: list[int] = []
    values = [rank] if rules.by_rank else [s * rules.rank_count + rank for s in range(rules.suit_count)]
    if not rules.sets_naturals_only:
        values.append(rules.joker)
    for v in values:
        k = min(need, hand[v])
        taken += [v] * k
        need -= k
    state.put_down_set(seat, rank, tuple(sorted(taken)))


def discard_forced_sets(state: State, seat: int) -> None:
    """Every complete set in `seat`'s hand leaves at once."""
    while True:
        ranks = complete_sets(state, seat)
        if not ranks:
            return
        discard_set(state, seat, ranks[0])


def discard_chosen_set(state: State, seat: int, rank: int) -> bool:
    """`seat` shows a set of `rank` and puts it out; True when it holds no complete set any more."""
    if not isinstance(rank, int) or rank not in complete_sets(state, seat):
        raise IllegalAction(Refusal.NO_SET, state=state, seat=seat, rank=rank)
    discard_set(state, seat, rank)
    return not complete_sets(state, seat)


# -- going out -----------------------------------------------------------------------------------

def go_out(state: State, seat: int, how: str) -> None:
    """`seat` leaves the game: the first out wins, or the last one holding cards loses."""
    rules = state.game.rules
    # A seat leaving a game that goes on (a turn-start win) puts its cards out of play.
    state.leave(seat, not rules.first_out and state.players_in > 2 and state.hand_size(seat) > 0)
    if rules.first_out:
        state.finish(Ending.WON, f"seat {seat} {how} and wins", winner=seat)
    elif state.players_in <= 1:
        left = state.seats_in()
        loser = left[0] if left else None
        state.finish(Ending.LAST_HOLDER, f"seat {loser} is the last one holding cards",
                     winner=state.order_out()[0], loser=loser)
