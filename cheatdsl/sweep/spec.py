"""Reading a sweep spec (a small YAML file) into a `Spec`, every problem located like a compiler's.

The field table `FIELDS` is the one source of the reader's checks, of docs/sweeps.md's table and of
the JSON Schema (`python -m cheatdsl.sweep.schema`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostics
from ..files import FileRefused, Refusal, read_text
from ..limits import MAX_FILE_BYTES
from ..profiles import NAME_RULE, is_safe_name
from ..seeds import reduce_seed
from ..source import SourceFile, Span
from ..syntax.tree import MapNode
from ..syntax.yaml_reader import read_yaml

VARIATION_MODES = ("none", "each", "all")
PLAYER_MODES = ("min", "all")
MAX_CELLS = 100_000


@dataclass(frozen=True)
class Field:
    """One key of a spec: its JSON Schema, its default (None: required or absent) and its reference text."""

    name: str
    schema: dict[str, Any]
    doc: str
    default: Any = None
    required: bool = False


def _property_ids() -> list[str]:
    from ..properties import PROPERTY_IDS
    return list(PROPERTY_IDS)


def _bot_names() -> list[str]:
    from ..bots import BOTS
    return list(BOTS)


_NAME = {"type": "string", "pattern": r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$"}
_COMBINATION = {"type": "array", "items": _NAME, "uniqueItems": True}

FIELDS: tuple[Field, ...] = (
    Field("sweep", _NAME, "the sweep's name, which names the default results folder (default: the spec file's name)"),
    Field("rulebooks", {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1},
          "rulebook files (relative to the spec's folder, confined like `extends:`) or shipped profile names",
          required=True),
    Field("variations", {"oneOf": [{"enum": list(VARIATION_MODES)}, {"type": "array", "items": _COMBINATION,
                                                                      "minItems": 1}]},
          "`none` (the rulebook as written), `each` (as written, then each variation alone), `all` (every "
          "combination), or a list of combinations such as [[], [counting-down], [counting-down, show-the-pile]]",
          default="none"),
    Field("players", {"oneOf": [{"enum": list(PLAYER_MODES)},
                                {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1}]},
          "player counts: a list such as [3, 4], `min` (each rulebook's fewest) or `all` (every count it allows); "
          "a count a rulebook does not allow is skipped for it", default="min"),
    Field("bots", {"type": "array", "items": {"type": "string", "pattern": r"^[a-z]+(\s*,\s*[a-z]+)*$"},
                   "minItems": 1},
          "bot mixes: each one bot name for every seat, or one per seat in seat order (`greedy,honest,random`); "
          "a mix naming another number of seats than a cell has is skipped there", default=["honest"]),
    Field("games", {"type": "integer", "minimum": 0, "maximum": 10_000_000},
          "games simulated per cell (0: no simulation)", default=100),
    Field("seed", {"type": "integer"}, "the sweep's seed, any whole number (taken modulo 2^63, as every command "
          "takes a seed); each cell's seed derives from it and the cell itself, never from the order cells run in",
          default=0),
    Field("verify", {"oneOf": [{"type": "boolean"}, {"type": "array", "items": {"enum": "PROPERTY_IDS"},
                                                      "minItems": 1}]},
          "run the verifier in each cell at its player count: `true` (every property), `false`, or a list of "
          "property ids", default=False),
    Field("turn_cap", {"type": "integer", "minimum": 1, "maximum": 10_000_000}, "stop a simulated game after "
          "this many turns, from 1 to 10,000,000 as `simulate --turn-cap` (default 2000, or the rulebook's own cap)"),
    Field("challenge_rate", {"type": "number", "minimum": 0, "maximum": 1},
          "how often the bots challenge (`simulate --challenge-rate`)", default=0.15),
    Field("rate", {"type": "integer", "minimum": 0, "maximum": 100_000},
          "games of the rating ladder (`cheatdsl rate --games`) played in each cell at its player count, from 0 "
          "(no rating) to 100,000: adds the skill index and the first-player advantage between strong bots, with "
          "95% intervals; the ladder brings its own bots, whatever the cell's mix (60 games take about 15 s)",
          default=0),
)
FIELD_NAMES = tuple(f.name for f in FIELDS)


@dataclass(frozen=True)
class Spec:
    """A sweep as asked: what to run in each cell, and where the spec lives."""

    name: str
    folder: Path
    rulebooks: tuple[str, ...]
    variations: str | tuple[tuple[str, ...], ...] = "none"
    players: str | tuple[int, ...] | None = "min"  # None: the verifier's own counts (explore)
    bots: tuple[str, ...] = ("honest",)
    games: int = 100
    seed: int = 0
    verify: tuple[str, ...] | None = None
    turn_cap: int | None = None
    challenge_rate: float = 0.15
    rate: int = 0
    where: dict[str, Span] = field(default_factory=dict, compare=False)


def read_spec(path: str, d: Diagnostics) -> Spec | None:
    """The spec in `path`, or None after recording why it cannot be read."""
    from ..scenario.reader import plain
    at = Span(path, 1, 1)
    try:
        text = read_text(path, MAX_FILE_BYTES)
    except FileRefused as refused:
        if refused.refusal is Refusal.TOO_LARGE:
            d.error(at, "W002", f"the file is larger than {MAX_FILE_BYTES:,} bytes; a sweep spec is a few lines")
        elif refused.refusal is Refusal.NOT_TEXT:
            d.error(Span(path, refused.line, 1), "W002", "the file is not UTF-8 text")
        else:
            d.error(at, "W001", f"no sweep spec at '{path}': {refused.words()}")
        return None
    source = SourceFile(path, text)
    d.sources[path] = source
    tree = read_yaml(source, d) if text.strip() else None
    if not isinstance(tree, MapNode):
        if not d.has_errors():
            d.error(at, "W010", "a sweep spec is a mapping with `rulebooks:`, `players:`, `bots:`, ...")
        return None
    where: dict[str, Span] = {}
    raw: dict[str, Any] = {}
    for entry in tree.entries:
        if entry.key not in FIELD_NAMES:
            from ..scenario.reader import _suggest
            d.error(entry.key_span, "W011", f"unknown key `{entry.key}` in a sweep spec",
                    _suggest(entry.key, FIELD_NAMES))
            continue
        raw[entry.key] = plain(entry.value, where, entry.key)
    file = Path(path)
    return spec_from(raw, file.stem, file.resolve().parent, d, where, tree.span)


def spec_from(raw: dict[str, Any], default_name: str, folder: Path, d: Diagnostics,
              where: dict[str, Span] | None = None, at: Span | None = None) -> Spec | None:
    """A Spec from plain values (a read file, or a command line's), problems recorded in `d`."""
    where = where or {}
    here = at or Span("<sweep>", 1, 1)
    values: dict[str, Any] = {}
    for f in FIELDS:
        if f.name not in raw or raw[f.name] is None:
            if f.required:
                d.error(here, "W012", f"the sweep spec has no `{f.name}:`", f.doc)
            values[f.name] = CHECKS[f.name](f.default)[0] if f.default is not None else None
            continue
        problem = CHECKS[f.name](raw[f.name])
        if isinstance(problem, str):
            d.error(where.get(f.name, here), "W014", f"`{f.name}`: {problem}", f.doc)
            continue
        values[f.name] = problem[0]
    if not d.has_errors() and values["games"] == 0 and values["verify"] is None and not values["rate"]:
        d.error(where.get("games", here), "W015", "nothing to run: `games` is 0, `verify` is false and `rate` is 0",
                "simulate some games, verify some properties, rate the rulebooks, or any of them")
    if d.has_errors():
        return None
    name = values["sweep"] or default_name
    if not is_safe_name(name):
        name = "sweep"
    return Spec(name=name, folder=folder, rulebooks=tuple(values["rulebooks"]), variations=values["variations"],
                players=values["players"], bots=tuple(values["bots"]), games=values["games"], seed=values["seed"],
                verify=values["verify"], turn_cap=values["turn_cap"], challenge_rate=float(values["challenge_rate"]),
                rate=values["rate"], where=where)


Checked = tuple[Any] | str  # (value,) when good, the problem otherwise


def _whole(low: int, high: int | None = None) -> Callable[[Any], Checked]:
    def check(value: Any) -> Checked:
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
            top = f" to {high:,}" if high is not None else " up"
            return f"expected a whole number from {low}{top}, found {value!r}"
        return (value,)
    return check


def _seed(value: Any) -> Checked:
    if isinstance(value, bool) or not isinstance(value, int):
        return f"expected a whole number, found {value!r}"
    return (reduce_seed(value),)


def _name(value: Any) -> Checked:
    return (value,) if is_safe_name(value) else f"a name is {NAME_RULE}; found {value!r}"


def _rulebooks(value: Any) -> Checked:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        return "expected a list of rulebook files or shipped profile names"
    return (list(dict.fromkeys(value)),)


def _variations(value: Any) -> Checked:
    if isinstance(value, str):
        return (value,) if value in VARIATION_MODES else f"expected {', '.join(VARIATION_MODES)} or a list, found {value!r}"
    if not isinstance(value, list) or not value:
        return "expected none, each, all, or a list of combinations"
    out = []
    for combo in value:
        combo = [combo] if isinstance(combo, str) else combo
        if not isinstance(combo, list) or not all(is_safe_name(v) for v in combo):
            return f"a combination is a list of variation names, found {combo!r}"
        if len(set(combo)) != len(combo):
            return f"a combination names a variation twice: {combo!r}"
        out.append(tuple(combo))
    return (tuple(dict.fromkeys(out)),)


def _players(value: Any) -> Checked:
    if isinstance(value, str):
        return (value,) if value in PLAYER_MODES else f"expected min, all or a list of counts, found {value!r}"
    if not isinstance(value, list) or not value or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1
                                                            for v in value):
        return "expected a list of player counts such as [3, 4], min or all"
    return (tuple(sorted(set(value))),)


def _bots(value: Any) -> Checked:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        return "expected a list of bot mixes such as [honest, \"greedy,honest,random\"]"
    known = _bot_names()
    out = []
    for mix in value:
        names = [b.strip() for b in mix.split(",")]
        wrong = [b for b in names if b not in known]
        if wrong:
            return f"there is no bot `{wrong[0]}`; the bots are " + ", ".join(known)
        out.append(",".join(names))
    return (list(dict.fromkeys(out)),)


def _verify(value: Any) -> Checked:
    ids = _property_ids()
    if isinstance(value, bool):
        return (tuple(ids) if value else None,)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        return "expected true, false or a list of property ids"
    wrong = [v for v in value if v not in ids]
    if wrong:
        return f"there is no property `{wrong[0]}`; the properties are " + ", ".join(ids)
    return (tuple(p for p in ids if p in value),)


def _rate(value: Any) -> Checked:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        return f"expected a probability from 0 to 1, found {value!r}"
    return (value,)


CHECKS: dict[str, Callable[[Any], Checked]] = {
    "sweep": _name, "rulebooks": _rulebooks, "variations": _variations, "players": _players, "bots": _bots,
    "games": _whole(0, 10_000_000), "seed": _seed, "verify": _verify, "turn_cap": _whole(1, 10_000_000),
    "challenge_rate": _rate, "rate": _whole(0, 100_000),
}


def field_table() -> str:
    """The spec's fields as the Markdown table docs/sweeps.md holds (a test keeps the two the same)."""
    lines = ["| key | default | meaning |", "|---|---|---|"]
    for f in FIELDS:
        default = "required" if f.required else ("-" if f.default is None else f"`{_yaml(f.default)}`")
        lines.append(f"| `{f.name}` | {default} | {f.doc} |")
    return "\n".join(lines)


def _yaml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)
