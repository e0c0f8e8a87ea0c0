"""Fuzz inputs for the readers: mutations of the shipped rulebooks and scenarios, and garbage.

Shared by tests/test_fuzz.py and benchmarks/fuzz_campaign.py. Every input is made from a seed file and a
`random.Random`, so the campaign's input number N is the same file on every run. Three kinds:
structural mutations (the file read as YAML data, values deleted, swapped, copied and replaced with
awkward ones, then written as YAML or as the text DSL), byte-level mutations of a seed's text, and
garbage bytes. Nothing here touches the disk.
"""

from __future__ import annotations

import copy
import random
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from cheatdsl.diagnostics import Diagnostics
from cheatdsl.source import SourceFile, Span
from cheatdsl.syntax.dsl_reader import read_dsl
from cheatdsl.syntax.emit import EmitError, to_dsl
from cheatdsl.syntax.tree import Entry, ListNode, MapNode, Node, ScalarNode
from cheatdsl.syntax.yaml_reader import read_yaml

ROOT = Path(__file__).resolve().parent.parent
OUTCOMES = ("accepted", "located errors", "unlocated", "internal error", "timeout")
LOCATED = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): (?:error|warning)\[(?P<code>\w+)\]", re.M)
DIAGNOSTIC = re.compile(r"(?:error|warning)\[\w+\]")
NOWHERE = Span("<fuzz>", 1, 1)

# Awkward values a mutation puts where a rule's value was.
AWKWARD: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 2, 7, 13, 52, 2**31, 10**30, -(10**30), 1.5, float("inf"), "", " ", "x",
    "aces", "kings", "ace of hearts", "jokers", "any", "previous", "next(previous)", "prev(previous)",
    "left(dealer)", "right(claimant)", "seat(99)", "holder(ace of spades)", "players // 0", "players % 0",
    "1 // 0", "if players > 3 then 2 else 1", "next(" * 30 + "previous" + ")" * 30, "(" * 60 + "1" + ")" * 60,
    "{previous, next(previous)}", "holds(any)", "min(players, 99999999999999999999)", "players * 10**9",
    "9" * 5000, "3..", "3..6", "6..3", "0..0", "1..99999", "..", "-1..2", "a..b", "\u0660\u0661", "\u00b2",
    "standard", "english-ascending", "base.yaml", "../base.yaml", "/etc/passwd", "../../../../etc/passwd",
    "/dev/zero", "nul\x01l", "tab\there", "\u202e", "\U0001f0a1", "x" * 3000, [], {}, [None], [[[]]],
    {"a": {"b": {"c": None}}}, ["A", "A"], list(range(60)), ["clubs"] * 30, {"0": 1, "-1": 2},
)


@dataclass(frozen=True)
class Seed:
    """A file mutations start from: its name, suffix, the command that reads it, and its text."""

    name: str
    suffix: str
    command: str
    text: str


@dataclass(frozen=True)
class FuzzInput:
    """One generated file: how it was made, its suffix, the command that reads it, and its bytes."""

    how: str
    suffix: str
    command: str
    data: bytes


@cache
def seeds() -> tuple[Seed, ...]:
    """The shipped rulebooks (both forms), fixtures, the guide's examples and the scenario files."""
    found: list[Seed] = []
    rulebooks = [*sorted((ROOT / "rulebooks").glob("*.yaml")), *sorted((ROOT / "rulebooks").glob("*.cheat")),
                 *sorted((ROOT / "tests" / "fixtures").glob("*.yaml")),
                 *sorted((ROOT / "docs" / "examples").glob("*.yaml"))]
    for path in rulebooks:
        text = path.read_text(encoding="utf-8")
        found.append(Seed(path.name, path.suffix, "check", text))
        tree = read_yaml(SourceFile(str(path), text), Diagnostics()) if path.suffix == ".yaml" else None
        if isinstance(tree, MapNode):
            found.append(Seed(f"{path.stem}.cheat (from YAML)", ".cheat", "check", to_dsl(tree)))
    for path in sorted((ROOT / "tests" / "scenarios").rglob("*.yaml")):
        text = path.read_text(encoding="utf-8").replace("../../../rulebooks/english-ascending.yaml",
                                                        "english-ascending")
        found.append(Seed(f"{path.parent.name}/{path.name}", ".yaml", "scenario", text))
    return tuple(found)


def _node(value: Any) -> Node:
    if isinstance(value, dict):
        return MapNode(tuple(Entry(str(k), NOWHERE, _node(v)) for k, v in value.items()), NOWHERE)
    if isinstance(value, list):
        return ListNode(tuple(_node(v) for v in value), NOWHERE)
    return ScalarNode(value, NOWHERE)


def _awkward(rng: random.Random) -> Any:
    """An awkward value of its own, so that no later mutation changes AWKWARD."""
    return copy.deepcopy(rng.choice(AWKWARD))


def _paths(data: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in `data`, as the keys and indices that lead to it."""
    places = [here]
    if isinstance(data, dict):
        for key, value in data.items():
            places += _paths(value, (*here, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            places += _paths(value, (*here, index))
    return places


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


def _mutate_once(data: Any, rng: random.Random, donors: list[Any]) -> Any:
    """`data` with one structural change: a value deleted, replaced, copied, swapped, wrapped or added."""
    places = _paths(data)
    path = rng.choice(places)
    if not path:
        return rng.choice([data, [data], {"rulebook": data}, _awkward(rng)])
    parent, last = _get(data, path[:-1]), path[-1]
    action = rng.randrange(8)
    if action == 7:
        parent[last] = copy.deepcopy(_same_place(donors, path, parent[last]))
    elif action == 0:
        del parent[last]
    elif action == 1:
        parent[last] = _awkward(rng)
    elif action == 2:
        other = _get(data, rng.choice(places))
        parent[last] = copy.deepcopy(other) if other is not data else None
    elif action == 3:
        parent[last] = [parent[last]] if rng.random() < 0.5 else {"value": parent[last]}
    elif action == 4 and isinstance(parent, dict):
        parent[rng.choice(["deck", "claim", "variations", "extends", "use", "drop", "expect", "sets",
                           "position", "actions", "seed", "players", f"x{rng.randrange(9)}"])] = _awkward(rng)
    elif action == 5 and donors:
        donor = rng.choice(donors)
        donor_places = [p for p in _paths(donor) if p]
        if donor_places:
            parent[last] = copy.deepcopy(_get(donor, rng.choice(donor_places)))
    elif isinstance(parent, list):
        parent.insert(rng.randrange(len(parent) + 1), _awkward(rng))
    elif isinstance(parent, dict) and isinstance(last, str):
        parent[last + rng.choice(["", "s", "_", "."])] = _awkward(rng)
    return data


@cache
def _data(seed: Seed) -> Any:
    """The seed as plain data, read by cheatdsl's own reader for its form."""
    d = Diagnostics()
    source = SourceFile(f"<seed>{seed.suffix}", seed.text)
    tree = read_dsl(source, d) if seed.suffix == ".cheat" else read_yaml(source, d)
    return _plain(tree) if tree is not None else None


def _plain(node: Node) -> Any:
    if isinstance(node, MapNode):
        return {e.key: _plain(e.value) for e in node.entries}
    if isinstance(node, ListNode):
        return [_plain(i) for i in node.items]
    return node.value


def _same_place(donors: list[Any], path: tuple[Any, ...], default: Any) -> Any:
    """The value at `path` in the first donor that has one, else `default`."""
    for donor in donors:
        try:
            return _get(donor, path)
        except (KeyError, IndexError, TypeError):
            continue
    return default


def structural(seed: Seed, rng: random.Random) -> FuzzInput:
    """A structural mutation of `seed`, written as YAML or, for a rulebook, sometimes as the text DSL."""
    data = copy.deepcopy(_data(seed))
    donors = [_data(s) for s in rng.sample(seeds(), 2)]
    for _ in range(rng.choice((1, 1, 1, 2, 4))):
        data = _mutate_once(data, rng, donors)
    as_dsl = seed.command == "check" and isinstance(data, dict) and rng.random() < 0.4
    if as_dsl:
        try:
            return FuzzInput(f"structural {seed.name} as DSL", ".cheat", seed.command, to_dsl(_node(data)).encode())
        except (EmitError, TypeError, ValueError, AttributeError):
            pass
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False,
                          default_flow_style=rng.choice([False, None, True]))
    return FuzzInput(f"structural {seed.name}", ".yaml", seed.command, text.encode("utf-8", "surrogatepass"))


TOKENS = (b"{", b"}", b"[", b"]", b":", b",", b";", b"`", b'"', b"'", b"\\", b"#", b"&a", b"*a", b"!!python/name:os.system",
          b"!x", b"? ", b"- ", b"---\n", b"...\n", b"|\n", b">-\n", b"\t", b"\r", b"\n", b"\x00", b"\xff", b"\xc3",
          b"\xef\xbb\xbf", b"..", b"1..", b"next(", b")", b"aces", b"extends: standard\n", b"use [x]\n",
          b"%YAML 1.1\n", b"%TAG ! tag:x,2000:\n", b"<<: ", b"\\u0000", b"\\U0010ffff", b"9" * 400)


def bytewise(seed: Seed, rng: random.Random) -> FuzzInput:
    """A byte-level mutation of `seed`: bytes flipped, inserted, deleted, repeated, spliced or cut."""
    data = bytearray(seed.text.encode("utf-8"))
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(data) + 1)
        action = rng.randrange(7)
        if action == 0 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif action == 1:
            data[at:at] = rng.choice(TOKENS)
        elif action == 2:
            del data[at:at + rng.randint(1, 64)]
        elif action == 3:
            piece = bytes(data[at:at + rng.randint(1, 40)])
            data[at:at] = piece * rng.randint(2, 200)
        elif action == 4:
            other = rng.choice(seeds()).text.encode("utf-8")
            start = rng.randrange(len(other) + 1)
            data[at:at] = other[start:start + rng.randint(1, 400)]
        elif action == 5:
            del data[at:]
        else:
            data[at:at] = bytes(rng.randrange(32, 127) for _ in range(rng.randint(1, 20)))
    return FuzzInput(f"bytes {seed.name}", seed.suffix, seed.command, bytes(data))


def garbage(rng: random.Random) -> FuzzInput:
    """Random bytes: any byte at all, printable text, or brackets and punctuation."""
    size = rng.choice([0, 1, 2, 8, 64, 512, 4096])
    alphabet = rng.choice([bytes(range(256)), bytes(range(32, 127)) + b"\n\t", b"{}[]:,;`\"'#&*!?-|>\n \t.0123456789"])
    suffix, command = rng.choice([(".yaml", "check"), (".cheat", "check"), (".yaml", "scenario")])
    return FuzzInput("garbage", suffix, command, bytes(rng.choice(alphabet) for _ in range(size)))


def fuzz_input(number: int, campaign_seed: int = 0, command: str | None = None) -> FuzzInput:
    """Input `number` of a campaign: the same file every time for the same numbers; `command` (check or
    scenario) keeps to rulebooks or to scenarios."""
    rng = random.Random(f"{campaign_seed}:{number}")
    kind = rng.random()
    wanted = command
    command = "check" if rng.random() < 0.6 else "scenario"
    command = wanted or command
    seed = rng.choice([s for s in seeds() if s.command == command])
    if kind < 0.5:
        return structural(seed, rng)
    if kind < 0.9:
        return bytewise(seed, rng)
    made = garbage(rng)
    if wanted is not None and made.command != wanted:
        made = FuzzInput(made.how, ".yaml", wanted, made.data)
    return made


def classify(command: str, status: object, output: str) -> tuple[str, str]:
    """What one command made of an input, from its exit status and output: an outcome and a note."""
    if status not in (0, 1) or "Traceback" in output or "cheatdsl: internal error" in output:
        return "internal error", f"exit {status}: {output[-2000:]}"
    if "read back differently" in output:
        return "internal error", f"fmt: {output[-2000:]}"
    if status == 0:
        return "accepted", ""
    located = [m for m in LOCATED.finditer(output) if int(m.group("line")) >= 1]
    if located and len(located) == len(DIAGNOSTIC.findall(output)):
        return "located errors", ""
    if command == "scenario" and not DIAGNOSTIC.findall(output):
        return "accepted", ""  # it ran and failed its checks
    return "unlocated", output[-2000:]
