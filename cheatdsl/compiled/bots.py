"""The bots' decisions in the compiled kernel, each beside the Python bot's method it mirrors: `honest`'s chance
of a lie and its bluff card, `counter`'s memories, and the steps `kernel.play_on` inlines (the claim a bot
makes, `random`'s count of its plays, a responder's answer to a play).
"""

from __future__ import annotations

import math

from .common import BY, COUNTER, FROM_HAND, FROM_PILE, GREEDY, PILE_TAKEN, RANDOM, SEEN, TAKEN, TO, add_from, \
    counts_for, draw, fill_from, inlined, njit


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
    turns over the top card only, and never kept (the memo has no row past the copies of a claim)."""
    hand = max(0, min(hand, pool))
    matching = max(0, min(matching, pool))
    if played > min(matching, hand):
        return -1, matching
    return hand, matching


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
    fill_from(heard[reveals, SEEN:SEEN + cards.size], cards)
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
        fill_from(last[me], sizes)
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
            fill_from(pile[me], heard[r, SEEN:SEEN + width])
        elif heard[r, BY] != me:  # its own cards went on with `played`
            add_from(pile[me], heard[r, SEEN:SEEN + width])
        received[me, loser] += heard[r, TAKEN]
        if heard[r, PILE_TAKEN]:
            if loser != me:  # the loser took the pile: what was known of it is known of that hand
                add_from(known[me, loser], pile[me])
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


@inlined
def most_held(r, claims, choices, hands, seat, row):
    """The claim of row `row` of `claims` that `seat`'s hand holds most of, the first on a tie (bots/simple.py
    `GreedyBot._play`, bots/honest.py `HonestBot._play`). Returns (that claim, the cards of the hand that pass as
    it, wild jokers included, the wild jokers held: they pass as any claim alike)."""
    best = claims[row, 0]
    held = hands[seat, best]
    for i in range(1, choices[row]):
        if hands[seat, claims[row, i]] > held:
            best = claims[row, i]
            held = hands[seat, best]
    jokers = hands[seat, r.wild] if r.wild >= 0 else 0
    return best, held + jokers, jokers


@inlined
def random_ways(r, hands, sizes, seat, ways):
    """`random`'s count of its legal plays (engine/plays.py `count_plays`, `_weights`): into `ways[i, k]`, the
    multisets of k cards from values i.. of `seat`'s hand, up to the cards it may put down (the columns past them
    are not read); returns the plays of one card or more, each play of k cards counted once for every count it
    may call (the claims not counted)."""
    faces = r.faces
    cap = min(r.max_cards, sizes[seat])
    ways[faces, :cap + 1] = 0.0
    ways[faces, 0] = 1.0
    for i in range(faces - 1, -1, -1):
        for k in range(cap + 1):
            total = 0.0
            for c in range(min(hands[seat, i], k) + 1):
                total += ways[i + 1, k - c]
            ways[i, k] = total
    total = 0.0
    for k in range(1, cap + 1):
        total += ways[0, k] * counts_for(k, r.count_rule, r.count_top)
    return total


@inlined
def bluff_card(give_up, give_up_group, bot, hands, sizes, seat, claim, players_in, rng):
    """The one card a bot puts down holding none of the claim: `honest` and `counter` the one they will miss
    least (bots/honest.py `HonestBot._bluff_card`, `card_to_give_up` here), `greedy` one at random
    (bots/base.py `random_card`)."""
    if bot == GREEDY:
        pick = int(draw(rng) * sizes[seat])
        card = 0
        while pick >= hands[seat, card]:
            pick -= hands[seat, card]
            card += 1
        return card
    return card_to_give_up(hands, seat, give_up[players_in, claim], give_up_group[players_in, claim], rng)


@inlined
def response(r, policy, rate, responder, hands, sizes, claimant, claim, count, called, row, rng, known, known_pile,
             gone, copies, lies, choice_slot, weighed, doubt_inverse):
    """`responder`'s answer to `claimant`'s play of `count` cards calling `called` of `claim`: -1 to accept, else
    the kind of challenge called, by its index among the table's kinds. `random` accepts or calls each kind
    alike (bots/simple.py `RandomBot.act`), `greedy` calls the preferred kind at its rate (`GreedyBot.act`);
    `honest` and `counter` call the Force where the claimant has nothing left to show (`counter`: nothing that
    could pass), the preferred kind where the count called differs from the cards put down, and otherwise at
    their rate scaled by their doubt (bots/honest.py `HonestBot.doubts`, `chance_of_lie`; bots/counter.py
    `CounterBot._respond`, `chance_of_lie` with the cards its memory places elsewhere). `rate`: the
    responder's challenge rate; `doubt_inverse`: 1 / `r.doubt_scale` where that is exact, else 0."""
    if policy == RANDOM:
        return int(draw(rng) * (r.kinds + 1)) - 1
    if policy == GREEDY:
        return r.preferred if draw(rng) < rate else -1
    if r.preferred < 0:
        return -1
    wild = r.wild
    pool = r.cards - sizes[responder]
    matching = copies[claim] - hands[responder, claim]
    if wild >= 0:
        matching -= hands[responder, wild]
    if policy == COUNTER:
        pool -= elsewhere(responder, claimant, r.faces, known, known_pile) + gone[r.faces]
        matching -= elsewhere(responder, claimant, claim, known, known_pile) + gone[claim]
        if wild >= 0:
            matching -= elsewhere(responder, claimant, wild, known, known_pile) + gone[wild]
    if r.force >= 0 and (sizes[claimant] == 0 or (policy == COUNTER and matching <= 0)):
        return r.force  # nothing left that the claimant could show
    if r.count_judged and called != count:
        return r.preferred  # a count that differs from the cards put down is caught for sure
    hand, matching = lie_cell(pool, matching, sizes[claimant] + count, count)
    doubt = 1.0 if hand < 0 else lies[pool, matching, hand, count, choice_slot[row]]
    if doubt != doubt:  # NaN: not worked out yet
        doubt = lies[pool, matching, hand, count, choice_slot[row]] = \
            chance_of_lie(pool, matching, hand, count, r.max_cards, weighed[row])
    if doubt >= 1.0 or (sizes[claimant] == 0 and doubt > r.last_doubt) or \
            draw(rng) < (rate * doubt * doubt_inverse if doubt_inverse > 0.0 else rate * doubt / r.doubt_scale):
        return r.preferred
    return -1
