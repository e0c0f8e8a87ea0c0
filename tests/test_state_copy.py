"""A state's copy (`State.clone`): the written-out copy the engine uses is the plain slot-by-slot
copy, on every slot, and a copy shares no list the game changes in place."""

from __future__ import annotations

import random

from cheatdsl.engine import Action, Game, State, TooManyActions
from cheatdsl.engine.state import _COPIED as COPIED
from cheatdsl.engine.state import _SHARED
from cheatdsl.engine.state import _copy_plain as copy_plain
from cheatdsl.engine.state import _copy_written_out as copy_written_out
from cheatdsl.load import load_rulebook


def _any_action(st: State, rng: random.Random) -> Action:
    if st.is_chance_node():
        return st.chance_outcome(rng)
    try:
        return rng.choice(st.legal_actions())
    except TooManyActions:
        return st.sample_play(rng)


def _states() -> list[State]:
    out = []
    for name, n in (("standard", 3), ("canadian-bluff", 4), ("bluffstopp", 3)):
        game = Game(load_rulebook(name), n)
        rng = random.Random(n)
        st = game.new_initial_state()
        for _ in range(60):
            if st.is_terminal():
                break
            out.append(st.clone())
            st.apply_action(_any_action(st, rng))
    return out


def test_the_written_out_copy_is_the_plain_copy_on_every_slot() -> None:
    assert set(_SHARED) | set(COPIED) | {"_hands", "_history"} == set(State.__slots__)
    for st in _states():
        plain, written = State.__new__(State), State.__new__(State)
        copy_plain(st, plain, _SHARED)
        copy_written_out(st, written)
        for name in (*_SHARED, *COPIED):
            assert getattr(written, name) == getattr(plain, name) == getattr(st, name), name
            if name in COPIED:
                assert getattr(written, name) is not getattr(st, name), name


def test_a_copy_plays_on_without_touching_the_original() -> None:
    for st in _states()[::7]:
        if st.is_terminal() or st.is_chance_node():
            continue
        before = st.position(True, True)
        other = st.clone()
        other.apply_action(_any_action(st, random.Random(0)))
        assert st.position(True, True) == before
