"""The interpreter and the verifier play one game: docs/language.md's "How a rulebook is played" read by both
back ends must give the same turns (the style guide: a verifier counterexample is a scenario the interpreter
can replay, so the encoding may allow no step the interpreter refuses, and must allow every one it plays).

For every shipped rulebook and fixture, at its fewest seats and one more: a whole game by a seeded mix of
bots (`random` among them) and a game stopped by a small turn cap; each deal must be an initial state of
the encoding, each turn a step of the encoding giving exactly the interpreter's next state, and from
sampled states every step the encoding allows (bounded, each shape of step asked for) a turn the
interpreter allows, giving the same state. benchmarks/agreement_campaign.py runs the same at scale.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import replace
from pathlib import Path
from typing import Any

import agreement
import pytest
from agreement import (
    GIVEN,
    ROOT,
    Tally,
    play_game,
    rule_values,
    rulebook_files,
    seat_counts,
    spec_for,
    values_used,
)
from verifier_steps import Steps

from cheatdsl.engine import Game
from cheatdsl.load import load_rulebook
from cheatdsl.model import Rulebook
from cheatdsl.syntax.table import SECTIONS, Kind
from verifier.encoding import transitions
from verifier.encoding.engine_state import read
from verifier.encoding.state import true
from verifier.properties.witness import dealt

FILES = rulebook_files()
CAP = 12  # the small turn cap of the stopped games
LONG = 400  # the whole games stop here in the suite (a few long ones; the campaign plays them to the end)
FIXTURES = ROOT / "tests" / "fixtures" / "agreement"


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


@functools.cache
def _rulebook(path: Path) -> Rulebook:
    return load_rulebook(str(path))


def _games(rb: Rulebook) -> Tally:
    tally = Tally()
    for n in seat_counts(rb):
        tally.add(play_game(rb, n, 0, cap=LONG, sample_every=10, max_samples=2, moves_per_state=10))
        tally.add(play_game(rb, n, 1, cap=CAP))
    return tally


@functools.cache
def _played(path: Path) -> Tally:
    return _games(_rulebook(path))


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_every_turn_is_a_step_of_the_encoding(path: Path) -> None:
    """Each deal, each turn of whole and stopped games, and each step the encoding allows from sampled states
    agree between the interpreter and the encoding."""
    tally = _played(path)
    # A rulebook whose every game is won at the deal (a turn-start win the first hand always meets) has deals to
    # check and no turn.
    assert tally.deals and (tally.steps or set(tally.endings) == {"won"}), tally.summary()
    assert not tally.findings, "\n".join(tally.findings[:5])


def test_games_of_every_ending_are_checked() -> None:
    """The games checked end in every way a game can: won, the last holder left, stopped by the turn cap, and
    stopped with no legal action (the fixtures whose claims run out); states are sampled and their moves
    replayed."""
    total = Tally()
    for path in FILES:
        total.add(_played(path))
    assert set(total.endings) >= {"won", "last holder", "turn cap", "no legal action"}, total.summary()
    assert total.states >= len(FILES) and total.moves >= 4 * total.states, total.summary()


# Every rule value is played -------------------------------------------------------------------------------

def test_every_rule_value_is_exercised() -> None:
    """Each value of each rule (each choice, both answers of a yes/no rule, and a rule that may be left out
    given; read from the language's field table, so that a new value fails here until a rulebook of these
    tests uses it) is used, where it has an effect, by some rulebook the agreement is checked on;
    tests/fixtures/agreement/ holds those no shipped rulebook uses."""
    used: dict[tuple[str, object], list[str]] = {}
    for path in FILES:
        for value in values_used(_rulebook(path)):
            used.setdefault(value, []).append(path.name)
    missing = sorted(rule_values() - set(used), key=str)
    assert not missing, f"rule values no rulebook of the agreement tests uses: {missing}"


def test_each_agreement_fixture_is_there_for_a_rule_value() -> None:
    """Each rulebook of tests/fixtures/agreement/ uses a rule value no other rulebook of the tests uses, and its
    opening comment names that rule and value."""
    fixtures = sorted(FIXTURES.glob("*.yaml"))
    assert fixtures
    for path in fixtures:
        others = set().union(*(values_used(_rulebook(p)) for p in FILES if p != path))
        own = values_used(_rulebook(path)) - others
        assert own, f"{path.name} uses no rule value the other rulebooks do not"
        comment = "".join(line for line in path.read_text().splitlines(keepends=True) if line.startswith("#"))
        for field, value in own:
            assert f"{field.rpartition('.')[2]}: {str(value).lower()}" in comment, (path.name, field, value)


def test_the_rule_values_come_from_the_field_table() -> None:
    """The list is the table's: every choice of every field of kind choice, both answers of every yes/no field,
    and the rules a rulebook may leave out (given)."""
    values = rule_values()
    for path, fields in SECTIONS.items():
        if path == "" or path.startswith("variations"):
            continue
        for f in fields:
            dotted = f"{path}.{f.name}"
            if f.kind is Kind.CHOICE:
                assert {(dotted, c) for c in f.choices} <= values
            if f.kind is Kind.BOOLEAN:
                assert {(dotted, True), (dotted, False)} <= values
    for wanted in (("setup.direction", "anticlockwise"), ("deck.jokers_wild", False), ("ending.out_check", "at_once"),
                   ("challenge.penalty.pile_after", "discarded"), ("ending.emptied_by_sets", "stays_in"),
                   ("claim.round_ends", "all_pass"), ("ending.turn_start_win", GIVEN), ("sets", GIVEN),
                   ("challenge.kinds[].allowed_when", GIVEN)):
        assert wanted in values
    assert not any(field in ("deck.ranks", "deck.suits", "claim.first") for field, _ in values)


def test_a_value_without_effect_does_not_count() -> None:
    """`jokers_wild: false` in a deck with no jokers changes nothing, so it does not count as non-wild jokers;
    the fixture with two jokers that are not wild does."""
    standard = _rulebook(ROOT / "rulebooks" / "standard.yaml")
    assert standard.deck.jokers == 0 and ("deck.jokers_wild", False) not in values_used(standard)
    assert ("deck.jokers_wild", False) in values_used(_rulebook(FIXTURES / "jokers-not-wild.yaml"))


# The checks are not vacuous ---------------------------------------------------------------------------------

def _findings_with(monkeypatch: pytest.MonkeyPatch, fixture: str, samples: int, **changes: Any) -> list[str]:
    """The findings of a game on a fixture (`samples` states sampled) with the encoding changed by `changes`
    (attributes of the transitions module or of `Builder`)."""
    monkeypatch.setattr(agreement, "_STEPS", {})  # steps built with the changed encoding, and only those
    for name, value in changes.items():
        target = transitions.Builder if hasattr(transitions.Builder, name) else transitions
        monkeypatch.setattr(target, name, value)
    rb = load_rulebook(str(FIXTURES / fixture))
    return play_game(rb, seat_counts(rb)[-1], 0, cap=60, sample_every=1 if samples else 0, max_samples=samples,
                     moves_per_state=12).findings


def _ruled(spec: Any, **changes: Any) -> Any:
    """`spec` with a rules record that differs from its own in `changes`: an encoding that misreads a rule."""
    rules = copy.copy(spec.rules)
    vars(rules).update(changes)
    return replace(spec, rules=rules)


def test_an_encoding_that_ignores_the_direction_of_play_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """`setup.direction: anticlockwise`: an encoding whose next seat is always the one clockwise disagrees with
    the interpreter's turns."""
    original = transitions.next_in

    def clockwise(spec: Any, s: Any, seat: Any) -> Any:
        return original(_ruled(spec, step=1), s, seat)
    found = _findings_with(monkeypatch, "anticlockwise.yaml", 0, next_in=clockwise)
    assert any("actor" in f for f in found), found[:3]


def test_an_encoding_that_lets_anyone_pass_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """`passing.when` and `leader_may_pass`: an encoding that lets every seat pass allows steps the interpreter
    refuses, found from the sampled states."""
    found = _findings_with(monkeypatch, "anticlockwise.yaml", 30, can_pass=lambda self, s, seat: true())
    assert any("refuses the pass" in f for f in found), found[:3]


def test_an_encoding_that_lets_an_emptying_play_be_challenged_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """`ending.out_check: at_once`: the play that empties a hand cannot be challenged. An encoding that forgets
    it allows a challenge the interpreter never hears."""
    build = transitions.Builder.__init__

    def after_window(self: transitions.Builder, spec: Any, name_terms: bool = True) -> None:
        build(self, _ruled(spec, at_once=False), name_terms)
    found = _findings_with(monkeypatch, "at-once.yaml", 6, __init__=after_window)
    assert any("never hears" in f for f in found), found[:3]


def test_a_deal_the_encoding_cannot_deal_is_caught() -> None:
    """A dealt state with one card moved from a hand to the pile is no initial state of the encoding."""
    rb = _rulebook(ROOT / "rulebooks" / "standard.yaml")
    sp = spec_for(rb, 3, None)
    steps = Steps(sp)
    values = read(sp, dealt(Game(rb, 3), 7, 0))
    assert steps.deal_problems(values) == []
    card = next(i for i in range(sp.width) if values[f"h0_{i}"])
    values[f"h0_{card}"] -= 1
    values[f"pile{card}"] += 1
    assert steps.deal_problems(values)
