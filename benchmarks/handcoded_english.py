"""Hand-coded English ascending Cheat ("I Doubt It") engine: a speed-of-light yardstick.

One card game, one policy (``greedy``), no generality: plain CPython made as
fast as we could for this game, used to measure how far a generic rules
interpreter is from the ceiling.  Standard library only; no project imports
(except ``--numba``: the same game hand-written for numba, the compiled
engine's yardstick, which takes numba through the project's cache folder).

Rules implemented (English ascending Cheat, one 52-card pack, 3..6 seats):

* Every card is dealt from a shuffled deck clockwise starting at seat
  ``dealer + 1``; suits are irrelevant, so a hand is a 13-entry rank-count list.
* The dealer's left neighbour plays first and must claim aces; the required rank
  then advances A, 2, ..., K, A, ... by one after every play (never resets).
* A play puts 1..4 cards face down and claims that many cards of the required
  rank.  The other seats then respond clockwise from the claimant's left
  neighbour, each response being "accept" or "challenge"; the first challenge
  ends the round of responses.  A caught bluff gives the whole pile to the
  claimant, an honest play gives it to the challenger.
* The claimant's left neighbour plays next.  Emptying one's hand wins only if
  that last play survives (all accept, or the challenge finds it honest).
* A game stops ("capped", winner ``None``) after ``turn_cap`` plays; the last
  play is still answered and resolved, so it can win the game.

Greedy policy: holding k > 0 cards of the required rank, play min(k, 4) of them
(i.e. all k, as a rank has four cards) honestly; otherwise bluff one card drawn uniformly from the hand.  Each
responder challenges independently with probability ``challenge_rate``.

Actions counted = plays + responses (every accept and every challenge).

Two ways to draw the responses. By default (``per_seat=False``) one uniform per
play picks the first challenger, if any (see the speed notes): the accepts
before it are counted but never decided. With ``per_seat=True`` (``--per-seat``)
each responder in turn draws its own uniform and the first below
``challenge_rate`` challenges: every response counted is a decision taken, as in
the generic interpreter's loop, where each response is a separate bot call.
Both modes have the same distribution of games; the per-seat one is the fair
yardstick for the interpreter (``benchmarks/engine_speed.py``).

Speed notes: the responders' independent Bernoulli draws are sampled with a
single uniform per play (inverse CDF of "index of first challenger"), which has
exactly the same distribution as one draw per responder; uniform integers come
from ``int(random() * n)`` rather than ``randrange`` (relative bias ~ n / 2**53);
the (seat, required rank) sequence is precomputed once per table shape; hands
are rank-count lists with a cached size per seat; the pile is a list of
``(rank, count)`` plays so taking it touches only the plays since the last
challenge.
"""

from __future__ import annotations

import argparse
import json
import time
from math import gcd
from random import Random

RANKS = 13
SUITS = 4
DECK_SIZE = RANKS * SUITS
MIN_PLAYERS = 3
MAX_PLAYERS = 6
MAX_PLAY = 4
DEFAULT_CHALLENGE_RATE = 0.15
DEFAULT_TURN_CAP = 2000

_RANK_DECK: tuple[int, ...] = tuple(r for r in range(RANKS) for _ in range(SUITS))


def deal(rng: Random, players: int = 3, dealer: int = 0) -> list[list[int]]:
    """Shuffle a pack and deal it clockwise from dealer+1; return rank-count hands."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be in {MIN_PLAYERS}..{MAX_PLAYERS}, got {players}")
    if not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat in 0..{players - 1}, got {dealer}")
    deck = list(_RANK_DECK)
    rnd = rng.random
    # Fisher-Yates driven by random(): cheaper than Random.shuffle's _randbelow.
    for i in range(DECK_SIZE - 1, 0, -1):
        j = int(rnd() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    # Card i goes to seat dealer+1+i (mod players): one slice per seat.
    hands: list[list[int]] = [[] for _ in range(players)]
    for offset in range(players):
        hand = [0] * RANKS
        for rank in deck[offset::players]:
            hand[rank] += 1
        hands[(dealer + 1 + offset) % players] = hand
    return hands


def _first_challenge_thresholds(responders: int, challenge_rate: float) -> tuple[float, ...]:
    """Return P(some challenge among the first j+1 responders) for each j."""
    keep = 1.0 - challenge_rate
    return tuple(1.0 - keep ** (j + 1) for j in range(responders))


def _check_state(hands: list[list[int]], sizes: list[int], pile: list[tuple[int, int]]) -> None:
    """Assert every rank still has four cards across hands and pile, and sizes match."""
    totals = [0] * RANKS
    for hand in hands:
        for rank in range(RANKS):
            count = hand[rank]
            assert count >= 0, f"negative count {count} of rank {rank}"
            totals[rank] += count
    for rank, count in pile:
        assert 1 <= count <= MAX_PLAY, f"bad play size {count} on pile"
        totals[rank] += count
    assert totals == [SUITS] * RANKS, f"cards not conserved: {totals}"
    assert sizes == [sum(hand) for hand in hands], f"hand-size cache out of sync: {sizes}"


def _schedule(players: int, dealer: int, turn_cap: int) -> list[tuple[int, int]]:
    """Return the (seat, required rank) pair of every play up to the turn cap (cached)."""
    key = (players, dealer, turn_cap)
    schedule = _SCHEDULES.get(key)
    if schedule is None:
        first = dealer + 1
        period = players * RANKS // gcd(players, RANKS)
        rotation = [((first + n) % players, n % RANKS) for n in range(period)]
        schedule = [rotation[n % period] for n in range(turn_cap)]
        _SCHEDULES[key] = schedule
    return schedule


_SCHEDULES: dict[tuple[int, int, int], list[tuple[int, int]]] = {}


def play_game(
    rng: Random,
    players: int = 3,
    challenge_rate: float = DEFAULT_CHALLENGE_RATE,
    turn_cap: int = DEFAULT_TURN_CAP,
    *,
    dealer: int = 0,
    check: bool = False,
    per_seat: bool = False,
) -> tuple[int, int, int | None]:
    """Play one greedy game; return (actions, plays, winner seat or None if capped)."""
    if per_seat:
        return _play_game_per_seat(rng, players, challenge_rate, turn_cap, dealer, check)
    if not 0.0 <= challenge_rate <= 1.0:
        raise ValueError(f"challenge_rate must be in [0, 1], got {challenge_rate}")
    if turn_cap < 0:
        raise ValueError(f"turn_cap must be >= 0, got {turn_cap}")
    hands = deal(rng, players, dealer)
    sizes = [sum(hand) for hand in hands]
    rnd = rng.random
    thresholds = _first_challenge_thresholds(players - 1, challenge_rate)
    no_challenge = thresholds[-1]
    responders = players - 1
    skipped = 0  # responses never asked because an earlier seat challenged
    pile: list[tuple[int, int]] = []
    plays = 0
    winner: int | None = None
    if check:
        _check_state(hands, sizes, pile)
    for plays, (seat, required) in enumerate(_schedule(players, dealer, turn_cap), 1):  # noqa: B007 (read after the loop)
        hand = hands[seat]
        count = hand[required]
        if count:
            # Honest play of every held card of the required rank (at most 4).
            hand[required] = 0
            pile.append((required, count))
            left = sizes[seat] - count
            sizes[seat] = left
            u = rnd()
            if u >= no_challenge:
                if not left:
                    winner = seat
                    break
            else:
                offset = 1
                for threshold in thresholds:
                    if u < threshold:
                        break
                    offset += 1
                skipped += responders - offset
                # Challenge fails: the challenger takes the whole pile.
                taker = seat + offset
                if taker >= players:
                    taker -= players
                taken = hands[taker]
                total = 0
                for rank, n in pile:
                    taken[rank] += n
                    total += n
                sizes[taker] += total
                pile = []
                if not left:
                    winner = seat
                    break
        else:
            # Forced bluff: one uniformly random card (never the required rank).
            pick = int(rnd() * sizes[seat]) - hand[0]
            rank = 0
            while pick >= 0:
                rank += 1
                pick -= hand[rank]
            hand[rank] -= 1
            pile.append((rank, 1))
            left = sizes[seat] - 1
            u = rnd()
            if u >= no_challenge:
                sizes[seat] = left
                if not left:
                    winner = seat
                    break
            else:
                offset = 1
                for threshold in thresholds:
                    if u < threshold:
                        break
                    offset += 1
                skipped += responders - offset
                # Bluff caught: the claimant takes the pile back and plays on.
                total = 0
                for rank, n in pile:
                    hand[rank] += n
                    total += n
                sizes[seat] = left + total
                pile = []
        if check:
            _check_state(hands, sizes, pile)
    if check:
        _check_state(hands, sizes, pile)
        assert (winner is None) == (min(sizes) > 0), f"winner {winner} vs sizes {sizes}"
    # Every play is asked of all other seats except those cut off by a challenge.
    return plays * players - skipped, plays, winner


def _play_game_per_seat(
    rng: Random, players: int, challenge_rate: float, turn_cap: int, dealer: int, check: bool
) -> tuple[int, int, int | None]:
    """`play_game` with one uniform drawn per response: each responder decides on its own."""
    if not 0.0 <= challenge_rate <= 1.0:
        raise ValueError(f"challenge_rate must be in [0, 1], got {challenge_rate}")
    if turn_cap < 0:
        raise ValueError(f"turn_cap must be >= 0, got {turn_cap}")
    hands = deal(rng, players, dealer)
    sizes = [sum(hand) for hand in hands]
    rnd = rng.random
    pile: list[tuple[int, int]] = []
    plays = 0
    actions = 0
    winner: int | None = None
    last = players - 1
    for plays, (seat, required) in enumerate(_schedule(players, dealer, turn_cap), 1):  # noqa: B007 (read after the loop)
        hand = hands[seat]
        count = hand[required]
        if count:
            hand[required] = 0
            pile.append((required, count))
            honest = True
        else:
            pick = int(rnd() * sizes[seat]) - hand[0]
            rank = 0
            while pick >= 0:
                rank += 1
                pick -= hand[rank]
            hand[rank] -= 1
            pile.append((rank, 1))
            count = 1
            honest = False
        left = sizes[seat] - count
        sizes[seat] = left
        actions += 1
        challenger = -1
        offset = 1
        while offset <= last:
            actions += 1
            if rnd() < challenge_rate:
                challenger = seat + offset
                if challenger >= players:
                    challenger -= players
                break
            offset += 1
        if challenger >= 0:
            taker = challenger if honest else seat
            taken = hands[taker]
            total = 0
            for rank, n in pile:
                taken[rank] += n
                total += n
            sizes[taker] += total
            pile = []
            if not honest:
                if check:
                    _check_state(hands, sizes, pile)
                continue
        if not left:
            winner = seat
            break
        if check:
            _check_state(hands, sizes, pile)
    if check:
        _check_state(hands, sizes, pile)
        assert (winner is None) == (min(sizes) > 0), f"winner {winner} vs sizes {sizes}"
    return actions, plays, winner


def run(games: int, seed: int, players: int = 3, per_seat: bool = False) -> dict[str, float | int]:
    """Play `games` games from one seeded RNG and report throughput."""
    rng = Random(seed)
    total_actions = 0
    total_plays = 0
    wins = 0
    started = time.perf_counter()
    for _ in range(games):
        actions, plays, winner = play_game(rng, players, per_seat=per_seat)
        total_actions += actions
        total_plays += plays
        if winner is not None:
            wins += 1
    seconds = time.perf_counter() - started
    return {
        "games": games,
        "players": players,
        "seed": seed,
        "per_seat": per_seat,
        "actions": total_actions,
        "plays": total_plays,
        "wins": wins,
        "capped": games - wins,
        "seconds": seconds,
        "actions_per_second": total_actions / seconds if seconds > 0 else 0.0,
    }


def numba_run(games: int, seed: int, players: int = 3) -> dict[str, float | int]:
    """The same game and greedy policy hand-written for numba (`--numba`): every response drawn per seat,
    all responders answer and the nearest caller clockwise is heard, as English ascending says. The
    compiled engine's yardstick (benchmarks/engine_speed.py). Its compile time is not timed."""
    import numpy as np

    from cheatdsl.compiled.cache import load_numba  # the user cache folder, as the compiled engine uses
    njit = load_numba().njit

    @njit(cache=False)
    def play(games: int, seed: int, n: int, rate: float, cap: int) -> tuple[int, int]:
        np.random.seed(seed)
        actions = wins = 0
        deck = np.repeat(np.arange(RANKS), SUITS)
        for _ in range(games):
            np.random.shuffle(deck)
            hands = np.zeros((n, RANKS), dtype=np.int64)
            sizes = np.zeros(n, dtype=np.int64)
            dealer = np.random.randint(n)
            for k in range(DECK_SIZE):
                seat = (dealer + 1 + k) % n
                hands[seat, deck[k]] += 1
                sizes[seat] += 1
            pile = np.zeros(RANKS, dtype=np.int64)
            pile_n = 0
            seat = (dealer + 1) % n
            claim = 0
            for _turn in range(cap):
                held = hands[seat, claim]
                lie = held == 0
                if lie:
                    pick = int(np.random.random() * sizes[seat])
                    card = 0
                    while pick >= hands[seat, card]:
                        pick -= hands[seat, card]
                        card += 1
                    count = 1
                else:
                    card = claim
                    count = min(held, MAX_PLAY)
                hands[seat, card] -= count
                pile[card] += count
                pile_n += count
                sizes[seat] -= count
                actions += n
                challenger = -1
                for k in range(1, n):
                    if np.random.random() < rate and challenger < 0:
                        challenger = (seat + k) % n
                if challenger >= 0:
                    loser = seat if lie else challenger
                    hands[loser] += pile
                    sizes[loser] += pile_n
                    pile[:] = 0
                    pile_n = 0
                if sizes[seat] == 0:
                    wins += 1
                    break
                seat = (seat + 1) % n
                claim = (claim + 1) % RANKS
        return actions, wins

    play(1, seed, players, DEFAULT_CHALLENGE_RATE, DEFAULT_TURN_CAP)  # compile before timing
    started = time.process_time()
    actions, wins = play(games, seed, players, DEFAULT_CHALLENGE_RATE, DEFAULT_TURN_CAP)
    seconds = time.process_time() - started
    return {"games": games, "actions": actions, "capped": games - wins, "seconds": seconds,
            "actions_per_second": actions / seconds if seconds > 0 else 0.0}


def main(argv: list[str] | None = None) -> int:
    """CLI entry point: run the benchmark and print actions per second."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games to play (default 10000)")
    parser.add_argument("--seed", type=int, default=0, help="RNG seed (default 0)")
    parser.add_argument("--players", type=int, default=3, help="seats, 3..6 (default 3)")
    parser.add_argument("--per-seat", action="store_true",
                        help="draw each response separately, as the generic interpreter decides them")
    parser.add_argument("--numba", action="store_true",
                        help="the same game hand-written for numba (needs numba), responses drawn per seat")
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")
    args = parser.parse_args(argv)
    if args.numba:
        result = numba_run(args.games, args.seed, args.players)
    else:
        result = run(args.games, args.seed, args.players, args.per_seat)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"{result['actions_per_second']:,.0f} actions/s "
            f"({result['actions']:,} actions, {result['games']:,} games, "
            f"{result['capped']:,} capped, {result['seconds']:.3f} s)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
