"""A house-rule author's path (issue 25): problems on the house rule's own line, expectations that follow
the rules they were written for, every problem reported at once, scenario files told apart.

Issue 25: "A house rule on `mogeln` that turns passing on gets 'missing `passing.all_pass_leader`' located
in the installed site-packages/.../mogeln.yaml:34 [...] not on the user's line that made the field
needed"; "the base rulebook's `expect:` entries are inherited and no longer hold for the new rules";
"`extends: ../../etc/passwd` plus `players: four` reports only the `extends` refusal"; "`check` [...]
report[s] a scenario file as 11 rulebook errors".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cheatdsl.cli import main
from cheatdsl.diagnostics import Diagnostics
from cheatdsl.load import compile_rulebook
from cheatdsl.profiles import shipped_dir, shipped_names, shipped_path

ROOT = Path(__file__).resolve().parents[1]

# A feature a house rule turns on, the rule it then needs, and the line (of the file below) that set it.
FEATURES = {
    "passing on": ("passing:\n  allowed: true\n", "passing.all_pass_leader", 5),
    "a fixed deal": ("deal:\n  style: fixed\n", "deal.hand_size", 5),
    "draw as penalty": ("challenge:\n  penalty:\n    kind: draw\n", "challenge.penalty.draw", 6),
}


def house_rule(tmp_path: Path, base: str, body: str, name: str = "house.yaml") -> Path:
    path = tmp_path / name
    path.write_text(f"rulebook: house\nsource: our table\nextends: {base}\n{body}", encoding="utf-8")
    return path


def needs_the_field(base: str, field: str) -> bool:
    """Whether the shipped profile lacks `field` (a dotted rule), so turning its feature on needs it."""
    rulebook, d = compile_rulebook(base)
    assert rulebook is not None
    node = rulebook_tree(base)
    for key in field.split("."):
        if not isinstance(node, dict) or key not in node:
            return True
        node = node[key]
    return False


def rulebook_tree(base: str) -> object:
    from cheatdsl.syntax.loader import load_tree
    from cheatdsl.syntax.tree import to_plain
    loaded = load_tree(str(shipped_path(base)), Diagnostics())
    assert loaded is not None
    return to_plain(loaded.tree)


CASES = [(base, feature) for base in shipped_names() for feature in FEATURES]


@pytest.mark.parametrize("base, feature", CASES, ids=[f"{b}-{f.replace(' ', '-')}" for b, f in CASES])
def test_a_missing_rule_a_house_rule_causes_is_on_its_own_line(tmp_path: Path, base: str, feature: str) -> None:
    """Issue 25 point 1, on every shipped profile: the error sits on the house rule's line that made the
    field needed, with a note naming the base rule by the profile's name and line, never its install path."""
    body, field, line = FEATURES[feature]
    if not needs_the_field(base, field):
        pytest.skip(f"{base} already says `{field}`")
    path = house_rule(tmp_path, base, body)
    rulebook, d = compile_rulebook(str(path))
    assert rulebook is None
    missing = [x for x in d.errors if x.code == "E201" and f"`{field}` is missing" in x.message]
    assert len(missing) == 1, d.render()
    error = missing[0]
    assert (error.span.file, error.span.line) == (str(path), line)
    assert error.note.startswith(f"`{field.rsplit('.', 1)[0]}` comes from the base rulebook ")
    named = error.note.split("the base rulebook ", 1)[1].split(",")[0]
    assert shipped_path(named) is not None, error.note  # a profile's name, such as `mogeln`
    rendered = d.render()
    assert str(shipped_dir()) not in rendered and str(shipped_dir()) not in d.to_json()


def test_mogeln_with_passing_reads_as_the_issue_asks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = house_rule(tmp_path, "mogeln", "passing:\n  allowed: true\n")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:5:3: error[E201]: `passing.all_pass_leader` is missing" in out
    assert "  note: `passing` comes from the base rulebook mogeln, line 34: `allowed: false`" in out
    assert main(["check", "--format", "json", str(path)]) == 1
    [item] = json.loads(capsys.readouterr().out)
    assert (item["file"], item["line"], item["note"][:9]) == (str(path), 5, "`passing`")


def test_a_rule_the_house_rule_drops_is_blamed_on_its_drop(tmp_path: Path) -> None:
    """`drop: [passing.all_pass_leader]` on bluffstopp (which passes) leaves the rule missing: the drop did it."""
    path = tmp_path / "house.yaml"
    path.write_text("rulebook: house\nsource: our table\nextends: bluffstopp\ndrop: [passing.all_pass_leader]\n",
                    encoding="utf-8")
    _, d = compile_rulebook(str(path))
    [error] = [x for x in d.errors if "all_pass_leader" in x.message]
    assert (error.span.file, error.span.line, error.span.column) == (str(path), 4, 8)
    assert "bluffstopp" in error.note


def test_a_base_in_the_authors_own_folder_is_named_by_its_path(tmp_path: Path) -> None:
    """A chain of the author's files: the note names the base file where the rule is written."""
    (tmp_path / "club.yaml").write_text("rulebook: club\nsource: club\nextends: standard\n", encoding="utf-8")
    path = house_rule(tmp_path, "club.yaml", "passing:\n  allowed: true\n")
    _, d = compile_rulebook(str(path))
    [error] = d.errors
    assert error.span.line == 5 and "from the base rulebook standard, line" in error.note


# Expectations ---------------------------------------------------------------------------------------

def test_a_house_rule_does_not_take_over_its_bases_expectations(tmp_path: Path) -> None:
    """Issue 25 point 2: mogeln expects termination refuted; the house rule judges only its own."""
    path = house_rule(tmp_path, "mogeln", "passing:\n  allowed: true\n  all_pass_leader: last_player\n")
    rulebook, d = compile_rulebook(str(path))
    assert rulebook is not None, d.render()
    assert rulebook.expectations == ()
    assert {e.property for e in rulebook.dropped_expectations} == {
        "termination", "seat-fairness", "card-conservation", "discards", "round-rank"}


def test_expect_inherit_keeps_the_bases_and_a_section_of_its_own_replaces_them(tmp_path: Path) -> None:
    inherit = house_rule(tmp_path, "mogeln", "expect: inherit\n", "inherit.yaml")
    rulebook, _ = compile_rulebook(str(inherit))
    assert rulebook is not None
    assert {(e.property, e.verdict) for e in rulebook.expectations} >= {("termination", "refuted")}
    assert rulebook.dropped_expectations == ()
    own = house_rule(tmp_path, "mogeln", "expect:\n  deal: proved\n", "own.yaml")
    rulebook, _ = compile_rulebook(str(own))
    assert rulebook is not None
    assert [(e.property, e.verdict, e.span.line) for e in rulebook.expectations] == [("deal", "proved", 5)]
    assert "termination" in {e.property for e in rulebook.dropped_expectations}


def test_expect_inherit_without_a_base_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "alone.yaml"
    path.write_text((ROOT / "rulebooks" / "standard.yaml").read_text(encoding="utf-8")
                    .replace("\nexpect:\n", "\nexpect: inherit\nold_expect:\n", 1), encoding="utf-8")
    _, d = compile_rulebook(str(path))
    assert any(x.code == "E303" and "`expect: inherit`" in x.message for x in d.errors)


def test_verify_judges_the_guides_first_try_against_its_base(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/guide.md step 4: the first try keeps no expectation of English ascending's and is judged against
    English ascending's verdicts: the turn cap's termination is better, and nothing fails."""
    assert main(["verify", str(ROOT / "docs" / "examples" / "friday-first-try.yaml"), "-p", "termination"]) == 0
    captured = capsys.readouterr()
    out = " ".join(captured.out.split())
    assert "judged against english-ascending" in out
    assert "termination proved [better than english-ascending: refuted there]" in out
    assert "expected refuted" not in out and "not judged here" not in captured.err


def _standard_house_rule(tmp_path: Path, body: str, name: str = "house.yaml") -> Path:
    path = tmp_path / name
    path.write_text(f"rulebook: {name[:-5]}\ntitle: A house rule\nsource: a table\nextends: standard\n{body}",
                    encoding="utf-8")
    return path


def test_a_verdict_a_house_rule_leaves_as_in_its_base_is_no_problem(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 41, point 1: a house rule that changes nothing about challenges keeps the standard sheet's refuted
    challenge priority; that is "as in standard", not a failure (it exited 1 before), and the turn cap's
    termination is better."""
    path = _standard_house_rule(tmp_path, "ending:\n  turn_cap: 200\n")
    assert main(["verify", str(path), "-p", "challenge-priority", "-p", "termination", "-n", "3"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "challenge-priority refuted [as in standard]" in out
    assert "termination proved [better than standard: refuted there]" in out
    assert "0 problems" in out


def test_a_verdict_worse_than_the_bases_fails_until_the_file_expects_it(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 41, point 1: turning over the top card only makes the claim threshold unknown where the standard
    sheet proves it: a change for the worse, which fails; the file's own `expect:` accepts it."""
    worse = _standard_house_rule(tmp_path, "challenge:\n  reveal: top_card\n", "worse.yaml")
    assert main(["verify", str(worse), "-p", "claim-threshold", "-n", "3", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)["rulebooks"][0]
    assert data["against_base"]["base"] == "standard"
    assert data["against_base"]["properties"] == [
        {"id": "claim-threshold", "base": "proved", "verdict": "unknown", "change": "worse"}]
    assert any("worse than in standard (proved there, unknown here)" in p for p in data["problems"])
    said = _standard_house_rule(tmp_path, "challenge:\n  reveal: top_card\nexpect:\n  claim-threshold: unknown\n",
                                "said.yaml")
    assert main(["verify", str(said), "-p", "claim-threshold", "-n", "3"]) == 0


def test_diff_of_a_house_rule_lists_no_expectation_it_only_leaves_unsaid(capsys: pytest.CaptureFixture[str],
                                                                         tmp_path: Path) -> None:
    """Issue 41, point 1: `diff standard HOUSE-RULE` listed seven or eight "no longer expected" lines that read
    as regressions; a house rule is judged against its base's verdicts, so its silence is no change."""
    path = _standard_house_rule(tmp_path, "ending:\n  turn_cap: 200\nexpect:\n  termination: proved\n")
    main(["diff", "standard", str(path)])
    out = capsys.readouterr().out
    assert "no longer expected" not in out
    assert "termination: expected proved (before: refuted)" in out


def test_verify_with_expect_inherit_judges_the_bases_expectations(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "docs" / "examples" / "friday-first-try.yaml").read_text(encoding="utf-8")
    path = tmp_path / "friday.yaml"
    path.write_text(text + "\nexpect: inherit\n", encoding="utf-8")
    assert main(["verify", str(path), "-p", "termination"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "termination: expected refuted, got proved (english-ascending:54:3)" in out


def test_the_guides_house_rule_expects_only_its_own_verdicts() -> None:
    rulebook, d = compile_rulebook(str(ROOT / "docs" / "examples" / "friday.yaml"))
    assert rulebook is not None, d.render()
    assert {e.property for e in rulebook.expectations} == {"seat-fairness", "termination"}


# Every problem at once ------------------------------------------------------------------------------

def test_a_refused_extends_still_checks_the_files_own_fields(tmp_path: Path) -> None:
    """Issue 25 point 3: both the refusal and `players: four` are reported; no rule the base would give."""
    path = tmp_path / "house.yaml"
    path.write_text("rulebook: house\nextends: ../../etc/passwd\nplayers: four\n", encoding="utf-8")
    _, d = compile_rulebook(str(path))
    assert [(x.code, x.span.line) for x in d.sorted()] == [("E306", 2), ("E206", 3)]


def test_an_unknown_base_still_checks_the_files_own_fields(tmp_path: Path) -> None:
    path = house_rule(tmp_path, "mogelnn", "passing:\n  allowd: true\nexpect: inherit\n")
    _, d = compile_rulebook(str(path))
    assert [(x.code, x.span.line) for x in d.sorted()] == [("E302", 3), ("E200", 5)]


# Scenario files -------------------------------------------------------------------------------------

def test_check_checks_a_scenario_file_as_a_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 25 point 4: a scenario is not reported as a broken rulebook; a broken scenario gets S codes."""
    good = ROOT / "tests" / "scenarios" / "standard" / "001-r1-count-of-three-plays-the-same.yaml"
    assert main(["check", str(good), "standard"]) == 0
    assert capsys.readouterr().out.strip() == "1 rulebook and 1 scenario checked: 0 errors, 0 warnings"
    bad = tmp_path / "bad.yaml"
    bad.write_text("scenario: a try\nrulebook: standard\nplayers: four\nseed: 1\n", encoding="utf-8")
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "error[S014]" in out and "error[E" not in out and out.endswith("1 scenario checked: 1 error, 0 warnings\n")
    bad.write_text("scenario: a try\nrulebook: mogelnn\nplayers: 4\nseed: 1\n", encoding="utf-8")
    assert main(["check", str(bad)]) == 1
    assert f"{bad}:2:11: error[S020]: no rulebook at 'mogelnn'" in capsys.readouterr().out


def test_the_language_server_tells_scenarios_apart_the_same_way() -> None:
    from cheatdsl.lsp.features import is_rulebook
    from cheatdsl.scenario.files import is_scenario_file, is_scenario_text
    good = ROOT / "tests" / "scenarios" / "standard" / "001-r1-count-of-three-plays-the-same.yaml"
    text = good.read_text(encoding="utf-8")
    assert is_scenario_text(text) and is_scenario_file(str(good)) and not is_rulebook(str(good), text)
    standard = ROOT / "rulebooks" / "standard.yaml"
    assert not is_scenario_file(str(standard))
    assert is_rulebook(str(standard), standard.read_text(encoding="utf-8"))


def test_a_rule_set_by_the_file_and_by_a_variation_it_uses_is_a_located_warning(tmp_path: Path) -> None:
    """Issue 41 point 2: `claim: {cards: 3..1}` with `use: [one-card-only]` checked clean and `diff` said "a
    play holds exactly 1 card": the author's line was dead and nothing said so. It is now W306, on the
    author's line, naming the variation's line and the `use:`."""
    from cheatdsl.load import compile_rulebook
    path = tmp_path / "house.yaml"
    path.write_text("rulebook: my-house\ntitle: Our table\nsource: a house rule\nextends: standard\n"
                    "use: [one-card-only]\nclaim:\n  cards: 3..1\n")
    rb, d = compile_rulebook(str(path))
    (w,) = [x for x in d.items if x.code == "W306"]
    assert w.span.line == 7 and "one-card-only" in w.message and "standard" in w.message
    assert "house.yaml:5" in w.hint
    # The file's own value is still checked: 3..1 is an empty range, an error on the author's line.
    assert rb is None
    (e,) = d.errors
    assert e.code == "E207" and e.span.line == 7 and "empty" in e.message
    path.write_text("rulebook: my-house\ntitle: Our table\nsource: a house rule\nextends: standard\n"
                    "use: [one-card-only]\nclaim:\n  cards: 1..3\n")
    rb, d = compile_rulebook(str(path))
    assert rb is not None and [x.code for x in d.items] == ["W306"], "a sound own value: the warning alone"
