"""`cheatdsl check`: every problem located and reported at once; bad input never gives a traceback.

The known-bad table below is both the checker's contract and its test: each row is a change to a
valid rulebook, the code it must produce, and a fragment of the message.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cheatdsl.cli import main
from cheatdsl.load import compile_rulebook

ROOT = Path(__file__).resolve().parent.parent
VALID = (ROOT / "rulebooks" / "english-ascending.yaml").read_text(encoding="utf-8")


def write(tmp_path: Path, text: str, name: str = "table.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def codes(path: str, variations: tuple[str, ...] = ()) -> list[tuple[str, str, int]]:
    rb, d = compile_rulebook(path, variations)
    return [(x.code, x.message, x.span.line) for x in d.sorted()]


# (name, text replaced, replacement, expected code, message fragment)
KNOWN_BAD = [
    ("unknown rank name in a formula", "first: aces", "first: acse", "E110", "unknown name `acse`"),
    ("misspelt section key", "  jokers: 0", "  joker: 0", "E200", "unknown rule `deck.joker`"),
    ("inverted player range", "players: 3..6", "players: 6..3", "E207", "the range is empty"),
    ("unknown deal style", "style: all", "style: al", "E205", "must be one of all, equal, fixed"),
    ("unknown function", "first_player: left(dealer)", "first_player: lef(dealer)", "E113", "unknown function `lef`"),
    ("unclosed formula", "follow: next(previous)", "follow: next(previous", "E105", "ends too early"),
    ("wrong kind of value", "  allowed: false", "  allowed: maybe", "E203", "must be true or false"),
    ("missing decision: who leads", "  first_player: left(dealer)\n", "", "E201", "who plays first"),
    ("missing decision: what follows the last rank", "  after_last: wrap", "", "E201",
     "what is claimed after the last rank"),
    ("missing decision: how the game ends", "  style: first_out\n", "", "E201", "how the game ends"),
    ("missing decision: what a challenge reveals", "  reveal: play", "", "E201", "which cards a challenge turns over"),
    ("unknown rank in the deck", "ranks: [A, 2,", "ranks: [A, 1,", "E211", "unknown rank `1`"),
    ("rank listed twice", "ranks: [A, 2,", "ranks: [A, A,", "E210", "listed twice"),
    ("a player range the deck cannot deal", "players: 3..6", "players: 3..60", "E204", "at most 20 seats"),
    ("deck too small for the players", "  packs: 1", "  packs: 1\n  ranks_used: 1", "E401",
     "cannot be dealt to 5 players"),
    ("one card a play with extra cards", "  cards: 1..4\n  count: exact", "  cards: 1\n  count: extra_allowed", "E402",
     "extra cards may be slipped in"),
    ("unknown property expected", "  termination: refuted", "  terminaton: refuted", "E406",
     "unknown property `terminaton`"),
    ("unknown verdict expected", "  termination: refuted", "  termination: maybe", "E205", "must be one of proved"),
    ("formula of the wrong kind", "next_player: left(claimant)", "next_player: aces", "E111",
     "must be a seat, found a claim"),
    ("comparing a seat with a number", "next_player: left(claimant)",
     "next_player: if claimant > 2 then claimant else challenger", "E111", "compares numbers"),
    ("a rank name where a card is claimed", "kind: rank", "kind: card", "E112", "claims here name exact cards"),
    ("draw penalty without a stock", "kind: take_pile", "kind: draw\n    draw: 3", "E405", "there is no stock"),
    ("all-pass round end without passing", "round_ends: []", "round_ends: [all_pass]", "E404",
     "passing is not allowed"),
    ("unknown variation used", "rulebook: english-ascending", "rulebook: x\nuse: [two-decks]", "E304",
     "unknown variation `two-decks`"),
    ("unknown base", "rulebook: english-ascending", "rulebook: x\nextends: nosuch", "E302", "unknown base"),
    ("duplicate key", "title: English", "title: A\ntitle: English", "E016", "given twice"),
    ("YAML alias", "  jokers: 0", "  jokers: &j 0\n  jokers_wild: *j", "E014", "aliases are not allowed"),
    ("malformed YAML", "players: 3..6", "players: [3..6", "E010", "malformed YAML"),
    ("a deck too large to lay out", "  packs: 1", "  packs: 100000000", "E413", "at most 2,000 are supported"),
    ("a set of one card", "ending:\n", "sets:\n  size: 1\n  mode: optional\nending:\n", "E414",
     "a set is 1 cards"),
    ("unknown choice for a hand emptied by sets", "ending:\n", "ending:\n  emptied_by_sets: stay\n", "E205",
     "`ending.emptied_by_sets` must be one of out, stays_in"),
    ("a hand emptied by sets without sets", "ending:\n", "ending:\n  emptied_by_sets: stays_in\n", "W402",
     "no sets leave the game"),
    ("unknown choice for a short stock", "    pile_after: stays\n", "    pile_after: stays\n    short_stock: pile\n",
     "E205", "`challenge.penalty.short_stock` must be one of nothing, take_pile"),
    ("a short stock without a draw penalty", "    pile_after: stays\n",
     "    pile_after: stays\n    short_stock: take_pile\n", "W403", "takes the pile and draws nothing"),
    ("formula too deep", "follow: next(previous)", "follow: " + "next(" * 60 + "previous" + ")" * 60, "E102",
     "nested more than"),
    ("formula too long", "follow: next(previous)", "follow: " + "1 + " * 700 + "1", "E101", "characters"),
]


@pytest.mark.parametrize("name,old,new,code,fragment", KNOWN_BAD, ids=[row[0] for row in KNOWN_BAD])
def test_known_bad_snippet(tmp_path: Path, name: str, old: str, new: str, code: str, fragment: str) -> None:
    """Each known-bad change to a valid rulebook gives its code and message, located on a real line."""
    assert old in VALID, f"table row {name!r} no longer matches the base rulebook"
    path = write(tmp_path, VALID.replace(old, new, 1))
    found = codes(path)
    assert any(c == code and fragment in m for c, m, _ in found), found
    assert all(line >= 1 for c, _, line in found if c == code)


def test_valid_rulebook_is_clean(tmp_path: Path) -> None:
    """The base of the known-bad table checks clean, so each row's error is its own."""
    assert codes(write(tmp_path, VALID)) == []


def test_ten_mistakes_give_ten_located_diagnostics(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A rule author fixes ten problems in one pass: all ten are reported in one run."""
    text = VALID
    for old, new in [
        ("players: 3..6", "players: 6..3"),
        ("  jokers: 0", "  joker: 0"),
        ("style: all", "style: al"),
        ("first_player: left(dealer)", "first_player: lef(dealer)"),
        ("first: aces", "first: acse"),
        ("  allowed: false", "  allowed: maybe"),
        ("priority: first_clockwise", "priority: loudest"),
        ("reveal: play", "reveal: everything"),
        ("next_player: left(claimant)", "next_player: left(claimnt)"),
        ("  termination: refuted", "  terminaton: refuted"),
    ]:
        assert old in text
        text = text.replace(old, new, 1)
    path = write(tmp_path, text)
    assert main(["check", path]) == 1
    out = capsys.readouterr().out
    heads = [line for line in out.splitlines() if ": error[" in line]
    assert len(heads) == 10, out
    lines = {int(h.split(":")[1]) for h in heads}
    assert len(lines) == 10, "each mistake is reported on its own line"


def test_diagnostic_format_has_source_line_caret_and_hint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rendered like a compiler: path:line:col: error[CODE]: message, the line, a caret, a hint."""
    path = write(tmp_path, VALID.replace("first: aces", "first: acse"))
    assert main(["check", path]) == 1
    out = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(out) if "error[E110]" in line)
    line_no = VALID.splitlines().index("  first: aces") + 1
    assert out[head].startswith(f"{path}:{line_no}:10: error[E110]: unknown name `acse`")
    assert out[head + 1].strip() == "first: acse"
    assert out[head + 2].index("^") == out[head + 1].index("acse")
    assert "did you mean `ace`?" in out[head + 3] or "did you mean `aces`?" in out[head + 3]


def test_json_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--format json gives a list of objects with file, line, column, severity, code, message."""
    path = write(tmp_path, VALID.replace("style: all", "style: al"))
    assert main(["check", "--format", "json", path]) == 1
    items = json.loads(capsys.readouterr().out)
    assert items and {"file", "line", "column", "severity", "code", "message"} <= set(items[0])
    assert items[0]["code"] == "E205" and items[0]["severity"] == "error"


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """No file given is a usage error: exit 2."""
    with pytest.raises(SystemExit) as exc:
        main(["check"])
    assert exc.value.code == 2


@pytest.mark.parametrize(
    "content,code",
    [
        (b"", "E004"),
        (b"   \n\n", "E004"),
        (b"\x00\x01\x02binary", "E003"),
        (b"\xff\xfe\xfa not utf8", "E003"),
        (b"- just\n- a list\n", "E020"),
        (b"7", "E020"),
        (b"[" * 5000, "E013"),
        (b"a: " + b"[" * 100 + b"]" * 100, "E013"),
    ],
    ids=["empty", "blank", "binary", "not-utf8", "a-list", "a-number", "5000-deep", "100-deep"],
)
def test_bad_files(tmp_path: Path, content: bytes, code: str) -> None:
    """Malformed input: a clear located diagnostic, exit 1, no traceback."""
    path = tmp_path / "bad.yaml"
    path.write_bytes(content)
    assert code in [c for c, _, _ in codes(str(path))]
    assert main(["check", str(path)]) == 1


def test_ten_megabyte_file(tmp_path: Path) -> None:
    """A 10 MB file is refused by size before it is parsed."""
    path = tmp_path / "huge.yaml"
    path.write_bytes(b"# " + b"x" * 10_000_000 + b"\n")
    assert [c for c, _, _ in codes(str(path))] == ["E002"]


def test_alias_bomb(tmp_path: Path) -> None:
    """A YAML 'billion laughs' is refused at the first alias, without expanding it."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    path = write(tmp_path, "\n".join(lines) + "\n")
    assert "E014" in [c for c, _, _ in codes(path)]


def test_missing_file() -> None:
    """A path that does not exist is a diagnostic, not a traceback."""
    assert "E001" in [c for c, _, _ in codes("/nonexistent/table.yaml")]


def test_inheritance_cycle(tmp_path: Path) -> None:
    """Rulebooks that extend each other in a cycle are an error naming the cycle."""
    write(tmp_path, "rulebook: a\nextends: b.yaml\n", "a.yaml")
    write(tmp_path, "rulebook: b\nextends: a.yaml\n", "b.yaml")
    found = codes(str(tmp_path / "a.yaml"))
    assert [c for c, _, _ in found] == ["E301"]
    assert "cycle" in found[0][1]


def test_python_tags_are_not_executed(tmp_path: Path) -> None:
    """A rulebook is untrusted: YAML tags that would run Python are plain text, never run."""
    marker = tmp_path / "ran"
    text = VALID.replace("title: English", f"title: !!python/object/apply:os.system ['touch {marker}']\nx: English")
    found = codes(write(tmp_path, text))
    assert not marker.exists()
    assert found, "the file must not check clean"


def test_no_traceback_from_the_command_line(tmp_path: Path) -> None:
    """The installed command prints diagnostics, never a Python traceback, on garbage input."""
    path = tmp_path / "garbage.cheat"
    path.write_bytes(b"{{{{ ]]]] \x7f\n" * 3)
    proc = subprocess.run([sys.executable, "-m", "cheatdsl", "check", str(path)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr


def test_check_does_not_import_the_solver() -> None:
    """`check` stays fast: it never imports z3."""
    code = ("import sys; from cheatdsl.cli import main; main(['check', 'rulebooks/english-ascending.yaml']); "
            "print('z3' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.stdout.strip().endswith("False"), proc.stdout + proc.stderr


MISSPELT_CHOICES = [
    # `ending.emptied_by_sets`: a decision the sources leave open for 004's Canadian bluff and Verish' Ne Verish'
    ("canadian-bluff.yaml", "emptied_by_sets", "out", "stay-in", "out, stays_in", "stays_in"),
    # `challenge.penalty.short_stock`: 004 Sweden, "the player draws three cards from the pile", silent on a
    # pile run short
    ("bluffstopp.yaml", "short_stock", "take_pile", "takepile", "nothing, take_pile", "take_pile"),
]


@pytest.mark.parametrize(("rulebook", "rule", "written", "misspelt", "choices", "meant"), MISSPELT_CHOICES,
                         ids=[row[1] for row in MISSPELT_CHOICES])
def test_a_misspelt_choice_is_located_with_a_hint(tmp_path: Path, rulebook: str, rule: str, written: str,
                                                  misspelt: str, choices: str, meant: str) -> None:
    """A rule the shipped rulebooks decide out loud, misspelt: reported on its line and column, with the
    choices and a did-you-mean."""
    text = (ROOT / "rulebooks" / rulebook).read_text(encoding="utf-8")
    assert f"{rule}: {written}" in text
    (tmp_path / rulebook).write_text(text.replace(f"{rule}: {written}", f"{rule}: {misspelt}"))
    _, d = compile_rulebook(str(tmp_path / rulebook))
    (problem,) = d.errors
    line, row = next((i, row) for i, row in enumerate(text.splitlines(), 1) if f"{rule}:" in row)
    assert (problem.code, problem.span.line, problem.span.column) == ("E205", line, row.index(written) + 1)
    assert f"must be one of {choices}, found '{misspelt}'" in problem.message
    assert problem.hint == f"did you mean `{meant}`?"


def test_a_short_stock_rule_without_a_draw_is_a_warning(tmp_path: Path) -> None:
    """`challenge.penalty.short_stock` written where the loser takes the pile anyway: a warning on its own line."""
    path = write(tmp_path, VALID.replace("    pile_after: stays\n", "    pile_after: stays\n    short_stock: nothing\n"))
    ((code, message, at),) = codes(path)
    assert code == "W403" and "`challenge.penalty.short_stock`" in message
    assert VALID.splitlines()[at - 2].strip() == "pile_after: stays"


@pytest.mark.parametrize(("text", "words"), [
    ("claim:\n  cards: [1\n  count: exact\n", "not closed on its line"),
    ("claim:\n cards: 1\n  count: exact\n", "line up the rules of one section"),
    ("title: Cheat: our table\n", "put a value with a colon in quotes"),
    ("claim:\n\tcards: 1\n", "spaces only"),
])
def test_a_yaml_slip_gets_a_hint_in_an_authors_words(tmp_path: Path, text: str, words: str) -> None:
    """Issue 41, point 9: a YAML syntax error showed the YAML reader's wording and no hint."""
    path = tmp_path / "slip.yaml"
    path.write_text("rulebook: slip\nsource: a table\nextends: standard\n" + text, encoding="utf-8")
    _, d = compile_rulebook(str(path))
    (e,) = d.errors
    assert e.code == "E010" and words in e.hint, (e.message, e.hint)
