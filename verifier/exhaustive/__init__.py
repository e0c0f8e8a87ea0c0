"""The exhaustive judge: verdicts read off every state reachable from every deal, where a table is small enough.

Explicit-state model checking in the manner of TLC or SPIN, with the interpreter as the only model of the
rules: `deals.py` enumerates every distinct deal and deals it with the interpreter's dealing, `explore.py`
applies every legal action of every seat to every state reached (positions met before are not explored
again), and `decide.py` reads each property's verdict off what was met. The search counts states as it goes
and stops past its budget, cleanly: a refutation met before then is a real game and stands, the rest is
left to the symbolic verifier. `runner.verify_all` asks the judge at every player count where it is
`eligible` (`Judging.mode`: AUTO for small tables, ALWAYS with `verify --exhaustive`), and its verdicts
take the place of the symbolic ones at those counts (`merge.py`).
"""

from __future__ import annotations

from typing import Any

from ..encoding.subject import Subject
from ..properties.judging import AUTO_BUDGET, FORCED_BUDGET, Judging, Mode
from ..properties.verdict import Result
from .deals import deals_for_every_dealer
from .decide import JUDGED, Judge, fairness_applies
from .explore import Exploration, explore

__all__ = ["AUTO_BUDGET", "AUTO_SECONDS", "FORCED_BUDGET", "JUDGED", "Judging", "Mode", "eligible", "judge_at"]

AUTO_DECK = 16  # a deck of more cards than this is not tried unasked (counting its deals takes seconds)
DEALS_SHARE = 10  # a table is tried unasked only if its deals are at most a tenth of the budget
AUTO_SECONDS = 30.0  # the most a search run unasked may take at one table


def eligible(subject: Subject, n: int, judging: Judging) -> bool:
    """Whether the judge runs at `n` players: always when asked to, else where the deck is small and its deals
    (counted up to a tenth of the budget) are few."""
    if judging.mode is Mode.NEVER:
        return False
    try:
        game = subject.game(n)
    except ValueError:
        return False
    if judging.mode is Mode.ALWAYS:
        return True
    if len(game.rules.deck_values) > AUTO_DECK:
        return False
    stop = max(1, judging.budget // DEALS_SHARE)
    return deals_for_every_dealer(game, stop + 1) <= stop


def judge_at(subject: Subject, n: int, pids: tuple[str, ...], judging: Judging,
             seconds: float | None = None) -> dict[str, Any]:
    """The judge's verdicts at `n` players as JSON (`{"results": {pid: result or None}, "judge": {...}}`):
    None where it decides nothing (a property not its own, or a search stopped before it could tell)."""
    wanted = tuple(p for p in pids if p in JUDGED)
    game = subject.game(n)
    x: Exploration = explore(game, judging.budget, seconds,
                             origin="seat-fairness" in wanted and fairness_applies(subject, n))
    judge = Judge(subject, n, x)
    results: dict[str, Result | None] = {pid: judge.decide(pid) for pid in wanted}
    return {"results": {pid: (r.as_json() if r is not None else None) for pid, r in results.items()},
            "judge": {"states": x.states, "deals": x.deals, "edges": x.edges, "complete": x.complete,
                      "stopped": x.stopped, "seconds": round(x.seconds, 3)}}
