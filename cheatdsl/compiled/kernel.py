"""The kernel: games played from `tables.KernelTables` arrays, compiled once by numba for every rulebook.

Importing this module imports numba through `cache.load_numba` (so its disk cache lies under the user's
cache folder) and raises `cache.NumbaMissing` without it; the functions compile on first call, or load
from numba's disk cache. Randomness is a splitmix64 stream per game, seeded from (run seed, game index):
no generator is shared between games or threads. Action log rows: [kind, seat, claim, count, card...]
with kind PLAY, ACCEPT, CHALLENGE (the kind called, by its index among the table's kinds, in the claim
column), CALLER (chance: who of several callers is heard), DISCARD (a set put out, its rank in the claim
column) or KEEP (the sets left kept); state rows: [pile size, hand size of
each seat] after the action. `deal` deals a game; `play_on` plays on from a turn's start, for a whole game
or a search bot's playout (`playout`), or deals and plays a run's games one after another (`play_games`).

`play_on` is the turn's order; each rule's step lies in `steps` and each bot's decision in `bots`, beside the
interpreter function it mirrors, and numba inlines them into it. The disk cache's folder is keyed by a hash of
every one of these files (`cache.KERNEL_SOURCES`), so an edit to a step is never played by a stale copy.
"""

from __future__ import annotations

import math

import numpy as np

from .bots import bluff_card, catch_up, most_held, random_ways, response
from .common import (
    ACCEPT, BY_LOT, CALLED, CALLER, CHALLENGE, CLAIM, CLAIMANT, COUNT, COUNTER, DEALER, FIRST, GREEDY, IN_TURN,
    LAST_PLAYER, LEADING, LIE, LOSER, NO_LIMIT, OPEN, PASS, PASSES, PILE_TAKEN, PLAY, RANDOM, SEEN, SITUATION, STUCK,
    TAKEN, WINNER, add_from, draw, fill_from, next_in, njit, note, put_out_sets, seated_bot, u64)
from .steps import all_passed, bluff, emptied, leave, loser_sets, next_turn, penalty, random_play, remember, \
    show, true_play, turn_start, write_record

@njit(cache=True)
def workspace(t, policies, room):
    """The arrays a run of games reuses game after game, as `deal` and `play_on` read them (WORK_...):
    allocating them for each game cost about as much as playing it. `room`: challenges `counter`'s
    record keeps (none without a `counter`); the last, `random`'s count of its plays (`bots.random_ways`; a
    cell without a `random`)."""
    n, faces = t.rules.players, t.rules.faces
    k = n if seated_bot(policies, COUNTER) else 0
    randoms = seated_bot(policies, RANDOM)
    return (t.deck.copy(), np.zeros((n, faces), dtype=np.int64), np.zeros(n, dtype=np.int64),
            np.zeros(faces, dtype=np.int64), np.ones(n, dtype=np.bool_), np.zeros(SITUATION, dtype=np.int64),
            np.zeros(faces, dtype=np.int64), np.zeros((k, n, faces + 1), dtype=np.int64),
            np.zeros((k, faces + 1), dtype=np.int64), np.zeros((k, n), dtype=np.int64),
            np.zeros((k, n), dtype=np.int64), np.full(n, -1, dtype=np.int64),
            np.zeros((room if k else 0, SEEN + faces + 1), dtype=np.int64), np.zeros(faces + 1, dtype=np.int64),
            np.zeros(faces, dtype=np.int64),
            np.zeros((faces + 1 if randoms else 1, t.rules.max_cards + 1 if randoms else 1), dtype=np.float64))


@njit(cache=True)
def deal(deck, aside, dealt, n, step, by_lot, first_seat, first_card, set_size, set_ranks, sets_forced, last_holder,
         rng, record, cards, hands, sizes, pile, seated, situation, play_cards, gone):
    """Deal a game of a table (`tables.KernelTables`, the fields it reads by name) into `cards` (the deck as
    shuffled: the cards set aside, those dealt, then the stock, top card first) and the arrays of a turn's
    start, as `workspace` lends them. Returns the dealer and the first player, or -1 where the game ends at
    its deal (a hand dealt only sets where the first out wins, or nobody named to play first): `record`
    then says how."""
    dealer = int(draw(rng) * n) if by_lot else 0
    for k in range(deck.size):
        cards[k] = deck[k]
    for i in range(cards.size - 1, 0, -1):
        j = int(draw(rng) * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    hands[:] = 0
    sizes[:] = 0
    seat = dealer
    for k in range(dealt):
        # Round the table from the dealer's left, (dealer + step * (k % n + 1)) % n without two divisions a card.
        seat += step
        if seat == n:
            seat = 0
        elif seat < 0:
            seat = n - 1
        hands[seat, cards[aside + k]] += 1
        sizes[seat] += 1
    pile[:] = 0
    gone[:] = 0
    if sets_forced:  # complete sets dealt leave at once (`deal.deal`)
        for seat in range(n):
            sizes[seat] -= put_out_sets(hands, seat, set_size, set_ranks, gone)
    seated[:] = True
    left = n
    gone_first = -1
    for seat in range(n):
        if sizes[seat] == 0:  # a hand dealt only sets goes out at once
            if not last_holder:
                record[:] = 0
                record[FIRST] = record[LOSER] = -1
                record[WINNER] = seat
                record[DEALER] = dealer
                return dealer, -1
            seated[seat] = False
            left -= 1
            if gone_first < 0:
                gone_first = seat
            if left <= 1:  # one seat still in: it is the last holding cards, and loses (`challenge.go_out`)
                record[:] = 0
                record[FIRST] = record[LOSER] = -1
                for s in range(n):
                    if seated[s]:
                        record[LOSER] = s
                record[WINNER] = gone_first
                record[DEALER] = dealer
                return dealer, -1
    situation[:] = 0
    play_cards[:] = 0
    situation[LEADING] = 1  # the first play leads
    situation[LAST_PLAYER] = -1
    situation[CLAIMANT] = -1
    holder = -1  # who was dealt the card the first player's formula asks about
    if first_card >= 0:
        for s in range(n):
            if hands[s, first_card] > 0:
                holder = s
    first = first_seat[dealer, holder + 1]
    if first >= 0 and not seated[first]:
        first = next_in(seated, first, step)
    if first < 0:  # the rules name nobody to play first after this deal
        record[:] = 0
        record[FIRST] = record[WINNER] = record[LOSER] = -1
        record[DEALER] = dealer
        record[STUCK] = 1
    return dealer, first


# `_nrt=False`: numba compiles `play_on` without its reference counting (the steps inlined into it and the
# helpers it is first to compile likewise). Counting, every array handed to a step costs an atomic increment and
# decrement that numba's pruning leaves in place across branches (numba issues 2345 and 2350, whose
# workaround this is): the steps ran at 7.7 million actions a second against 55 million written as one body.
# Without it nothing here may allocate an array (numba refuses to compile one), which is why the workspace
# lends every array; `benchmarks/kernel_side_by_side.py` measures the kernel against another commit's.
@njit(cache=True, _nrt=False)
def play_on(t, dealer, hands, sizes, pile, pile_n, stock, seated, seat, row, situation, play_cards, turns_left,
            actions_left, rng, rates, policies, records, pickups, npick, logging, log, states, work, seed, start,
            games):
    """Play on from a turn's start: `seat` to play, the claims allowed read from row `row` of `claims`
    (`values`: the first play; a claim's value: its follow; `values + 1 + claim`: a round's lead after it;
    `2 * values + 1`: a lead with nothing claimed), `seated` the seats still in, `situation` the rest of the
    turn's facts (LEADING ... LIE) and `play_cards` the last play's cards by value, until the game ends,
    `turns_left` turns were played (capped) or, at a turn's start, `actions_left` decisions were made.
    `hands`, `sizes`, `pile` and `seated` are changed in place; fills records[0] and appends pickups at
    pickups[npick:]. `work` (`workspace`) lends the rest of its arrays.
    With `games` > 0 it deals instead (`deal`, in the arrays of `work`; the position given is not read), game
    after game: games start..start+games-1 of the run `seed` into `records`, one row each, stopping early
    where `pickups` has no room left for a whole game. One call plays them all: a call from code compiled
    with numba's reference counting counts a reference to each array it is given.
    A turn, as `State` plays it: its start (`steps.turn_start`), a pass or a play, the answers to a play, the
    challenge heard settled (`steps.show`, `penalty`, `loser_sets`), empty hands out (`steps.leave`) and the
    next seat (`steps.next_turn`). Returns the games played and the new npick."""
    # The table's rules by name (numbers and flags) and its arrays, each handed to the steps that read it.
    r = t.rules
    n, faces, values = r.players, r.faces, r.values
    claims, choices, choice_slot, copies, lies, weighed = t.claims, t.choices, t.choice_slot, t.copies, t.lies, \
        t.weighed
    row_set, pass_ok, wins_at_start, pass_leader, next_seat = t.row_set, t.pass_ok, t.wins_at_start, t.pass_leader, \
        t.next_seat
    give_up, give_up_group, set_ranks, kind_tests = t.give_up, t.give_up_group, t.set_ranks, t.kind_tests
    # Dividing by a power of two is multiplying by its inverse, exactly: a multiplication costs far less.
    doubt_inverse = 1.0 / r.doubt_scale if math.frexp(r.doubt_scale)[0] == 0.5 else 0.0
    # `counter`'s memories and the table's record of challenges (room for none without a `counter`).
    keeps = seated_bot(policies, COUNTER)
    known, known_pile, last, received, seen, heard = work[7], work[8], work[9], work[10], work[11], work[12]
    gone = work[13]  # cards put out in sets, by value (the last column: all), since the deal
    shown = work[14]  # the cards a challenge turns over, by value
    ways = work[15]  # `random`'s count of its plays
    stock_from, stock_n = 0, stock.size  # where the stock lies in `stock`
    played = 0  # games played
    while True:  # the game from the position given, or (`games`) game after game, each dealt here
        if games > 0:
            if played == games or npick + r.turn_cap > pickups.size:
                break
            seed_into(rng, seed, start + played)
            dealer, seat = deal(t.deck, r.aside, r.dealt, n, r.step, r.by_lot, t.first_seat, r.first_card,
                                r.set_size, set_ranks, r.sets_forced, r.last_holder, rng, records[played], work[0],
                                hands, sizes, pile, seated, situation, play_cards, gone)
            if seat < 0:  # the game ended at its deal
                played += 1
                continue
            stock = work[0]  # the deck as dealt: the stock lies after the cards set aside and dealt
            pile_n, row, stock_from, stock_n = 0, values, r.aside + r.dealt, r.stock_size
        drawn = 0  # cards drawn from `stock` (the stock's cards, top first)
        first = seat
        players_in = 0
        mask = 0  # the seats in, as bits: which row of `next_seat` applies where seats leave
        for s in range(n):
            if seated[s]:
                players_in += 1
                mask |= 1 << s
        leading = situation[LEADING] == 1
        passes = situation[PASSES]
        last_player = situation[LAST_PLAYER]
        is_open = situation[OPEN] == 1
        claimant = situation[CLAIMANT]
        claim = situation[CLAIM]
        count = situation[COUNT]
        called = situation[CALLED]
        lie = situation[LIE] == 1
        # The first seat out, the winner where the last holder loses: after a deal, the lowest seat it put out
        # (sets dealt whole), as the engine puts them out in seat order; from a position, the same guess (a
        # playout reads the loser only).
        first_out = -1
        for s in range(n):
            if not seated[s]:
                first_out = s
                break
        top = claim  # the last play's highest card (set with each play)
        if keeps:
            known[:] = 0
            known_pile[:] = 0
            last[:] = 0
            received[:] = 0
            seen[:] = -1
        reveals = 0
        turns = actions = plays = forced = challenges = caught_n = picks = 0
        rows = 0  # log rows: the actions and the chance events among them
        winner = loser_end = -1
        capped = stuck = False
        while True:
            if turns >= turns_left or actions >= actions_left:
                capped = True
                break
            wins, may, no_play = turn_start(r, claims, choices, row_set, pass_ok, wins_at_start, hands, sizes, seat,
                                            row, leading)
            if wins:
                winner = seat  # the first out wins (a win at a turn's start where seats leave is refused)
                break
            if no_play and not may:  # nor a pass: the seat has no legal action (`State.begin_turn`)
                stuck = True
                break
            bot = policies[seat]  # read once: numba reads the array again after every store to a hand
            if bot == COUNTER:
                catch_up(seat, sizes, r.show_pile, known, known_pile, last, received, seen, heard, reveals)
            best, held, jokers = most_held(r, claims, choices, hands, seat, row)
            allowed = choices[row]
            open_plays = 0.0
            if no_play:
                passing = True
            elif bot == RANDOM:  # every legal play and the pass alike
                open_plays = random_ways(r, hands, sizes, seat, ways)
                passing = may and draw(rng) * (open_plays * allowed + 1.0) < 1.0
            else:
                # `honest` and `counter` pass rather than bluff where they may; `greedy` passes only without a play.
                passing = may and held == 0 and bot != GREEDY
            if passing:
                if logging:
                    note(log, states, rows, PASS, seat, -1, pile_n, sizes)
                rows += 1
                turns += 1
                actions += 1
                passes += 1
                if passes >= players_in:  # every seat in passed: the round may end
                    passes = 0
                    is_open = False
                    seat, row, leading, last_player, pile_n = all_passed(
                        r, pass_leader, pile, seated, seat, dealer, mask, last_player, claimant, claim, row, leading,
                        pile_n, logging, states, rows)
                    continue
                if not (is_open and seated[claimant]):
                    seat = next_in(seated, seat, r.step)
                    continue
                # The last play's window is still open: its responders are asked again before the next seat.
                after = next_in(seated, seat, r.step)
            else:
                after = -1
                if held == 0:
                    forced += 1
                claim = best
                if allowed > 1 and (held == 0 or bot == RANDOM):
                    claim = claims[row, int(draw(rng) * allowed)]
                    held = hands[seat, claim] + jokers
                if keeps:
                    play_cards[:] = 0  # kept for `counter`'s memory only
                line = rows
                if logging:
                    log[line, :] = -1
                    log[line, 0] = PLAY
                    log[line, 1] = seat
                    log[line, 2] = claim
                if bot == RANDOM:
                    count, called, top, lie = random_play(r, hands, pile, play_cards, seat, claim, ways, open_plays,
                                                          rng, keeps, logging, log, line)
                elif held > 0:
                    count, top = true_play(r, hands, pile, play_cards, seat, claim, held, keeps, logging, log, line)
                    called, lie = count, False  # the count put down (bots/base.py `count_to_call`)
                else:
                    card = bluff_card(give_up, give_up_group, bot, hands, sizes, seat, claim, players_in, rng)
                    bluff(hands, pile, play_cards, seat, card, keeps, logging, log, line)
                    count, called, top, lie = 1, 1, card, True
                if r.count_judged and called != count:
                    lie = True
                if logging:
                    log[line, 3] = called
                sizes[seat] -= count
                pile_n += count
                if bot == COUNTER:  # `Memory.played`: its own cards went onto the pile
                    add_from(known_pile[seat, :faces], play_cards)
                    known_pile[seat, faces] += count
                claimant = seat
                last_player = seat
                leading = False
                is_open = False
                passes = 0
                turns += 1
                plays += 1
                actions += 1
                rows += 1
                if logging:
                    states[line, 0] = pile_n
                    fill_from(states[line, 1:], sizes)
            # The answers to `claimant`'s last play (`State._apply_accept`, `_apply_challenge`, `_hear_calls`): each
            # seat still in, from the claimant's neighbour round the table, accepts or calls a kind
            # (`bots.response`); who of the callers is heard follows `challenge.priority`: the nearest, the first
            # in turn (the rest are not asked), or one by lot, each caller so far alike (a chance row in the log).
            challenger = heard_kind = -1
            callers = 0
            responder = claimant
            for _ in range(1, n):
                # (claimant + step * k) % n, without a division a response
                responder += r.step
                if responder == n:
                    responder = 0
                elif responder < 0:
                    responder = n - 1
                if not seated[responder]:
                    continue
                policy = policies[responder]
                if policy == COUNTER:
                    catch_up(responder, sizes, r.show_pile, known, known_pile, last, received, seen, heard, reveals)
                kind = response(r, policy, rates[responder], responder, hands, sizes, claimant, claim, count, called,
                                row, rng, known, known_pile, gone, copies, lies, choice_slot, weighed, doubt_inverse)
                if logging:
                    note(log, states, rows, CHALLENGE if kind >= 0 else ACCEPT, responder, kind, pile_n, sizes)
                actions += 1
                rows += 1
                if kind >= 0:
                    callers += 1
                    if challenger < 0:
                        challenger, heard_kind = responder, kind
                        if r.priority == IN_TURN:
                            break
                    elif r.priority == BY_LOT and draw(rng) * callers < 1.0:
                        challenger, heard_kind = responder, kind
            if r.priority == BY_LOT and callers > 1:
                if logging:
                    note(log, states, rows, CALLER, challenger, -1, pile_n, sizes)
                rows += 1
            going = also = -1  # the seats whose empty hands put them out now, in the order the engine settles
            caught = lie
            if challenger >= 0:
                challenges += 1
                is_open = False
                passes = 0
                caught, from_hand = show(r, kind_tests, hands, sizes, claimant, challenger, claim, heard_kind, lie)
                loser = claimant if caught else challenger
                if caught:
                    caught_n += 1
                if keeps:
                    reveals = remember(r, heard, reveals, shown, play_cards, top, pile, claimant, loser, from_hand)
                taken, took_pile = 0, False
                paid = caught or not r.failed_free  # a wrong call may cost nothing (`challenge.resolve`)
                if paid:
                    taken, took_pile, pile_n, drawn = penalty(r, hands, sizes, pile, pile_n, stock, stock_from,
                                                              stock_n, drawn, loser)
                if keeps:  # what the loser took, on the record just made
                    heard[reveals - 1, TAKEN] = taken
                    heard[reveals - 1, PILE_TAKEN] = 1 if took_pile else 0
                if paid:  # a pickup: what the loser of a challenge got (a wrong call that cost nothing is none)
                    pickups[npick + picks] = taken
                    picks += 1
                if logging:
                    states[rows - 1, 0] = pile_n
                    fill_from(states[rows - 1, 1:], sizes)
                by_sets = False
                if paid:
                    by_sets, rows, discards = loser_sets(r, set_ranks, hands, sizes, gone, loser, policies[loser],
                                                         rng, pile_n, logging, log, states, rows)
                    actions += discards
                going, also = emptied(r, seated, sizes, claimant, loser, caught, by_sets)
            elif after < 0 and sizes[claimant] == 0:
                going = claimant  # the play stood (`State._stands`)
            if going >= 0 or also >= 0:
                ended, winner, loser_end, players_in, mask, first_out = leave(r, seated, going, also, players_in,
                                                                             mask, first_out)
                if ended:
                    break
            seat, row, leading, is_open = next_turn(r, next_seat, seated, dealer, mask, claimant, challenger,
                                                    caught, claim, after, row, leading, is_open)
        write_record(records[played], first, winner, loser_end, dealer, capped, stuck, rows, turns, actions, plays,
                     forced, challenges, caught_n, picks)
        npick += picks
        played += 1
        if games == 0:
            break
    return played, npick


@njit(cache=True)
def seed_into(rng, seed, index):
    """Game `index`'s random stream of the run `seed`, into `rng`."""
    rng[0] = u64(seed) ^ (u64(index) * u64(0xD1B54A32D192ED03))
    draw(rng)


@njit(cache=True)
def seed_of(seed, index):
    rng = np.zeros(1, dtype=np.uint64)
    seed_into(rng, seed, index)
    return rng


@njit(cache=True)
def play_games(t, seed, start, count, rates, policies, records, pickups):
    """Games start..start+count-1 into `records` (one row each) and `pickups`; returns the games played,
    fewer than `count` when `pickups` has no room left for a whole game."""
    if count <= 0:
        return 0
    none = np.zeros((1, 1), dtype=np.int64)
    work = workspace(t, policies, t.rules.turn_cap)
    rng = np.zeros(1, dtype=np.uint64)
    return play_on(t, 0, work[1], work[2], work[3], 0, work[0], work[4], 0, t.rules.values, work[5], work[6],
                   t.rules.turn_cap, NO_LIMIT, rng, rates, policies, records, pickups, 0, False, none, none, work, seed,
                   start, count)[0]


@njit(cache=True)
def play_logged(t, seed, index, rates, policies, record, pickups, hands0, stock0, log, states):
    """Game `index` with its deal (`hands0`: a row of counts a seat, then the cards dealt to nobody; `stock0`:
    the stock, top card first), its action log and the state after every action (record[LOG_ROWS] is the
    log's length)."""
    rng = seed_of(seed, index)
    work = workspace(t, policies, t.rules.turn_cap)
    r = t.rules
    n, aside, dealt, kept, cards, hands, gone = r.players, r.aside, r.dealt, r.stock_size, work[0], work[1], work[13]
    dealer, first = deal(t.deck, aside, dealt, n, r.step, r.by_lot, t.first_seat, r.first_card, r.set_size,
                         t.set_ranks, r.sets_forced, r.last_holder, rng, record, cards, hands, work[2], work[3],
                         work[4], work[5], work[6], gone)
    hands0[:n, :] = hands
    hands0[n, :] = gone[:t.rules.faces]  # the sets put out at the deal, with the cards dealt to nobody
    for k in range(cards.size):
        if k < aside or k >= aside + dealt + kept:
            hands0[n, cards[k]] += 1
    stock0[:kept] = cards[aside + dealt:aside + dealt + kept]
    if first < 0:
        return 0
    return play_on(t, dealer, hands, work[2], work[3], 0, cards[aside + dealt:aside + dealt + kept], work[4], first,
                   t.rules.values, work[5], work[6], t.rules.turn_cap, NO_LIMIT, rng, rates, policies,
                   record.reshape((1, record.size)), pickups, 0, True, log, states, work, u64(0), 0, 0)[1]


@njit(cache=True)
def position_start(t, hands, seed):
    """The random stream of `seed` and each seat's hand size: what play from a position needs (`playout`,
    `play_logged_from`)."""
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = u64(seed)
    draw(rng)
    sizes = np.zeros(t.rules.players, dtype=np.int64)
    for s in range(t.rules.players):
        sizes[s] = hands[s].sum()
    return rng, sizes


@njit(cache=True)
def playout(t, dealer, hands, pile, stock, seated, seat, row, situation, play_cards, turns_left, actions_left, seed,
            rates, policies, record):
    """A search bot's playout: a table the Python engine holds at a turn's start (`hands` by seat and value,
    the `pile`'s cards by value, the `stock`'s cards top first, `seated` the seats in, `seat` to play from row
    `row` of `claims`, the turn's
    other facts in `situation` and the last play's cards in `play_cards`) played on by `policies` for at most
    `actions_left` decisions. `hands` and `seated` end as at the end; `record` says the winner and the loser
    (-1: none yet)."""
    rng, sizes = position_start(t, hands, seed)
    pickups = np.zeros(turns_left + 1, dtype=np.int64)
    none = np.zeros((1, 1), dtype=np.int64)
    play_on(t, dealer, hands, sizes, pile.copy(), pile.sum(), stock, seated, seat, row, situation.copy(),
            play_cards.copy(), turns_left, actions_left, rng, rates, policies, record.reshape((1, record.size)),
            pickups, 0, False, none, none, workspace(t, policies, turns_left), u64(0), 0, 0)


@njit(cache=True)
def play_logged_from(t, dealer, hands, pile, stock, seated, seat, row, situation, play_cards, gone, turns_left, seed,
                     rates, policies, record, pickups, log, states):
    """A game the Python engine dealt, or holds at a turn's start (the arrays as `playout` takes them, and `gone`:
    the cards put out in sets so far by value, their total last), played on to its end by `policies`, with its
    action log and the state after every action (record[LOG_ROWS] is the log's length): the replay check from
    the Python engine's own deal."""
    rng, sizes = position_start(t, hands, seed)
    work = workspace(t, policies, turns_left)
    work[13][:] = gone
    play_on(t, dealer, hands, sizes, pile.copy(), pile.sum(), stock, seated, seat, row, situation.copy(),
            play_cards.copy(), turns_left, NO_LIMIT, rng, rates, policies, record.reshape((1, record.size)),
            pickups, 0, True, log, states, work, u64(0), 0, 0)
