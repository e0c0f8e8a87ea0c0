"""Turns between `greedy` seats played in one tight loop, for simulation.

`simulate` spends most of its time on the commonest stretch of a game: a greedy seat plays the one
claim the rules allow, each other seat accepts or challenges at the challenge rate, the loser of a
challenge takes the pile. `run_greedy_turns` plays such turns directly on a `State`'s own hands and
seating, with the `Game`'s tables (claims, responders, next player, ending) and the engine's own
going-out and finishing steps, and stops as soon as a turn needs anything else (several claims to
choose from, a pass, a set discard...). The caller then goes on with the step-by-step bots, and may
come back here at the next turn.

The policy is exactly `GreedyBot`'s, drawing from the same `random.Random` objects in the same order,
and a seat to play reads nothing but its own hand; so a game plays the same, action for action, as the
step-by-step loop (tests/test_quickplay.py checks final states, reveals and statistics on every shipped
rulebook). The one thing not kept is the action history of the turns played here: the state's
`history()` ends where the loop began, and `Quick.actions` counts what it played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from weakref import WeakKeyDictionary

from ..engine import Ending, Game, Phase, RevealRecord, State
from ..engine import challenge as _challenge
from ..model import ChallengeTest

_PLAY, _TERMINAL = Phase.PLAY, Phase.TERMINAL


class Quick:
    """What the loop played: decisions, plays and plays by a seat holding none of the claim."""

    __slots__ = ("actions", "plays", "forced")

    def __init__(self) -> None:
        self.actions = 0
        self.plays = 0
        self.forced = 0


def greedy_loop_blocker(game: Game) -> str | None:
    """Why the loop cannot play this game's turns at all, or None when it can play some of them."""
    if game.turn_start_win is not None:
        return "a win can happen at the start of a turn"
    if game.wild or not game.exact or game.min_cards > 1:
        return "plays need more than one card value counted as played"
    if not game.take_pile:
        return "the loser of a challenge does not take the pile"
    if game.set_size is not None:
        return "sets leave the game"
    kind = _preferred_kind(game)
    if kind is not None and game.kinds[kind].test is not ChallengeTest.PLAYED:
        return "a challenge does not turn the played cards over"
    return None


def _preferred_kind(game: Game) -> str | None:
    for name in game.kind_names:
        if game.kinds[name].test is ChallengeTest.PLAYED:
            return name
    return game.kind_names[0] if game.kind_names else None


class _Tables:
    """What the loop looks up, worked out once per `Game`."""

    def __init__(self, g: Game) -> None:
        size = len(g.follow)
        self.blocker = greedy_loop_blocker(g)
        self.kind = _preferred_kind(g)
        self.follow_one = [_one(g.follow[c]) for c in range(size)]
        self.after_challenge_one = [_one(g.required_after(c, g.round_ends_on_challenge)[0]) for c in range(size)]
        most = g.max_cards if g.max_cards is not None else 1 << 30
        # truth[claim][held]: the cards of a truthful play holding `held` of `claim` (capped at `most`)
        self.truth = [tuple((c,) * min(k, most) for k in range(g.deck_counts[c] + 1)) if c < g.values else ()
                      for c in range(size)]


def _one(claims: tuple[int, ...]) -> int:
    return claims[0] if len(claims) == 1 else -1


_TABLES: WeakKeyDictionary[Game, _Tables] = WeakKeyDictionary()


def run_greedy_turns(state: State, randoms: Sequence[Callable[[], float]], challenge_rate: float,
                     quick: Quick) -> bool:
    """Play greedy turns from `state` (at a seat's play) until the game ends or a turn needs more.

    `randoms[s]` is seat s's bot's `rng.random`. Returns True when the game is over, False when the
    state is left at a play this loop does not make (the step-by-step bots take it from there).
    Every seat must be greedy; a game with a `greedy_loop_blocker` is handed straight back.
    """
    g: Game = state.game
    t = _TABLES.get(g)
    if t is None:
        t = _TABLES[g] = _Tables(g)
    required = state._required
    if len(required) != 1 or t.blocker is not None:
        return False
    claim = required[0]
    hands = state._hands
    sizes = state._sizes
    next_in = state._next_in
    responders_of = state._responders_of
    follow_one = t.follow_one
    after_challenge_one = t.after_challenge_one
    truth = t.truth
    kind = t.kind
    cap = g.turn_cap
    at_once = g.at_once
    reveal_all = g.reveal_all
    show_pile = g.show_pile
    joker = g.joker if g.wild else -1
    rate = challenge_rate if kind is not None else -1.0
    pile = state._pile
    pile_n = state._pile_n
    turns = start = state._turns
    reveals = state._reveals
    seat = state._seat
    actions = forced = 0
    claimant = challenger = -1
    last = claim
    over = False
    while claim >= 0:
        # -- the turn starts (State.begin_turn): only plain turns are played here
        size = sizes[seat]
        if size < 1:
            break
        hand = hands[seat]
        held = hand[claim]
        if held:
            cards = truth[claim][held]
            n = len(cards)
            hand[claim] = held - n
        else:
            forced += 1
            pick = int(randoms[seat]() * size)
            card = 0
            for k in hand:
                if pick < k:
                    break
                pick -= k
                card += 1
            hand[card] -= 1
            cards = (card,)
            n = 1
        # -- the play (State._apply_play)
        size -= n
        sizes[seat] = size
        pile.append((seat, cards, claim, n, not size))
        pile_n += n
        turns += 1
        last = claim
        claimant = seat
        challenger = -1
        responders = () if not size and at_once else responders_of[seat]
        for r in responders:
            if randoms[r]() < rate:
                challenger = r
                break
        if challenger < 0:
            actions += len(responders) + 1
            # -- the play stands (State._stands)
            if not size:
                state._pile_n = pile_n
                _challenge.go_out(state, claimant, "emptied the hand")
                if state._phase is _TERMINAL:
                    over = True
                    break
            claim = follow_one[claim]
            seat = next_in[claimant]
        else:
            actions += responders.index(challenger) + 2
            # -- the challenge (challenge.resolve, a kind that turns the played cards over)
            revealed = cards if reveal_all else cards[-1:]
            caught = False
            for c in revealed:
                if c != last and c != joker:
                    caught = True
                    break
            winner, loser = (challenger, claimant) if caught else (claimant, challenger)
            pile_seen = tuple(c for entry in pile for c in entry[1]) if show_pile else None
            taken = hands[loser]
            for entry in pile:
                for c in entry[1]:
                    taken[c] += 1
            sizes[loser] += pile_n
            reveals.append(RevealRecord(kind, claimant, challenger, last, n, revealed, caught,  # type: ignore[arg-type]
                                        loser, pile_n, pile_seen))
            pile.clear()
            pile_n = 0
            # -- challenge.finish_resolution: empty hands go out, `next_player` names the seat
            state._pile_n = 0
            state._leading = g.round_ends_on_challenge
            nxt = _challenge.settle(state, claimant, challenger, winner, loser, caught, False)
            if nxt is None:
                over = True
                break
            claim = after_challenge_one[last]
            seat = nxt
        if turns >= cap:
            state._turns = turns
            _challenge.finish(state, Ending.TURN_CAP, f"stopped by the turn cap after {turns} turns")
            over = True
            break
    # -- hand the state back, at the start of `seat`'s turn unless the game is over
    plays = turns - start
    state._pile_n = pile_n
    state._turns = turns
    quick.actions += actions
    quick.plays += plays
    quick.forced += forced
    if not plays:
        return False
    state._previous = last
    state._leading = challenger >= 0 and g.round_ends_on_challenge
    state._passes = 0
    state._last_player = state._claimant = claimant
    if over:
        return True
    state._required, state._required_set = g.required_after(last, state._leading)
    state.begin_turn(seat)
    return state._phase is _TERMINAL
