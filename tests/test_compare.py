"""`cheatdsl compare`: rulebooks side by side, each rule dimension in a card player's words.

The dimensions are the rules catalogue's (`cheatdsl.compare.describe.DIMENSIONS`); seeds are cited by
number (000 English ascending, 001 the standard sheet, 002 full rules, 003 the practice table, 004 the
encyclopedia article). The verdict and statistics sections are fed made-up data here: the verifier's
answer as its dicts, and statistics summed up from made-up games (`tests/played.py`).
"""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from cheatdsl.cli import main
from cheatdsl.compare import page, statistics, text, verdicts, words
from cheatdsl.compare.describe import DIMENSIONS, describe
from cheatdsl.compare.grid import Comparison, as_json, columns_for, rules_section
from cheatdsl.compare.words import Vocabulary
from cheatdsl.diagnostics import Diagnostics
from cheatdsl.expr import parse_expression
from cheatdsl.load import compile_rulebook
from cheatdsl.model import Formula, Rulebook
from cheatdsl.source import Span
from tests.played import played

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = ROOT / "rulebooks"
SHIPPED = sorted(p for p in RULEBOOKS.iterdir() if p.suffix in (".yaml", ".cheat"))
FIVE = ["english-ascending", "mogeln", "verish-ne-verish", "canadian-bluff", "one-rank-a-round"]


def load(name: str, *variations: str) -> Rulebook:
    rb, d = compile_rulebook(str(RULEBOOKS / name), variations)
    assert rb is not None, d.render()
    return rb


def paths(names: list[str]) -> list[str]:
    return [str(RULEBOOKS / f"{n}.yaml") for n in names]


def expr(formula: str) -> Any:
    d = Diagnostics()
    tree = parse_expression(formula, Span("t", 1, 1), d)
    assert tree is not None, d.render()
    return tree


RANKS = Vocabulary.of(load("standard.yaml"))
CARDS = Vocabulary.of(load("mogeln.yaml"))


# --- formulas in words, read off the tree ----------------------------------------------------------

@pytest.mark.parametrize("formula, vocabulary, expected", [
    ("next(previous)", RANKS, "the next rank up"),                         # 000, 001: the next rank up
    ("prev(previous)", RANKS, "the next rank down"),                       # 001 v3 counting down
    ("{prev(previous), next(previous)}", RANKS, "one rank above or below the last call"),  # 001 v4
    ("{prev(previous), previous, next(previous)}", RANKS,
     "the same rank as the last call, or one rank above or below"),        # 001 v5, 002 up-down-same
    ("previous", RANKS, "the same rank as the last call"),                  # one rank a round, Verish'
    ("any", RANKS, "any rank"),                                             # Fujian, 002 free choice
    ("aces", RANKS, "aces"),
    ("king", RANKS, "kings"),
    ("next(next(previous))", RANKS, "two ranks up from the last call"),
    ("ace of hearts", CARDS, "the ace of hearts"),                          # Mogeln's first card
    ("next(previous)", CARDS, "the next card up"),
    ("above(previous)", CARDS, "any higher card of the same suit"),        # bluffstopp
    ("if previous == queens then kings else next(previous)", RANKS,
     "kings if the last call is queens, else the next rank up"),
])
def test_claim_formulas_in_words(formula: str, vocabulary: Vocabulary, expected: str) -> None:
    """Claim rules (`claim.first/follow/lead`) read as the claims they allow."""
    assert words.claims(expr(formula), vocabulary) == expected


@pytest.mark.parametrize("formula, expected", [
    ("left(claimant)", "the claimant's left neighbour"),                    # 001 ruling 4
    ("left(dealer)", "the dealer's left neighbour"),                        # 000: the dealer's left leads
    ("left(left(claimant))", "the second player to the claimant's left"),
    ("winner", "the winner of the challenge"),                              # Canadian bluff
    ("if caught then challenger else claimant", "the challenger if the play was a lie, else the claimant"),
    ("holder(ace of hearts)", "whoever was dealt the ace of hearts"),       # Mogeln
    ("last_player", "the last player to add cards"),                        # one rank a round, all pass
    ("seat(0)", "the dealer"),
    ("seat(1)", "the seat one place after the dealer in turn order"),   # issue 25: not a table seat number
    ("seat(2)", "the seat two places after the dealer in turn order"),
])
def test_seat_formulas_in_words(formula: str, expected: str) -> None:
    """Seat rules (`setup.first_player`, `challenge.next_player`, `passing.all_pass_leader`)."""
    assert words.seat(expr(formula), CARDS) == expected


@pytest.mark.parametrize("formula, expected", [
    ("players == 2", "there are exactly 2 players"),                        # 001: Force with two players
    ("hand == 1 and (leading or holds(required) == 1)",                     # 001 one rank a round, row 7
     "you hold exactly one card and either you are leading or you hold exactly one card of the rank due"),
    ("holds(required) == 0", "you hold no card of the rank due"),
    ("not caught", "the play was true"),
])
def test_conditions_in_words(formula: str, expected: str) -> None:
    """Conditions (`passing.when`, `ending.turn_start_win`, `allowed_when`)."""
    assert words.condition(expr(formula), RANKS) == expected


@pytest.mark.parametrize("formula, expected", [
    ("if players >= 5 then 2 else 1", "2 if there are 5 or more players, else 1"),   # 001 v2 big table
    ("players + 2", "the number of players plus 2"),                                  # Canadian ranks used
    ("max(2, (players + 1) // 2)", "the larger of 2 and half of the number of players plus 1, rounded down"),
])
def test_numbers_in_words(formula: str, expected: str) -> None:
    """Table formulas (`deck.packs`, `deck.ranks_used`)."""
    assert words.number(expr(formula)) == expected


def _formulas(node: Any, where: str = "") -> Iterator[tuple[str, Formula]]:
    if isinstance(node, Formula):
        yield where, node
    elif dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            yield from _formulas(getattr(node, f.name), f"{where}.{f.name}".lstrip("."))
    elif isinstance(node, tuple):
        for item in node:
            yield from _formulas(item, where)


def test_every_shipped_formula_has_words() -> None:
    """Every formula of every shipped rulebook reads in words: none falls back to its formula text."""
    read = {"claim.first": "claims", "claim.follow": "claims", "claim.lead": "claims", "setup.first_player": "seat",
            "challenge.next_player": "seat", "passing.all_pass_leader": "seat", "passing.when": "condition",
            "ending.turn_start_win": "condition", "challenge.kinds.allowed_when": "condition"}
    seen = 0
    for path in SHIPPED:
        rb = load(path.name)
        v = Vocabulary.of(rb)
        for where, formula in _formulas(rb):
            reader = read.get(where, "number")
            said = getattr(words, reader)(formula.expr, v) if reader != "seat" else words.seat(formula.expr, v)
            assert "`" not in said, f"{path.name} {where}: {formula.canonical} -> {said}"
            seen += 1
    assert seen > 100


# --- the cells: one per dimension of the catalogue -------------------------------------------------

def test_english_ascending_in_words() -> None:
    """Seed 000: every dimension of English ascending as a card player would say it."""
    cells = describe(load("english-ascending.yaml"))
    assert cells["players"] == "3 to 6"
    assert cells["deck"] == "one 52-card pack, no jokers"
    assert cells["out_of_play"] == "none"
    assert cells["deal"] == "all cards, hands may differ by one"
    assert cells["first_player"].startswith("the dealer's left")
    assert cells["claimed"] == "a count and a rank"
    assert cells["required"] == "aces to start, then the next rank up, aces after kings"
    assert cells["cards_per_play"] == "1 to 4"
    assert cells["count"] == "exact: only the rank may be a lie"
    assert cells["passing"] == "not allowed: you must bluff"
    assert cells["turn_order"] == "clockwise"
    assert cells["who_challenges"] == "any other player, before the next play"
    assert cells["several_challengers"] == "first clockwise from the claimant"
    assert cells["reveal"] == "every card of the newest play"
    assert cells["truth_test"] == "every card has the claimed rank"
    assert cells["penalty"] == "the loser takes the whole pile"
    assert cells["next_player"] == "the claimant's left neighbour"
    assert cells["sets"] == "none"
    assert cells["ending"] == "first out wins; a last play must survive a challenge"
    assert list(cells) == [d.key for d in DIMENSIONS]


@pytest.mark.parametrize("name, key, expected", [
    ("standard-big-table.yaml", "deck", "one 52-card pack, two packs from 5 players, no jokers"),  # 001 v2
    ("verish-ne-verish.yaml", "deck", "one 36-card pack (6 to A), no jokers"),                     # 004
    ("verish-ne-verish.yaml", "out_of_play", "one card set aside unseen"),                         # 004
    ("standard-two-player-twelve-aside.yaml", "out_of_play", "twelve cards set aside unseen"),     # 001 two players
    ("bluffstopp.yaml", "out_of_play", "the cards not dealt form a draw pile"),                    # 004 Sweden
    ("bluffstopp.yaml", "deal", "six cards each"),
    ("one-rank-a-round.yaml", "deal", "equal hands of at least five"),                             # 001 row 1
    ("mogeln.yaml", "claimed", "one exact card, rank and suit"),                                   # 004 Mogeln
    ("mogeln.yaml", "first_player", "whoever was dealt the ace of hearts"),
    ("standard-up-or-down.yaml", "required",
     "aces to start, then one rank above or below the last call, aces and kings are neighbours"),
    ("standard.yaml", "cards_per_play", "1 or more"),
    ("standard-one-card-only.yaml", "cards_per_play", "exactly 1"),
    ("standard-extra-cards.yaml", "count",
     "extra cards may be slipped in beyond the count called; a challenge catches them"),           # 001 v7
    ("canadian-bluff.yaml", "truth_test",
     "every card has the claimed rank; jokers wild; and the count called is the count played"),
    ("practice-table.yaml", "several_challengers",
     "asked one by one, clockwise from the claimant; the first challenge counts"),                 # 003
    ("one-rank-a-round.yaml", "reveal",
     "the single card played; \"Force\": a card of the claimed rank from the claimant's hand"),   # 001 rows 4, 8
    ("standard-show-the-pile.yaml", "reveal",
     "every card of the newest play; then the whole pile is shown before it is taken"),           # 001 v8
    ("bluffstopp.yaml", "penalty", "the loser draws three cards from the stock; the pile stays"),
    ("bluffstopp.yaml", "penalty", "when the stock runs short, the loser takes the pile as well"),  # short_stock
    ("one-rank-a-round.yaml", "next_player",
     "the challenger if the play was a lie, else the claimant, leading a new round"),             # 001 row 5
    ("canadian-bluff.yaml", "sets", "all 8 natural cards of a rank leave the game at once, from any hand"),
    ("verish-ne-verish.yaml", "sets", "after a pickup, a player may discard four cards of a rank"),
    ("standard-count-of-three.yaml", "who_challenges", "any other player, within a count of three"),  # 001 r1
    ("standard-two-player.yaml", "turn_order", "the two players alternate"),
    ("verish-ne-verish-skip.yaml", "passing",                                                      # 004 skip/pass
     "but not when leading a round; if everyone passes, the pile leaves the game unseen and the last player to add "
     "cards leads"),
])
def test_cells_in_words(name: str, key: str, expected: str) -> None:
    """One dimension of one shipped profile, as the catalogue's row for it says."""
    assert expected in describe(load(name))[key]


def test_every_shipped_rulebook_has_a_cell_for_every_dimension() -> None:
    """No dimension is left empty or falls back to formula text, for any shipped rulebook."""
    for path in SHIPPED:
        cells = describe(load(path.name))
        assert all(cells[d.key] and "`" not in cells[d.key] for d in DIMENSIONS), (path.name, cells)


# --- the command, in four formats ------------------------------------------------------------------

def _tables(out: str) -> int:
    """Tables in text output: each has one rule line under its headings."""
    return sum(1 for line in out.splitlines() if line.startswith("   " + "-" * 20 + "  -"))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["compare", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_fits_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    """The text table fits 100 columns; five rulebooks are split into two tables of columns."""
    code, out, _ = run(capsys, *paths(FIVE), "--no-verify")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 100
    rules = out.split("Verifier verdicts")[0]
    assert _tables(rules) == 2
    for name in FIVE:
        assert name in rules
    assert "≠  players" in rules and "   turn order" in rules
    assert "verifier not run (--no-verify)" in out


def test_text_with_many_rulebooks(capsys: pytest.CaptureFixture[str]) -> None:
    """Eleven rulebooks still fit 100 columns, in several tables."""
    names = [p.name for p in SHIPPED if p.suffix == ".yaml"][:11]
    code, out, _ = run(capsys, *[str(RULEBOOKS / n) for n in names], "--no-verify")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 100
    assert _tables(out.split("Verifier verdicts")[0]) >= 3


def test_markdown_table(capsys: pytest.CaptureFixture[str]) -> None:
    """Markdown: one table of rules with a column per rulebook, differing rows marked and bold."""
    code, out, _ = run(capsys, *paths(FIVE), "--format", "md", "--no-verify")
    assert code == 0
    header = next(line for line in out.splitlines() if line.startswith("| | |"))
    assert [c.strip() for c in header.strip("|").split("|")][2:] == FIVE
    assert "| ≠ | **players** | 3 to 6 | 4 to 10 | 2 to 6 | 3 to 10 | 2 to 6 |" in out
    assert "|  | turn order | clockwise | clockwise | clockwise | clockwise | clockwise |" in out


class _Tables(HTMLParser):
    """Collects each table's header cells and, per row, its class and cells."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict[str, Any]] = []
        self.tags: list[str] = []
        self.row: dict[str, Any] | None = None
        self.cell: list[str] | None = None
        self.in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append(tag)
        if tag == "table":
            self.tables.append({"id": a.get("id"), "head": [], "rows": []})
        elif tag == "thead":
            self.in_head = True
        elif tag == "tr" and self.tables:
            self.row = {"class": a.get("class") or "", "key": a.get("data-key"), "cells": []}
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "thead":
            self.in_head = False
        elif tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row["cells"].append("".join(self.cell).strip())
            self.cell = None
        elif tag == "tr" and self.row is not None:
            if self.in_head:
                self.tables[-1]["head"] = self.row["cells"]
            else:
                self.tables[-1]["rows"].append(self.row)
            self.row = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def test_html_page(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """HTML: one self-contained page holding one table, a column per rulebook, differing rows highlighted."""
    out_file = tmp_path / "compare.html"
    code, out, _ = run(capsys, *paths(FIVE), "--format", "html", "--no-verify", "-o", str(out_file))
    assert code == 0 and out == ""
    html = out_file.read_text(encoding="utf-8")
    parser = _Tables()
    parser.feed(html)
    assert len(parser.tables) == 1
    table = parser.tables[0]
    assert table["head"][2:] == FIVE
    rules = {r["key"]: r for r in table["rows"] if r["key"] in {d.key for d in DIMENSIONS}}
    assert list(rules) == [d.key for d in DIMENSIONS]
    assert all(len(r["cells"]) == 2 + len(FIVE) for r in rules.values())
    assert "differs" in rules["players"]["class"] and rules["players"]["cells"][0] == "≠"
    assert "differs" not in rules["turn_order"]["class"]
    assert "<style>" in html
    for outside in ("<script", "<link", "src=", "url(", "@import"):
        assert outside not in html


def test_json_rows(capsys: pytest.CaptureFixture[str]) -> None:
    """JSON: the rulebooks, then a row per dimension with a cell per rulebook and whether they differ."""
    code, out, _ = run(capsys, *paths(FIVE), "--format", "json", "--no-verify")
    assert code == 0
    data = json.loads(out)
    assert [r["name"] for r in data["rulebooks"]] == FIVE
    assert [r["key"] for r in data["rules"]] == [d.key for d in DIMENSIONS]
    for row in data["rules"]:
        assert len(row["cells"]) == len(FIVE)
        assert row["differs"] == (len(set(row["cells"])) > 1)
    assert data["verdicts"]["note"] == "verifier not run (--no-verify)"


def test_same_name_columns_told_apart() -> None:
    """Two files of one rulebook (the YAML and .cheat forms of 000) get their file names as headings."""
    rbs = [load("english-ascending.yaml"), load("english-ascending.cheat")]
    assert [c.heading for c in columns_for(rbs)] == ["english-ascending.yaml", "english-ascending.cheat"]
    assert not any(r.differs for r in rules_section(rbs).rows)


# --- the sections that plug in by data -------------------------------------------------------------

FAKE_VERDICTS: list[dict[str, dict[str, str]] | None] = [
    {"rank-cycle": {"verdict": "proved", "summary": "A..K then A"},
     "seat-fairness": {"verdict": "proved", "summary": "13 and 3..6 share no factor"}},
    {"rank-cycle": {"verdict": "proved", "summary": "52 cards"},
     "seat-fairness": {"verdict": "refuted", "summary": "4 seats and 52 claims", "expected": "proved"}},
]


def test_verdicts_side_by_side() -> None:
    """A row per property in the project's order, a cell per rulebook, disagreements marked."""
    s = verdicts.section(FAKE_VERDICTS)
    assert [r.key for r in s.rows] == ["rank-cycle", "seat-fairness"]
    assert s.rows[0].cells == ("proved", "proved") and not s.rows[0].differs
    assert s.rows[1].cells == ("proved", "refuted (expected proved)") and s.rows[1].differs
    assert s.rows[1].notes[1] == "4 seats and 52 claims"


def test_verdicts_from_the_verify_report() -> None:
    """`cheatdsl verify --json` entries become the section's dicts; a rulebook not verified is None."""
    entry = {"path": "x.yaml", "results": [{"id": "deal", "verdict": "refuted", "summary": "ace aside", "details": {}}],
             "expectations": [{"id": "deal", "expected": "proved", "verdict": "refuted", "status": "failed",
                               "at": "x.yaml:3:3"}]}
    assert verdicts.from_report(entry) == {"deal": {"verdict": "refuted", "summary": "ace aside",
                                                    "expected": "proved", "status": "failed"}}
    assert verdicts.from_report({"path": "y.yaml", "error": "1 error(s)"}) is None


def test_verifier_failing(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the verifier fails, the section says "verifier unavailable" and no traceback escapes."""
    from verifier import api

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug in the verifier")
    monkeypatch.setattr(api, "verify_files", broken)
    data, note = verdicts.collect(["a.yaml"], [()])
    assert data is None and note == "verifier unavailable: RuntimeError: a bug in the verifier"
    assert verdicts.section(data, note).note == note


def test_compare_reads_the_verdicts_verify_json_prints(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27 point 6: compare calls the verifier in process, and each rulebook's entry equals the one
    `cheatdsl verify --json` prints (a variation switched on in one of them), but the seconds."""
    def plain(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items() if k != "seconds"}
        return [plain(v) for v in value] if isinstance(value, list) else value
    files = paths(["english-ascending", "standard"])
    used: list[tuple[str, ...]] = [(), ("counting-down",)]
    got, why = verdicts.reports(files, used)
    assert got is not None and why == ""
    for path, variations, entry in zip(files, used, got):
        args = ["verify", "--json", path] + [a for name in variations for a in ("--variation", name)]
        main(args)
        printed = json.loads(capsys.readouterr().out)["rulebooks"]
        assert [plain(entry)] == plain(printed)


def test_verifier_through_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    """The real verifier, run in a child process, fills a row per property with a cell per rulebook."""
    code, out, _ = run(capsys, *paths(["english-ascending", "practice-table"]), "--format", "json")
    assert code == 0
    section = json.loads(out)["verdicts"]
    assert {r["key"] for r in section["rows"]} >= {"rank-cycle", "deal"}
    assert all(len(r["cells"]) == 2 for r in section["rows"])


# Four games a column at four seats: the first column's last game stopped at the turn cap (100), a
# challenge per game or more, forced bluffs and pickups in numbers the rows below can be read from.
FAKE_STATS = [
    played([40, 60, 80], capped=1, cap=100, players=4, wins=[1, 2, 0], caught=30, failed=10, forced=10,
           pickups=[3] * 30 + [4] * 10),
    played([20, 30, 30, 50], players=4, wins=[0, 0, 2, 3], caught=5, failed=15, forced=1),
]


def _comparison_with_stats() -> Comparison:
    rbs = [load("english-ascending.yaml"), load("mogeln.yaml")]
    columns = columns_for(rbs)
    return Comparison(columns, (rules_section(rbs), verdicts.section(FAKE_VERDICTS),
                                statistics.section(columns, FAKE_STATS)))


def test_statistics_side_by_side() -> None:
    """Turns per game, wins by turn order from the first player, challenge outcomes: a cell per rulebook; issue 25
    'intervals on every share': each share with its 95% Wilson interval, as the charts draw it."""
    s = statistics.section(columns_for([load("english-ascending.yaml"), load("mogeln.yaml")]), FAKE_STATS)
    rows = {r.key: r.cells for r in s.rows}
    assert rows["games"] == ("4 at 4 players", "4 at 4 players")
    assert rows["turns"] == ("mean 60, median 60, 40 to 80 (of 3 finished)", "mean 32, median 30, 20 to 50")
    assert rows["unfinished"] == ("1 of 4: 25% (5%–70%), 1 at the turn cap", "0 of 4: 0% (0%–49%)")
    assert rows["wins_by_seat"] == ("of 3 won: first 33% (6%–79%), second 33% (6%–79%), third 33% (6%–79%), "
                                    "fourth 0% (0%–56%)",
                                    "first 50% (15%–85%), second 0% (0%–49%), third 25% (5%–70%), fourth 25% (5%–70%)")
    assert rows["challenges"] == ("10.0 (with 1 unfinished)", "5.0")
    assert rows["caught"] == ("75% (60%–86%) (with 1 unfinished)", "25% (11%–47%)")
    assert rows["forced_bluffs"] == ("2.5 (with 1 unfinished)", "0.2")
    assert rows["pickups"] == ("mean 3.2 (with 1 unfinished)", "no pickups")
    assert s.note.startswith("4 games per rulebook at 4 players between honest bots, seed 0.")
    assert [p.key for p in s.plots] == ["turns", "wins", "challenges"]
    for plot in s.plots:
        assert ET.fromstring(plot.svg).tag.endswith("svg")


def test_plots_only_with_simulation_data() -> None:
    """The HTML page draws its SVG plots when simulation data is present, and only then."""
    with_stats = page.render(_comparison_with_stats())
    assert with_stats.count("<svg") == 3 and 'id="plot-wins"' in with_stats
    rbs = [load("english-ascending.yaml"), load("mogeln.yaml")]
    columns = columns_for(rbs)
    without = Comparison(columns, (rules_section(rbs), statistics.section(columns, None, "no simulator")))
    assert "<svg" not in page.render(without)
    parser = _Tables()
    parser.feed(with_stats)
    assert len(parser.tables) == 1


def test_all_formats_with_every_section() -> None:
    """Text, Markdown and JSON carry the verdict and statistics rows too; text stays within 100 columns."""
    c = _comparison_with_stats()
    plain = text.render(c)
    assert max(len(line) for line in plain.splitlines()) <= 100
    flat = " ".join(plain.split())
    assert "refuted (expected proved)" in flat and "mean 60, median 60, 40 to 80 (of" in flat
    assert "| ≠ | **seat-fairness** | proved | refuted (expected proved) |" in text.markdown(c)
    data = as_json(c)
    assert [r["key"] for r in data["verdicts"]["rows"]] == ["rank-cycle", "seat-fairness"]
    assert data["statistics"]["data"][0]["turns_histogram"] == [[40, 1], [60, 1], [80, 1], [100, 1]]


def test_table_size_for_simulation() -> None:
    """All rulebooks are simulated at one player count they all allow, the nearest to four."""
    rbs = [load(n) for n in ("english-ascending.yaml", "mogeln.yaml", "practice-table.yaml")]
    assert statistics.table_size(rbs) == [4, 4, 3]
    assert statistics.table_size(rbs[:2]) == [4, 4]


# --- exit codes ------------------------------------------------------------------------------------

def test_rulebook_with_errors_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A rulebook with errors: its diagnostics as `check` prints them, nothing compared, exit 1."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("rulebook: bad\nplayers: 3..4\n", encoding="utf-8")
    code, out, err = run(capsys, str(RULEBOOKS / "standard.yaml"), str(bad), "--no-verify")
    assert code == 1 and out == ""
    assert "bad.yaml:" in err and "error[E201]" in err and "Traceback" not in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A variation no rulebook offers, or an output file that cannot be written: exit 2."""
    code, _, err = run(capsys, str(RULEBOOKS / "standard.yaml"), "--variation", "no-such", "--no-verify")
    assert code == 2 and "no-such" in err
    code, _, err = run(capsys, str(RULEBOOKS / "standard.yaml"), "--no-verify", "-o", str(tmp_path / "no" / "x"))
    assert code == 2 and "cannot write" in err
    with pytest.raises(SystemExit) as exc:
        main(["compare", str(RULEBOOKS / "standard.yaml"), "--simulate", "0"])
    assert exc.value.code == 2


def test_variation_switched_on_where_offered(capsys: pytest.CaptureFixture[str]) -> None:
    """001 v2: `--variation big-table` applies to the standard sheet, which offers it, not to 000."""
    code, out, _ = run(capsys, *paths(["standard", "english-ascending"]), "-V", "big-table", "--format", "json",
                       "--no-verify")
    assert code == 0
    data = json.loads(out)
    assert [r["variations"] for r in data["rulebooks"]] == [["big-table"], []]
    deck = next(r for r in data["rules"] if r["key"] == "deck")
    assert deck["cells"] == ["one 52-card pack, two packs from 5 players, no jokers", "one 52-card pack, no jokers"]
