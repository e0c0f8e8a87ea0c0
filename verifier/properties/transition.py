"""The properties of the transition system: card-conservation, discards, no-deadlock, turn-order,
termination, winner, winnability, challenge-resolution.

All eight read one analysis per player count (`system/analysis.py`): the transition relation is
generated from the compiled rulebook, the invariants are proved together by induction, and failures
are searched for plays that the interpreter replays. They are heavy: the runner computes all of
them for a rulebook in one child process with a kill timer (`runner.py`), and each check here only
reads its share. Each property at each count starts in a fresh Z3 context, so that the player counts
can be shared out between two processes (`helper.py`) without changing a result.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from cheatdsl.derived import TableRules

from ..encoding.subject import Subject
from ..solving.solver import fresh_context
from .helper import Count, Helper
from .registry import register
from .settings import DEFAULT, Caches, Settings
from .verdict import Result, Verdict, combine, counts_text, internal_error, unknown

IDS = ("card-conservation", "discards", "no-deadlock", "turn-order", "termination", "winner", "winnability",
       "challenge-resolution")
SECONDS_PER_RULEBOOK = 300.0  # a safety net only: searches are bounded by Z3 resource limits

At = Callable[[Any, Any], Result]


def _checks() -> dict[str, At]:
    from . import analysis as A
    return {
        "card-conservation": A.conservation_at, "discards": A.discards_at, "no-deadlock": A.no_deadlock_at,
        "turn-order": A.turn_order_at, "termination": A.termination_at, "winner": A.winner_at,
        "winnability": A.winnability_at, "challenge-resolution": A.resolution_at,
    }


def _summarize(pid: str) -> Callable[[Mapping[int, Result]], str] | None:
    if pid == "termination":
        def text(by: Mapping[int, Result]) -> str:
            first = min(by)
            loop = by[first].details.get("witness", {}).get("summary", by[first].summary)
            move = by[first].details.get("move", "a caught lie repeated for ever")
            return (f"a play that never ends at {counts_text(sorted(by))}: {move} brings "
                    f"back the same state ({first} players: {loop})")
        return text
    return None


def _record(subject: Subject, n: int) -> TableRules | None:
    """The subject's rules record at `n` players, for the analysis to hold; None where it cannot be made
    (the analysis then makes it itself, and says why the table has no spec as it always has)."""
    try:
        return subject.rules(n)
    except Exception:  # noqa: BLE001 - reported by the analysis, in its own words
        return None


def _count(subject: Subject, n: int, ids: tuple[str, ...], budget: Any, settings: Settings,
           caches: Caches) -> Count:
    """Every property in `ids` at `n` players, in order, each in a fresh Z3 context (and the invariants and
    the recurrent set they share in contexts of their own): the same results whichever process runs them,
    together or apart, and whatever it checked before. A rulebook that plays the same game at a table as one
    verified before gets its verdicts from `caches.known`."""
    from .analysis import Analysis, proved_so_far
    checks = _checks()
    fresh_context()
    budget.first = n == subject.counts[0]
    a = Analysis(subject.rb, n, settings, caches, rules=_record(subject, n))
    key = hash(a.spec) if a.spec is not None else None
    done = Count(n, {}, {}, {})
    for pid in ids:
        start = time.perf_counter()
        fresh_context()  # nor does a property depend on the terms the ones before it made
        known = caches.known.get((pid, key)) if key is not None else None
        if known is not None:
            result = Result(known["id"], Verdict(known["verdict"]), known["summary"], known["details"])
        elif a.spec is None and a.crash is not None:
            result = internal_error(pid, a.crash)
        elif a.spec is None:
            result = unknown(pid, a.error)
        else:
            try:
                result = checks[pid](a, budget)
            except Exception as exc:  # a bug must never read as a verdict
                result = internal_error(pid, exc)
        # Only verdicts that no budget or count order could change are shared with other rulebooks.
        if key is not None and known is None and result.verdict in (Verdict.PROVED, Verdict.NOT_APPLICABLE):
            done.found[(pid, key)] = result.as_json()
        done.results[pid] = result
        done.seconds[pid] = time.perf_counter() - start
    done.invariants = proved_so_far(a)
    return done


def analyse(subject: Subject, ids: tuple[str, ...] = IDS, seconds: float = SECONDS_PER_RULEBOOK,
            settings: Settings = DEFAULT, caches: Caches | None = None) -> dict[str, Result]:
    """Every transition-system property of the subject, each combined over the player counts.

    The counts are analysed from the smallest up; with `settings.helper` a forked process analyses them from
    the largest down meanwhile (`helper.py`), with the same results. The verdicts found that no budget could
    change are added to `caches.found`."""
    from .analysis import Budget, adopt
    caches = Caches() if caches is None else caches
    budget = Budget(seconds, settings.searches, caches)
    counts = subject.counts
    budget.smallest = counts[0]
    done: dict[int, Count] = {}
    share = None
    # The helper leaves termination to this process: it reads the recurrent set of the smallest count,
    # which this process checks first anyway (and it is cheap at the other counts).
    later = tuple(pid for pid in ids if pid != "termination")
    if settings.helper and len(counts) > 2:
        try:
            share = Helper(counts, lambda n, b: _count(subject, n, later, b, settings, caches), budget)
        except (OSError, ValueError):
            share = None
    if share is None:
        for n in counts:
            done[n] = _count(subject, n, ids, budget, settings, caches)
    else:
        try:
            n0: int | None = counts[0]
            while n0 is not None:
                done[n0] = _count(subject, n0, ids, budget, settings, caches)
                n0 = share.ours()
            from_helper = share.collect()
        finally:
            share.close()
        for n in counts:  # in order, so that the searches go to the smallest counts that need one
            if n in done:
                continue
            got = from_helper.get(n)
            if got is None or any(budget.due(pid) for pid in got.asked):
                got = _count(subject, n, ids, budget, settings, caches)
            elif later != ids:
                if got.invariants is not None:
                    adopt(got.invariants, caches)
                rest = _count(subject, n, tuple(pid for pid in ids if pid not in later), budget, settings, caches)
                got.results.update(rest.results)
                got.seconds.update(rest.seconds)
                got.found.update(rest.found)
            done[n] = got
    for count in done.values():
        caches.found.update(count.found)
    out = {}
    for pid in ids:
        r = combine(pid, {n: done[n].results[pid] for n in counts}, _summarize(pid))
        r.details["seconds"] = round(sum(done[n].seconds[pid] for n in counts), 3)
        out[pid] = r
    return out


def weight(subject: Subject) -> float:
    """A rough cost of analysing the subject, to start the dearest first: card values times seats, summed,
    more for rules whose proofs need searches (sets, a stock, seats leaving)."""
    rb = subject.rb
    values = len(rb.deck.ranks) * (len(rb.deck.suits) if rb.claim.kind.value == "card" else 1)
    extra = 1 + (rb.sets is not None) + (rb.deal.surplus.value == "stock") + (rb.ending.style.value != "first_out")
    return float(values * sum(subject.counts) * extra)


def _shared(subject: Subject, pid: str, settings: Settings, caches: Caches) -> Result:
    """This property's share of the subject's analysis with these settings (computed once, by the first
    property asked)."""
    key = ("transition-system", subject.counts, settings)
    if key not in subject.cache:
        subject.cache[key] = analyse(subject, settings=settings, caches=caches)
    result: Result = subject.cache[key][pid]
    return result


def _make(pid: str) -> Callable[[Subject, Settings, Caches], Result]:
    def check(subject: Subject, settings: Settings, caches: Caches) -> Result:
        return _shared(subject, pid, settings, caches)
    check.__name__ = pid.replace("-", "_")
    return check


STATEMENTS = {
    "card-conservation": "hands, pile, stock, cards aside, cards gone and discarded sets always make up the deck",
    "discards": "discarded sets are whole and public; a claim of a discarded rank is a certain lie",
    "no-deadlock": "the player to move always has a legal action",
    "turn-order": "the next seat is always defined; players who are out are skipped",
    "termination": "every play ends, or a turn cap or anti-loop rule stops it",
    "winner": "at most one winner, and a winner never gets cards back (with last_holder_loses: exactly one loser)",
    "winnability": "every seat can win in some play",
    "challenge-resolution": "every challenged play has exactly one verdict and one player picks up (a caught "
                            "claimant, where a wrong call costs nothing); wild cards' meaning is defined",
}

for _pid in IDS:
    register(_pid, STATEMENTS[_pid], heavy=True)(_make(_pid))

__all__ = ["IDS", "analyse", "Verdict"]
