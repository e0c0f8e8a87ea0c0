"""Prepared lessons: a small position, the words of each step, the moves the other seats make and yours.

The format is described in docs/practice-table.md; the files are `lessons/*.yaml` in this package.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from ..engine import Action, Game, State
from ..words.notation import NotationError, parse_action
from ..files import FileRefused, read_text
from ..scenario.model import Scenario
from ..scenario.runner import _position

LESSON_BYTES = 100_000


class LessonError(ValueError):
    """A lesson file that cannot be played; the message says where."""


@dataclass(frozen=True)
class Step:
    """One step: the others' moves as it begins, its words, and the moves you may answer with."""

    say: str
    moves: tuple[tuple[int, Action], ...]
    expect: tuple[Action, ...]
    hint: str


@dataclass(frozen=True)
class Lesson:
    """A lesson bound to a game: the starting position, your seat and the steps."""

    name: str
    title: str
    summary: str
    rulebook: str
    you: int
    steps: tuple[Step, ...]
    position: Any

    def start(self, game: Game) -> State:
        return game.state_from_position(self.position)

    def expected(self, game: Game, index: int) -> tuple[Action, ...]:
        return self.steps[index].expect


def lessons_dir() -> Path:
    return Path(str(resources.files("cheatdsl.serve").joinpath("lessons")))


def read_lesson(path: Path) -> dict[str, Any]:
    """The plain data of a lesson file (YAML read safely: no code, no tags)."""
    try:
        text = read_text(str(path), LESSON_BYTES)
    except FileRefused as refused:
        raise LessonError(f"{path.name}: {refused.words()} (a lesson file is at most {LESSON_BYTES:,} bytes)") from None
    data = yaml.safe_load(text)
    if not isinstance(data, dict):
        raise LessonError(f"{path.name}: a lesson is a mapping with `lesson`, `rulebook`, `position` and `steps`")
    return data


def catalogue(folder: Path | None = None) -> list[dict[str, Any]]:
    """Every lesson's name, title, summary and rulebook name, in file name order."""
    out = []
    for path in sorted((folder or lessons_dir()).glob("*.yaml")):
        data = read_lesson(path)
        out.append({"name": str(data.get("lesson", path.stem)), "title": str(data.get("title", path.stem)),
                    "summary": str(data.get("summary", "")), "rulebook": str(data.get("rulebook", "")),
                    "players": int(data.get("players", 0))})
    return out


def load_lesson(name: str, game: Game, folder: Path | None = None) -> Lesson:
    """The lesson called `name` bound to `game`; LessonError says what is wrong with it."""
    for path in sorted((folder or lessons_dir()).glob("*.yaml")):
        data = read_lesson(path)
        if data.get("lesson") == name:
            return bind(data, game, path.name)
    raise LessonError(f"there is no lesson `{name}`")


def bind(data: dict[str, Any], game: Game, where: str = "<lesson>") -> Lesson:
    """A lesson's data checked against `game`: every card, seat and move read in the game's notation."""
    try:
        you = data["you"]
        if not isinstance(you, int) or not 0 <= you < game.players:
            raise LessonError(f"{where}: `you` is a seat from 0 to {game.players - 1}")
        scenario = Scenario(name=str(data["lesson"]), rulebook=str(data["rulebook"]), players=game.players,
                            position=data["position"])
        position = _position(scenario, game)
        steps = []
        for i, raw in enumerate(data["steps"]):
            moves = tuple(_move(game, m, f"{where}: step {i + 1}") for m in raw.get("moves", []) or [])
            expect = tuple(parse_action(game, str(e)) for e in raw.get("expect", []) or [])
            steps.append(Step(str(raw["say"]).strip(), moves, expect, str(raw.get("hint", "")).strip()))
        if not steps:
            raise LessonError(f"{where}: a lesson has at least one step")
        return Lesson(str(data["lesson"]), str(data.get("title", data["lesson"])), str(data.get("summary", "")),
                      str(data["rulebook"]), you, tuple(steps), position)
    except (KeyError, TypeError, AttributeError) as exc:
        raise LessonError(f"{where}: missing or malformed field {exc}") from None
    except (NotationError, ValueError) as exc:
        if isinstance(exc, LessonError):
            raise
        raise LessonError(f"{where}: {exc}") from None


def _move(game: Game, text: object, where: str) -> tuple[int, Action]:
    head, sep, rest = str(text).partition(":")
    if not sep or not head.strip().isdigit() or not 0 <= int(head) < game.players:
        raise LessonError(f"{where}: a move is written `SEAT: ACTION`, such as `2: accept`; found {text!r}")
    return int(head), parse_action(game, rest)
