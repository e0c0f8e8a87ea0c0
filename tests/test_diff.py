"""`cheatdsl diff BASE VARIANT`: what a house rule changes, in sentences, and when two files are one game.

Seeds are cited by number; the standard sheet is seed 001, whose "Variations" rows 2-8 and "Table
rulings" rows 1 and 7 ship as the house-rule files standard-*.yaml.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cheatdsl.cli import main
from cheatdsl.compare import verdicts
from cheatdsl.compare.diff import diff
from cheatdsl.compare.diff_report import render_text
from cheatdsl.load import compile_rulebook
from cheatdsl.model import Rulebook

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = ROOT / "rulebooks"
STANDARD = RULEBOOKS / "standard.yaml"

# Each house-rule file of the standard sheet: the row it comes from, the dimension it changes and
# the words that must name the change.
HOUSE_RULES = {
    "standard-big-table.yaml": ("001 v2", "deck", "two packs from 5 players"),
    "standard-counting-down.yaml": ("001 v3", "required", "each later call is the next rank down, kings after aces"),
    "standard-up-or-down.yaml": ("001 v4", "required", "each later call is one rank above or below the last call"),
    "standard-same-again.yaml": ("001 v5", "required",
                                 "each later call is the same rank as the last call, or one rank above or below"),
    "standard-one-card-only.yaml": ("001 v6", "cards_per_play", "a play holds exactly 1 card"),
    "standard-extra-cards.yaml": ("001 v7", "count", "a play may hold extra cards beyond the count called"),
    "standard-show-the-pile.yaml": ("001 v8", "reveal", "the whole pile is shown to everyone before it is taken"),
    "standard-count-of-three.yaml": ("001 ruling 1", "who_challenges", "a challenger has a count of three"),
    "standard-nearest-left.yaml": ("001 ruling 7", "several_challengers",
                                   "of several challengers, the first clockwise from the claimant challenges"),
    "standard-two-player.yaml": ("001 two players", "players", "the game is for exactly 2 players"),
    "standard-two-player-twelve-aside.yaml": ("001 two players, row 4", "out_of_play",
                                              "twelve cards set aside unseen before the deal"),
}


def load(path: Path | str, *variations: str) -> Rulebook:
    rb, d = compile_rulebook(str(path), variations)
    assert rb is not None, d.render()
    return rb


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["diff", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_house_rule_file_is_listed() -> None:
    """Every standard-*.yaml shipped has its expected change in HOUSE_RULES, so none goes untested."""
    assert {p.name for p in RULEBOOKS.glob("standard-*.yaml")} == set(HOUSE_RULES)


@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_house_rule_named_in_a_sentence(name: str) -> None:
    """Each house-rule file of the standard sheet, diffed against it, names its change in a sentence."""
    row, dimension, words = HOUSE_RULES[name]
    d = diff(load(STANDARD), load(RULEBOOKS / name))
    assert not d.same_game, row
    said = [c for c in d.changes if words in c.sentence]
    assert said and said[0].dimension == dimension, (row, [c.sentence for c in d.changes])
    assert all(c.sentence != c.before for c in d.changes)


def test_extra_cards_as_the_command_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    """001 v7: the text names the dimension, the new rule and the old one, within 100 columns."""
    code, out, _ = run(capsys, str(STANDARD), str(RULEBOOKS / "standard-extra-cards.yaml"))
    assert code == 0
    assert "changes 1 rule of" in out
    assert "\ncount honesty\n  - a play may hold extra cards beyond the count called; a challenge catches them\n" in out
    assert "(before: the count called must be the count played: only the rank may be a lie)" in out
    assert max(len(line) for line in out.splitlines()) <= 100


@pytest.mark.parametrize("variation", [v.name for v in load(STANDARD).variations])
def test_each_variation_of_the_sheet_changes_something(variation: str) -> None:
    """001 Variations: every variation the standard sheet offers changes at least one rule of it."""
    d = diff(load(STANDARD), load(STANDARD, variation))
    assert not d.same_game and d.changes


def test_yaml_and_text_forms_are_the_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    """000: english-ascending.yaml and english-ascending.cheat are one rulebook in two forms."""
    code, out, _ = run(capsys, str(RULEBOOKS / "english-ascending.yaml"), str(RULEBOOKS / "english-ascending.cheat"))
    assert code == 0
    assert out.startswith("same game: ")


def test_reordered_rules_are_the_same_game(tmp_path: Path) -> None:
    """Sections and keys in another order, a formula spaced differently: the same game."""
    text = (RULEBOOKS / "english-ascending.yaml").read_text(encoding="utf-8")
    head, rest = text.split("\nplayers:", 1)
    body = "players:" + rest
    sections = body.split("\n\n")
    reordered = head + "\n" + "\n\n".join(reversed(sections)).replace("follow: next(previous)",
                                                                      "follow: next( previous )")
    path = tmp_path / "reordered.yaml"
    path.write_text(reordered + "\n", encoding="utf-8")
    assert diff(load(RULEBOOKS / "english-ascending.yaml"), load(path)).same_game


def test_variation_restating_the_default_is_the_same_game(tmp_path: Path) -> None:
    """A variation that says again what the sheet says (`{next(previous)}` for `next(previous)`): same game."""
    (tmp_path / "standard.yaml").write_text(STANDARD.read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / "restated.yaml"
    path.write_text(
        'rulebook: restated\nsource: "a test"\nextends: standard.yaml\nuse: [plain]\n'
        'variations:\n  plain:\n    summary: the sheet again\n    changes:\n'
        '      claim: {count: exact, follow: "{next(previous)}"}\n'
        '      challenge: {window: before_next_play}\n', encoding="utf-8")
    d = diff(load(tmp_path / "standard.yaml"), load(path))
    assert d.same_game, [c.sentence for c in d.changes]
    assert "same game" in render_text(d)


def test_formula_with_the_same_values_is_the_same_game(tmp_path: Path) -> None:
    """001 v2 at a table of two to four: `if players >= 5 then 2 else 1` is one pack, as before."""
    (tmp_path / "standard.yaml").write_text(STANDARD.read_text(encoding="utf-8"), encoding="utf-8")
    small = 'rulebook: small\nsource: "a test"\nextends: standard.yaml\nplayers: 2..4\n'
    (tmp_path / "small.yaml").write_text(small, encoding="utf-8")
    (tmp_path / "small-big.yaml").write_text(small + "use: [big-table]\n", encoding="utf-8")
    assert diff(load(tmp_path / "small.yaml"), load(tmp_path / "small-big.yaml")).same_game


def test_change_without_effect_is_reported_apart(tmp_path: Path) -> None:
    """A lead rule in a game whose rounds never end (000) changes nothing in play."""
    (tmp_path / "base.yaml").write_text((RULEBOOKS / "english-ascending.yaml").read_text(encoding="utf-8"))
    (tmp_path / "lead.yaml").write_text('rulebook: lead\nsource: "a test"\nextends: base.yaml\n'
                                        'claim: {lead: kings}\n', encoding="utf-8")
    d = diff(load(tmp_path / "base.yaml"), load(tmp_path / "lead.yaml"))
    assert d.same_game
    assert [(i.field, i.reason) for i in d.idle] == [("claim.lead", "rounds never end")]


def test_a_hand_emptied_by_sets_staying_in_is_named(tmp_path: Path) -> None:
    """`ending.emptied_by_sets` (004 Verish' Ne Verish', "discard four of a rank after a pickup"; the source is
    silent on a hand the discard empties): the house rule that keeps such a player in is a rule of the
    ending; without sets the same rule changes nothing in play."""
    house = ROOT / "tests" / "scenarios" / "verish-ne-verish" / "rulebook-house-emptied-stays-in.yaml"
    d = diff(load(RULEBOOKS / "verish-ne-verish.yaml"), load(house))
    assert not d.same_game
    assert [(c.dimension, c.sentence) for c in d.changes] == [
        ("ending", "a player whose hand is emptied by the sets discarded after losing a challenge stays in, "
                   "passed over while holding nothing")]
    (tmp_path / "base.yaml").write_text((RULEBOOKS / "english-ascending.yaml").read_text(encoding="utf-8"))
    (tmp_path / "stays.yaml").write_text('rulebook: stays\nsource: "a test"\nextends: base.yaml\n'
                                         'ending: {emptied_by_sets: stays_in}\n', encoding="utf-8")
    d = diff(load(tmp_path / "base.yaml"), load(tmp_path / "stays.yaml"))
    assert d.same_game
    assert [(i.field, i.reason) for i in d.idle] == [("ending.emptied_by_sets", "no sets leave the game")]


def test_a_short_stock_costing_nothing_is_named(tmp_path: Path) -> None:
    """`challenge.penalty.short_stock` (004 Sweden, "the player draws three cards from the pile"; the source is
    silent on a pile run short): the house rule that has the loser draw only what is left is a rule of the
    penalty; where the loser takes the pile anyway the same rule changes nothing in play."""
    house = ROOT / "tests" / "scenarios" / "bluffstopp" / "rulebook-house-short-stock-nothing.yaml"
    d = diff(load(RULEBOOKS / "bluffstopp.yaml"), load(house))
    assert not d.same_game
    assert [(c.dimension, c.sentence) for c in d.changes] == [
        ("penalty", "when the stock runs short, the loser of a challenge draws only what is left")]
    (tmp_path / "base.yaml").write_text((RULEBOOKS / "english-ascending.yaml").read_text(encoding="utf-8"))
    (tmp_path / "short.yaml").write_text('rulebook: short\nsource: "a test"\nextends: base.yaml\n'
                                         'challenge: {penalty: {short_stock: take_pile}}\n', encoding="utf-8")
    d = diff(load(tmp_path / "base.yaml"), load(tmp_path / "short.yaml"))
    assert d.same_game
    assert [(i.field, i.reason) for i in d.idle] == [("challenge.penalty.short_stock", "the loser takes the pile")]


def test_wording_only_is_the_same_game(tmp_path: Path) -> None:
    """Calling "Bluff!" rather than "Cheat!" is the same game; the wording is noted."""
    text = (RULEBOOKS / "english-ascending.yaml").read_text(encoding="utf-8").replace('"Cheat!"', '"Bluff!"')
    (tmp_path / "bluff.yaml").write_text(text, encoding="utf-8")
    d = diff(load(RULEBOOKS / "english-ascending.yaml"), load(tmp_path / "bluff.yaml"))
    assert d.same_game
    assert d.wording == ['a challenger says "Bluff!" (before: "Cheat!")']


def test_next_player_after_a_challenge() -> None:
    """001 ruling 4 against one rank a round, row 5: who plays after a challenge, said both ways."""
    d = diff(load(RULEBOOKS / "one-rank-a-round.yaml"), load(STANDARD, "one-card-only"))
    change = next(c for c in d.changes if c.dimension == "next_player")
    assert change.sentence == "after a challenge, the claimant's left neighbour plays next"
    assert change.before == ("after a challenge, the next to play is the challenger if the play was a lie, "
                             "else the claimant")


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    """--format json: the changes with their dimension, field, sentence and the base's sentence."""
    code, out, _ = run(capsys, str(STANDARD), str(RULEBOOKS / "standard-one-card-only.yaml"), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["same_game"] is False
    assert data["changes"] == [{"dimension": "cards_per_play", "label": "cards per play", "field": "claim.cards",
                                "sentence": "a play holds exactly 1 card", "before": "a play holds 1 or more cards"}]


def test_variation_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """`diff R R -V NAME` shows what the variation NAME of R changes (001 v6)."""
    code, out, _ = run(capsys, str(STANDARD), str(STANDARD), "-V", "one-card-only")
    assert code == 0 and "(with one-card-only)" in out and "a play holds exactly 1 card" in out


def test_verdict_changes_hook() -> None:
    """Verdicts that change between two rulebooks, from two verdict dicts (fake data here)."""
    base = {"rank-cycle": "proved", "seat-fairness": {"verdict": "proved"}, "deal": "proved"}
    variant = {"rank-cycle": {"verdict": "proved"}, "seat-fairness": "refuted", "round-rank": "not_applicable"}
    assert verdicts.changes(base, variant) == [
        "seat-fairness: refuted, was proved",
        "deal: no longer verified (was proved)",
        "round-rank: not_applicable (not verified for the base)",
    ]
    assert verdicts.changes(base, base) == []


def test_errors_and_usage(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A missing or broken rulebook exits 1 with its diagnostics; a missing argument or unknown variation exits 2."""
    code, out, err = run(capsys, str(STANDARD), str(tmp_path / "none.yaml"))
    assert code == 1 and out == "" and "error[E001]" in err and "Traceback" not in err
    code, _, err = run(capsys, str(STANDARD), str(STANDARD), "-V", "no-such")
    assert code == 2 and "no-such" in err and "big-table" in err  # a usage error naming the variations offered
    with pytest.raises(SystemExit) as exc:
        main(["diff", str(STANDARD)])
    assert exc.value.code == 2


# --- a game that tells two rulebooks apart ---------------------------------------------------------

def test_distinguishing_game_for_extra_cards(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """001 v7: a seeded game where a play with more cards than called is legal only with extra cards;
    written as two scenarios that each pass under their own rulebook."""
    from cheatdsl.scenario import run_scenario
    code, out, _ = run(capsys, str(STANDARD), str(RULEBOOKS / "standard-extra-cards.yaml"), "--game",
                       "--game-dir", str(tmp_path))
    assert code == 0
    assert "A game that tells them apart" in out and "under standard-extra-cards but not under standard" in out
    written = sorted(tmp_path.glob("*.yaml"))
    assert [p.name for p in written] == ["standard-extra-cards-vs-standard.base.yaml",
                                         "standard-extra-cards-vs-standard.variant.yaml"]
    results = [run_scenario(str(p)) for p in written]
    assert all(r.passed for r in results), [r.render() for r in results]
    base, variant = (p.read_text(encoding="utf-8") for p in written)
    assert "illegal:" in base and "legal:" in variant and "illegal:" not in variant


def test_distinguishing_game_for_counting_down() -> None:
    """001 v3: the same deal and actions, and the rank due after aces differs (twos, or kings)."""
    from cheatdsl.compare.distinguish import search
    found, why = search(load(STANDARD), load(RULEBOOKS / "standard-counting-down.yaml"), seeds=3)
    assert found is not None, why
    said = found.sentence("standard", "standard-counting-down")
    assert "kings" in said or "refused" in said or "not under" in said


def test_deal_that_differs_at_once() -> None:
    """001 v2: at five players the big table deals from two packs, so the hands differ before any play."""
    from cheatdsl.compare.distinguish import search
    found, _ = search(load(STANDARD), load(RULEBOOKS / "standard-big-table.yaml"), seeds=1)
    assert found is not None and found.kind == "deal" and found.players == 5
    assert found.base_expect["hand_sizes"] != found.variant_expect["hand_sizes"]


def test_no_distinguishing_game_when_the_interpreter_plays_alike() -> None:
    """001 ruling 1: a count of three plays the same as "before the next play" in the interpreter."""
    from cheatdsl.compare.distinguish import search
    found, why = search(load(STANDARD), load(RULEBOOKS / "standard-count-of-three.yaml"), seeds=2)
    assert found is None and "plays these rules alike" in why
