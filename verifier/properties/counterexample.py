"""From a failed induction to a verdict: search for a play that breaks the property, and replay it.

A counterexample to induction may be a state no play reaches. The full game is searched for a play
from a deal (bounded model checking); a play found is replayed by the interpreter, which must show
the same failure. Only then is the property refuted; otherwise the verdict says how deep the search
went (bounded) or why it stopped (unknown), and names the step that would break the property.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3

from cheatdsl.engine import Game, State

from ..encoding.spec import Spec, merge_values
from ..encoding.symmetry import rotation_symmetric
from ..encoding.transitions import ACCEPT, CHALLENGE, PASS, Builder
from ..solving.solver import fresh_context
from .invariant import CANDIDATES, STEP_CANDIDATES, Counterexample
from .search import Search, bmc
from .witness import Witness, replay_exact

Check = Callable[[State], bool]


@dataclass
class Outcome:
    """A replayed witness, or the depth searched, or why the search stopped."""

    witness: Witness | None
    depth: int
    reason: str = ""


def cti_words(sp: Spec, cx: Counterexample) -> str:
    """The counterexample to induction in a sentence."""
    return cx.words


def group_goal(group: str) -> Callable[..., Any]:
    """The violation of a candidate group, as a goal for the search."""
    if group in CANDIDATES:
        claims = CANDIDATES[group]
        return lambda s, t, a, b, i: z3.Not(z3.And(list(claims(b.spec, t).values()) or [z3.BoolVal(True)]))
    step, kinds = STEP_CANDIDATES[group]

    def goal(s: Any, t: Any, a: Any, b: Builder, i: int) -> Any:
        facts = step(b.spec, s, t, b)
        if not facts:
            return z3.BoolVal(False)
        return z3.And(z3.Or([a.kind == k for k in kinds]), z3.Not(z3.And(list(facts.values()))))
    return goal


SEARCH_RLIMIT = 60_000_000
ATTEMPTS = 6  # shapes of the merged game tried before the full game is searched directly


def search(sp: Spec, game: Game, prop: str, goal: Callable[..., Any], check: Check,
           expect: dict[str, Any] | Callable[[State], dict[str, Any]], depth: int, seconds: float,
           kinds: tuple[int, ...] = (ACCEPT, CHALLENGE, PASS), merged_first: bool = True,
           rlimit: int | None = None, effort: float = 1.0) -> Outcome:
    """Search for a play of up to `depth` turns from a deal meeting `goal`, within `seconds`.

    The merged game is searched first: a play of it fixes the shape of each turn, and the full game
    is then asked for cards that make a play of that shape (tried for a few shapes). No play of the
    merged game means none of the real game either (bounded). Failing that, the full game is searched
    directly. Each solver call is bounded by `rlimit` (deterministic; by default SEARCH_RLIMIT scaled by the
    search `effort`, `--search-effort`); `seconds` is only a safety net.
    What is found is replayed by the interpreter.

    The search starts in a fresh Z3 context: how far it gets within its resource limit depends on the
    identities of the terms it makes, which are then the same whatever was checked before it."""
    fresh_context()
    symmetric = rotation_symmetric(sp)
    restrict = (lambda b, d: [d.dealer == 0]) if symmetric and sp.rules.dealer_by_lot else None
    stop = time.perf_counter() + seconds
    rlimit = rlimit or int(SEARCH_RLIMIT * effort)

    def left() -> int:
        return max(200, int((stop - time.perf_counter()) * 1000))

    found: Search | None = None
    searched = 0
    if merged_first:
        merged = merge_values(sp)
        tried: list[list[dict[str, Any]]] = []
        for _ in range(ATTEMPTS):
            if time.perf_counter() > stop:
                break
            m = bmc(merged, goal, depth, kinds=kinds, restrict=restrict, timeout_ms=left(), exclude=tried,
                    rlimit=rlimit)
            if m.trace is None:
                if not m.unknown:
                    return Outcome(None, m.depth)
                break
            searched = m.depth
            full = bmc(sp, goal, m.trace.depth, restrict=restrict, guide=m.trace.actions, timeout_ms=left(),
                       rlimit=rlimit)
            if full.trace is not None:
                found = full
                break
            tried.append(m.trace.actions)
    if found is None:
        if time.perf_counter() > stop - 0.2:
            return Outcome(None, searched, "time limit")
        found = bmc(sp, goal, depth, kinds=kinds, restrict=restrict, timeout_ms=left(), rlimit=3 * rlimit)
        if found.trace is None:
            return Outcome(None, found.depth, found.unknown or ("time limit" if time.perf_counter() > stop else ""))
    assert found.trace is not None
    done = replay_exact(sp, game, found.trace)
    if isinstance(done, str):
        return Outcome(None, found.depth, f"the play found does not replay: {done}")
    table, start = done
    if not check(table.state):
        return Outcome(None, found.depth, "the play found replays without the failure: the encoding and the "
                                          "interpreter disagree")
    wanted = expect(table.state) if callable(expect) else expect
    w = Witness(prop, sp.n, start, table.steps, wanted, table.words,
                f"{found.depth} turn{'s' if found.depth != 1 else ''} from a deal")
    return Outcome(w, found.depth)
