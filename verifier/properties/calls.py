"""Games that show challenge-priority: several seats call the same claim at once, played by the interpreter.

A seeded deal, the first play of the game, then the named seats challenge it and every other responder
accepts. The interpreter then hears the seat the priority rule picks, or (`first_caller`) waits for the
lot of who called first: the rules alone do not say. Either way the game is the witness, written as a
scenario that replays it.
"""

from __future__ import annotations

import random

from cheatdsl.engine import ACCEPT, Challenge, Game, Phase, Play
from cheatdsl.words.notation import action_text, cards_text, claim_text, seats_text

from .witness import Witness, dealt

PRIORITY = "challenge-priority"
SEEDS = 8


def calls_game(game: Game, places: tuple[int, ...]) -> Witness | None:
    """The first play of a seeded game of `game` challenged at once by the seats `places` seats after the
    claimant in turn order (the others accept); None when no seed gives a play that can be challenged."""
    if not game.rules.kind_names:
        return None
    for seed in range(SEEDS):
        witness = _try(game, seed, places)
        if witness is not None:
            return witness
    return None


def _try(game: Game, seed: int, places: tuple[int, ...]) -> Witness | None:
    st = dealt(game, seed, seed % game.players if game.rules.dealer_by_lot else 0)
    if st.phase is not Phase.PLAY or not st.count_play_actions():
        return None
    claimant = st.current_player()
    play: Play = st.sample_play(random.Random(seed))
    steps = [f"{claimant}: {action_text(game, play)}"]
    st.apply_action(play)
    if st.phase is not Phase.RESPOND:
        return None
    callers = tuple(sorted(game.rules.seat_after(claimant, d) for d in places))
    if len(set(callers)) < len(callers) or claimant in callers or not all(st.is_in(c) for c in callers):
        return None  # a seat the deal put out (sets dealt whole) is never asked: another seed
    call = Challenge(game.rules.kind_names[0])
    asked: list[int] = []  # the seats asked to respond, in turn, a step each after the play
    while st.phase is Phase.RESPOND:
        seat = st.current_player()
        action = call if seat in callers else ACCEPT
        asked.append(seat)
        steps.append(f"{seat}: {action_text(game, action)}")
        st.apply_action(action)
    said = (f"seat {claimant} plays {cards_text(game, play.cards)} as {claim_text(game, play.claim, play.count)}; "
            f"seats {seats_text(callers)} call it at once")
    if st.callers():
        summary = (f"seats {seats_text(callers)} call at once and the rules do not say whose call is heard "
                   "(whoever called first)")
        return Witness(PRIORITY, game.players, {"seed": seed, "dealer": st.dealer}, steps,
                       {"phase": "chance", "callers": list(callers)}, [said, "the lot must say who called first"],
                       summary)
    if not st.reveals():
        return None  # no call was heard (the game ended first): another seed
    r = st.reveals()[-1]
    unasked = [seat for seat in callers if seat not in asked]
    if unasked:  # offered in turn: the first challenge was heard before the others were asked
        said = (f"seat {claimant} plays {cards_text(game, play.cards)} as "
                f"{claim_text(game, play.claim, play.count)}; seat {r.challenger}, asked first, challenges")
        heard = f"seat {r.challenger}'s call is heard and seat {seats_text(tuple(unasked))} is never asked"
    else:
        heard = f"seat {r.challenger}'s call is heard, the seat the priority rule picks"
    return Witness(PRIORITY, game.players, {"seed": seed, "dealer": st.dealer}, steps,
                   {"challenger": r.challenger, "caught": r.caught}, [said, heard],
                   f"seats {seats_text(callers)} would call; {heard}")


def shown_places(n: int) -> tuple[int, ...]:
    """Two callers, not the claimant's left when the table allows (the left accepts first)."""
    return (2, 3) if n >= 4 else (1, 2)
