"""What every part of the compiled kernel shares: numba's `njit`, the numbers the kernel's arrays use for
actions, bots, record columns and a turn's facts, the random stream, and the small table helpers.

Importing this module imports numba through `cache.load_numba` (so its disk cache lies under the user's cache
folder, in a folder keyed by a hash of every kernel source: `cache.KERNEL_SOURCES`) and raises
`cache.NumbaMissing` without it.
"""

from __future__ import annotations

import numpy as np

from .cache import load_numba

njit = load_numba().njit
# A rule's or a bot's step of `kernel.play_on`, inlined into it by numba (compiled as part of it, without
# reference counting: see `kernel.play_on`), so a step costs what its statements cost.
inlined = njit(cache=True, inline="always")
u64 = np.uint64

PLAY, ACCEPT, CHALLENGE, CALLER, DISCARD, KEEP, PASS = 0, 1, 2, 3, 4, 5, 6  # CALLER: chance picks who of
# several callers called first; DISCARD: a set put out (its rank in the claim column); KEEP: the sets left kept
NEAREST, IN_TURN, BY_LOT = 0, 1, 2  # who of the responders is heard (`priority`)
# Columns of a game's record row.
FIRST, WINNER, CAPPED, STUCK, TURNS, ACTIONS, PLAYS, FORCED, CHALLENGES, CAUGHT, PICKUPS, LOSER, DEALER, \
    LOG_ROWS = range(14)
RECORD_WIDTH = 14  # STUCK: the rules named no first player for the deal; LOG_ROWS: the action log's length
EXACT, UP_TO_CARDS, ANY_COUNT = 0, 1, 2  # the count a play may call (`count_rule`): model.CountRule
NO_LIMIT = 1 << 62  # no cap on decisions (`kernel.play_on`'s `actions_left`), as for whole games
GREEDY, RANDOM, HONEST, COUNTER = 0, 1, 2, 3  # the bots (`policies[seat]`); each challenges at `rates[seat]`

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

# `kernel.play_on`'s situation at a turn's start, beyond the hands and the pile (`State` keeps the same facts):
LEADING, PASSES, LAST_PLAYER, OPEN, CLAIMANT, CLAIM, COUNT, CALLED, LIE = range(9)
SITUATION = 9


@njit(cache=True)
def draw(rng: np.ndarray) -> float:
    """The next number of a game's splitmix64 stream `rng`, uniform in [0, 1)."""
    rng[0] += u64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> u64(30))) * u64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> u64(27))) * u64(0x94D049BB133111EB)
    z = z ^ (z >> u64(31))
    return float(z >> u64(11)) * (1.0 / 9007199254740992.0)


@inlined
def fill_from(into, values):
    """into[i] = values[i] for every i of `values`: a copy that needs no temporary array (`kernel.play_on` runs
    without numba's reference counting, where `into[:] = values` is refused)."""
    for i in range(values.size):
        into[i] = values[i]


@inlined
def add_from(into, values):
    """into[i] += values[i] for every i of `values` (as `fill_from`)."""
    for i in range(values.size):
        into[i] += values[i]


@njit(cache=True)
def seated_bot(policies, bot):
    """Whether `bot` (GREEDY ... COUNTER) sits at the table: `counter`'s memories and `random`'s count of its
    plays are kept only then."""
    for p in policies:
        if p == bot:
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
def note(log, states, at, kind, seat, claim, pile_n, sizes):
    """Row `at` of a game's log (an action other than a play, whose cards a play's row lists) and the pile's
    and hands' sizes after it."""
    log[at, :] = -1
    log[at, 0] = kind
    log[at, 1] = seat
    log[at, 2] = claim
    states[at, 0] = pile_n
    fill_from(states[at, 1:], sizes)


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
