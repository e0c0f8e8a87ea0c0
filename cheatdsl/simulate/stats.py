"""A run's statistics as values: what `simulate` returns, and the one JSON form of it.

`Statistics.as_json()` is the object `cheatdsl simulate --format json` prints (and `cheatdsl compare`
carries per rulebook); `Statistics.from_json` reads it back, as a sweep does with its stored cells.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..tally import Json, Spread


@dataclass(frozen=True)
class Share:
    """One seat's count of games, its share of the games counted, and the share's 95% Wilson interval."""

    seat: int
    count: int
    share: float
    low: float
    high: float

    def as_json(self) -> Json:
        return {"seat": self.seat, "count": self.count, "share": self.share, "low": self.low, "high": self.high}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Share:
        return cls(data["seat"], data["count"], data["share"], data["low"], data["high"])


@dataclass(frozen=True)
class Challenges:
    """Challenges made, a game, and how many caught a lie (`failed`: the play was true)."""

    total: int
    per_game: float
    caught: int
    failed: int
    caught_share: float

    def as_json(self) -> Json:
        return {"total": self.total, "per_game": self.per_game, "caught": self.caught, "failed": self.failed,
                "caught_share": self.caught_share}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Challenges:
        return cls(data["total"], data["per_game"], data["caught"], data["failed"], data["caught_share"])


@dataclass(frozen=True)
class ForcedBluffs:
    """Plays by a seat that held nothing passing as any claim allowed: in all, a game, and of all plays."""

    total: int
    per_game: float
    share_of_plays: float

    def as_json(self) -> Json:
        return {"total": self.total, "per_game": self.per_game, "share_of_plays": self.share_of_plays}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ForcedBluffs:
        return cls(data["total"], data["per_game"], data["share_of_plays"])


@dataclass(frozen=True)
class Pickups:
    """How many pickups there were and the cards taken at each."""

    count: int
    cards: Spread

    def as_json(self) -> Json:
        return {"count": self.count, **self.cards.as_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Pickups:
        return cls(data["count"], Spread.from_json(data))


@dataclass(frozen=True)
class FirstPlayer:
    """The first player's wins of the decided games, their share with its interval, the fair share
    (one in the number of players) and the advantage over it."""

    wins: int
    games: int
    share: float
    low: float
    high: float
    fair: float
    advantage: float

    def as_json(self) -> Json:
        return {"wins": self.wins, "games": self.games, "share": self.share, "low": self.low, "high": self.high,
                "fair": self.fair, "advantage": self.advantage}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FirstPlayer:
        return cls(data["wins"], data["games"], data["share"], data["low"], data["high"], data["fair"],
                   data["advantage"])


@dataclass(frozen=True)
class Settings:
    """How a run was played: the rulebook (its name, and how a command line names it), the table, the seed."""

    rulebook: str
    reference: str
    variations: tuple[str, ...]
    players: int
    bots: tuple[str, ...]
    seed: int
    turn_cap: int
    challenge_rate: float
    jobs: int

    def as_json(self) -> Json:
        return {"rulebook": self.rulebook, "reference": self.reference, "variations": list(self.variations),
                "players": self.players, "bots": list(self.bots), "seed": self.seed, "turn_cap": self.turn_cap,
                "challenge_rate": self.challenge_rate, "jobs": self.jobs}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Settings:
        return cls(data["rulebook"], data["reference"], tuple(data["variations"]), data["players"],
                   tuple(data["bots"]), data["seed"], data["turn_cap"], data["challenge_rate"], data["jobs"])


@dataclass(frozen=True)
class Losers:
    """In a last-holder-loses game: the loser by seat, and each seat's share of the games with a loser."""

    by_seat: tuple[int, ...]
    shares: tuple[Share, ...]


@dataclass(frozen=True)
class Statistics:
    """Every number of a run. Unfinished games (`capped` by the turn cap, `stuck` with no legal action)
    have no winner: win counts and shares are of the `decided` games."""

    settings: Settings
    games: int
    finished: int
    capped: int
    stuck: int
    unfinished: int
    actions: int               # every decision: plays, passes, responses, set discards
    actions_per_game: float
    plays: int
    turns: Spread              # plays and passes a game, of every game
    turns_histogram: tuple[tuple[int, int], ...]  # (turns, games that lasted that many), by turns
    challenges: Challenges
    forced_bluffs: ForcedBluffs
    pickups: Pickups
    decided: int
    wins_by_seat: tuple[int, ...]
    win_shares: tuple[Share, ...]
    wins_by_position: tuple[int, ...]  # counted from the first player to play
    first_player: FirstPlayer
    losers: Losers | None      # None where the first player out wins

    def as_json(self) -> Json:
        """The JSON object: the settings, then each statistic under its key."""
        out: Json = {
            **self.settings.as_json(),
            "games": self.games,
            "finished": self.finished,
            "capped": self.capped,
            "stuck": self.stuck,
            "unfinished": self.unfinished,
            "actions": self.actions,
            "actions_per_game": self.actions_per_game,
            "plays": self.plays,
            "turns_summary": self.turns.as_json(),
            "turns_histogram": [[v, k] for v, k in self.turns_histogram],
            "challenges": self.challenges.as_json(),
            "forced_bluffs": self.forced_bluffs.as_json(),
            "pickups": self.pickups.as_json(),
            "decided": self.decided,
            "wins_by_seat": list(self.wins_by_seat),
            "win_shares": [s.as_json() for s in self.win_shares],
            "wins_by_position": list(self.wins_by_position),
            "first_player": self.first_player.as_json(),
        }
        if self.losers is not None:
            out["losers_by_seat"] = list(self.losers.by_seat)
            out["loser_shares"] = [s.as_json() for s in self.losers.shares]
        from .artefacts import artefacts  # it reads these statistics
        out["bots_habit"] = artefacts(self)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Statistics:
        """The statistics from their JSON object; KeyError or TypeError for one that is not."""
        losers = None
        if "losers_by_seat" in data:
            losers = Losers(tuple(data["losers_by_seat"]), tuple(Share.from_json(s) for s in data["loser_shares"]))
        return cls(
            Settings.from_json(data), data["games"], data["finished"], data["capped"], data["stuck"],
            data["unfinished"], data["actions"], data["actions_per_game"], data["plays"],
            Spread.from_json(data["turns_summary"]), tuple((v, k) for v, k in data["turns_histogram"]),
            Challenges.from_json(data["challenges"]), ForcedBluffs.from_json(data["forced_bluffs"]),
            Pickups.from_json(data["pickups"]), data["decided"], tuple(data["wins_by_seat"]),
            tuple(Share.from_json(s) for s in data["win_shares"]), tuple(data["wins_by_position"]),
            FirstPlayer.from_json(data["first_player"]), losers)
