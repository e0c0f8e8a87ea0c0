"""The claim graph at one table: which claims may follow which, computed from the compiled formulas."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from cheatdsl.expr import FactUnavailable
from cheatdsl.model import RoundEnd

from .subject import Subject


@dataclass(frozen=True)
class ClaimGraph:
    """Claims by index in claim order; edges within a round (`follow`) and into a new round (`lead`)."""

    order: tuple[int, ...]
    start: frozenset[int]
    follow: tuple[frozenset[int], ...]
    lead: tuple[frozenset[int], ...] | None
    passing_ends_round: bool
    outside: dict[str, frozenset[int]]

    @property
    def size(self) -> int:
        return len(self.order)

    def successors(self, i: int) -> frozenset[int]:
        """Claims that may come after claim `i`, within the round or by a new round."""
        if self.lead is None:
            return self.follow[i]
        return self.follow[i] | self.lead[i]

    @property
    def dead_ends(self) -> frozenset[int]:
        """Claims after which no claim is allowed and the round cannot end by everyone passing."""
        return frozenset(i for i in range(self.size) if not self.follow[i] and not self.passing_ends_round)

    @property
    def round_closers(self) -> frozenset[int]:
        """Claims after which nothing follows, so everyone passes and a new round is led."""
        return frozenset(i for i in range(self.size) if not self.follow[i] and self.passing_ends_round)

    @property
    def deterministic(self) -> bool:
        return len(self.start) == 1 and self.lead is None and all(len(f) <= 1 for f in self.follow)

    @property
    def free(self) -> bool:
        everything = frozenset(range(self.size))
        return all(f == everything for f in self.follow)

    def reachable_from(self, first: int) -> frozenset[int]:
        """Every claim that can come after `first`, including itself."""
        seen, todo = {first}, [first]
        while todo:
            for j in self.successors(todo.pop()):
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        return frozenset(seen)

    def path_to(self, targets: frozenset[int]) -> list[int]:
        """A shortest claim sequence from a first claim to one of `targets`."""
        parent: dict[int, int] = {s: -1 for s in self.start}
        todo = deque(sorted(self.start))
        while todo:
            i = todo.popleft()
            if i in targets:
                out = [i]
                while parent[out[-1]] >= 0:
                    out.append(parent[out[-1]])
                return out[::-1]
            for j in sorted(self.successors(i)):
                if j not in parent:
                    parent[j] = i
                    todo.append(j)
        return []

    def sequence(self) -> tuple[list[int], int]:
        """For a deterministic graph: the claims from the first one until one repeats, and where the loop starts."""
        (i,) = self.start
        seen: dict[int, int] = {}
        out: list[int] = []
        while i not in seen:
            seen[i] = len(out)
            out.append(i)
            nxt = self.follow[i]
            if not nxt:
                return out, -1
            (i,) = nxt
        return out, seen[i]


def claim_graph(subject: Subject, n: int) -> ClaimGraph | str:
    """The claim graph at `n` players (from the claim rules of the table, `Subject.claims`), or why the
    claim formulas cannot be read."""
    key = ("graph", n)
    if key in subject.cache:
        cached: ClaimGraph | str = subject.cache[key]
        return cached
    result: ClaimGraph | str
    try:
        claims = subject.claim_rules(n)
    except FactUnavailable as exc:
        result = f"a claim rule depends on {exc}, which this check does not model"
    else:
        order, pos = claims.order, subject.space(n).position
        outside = dict(claims.outside)
        lead = None
        if subject.rb.claim.round_ends:
            lead = tuple(frozenset(pos[v] for v in claims.lead[c]) for c in order)
        else:
            outside["lead"] = frozenset()  # no round is ever led, so the lead rule names nothing
        result = ClaimGraph(order, frozenset(pos[v] for v in claims.first),
                            tuple(frozenset(pos[v] for v in claims.follow[c]) for c in order), lead,
                            RoundEnd.ALL_PASS in subject.rb.claim.round_ends, outside)
    subject.cache[key] = result
    return result
