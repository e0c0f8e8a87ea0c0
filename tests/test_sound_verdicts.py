"""Issue 21: sound verdicts. A closed form must not rest on a play fact that is not shown to happen."""

from __future__ import annotations

from pathlib import Path

from cheatdsl.load import load_rulebook
from verifier.runner import verify
from verifier.verdict import Verdict

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_seat_fairness_is_not_proved_by_a_pass_that_cannot_fire() -> None:
    """Issue 21 point 2, "a table where passing is allowed only with an empty hand ... gets seat-fairness
    proved, because the computation counts a pass shift whenever passing.allowed is true"."""
    rb = load_rulebook(str(FIXTURES / "sound-pass-empty-hand.yaml"))
    r = {t.result.id: t.result for t in verify(rb, ["seat-fairness"])}["seat-fairness"]
    assert r.verdict is not Verdict.PROVED
    assert "hand == 0" in r.summary
