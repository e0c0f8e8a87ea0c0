"""Rules that can never fire: a turn condition that no turn of any game meets, shown from the invariants.

`passing.when` says when the seat to play may pass. Where the invariants proved of every reachable state
(`Invariants.proved`, e.g. "every seat still in holds a card") leave no state whose seat to play meets it,
nobody ever passes: the rule is dead, which the author almost surely did not mean (a seat with an empty hand
has already won or taken the pile). That is a warning about the rulebook, not a verdict: it is said only
where the solver shows it (unsat), never guessed from the formula's text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cheatdsl.model import Rulebook

from ..encoding.state import fresh
from ..encoding.transitions import Builder
from ..solving.solver import ask, new_solver
from ..solving.terms import not_
from .analysis import Analysis
from .invariant import CANDIDATES, proof_game
from .settings import DEFAULT, Caches, Settings
from .verdict import counts_text

# Each query is one small satisfiability check over a state; past this it says nothing (no warning).
QUERY_MS = 20_000


@dataclass(frozen=True)
class DeadRule:
    """A rule shown never to fire at the player counts named: its code, where it is written, and why."""

    code: str
    rule: str
    formula: str
    at: str
    players: tuple[int, ...]

    @property
    def message(self) -> str:
        return (f"`{self.rule}: {self.formula}` can never hold at a seat's turn ({counts_text(list(self.players))}): "
                "nobody ever passes, as the invariants proved of every game show")

    @property
    def hint(self) -> str:
        return ("what every game keeps true (each seat still in holds a card, the cards add up, ...) leaves no "
                "turn that meets it; write a condition a seat can meet when its turn comes, or drop `passing`")

    def as_json(self) -> dict[str, object]:
        return {"code": self.code, "rule": self.rule, "at": self.at, "players": list(self.players),
                "message": self.message, "hint": self.hint}


def never_passes(a: Analysis) -> bool:
    """Whether no reachable state of the table lets its seat to play pass: the conjunction of the proved
    invariants, a game still on, and the pass condition (`passing.when`, and the leader's rule) has no
    model. False where it does, or where anything is left open (no spec, invariants unknown, a timeout)."""
    if a.spec is None or a.spec.trees.pass_when is None:
        return False
    inv = a.inv
    if inv.unknown:
        return False
    ab = proof_game(a.spec)
    b = Builder(ab)
    s = fresh(ab, "s")
    solver = new_solver(timeout_ms=QUERY_MS, older_arith=True)
    for group in sorted(inv.proved):
        if group in CANDIDATES:
            solver.add(*CANDIDATES[group](ab, s).values())
    may_pass = b.can_pass(s, s.actor)
    solver.add(*b.defs, not_(s.over), may_pass)
    return ask(solver).unsat


def dead_rules(rb: Rulebook, counts: Sequence[int] | None = None, settings: Settings = DEFAULT,
               caches: Caches | None = None) -> list[DeadRule]:
    """The rules of `rb` shown never to fire, with the player counts where that is shown (W506)."""
    passing = rb.passing
    if not passing.allowed or passing.when is None:
        return []
    caches = caches if caches is not None else Caches()
    never = tuple(n for n in (counts or tuple(rb.players.counts())) if never_passes(Analysis(rb, n, settings, caches)))
    if not never:
        return []
    return [DeadRule("W506", "passing.when", passing.when.text, str(passing.span_of("when")), never)]


@dataclass(frozen=True)
class UnsureCall:
    """A call that does not see the whole play, so a call on a claim past the cards is not sure to win: its
    code, where the rule is written, the counts, and the two figures where the judge gave them."""

    code: str
    rule: str
    at: str
    players: tuple[int, ...]
    what: str  # what the call sees, in words
    bounds: str = ""  # "a call can judge true a claim of 5; no play holds more than 2 matching cards"

    @property
    def message(self) -> str:
        figures = f": {self.bounds}" if self.bounds else ""
        return (f"a call on a claim past the cards is not sure to win ({counts_text(list(self.players))}): "
                f"{self.what}{figures}")

    @property
    def hint(self) -> str:
        return ("players who count cards to call bluffs cannot rely on it; `challenge.reveal: play` and a call "
                "that turns the play over (`test: played`) make the count of the cards the certain-lie threshold")

    def as_json(self) -> dict[str, object]:
        return {"code": self.code, "rule": self.rule, "at": self.at, "players": list(self.players),
                "message": self.message, "hint": self.hint}


def unsure_calls(rb: Rulebook, threshold: object) -> list[UnsureCall]:
    """W507: where the claim-threshold result (`threshold`, a `Result` or None) says a call sees less than the
    play at some player count (the judge's two figures differ, or the symbolic side saw a call of the top card
    or of a card from the hand), located on the rule that makes it so."""
    details = getattr(threshold, "details", None)
    if not isinstance(details, dict):
        return []
    by = details.get("by_players") or {str(n): details for n in details.get("players", [])}
    counts: list[int] = []
    bounds = ""
    sees: set[str] = set()
    for n, d in by.items():
        judged, cards = d.get("judged_true"), d.get("most_matching_cards")
        if isinstance(judged, dict) and cards is not None and max(judged.values(), default=0) > cards:
            counts.append(int(n))
            bounds = bounds or (f"a call can judge true a claim of {max(judged.values())}, though no play holds more "
                                f"than {cards} matching card{'s' if cards != 1 else ''}")
            sees |= {"top_card"} if rb.challenge.reveal.value == "top_card" else {"hand"}
        elif d.get("sees") in ("top_card", "hand"):
            counts.append(int(n))
            sees.add(d["sees"])
    if not counts:
        return []
    if "top_card" in sees:
        return [UnsureCall("W507", "challenge.reveal", str(rb.challenge.span_of("reveal")), tuple(sorted(counts)),
                           "a call turns over only the top card of the play", bounds)]
    kind = next((k for k in rb.challenge.kinds if k.test.value == "hand"), None)
    at = str(kind.span_of("test")) if kind is not None else str(rb.challenge.span)
    return [UnsureCall("W507", "challenge.kinds.test", at, tuple(sorted(counts)),
                       "a Force call asks for one card of the claim from the hand", bounds)]
