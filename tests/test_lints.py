"""Author's warnings (W5xx, cheatdsl/compiler/lints.py): each is located, carries a hint, and is silent on
the shipped rulebooks."""

from __future__ import annotations

from pathlib import Path

import pytest

from cheatdsl.diagnostics import Severity
from cheatdsl.load import compile_rulebook

ROOT = Path(__file__).resolve().parent.parent
BASE = (ROOT / "tests" / "fixtures" / "no-challenge-possible.yaml").read_text()
CHALLENGE = """    - name: cheat
      call: "Cheat!"
      test: played
      allowed_when: players == 2
"""


def _warnings(tmp_path: Path, text: str, name: str = "table.yaml") -> dict[str, list]:  # type: ignore[type-arg]
    path = tmp_path / name
    path.write_text(text)
    rb, d = compile_rulebook(str(path))
    assert rb is not None and not d.has_errors(), d.render()
    out: dict[str, list] = {}  # type: ignore[type-arg]
    for item in d.items:
        if item.severity is Severity.WARNING and item.code.startswith("W5"):
            assert item.hint and item.span.line > 0, item
            out.setdefault(item.code, []).append(item)
    return out


def _fine() -> str:
    return BASE.replace("      allowed_when: players == 2\n", "")


def test_no_challenge_at_any_allowed_count_is_w501(tmp_path: Path) -> None:
    """Rule: a table where no challenge can be made at an allowed player count is warned, at the rule."""
    got = _warnings(tmp_path, BASE)
    assert list(got) == ["W501"]
    assert "3..5 players" in got["W501"][0].message and got["W501"][0].span.line == 24


def test_no_challenge_at_some_counts_is_w501(tmp_path: Path) -> None:
    """Rule: W501 names the counts without a challenge, even when other counts have one."""
    got = _warnings(tmp_path, BASE.replace("players == 2", "players >= 4"))
    assert "with 3 players no challenge" in got["W501"][0].message


def test_a_kind_never_allowed_beside_another_is_w504(tmp_path: Path) -> None:
    """Rule: a kind of challenge no allowed count uses is a rule no player count uses."""
    text = BASE.replace(CHALLENGE, CHALLENGE.replace("players == 2", "players >= 3") + CHALLENGE.replace(
        "name: cheat", "name: force").replace("test: played", "test: hand").replace('"Cheat!"', '"Force!"')
        .replace("players == 2", "players > 9"))
    got = _warnings(tmp_path, text)
    assert list(got) == ["W504"] and "`force`" in got["W504"][0].message


def test_a_claim_that_can_never_be_true_is_w502(tmp_path: Path) -> None:
    """Rule: plays of more cards than can match any claim make every claim a certain lie."""
    got = _warnings(tmp_path, _fine().replace("cards: 1..4", "cards: 5..8"))
    assert list(got) == ["W502"] and "at most 4" in got["W502"][0].message


def test_passing_rules_without_passing_are_w504(tmp_path: Path) -> None:
    """Rule: a rule no player count ever uses (passing rules where passing is not allowed) is warned."""
    got = _warnings(tmp_path, _fine().replace("  allowed: false\n", "  allowed: false\n  leader_may_pass: true\n"))
    assert list(got) == ["W504"] and "passing.leader_may_pass" in got["W504"][0].message


def test_a_leader_that_can_be_undefined_is_w505(tmp_path: Path) -> None:
    """Rule: a first player named by a card that may be set aside is warned; `dealt(...)` answers it."""
    text = (ROOT / "tests" / "fixtures" / "unheld-first-card.yaml").read_text()
    got = _warnings(tmp_path, text)
    assert list(got) == ["W505"]
    guarded = text.replace("first_player: holder(ace of hearts)",
                           "first_player: if dealt(ace of hearts) then holder(ace of hearts) else left(dealer)")
    assert _warnings(tmp_path, guarded, "guarded.yaml") == {}


def test_a_variation_that_changes_nothing_is_w503(tmp_path: Path) -> None:
    """Rule: a variation whose changes leave every rule as it was is warned, at the variation."""
    text = _fine() + """variations:
  same-deck:
    summary: one pack, as before
    changes:
      deck:
        packs: 1
  two-packs:
    summary: two packs
    changes:
      deck:
        packs: 2
"""
    got = _warnings(tmp_path, text)
    assert list(got) == ["W503"] and "`same-deck`" in got["W503"][0].message


@pytest.mark.parametrize("path", sorted((ROOT / "rulebooks").glob("*.yaml")), ids=lambda p: p.name)
def test_shipped_rulebooks_have_no_lints(path: Path) -> None:
    """Rule: the shipped rulebooks say what they mean: no author's warning."""
    rb, d = compile_rulebook(str(path))
    assert rb is not None
    assert [i.code for i in d.items if i.code.startswith("W5")] == []


def test_verify_counts_a_table_without_challenges_as_a_problem() -> None:
    """Rule: `verify` does not pass a table where no challenge can be made at an allowed player count."""
    from cheatdsl.load import load_rulebook
    from verifier.report import Report, RulebookReport
    from verifier.runner import verify

    path = str(ROOT / "tests" / "fixtures" / "no-challenge-possible.yaml")
    rb = load_rulebook(path)
    report = Report([RulebookReport(path, rb, verify(rb, ["rank-cycle"]))])
    assert report.exit_status == 1 and any("W501" in p for p in report.rulebooks[0].problems)
