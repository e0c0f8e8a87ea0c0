"""Unfinished games as a finding: how many, why, and which verifier command explains them.

A game stopped by the turn cap or left with no legal action has no result, so its length is kept
out of the turns of finished games (read from the statistics' histogram) and its seats out of
the win shares; what stopped it is said in words, beside the verifier's verdict on the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..simulate import Statistics
from ..tally import Histogram, Spread
from .svg import counted_share


def finished_turns(d: Statistics) -> Spread | None:
    """The turns summary of the games that ended without the turn cap, or None when none did.

    Capped games all sit at the cap in the histogram; games stuck with no legal action cannot be told
    apart from finished ones there and stay in (the rows say so).
    """
    if not d.capped:
        return d.turns if d.games else None
    counter: Counter[int] = Counter(dict(d.turns_histogram))
    at = d.settings.turn_cap
    counter[at] -= min(d.capped, counter[at])
    kept = Histogram(+counter)
    return kept.spread() if kept.total else None


def _verdict(found: Mapping[str, Any] | None, pid: str) -> Mapping[str, Any] | None:
    return None if not found else found.get(pid)


def _why(found: Mapping[str, Any] | None, pid: str, ref: str, ran: bool) -> str:
    """What the verifier says about `pid` for these rules, and the command that replays its play."""
    command = f"`cheatdsl verify {ref} -p {pid} --save-witnesses DIR`"
    entry = _verdict(found, pid)
    if entry is None:
        said = "The verifier was not run" if not ran else "The verifier gave no verdict on it here"
        return f"{said}: {command} looks for the position behind it, replays it and saves it as a scenario."
    verdict, summary = entry.get("verdict", "?"), entry.get("summary", "")
    expected = entry.get("expected", "")
    known = ", as the rulebook expects" if expected == verdict else ""
    if verdict == "refuted":
        return (f"The verifier refutes {pid}{known}: {summary}. {command} replays that play and saves it as "
                "a scenario.")
    if verdict == "proved":
        return f"The verifier proves {pid}{known}: {summary}."
    return f"The verifier's verdict on {pid} is {verdict}: {summary}. {command} tries again."


def sentences(heading: str, d: Statistics, found: Mapping[str, Any] | None = None,
              ran: bool = True, each: bool = False) -> list[str]:
    """The finding for one rulebook's games (`each`: for several that played them alike), in plain words; [] when every game finished."""
    capped, stuck, unfinished, games = d.capped, d.stuck, d.unfinished, d.games
    if not unfinished or not games:
        return []
    ref = d.settings.reference or d.settings.rulebook or heading
    share = counted_share(unfinished, games).replace(" (", " (95% interval ", 1)
    out = [f"{heading}: {unfinished} of {games} games{' each' if each else ''} did not finish, {share}, so they have no result: "
           "their turns and seats are left out of the turns per game and the win shares, and counted apart."]
    if capped:
        out.append(f"{capped} reached the turn cap of {d.settings.turn_cap} turns without a winner. " + _why(found, "termination", ref, ran))
    if stuck:
        out.append(f"{stuck} stopped with a seat that had no legal action. " + _why(found, "no-deadlock", ref, ran))
    return [" ".join(out)]
