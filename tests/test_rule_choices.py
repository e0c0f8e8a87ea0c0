"""A rule with alternatives is tested by scenarios that fail when the other choice is played.

Each scenario below checks one value of a rule; run against a copy of its rulebook that makes the other
choice (written under tmp_path, extending the scenario's own shipped rulebook), it must fail: a scenario that
passes either way does not test the rule it names.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cheatdsl.engine import ACCEPT, Challenge, Game, Phase
from cheatdsl.load import compile_rulebook
from cheatdsl.scenario import Scenario, run_scenario
from cheatdsl.scenario.runner import _rulebook_path

HERE = Path(__file__).resolve().parent
SCENARIOS = HERE / "scenarios"
RULEBOOKS = HERE.parent / "rulebooks"
PRIORITIES = ("first_clockwise", "first_caller", "offered_in_turn")

# (scenario, the rule's field in `challenge`, the value the scenario checks)
CHOICES = [
    ("english-ascending/000-s04-first-challenger-clockwise.yaml", "priority", "first_clockwise"),
    ("standard/001-r7-double-challenge-nearest-left.yaml", "priority", "first_clockwise"),
    ("full-rules/002-several-call-first-caller-counts.yaml", "priority", "first_caller"),
    ("practice-table/003-first-challenge-resolves.yaml", "priority", "offered_in_turn"),
    ("one-rank-a-round/001-window-stays-open-through-a-pass.yaml", "window", "before_next_play"),
    ("one-rank-a-round/house-count-of-three-a-pass-does-not-reopen.yaml", "window", "count_of_three"),
]
OTHERS = {"priority": PRIORITIES, "window": ("before_next_play", "count_of_three")}


def _with_choice(scenario_path: Path, field: str, value: str, tmp_path: Path) -> Path:
    """A copy of the scenario pointed at a copy of its rulebook with `challenge.<field>: value`."""
    scenario = Scenario.load(str(scenario_path))
    original = _rulebook_path(scenario)
    assert isinstance(original, Path), original
    base = original.stem
    if original.parent != RULEBOOKS:  # a house rule beside the scenario: copied, to be extended from its folder
        base = f"base-{original.name}"
        (tmp_path / base).write_text(original.read_text(encoding="utf-8"), encoding="utf-8")
    rulebook = tmp_path / f"other-{field}-{value}.yaml"
    rulebook.write_text(f"rulebook: other-{field}-{value}\nsource: \"a copy with another {field}\"\n"
                        f"extends: {base}\nchallenge:\n  {field}: {value}\n", encoding="utf-8")
    scenario.rulebook = rulebook.name
    scenario.path = str(tmp_path / scenario_path.name)
    scenario.save(scenario.path)
    return Path(scenario.path)


@pytest.mark.parametrize(("name", "field", "value"), CHOICES, ids=[c[0] for c in CHOICES])
def test_the_scenario_holds_with_its_choice(name: str, field: str, value: str) -> None:
    path = SCENARIOS / name
    rulebook = _rulebook_path(Scenario.load(str(path)))
    assert isinstance(rulebook, Path)
    compiled, _ = compile_rulebook(str(rulebook))
    assert compiled is not None
    assert getattr(compiled.challenge, field).value == value
    result = run_scenario(str(path))
    assert result.passed, result.render()


@pytest.mark.parametrize(("name", "field", "value", "other"),
                         [(n, f, v, o) for n, f, v in CHOICES for o in OTHERS[f] if o != v],
                         ids=lambda x: str(x))
def test_the_scenario_fails_with_the_other_choice(name: str, field: str, value: str, other: str,
                                                  tmp_path: Path) -> None:
    path = _with_choice(SCENARIOS / name, field, other, tmp_path)
    result = run_scenario(str(path))
    assert not result.diagnostics.has_errors(), result.render()
    assert result.failures, f"{name} passes with `challenge.{field}: {other}`: it does not test `{value}`"


def test_the_nearest_left_ruling_fails_on_the_standard_sheet(tmp_path: Path) -> None:
    """Seed 001, Table rulings row 7: the sheet itself hears whoever called first, so two calls at once
    are settled by nothing the scenario says, and the runner says exactly that."""
    scenario = Scenario.load(str(SCENARIOS / "standard/001-r7-double-challenge-nearest-left.yaml"))
    scenario.rulebook = "standard"
    result = scenario.run()
    assert not result.passed
    assert "seats 2 and 3 call at once and the rules do not say whose call is heard" in result.render()
    assert 'chance: seat 2 called first' in result.render()


def _standard(priority: str, players: int = 4) -> Game:
    rulebook, _ = compile_rulebook(str(RULEBOOKS / "standard.yaml"))
    assert rulebook is not None
    import dataclasses

    from cheatdsl.model import Priority
    rulebook = dataclasses.replace(rulebook, challenge=dataclasses.replace(rulebook.challenge,
                                                                           priority=Priority(priority)))
    return Game(rulebook, players)


@pytest.mark.parametrize("priority", ["first_clockwise", "first_caller"])
def test_calls_at_once_are_not_seen_before_every_responder_answers(priority: str) -> None:
    """Calls made at once (`first_clockwise`, `first_caller`): a responder's view and observation are
    the same whether an earlier responder accepted or challenged."""
    game = _standard(priority)
    seen = []
    for first in (ACCEPT, Challenge(game.rules.kind_names[0])):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcome(__import__("random").Random(3)))
        state.apply_action(state.legal_actions()[0])
        assert state.phase is Phase.RESPOND
        state.apply_action(first)
        later = state.current_player()
        view = state.view(later)
        seen.append((view.snapshot(), state.observation(later)))
    assert seen[0] == seen[1]


def test_offered_in_turn_shows_the_first_challenge_at_once() -> None:
    """`offered_in_turn`: the first challenge is heard at once; the next responder is never asked."""
    game = _standard("offered_in_turn")
    state = game.new_initial_state()
    rng = __import__("random").Random(3)
    while state.is_chance_node():
        state.apply_action(state.chance_outcome(rng))
    state.apply_action(state.legal_actions()[0])
    state.apply_action(Challenge(game.rules.kind_names[0]))
    assert state.phase is not Phase.RESPOND and len(state.reveals()) == 1


def _priority_witness(profile: str, tmp_path: Path) -> Path:
    from cheatdsl.cli import main
    folder = tmp_path / profile
    assert main(["verify", profile, "-p", "challenge-priority", "--save-witnesses", str(folder)]) == 0
    (path,) = sorted(folder.glob("*.yaml"))
    return path


def test_a_first_caller_refutation_replays_as_two_calls_no_rule_settles(tmp_path: Path) -> None:
    """The standard sheet (seed 001, the project's choice `first_caller`): `challenge-priority` is refuted,
    and its witness is a game in which two seats call at once and only a lot can say who is heard. The
    saved scenario expects exactly that; without that expectation the runner says the scenario must
    name who called first."""
    path = _priority_witness("standard", tmp_path)
    scenario = Scenario.load(str(path))
    assert scenario.expect["phase"] == "chance" and len(scenario.expect["callers"]) == 2
    assert run_scenario(str(path)).passed
    del scenario.expect["callers"]
    result = scenario.run()
    assert not result.passed
    assert "call at once and the rules do not say whose call is heard" in result.render()


def test_a_proved_priority_shows_the_seat_it_picks(tmp_path: Path) -> None:
    """Seed 001 row 7 (first clockwise): the verifier's game has two seats calling at once, and the one
    heard is the nearer to the claimant's left in turn order."""
    path = _priority_witness("standard-nearest-left", tmp_path)
    scenario = Scenario.load(str(path))
    assert run_scenario(str(path)).passed
    claimant = int(scenario.actions[0].split(":")[0])
    rulebook = _rulebook_path(scenario)
    assert isinstance(rulebook, Path)
    compiled, _ = compile_rulebook(str(rulebook))
    assert compiled is not None
    game = Game(compiled, scenario.players)
    order = [game.rules.seat_after(claimant, d) for d in range(1, game.players)]
    callers = [int(a.split(":")[0]) for a in scenario.actions[1:] if a.endswith("challenge")]
    heard = scenario.expect["challenger"]
    assert len(callers) == 2 and heard == min(callers, key=order.index)
