"""Issue 23, "playouts by the compiled engine where it exists": the search bot's playouts on the kernel.

`CompiledPlayouts` plays `honest` bots on from a table the Python engine holds, by the same rules as
`PythonPlayouts`, so the value of a table agrees between the two within its sampling error; where the
kernel does not play the rules, every playout is the Python engine's.
"""

from __future__ import annotations

import importlib.util
import math
import os
import random
import tempfile
from pathlib import Path

import pytest

from cheatdsl.compiled.cache import sources_key

if importlib.util.find_spec("numba") is None:  # numba is optional: `pip install cheatdsl[compiled]`
    pytest.skip("numba is not installed", allow_module_level=True)
os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(tempfile.gettempdir()) / "cheatdsl-test-numba" / sources_key()))

from cheatdsl.bots import make_bot  # noqa: E402
from cheatdsl.bots.search_playout import PythonPlayouts  # noqa: E402
from cheatdsl.compiled.playouts import CompiledPlayouts  # noqa: E402
from cheatdsl.engine import CHANCE, Game, Phase, State  # noqa: E402
from cheatdsl.load import load_rulebook  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _midgame(game: Game, seed: int, decisions: int) -> State:
    """A table after `decisions` decisions of `honest` bots from the deal of `seed`."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    bots = [make_bot("honest", s, random.Random(seed * 7 + s)) for s in range(game.players)]
    done = 0
    while not state.is_terminal() and done < decisions:
        who = state.to_act
        if who == CHANCE:
            state.apply_action(state.chance_outcome(rng))
            continue
        state.apply_action(bots[who].act(state.view(who)))
        done += 1
    return state


def test_a_tables_value_agrees_with_the_python_playouts() -> None:
    """The same bots' rules on both engines: from tables in the middle of English ascending, of the
    up-or-down variant (a choice of claims), of Verish' Ne Verish' (rounds, sets, seats that leave, the
    last holder losing; passing in the skip variant), of one-rank-a-round (passing, the top card shown, a
    win at a turn's start; at two seats a Force challenge too), of Canadian bluff (wild jokers, forced sets)
    and of Bluffstopp (exact cards, a stock to draw from, a claim nothing may follow), at a turn's start and
    awaiting answers to a play, the mean value of 300 playouts of 80 decisions agrees with the Python engine's within four standard errors."""
    for name, players in (("english-ascending", 3), ("standard-up-or-down", 4), ("verish-ne-verish", 4),
                          ("verish-ne-verish-skip", 4), ("one-rank-a-round", 3), ("canadian-bluff-one-pack", 4),
                          ("bluffstopp", 3), ("one-rank-a-round", 2)):
        game = Game(load_rulebook(str(ROOT / "rulebooks" / f"{name}.yaml")), players)
        compiled = CompiledPlayouts()
        python = PythonPlayouts()
        for seed, decisions in ((1, 20), (2, 41), (3, 60)):
            start = _midgame(game, seed, decisions)
            assert not start.is_terminal()
            means = []
            for playouts in (compiled, python):
                rng = random.Random(seed)
                values = [playouts.value(start.clone(), 0, 80, rng) for _ in range(300)]
                mean = sum(values) / len(values)
                var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
                means.append((mean, var / len(values)))
            (a, va), (b, vb) = means
            assert abs(a - b) <= 4 * math.sqrt(va + vb) + 1e-9, (name, seed, a, b)
        assert compiled.compiled > 0


def test_a_table_the_kernel_refuses_plays_out_in_python() -> None:
    """A table the kernel refuses (a test fixture whose plays hold two cards or more): its playouts are the
    Python engine's, and give the same values from the same random numbers."""
    game = Game(load_rulebook(str(ROOT / "tests" / "fixtures" / "sound-two-card-plays.yaml")), 4)
    compiled = CompiledPlayouts()
    assert compiled.table(game) is None
    start = _midgame(game, 5, 30)
    a = [compiled.value(start.clone(), 1, 40, random.Random(i)) for i in range(20)]
    b = [PythonPlayouts().value(start.clone(), 1, 40, random.Random(i)) for i in range(20)]
    assert a == b and compiled.compiled == 0


def test_the_search_bot_plays_whole_games_with_compiled_playouts() -> None:
    """The search bot at one seat of English ascending, its playouts on the kernel, plays legal games to
    their end against `honest` bots."""
    game = Game(load_rulebook(str(ROOT / "rulebooks" / "english-ascending.yaml")), 4, turn_cap=2000)
    playouts = CompiledPlayouts()
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_initial_state()
        bots = [make_bot("search", s, random.Random(s), effort="low", playouts=playouts) if s == 0
                else make_bot("honest", s, random.Random(s)) for s in range(4)]
        while not state.is_terminal():
            who = state.to_act
            if who == CHANCE:
                state.apply_action(state.chance_outcome(rng))
                continue
            state.apply_action(bots[who].act(state.view(who)))
        assert state.result() is not None and state.phase is Phase.TERMINAL
    assert playouts.compiled > 0
