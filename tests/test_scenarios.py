"""Every scenario under tests/scenarios passes; scenario files are read, written and reported well.

The scenarios are the table rulings and worked examples of the seeds (rules-catalogue section 4
and seed 001's table rulings); each file names its seed sentence in `source:`.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from cheatdsl.cli import main
from cheatdsl.commands.scenario import scenario_files
from cheatdsl.diagnostics import Diagnostics
from cheatdsl.engine import Game, Position
from cheatdsl.load import compile_rulebook
from cheatdsl.scenario import Scenario, ScenarioError, run_scenario
from cheatdsl.scenario.runner import load_game_rulebook, position_notation, scenario_from_game

HERE = Path(__file__).resolve().parent
SCENARIOS = HERE / "scenarios"
RULEBOOKS = HERE.parent / "rulebooks"
FILES = scenario_files([str(SCENARIOS)])


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(Path(p).relative_to(SCENARIOS)))
def test_scenario(path: str) -> None:
    result = run_scenario(path)
    assert result.passed, result.render()


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 60


def _comparable(rulebook: object) -> object:
    return dataclasses.replace(rulebook, name="", title="", source="", expectations=())  # type: ignore[type-var]


def test_every_shipped_rulebook_has_a_scenario() -> None:
    """Like golden playthroughs: a shipped rulebook that no scenario plays is a gap to fill."""
    played = []
    for path in FILES:
        scenario = Scenario.load(path)
        rulebook = load_game_rulebook(scenario, Diagnostics())
        if rulebook is not None:
            played.append(_comparable(rulebook))
    missing = []
    for path in sorted(RULEBOOKS.iterdir()):
        if path.suffix not in (".yaml", ".cheat"):
            continue
        rulebook, _ = compile_rulebook(str(path))
        if rulebook is not None and _comparable(rulebook) not in played:
            missing.append(path.name)
    assert not missing, f"no scenario plays {', '.join(missing)}"


# --- the file format ------------------------------------------------------------------------------


def test_a_scenario_writes_and_reads_back(tmp_path: Path) -> None:
    original = Scenario.load(str(SCENARIOS / "english-ascending" / "000-s06-a-correct-challenge.yaml"))
    copy = dataclasses.replace(original, rulebook=str(RULEBOOKS / "english-ascending.yaml"))
    target = tmp_path / "copy.yaml"
    copy.save(str(target))
    again = Scenario.load(str(target))
    assert (again.name, again.players, again.position, again.actions, again.expect) == \
        (copy.name, copy.players, copy.position, copy.actions, copy.expect)
    assert run_scenario(str(target)).passed


def test_a_played_game_becomes_a_scenario(tmp_path: Path) -> None:
    """The verifier's counterexamples are written as scenarios and replayed."""
    import random

    from test_engine import random_step
    rulebook, _ = compile_rulebook(str(RULEBOOKS / "english-ascending.yaml"))
    assert rulebook is not None
    state = Game(rulebook, 3, turn_cap=40).new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        random_step(state, rng)
    sizes = {seat: state.hand_size(seat) for seat in range(3)}
    scenario = scenario_from_game(state, "a random game replayed", str(RULEBOOKS / "english-ascending.yaml"),
                                  expect={"hand_sizes": sizes, "pile": state.pile_size()})
    target = tmp_path / "replay.yaml"
    scenario.save(str(target))
    result = run_scenario(str(target))
    assert result.passed, result.render()
    assert result.steps == len(scenario.actions)


def test_a_position_becomes_a_scenario(tmp_path: Path) -> None:
    rulebook, _ = compile_rulebook(str(RULEBOOKS / "mogeln.yaml"))
    assert rulebook is not None
    game = Game(rulebook, 4)
    position = Position(hands=((13,), (1, 2), (3, 4), (5, 6)), to_play=0, previous=0, dealer=3)
    scenario = Scenario(name="the two of hearts", rulebook=str(RULEBOOKS / "mogeln.yaml"), players=4,
                        position=position_notation(game, position),
                        actions=["0: play AC as the two of hearts", "1: challenge", "2: accept", "3: accept"],
                        expect={"caught": True, "hand_sizes": {0: 1}})
    target = tmp_path / "position.yaml"
    scenario.save(str(target))
    assert "AC" in target.read_text()
    result = run_scenario(str(target))
    assert result.passed, result.render()


BAD = [
    ("scenario: [\n", "E010", "malformed YAML"),
    ("- 1\n", "S010", "a scenario file is a mapping"),
    ("scenario: x\nrulebook: english-ascending\nplayers: 3\nseed: 1\nexpect: {hand_size: 3}\n", "S011",
     "did you mean `hand_sizes`"),
    ("scenario: x\nrulebook: english-ascending\nplayers: 3\n", "S012", "neither `seed:`, `deck:` nor `position:`"),
    ("scenario: x\nrulebook: nowhere\nplayers: 3\nseed: 1\n", "S020", "no rulebook"),
    ("scenario: x\nrulebook: english-ascending\nplayers: 9\nseed: 1\n", "S022", "not 9"),
    ("scenario: x\nrulebook: english-ascending\nplayers: 3\nposition: {hands: {0: [7X], 1: [], 2: []}, to_play: 0}\n",
     "S031", "`7X` is not a card"),
    ("scenario: x\nrulebook: english-ascending\nplayers: 3\nposition: {hands: {0: [7C]}, to_play: 0}\n",
     "S031", "no cards for seat 1"),
    ("scenario: x\nrulebook: english-ascending\nplayers: 3\nseed: 1\nactions: [\"0: dance\"]\n", "S105",
     "not an action"),
    ("scenario: x\nrulebook: english-ascending\nplayers: 3\nseed: 1\nexpect: {hands: {5: []}}\n", "S106",
     "no seat 5"),
    ("scenario: x\nrulebook: english-ascending\nplayers: 3\nseed: 1\nposition: {hands: {}, to_play: 0}\n", "S013",
     "not `seed:` and `position:`"),
    ("scenario: x\nrulebook: english-ascending\nplayers: 3\ndeck: [AC, AC]\n", "S031",
     "not this table's deck in some order"),
    ("scenario: x\nrulebook: english-ascending\nplayers: 3\ndeck: [AC, 7X]\n", "S031", "`7X` is not a card"),
    ("scenario: x\nsource: cheatdsl verify, termination\nrulebook: english-ascending\nplayers: 3\n"
     "position: {hands: {0: [7C], 1: [8C], 2: [9C]}, to_play: 0}\n", "S032", "starts from a deal by the rules"),
]


@pytest.mark.parametrize("text,code,words", BAD, ids=[b[1] + ":" + b[2] for b in BAD])
def test_a_bad_scenario_file_gets_a_located_diagnostic(tmp_path: Path, text: str, code: str, words: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    result = run_scenario(str(path))
    assert not result.passed
    rendered = result.render()
    assert f"error[{code}]" in rendered and words in rendered, rendered
    assert f"{path}:" in rendered
    with pytest.raises(ScenarioError) if code in ("E010", "S010", "S011", "S012", "S013") else _nothing():
        Scenario.load(str(path))


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return False


FAILING = """scenario: a ruling that does not hold
rulebook: {rulebook}
players: 3
position:
  hands: {{0: [7C, KD], 1: [8H], 2: [9S]}}
  pile: [2S, 3S, 4S, 5S, 6S]
  to_play: 0
  previous: sixes
actions:
  - "0: play 7C KD as 2 sevens"
  - "1: challenge"
  - "2: accept"
expect:
  hand_sizes: {{0: 8}}
"""


def test_the_command_reports_failures_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "fails.yaml"
    bad.write_text(FAILING.format(rulebook=RULEBOOKS / "english-ascending.yaml"))
    assert main(["scenario", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL {bad}" in out
    assert f"{bad}:14:" in out and "hand_sizes.0" in out
    assert "expected: 8" in out and "actual:   7" in out


def test_the_command_passes_a_directory_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "-q", str(SCENARIOS / "english-ascending")]) == 0
    assert "passed, 0 failed" in capsys.readouterr().out  # the tally is a result: standard output


def test_a_refusal_with_another_reason_fails(tmp_path: Path) -> None:
    path = tmp_path / "refused.yaml"
    path.write_text(f"""scenario: refusals must say why
rulebook: {RULEBOOKS / 'english-ascending.yaml'}
players: 3
position: {{hands: {{0: [7C], 1: [8H], 2: [9S]}}, to_play: 0, previous: sixes}}
actions: ["0: pass"]
expect: {{refused: "not your turn"}}
""")
    result = run_scenario(str(path))
    assert not result.passed
    assert "passing is not allowed" in result.render()


def test_an_engine_failure_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A bug of cheatdsl's own shows as error[S900] and exit status 3, never a traceback."""
    def broken(self: object, position: object) -> None:
        raise RuntimeError("boom")
    monkeypatch.delenv("CHEATDSL_DEBUG", raising=False)
    monkeypatch.setattr(Game, "state_from_position", broken)
    path = str(SCENARIOS / "english-ascending" / "000-s06-a-correct-challenge.yaml")
    result = run_scenario(path)
    assert result.internal_error and "RuntimeError: boom" in result.render()
    assert main(["scenario", path]) == 3
    capsys.readouterr()


@pytest.mark.parametrize("body, message", [
    ("position: {hands: {0: [2C], 1: [3C], 2: [4C]}, to_play: null}\n", "`to_play` names the seat"),
    ("position: {hands: {0: [2C], 1: [3C], 2: [4C]}, to_play: 0, stock: [\" \"]}\n", "expected one card"),
    ("seed: 1\nactions: [\"\u00b2: pass\"]\n", "is not an action"),
])
def test_malformed_scenarios_are_located_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                body: str, message: str) -> None:
    """Found by the fuzzing campaign: a missing seat to play, a blank stock card and a superscript seat
    number were internal errors (exit 3); each is now an error at its line."""
    path = tmp_path / "s.yaml"
    path.write_text("scenario: x\nrulebook: english-ascending\nplayers: 3\n" + body, encoding="utf-8")
    code = main(["scenario", str(path)])
    out, err = capsys.readouterr()
    assert code == 1 and message in out + err and "internal error" not in err
