"""A sweep's cells: one rulebook, variation combination, player count and bot mix each, with its key and seed.

A cell's key hashes everything its result depends on (the rulebook files' content, the variations,
players, bots, games, seed, settings and the tool's version), so a result file is reused only by
the cell that made it. Its seed derives from the sweep's seed and the cell's identity, never from
the order cells run in; game i of the cell is seeded from (cell seed, i) as in `simulate`.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import asdict, dataclass, field
from hashlib import blake2b
from pathlib import Path
from typing import Any

from .. import __version__
from ..diagnostics import Diagnostics
from ..files import FileRefused, read_text
from ..model import Rulebook
from ..reach import Reached, Refused, resolve_reference
from .spec import MAX_CELLS, Spec


class SpecError(Exception):
    """A spec that names something that cannot be run (a usage error): a rulebook, a variation, ..."""


@dataclass(frozen=True)
class Source:
    """A rulebook as a worker needs it: its path, and the text of each file it was built from."""

    path: str
    files: tuple[tuple[str, str], ...]  # (absolute path, text), the rulebook's own file first
    digest: str


@dataclass(frozen=True)
class Cell:
    """One run of the sweep: `games` 0 plays nothing, `verify` None verifies nothing, `players` None lets
    the verifier choose its player counts (explore's default)."""

    rulebook: str          # as the spec names it
    name: str              # the rulebook's own name
    variations: tuple[str, ...]
    players: int | None
    bots: str              # the mix as written ("honest", "greedy,honest,random")
    games: int
    seed: int              # the sweep's seed
    verify: tuple[str, ...] | None
    turn_cap: int | None
    challenge_rate: float
    source: Source = field(compare=False, repr=False)
    clash: str = ""        # why the combination cannot be played (then nothing runs)
    rate_games: int = 0    # games of the rating ladder (0: not rated); seeded from the cell's seed

    def identity(self) -> dict[str, Any]:
        """What the cell is, without how much of it is run: its seed derives from this."""
        return {"rulebook": self.source.digest, "variations": list(self.variations), "players": self.players,
                "bots": self.bots, "turn_cap": self.turn_cap, "challenge_rate": self.challenge_rate}

    @property
    def key(self) -> str:
        """The hash naming the cell's result file."""
        data = {**self.identity(), "games": self.games, "seed": self.seed,
                "verify": list(self.verify) if self.verify is not None else None, "clash": self.clash,
                "version": __version__}
        if self.rate_games:  # so that a cell that is not rated keeps the key it had before ratings
            data["rate"] = self.rate_games
        return _hash(data, 16)

    @property
    def cell_seed(self) -> int:
        """The seed the cell's games are dealt from: (sweep seed, cell identity) alone."""
        return int(_hash({"seed": self.seed, **self.identity()}, 8), 16) >> 1

    def describe(self) -> dict[str, Any]:
        """The cell's columns, as the table and the result files show them."""
        out = {k: v for k, v in asdict(self).items() if k not in ("source", "clash")}
        if not self.rate_games:
            del out["rate_games"]
        out["variations"] = list(self.variations)
        out["verify"] = list(self.verify) if self.verify is not None else None
        out["key"] = self.key
        out["cell_seed"] = self.cell_seed
        return out

    @property
    def label(self) -> str:
        """A short name for charts: rulebook, variations, players, bots."""
        parts = [self.name + ("+" + "+".join(self.variations) if self.variations else "")]
        if self.players is not None:
            parts.append(f"{self.players}p")
        if self.games:
            parts.append(self.bots)
        return " ".join(parts)


def _hash(data: dict[str, Any], size: int) -> str:
    return blake2b(json.dumps(data, sort_keys=True).encode(), digest_size=size).hexdigest()


def locate(reference: str, folder: Path) -> Path:
    """The rulebook file a spec names: confined like `extends:`; SpecError otherwise."""
    reached = resolve_reference(reference, folder, what="rulebooks")
    if isinstance(reached, Refused):
        raise SpecError(f"{reached.message}: {reached.hint}")
    if not isinstance(reached, Reached):
        raise SpecError(f"no shipped profile `{reference}` (`cheatdsl list` shows them); "
                        "a file is named with its suffix, such as house.yaml")
    if not reached.path.is_file():
        raise SpecError(f"no rulebook file at '{reference}' (read relative to the spec's folder)")
    return reached.path


def compiled_base(reference: str, folder: Path) -> tuple[Path, Rulebook]:
    """A spec's rulebook, found and compiled as written; SpecError when it cannot be."""
    from ..load import compile_rulebook
    path = locate(reference, folder)
    base, d = compile_rulebook(str(path))
    if base is None:
        raise SpecError(f"{reference} does not compile ({len(d.errors)} errors; `cheatdsl check {path}`)")
    return path, base


def source_of(rulebook: Rulebook) -> Source:
    """The rulebook's files and their hash."""
    files = []
    for path in dict.fromkeys((rulebook.path, *rulebook.chain)):
        try:
            files.append((str(path), read_text(str(path))))
        except FileRefused:
            files.append((str(path), ""))
    digest = blake2b("\x00".join(f"{Path(p).name}\x00{t}" for p, t in files).encode(), digest_size=16).hexdigest()
    return Source(str(rulebook.path), tuple(files), digest)


def combinations(spec_variations: Any, offered: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The variation combinations a spec asks of a rulebook offering `offered` (in its order)."""
    if spec_variations == "none":
        return [()]
    if spec_variations == "each":
        return [(), *((v,) for v in offered)]
    if spec_variations == "all":
        return [c for n in range(len(offered) + 1) for c in itertools.combinations(offered, n)]
    return list(spec_variations)


def player_counts(spec_players: Any, low: int, high: int) -> list[int]:
    """The counts a spec asks of a rulebook for `low`..`high` players (those it allows)."""
    if spec_players == "min":
        return [low]
    if spec_players == "all":
        return list(range(low, high + 1))
    if spec_players is None:
        return []
    return [n for n in spec_players if low <= n <= high]


def expand(spec: Spec, skipped: list[str] | None = None) -> list[Cell]:
    """Every cell of the spec, in spec order; combinations that clash are cells with `clash` set.

    SpecError for a rulebook that cannot be found or compiled, or a variation it does not offer.
    `skipped` collects notes on player counts and bot mixes left out for a rulebook.
    """
    from ..load import compile_rulebook
    from ..simulate import seat_bots
    notes = skipped if skipped is not None else []
    cells: list[Cell] = []
    for reference in spec.rulebooks:
        path, base = compiled_base(reference, spec.folder)
        offered = tuple(v.name for v in base.variations)
        if spec.variations == "all" and 2 ** len(offered) > MAX_CELLS:
            raise SpecError(f"{reference} has {len(offered)} variations: every combination is over "
                            f"{MAX_CELLS:,} cells; list the combinations wanted")
        for combo in combinations(spec.variations, offered):
            wrong = [v for v in combo if v not in offered]
            if wrong:
                raise SpecError(f"{reference} has no variation {wrong[0]}; its variations: "
                                + (", ".join(offered) or "none"))
            rulebook, d = compile_rulebook(str(path), combo)
            clash = "" if rulebook is not None else _reason(d)
            built = rulebook or base
            source = source_of(built)
            counts: list[int | None] = list(player_counts(spec.players, built.players.min, built.players.max))
            if spec.players is None:
                counts = [None]
            elif not counts:
                notes.append(f"{reference} {'+'.join(combo) or '(as written)'}: no player count asked is "
                             f"allowed ({built.players.min}..{built.players.max})")
            for players in counts:
                mixes = spec.bots if spec.games and players is not None else ("",)
                for mix in mixes:
                    if mix and players is not None:
                        try:
                            seat_bots(mix, players)
                        except ValueError:
                            notes.append(f"bots {mix} skipped at {players} players")
                            continue
                    cells.append(Cell(reference, base.name, tuple(combo), players, mix, spec.games if mix else 0,
                                      spec.seed, spec.verify, spec.turn_cap, spec.challenge_rate, source, clash,
                                      spec.rate if players is not None else 0))
                    if len(cells) > MAX_CELLS:
                        raise SpecError(f"the spec makes over {MAX_CELLS:,} cells; split it")
    return cells


def _reason(d: Diagnostics) -> str:
    """The checker's reason a combination cannot be played: its first error, with the hint."""
    first = d.errors[0] if d.errors else None
    if first is None:
        return "the combination does not compile"
    text = f"{first.code}: {first.message}"
    # A hint naming a place names the file alone, so that the reason (and the cell's key) is the same anywhere.
    hint = re.sub(r"(?:[A-Za-z]:)?[/\\]\S*[/\\]([^/\\\s]+:\d+:\d+)", r"\1", first.hint)
    return f"{text} ({hint})" if hint else text
