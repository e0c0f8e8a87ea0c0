"""Running a scenario: compile its rulebook, set the table, play the actions, check the expectations."""

from __future__ import annotations

import dataclasses
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostics, shown
from ..engine import CHANCE, ChanceCaller, ChanceDealer, ChanceShuffle, Game, IllegalAction, Position, State
from ..engine.deal import deal_deck
from ..words.notation import (
    NotationError,
    action_text,
    card_text,
    claim_text,
    describe_state,
    parse_action,
    parse_cards,
    parse_claim,
    parse_deck_card,
    refusal_text,
    seats_text,
)
from ..files import FileRefused, read_text
from ..load import compile_rulebook
from ..model import Rulebook
from ..profiles import RULEBOOK_SUFFIXES, shipped_path
from ..reach import MAX_REFERENCE_CHARS
from ..source import SourceFile, Span
from ..syntax.reading import file_problem
from .expect import BadExpectation, Mismatch, check
from .model import Scenario
from .reader import read_scenario

INTERNAL_ERROR = "S900"
_COMPILED: dict[tuple[str, tuple[str, ...]], tuple[Rulebook | None, Diagnostics]] = {}


@dataclass(frozen=True)
class Failure:
    """A way the game went other than the scenario expects, located at the line that says so."""

    span: Span
    message: str
    expected: str = ""
    actual: str = ""

    def render(self) -> str:
        lines = [f"{self.span}: failed: {self.message}"]
        if self.expected or self.actual:
            lines.append(f"  expected: {self.expected}")
            lines.append(f"  actual:   {self.actual}")
        return "\n".join(lines)


@dataclass
class ScenarioResult:
    """The outcome of one scenario: failures of the game, or diagnostics of the file."""

    path: str
    name: str
    failures: list[Failure] = field(default_factory=list)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    steps: int = 0
    state: State | None = None

    @property
    def passed(self) -> bool:
        return not self.failures and not self.diagnostics.has_errors()

    @property
    def internal_error(self) -> bool:
        """cheatdsl itself failed while running the scenario (a bug to report, not a failed ruling)."""
        return any(d.code == INTERNAL_ERROR for d in self.diagnostics.items)

    def render(self) -> str:
        """`PASS path: name`, or `FAIL path: name` then every failure or diagnostic."""
        head = f"{'PASS' if self.passed else 'FAIL'} {self.path}: {self.name}"
        parts = [head]
        if self.diagnostics.items:
            parts.append(self.diagnostics.render())
        parts.extend(f.render() for f in self.failures)
        if self.failures and self.state is not None:
            parts.append("  the table at the end:\n" + "\n".join("  " + line for line in
                                                                 describe_state(self.state).splitlines()))
        return "\n".join(parts)


def run_scenario(path: str) -> ScenarioResult:
    """Read and run the scenario file at `path`."""
    d = Diagnostics()
    scenario = read_scenario(path, d)
    if scenario is None or d.has_errors():
        return ScenarioResult(path, Path(path).stem, diagnostics=d)
    return run(scenario)


# How a scenario written by `verify --save-witnesses` names its source: such a scenario is a witness, and a
# witness is a game from a deal.
WITNESS_SOURCE = "cheatdsl verify"


def run(scenario: Scenario) -> ScenarioResult:
    """Play `scenario` and check what it expects; an internal error is reported, never raised."""
    try:
        return _run(scenario)
    except Exception as exc:  # noqa: BLE001 - a scenario run reports, it does not crash the command
        if os.environ.get("CHEATDSL_DEBUG"):
            raise
        result = ScenarioResult(scenario.path or "<scenario>", scenario.name)
        result.diagnostics.error(scenario.span("scenario"), INTERNAL_ERROR,
                                 f"internal error while running the scenario: {type(exc).__name__}: {exc}",
                                 "this is a bug in cheatdsl, not in the scenario: please report it")
        return result


def _run(scenario: Scenario) -> ScenarioResult:
    result = ScenarioResult(scenario.path or "<scenario>", scenario.name)
    d = result.diagnostics
    if scenario.path:
        try:
            d.sources[scenario.path] = SourceFile(scenario.path, read_text(scenario.path))
        except FileRefused:
            pass  # the file changed since it was read: its lines are not quoted
    game = _game(scenario, d)
    if game is None:
        return result
    if scenario.position is not None and scenario.source.startswith(WITNESS_SOURCE):
        d.error(scenario.span("position"), "S032", "a witness of `cheatdsl verify` starts from a deal by the rules, "
                "not from a table set by hand", "start it from `seed: N` or from `deck: [...]`, dealt by the rules")
        return result
    state = _start(scenario, game, d)
    if state is None:
        return result
    result.state = state
    expect = scenario.expect
    refused_at: int | None = None
    steps = scenario.actions
    for i, step in enumerate(steps):
        key = f"actions.{i}"
        if isinstance(step, dict):
            when = f"after step {result.steps}" if result.steps else "before the first action"
            if not _expect(scenario, state, step["expect"], f"{key}.expect", result, when):
                return result
            continue
        seat, text = _split(step)
        try:
            action = parse_action(game, text)
        except NotationError as exc:
            d.error(scenario.span(key), "S105", str(exc))
            return result
        label = f"step {result.steps + 1} (\"{step}\")"
        if state.callers() and not isinstance(action, ChanceCaller):
            result.failures.append(_unsettled(scenario, state, key))
            return result
        actor = state.current_player()
        try:
            if seat is not None and seat != actor:
                if not ("refused" in expect and i == len(steps) - 1):
                    result.failures.append(Failure(scenario.span(key), f"{label}: it is not seat {seat}'s turn",
                                                   f"seat {seat} to act", _who(state)))
                    return result
                raise IllegalAction(f"it is not seat {seat}'s turn: {_who(state)}")
            state.apply_action(action)
        except IllegalAction as exc:
            if "refused" in expect and i == len(steps) - 1:
                refused_at = i
                wanted = str(expect["refused"])
                if wanted.lower() not in refusal_text(exc).lower():
                    result.failures.append(Failure(scenario.span("expect.refused"),
                                                   f"{label} was refused, for another reason",
                                                   f"refused with a message containing \"{wanted}\"", refusal_text(exc)))
                break
            result.failures.append(Failure(scenario.span(key), f"{label} was refused: {refusal_text(exc)}"))
            return result
        result.steps += 1
    if state.callers() and "callers" not in expect:
        result.failures.append(_unsettled(scenario, state, f"actions.{len(steps) - 1}" if steps else "actions"))
        return result
    if "refused" in expect and refused_at is None:
        last = steps[-1] if steps else None
        result.failures.append(Failure(scenario.span("expect.refused"),
                                       "the last action was expected to be refused",
                                       f"\"{last}\" refused", "it was played" if last else "there is no action"))
    _expect(scenario, state, expect, "expect", result, "at the end")
    return result


def _unsettled(scenario: Scenario, state: State, key: str) -> Failure:
    """Calls made at once wait for the lot, and the scenario does not say who called first."""
    seats = state.callers()
    return Failure(scenario.span(key),
                   f"seats {seats_text(seats)} call at once and the rules do not say whose call is heard "
                   "(`challenge.priority: first_caller`, whoever called first)",
                   f"the scenario to say who called first, such as \"chance: seat {seats[0]} called first\"",
                   "it does not")


def _who(state: State) -> str:
    from ..words.notation import phase_text
    return phase_text(state)


def _expect(scenario: Scenario, state: State, expect: dict[str, Any], prefix: str, result: ScenarioResult,
            when: str) -> bool:
    try:
        mismatches: list[Mismatch] = check(state, expect, prefix)
    except BadExpectation as exc:
        result.diagnostics.error(scenario.span(exc.key), "S106", str(exc))
        return False
    for m in mismatches:
        name = m.key[len(prefix) + 1:] if m.key.startswith(prefix + ".") else m.key
        result.failures.append(Failure(scenario.span(m.key), f"{when}: {name}", m.expected, m.actual))
    return not mismatches


def _split(step: str) -> tuple[int | None, str]:
    head, sep, rest = step.partition(":")
    head = head.strip().lower()
    if sep and head.isascii() and head.isdigit():
        return int(head), rest.strip()
    if sep and head == "chance":
        return -1, rest.strip()
    return None, step.strip()


def _rulebook_path(scenario: Scenario) -> Path | str:
    """The file a scenario's `rulebook:` names, or why it names none (a path relative to the scenario's
    folder, or a shipped profile's name)."""
    name = scenario.rulebook
    if "\x00" in name or len(name) > MAX_REFERENCE_CHARS:
        return "is not a usable file name"
    if "/" in name or name.endswith(RULEBOOK_SUFFIXES):
        path = scenario.base_dir / name
    else:
        shipped = shipped_path(name)
        if shipped is None:
            return "is no shipped profile (`cheatdsl list` shows them)"
        path = shipped
    problem = file_problem(path)
    return path if problem is None else f"{problem}"


def load_game_rulebook(scenario: Scenario, d: Diagnostics) -> Rulebook | None:
    """The scenario's rulebook, compiled once per file and variations."""
    path = _rulebook_path(scenario)
    at = scenario.span("rulebook")
    if isinstance(path, str):
        d.error(at, "S020", f"no rulebook at '{shown(scenario.rulebook)}': it {path}",
                "give a path relative to the scenario file, or a shipped profile's name")
        return None
    key = (str(path), tuple(scenario.variations))
    if key not in _COMPILED:
        _COMPILED[key] = compile_rulebook(str(path), list(scenario.variations))
    rulebook, problems = _COMPILED[key]
    if rulebook is None:
        d.error(at, "S021", f"the rulebook '{scenario.rulebook}' does not compile")
        for problem in problems.errors:
            if problem.span.file == "<command line>":
                # a variation the scenario asks for: point at the scenario's own line
                problem = dataclasses.replace(problem, span=scenario.span("variations"))
            d.items.append(problem)
        d.sources.update(problems.sources)
    return rulebook


def _game(scenario: Scenario, d: Diagnostics) -> Game | None:
    rulebook = load_game_rulebook(scenario, d)
    if rulebook is None:
        return None
    try:
        return Game(rulebook, scenario.players)
    except ValueError as exc:
        d.error(scenario.span("players"), "S022", str(exc))
        return None


def _start(scenario: Scenario, game: Game, d: Diagnostics) -> State | None:
    if scenario.position is None:
        state = game.new_initial_state()
        seed = scenario.seed or 0
        if game.rules.dealer_by_lot:
            dealer = scenario.dealer if scenario.dealer is not None else random.Random(seed).randrange(game.players)
            if not 0 <= dealer < game.players:
                d.error(scenario.span("dealer"), "S030", f"there is no seat {dealer} to deal")
                return None
            state.apply_action(ChanceDealer(dealer))
        elif scenario.dealer not in (None, 0):
            d.error(scenario.span("dealer"), "S030", "this rulebook always has seat 0 deal (`setup.dealer: seat_zero`)")
            return None
        if scenario.deck is not None:
            return _dealt_deck(scenario, game, state, d)
        state.apply_action(ChanceShuffle(seed))
        return state
    try:
        position = _position(scenario, game)
        return game.state_from_position(position)
    except _PositionError as exc:
        d.error(scenario.span(exc.key), "S031", str(exc))
    except (ValueError, NotationError) as exc:
        d.error(scenario.span("position"), "S031", f"the position cannot happen at this table: {exc}")
    return None


def _dealt_deck(scenario: Scenario, game: Game, state: State, d: Diagnostics) -> State | None:
    """`state` after the deal of the scenario's `deck:` (the deck in shuffled order, top first), by the rules."""
    try:
        cards = [parse_deck_card(game, text) for text in scenario.deck or []]
        deal_deck(state, cards)
    except (ValueError, NotationError) as exc:
        d.error(scenario.span("deck"), "S031", f"the deck given is not this table's deck in some order: {exc}",
                "list every card of the table's deck once, top first, each with its suit (`AC`, `10H`, `JK`)")
        return None
    return state


class _PositionError(ValueError):
    def __init__(self, key: str, message: str) -> None:
        self.key = key
        super().__init__(message)


def _position(scenario: Scenario, game: Game) -> Position:
    raw = scenario.position or {}

    def cards(key: str, value: Any) -> tuple[int, ...]:
        if value is None:
            return ()
        if isinstance(value, (int, str)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, (list, str)):
            raise _PositionError(key, f"expected a list of cards such as [7C, KD], found {value!r}")
        items = value if isinstance(value, list) else value.split()
        out: list[int] = []
        for i, item in enumerate(items):
            try:
                out.extend(parse_cards(game, [str(item)]))
            except NotationError as exc:
                raise _PositionError(f"{key}.{i}" if isinstance(value, list) else key, str(exc)) from None
        return tuple(sorted(out))

    def seat(key: str, value: Any, default: int | None = None) -> int | None:
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < game.players:
            raise _PositionError(key, f"expected a seat from 0 to {game.players - 1}, found {value!r}")
        return value

    hands_raw = raw.get("hands")
    if not isinstance(hands_raw, dict):
        raise _PositionError("position.hands", "`hands` maps each seat to its cards, such as {0: [7C, KD]}")
    out_raw = raw.get("out") or []
    if not isinstance(out_raw, list):
        raise _PositionError("position.out", "`out` lists the seats already out, such as [2]")
    out = tuple(seat(f"position.out.{i}", v) for i, v in enumerate(out_raw))
    for key in hands_raw:
        seat(f"position.hands.{key}", key)
    hands = []
    for s in range(game.players):
        if s not in hands_raw and s not in out:
            raise _PositionError("position.hands", f"`hands` gives no cards for seat {s}")
        hands.append(cards(f"position.hands.{s}", hands_raw.get(s)))
    previous_raw = raw.get("previous")
    previous = None
    if previous_raw is not None and str(previous_raw).lower() != "none":
        try:
            previous = parse_claim(game, str(previous_raw))[0]
        except NotationError as exc:
            raise _PositionError("position.previous", str(exc)) from None
    leading = raw.get("leading", False)
    if not isinstance(leading, bool):
        raise _PositionError("position.leading", f"`leading` is true or false, found {leading!r}")
    if raw.get("to_play") is None:
        raise _PositionError("position.to_play", "`to_play` names the seat whose turn it is, such as 0")
    return Position(
        hands=tuple(hands),
        to_play=seat("position.to_play", raw.get("to_play")),  # type: ignore[arg-type]
        dealer=seat("position.dealer", raw.get("dealer"), 0),  # type: ignore[arg-type]
        pile=cards("position.pile", raw.get("pile")),
        stock=_in_order(cards, "position.stock", raw.get("stock")),
        aside=cards("position.aside", raw.get("aside")),
        previous=previous,
        leading=leading,
        out=out,  # type: ignore[arg-type]
        last_player=seat("position.last_player", raw.get("last_player")),
    )


def _in_order(cards: Any, key: str, value: Any) -> tuple[int, ...]:
    """Cards kept in the order written (a stock, top card first)."""
    if value is None:
        return ()
    items = value if isinstance(value, list) else str(value).split()
    out = []
    for i, item in enumerate(items):
        one = cards(f"{key}.{i}", [item])
        if len(one) != 1:
            raise _PositionError(f"{key}.{i}", f"expected one card such as 7C, found {item!r}")
        out.append(one[0])
    return tuple(out)


def scenario_from_game(state: State, name: str, rulebook: str, **fields: Any) -> Scenario:
    """A scenario replaying `state`, a game dealt by the rules (its history starts with the chance actions)."""
    game = state.game
    history = state.history()
    dealer = None
    seed = None
    replay = game.new_initial_state()
    actions = []
    for action in history:
        if isinstance(action, ChanceDealer):
            dealer = action.seat
        elif isinstance(action, ChanceShuffle):
            seed = action.seed
        else:
            seat = replay.current_player()
            actions.append(f"{'chance' if seat == CHANCE else seat}: {action_text(game, action)}")
        replay.apply_action(action)
    if seed is None:
        raise ValueError("the game was not dealt by the rules: its history has no shuffle")
    return Scenario(name=name, rulebook=rulebook, players=game.players, seed=seed, dealer=dealer,
                    actions=actions, **fields)


def position_notation(game: Game, position: Position) -> dict[str, Any]:
    """A position in the notation of a scenario file, for `Scenario(position=...)`."""
    def cards(values: tuple[int, ...]) -> list[str]:
        return [card_text(game, v) for v in values]
    out: dict[str, Any] = {
        "dealer": position.dealer,
        "hands": {seat: cards(hand) for seat, hand in enumerate(position.hands)},
        "pile": cards(position.pile),
        "stock": cards(position.stock),
        "aside": cards(position.aside),
        "to_play": position.to_play,
        "previous": claim_text(game, position.previous),
        "leading": position.leading,
    }
    if position.out:
        out["out"] = list(position.out)
    if position.last_player is not None:
        out["last_player"] = position.last_player
    return out
