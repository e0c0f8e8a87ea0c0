"""Issue 27: the engine refuses with data (`IllegalAction(Refusal.X, ...)`), never with a sentence; the words a
person reads are made above it (`words.notation.refusal_text`) and say what they said before."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from cheatdsl.engine import ACCEPT, PASS, ChanceCaller, ChanceDealer, ChanceShuffle, Game, IllegalAction, Phase, Play, State
from cheatdsl.engine.refusals import Refusal
from cheatdsl.load import load_rulebook
from cheatdsl.words.notation import refusal_text

ROOT = Path(__file__).resolve().parents[1]


def _undealt(path: str, players: int) -> State:
    return Game(load_rulebook(str(ROOT / path)), players).new_initial_state()


def _dealt(path: str, players: int, seed: int = 1) -> State:
    state = _undealt(path, players)
    if state.game.rules.dealer_by_lot:
        state.apply_action(ChanceDealer(0))
    state.apply_action(ChanceShuffle(seed))
    return state


def _refused(state: State, act: object) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        act() if callable(act) else state.apply_action(act)  # type: ignore[arg-type]
    return info.value


def test_the_engine_raises_no_refusal_that_is_only_a_sentence() -> None:
    """Every `IllegalAction(...)` in cheatdsl/engine/ starts from a `Refusal` member, not a string."""
    found = []
    for path in sorted((ROOT / "cheatdsl" / "engine").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction":
                first = node.args[0] if node.args else None
                if not (isinstance(first, ast.Attribute) and getattr(first.value, "id", None) == "Refusal"):
                    found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_chance_refusals_say_what_is_happening_instead() -> None:
    """The deal by lot (seed 000: the dealer is chosen, then the deck shuffled): each chance action out of its
    time is refused with its reason and its sentence, and changes nothing."""
    state = _undealt("rulebooks/english-ascending.yaml", 3)
    assert state.game.rules.dealer_by_lot
    cases = [
        (ChanceShuffle(1), Refusal.NO_SHUFFLE, "the deck is not being shuffled now"),
        (ChanceDealer(7), Refusal.NO_SUCH_SEAT, "there is no seat 7 to deal"),
        (ChanceCaller(0), Refusal.NO_LOT, "no calls made at once are waiting for the lot now"),
    ]
    for action, reason, words in cases:
        exc = _refused(state, action)
        assert exc.reason is reason and refusal_text(exc) == words
    state.apply_action(ChanceDealer(0))
    exc = _refused(state, ChanceDealer(1))
    assert exc.reason is Refusal.NO_DEALER_CHOICE and refusal_text(exc) == "the dealer is not being chosen now"
    exc = _refused(state, ChanceShuffle(-1))
    assert exc.reason is Refusal.BAD_SEED and refusal_text(exc) == "a shuffle seed is a whole number from 0 up, not -1"
    state.apply_action(ChanceShuffle(1))
    exc = _refused(state, lambda: state.chance_outcome(random.Random(0)))
    assert exc.reason is Refusal.NOT_CHANCE and refusal_text(exc) == "it is not chance's turn"


def test_play_refusals_keep_their_sentences() -> None:
    """Seed 000 section 03 (no passing; a play is cards with a claim and a count), and a seat's view asked
    for a play on another seat's turn."""
    state = _dealt("rulebooks/english-ascending.yaml", 3)
    seat = state.current_player()
    exc = _refused(state, PASS)
    assert exc.reason is Refusal.NO_PASSING
    assert refusal_text(exc) == "passing is not allowed: a player without the rank must bluff"
    exc = _refused(state, Play(5, 0, 1))  # type: ignore[arg-type]
    assert exc.reason is Refusal.NOT_A_PLAY and "is not a play: cards are a tuple of card values" in refusal_text(exc)
    exc = _refused(state, "play")
    assert exc.reason is Refusal.NOT_AN_ACTION and refusal_text(exc) == "'play' is not an action of this game"
    assert state.refusal("play").reason is Refusal.NOT_AN_ACTION  # type: ignore[arg-type, union-attr]
    other = (seat + 1) % 3
    exc = _refused(state, lambda: state.view(other).sample_play(random.Random(0)))
    assert exc.reason is Refusal.NOT_YOUR_TURN and refusal_text(exc) == f"it is not seat {other}'s turn to play"
    state.apply_action(state.sample_play(random.Random(0)))
    assert state.phase is Phase.RESPOND
    exc = _refused(state, lambda: state.sample_play(random.Random(0)))
    assert exc.reason is Refusal.NO_PLAY_NOW and refusal_text(exc) == "there is no play to make now"


def test_pass_refusals_name_the_seat_and_the_rule() -> None:
    """A round's leader may not pass where the rules say so (bluffstopp), and a pass needs the rulebook's own
    `pass_when` (fixture sound-pass-never: `when: hand == 0`)."""
    state = _dealt("rulebooks/bluffstopp.yaml", 4)
    seat = state.current_player()
    exc = _refused(state, PASS)
    assert exc.reason is Refusal.LEADER_MAY_NOT_PASS
    assert refusal_text(exc) == f"seat {seat} leads the round and may not pass"
    state = _dealt("tests/fixtures/sound-pass-never.yaml", 4)
    state.apply_action(state.sample_play(random.Random(0)))
    while state.phase is Phase.RESPOND:
        state.apply_action(ACCEPT)
    seat = state.current_player()
    exc = _refused(state, PASS)
    assert exc.reason is Refusal.PASS_NEEDS
    assert refusal_text(exc) == f"seat {seat} may not pass now: passing needs `hand == 0`"
