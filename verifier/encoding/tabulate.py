"""Rule formulas tabulated by running their compiled closures on every case they can tell apart.

A formula reads facts (`claimant`, `hand`, `caught`), asks which seats are still in (`left`,
`right`), who holds a card (`holder`) or how many cards of some claims the seat to act holds
(`holds`). Each such read is a branch point: the closure is run again for every answer, but only
for the facts it actually reads, so `left(claimant)` costs one run per claimant and seat skipped,
never one per subset of seats. The result is a decision tree whose leaves are the formula's
values; `transitions.py` turns each branch point into the Z3 term it stands for.

Seat functions mean what `cheatdsl.expr.context.FormulaContext` says, as in the interpreter: `left` and
`right` skip seats that are out, `seat(k)` counts k seats on from the dealer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Union

from cheatdsl.cards import ClaimSpace
from cheatdsl.derived import next_seat_in
from cheatdsl.expr import ClaimFacts
from cheatdsl.expr.context import Fact

MAX_RUNS = 40_000


@dataclass(frozen=True)
class Leaf:
    """A formula's value on one branch."""

    value: Any


@dataclass(frozen=True)
class Node:
    """A branch point: the fact read (`query`) and the subtree for each answer it can have."""

    query: tuple[Any, ...]
    branches: tuple[tuple[Any, Tree], ...]


Tree = Union[Leaf, Node]  # noqa: UP007 - a runtime alias of two dataclasses, read before 3.12


class TooManyCases(Exception):
    """The formula reads so many facts that its table would not be small."""


class _Need(Exception):
    def __init__(self, query: tuple[Any, ...], answers: Sequence[Any]) -> None:
        self.query = query
        self.answers = answers


def freeze(value: Any) -> Any:
    """A formula value as a hashable leaf: sets become frozensets, everything else stays."""
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    return value


def explore(code: Callable[[Any], Any], context: Callable[[list[Any]], Facts], limit: int = MAX_RUNS) -> Tree:
    """The decision tree of `code`, each run answering the branch points read so far from a script."""
    runs = 0

    def build(script: list[Any]) -> Tree:
        nonlocal runs
        runs += 1
        if runs > limit:
            raise TooManyCases(f"more than {limit} cases")
        facts = context(script)
        try:
            value = code(facts)
        except _Need as need:
            branches = tuple((a, build(script + [a])) for a in need.answers)
            first = branches[0][1] if branches else Leaf(None)
            if all(t == first for _, t in branches):
                return first
            return Node(need.query, branches)
        return Leaf(freeze(value))

    return build([])


def leaves(tree: Tree) -> set[Any]:
    """Every value the formula can take."""
    if isinstance(tree, Leaf):
        return {tree.value}
    out: set[Any] = set()
    for _, t in tree.branches:
        out |= leaves(t)
    return out


def queries(tree: Tree) -> set[tuple[Any, ...]]:
    """Every fact the formula reads on some branch."""
    if isinstance(tree, Leaf):
        return set()
    out = {tree.query}
    for _, t in tree.branches:
        out |= queries(t)
    return out


def evaluate(tree: Tree, answer: Callable[[tuple[Any, ...]], Any]) -> Any:
    """The leaf reached when each branch point is answered by `answer` (for concrete states)."""
    while isinstance(tree, Node):
        got = answer(tree.query)
        for a, t in tree.branches:
            if a == got:
                tree = t
                break
        else:
            raise KeyError(f"{tree.query} has no branch for {got!r}")
    return tree.value


class Facts(ClaimFacts):
    """The context a closure runs in (a `FormulaContext`): facts are read lazily, each read a branch
    point of the tree.

    `domains` gives the answers each named fact can have; `seats_out` says whether any seat can be
    out while the formula is read (if not, `left` and `right` never branch); `hand_max` bounds
    `holds` when the hand size is not read first. `holder_answers` gives the seats (or None) that
    may have been dealt a card; without it `holder` is unavailable. `acting` says whether a seat
    acts where the formula is read; without one, `holds` is unavailable, as in the interpreter.
    """

    def __init__(self, script: list[Any], players: int, step: int, space: ClaimSpace,
                 domains: dict[str, Sequence[Any]], seats_out: bool, hand_max: int,
                 holder_answers: Callable[[int], Sequence[Any]] | None = None, acting: bool = False) -> None:
        self._script = script
        self._used = 0
        self._answers: dict[tuple[Any, ...], Any] = {}
        self._domains = domains
        self._seats_out = seats_out
        self._hand_max = hand_max
        self._holder_answers = holder_answers
        self._acting = acting
        self._step = step
        super().__init__(space, players)

    def _ask(self, query: tuple[Any, ...], answers: Sequence[Any]) -> Any:
        if query in self._answers:
            return self._answers[query]
        if self._used < len(self._script):
            value = self._script[self._used]
            self._used += 1
            self._answers[query] = value
            return value
        raise _Need(query, list(answers))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in self._domains:
            raise AttributeError(name)
        return self._ask(("fact", name), self._domains[name])

    def _is_in(self, seat: int) -> bool:
        if not self._seats_out:
            return True
        return bool(self._ask(("in", seat), (True, False)))

    def _around(self, seat: int | None, step: int) -> int | None:
        return None if seat is None else next_seat_in(seat, step, self.players, self._is_in)

    def left(self, seat: int | None) -> int | None:
        return self._around(seat, self._step)

    def right(self, seat: int | None) -> int | None:
        return self._around(seat, -self._step)

    def seat(self, number: int) -> int:
        dealer = self._ask(("fact", "dealer"), range(self.players))
        return (dealer + self._step * number) % self.players

    def holder(self, card: int) -> int | None:
        if self._holder_answers is None:
            raise self._unavailable(Fact.DEAL.value)
        return self._ask(("holder", card), self._holder_answers(card))  # type: ignore[no-any-return]

    def dealt(self, card: int) -> bool:
        return self.holder(card) is not None

    def holds(self, claims: frozenset[int]) -> int:
        if not self._acting:
            raise self._unavailable(Fact.HAND.value)
        if not claims:
            return 0
        top = self._answers.get(("fact", "hand"), self._hand_max)
        return int(self._ask(("holds", frozenset(claims)), range(top + 1)))


def tabulate(code: Callable[[Any], Any], players: int, step: int, space: ClaimSpace,
             domains: dict[str, Iterable[Any]], seats_out: bool = False, hand_max: int = 0,
             holder_answers: Callable[[int], Sequence[Any]] | None = None, acting: bool = False) -> Tree:
    """The decision tree of a seat or condition formula at a table of `players` (see `Facts`)."""
    fixed: dict[str, Sequence[Any]] = {k: list(v) for k, v in domains.items()}
    return explore(code, lambda script: Facts(script, players, step, space, fixed, seats_out, hand_max,
                                               holder_answers, acting))
