"""Reading a scenario file into a `Scenario`, every problem located like a compiler's."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Any

from ..diagnostics import Diagnostics, RulebookError
from ..files import FileRefused, Refusal, read_text
from ..limits import MAX_FILE_BYTES, SCENARIO_VALUES
from ..source import SourceFile, Span
from ..syntax.tree import ListNode, MapNode, Node, ScalarNode
from ..syntax.yaml_reader import read_yaml
from .expect import CHECKS
from .model import FIELDS, POSITION_FIELDS, Scenario

EXPECT_FIELDS = (*CHECKS, "refused")
_WHOLE = re.compile(r"-?[0-9]{1,18}")


class ScenarioError(RulebookError):
    """A scenario file that cannot be read; carries every diagnostic."""


def _suggest(word: str, choices: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else "known keys: " + ", ".join(choices)


def plain(node: Node, where: dict[str, Span], key: str) -> Any:
    """The node as plain values, recording the span of every value under its dotted key."""
    where[key] = node.span
    if isinstance(node, ScalarNode):
        return node.value
    if isinstance(node, ListNode):
        return [plain(item, where, f"{key}.{i}") for i, item in enumerate(node.items)]
    out: dict[Any, Any] = {}
    for entry in node.entries:
        name = entry.key
        where[f"{key}.{name}:key"] = entry.key_span
        value = plain(entry.value, where, f"{key}.{name}")
        out[_seat_or_name(name)] = value
    return out


def _seat_or_name(key: str) -> int | str:
    """A mapping key as a whole number when it is written as one in ASCII digits, else as text."""
    return int(key) if _WHOLE.fullmatch(key) else key


def read_scenario(path: str, d: Diagnostics) -> Scenario | None:
    """The scenario in `path`, or None after recording why it cannot be read."""
    at = Span(path, 1, 1)
    try:
        text = read_text(path, MAX_FILE_BYTES)
    except FileRefused as refused:
        if refused.refusal is Refusal.TOO_LARGE:
            d.error(at, "S002", f"the file is larger than {MAX_FILE_BYTES:,} bytes; a scenario is a page")
        elif refused.refusal is Refusal.NOT_TEXT:
            d.error(Span(path, refused.line, 1), "S002", "the file is not UTF-8 text")
        else:
            d.error(at, "S001", f"no scenario file at '{path}': {refused.words()}")
        return None
    source = SourceFile(path, text)
    d.sources[path] = source
    if not text.strip():
        d.error(at, "S003", "the file is empty")
        return None
    tree = read_yaml(source, d, SCENARIO_VALUES)
    if tree is None:
        return None
    if not isinstance(tree, MapNode):
        d.error(tree.span, "S010", "a scenario file is a mapping with `scenario:`, `rulebook:`, `players:`, ...")
        return None
    return _build(path, tree, d)


# A scenario may hold many values, so its mistakes must cost little each: each kind is reported this many
# times at most, then counted in one more error.
SHOWN = 10


class _Unknown:
    """Reports unknown keys, each with a did-you-mean hint, up to `SHOWN`; past that, counts them and says how
    many more in one error."""

    def __init__(self, d: Diagnostics) -> None:
        self.d = d
        self.shown = self.more = 0
        self.last: Span | None = None

    def __call__(self, span: Span, message: str, key: str, known: Iterable[str]) -> None:
        if self.shown >= SHOWN:
            self.more += 1
            self.last = span
            return
        self.shown += 1
        self.d.error(span, "S011", message, _suggest(key, known))

    def close(self) -> None:
        if self.more and self.last is not None:
            self.d.error(self.last, "S011", f"and {self.more:,} more unknown keys",
                         "a scenario names a rulebook, the players, a deal or position, actions and what to expect")


def _build(path: str, tree: MapNode, d: Diagnostics) -> Scenario | None:
    where: dict[str, Span] = {}
    raw = {}
    unknown = _Unknown(d)
    for entry in tree.entries:
        if entry.key not in FIELDS:
            unknown(entry.key_span, f"unknown key `{entry.key}` in a scenario", entry.key, FIELDS)
            continue
        raw[entry.key] = plain(entry.value, where, entry.key)
        where.setdefault(entry.key, entry.value.span)
    for key in ("scenario", "rulebook", "players"):
        if key not in raw:
            d.error(tree.span, "S012", f"the scenario has no `{key}:`", _MISSING[key])
    starts = [key for key in ("seed", "deck", "position") if key in raw]
    if len(starts) > 1:
        d.error(where[starts[1]], "S013", "give one of `seed:` (a deal by the rules), `deck:` (the deck in "
                f"shuffled order, dealt by the rules) or `position:`, not {' and '.join(f'`{k}:`' for k in starts)}")
    if not starts:
        d.error(tree.span, "S012", "the scenario has neither `seed:`, `deck:` nor `position:`",
                "deal by the rules from `seed: N` or from `deck: [AC, 7H, ...]`, or set the table with `position:`")
    deck = raw.get("deck")
    if deck is not None and (not isinstance(deck, list) or not all(isinstance(c, (str, int)) for c in deck)):
        d.error(where["deck"], "S014", "`deck` lists the cards of the deck in shuffled order, top first, such as "
                "[AC, 7H, JK]")
        deck = None
    if "position" in raw and "dealer" in raw:
        d.error(where["dealer"], "S013", "with a `position:`, the dealer goes inside it (`position.dealer`)")

    def text(key: str) -> str:
        value = raw.get(key, "")
        if value is None:
            return ""
        if not isinstance(value, (str, int)):
            d.error(where[key], "S014", f"`{key}` must be text")
            return ""
        return str(value)

    def number(key: str, low: int = 0) -> int | None:
        value = raw.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            d.error(where[key], "S014", f"`{key}` must be a whole number from {low} up, found {value!r}")
            return None
        return value

    variations = raw.get("variations") or []
    if not isinstance(variations, list) or not all(isinstance(v, str) for v in variations):
        d.error(where.get("variations", tree.span), "S014", "`variations` must be a list of names")
        variations = []
    actions = raw.get("actions") or []
    if not isinstance(actions, list):
        d.error(where.get("actions", tree.span), "S014", "`actions` must be a list such as [\"0: pass\"]")
        actions = []
    bad_actions = 0
    for i, step in enumerate(actions):
        if isinstance(step, dict):
            if set(step) != {"expect"} or not isinstance(step["expect"], dict):
                bad_actions += 1
                if bad_actions <= SHOWN:
                    d.error(where[f"actions.{i}"], "S014", "a checkpoint in `actions` is written `- expect: {...}`")
            else:
                _check_expect(step["expect"], where, f"actions.{i}.expect", unknown)
        elif not isinstance(step, str):
            bad_actions += 1
            if bad_actions <= SHOWN:
                d.error(where[f"actions.{i}"], "S014", f"each action is text such as \"0: accept\", found {step!r}")
    if bad_actions > SHOWN:
        d.error(where["actions"], "S014",
                f"and {bad_actions - SHOWN:,} more actions that are neither text nor a checkpoint")
    expect = raw.get("expect") or {}
    if not isinstance(expect, dict):
        d.error(where["expect"], "S014", "`expect` must be a mapping such as {hand_sizes: {0: 7}}")
        expect = {}
    _check_expect(expect, where, "expect", unknown)
    position = raw.get("position")
    if position is not None:
        if not isinstance(position, dict):
            d.error(where["position"], "S014", "`position` must be a mapping with `hands:` and `to_play:`")
            position = None
        else:
            for key in position:
                if key not in POSITION_FIELDS:
                    unknown(where[f"position.{key}:key"], f"unknown key `{key}` in `position`", str(key),
                            POSITION_FIELDS)
            for key in ("hands", "to_play"):
                if key not in position:
                    d.error(where["position"], "S012", f"the position has no `{key}:`")
    players = number("players", 2)
    unknown.close()
    if d.has_errors():
        return None
    return Scenario(name=text("scenario"), rulebook=text("rulebook"), players=players or 0, actions=actions,
                    expect=expect, source=text("source"), variations=list(variations), seed=number("seed"),
                    deck=None if deck is None else [str(c) for c in deck], dealer=number("dealer"),
                    position=position, path=path, where=where)


def _check_expect(expect: dict[str, Any], where: dict[str, Span], key: str, unknown: _Unknown) -> None:
    for name in expect:
        if name not in EXPECT_FIELDS:
            unknown(where[f"{key}.{name}:key"], f"unknown expectation `{name}`", str(name), EXPECT_FIELDS)


_MISSING = {
    "scenario": "name the ruling it checks: `scenario: a correct challenge`",
    "rulebook": "give the rulebook file (relative to this file) or a shipped profile's name",
    "players": "say how many play: `players: 3`",
}
