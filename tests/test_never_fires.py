"""Issue 21, point 2: "A rule shown never to fire becomes a check/verify warning ("passing.when can never
hold"), located, with a hint."

The model case is tests/fixtures/sound-pass-never.yaml: passing is allowed only with an empty hand, and a
seat still in always holds a card when its turn comes (one that empties its hand has won), so nobody ever
passes. The verifier shows it from the invariants proved of every reachable state (warning W506); a
condition some turn meets gets no warning, and neither does any shipped rulebook.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from cheatdsl.engine import CHANCE, Game
from cheatdsl.bots import make_bot
from cheatdsl.load import load_rulebook
from cheatdsl.profiles import shipped_names, shipped_path
from verifier.properties.firing import dead_rules

ROOT = Path(__file__).resolve().parents[1]
NEVER = ROOT / "tests" / "fixtures" / "sound-pass-never.yaml"


def _variant(tmp_path: Path, when: str) -> Path:
    """The fixture with another `passing.when`."""
    text = NEVER.read_text().replace("when: hand == 0", f"when: {when}")
    assert text != NEVER.read_text()
    path = tmp_path / "variant.yaml"
    path.write_text(text.split("\nexpect:")[0] + "\n")
    return path


def test_a_pass_condition_no_turn_meets_is_a_located_warning() -> None:
    """`passing.when: hand == 0` (line 23 of the fixture) can never hold: W506 there, at 4 players."""
    (dead,) = dead_rules(load_rulebook(str(NEVER)))
    assert dead.code == "W506" and dead.rule == "passing.when" and dead.players == (4,)
    assert dead.at.endswith("sound-pass-never.yaml:23:9"), dead.at
    assert "hand == 0" in dead.message and "can never hold" in dead.message and dead.hint


@pytest.mark.parametrize("when", ["hand >= 1", "hand > 2", "not leading"])
def test_a_pass_condition_some_turn_meets_gets_no_warning(tmp_path: Path, when: str) -> None:
    """Where a turn can meet the condition, the solver finds a state that does: no warning."""
    assert dead_rules(load_rulebook(str(_variant(tmp_path, when)))) == []


def test_the_interpreter_agrees_that_nobody_may_pass() -> None:
    """The proof against play: in seeded games of the fixture no seat to play is ever allowed to pass."""
    game = Game(load_rulebook(str(NEVER)), 4, turn_cap=400)
    turns = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state()
        bots = [make_bot("random", s, random.Random(seed * 10 + s)) for s in range(4)]
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_action(state.chance_outcome(rng))
                continue
            view = state.view(seat)
            if view.phase.name == "PLAY":
                turns += 1
                assert not view.may_pass
            state.apply_action(bots[seat].act(view))
    assert turns > 50


def test_no_shipped_rulebook_has_a_rule_that_never_fires() -> None:
    """Every shipped profile with a pass condition (Verish' ne verish' and its variations) keeps it alive."""
    asked = 0
    for name in shipped_names():
        rb = load_rulebook(str(shipped_path(name)))
        asked += rb.passing.allowed and rb.passing.when is not None
        assert dead_rules(rb) == [], name
    assert asked >= 1


def test_verify_prints_the_warning_and_keeps_its_exit_status(tmp_path: Path) -> None:
    """The warning is in the text report and in the JSON (`warnings`); it is not a problem of the run."""
    run = subprocess.run([sys.executable, "-m", "cheatdsl", "verify", str(NEVER), "--json", "--property",
                          "seat-fairness"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    data = json.loads(run.stdout)
    (entry,) = data["rulebooks"]
    assert [w["code"] for w in entry["warnings"]] == ["W506"]
    assert run.returncode == 0 and entry["problems"] == []
    text = subprocess.run([sys.executable, "-m", "cheatdsl", "verify", str(NEVER), "--property", "seat-fairness"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300).stdout
    assert "warning W506 at" in text and "hint:" in text
