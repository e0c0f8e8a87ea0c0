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

The kernel stays in this one file on purpose: numba's disk cache checks only the file of the function it
compiled, so a kernel split across files could go on running a stale copy of a helper edited elsewhere.
"""

from __future__ import annotations

import math

import numpy as np

from .cache import load_numba

njit = load_numba().njit
u64 = np.uint64

PLAY, ACCEPT, CHALLENGE, CALLER, DISCARD, KEEP, PASS = 0, 1, 2, 3, 4, 5, 6  # CALLER: chance picks who of
# several callers called first; DISCARD: a set put out (its rank in the claim column); KEEP: the sets left kept
NEAREST, IN_TURN, BY_LOT = 0, 1, 2  # who of the responders is heard (`priority`)
# Columns of a game's record row.
FIRST, WINNER, CAPPED, STUCK, TURNS, ACTIONS, PLAYS, FORCED, CHALLENGES, CAUGHT, PICKUPS, LOSER, DEALER, \
    LOG_ROWS = range(14)
RECORD_WIDTH = 14  # STUCK: the rules named no first player for the deal; LOG_ROWS: the action log's length
EXACT, UP_TO_CARDS, ANY_COUNT = 0, 1, 2  # the count a play may call (`count_rule`): model.CountRule
NO_LIMIT = 1 << 62  # no cap on decisions (`play_on`'s `actions_left`), as for whole games
GREEDY, RANDOM, HONEST, COUNTER = 0, 1, 2, 3  # the bots (`policies[seat]`); each challenges at `rates[seat]`


@njit(cache=True)
def draw(rng: np.ndarray) -> float:
    rng[0] += u64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> u64(30))) * u64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> u64(27))) * u64(0x94D049BB133111EB)
    z = z ^ (z >> u64(31))
    return float(z >> u64(11)) * (1.0 / 9007199254740992.0)

@njit(cache=True)
def log_comb(a, b):
    """log C(a, b); minus infinity where there is no way (b < 0 or b > a)."""
    if b < 0 or b > a:
        return -math.inf
    return math.lgamma(a + 1.0) - math.lgamma(b + 1.0) - math.lgamma(a - b + 1.0)


@njit(cache=True)
def chance_of_lie(pool, matching, hand, played, cap, allowed):
    """`honest`'s chance that `played` cards claimed are a bluff (bots/odds.py: `hand_odds` of a hand of
    `hand` cards from `pool` unseen, `matching` of them passing, then `chance_of_lie` for a claimant who
    could choose among `allowed` claims, taken as alike and independent)."""
    hand = max(0, min(hand, pool))
    matching = max(0, min(matching, pool))
    most = min(matching, hand)
    if played > most:
        return 1.0  # fewer cards that pass are unseen than were played
    total = log_comb(pool, hand)
    exact = 0.0
    top = most if played >= cap else played
    for x in range(played, top + 1):
        exact += math.exp(log_comb(matching, x) + log_comb(pool - matching, hand - x) - total)
    bluff = math.exp(log_comb(pool - matching, hand) - total) ** allowed * 0.5 ** played
    truth = 1.0 - (1.0 - exact) ** allowed
    if bluff + truth <= 0.0:
        return 1.0
    return bluff / (bluff + truth)


@njit(cache=True)
def lie_cell(pool, matching, hand, played):
    """Where `honest`'s chance of a lie is kept (`lies[pool, matching, hand, played, slot]`, NaN until worked
    out by `chance_of_lie`, `slot` standing for the number of claims allowed): the hand and the cards that
    pass, each within the pool; hand -1 for a play of more cards than pass among those unseen, or than the hand
    held: a certain lie as `honest` counts it (bots/odds.py: no hand holds that many), also where a challenge
    turns over the top card only, and never kept (the memo has no row past the copies of a claim). The caller
    reads and fills the memo itself: a helper given the array would count a reference to it at every call,
    which cost more than the rest of a response."""
    hand = max(0, min(hand, pool))
    matching = max(0, min(matching, pool))
    if played > min(matching, hand):
        return -1, matching
    return hand, matching


# `counter`'s memories (bots/counter.py `Memory`, the same rules), as arrays, one memory a seat `me`:
#   known[me, seat, value]  lower bounds on another hand (the last column: their total);
#   pile[me, value]         the cards of the pile it knows (the last column: their total);
#   last[me, seat]          hand sizes at its last look; received[me, seat]: cards taken since;
#   seen[me]                challenges caught up with, -1 before its first look.
# The table's record of challenges: heard[r] = [claimant, loser, cards taken, pile taken (1 or 0), card shown
# from the hand, cards seen by value..., total]. The card shown from the hand is the one a challenge of the
# hand (Force) made the claimant show, -1 where it showed none, or FROM_PILE for a challenge of the play.
BY, TO, TAKEN, PILE_TAKEN, FROM_HAND, SEEN = 0, 1, 2, 3, 4, 5  # columns of `heard`
FROM_PILE = -2
PLAYED_TEST, HAND_TEST = 0, 1  # a challenge kind's test (`model.ChallengeTest`): `kind_tests[kind]`


@njit(cache=True)
def hear(heard, reveals, claimant, loser, from_hand, cards):
    """A challenge goes on the record: the card shown from the claimant's hand (`FROM_PILE` for a challenge of
    the play) or the cards it turned over (or the whole pile, where shown); the caller adds how many cards
    the loser took and whether the pile was among them. Returns the challenges recorded."""
    heard[reveals, BY] = claimant
    heard[reveals, TO] = loser
    heard[reveals, TAKEN] = 0
    heard[reveals, PILE_TAKEN] = 0
    heard[reveals, FROM_HAND] = from_hand
    heard[reveals, SEEN:SEEN + cards.size] = cards
    heard[reveals, SEEN + cards.size] = cards.sum()
    return reveals + 1


@njit(cache=True)
def catch_up(me, sizes, show_pile, known, pile, last, received, seen, heard, reveals):
    """`Memory.catch_up`: every challenge since `me`'s last look (cards drawn from a stock are unseen), then
    seats that put cards down forget as many of each value. A memory catches up only when its seat acts, as
    the Python bot's does."""
    width = pile.shape[1]  # the values and their total
    if seen[me] < 0:
        seen[me] = 0
        last[me, :] = sizes
    while seen[me] < reveals:
        r = seen[me]
        loser = heard[r, TO]
        card = heard[r, FROM_HAND]
        if card != FROM_PILE:  # a challenge of the hand: the card shown goes to the wrong challenger
            if card >= 0:
                received[me, loser] += 1
                if loser != me:
                    known[me, loser, card] += 1
                    known[me, loser, width - 1] += 1
        elif show_pile:
            pile[me, :] = heard[r, SEEN:SEEN + width]
        elif heard[r, BY] != me:  # its own cards went on with `played`
            pile[me, :] += heard[r, SEEN:SEEN + width]
        received[me, loser] += heard[r, TAKEN]
        if heard[r, PILE_TAKEN]:
            if loser != me:  # the loser took the pile: what was known of it is known of that hand
                known[me, loser, :] += pile[me]
            pile[me, :] = 0
        seen[me] = r + 1
    for s in range(sizes.size):
        out = last[me, s] + received[me, s] - sizes[s]
        last[me, s] = sizes[s]
        received[me, s] = 0
        if out > 0 and known[me, s, width - 1] > 0 and s != me:
            total = 0
            for v in range(width - 1):
                k = known[me, s, v]
                if k > 0:
                    k = k - out if k > out else 0
                    known[me, s, v] = k
                    total += k
            known[me, s, width - 1] = total


@njit(cache=True)
def elsewhere(me, claimant, value, known, pile):
    """Cards of `value` (the total, for the last column) `me` knows are outside the claimant's hand and its
    own (`Memory.elsewhere`, `elsewhere_total`)."""
    k = pile[me, value]
    for s in range(known.shape[0]):
        if s != claimant and s != me:
            k += known[me, s, value]
    return k


@njit(cache=True)
def has_counter(policies):
    for p in policies:
        if p == COUNTER:
            return True
    return False


@njit(cache=True)
def counts_for(cards, count_rule, count_top):
    """How many counts a play of `cards` cards may call (engine/plays.py `_count_choices`, with plays of
    one card or more): its own number, any from one to it, or any from one to `count_top`."""
    if count_rule == EXACT:
        return 1
    if count_rule == UP_TO_CARDS:
        return cards
    return count_top


@njit(cache=True)
def card_to_give_up(hands, seat, order, group, rng):
    """`honest`'s bluff card (bots/table.py `card_to_give_up`): in the first group of `order` holding a
    card of the hand, one of the values held fewest of, drawn uniformly (ascending within the group)."""
    first = 0
    while hands[seat, order[first]] == 0:
        first += 1
    fewest = 1 << 62
    ties = 0
    p = first
    while p < order.size and group[p] == group[first]:
        held = hands[seat, order[p]]
        if held > 0:
            if held < fewest:
                fewest = held
                ties = 1
            elif held == fewest:
                ties += 1
        p += 1
    pick = int(draw(rng) * ties)
    p = first
    while True:
        if hands[seat, order[p]] == fewest:
            if pick == 0:
                return order[p]
            pick -= 1
        p += 1


@njit(cache=True)
def note(log, states, at, kind, seat, claim, pile_n, sizes):
    """Row `at` of a game's log (an action other than a play, whose cards a play's row lists) and the pile's
    and hands' sizes after it."""
    log[at, :] = -1
    log[at, 0] = kind
    log[at, 1] = seat
    log[at, 2] = claim
    states[at, 0] = pile_n
    states[at, 1:] = sizes


@njit(cache=True)
def next_in(seated, seat, step):
    """The next seat still in after `seat`, round the table (`State.left_of`)."""
    n = seated.size
    s = (seat + step) % n
    while not seated[s]:
        s = (s + step) % n
    return s


@njit(cache=True)
def complete_set(hands, seat, set_size, set_ranks):
    """The first rank in `set_ranks` of which `seat` holds a whole set, or -1 (`challenge.complete_sets`)."""
    for r in set_ranks:
        if hands[seat, r] >= set_size:
            return r
    return -1


@njit(cache=True)
def put_out_sets(hands, seat, set_size, set_ranks, gone):
    """Every complete set of `seat`'s hand leaves the game, nobody choosing (`challenge.discard_forced_sets`),
    counted in `gone` (by value, the last column all); returns the cards put out."""
    out = 0
    while True:
        rank = complete_set(hands, seat, set_size, set_ranks)
        if rank < 0:
            return out
        hands[seat, rank] -= set_size
        gone[rank] += set_size
        gone[gone.size - 1] += set_size
        out += set_size


# `play_on`'s situation at a turn's start, beyond the hands and the pile (`State` keeps the same facts):
LEADING, PASSES, LAST_PLAYER, OPEN, CLAIMANT, CLAIM, COUNT, CALLED, LIE = range(9)
SITUATION = 9


@njit(cache=True)
def workspace(t, policies, room):
    """The arrays a run of games reuses game after game, as `deal` and `play_on` read them (WORK_...):
    allocating them for each game cost about as much as playing it. `room`: challenges `counter`'s
    record keeps (none without a `counter`)."""
    n, faces = t.players, t.faces
    k = n if has_counter(policies) else 0
    return (t.deck.copy(), np.zeros((n, faces), dtype=np.int64), np.zeros(n, dtype=np.int64),
            np.zeros(faces, dtype=np.int64), np.ones(n, dtype=np.bool_), np.zeros(SITUATION, dtype=np.int64),
            np.zeros(faces, dtype=np.int64), np.zeros((k, n, faces + 1), dtype=np.int64),
            np.zeros((k, faces + 1), dtype=np.int64), np.zeros((k, n), dtype=np.int64),
            np.zeros((k, n), dtype=np.int64), np.full(n, -1, dtype=np.int64),
            np.zeros((room if k else 0, SEEN + faces + 1), dtype=np.int64), np.zeros(faces + 1, dtype=np.int64),
            np.zeros(faces, dtype=np.int64))


@njit(cache=True)
def deal(deck, aside, dealt, n, step, by_lot, first_seat, first_card, set_size, set_ranks, sets_forced, last_holder,
         rng, record, cards, hands, sizes, pile, seated, situation, play_cards, gone):
    """Deal a game of a table (`tables.KernelTables`, the fields it reads by name) into `cards` (the deck as
    shuffled: the cards set aside, those dealt, then the stock, top card first) and the arrays of a turn's
    start, as `workspace` lends them. Returns the dealer and the first player, or -1 where the game ends at
    its deal (a hand dealt only sets where the first out wins, or nobody named to play first): `record`
    then says how. It takes the fields it reads rather than the table and the workspace: a call counts a
    reference to each array it is given."""
    dealer = int(draw(rng) * n) if by_lot else 0
    cards[:] = deck
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


@njit(cache=True)
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
    where `pickups` has no room left for a whole game. One call plays them all because every call counts a
    reference to each array it is given, some ninety a game through `deal` and `play_on`.
    Returns the games played and the new npick."""
    (deck, aside, dealt, n, step, by_lot, first_seat, first_card, claims, choices, choice_slot, max_cards, count_rule,
     count_top, count_judged, show_pile, priority, next_seat, turn_cap, values, copies, give_up, give_up_group,
     lies, leads, last_holder, set_size, set_ranks, emptied_out, reveal_all, may_pass, leader_may_pass, row_set,
     pass_ok, all_pass_discards, all_pass_rounds, pass_leader, window_through_passes, turn_win, wins_at_start,
     faces, wild, sets_forced, stock_size, take_pile, draw_count, short_takes_pile, kind_tests, preferred,
     force, doubt_scale, last_doubt, weighed) = t
    kinds = kind_tests.size
    # Dividing by a power of two is multiplying by its inverse, exactly: a multiplication costs far less.
    doubt_inverse = 1.0 / doubt_scale if math.frexp(doubt_scale)[0] == 0.5 else 0.0
    # `counter`'s memories and the table's record of challenges (room for none without a `counter`).
    keeps = has_counter(policies)
    known, known_pile, last, received, seen, heard = work[7], work[8], work[9], work[10], work[11], work[12]
    gone = work[13]  # cards put out in sets, by value (the last column: all), since the deal
    shown = work[14]  # the cards a challenge turns over, by value
    stock_from, stock_n = 0, stock.size  # where the stock lies in `stock`
    played = 0  # games played
    while True:  # the game from the position given, or (`games`) game after game, each dealt here
        if games > 0:
            if played == games or npick + turn_cap > pickups.size:
                break
            seed_into(rng, seed, start + played)
            dealer, seat = deal(deck, aside, dealt, n, step, by_lot, first_seat, first_card, set_size, set_ranks,
                                sets_forced, last_holder, rng, records[played], work[0], hands, sizes, pile, seated,
                                situation, play_cards, gone)
            if seat < 0:  # the game ended at its deal
                played += 1
                continue
            stock = work[0]  # the deck as dealt: the stock lies after the cards set aside and dealt
            pile_n, row, stock_from, stock_n = 0, values, aside + dealt, stock_size
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
            # A turn begins (`State.begin_turn`): the turn cap, a win at the turn's start, then a play or a pass.
            if turns >= turns_left or actions >= actions_left:
                capped = True
                break
            allowed = choices[row]
            may = False  # whether the seat may pass
            if turn_win or may_pass:  # the turn's formulas, read from their tables
                # Cards of the hand that pass as one of the claims allowed (`TableRules.count_matching`), with
                # the wild jokers; counted here, not in a helper given `hands`, which would count a reference
                # to it every turn.
                holding = 0
                for i in range(allowed):
                    holding += hands[seat, claims[row, i]]
                if wild >= 0 and allowed > 0:
                    holding += hands[seat, wild]
                lead = 1 if leading else 0
                if turn_win and wins_at_start[row_set[row], lead, sizes[seat], holding]:
                    winner = seat  # the first out wins (a win at a turn's start where seats leave is refused)
                    break
                may = may_pass and (leader_may_pass or not leading) and \
                    pass_ok[row_set[row], lead, sizes[seat], holding]
            no_play = allowed == 0 or sizes[seat] == 0  # no claim may be made, or no card is left to make it
            if no_play and not may:  # nor a pass: the seat has no legal action (`State.begin_turn`)
                stuck = True
                break
            bot = policies[seat]  # read once: numba reads the array again after every store to a hand
            if bot == COUNTER:
                catch_up(seat, sizes, show_pile, known, known_pile, last, received, seen, heard, reveals)
            # The claim: the one allowed that the hand holds most of (the first on a tie), else one drawn.
            best = claims[row, 0]
            held = hands[seat, best]
            for i in range(1, allowed):
                if hands[seat, claims[row, i]] > held:
                    best = claims[row, i]
                    held = hands[seat, best]
            jokers = hands[seat, wild] if wild >= 0 else 0  # wild jokers pass as any claim: the same for each
            held += jokers
            if no_play:
                passing = True
            elif bot == RANDOM:
                # Every legal play equally likely: ways[i, k] multisets of k cards from values i.. of the hand;
                # each play of k cards is as many plays as there are counts it may call, times the claims.
                cap = min(max_cards, sizes[seat])
                ways = np.zeros((faces + 1, cap + 1), dtype=np.float64)
                ways[faces, 0] = 1.0
                for i in range(faces - 1, -1, -1):
                    for k in range(cap + 1):
                        total = 0.0
                        for c in range(min(hands[seat, i], k) + 1):
                            total += ways[i + 1, k - c]
                        ways[i, k] = total
                total = 0.0
                for k in range(1, cap + 1):
                    total += ways[0, k] * counts_for(k, count_rule, count_top)
                passing = may and draw(rng) * (total * allowed + 1.0) < 1.0
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
                if passes >= players_in:  # every seat in passed: the round may end (`challenge.all_passed`)
                    passes = 0
                    is_open = False
                    if all_pass_discards:  # the pile leaves the game unseen
                        pile[:] = 0
                        pile_n = 0
                        if logging:
                            states[rows - 1, 0] = 0
                    if all_pass_rounds:
                        if last_player < 0:
                            last_player = next_in(seated, seat, step)
                        seat = pass_leader[dealer, mask if last_holder else 0, last_player]
                        leading = True
                        row = 2 * values + 1 if claimant < 0 else values + 1 + claim
                    else:
                        seat = next_in(seated, seat, step)
                    continue
                if not (is_open and seated[claimant]):
                    seat = next_in(seated, seat, step)
                    continue
                # The last play's window is still open: its responders are asked again before the next seat.
                after = next_in(seated, seat, step)
            else:
                after = -1
                if held == 0:
                    forced += 1
                claim = best
                if allowed > 1 and (held == 0 or bot == RANDOM):
                    claim = claims[row, int(draw(rng) * allowed)]
                    held = hands[seat, claim] + jokers
                lie = False
                top = claim  # the highest card put down: the one a challenge of the top card turns over
                if keeps:
                    play_cards[:] = 0  # kept for `counter`'s memory only
                line = rows
                if logging:
                    log[line, :] = -1
                    log[line, 0] = PLAY
                    log[line, 1] = seat
                    log[line, 2] = claim
                if bot == RANDOM:
                    pick = np.floor(draw(rng) * total)
                    count = 1
                    while pick >= ways[0, count] * counts_for(count, count_rule, count_top):
                        pick -= ways[0, count] * counts_for(count, count_rule, count_top)
                        count += 1
                    calls_for = counts_for(count, count_rule, count_top)
                    chosen = np.floor(pick / calls_for)
                    called = count if count_rule == EXACT else 1 + int(pick - chosen * calls_for)
                    pick = chosen
                    left = count
                    at = 4
                    for i in range(faces):
                        for c in range(min(hands[seat, i], left) + 1):
                            if pick < ways[i + 1, left - c]:
                                if c > 0:
                                    hands[seat, i] -= c
                                    pile[i] += c
                                    top = i
                                    if i != claim and i != wild and reveal_all:
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
                        lie = True
                elif held > 0:
                    # Every card that passes as the claim up to the cap, its own cards first, then wild jokers.
                    count = min(held, max_cards)
                    own = min(hands[seat, claim], count)
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
                else:
                    # One card: `honest` and `counter` give up the one they will miss least, `greedy` one at random.
                    if bot == HONEST or bot == COUNTER:
                        card = card_to_give_up(hands, seat, give_up[players_in, claim],
                                               give_up_group[players_in, claim], rng)
                    else:
                        pick = int(draw(rng) * sizes[seat])
                        card = 0
                        while pick >= hands[seat, card]:
                            pick -= hands[seat, card]
                            card += 1
                    count = 1
                    hands[seat, card] -= 1
                    pile[card] += 1
                    top = card
                    lie = True  # holding none of the claim
                    if keeps:
                        play_cards[card] += 1
                    if logging:
                        log[line, 4] = card
                if bot != RANDOM:
                    called = count  # `greedy` and `honest` call the count they put down (bots/base.py `count_to_call`)
                if count_judged and called != count:
                    lie = True
                if logging:
                    log[line, 3] = called
                sizes[seat] -= count
                pile_n += count
                if bot == COUNTER:  # `Memory.played`: its own cards went onto the pile
                    known_pile[seat, :faces] += play_cards
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
                    states[line, 1:] = sizes
            # The answers to `claimant`'s last play, from its neighbour round the table (the seats still in): each
            # responder accepts (-1) or calls a kind; `honest` and `counter` call the first kind that turns the play
            # over (`preferred`), or the Force (`force`) where the claimant has no card left, or (`counter`) none
            # that could pass.
            challenger = heard_kind = -1
            callers = 0
            responder = claimant
            for k in range(1, n):
                # (claimant + step * k) % n, without a division a response
                responder += step
                if responder == n:
                    responder = 0
                elif responder < 0:
                    responder = n - 1
                if not seated[responder]:
                    continue
                policy = policies[responder]
                kind = -1
                if policy == COUNTER:
                    catch_up(responder, sizes, show_pile, known, known_pile, last, received, seen, heard, reveals)
                if policy == RANDOM:
                    kind = int(draw(rng) * (kinds + 1)) - 1  # accept or each kind alike
                elif policy == GREEDY:
                    if draw(rng) < rates[responder]:
                        kind = preferred
                elif preferred >= 0:
                    pool = deck.size - sizes[responder]
                    matching = copies[claim] - hands[responder, claim]
                    if wild >= 0:
                        matching -= hands[responder, wild]
                    if policy == COUNTER:
                        pool -= elsewhere(responder, claimant, faces, known, known_pile) + gone[faces]
                        matching -= elsewhere(responder, claimant, claim, known, known_pile) + gone[claim]
                        if wild >= 0:
                            matching -= elsewhere(responder, claimant, wild, known, known_pile) + gone[wild]
                    if force >= 0 and (sizes[claimant] == 0 or (policy == COUNTER and matching <= 0)):
                        kind = force  # nothing left that the claimant could show
                    elif count_judged and called != count:
                        kind = preferred  # a count that differs from the cards put down is caught for sure
                    else:
                        hand, matching = lie_cell(pool, matching, sizes[claimant] + count, count)
                        doubt = 1.0 if hand < 0 else lies[pool, matching, hand, count, choice_slot[row]]
                        if doubt != doubt:
                            doubt = lies[pool, matching, hand, count, choice_slot[row]] = \
                                chance_of_lie(pool, matching, hand, count, max_cards, weighed[row])
                        if doubt >= 1.0 or (sizes[claimant] == 0 and doubt > last_doubt) or \
                                draw(rng) < (rates[responder] * doubt * doubt_inverse if doubt_inverse > 0.0
                                             else rates[responder] * doubt / doubt_scale):
                            kind = preferred
                if logging:
                    note(log, states, rows, CHALLENGE if kind >= 0 else ACCEPT, responder, kind, pile_n, sizes)
                actions += 1
                rows += 1
                if kind >= 0:
                    callers += 1
                    if challenger < 0:
                        challenger, heard_kind = responder, kind
                        if priority == IN_TURN:
                            break
                    elif priority == BY_LOT and draw(rng) * callers < 1.0:
                        challenger, heard_kind = responder, kind  # each caller so far equally likely to be first
            if priority == BY_LOT and callers > 1:
                if logging:
                    note(log, states, rows, CALLER, challenger, -1, pile_n, sizes)
                rows += 1
            going = also = -1  # the seats whose empty hands put them out now, in the order the engine settles
            caught = lie
            if challenger >= 0:
                challenges += 1
                is_open = False
                passes = 0
                from_hand = FROM_PILE
                if kind_tests[heard_kind] == HAND_TEST:
                    # The claimant shows a card of the claim from the hand (its own first, then a wild joker);
                    # showing none, it is caught. A card shown goes to the challenger, who lost.
                    from_hand = claim if hands[claimant, claim] > 0 else \
                        wild if wild >= 0 and hands[claimant, wild] > 0 else -1
                    caught = from_hand < 0
                    if not caught:
                        hands[claimant, from_hand] -= 1
                        sizes[claimant] -= 1
                        hands[challenger, from_hand] += 1
                        sizes[challenger] += 1
                loser = claimant if caught else challenger
                if caught:
                    caught_n += 1
                if keeps:
                    # What the challenge turned over: the whole play, or its top card (the highest, as the log
                    # lists them); where the pile is shown, all of it.
                    shown[:] = play_cards
                    if not reveal_all:
                        shown[:] = 0
                        shown[top] = 1
                    reveals = hear(heard, reveals, claimant, loser, from_hand, pile if show_pile else shown)
                # The penalty: the loser takes the pile, or draws from the stock (and takes the pile where the
                # stock runs short and the rules say so).
                taken = 0
                took_pile = take_pile
                if not take_pile:
                    taken = min(draw_count, stock_n - drawn)
                    for i in range(taken):
                        hands[loser, stock[stock_from + drawn + i]] += 1
                    drawn += taken
                    sizes[loser] += taken
                    took_pile = taken < draw_count and short_takes_pile
                if took_pile:
                    for v in range(faces):
                        hands[loser, v] += pile[v]
                        pile[v] = 0
                    sizes[loser] += pile_n
                    taken += pile_n
                    pile_n = 0
                if keeps:  # what the loser took, on the record just made
                    heard[reveals - 1, TAKEN] = taken
                    heard[reveals - 1, PILE_TAKEN] = 1 if took_pile else 0
                pickups[npick + picks] = taken
                picks += 1
                if logging:
                    states[rows - 1, 0] = pile_n
                    states[rows - 1, 1:] = sizes
                # The loser's complete sets: its bot chooses, one set at a time (every bot but `random` puts out
                # the first it holds, as `discard_or_keep`).
                by_sets = False
                if sets_forced:  # every complete set leaves with the challenge, no decision taken
                    put = put_out_sets(hands, loser, set_size, set_ranks, gone)
                    sizes[loser] -= put
                    by_sets = put > 0
                    if logging:
                        states[rows - 1, 1:] = sizes
                elif set_size > 0:
                    while True:
                        rank = complete_set(hands, loser, set_size, set_ranks)
                        if rank < 0:
                            break
                        if policies[loser] == RANDOM:
                            held_sets = 0
                            for r in set_ranks:
                                if hands[loser, r] >= set_size:
                                    held_sets += 1
                            pick = int(draw(rng) * (held_sets + 1))
                            if pick == held_sets:  # keep the sets left
                                if logging:
                                    note(log, states, rows, KEEP, loser, -1, pile_n, sizes)
                                rows += 1
                                actions += 1
                                break
                            for r in set_ranks:
                                if hands[loser, r] >= set_size:
                                    if pick == 0:
                                        rank = r
                                        break
                                    pick -= 1
                        actions += 1
                        hands[loser, rank] -= set_size
                        sizes[loser] -= set_size
                        gone[rank] += set_size
                        gone[faces] += set_size
                        by_sets = True
                        if logging:
                            note(log, states, rows, DISCARD, loser, rank, pile_n, sizes)
                        rows += 1
                # Empty hands go out (`challenge.settle`), the claimant's first: a claimant whose play survived, a
                # loser whose hand its sets emptied where the rules put such a hand out, and a losing challenger
                # who held nothing and drew nothing.
                if seated[claimant] and sizes[claimant] == 0 and (not caught or (by_sets and emptied_out)):
                    going = claimant
                if loser != claimant and sizes[loser] == 0 and seated[loser] and (emptied_out or not by_sets):
                    also = loser  # a losing challenger left with nothing: the stock had no card to give
            elif after < 0 and sizes[claimant] == 0:
                going = claimant  # the play stood (`State._stands`)
            ended = False
            if going >= 0 or also >= 0:
                for leaving in (going, also):
                    if leaving < 0:
                        continue
                    if not last_holder:  # the first out wins
                        winner = leaving
                        ended = True
                        break
                    seated[leaving] = False
                    players_in -= 1
                    mask &= ~(1 << leaving)
                    if first_out < 0:
                        first_out = leaving
                    if players_in <= 1:  # the last one holding cards loses
                        winner = first_out
                        for s in range(n):
                            if seated[s]:
                                loser_end = s
                        ended = True
                        break
            if ended:
                break
            if challenger >= 0:
                seat = next_seat[dealer, mask if last_holder else 0, claimant, challenger, 1 if caught else 0]
                if leads:
                    row = values + 1 + claim
                    leading = True
                else:
                    row = claim
            elif after >= 0:
                seat = after  # every answer asked again after the pass accepted
            else:
                is_open = window_through_passes and seated[claimant]
                seat = next_in(seated, claimant, step)
                row = claim
        records[played, FIRST] = first
        records[played, WINNER] = winner
        records[played, LOSER] = loser_end
        records[played, DEALER] = dealer
        records[played, CAPPED] = 1 if capped else 0
        records[played, STUCK] = 1 if stuck else 0
        records[played, LOG_ROWS] = rows
        records[played, TURNS] = turns
        records[played, ACTIONS] = actions
        records[played, PLAYS] = plays
        records[played, FORCED] = forced
        records[played, CHALLENGES] = challenges
        records[played, CAUGHT] = caught_n
        records[played, PICKUPS] = picks
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
    work = workspace(t, policies, t.turn_cap)
    rng = np.zeros(1, dtype=np.uint64)
    return play_on(t, 0, work[1], work[2], work[3], 0, work[0], work[4], 0, t.values, work[5], work[6], t.turn_cap,
                   NO_LIMIT, rng, rates, policies, records, pickups, 0, False, none, none, work, seed, start, count)[0]


@njit(cache=True)
def play_logged(t, seed, index, rates, policies, record, pickups, hands0, stock0, log, states):
    """Game `index` with its deal (`hands0`: a row of counts a seat, then the cards dealt to nobody; `stock0`:
    the stock, top card first), its action log and the state after every action (record[LOG_ROWS] is the
    log's length)."""
    rng = seed_of(seed, index)
    work = workspace(t, policies, t.turn_cap)
    n, aside, dealt, kept, cards, hands, gone = t.players, t.aside, t.dealt, t.stock_size, work[0], work[1], work[13]
    dealer, first = deal(t.deck, aside, dealt, n, t.step, t.by_lot, t.first_seat, t.first_card, t.set_size,
                         t.set_ranks, t.sets_forced, t.last_holder, rng, record, cards, hands, work[2], work[3],
                         work[4], work[5], work[6], gone)
    hands0[:n, :] = hands
    hands0[n, :] = gone[:t.faces]  # the sets put out at the deal, with the cards dealt to nobody
    for k in range(cards.size):
        if k < aside or k >= aside + dealt + kept:
            hands0[n, cards[k]] += 1
    stock0[:kept] = cards[aside + dealt:aside + dealt + kept]
    if first < 0:
        return 0
    return play_on(t, dealer, hands, work[2], work[3], 0, cards[aside + dealt:aside + dealt + kept], work[4], first,
                   t.values, work[5], work[6], t.turn_cap, NO_LIMIT, rng, rates, policies,
                   record.reshape((1, record.size)), pickups, 0, True, log, states, work, u64(0), 0, 0)[1]


@njit(cache=True)
def position_start(t, hands, seed):
    """The random stream of `seed` and each seat's hand size: what play from a position needs (`playout`,
    `play_logged_from`)."""
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = u64(seed)
    draw(rng)
    sizes = np.zeros(t.players, dtype=np.int64)
    for s in range(t.players):
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
