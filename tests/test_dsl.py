"""The text DSL (cheatdsl/syntax/cheat.lark, dsl_reader.py): every construct reads into the same tree as
YAML, every known mistake gives a located diagnostic, and no input, however hostile, gives a traceback.

The rules checked come from docs/language.md ("both read into the same tree and compile to the same
model") and cheatdsl/limits.py.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from cheatdsl.diagnostics import Diagnostics
from cheatdsl.limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES
from cheatdsl.load import compile_rulebook
from cheatdsl.source import SourceFile
from cheatdsl.syntax.dsl_reader import KNOWN_BAD, BadInput, read_dsl
from cheatdsl.syntax.emit import same_tree
from cheatdsl.syntax.loader import read_tree
from cheatdsl.syntax.tree import ListNode, MapNode, Node, ScalarNode, to_plain
from cheatdsl.syntax.yaml_reader import read_yaml

ROOT = Path(__file__).resolve().parent.parent
ENGLISH_CHEAT = ROOT / "rulebooks" / "english-ascending.cheat"
ENGLISH_YAML = ROOT / "rulebooks" / "english-ascending.yaml"


def read(text: str, path: str = "t.cheat") -> tuple[Node | None, Diagnostics]:
    d = Diagnostics()
    source = SourceFile(path, text)
    d.sources[path] = source
    return read_dsl(source, d), d


def plain(text: str) -> object:
    tree, d = read(text)
    assert tree is not None and not d.items, d.render()
    return to_plain(tree)


def found(d: Diagnostics) -> list[tuple[str, int, int, str]]:
    return [(x.code, x.span.line, x.span.column, x.message) for x in d.sorted()]


# --- every construct ------------------------------------------------------------------------------

# (rule, DSL text, the plain tree it reads as)
CONSTRUCTS = [
    ("a rule is a name and a value", "players 3..6", {"players": "3..6"}),
    ("whole numbers are numbers", "packs 2\njokers -1", {"packs": 2, "jokers": -1}),
    ("decimals are numbers", "x 1.5", {"x": 1.5}),
    ("a range with no upper limit is text", "cards 1..", {"cards": "1.."}),
    ("true, false and null are values", "a true\nb false\nc null", {"a": True, "b": False, "c": None}),
    ("quoted keywords are words", 'a "true"\nb "2"', {"a": "true", "b": "2"}),
    ("words may hold hyphens, dots and underscores",
     "extends base.yaml\ndrop passing.all_pass_leader\nstyle first_out\nrank-cycle proved",
     {"extends": "base.yaml", "drop": "passing.all_pass_leader", "style": "first_out", "rank-cycle": "proved"}),
    ("a word may start with digits", "seat 2nd", {"seat": "2nd"}),
    ("words may be in any alphabet", "ranks Bube Dame König\nname 吹牛",
     {"ranks": ["Bube", "Dame", "König"], "name": "吹牛"}),
    ("quoted text keeps spaces and escapes", r'call "Cheat! \"I doubt it\"\t\\ \u00e9"',
     {"call": 'Cheat! "I doubt it"\t\\ é'}),
    ("a formula in backticks is its text", "follow `{prev(previous), next(previous)}`",
     {"follow": "{prev(previous), next(previous)}"}),
    ("two or more plain values after a name are a list", "ranks A 2 3 10 J\nsuits clubs hearts",
     {"ranks": ["A", 2, 3, 10, "J"], "suits": ["clubs", "hearts"]}),
    ("a bracketed list, commas optional", "a [x, y z]\nb [1]\nc []", {"a": ["x", "y", "z"], "b": [1], "c": []}),
    ("a list may run over lines, with a trailing comma", "a [\n  x,\n  y\n  z,\n]", {"a": ["x", "y", "z"]}),
    ("a section holds rules", "deck {\n  packs 1\n  jokers 0\n}", {"deck": {"packs": 1, "jokers": 0}}),
    ("rules may be separated by ;", "deck { packs 1; jokers 0 }", {"deck": {"packs": 1, "jokers": 0}}),
    ("an empty section", "passing {}", {"passing": {}}),
    ("nested sections", "variations { counting-down { changes { claim { follow `prev(previous)` } } } }",
     {"variations": {"counting-down": {"changes": {"claim": {"follow": "prev(previous)"}}}}}),
    ("a list of sections", 'kinds [\n  { name cheat; call "Cheat!" }\n  {\n    name force\n  }\n]',
     {"kinds": [{"name": "cheat", "call": "Cheat!"}, {"name": "force"}]}),
    ("lists inside lists", "a [[1 2] [] [x]]", {"a": [[1, 2], [], ["x"]]}),
    ("a quoted key", '"my table" { "odd key" 1 }', {"my table": {"odd key": 1}}),
    ("comments run to the end of a line, anywhere a line may end",
     "# head\nplayers 3..6 # note\ndeck { # open\n  # inside\n  packs 1\n}\na [ # x\n  1 # y\n] # end",
     {"players": "3..6", "deck": {"packs": 1}, "a": [1]}),
    ("CRLF line ends and tabs", "players 3..6\r\ndeck {\r\n\tpacks 1\r\n}\r\n",
     {"players": "3..6", "deck": {"packs": 1}}),
    ("keys keep their order", "b 1\na 2\nc 3", {"b": 1, "a": 2, "c": 3}),
    ("a # inside text or a formula is not a comment", 'a "#1"\nb `x # y`', {"a": "#1", "b": "x # y"}),
]


@pytest.mark.parametrize("rule,text,expected", CONSTRUCTS, ids=[c[0] for c in CONSTRUCTS])
def test_construct_reads_as(rule: str, text: str, expected: object) -> None:
    assert plain(text) == expected
    assert list(plain(text)) == list(expected)  # type: ignore[arg-type]


def test_scalar_types_are_the_yaml_types() -> None:
    """Same tree as YAML: int for numbers, bool for true/false, str for words, text, formulas, ranges."""
    dsl = ('rulebook x\nplayers 3..6\ncards 1..\npacks 1\nshow_pile false\ncall "Cheat!"\n'
           "first `aces`\nranks A 2 10\nround_ends []\nkinds [ { name cheat; test played } ]\n"
           "variations { up-or-down { conflicts [counting-down] } }\nturn_cap null\n")
    yaml = ('rulebook: x\nplayers: 3..6\ncards: 1..\npacks: 1\nshow_pile: false\ncall: "Cheat!"\n'
            "first: aces\nranks: [A, 2, 10]\nround_ends: []\nkinds:\n  - {name: cheat, test: played}\n"
            "variations:\n  up-or-down:\n    conflicts: [counting-down]\nturn_cap:\n")
    a, _ = read(dsl)
    b = read_yaml(SourceFile("t.yaml", yaml), Diagnostics())
    assert a is not None and b is not None
    assert same_tree(a, b)


def test_spans_point_at_keys_values_and_formula_text() -> None:
    tree, _ = read('deck {\n  packs 1\n}\nfirst `aces`\ntitle "I Doubt It"\nranks A 2\n')
    assert isinstance(tree, MapNode)
    deck = tree.entry("deck")
    assert deck is not None and (deck.key_span.line, deck.key_span.column) == (1, 1)
    assert isinstance(deck.value, MapNode) and (deck.value.span.line, deck.value.span.column) == (1, 6)
    packs = deck.value.entry("packs")
    assert packs is not None and (packs.value.span.line, packs.value.span.column) == (2, 9)
    first = tree.get("first")
    assert isinstance(first, ScalarNode) and (first.span.line, first.span.column) == (4, 8)  # the `a`
    title = tree.get("title")
    assert isinstance(title, ScalarNode) and (title.span.line, title.span.column) == (5, 8)
    ranks = tree.get("ranks")
    assert isinstance(ranks, ListNode) and (ranks.span.line, ranks.span.column) == (6, 7)


def test_formula_diagnostics_land_on_the_formula_column(tmp_path: Path) -> None:
    """A misspelt rank in `claim.first` is reported at its own column in the .cheat file."""
    text = ENGLISH_CHEAT.read_text(encoding="utf-8").replace("first `aces`", "first `acse`")
    path = tmp_path / "english-ascending.cheat"
    path.write_text(text, encoding="utf-8")
    _, d = compile_rulebook(str(path))
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "`acse`" in t)
    column = text.splitlines()[line - 1].index("acse") + 1
    assert [(x.code, x.span.line, x.span.column) for x in d.errors] == [("E110", line, column)]


def test_english_ascending_cheat_is_the_yaml_profile() -> None:
    """Seed 000: the .cheat profile reads to the YAML profile's tree and compiles to an equal Rulebook."""
    d = Diagnostics()
    a, b = read_tree(str(ENGLISH_CHEAT), d), read_tree(str(ENGLISH_YAML), d)
    assert a is not None and b is not None and not d.items
    assert same_tree(a, b)
    rb_cheat, dc = compile_rulebook(str(ENGLISH_CHEAT))
    rb_yaml, dy = compile_rulebook(str(ENGLISH_YAML))
    assert rb_cheat is not None and not dc.items, dc.render()
    assert rb_cheat == rb_yaml


def test_extends_drop_use_expect_and_variations_work_in_the_dsl(tmp_path: Path) -> None:
    """A house-rule .cheat extends a .cheat base, drops a rule, and switches a variation on."""
    base = ENGLISH_CHEAT.read_text(encoding="utf-8") + (
        "\nvariations {\n"
        '  counting-down {\n    summary "the ranks run ace, king, queen and on down"\n'
        "    conflicts [up-or-down]\n"
        "    changes { claim { follow `prev(previous)`; first `aces` } }\n  }\n"
        '  up-or-down {\n    summary "one up or one down"\n    conflicts [counting-down]\n'
        "    changes { claim { follow `{prev(previous), next(previous)}` } }\n  }\n}\n")
    (tmp_path / "base.cheat").write_text(base, encoding="utf-8")
    house = tmp_path / "house.cheat"
    house.write_text('rulebook house\nsource "our table"\nextends base.cheat\ndrop [expect.rank-cycle]\n'
                     "use [counting-down]\npassing { allowed true; all_pass_leader `last_player` }\n"
                     "expect { termination refuted }\n", encoding="utf-8")
    rb, d = compile_rulebook(str(house))
    assert rb is not None, d.render()
    assert rb.name == "house" and rb.claim.follow.canonical == "prev(previous)"
    assert rb.passing.allowed is True
    verdicts = {e.property: e.verdict for e in rb.expectations}
    assert verdicts["termination"] == "refuted" and "rank-cycle" not in verdicts
    both, d = compile_rulebook(str(house), ["up-or-down"])
    assert both is None and "E305" in {x.code for x in d.errors}


def test_duplicate_keys_are_reported_like_yaml() -> None:
    """E016, as the YAML reader reports it, at the second key; nested sections too."""
    tree, d = read("players 3\nplayers 4\ndeck {\n  packs 1\n  packs 2\n}\n")
    assert [(c, line, col) for c, line, col, _ in found(d)] == [("E016", 2, 1), ("E016", 5, 3)]
    assert "key 'players' is given twice" in d.sorted()[0].message
    assert tree is not None and to_plain(tree) == {"players": 3, "deck": {"packs": 1}}


def test_unknown_escape_in_text_is_located() -> None:
    _, d = read('title "a\\qb"')
    assert [(c, line, col) for c, line, col, _ in found(d)] == [("E041", 1, 9)]


# --- the known-bad table ---------------------------------------------------------------------------

BAD_EXAMPLES = [(row, example) for row in KNOWN_BAD for example in row.examples]


@pytest.mark.parametrize("row,example", BAD_EXAMPLES,
                         ids=[f"{r.name}-{i}" for i, (r, _) in enumerate(BAD_EXAMPLES)])
def test_known_bad_snippet_gives_its_code_and_message(row: BadInput, example: str) -> None:
    """Each KNOWN_BAD snippet gives exactly one diagnostic, with its row's code and wording."""
    tree, d = read(example)
    assert tree is None
    assert len(d.items) == 1, d.render()
    diagnostic = d.items[0]
    assert diagnostic.code == row.code
    for fragment in re.split(r"\{(?:found|what|key|open)\}", row.message):
        assert fragment in diagnostic.message
    assert diagnostic.span.line >= 1 and diagnostic.span.column >= 1
    assert "{" + "found}" not in diagnostic.hint and "{" + "key}" not in diagnostic.hint


# (rule, text, code, message fragment, line, column)
LOCATED = [
    ("text left open", 'title "English\nplayers 3..6\n', "E032", "not closed on this line", 1, 7),
    ("formula left open", "claim {\n  first `aces\n}\n", "E033", "formula is not closed", 2, 9),
    ("colon after a name", "players 3..6\ndeck {\n  packs: 1\n}\n", "E037", "`:` after `packs`", 3, 8),
    ("name without a value", "deck {\n  packs\n}\n", "E036", "`packs` has no value", 2, 8),
    ("bracket never closed", "deck {\n  packs 1\n", "E034", "the `{` opened at 1:6 is never closed", 2, 10),
    ("wrong closing bracket", "suits [clubs\n}\n", "E035", "`}` does not close the `[` opened at 1:7", 2, 1),
    ("closing bracket with none open", "players 3\n}\n", "E035", "`}` closes nothing", 2, 1),
    ("comma between rules", "deck { packs 1, jokers 0 }", "E038", "not `,`", 1, 15),
    ("section without a name", "{ packs 1 }", "E039", "needs a name", 1, 1),
    ("second section after a name", "kinds { a 1 } { b 2 }", "E040", "`kinds` already has its value", 1, 15),
    ("value where a name belongs", "deck {\n  3..6 players\n}", "E030", "found the range `3..6`", 2, 3),
    ("unexpected character", "title English (I Doubt It)", "E031", "unexpected character `(`", 1, 15),
    ("formula without backticks", "claim { follow next(previous) }", "E031", "unexpected character `(`", 1, 20),
    ("single quotes", "title 'x'", "E031", "double quotes", 1, 7),
    ("a semicolon where a value belongs", "players ;", "E036", "`players` has no value", 1, 9),
]


@pytest.mark.parametrize("rule,text,code,fragment,line,column", LOCATED, ids=[x[0] for x in LOCATED])
def test_syntax_error_is_located(rule: str, text: str, code: str, fragment: str, line: int, column: int) -> None:
    _, d = read(text)
    assert found(d)[0][:3] == (code, line, column), d.render()
    assert fragment in found(d)[0][3]


def test_every_syntax_error_in_a_file_is_reported_at_once() -> None:
    """Collect, don't stop at the first: three mistakes on three lines give three diagnostics."""
    text = "players: 3..6\ndeck {\n  packs\n  jokers 0\n}\ntitle 'x'\n"
    _, d = read(text)
    assert [(c, line) for c, line, _, _ in found(d)] == [("E037", 1), ("E036", 3), ("E031", 6)]


def test_diagnostic_renders_with_file_line_column_and_caret() -> None:
    _, d = read("deck {\n  packs: 1\n}\n", "house.cheat")
    rendered = d.render().splitlines()
    assert rendered[0].startswith("house.cheat:2:8: error[E037]: ")
    assert rendered[1:3] == ["    packs: 1", "         ^"]


# --- limits and hostile input ----------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "a " + "{ a " * 5000 + "1" + " }" * 5000,
    "a " + "[" * 5000 + "]" * 5000,
    "{" * 5000,
    "a " + "[" * 5000,
], ids=["sections 5,000 deep", "lists 5,000 deep", "5,000 bare braces", "5,000 unclosed lists"])
def test_deep_nesting_is_a_diagnostic_not_a_recursion_error(text: str) -> None:
    """limits.MAX_DEPTH: nesting thousands deep stops with E013 (or a syntax error), quickly."""
    start = time.perf_counter()
    tree, d = read(text)
    assert tree is None and d.errors
    assert "E013" in {x.code for x in d.errors}
    assert time.perf_counter() - start < 2


def test_nesting_to_the_limit_reads_and_one_more_level_does_not() -> None:
    """The YAML reader's limit: no value deeper than MAX_DEPTH below the top."""
    depth_ok = "a " + "{ a " * (MAX_DEPTH - 1) + "1" + " }" * (MAX_DEPTH - 1)
    tree, d = read(depth_ok)
    assert tree is not None and not d.items
    too_deep = "a " + "{ a " * MAX_DEPTH + "1" + " }" * MAX_DEPTH
    _, d = read(too_deep)
    assert [x.code for x in d.errors] == ["E013"]
    yaml_d = Diagnostics()
    yaml_text = "a: " + "{a: " * MAX_DEPTH + "1" + "}" * MAX_DEPTH
    read_yaml(SourceFile("t.yaml", yaml_text), yaml_d)
    assert [x.code for x in yaml_d.errors] == ["E013"]


def test_too_many_values_is_a_diagnostic() -> None:
    """limits.MAX_NODES: E012, as the YAML reader gives."""
    tree, d = read("a " + "x " * (MAX_NODES + 10))
    assert tree is None and [x.code for x in d.errors] == ["E012"]


def test_a_file_just_under_one_megabyte_is_read_quickly(tmp_path: Path) -> None:
    path = tmp_path / "big.cheat"
    path.write_text("ranks " + "x " * ((MAX_FILE_BYTES - 10) // 2), encoding="utf-8")
    start = time.perf_counter()
    d = Diagnostics()
    assert read_tree(str(path), d) is None
    assert [x.code for x in d.errors] == ["E012"]
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize("content,code", [
    (b"players 3..6\n" + b"# padding\n" * (MAX_FILE_BYTES // 10 + 1), "E002"),
    (b"players \x00\x01\x02", "E003"),
    (b"title \xff\xfe", "E003"),
    (b"", "E004"),
    (b"  \n\t\n", "E004"),
    (b"# only a comment\n# and another", "E004"),
], ids=["over one megabyte", "binary", "not UTF-8", "empty", "blank", "only comments"])
def test_unreadable_files_are_diagnostics(tmp_path: Path, content: bytes, code: str) -> None:
    path = tmp_path / "table.cheat"
    path.write_bytes(content)
    rb, d = compile_rulebook(str(path))
    assert rb is None and [x.code for x in d.errors] == [code]


def test_random_junk_never_gives_a_traceback() -> None:
    """Any text at all gives a tree or diagnostics, never an exception."""
    rng = random.Random(2024)
    alphabet = 'ab-_.{}[];,\n\t "`#:=1\\\'é\x00'
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 80)))
        tree, d = read(text)
        assert tree is not None or d.errors, repr(text)
        if tree is not None:
            assert isinstance(tree, MapNode)


def test_the_first_twenty_errors_are_reported_and_reading_stops() -> None:
    _, d = read("\n".join(f"k{i}: 1" for i in range(500)))
    assert 1 < len(d.errors) <= 20
