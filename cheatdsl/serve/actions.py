"""An action as the page sends it (JSON) read into an engine action, every field checked."""

from __future__ import annotations

from typing import Any

from ..engine import ACCEPT, KEEP, PASS, Action, Challenge, DiscardSet, Game, Play
from .session import Refused

MOST_CARDS = 500


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refused(f"`{what}` must be a whole number", 400)
    return value


def read_action(game: Game, data: Any) -> Action | str:
    """The engine action (or `continue`, `next`) that `data` describes; Refused (400) when malformed."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise Refused("`action` must be an object with a `type`", 400)
    kind = data["type"]
    if kind in ("continue", "next"):
        return kind
    if kind == "pass":
        return PASS
    if kind == "accept":
        return ACCEPT
    if kind == "keep":
        return KEEP
    if kind == "challenge":
        name = data.get("kind")
        if not isinstance(name, str) or name not in game.rules.kind_by_name:
            raise Refused("`kind` must name one of this game's challenges: " + ", ".join(game.rules.kind_by_name), 400)
        return Challenge(name)
    if kind == "discard":
        rank = _int(data.get("rank"), "rank")
        if not 0 <= rank < game.rules.rank_count:
            raise Refused("`rank` is not a rank of this game", 400)
        return DiscardSet(rank)
    if kind == "play":
        cards = data.get("cards")
        if not isinstance(cards, list) or len(cards) > MOST_CARDS:
            raise Refused("`cards` must be a list of card values", 400)
        values = [_int(c, "cards") for c in cards]
        if any(not 0 <= c <= game.rules.joker for c in values):
            raise Refused("`cards` holds a value that is no card of this game", 400)
        claim = _int(data.get("claim"), "claim")
        if claim not in game.rules.claim_order:
            raise Refused("`claim` is not a claim of this game", 400)
        count = _int(data.get("count", len(values)), "count")
        if not 0 <= count <= max(len(game.rules.table.deck), 1):
            raise Refused("`count` is out of range", 400)
        return Play(tuple(sorted(values)), claim, count)
    raise Refused(f"unknown action type `{kind[:40]}`", 400)
