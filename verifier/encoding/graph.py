"""The claim graph at one table: which claims may follow which, computed from the compiled formulas."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from cheatdsl.model import RoundEnd

from .facts import NotConcrete, claims_of
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
    """The claim graph at `n` players, or why the formulas cannot be tabulated."""
    key = ("graph", n)
    if key in subject.cache:
        cached: ClaimGraph | str = subject.cache[key]
        return cached
    rb, space = subject.rb, subject.space(n)
    order = space.order
    pos = space.position
    outside: dict[str, set[int]] = {"first": set(), "follow": set(), "lead": set()}

    def inside(values: frozenset[int], rule: str) -> frozenset[int]:
        outside[rule].update(v for v in values if v not in pos)
        return frozenset(pos[v] for v in values if v in pos)

    try:
        start = inside(claims_of(rb.claim.first, space, n), "first")
        follow = tuple(inside(claims_of(rb.claim.follow, space, n, v), "follow") for v in order)
        lead = None
        if rb.claim.round_ends:
            lead = tuple(inside(claims_of(rb.claim.lead, space, n, v), "lead") for v in order)
    except NotConcrete as exc:
        result: ClaimGraph | str = f"a claim rule depends on {exc}, which this check does not model"
    else:
        result = ClaimGraph(order, start, follow, lead, RoundEnd.ALL_PASS in rb.claim.round_ends,
                            {k: frozenset(v) for k, v in outside.items()})
    subject.cache[key] = result
    return result
