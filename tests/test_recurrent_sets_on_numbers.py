"""The recurrent sets read on numbers agree with their Z3 facts.

Termination's witness of a game that can go on for ever is a set of states R (and its round set Q: in R, a
new round led, the stock empty) that play can stay in. The verifier asks the solver about R and Q as
formulas (`in_set`, `round_set`), and asks whether an interpreter state lies in them on its numbers
(`concrete_in_set`, `concrete_in_round_set`), as the lassos and replays do. Both must say the same of every
state: here, of the states met in seeded random games at every shipped table that has such sets.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import z3

from cheatdsl.engine import Game, Phase
from cheatdsl.load import compile_rulebook
from verifier.solving.solver import fresh_context
from verifier.properties import recurrence
from verifier.encoding.engine_state import constant, read
from verifier.encoding.spec import build_spec
from verifier.encoding.transitions import Builder
from verifier.properties.witness import dealt

ROOT = Path(__file__).resolve().parent.parent
TABLES = [("english-ascending.yaml", 3), ("bluffstopp.yaml", 3), ("mogeln.yaml", 4), ("canadian-bluff.yaml", 3),
          ("verish-ne-verish.yaml", 3), ("standard-up-or-down.yaml", 4)]


def _holds(facts: dict[str, z3.BoolRef]) -> bool:
    return all(z3.is_true(z3.simplify(f)) for f in facts.values())


def _walk(name: str, players: int) -> dict[str, int]:
    """Seeded random games at the table, each state met compared both ways; how many were in R and in Q."""
    rb = compile_rulebook(str(ROOT / "rulebooks" / name), (), lints=False)[0]
    assert rb is not None
    sp = build_spec(rb, players)
    game = Game(rb, players)
    fresh_context()
    seen = {"R": 0, "Q": 0, "states": 0}
    for seed in range(3):
        rng = random.Random(seed)
        st = dealt(game, seed, seed % players)
        for turn in range(300):
            if st.is_terminal():
                break
            if st.phase is Phase.PLAY and (turn % 3 == 0 or st.leading):
                values = read(sp, st)
                in_r = _holds(recurrence.in_set(Builder(sp), constant(sp, values)))
                in_q = _holds(recurrence.round_set(Builder(sp), constant(sp, values)))
                assert recurrence.concrete_in_set(sp, values) == in_r, (name, seed, turn)
                assert recurrence.concrete_in_round_set(sp, values) == in_q, (name, seed, turn)
                seen["states"] += 1
                seen["R"] += in_r
                seen["Q"] += in_q
            if st.phase is Phase.PLAY and st.count_play_actions() > 3000:
                st.apply_action(st.sample_play(rng))
            else:
                st.apply_action(rng.choice(st.legal_actions()))
    fresh_context()
    return seen


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_sets_on_numbers_agree_with_their_facts(name: str, players: int) -> None:
    assert _walk(name, players)["states"] >= 20


def test_the_sample_meets_states_in_both_sets() -> None:
    """A sample that never met a state of Q would test nothing of it: Bluffstopp's random games lead new
    rounds (any claim after a challenge) with an empty pile and nobody out, states of both sets."""
    seen = _walk("bluffstopp.yaml", 3)
    assert seen["R"] > 0 and seen["Q"] > 0
