"""The seed 003 lessons, each played as a test: every step's move is legal and expected, a move the lesson
does not expect is refused with the step's hint, and the lesson ends where its words say.

Seed 003: "Learn to make a claim, spot a bluff and challenge wisely. Three prepared lessons"; the
project's choice: each lesson also runs as a test.
"""

from __future__ import annotations

import pytest

from cheatdsl.engine import ACCEPT, Challenge, Game
from cheatdsl.load import load_rulebook
from cheatdsl.profiles import shipped_path
from cheatdsl.serve.lessons import LessonError, bind, catalogue, load_lesson
from cheatdsl.serve.present import seat_view
from cheatdsl.serve.session import Refused, Session

LESSONS = [x["name"] for x in catalogue()]


def _game(name: str) -> Game:
    rulebook = load_rulebook(str(shipped_path(name)))
    return Game(rulebook, rulebook.players.min)


def test_the_three_lessons_of_seed_003_are_there() -> None:
    """Seed 003: make a claim, spot a bluff, challenge wisely."""
    assert LESSONS == ["make-a-claim", "spot-a-bluff", "challenge-wisely"]


@pytest.mark.parametrize("name", LESSONS)
def test_each_lesson_plays_through(name: str) -> None:
    """Each lesson's expected moves are legal at every step and lead to its end."""
    info = next(x for x in catalogue() if x["name"] == name)
    game = _game(info["rulebook"])
    lesson = load_lesson(name, game)
    session = Session(game, 0, ["honest"], 0, lesson=lesson)
    for i, step in enumerate(lesson.steps):
        view = seat_view(session)
        assert view["lesson"]["step"] == i + 1 and view["lesson"]["say"] == step.say
        if step.expect:
            assert view["phase"] in ("play", "respond", "discard")
            wrong = next((a for a in (ACCEPT, Challenge("cheat")) if a not in step.expect
                          and session.state.is_legal(a)), None)
            if wrong is not None:
                with pytest.raises(Refused) as refused:
                    session.act(wrong)
                assert str(refused.value) == (step.hint or "the lesson expects another move")
            session.act(step.expect[0])
        else:
            assert view["phase"] == "lesson-next"
            session.act("next")
        if session.reveal is not None:
            assert seat_view(session)["phase"] == "reveal"
            session.act("continue")
    assert session.lesson_done() and seat_view(session)["phase"] == "lesson-done"


def test_spot_a_bluff_catches_robin() -> None:
    """Seed 003: "Holding three aces makes an opponent's two-ace claim impossible with one deck"."""
    game = _game("practice-table")
    session = Session(game, 0, ["honest"], 0, lesson=load_lesson("spot-a-bluff", game))
    assert "impossible" in seat_view(session)["turn"]["evidence"]
    session.act(Challenge("cheat"))
    reveal = seat_view(session)["reveal"]
    assert reveal["caught"] and reveal["loser"] == "Robin" and reveal["cards"] == ["6", "9"]


def test_a_broken_lesson_is_reported_not_played() -> None:
    """A lesson is data: a bad card or move is a LessonError naming the file and step."""
    game = _game("practice-table")
    data = {"lesson": "x", "rulebook": "practice-table", "you": 1,
            "position": {"dealer": 0, "hands": {0: ["AC"], 1: ["2C"], 2: ["3C"]}, "to_play": 1},
            "steps": [{"say": "hi", "moves": ["9: accept"]}]}
    with pytest.raises(LessonError, match="step 1"):
        bind(data, game, "x.yaml")
    data["steps"] = [{"say": "hi", "expect": ["play ZZ as 1 ace"]}]
    with pytest.raises(LessonError, match="x.yaml"):
        bind(data, game, "x.yaml")
