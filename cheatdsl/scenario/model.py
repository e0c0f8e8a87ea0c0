"""A scenario: a table ruling as an executable test, in the file format the verifier also writes."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from ..source import Span

if TYPE_CHECKING:
    from .runner import ScenarioResult

FIELDS = ("scenario", "source", "rulebook", "variations", "players", "seed", "deck", "dealer", "position", "actions",
          "expect")
POSITION_FIELDS = ("dealer", "hands", "pile", "stock", "aside", "to_play", "previous", "leading", "out",
                   "last_player")


@dataclass
class Scenario:
    """A deal by the rules (from a shuffle seed, or from the deck in a given order) or a position, the actions
    played from it, and what must hold afterwards.

    Values stay in the notation of the file (cards as `7C`, claims as `2 sevens`, actions as
    `"0: play 7C KD as 2 sevens"`), so a scenario can be written out again unchanged. An entry of
    `actions` is either such a text or `{"expect": {...}}`, a checkpoint part way through.
    """

    name: str
    rulebook: str
    players: int
    actions: list[Any] = field(default_factory=list)
    expect: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    variations: list[str] = field(default_factory=list)
    seed: int | None = None
    deck: list[str] | None = None  # the deck in shuffled order, top first, dealt by the rules
    dealer: int | None = None
    position: dict[str, Any] | None = None
    path: str | None = None
    where: dict[str, Span] = field(default_factory=dict, compare=False, repr=False)

    def span(self, key: str) -> Span:
        """Where `key` (a dotted path such as `expect.hands.1`) was written, or the closest parent."""
        parts = key.split(".")
        while parts:
            found = self.where.get(".".join(parts))
            if found is not None:
                return found
            parts.pop()
        return Span(self.path or "<scenario>", 1, 1)

    @property
    def base_dir(self) -> Path:
        return Path(self.path).resolve().parent if self.path else Path.cwd()

    def to_plain(self) -> dict[str, Any]:
        """The scenario as plain values, keys in the file format's order."""
        out: dict[str, Any] = {"scenario": self.name}
        if self.source:
            out["source"] = self.source
        out["rulebook"] = self.rulebook
        out["variations"] = list(self.variations)
        out["players"] = self.players
        if self.position is not None:
            out["position"] = {k: self.position[k] for k in POSITION_FIELDS if k in self.position}
        else:
            if self.seed is not None:
                out["seed"] = self.seed
            if self.deck is not None:
                out["deck"] = list(self.deck)
            if self.dealer is not None:
                out["dealer"] = self.dealer
        out["actions"] = list(self.actions)
        out["expect"] = dict(self.expect)
        return out

    def to_yaml(self) -> str:
        """The scenario file's text."""
        return yaml.dump(self.to_plain(), Dumper=_Dumper, sort_keys=False, default_flow_style=None,
                         allow_unicode=True, width=110)

    def save(self, path: str) -> None:
        """Write the scenario to `path` (a rulebook path stays as given: relative to the file)."""
        Path(path).write_text(self.to_yaml(), encoding="utf-8")

    @classmethod
    def load(cls, path: str) -> Scenario:
        """Read a scenario file; raises ScenarioError with located diagnostics when it is malformed."""
        from ..diagnostics import Diagnostics
        from .reader import ScenarioError, read_scenario
        d = Diagnostics()
        scenario = read_scenario(path, d)
        if scenario is None or d.has_errors():
            raise ScenarioError(d)
        return scenario

    def run(self) -> ScenarioResult:
        """Play the scenario and check its expectations."""
        from .runner import run
        return run(self)


class _Dumper(yaml.SafeDumper):
    """Safe YAML with no aliases, so a written scenario reads back in the project's YAML reader."""

    def ignore_aliases(self, data: Any) -> bool:
        return True
