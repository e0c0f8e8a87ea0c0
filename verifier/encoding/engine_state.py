"""The interpreter's states and turns in the verifier's terms: a played position as constant Z3 facts,
a turn as the encoding's step.

Used to start a search from a real deal, to test whether a dealt state lies in a recurrent set, and
by the agreement checks (tests/verifier_steps.py): every interpreter turn is a step of the transition
relation giving the interpreter's next state, and every step the relation allows from a played state
is a turn the interpreter allows (`replay_move`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3

from cheatdsl.engine import ACCEPT as ACCEPT_ACTION
from cheatdsl.engine import KEEP, Challenge, DiscardSet, Ending, Game, IllegalAction, Pass, Phase, Play
from cheatdsl.engine import PASS as PASS_ACTION
from cheatdsl.engine import Action as EngineAction
from cheatdsl.engine import State as EngineState
from cheatdsl.words.notation import refusal_text

from .spec import FIRST, FOLLOW, LEAD, Spec
from .state import State, fresh, num
from .transitions import ACCEPT, CHALLENGE, PASS, Action

Values = dict[str, Any]


def _counts(spec: Spec, cards: Any) -> list[int]:
    c = Counter(cards)
    return [c.get(v, 0) for v in spec.live]


def read(spec: Spec, st: EngineState) -> Values:
    """The facts of an interpreter state, named as `State.items()` names them (full spec only)."""
    g: Game = st.game
    n = spec.n
    out: Values = {}
    for seat in range(n):
        for i, k in enumerate(_counts(spec, st.hand_cards(seat))):
            out[f"h{seat}_{i}"] = k
    sets: Counter[int] = Counter()
    nsets = [0] * len(spec.rules.ranks_in_play)
    for _, rank, cards in st.discarded_sets():
        sets.update(cards)
        if rank in spec.rules.ranks_in_play:
            nsets[spec.rules.ranks_in_play.index(rank)] += 1
    places: list[tuple[str, Any]] = [("pile", st.pile_cards()), ("stock", st.stock()), ("aside", st.aside()),
                                     ("gone", st.gone()), ("sets", list(sets.elements()))]
    for name, cards in places:
        for i, k in enumerate(_counts(spec, cards)):
            out[f"{name}{i}"] = k
    for r, k in enumerate(nsets):
        out[f"nsets{r}"] = k
    for seat in range(n):
        out[f"inn{seat}"] = st.is_in(seat)
    prev = st.previous
    out["prev"] = -1 if prev is None else spec.claim_index[prev]
    required = frozenset(spec.claim_index[c] for c in st.required_claims())
    if st.leading and prev is None and required == spec.req_sets[spec.required.first]:
        mode = FIRST
    elif st.leading:
        mode = LEAD
    else:
        mode = FOLLOW
    out["mode"] = mode
    actor = st.current_player()
    out["actor"] = actor if actor >= 0 else 0
    out["passes"] = st.passes
    last = st.last_player
    out["last"] = -1 if last is None else last
    out["turns"] = st.turns
    out["dealer"] = st.dealer or 0
    result = st.result()
    order = st.order_out()
    if result is not None and not result.capped:
        out["winner"] = -1 if result.winner is None else result.winner
        out["loser"] = -1 if result.loser is None else result.loser
    else:  # the encoding's winner is the first seat out, also in a game stopped before its end
        out["winner"] = order[0] if order and not g.rules.first_out else -1
        out["loser"] = -1
    out["leading"] = st.leading
    out["over"] = st.phase is Phase.TERMINAL
    out["capped"] = bool(result and result.capped)
    out["stuck"] = bool(result and result.ending is Ending.NO_LEGAL_ACTION)
    out["nodef"] = False
    for card in spec.held:
        holder = st.holders.get(card)
        out[f"holder{card}"] = -1 if holder is None else holder
    out["open"] = spec.rules.window_through_passes and st.window_open
    # The open play's cards and the count called (the newest play on the pile), zero when none is open.
    top: tuple[int, ...] = ()
    out["topcount"] = 0
    if out["open"]:
        _, top, _, out["topcount"], _ = st.pile_plays()[-1]
    for i, k in enumerate(_counts(spec, top)):
        out[f"top{i}"] = k
    # Facts the rules cannot change are constants of the encoding.
    if not spec.rules.may_pass:
        out["passes"], out["last"] = 0, -1
    if spec.turn_limit is None:
        out["turns"] = 0
    if spec.rules.first_out:  # the first seat out ends the game, so no seat leaves one that goes on
        out["loser"] = -1
        out.update({f"inn{seat}": True for seat in range(n)})
    return out


def constant(spec: Spec, values: Values) -> State:
    """A state whose every fact is the constant in `values`."""
    template = fresh(spec, "c")
    s = template.copy()
    flat = {}
    for _, name, term in template.items():
        v = values.get(name, 0)
        flat[name] = z3.BoolVal(bool(v)) if z3.is_bool(term) else z3.IntVal(int(v))
    s.h = [[flat[f"h{q}_{i}"] for i in range(spec.width)] for q in range(spec.n)]
    for name in ("pile", "stock", "aside", "gone", "sets", "top"):
        setattr(s, name, [flat[f"{name}{i}"] for i in range(spec.width)])
    s.nsets = [flat[f"nsets{r}"] for r in range(len(template.nsets))]
    s.inn = [flat[f"inn{q}"] for q in range(spec.n)]
    for name in ("prev", "mode", "actor", "passes", "last", "turns", "dealer", "winner", "loser", "topcount",
                 "leading", "over", "capped", "stuck", "nodef", "open"):
        setattr(s, name, flat[name])
    s.holder = {card: flat[f"holder{card}"] for card in spec.held}
    return s


def merged_values(full: Spec, merged: Spec, keep: tuple[int, ...], values: Values) -> Values:
    """`values` of the full game as facts of the merged game (classes summed)."""
    out = dict(values)
    classes = [[i] for i in keep]
    rest = [i for i in range(full.width) if i not in keep]
    if rest or not classes:
        classes.append(rest)
    prefixes = [f"h{q}_" for q in range(full.n)] + ["pile", "stock", "aside", "gone", "sets", "top"]
    for p in prefixes:
        for c, members in enumerate(classes):
            out[f"{p}{c}"] = sum(values.get(f"{p}{i}", 0) for i in members)
    out["nsets0"] = sum(values.get(f"nsets{r}", 0) for r in range(len(full.rules.ranks_in_play)))
    if merged.claims != full.claims:
        out["prev"] = -1 if values["prev"] < 0 else 0
    return out


# -- turns as steps ------------------------------------------------------------------------------------

@dataclass
class Turn:
    """One interpreter turn as the encoding's step: a pass, or a play accepted by all, or a play challenged
    by `challenger` (-1: nobody) with the kind named `test`, found a lie or not (`caught`); the cards the
    loser drew from the stock and the sets it chose to discard (by rank). A pass whose `challenger` is a
    seat was followed by a challenge of the last play, still open to one."""

    kind: int
    play: Play | None = None
    challenger: int = -1
    test: str = ""
    caught: bool | None = None
    drawn: Counter[int] = field(default_factory=Counter)
    discards: Counter[int] = field(default_factory=Counter)


def play_turn(st: EngineState, choose: Callable[[EngineState], EngineAction]) -> Turn:
    """Play one turn from the play phase, each action `choose(st)` (a chance action too, where the rules
    draw lots during a turn), up to the next play phase or the end."""
    if st.phase is not Phase.PLAY:
        raise ValueError(f"a turn starts in the play phase, not {st.phase.value}")
    stock, reveals = Counter(st.stock()), st.reveal_count()
    first = choose(st)
    st.apply_action(first)
    turn = Turn(PASS) if isinstance(first, Pass) else Turn(ACCEPT, play=first)  # type: ignore[arg-type]
    while st.phase is not Phase.PLAY and st.phase is not Phase.TERMINAL:
        action = choose(st)
        st.apply_action(action)
        if isinstance(action, DiscardSet):
            turn.discards[action.rank] += 1
    if st.reveal_count() > reveals:
        record = st.reveal(reveals)
        turn.challenger, turn.test, turn.caught = record.challenger, record.kind, record.caught
        if turn.play is not None:
            turn.kind = CHALLENGE
    turn.drawn = stock - Counter(st.stock())
    return turn


def action_of(spec: Spec, turn: Turn) -> Action:
    """The encoding's choices for `turn`, as Z3 numerals."""
    names = [kind.name for kind in spec.rules.kinds]
    test = num(names.index(turn.test) if turn.test else 0)
    if turn.play is None:
        zeros = [num(0)] * spec.width
        return Action(num(turn.kind), zeros, num(0), num(0), num(turn.challenger), test,
                      [num(turn.drawn.get(v, 0)) for v in spec.live],
                      [num(turn.discards.get(r, 0)) for r in spec.rules.ranks_in_play])
    cards = Counter(turn.play.cards)
    return Action(num(turn.kind), [num(cards.get(v, 0)) for v in spec.live], num(spec.claim_index[turn.play.claim]),
                  num(turn.play.count), num(turn.challenger), test,
                  [num(turn.drawn.get(v, 0)) for v in spec.live],
                  [num(turn.discards.get(r, 0)) for r in spec.rules.ranks_in_play])


def replay_move(spec: Spec, st: EngineState, move: dict[str, Any], rng: random.Random) -> Turn | str:
    """The encoding's step `move` played by the interpreter on `st` (changed in place): the turn it made,
    or why the interpreter refuses it. The challenger is the one seat that calls; lots the rules draw
    during the turn are drawn with `rng`."""
    stock, reveals = Counter(st.stock()), st.reveal_count()
    # A pass may be followed by a challenge of the last play, still open (`window: before_next_play`).
    calling = move["kind"] == CHALLENGE or (move["kind"] == PASS and move["challenger"] >= 0)
    test = spec.rules.kinds[move["test"]].name if calling else ""
    if move["kind"] == PASS:
        why = _try(st, PASS_ACTION)
        if why is not None:
            return f"refuses the pass: {why}"
        turn = Turn(PASS)
        # Where the pass leaves no play open (none was, or every seat has now passed), a challenger names
        # no one in the encoding either: the step is a plain pass.
        calling = calling and st.phase is Phase.RESPOND
    else:
        cards = tuple(sorted(v for v, k in zip(spec.live, move["cards"]) for _ in range(k)))
        play = Play(cards, spec.claims[move["claim"]], move["count"])
        why = _try(st, play)
        if why is not None:
            return f"refuses the play {play}: {why}"
        turn = Turn(move["kind"], play=play)
    while st.phase is Phase.RESPOND or st.is_chance_node():
        if st.is_chance_node():
            st.apply_action(st.chance_outcome(rng))
            continue
        seat = st.current_player()
        calls = calling and seat == move["challenger"]
        why = _try(st, Challenge(test) if calls else ACCEPT_ACTION)
        if why is not None:
            return f"refuses seat {seat}'s {f'challenge `{test}`' if calls else 'accepting'}: {why}"
    if calling and (st.reveal_count() == reveals or st.reveal(reveals).challenger != move["challenger"]):
        return f"never hears seat {move['challenger']} challenge"
    for rank, k in zip(spec.rules.ranks_in_play, move["discards"]):
        for _ in range(k):
            why = _try(st, DiscardSet(rank))
            if why is not None:
                return f"refuses a set of rank {rank}: {why}"
            turn.discards[rank] += 1
    if st.phase is Phase.DISCARD:
        why = _try(st, KEEP)
        if why is not None:
            return f"refuses keeping the other sets: {why}"
    if st.phase is not Phase.PLAY and st.phase is not Phase.TERMINAL:
        return f"is left in the {st.phase.value} phase after the step"
    if calling:
        turn.challenger, turn.test, turn.caught = move["challenger"], test, st.reveal(reveals).caught
    turn.drawn = stock - Counter(st.stock())
    return turn


def _try(st: EngineState, action: EngineAction) -> str | None:
    """Apply `action`; why the interpreter refuses it, or None."""
    try:
        st.apply_action(action)
    except IllegalAction as exc:
        return refusal_text(exc)
    return None
