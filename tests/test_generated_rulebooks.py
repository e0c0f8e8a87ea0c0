"""Generated rulebooks: for each, check accepts it, fmt round-trips it, simulate runs it, verify
has no internal error, and what verify proves (conservation, turn order, winner, no-deadlock) holds in
every game played of it; a game stuck or back at a position is refuted by verify. A sample here; the
campaign of 1,000 and more is benchmarks/generated_campaign.py."""

from __future__ import annotations

import random
import tempfile
from collections import defaultdict
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from rulebook_strategies import build, examine, from_random, generate, rulebooks, valid

SECTIONS = ("deck", "deal", "setup", "claim", "passing", "challenge", "sets", "ending")

# Every field of the language and the values the generator must reach (docs/language.md).
VALUES = {
    "deal.style": {"all", "equal", "fixed"}, "deal.surplus": {"aside", "stock"},
    "setup.dealer": {"lot", "seat_zero"}, "setup.direction": {"clockwise", "anticlockwise"},
    "claim.kind": {"card"}, "claim.count": {"exact", "any", "extra_allowed"}, "claim.after_last": {"wrap", "nothing"},
    "passing.allowed": {True, False}, "passing.all_pass_pile": {"discarded", "stays"},
    "challenge.window": {"before_next_play", "count_of_three"},
    "challenge.priority": {"first_clockwise", "offered_in_turn", "first_caller"},
    "challenge.reveal": {"play", "top_card"}, "challenge.show_pile": {True, False},
    "sets.mode": {"optional", "forced"}, "ending.style": {"first_out", "last_holder_loses"},
    "ending.out_check": {"after_window", "at_once"}, "ending.emptied_by_sets": {"out", "stays_in"},
}
FIELDS = {"deck.ranks", "deck.suits", "deck.packs", "deck.jokers", "deck.jokers_wild", "deck.ranks_used",
          "deal.hand_size", "deal.minimum_hand", "deal.set_aside", "setup.first_player", "claim.cards",
          "claim.first", "claim.follow", "claim.lead", "claim.round_ends", "passing.when", "passing.leader_may_pass",
          "passing.all_pass_leader", "challenge.kinds", "challenge.penalty", "challenge.next_player", "sets.size",
          "sets.naturals_only", "ending.turn_start_win", "ending.turn_cap", "variations"}


def test_the_generator_reaches_every_field_and_value() -> None:
    """Rule: the generated rulebooks cover every field and every choice of the language."""
    seen: dict[str, set[object]] = defaultdict(set)
    rng = random.Random(12)
    for i in range(400):
        data = build(from_random(rng), f"g{i}")
        for section in SECTIONS:
            for key, value in (data.get(section) or {}).items():
                seen[f"{section}.{key}"].add(value if isinstance(value, (str, int, bool)) else repr(value))
        if "variations" in data:
            seen["variations"].add(True)
    assert FIELDS <= set(seen), FIELDS - set(seen)
    for key, values in VALUES.items():
        assert values <= seen[key], (key, values - seen[key])


def test_generated_rulebooks_are_valid_mostly_by_construction() -> None:
    """Rule: the plain generator gives rulebooks check accepts, the same for the same seed."""
    assert generate(3) == generate(3)
    rng = random.Random(7)
    drawn = [build(from_random(rng), f"v{i}") for i in range(40)]
    assert sum(valid(d) for d in drawn) >= 34


@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rulebooks())
def test_generated_rulebook_is_checked_formatted_simulated_and_verified(data: dict) -> None:  # type: ignore[type-arg]
    """Rule: check accepts, fmt round-trips, simulate runs, verify has no internal error, and its proofs
    hold in every game played (and what games meet, verify refutes)."""
    with tempfile.TemporaryDirectory() as tmp:
        got = examine(data, Path(tmp), games=3, verify_seconds=40.0)
    assert not got.failures, got.failures
    assert not got.internal, got.internal
    assert not got.contradictions, got.contradictions
