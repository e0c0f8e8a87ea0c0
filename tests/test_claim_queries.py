"""The light claim checks ask fewer, shared solver questions: the answers are those of each count alone,
and claim-threshold's words do not depend on the terms Z3 made before it."""

from __future__ import annotations

from pathlib import Path

import pytest

from cheatdsl.load import load_rulebook
from verifier.properties.challenges import round_rank
from verifier.properties.claims import seat_fairness
from verifier.solving.solver import ask, fresh_context, new_solver
from verifier.encoding.subject import Subject
from verifier.solving.terms import ge, int_var
from verifier.properties.threshold import claim_threshold
from verifier.properties.verdict import Result

ROOT = Path(__file__).resolve().parents[1]


def _subject(path: str, counts: tuple[int, ...] | None = None) -> Subject:
    return Subject(load_rulebook(str(ROOT / path)), counts)


def _other_terms(count: int) -> None:
    """Terms and a query of no check, as a property run before would leave them."""
    xs = [int_var(f"other_{i}") for i in range(count)]
    s = new_solver()
    s.add(*[ge(x, i) for i, x in enumerate(xs)])
    ask(s)


@pytest.mark.parametrize("path", ["rulebooks/english-ascending.yaml", "rulebooks/canadian-bluff-one-pack.yaml",
                                  "tests/fixtures/skipping-cycle.yaml"])
def test_the_rules_binding_a_threshold_are_the_same_whatever_came_before(path: str) -> None:
    """claim-threshold names the rules forbidding one more card by leaving each out in turn, so two equally
    binding rules (one pack's four copies, a cap of four) resolve the same way after any other check."""
    fresh_context()
    alone = claim_threshold(_subject(path))
    for extra in (1, 7, 50):
        fresh_context()
        _other_terms(extra)
        assert claim_threshold(_subject(path)) == alone


def test_english_threshold_is_bound_by_the_cap_and_shown_with_four_naturals() -> None:
    """001: "with one deck a call of five is a sure lie"; the cap 1..4 is named, being the single rule
    that forbids five on its own."""
    fresh_context()
    d = claim_threshold(_subject("rulebooks/english-ascending.yaml")).details
    assert [r.split(" (")[0] for r in d["binding_rules"]] == ["cards per play: at most 4"]
    assert (d["threshold"], d["naturals"], d["jokers"], d["copies_bound"]) == (4, 4, 0, 4)


def test_canadian_threshold_counts_the_jokers_beyond_the_naturals_a_hand_keeps() -> None:
    """Canadian bluff with one pack: forced sets of four leave three naturals; four wild jokers make seven."""
    fresh_context()
    d = claim_threshold(_subject("rulebooks/canadian-bluff-one-pack.yaml")).details
    assert (d["threshold"], d["naturals"], d["jokers"], d["copies_bound"]) == (7, 3, 4, 7)


def _by_count(r: Result) -> dict[str, tuple[str, str]]:
    return {n: (d["verdict"], d["summary"]) for n, d in r.details.get("by_players", {}).items()}


@pytest.mark.parametrize("check, path", [(seat_fairness, "rulebooks/mogeln.yaml"),
                                         (seat_fairness, "tests/fixtures/unfair-seats.yaml"),
                                         (round_rank, "tests/fixtures/leaderless-round.yaml"),
                                         (round_rank, "rulebooks/canadian-bluff.yaml")])
def test_one_solver_for_every_count_answers_as_each_count_alone(check: object, path: str) -> None:
    """seat-fairness and round-rank ask every count in one solver, a scope each: the verdict and words at
    each count are those of a check of that count alone."""
    assert callable(check)
    fresh_context()
    together = check(_subject(path))
    counts = together.details["players"]
    assert len(counts) > 1
    for n in counts:
        fresh_context()
        alone = check(_subject(path, (n,)))
        got = _by_count(together).get(str(n), (together.verdict.value, together.summary.rsplit(" (", 1)[0]))
        assert (alone.verdict.value, alone.summary.rsplit(" (", 1)[0]) == got
