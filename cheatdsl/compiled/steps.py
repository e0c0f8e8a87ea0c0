"""The rules' steps of a turn in the compiled kernel, each beside the interpreter function it mirrors (named in
its docstring). `kernel.play_on` inlines them (`common.inlined`): each takes the table's rules `r`
(`tables.KernelRules`, numbers and flags read by name), the table's arrays it reads and the turn's facts,
changes the hands, the pile and the seats in place, and returns the facts it changes.
"""

from __future__ import annotations

import numpy as np

from .bots import hear
from .common import ACTIONS, CAPPED, CAUGHT, CHALLENGES, DEALER, DISCARD, EXACT, FIRST, FORCED, FROM_PILE, HAND_TEST, \
    KEEP, LOG_ROWS, LOSER, PICKUPS, PLAYS, RANDOM, STUCK, TURNS, WINNER, complete_set, counts_for, draw, fill_from, \
    inlined, next_in, note, put_out_sets


@inlined
def turn_start(r, claims, choices, row_set, pass_ok, wins_at_start, hands, sizes, seat, row, leading):
    """The rules of `seat`'s turn start from row `row` of `claims` (`State.begin_turn`): whether it wins now
    (`ending.turn_start_win`), whether it may pass (`passing.when`, read from their tables by the cards of the
    hand that pass as one of the claims allowed, wild jokers too: `TableRules.count_matching`) and whether it
    has no play (no claim allowed, or no card to make it). Returns (wins, may pass, no play)."""
    allowed = choices[row]
    may = False
    if r.turn_win or r.may_pass:
        holding = 0
        for i in range(allowed):
            holding += hands[seat, claims[row, i]]
        if r.wild >= 0 and allowed > 0:
            holding += hands[seat, r.wild]
        lead = 1 if leading else 0
        if r.turn_win and wins_at_start[row_set[row], lead, sizes[seat], holding]:
            return True, False, False
        may = r.may_pass and (r.leader_may_pass or not leading) and \
            pass_ok[row_set[row], lead, sizes[seat], holding]
    return False, may, allowed == 0 or sizes[seat] == 0


@inlined
def all_passed(r, pass_leader, pile, seated, seat, dealer, mask, last_player, claimant, claim, row, leading, pile_n,
               logging, states, rows):
    """Every seat in passed in turn (`challenge.all_passed`): the pile leaves the game unseen where the rules say
    so (`passing.all_pass_pile`), and a new round begins, led as `passing.all_pass_leader` says (read from
    `pass_leader` by the seats in, as bits in `mask`), or play goes on round the table. Returns (seat to play, its row, leading, last player, pile
    size)."""
    if r.all_pass_discards:
        pile[:] = 0
        pile_n = 0
        if logging:
            states[rows - 1, 0] = 0
    if not r.all_pass_rounds:
        return next_in(seated, seat, r.step), row, leading, last_player, pile_n
    if last_player < 0:
        last_player = next_in(seated, seat, r.step)
    leader = pass_leader[dealer, mask if r.last_holder else 0, last_player]
    row = 2 * r.values + 1 if claimant < 0 else r.values + 1 + claim
    return leader, row, True, last_player, pile_n


@inlined
def random_play(r, hands, pile, play_cards, seat, claim, ways, plays, rng, keeps, logging, log, line):
    """`random`'s play (engine/plays.py `sample_play`): one of its `plays` legal plays (`bots.random_ways`), each
    alike, put down from `seat`'s hand onto the pile, the cards listed on log row `line`. Returns (cards put
    down, the count called, the highest card, whether the play is a lie as a challenge of it judges)."""
    count_rule, count_top, wild = r.count_rule, r.count_top, r.wild
    pick = np.floor(draw(rng) * plays)
    count = 1
    while pick >= ways[0, count] * counts_for(count, count_rule, count_top):
        pick -= ways[0, count] * counts_for(count, count_rule, count_top)
        count += 1
    calls_for = counts_for(count, count_rule, count_top)
    chosen = np.floor(pick / calls_for)
    called = count if count_rule == EXACT else 1 + int(pick - chosen * calls_for)
    pick = chosen
    top = claim
    lie = False
    left = count
    at = 4
    for i in range(r.faces):
        for c in range(min(hands[seat, i], left) + 1):
            if pick < ways[i + 1, left - c]:
                if c > 0:
                    hands[seat, i] -= c
                    pile[i] += c
                    top = i
                    if i != claim and i != wild and r.reveal_all:
                        lie = True
                    if keeps:
                        play_cards[i] += c
                    if logging:
                        for _ in range(c):
                            log[line, at] = i
                            at += 1
                left -= c
                break
            pick -= ways[i + 1, left - c]
        if left == 0:
            break
    if top != claim and top != wild:
        lie = True  # the highest card, the one a challenge of the top card turns over, does not pass
    return count, called, top, lie


@inlined
def true_play(r, hands, pile, play_cards, seat, claim, held, keeps, logging, log, line):
    """A truthful play (bots/base.py `truthful_play`): every card that passes as the claim, up to the cap, its own
    cards first, then wild jokers. Returns (cards put down, the highest card)."""
    wild = r.wild
    count = min(held, r.max_cards)
    own = min(hands[seat, claim], count)
    top = claim
    hands[seat, claim] -= own
    pile[claim] += own
    if keeps:
        play_cards[claim] += own
    if own < count:
        hands[seat, wild] -= count - own
        pile[wild] += count - own
        top = wild
        if keeps:
            play_cards[wild] += count - own
    if logging:
        for c in range(count):
            log[line, 4 + c] = claim if c < own else wild
    return count, top


@inlined
def bluff(hands, pile, play_cards, seat, card, keeps, logging, log, line):
    """A bluff of one card (bots/base.py `bluff_play`): `card`, holding none of the claim."""
    hands[seat, card] -= 1
    pile[card] += 1
    if keeps:
        play_cards[card] += 1
    if logging:
        log[line, 4] = card


@inlined
def show(r, kind_tests, hands, sizes, claimant, challenger, claim, kind, lie):
    """What a challenge of kind `kind` turns over (`challenge.resolve`, `_card_to_show`): the play, caught where it
    is a lie; or, for a challenge of the hand (Force), a card of the claim from the claimant's hand (its own
    first, then a wild joker), which goes to the challenger, who lost (and stays where a wrong call costs
    nothing, `challenge.resolve`); showing none, the claimant is caught. Returns (caught, the card that went
    from the hand to the challenger: -1 for none, FROM_PILE for a challenge of the play)."""
    if kind_tests[kind] != HAND_TEST:
        return lie, FROM_PILE
    wild = r.wild
    shown = claim if hands[claimant, claim] > 0 else wild if wild >= 0 and hands[claimant, wild] > 0 else -1
    if shown < 0:
        return True, shown
    if r.failed_free:
        return False, -1
    hands[claimant, shown] -= 1
    sizes[claimant] -= 1
    hands[challenger, shown] += 1
    sizes[challenger] += 1
    return False, shown


@inlined
def remember(r, heard, reveals, shown, play_cards, top, pile, claimant, loser, from_hand):
    """The challenge goes on the table's record `counter` reads (`State.record_reveal`): what it turned over,
    the whole play or its top card (the highest, as the log lists them), or where the pile is shown all of it.
    Returns the challenges recorded."""
    fill_from(shown, play_cards)
    if not r.reveal_all:
        shown[:] = 0
        shown[top] = 1
    return hear(heard, reveals, claimant, loser, from_hand, pile if r.show_pile else shown)


@inlined
def penalty(r, hands, sizes, pile, pile_n, stock, stock_from, stock_n, drawn, loser):
    """The loser's penalty (`challenge.settle`, `State.take_pile`, `State.draw`): it takes the pile, or draws
    from the stock (the cards from `stock_from + drawn` on) and takes the pile as well where the stock runs
    short and the rules say so. Returns (cards taken, whether the pile was among them, the pile's size, the
    cards drawn from the stock so far)."""
    taken = 0
    took_pile = r.take_pile
    if not r.take_pile:
        taken = min(r.draw_count, stock_n - drawn)
        for i in range(taken):
            hands[loser, stock[stock_from + drawn + i]] += 1
        drawn += taken
        sizes[loser] += taken
        took_pile = taken < r.draw_count and r.short_takes_pile
    if took_pile:
        for v in range(r.faces):
            hands[loser, v] += pile[v]
            pile[v] = 0
        sizes[loser] += pile_n
        taken += pile_n
        pile_n = 0
    return taken, took_pile, pile_n, drawn


@inlined
def loser_sets(r, set_ranks, hands, sizes, gone, loser, policy, rng, pile_n, logging, log, states, rows):
    """The loser's complete sets: every one leaves at once where the rules force it
    (`challenge.discard_forced_sets`), else its bot chooses one set at a time (`challenge.discard_chosen_set`;
    bots/base.py `discard_or_keep`: every bot but `random` puts out the first it holds; `random` keeps the rest
    or puts out one, each alike). Returns (whether a set left, log rows, decisions made)."""
    by_sets = False
    actions = 0
    set_size = r.set_size
    if r.sets_forced:
        put = put_out_sets(hands, loser, set_size, set_ranks, gone)
        sizes[loser] -= put
        by_sets = put > 0
        if logging:
            fill_from(states[rows - 1, 1:], sizes)
        return by_sets, rows, actions
    if set_size == 0:
        return by_sets, rows, actions
    while True:
        rank = complete_set(hands, loser, set_size, set_ranks)
        if rank < 0:
            break
        if policy == RANDOM:
            held_sets = 0
            for each in set_ranks:
                if hands[loser, each] >= set_size:
                    held_sets += 1
            pick = int(draw(rng) * (held_sets + 1))
            if pick == held_sets:  # keep the sets left
                if logging:
                    note(log, states, rows, KEEP, loser, -1, pile_n, sizes)
                rows += 1
                actions += 1
                break
            for each in set_ranks:
                if hands[loser, each] >= set_size:
                    if pick == 0:
                        rank = each
                        break
                    pick -= 1
        actions += 1
        hands[loser, rank] -= set_size
        sizes[loser] -= set_size
        gone[rank] += set_size
        gone[r.faces] += set_size
        by_sets = True
        if logging:
            note(log, states, rows, DISCARD, loser, rank, pile_n, sizes)
        rows += 1
    return by_sets, rows, actions


@inlined
def emptied(r, seated, sizes, claimant, loser, caught, by_sets):
    """The seats whose empty hands put them out after a challenge, in the order `challenge.settle` takes them: a
    claimant whose play survived (or whose sets emptied its hand where the rules put such a hand out), then a
    losing challenger left with nothing (the stock had no card to give). Returns (the first, the second; -1 for
    none)."""
    going = also = -1
    if seated[claimant] and sizes[claimant] == 0 and (not caught or (by_sets and r.emptied_out)):
        going = claimant
    if loser != claimant and sizes[loser] == 0 and seated[loser] and (r.emptied_out or not by_sets):
        also = loser
    return going, also


@inlined
def leave(r, seated, going, also, players_in, mask, first_out):
    """Empty hands go out (`challenge.go_out`, `State.leave`), `going` first: where the first out wins the game
    ends with it; else the seat leaves, and where one seat is left holding cards it loses. Returns (whether the
    game ended, the winner, the loser, the seats in, the seats in as bits, the first seat out)."""
    for leaving in (going, also):
        if leaving < 0:
            continue
        if not r.last_holder:
            return True, leaving, -1, players_in, mask, first_out
        seated[leaving] = False
        players_in -= 1
        mask &= ~(1 << leaving)
        if first_out < 0:
            first_out = leaving
        if players_in <= 1:  # the last one holding cards loses
            loser = -1
            for s in range(r.players):
                if seated[s]:
                    loser = s
            return True, first_out, loser, players_in, mask, first_out
    return False, -1, -1, players_in, mask, first_out


@inlined
def next_turn(r, next_seat, seated, dealer, mask, claimant, challenger, caught, claim, after, row, leading, is_open):
    """Who plays next (`State.next_turn`, `_turn_goes_to`): after a challenge the seat `challenge.next_player`
    names (read from `next_seat`), leading a new round where a challenge ends it (`claim.round_ends`); after
    a pass that left the last play open, the seat after it (`after`); else the claimant's neighbour, the play
    still open to challenge where the rules keep its window open through passes. Returns (seat, its row of
    `claims`, leading, the last play open to challenge)."""
    if challenger >= 0:
        seat = next_seat[dealer, mask if r.last_holder else 0, claimant, challenger, 1 if caught else 0]
        if r.leads:
            return seat, r.values + 1 + claim, True, False
        return seat, claim, leading, False
    if after >= 0:
        return after, row, leading, is_open
    return next_in(seated, claimant, r.step), claim, leading, r.window_through_passes and seated[claimant]


@inlined
def write_record(record, first, winner, loser, dealer, capped, stuck, rows, turns, actions, plays, forced, challenges,
                 caught, pickups):
    """A game's record row (`tally.GameRecord`'s figures, and the log's length)."""
    record[FIRST] = first
    record[WINNER] = winner
    record[LOSER] = loser
    record[DEALER] = dealer
    record[CAPPED] = 1 if capped else 0
    record[STUCK] = 1 if stuck else 0
    record[LOG_ROWS] = rows
    record[TURNS] = turns
    record[ACTIONS] = actions
    record[PLAYS] = plays
    record[FORCED] = forced
    record[CHALLENGES] = challenges
    record[CAUGHT] = caught
    record[PICKUPS] = pickups
