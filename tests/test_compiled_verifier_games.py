"""Issue 22, "the verifier's bot games use it too": games on the compiled kernel where the interpreter's show
nothing, each game shown replayed by the interpreter from the kernel's deal.

The verifier's rule: a refutation or a witness is a game the interpreter plays from a legal deal. A kernel
game counts only as the interpreter's replay of it: its witness starts from a deck the rules deal into the
kernel's hands (a scenario's `deck:`), and the scenario must pass.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

if importlib.util.find_spec("numba") is None:  # numba is optional: `pip install cheatdsl[compiled]`
    pytest.skip("numba is not installed", allow_module_level=True)

from cheatdsl.engine import Game  # noqa: E402
from cheatdsl.load import load_rulebook  # noqa: E402
from cheatdsl.scenario import run  # noqa: E402
from cheatdsl.simulate.engine import Engine  # noqa: E402
from verifier.properties.compiled_games import kernel_games  # noqa: E402
from verifier.properties.games import Found, play_games  # noqa: E402
from verifier.properties.witness import Witness, scenario_of  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _game(path: str, players: int) -> Game:
    return Game(load_rulebook(str(ROOT / path)), players)


def _passes(witness: Witness, path: str) -> bool:
    return run(scenario_of(witness.as_json(), str(ROOT / path))).passed


def _dealt_whole_deck(game: Game, deck: list[str]) -> bool:
    """The witness starts from the table's whole deck in some order, which the rules deal (issue 38 point 5)."""
    from cheatdsl.words.notation import parse_deck_card
    return Counter(parse_deck_card(game, c) for c in deck) == Counter(game.rules.table.deck)


def test_every_seat_wins_a_kernel_game_the_interpreter_replays() -> None:
    """Winnability ("for each seat, a game from a deal that the seat wins"): kernel games alone show a win
    for each of the four seats of the standard game, each a scenario from the kernel's deal that passes."""
    path = "rulebooks/standard.yaml"
    game = _game(path, 4)
    found = Found()
    kernel_games(game, {"wins"}, found)
    assert sorted(found.wins) == [0, 1, 2, 3]
    for seat, witness in found.wins.items():
        assert "deck" in witness.start and "compiled engine" in witness.summary
        assert _dealt_whole_deck(game, witness.start["deck"])
        assert witness.expect["winner"] == seat
        assert _passes(witness, path)
        wrong = Witness.from_json({**witness.as_json(), "expect": {**witness.expect, "winner": (seat + 1) % 4}})
        assert not _passes(wrong, path)  # the scenario judges the replayed game: another winner fails


def test_a_stuck_kernel_game_refutes_no_deadlock_when_replayed() -> None:
    """No-deadlock ("the seat to play always has a legal action"): in the dead-end fixture nothing follows
    kings and passing is not allowed, so a kernel game stops stuck; the interpreter's replay of its deal
    shows the seat with no legal action."""
    path = "tests/fixtures/dead-end-claims.yaml"
    game = _game(path, 3)
    found = Found()
    kernel_games(game, {"stuck"}, found)
    witness = found.witnesses["stuck"]
    assert witness.property == "no-deadlock" and "no legal action" in witness.summary
    assert _passes(witness, path)


def test_the_engine_setting_keeps_the_verifier_on_the_interpreter() -> None:
    """`--engine python`: with no interpreter games allowed, nothing is found; `auto` finds the wins on the
    kernel."""
    game = _game("rulebooks/standard.yaml", 3)
    assert play_games(game, ("wins",), games=0, engine=Engine.PYTHON).wins == {}
    assert sorted(play_games(game, ("wins",), games=0, engine=Engine.AUTO).wins) == [0, 1, 2]


def test_kernel_games_stay_out_where_the_kernel_does_not_play_the_rules() -> None:
    """A rule the kernel refuses (an empty hand that counts before the challenge window closes): nothing
    is played on it, and the interpreter's games stay the only ones."""
    game = _game("tests/fixtures/sound-out-at-turn-start.yaml", 3)
    found = Found()
    kernel_games(game, {"wins", "stuck"}, found)
    assert found.games == 0 and not found.wins and not found.witnesses


def test_verify_takes_the_engine_option() -> None:
    """`cheatdsl verify --engine python` runs; an engine the verifier does not offer is a usage error."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "cheatdsl", "verify", str(ROOT / "tests/fixtures/dead-end-claims.yaml"),
           "--property", "no-deadlock", "--players", "3"]
    ok = subprocess.run([*cmd, "--engine", "python"], capture_output=True, text=True, env=env, timeout=120)
    assert ok.returncode == 0 and "no-deadlock" in ok.stdout and "refuted" in ok.stdout
    bad = subprocess.run([*cmd, "--engine", "compiled"], capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr and "Traceback" not in bad.stderr


def test_a_position_that_is_not_a_deal_is_never_a_witness_start() -> None:
    """"A game from a legal deal": a kernel deal is taken only as the interpreter would deal it. The standard
    game's deal as the kernel made it passes; with a card moved from one hand to another, or one card gone,
    or a card on the pile, it does not."""
    from dataclasses import replace

    from cheatdsl.compiled.replay import play_logged, start_of
    from cheatdsl.compiled.run import CompiledTable
    from verifier.properties.compiled_games import dealt_like_the_interpreter
    game = _game("rulebooks/standard.yaml", 4)
    table = CompiledTable(Game(game.rulebook, 4, turn_cap=500, rules=game.rules), ["greedy"] * 4, 0, 0.15)
    position = start_of(game, play_logged(table, 0))
    assert position is not None and dealt_like_the_interpreter(game, position)
    hands = [list(h) for h in position.hands]
    hands[1].append(hands[0].pop())
    assert not dealt_like_the_interpreter(game, replace(position, hands=tuple(map(tuple, hands))))
    assert not dealt_like_the_interpreter(game, replace(position, hands=(position.hands[0][1:], *position.hands[1:])))
    assert not dealt_like_the_interpreter(game, replace(position, hands=(position.hands[0][1:], *position.hands[1:]),
                                                       pile=position.hands[0][:1]))
    # Four cards of seat 0 laid aside, as where a set leaves at the deal: a position cannot show it put out.
    assert not dealt_like_the_interpreter(game, replace(position, hands=(position.hands[0][4:], *position.hands[1:]),
                                                       aside=position.aside + position.hands[0][:4]))
