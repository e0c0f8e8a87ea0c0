"""Bounded reading: the readers refuse a file at the first value past a limit.

The limits are in cheatdsl/limits.py; what the hostile files cost in time and memory is measured
by benchmarks/input_cost.py, never here. These tests check what each file gets: the code, the place,
and that reading stopped at the limit rather than after reading the whole file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from cheatdsl.cli import main
from cheatdsl.diagnostics import Diagnostics
from cheatdsl.limits import MAX_DEPTH, MAX_NODES, MAX_SCALAR_CHARS, MAX_TEXT_CHARS
from cheatdsl.load import compile_rulebook
from cheatdsl.scenario.reader import ScenarioError, read_scenario
from cheatdsl.source import SourceFile
from cheatdsl.syntax import yaml_reader
from cheatdsl.syntax.dsl_reader import read_dsl
from cheatdsl.syntax.yaml_reader import read_yaml
from tests.hostile import CASES, ENGLISH, ENGLISH_DSL, SCENARIO_HEAD, Hostile

ROOT = Path(__file__).resolve().parent.parent


def yaml_codes(text: str) -> tuple[object, list[tuple[str, int, int]]]:
    d = Diagnostics()
    tree = read_yaml(SourceFile("t.yaml", text), d)
    return tree, [(x.code, x.span.line, x.span.column) for x in d.items]


def dsl_codes(text: str) -> tuple[object, list[tuple[str, int, int]]]:
    d = Diagnostics()
    tree = read_dsl(SourceFile("t.cheat", text), d)
    return tree, [(x.code, x.span.line, x.span.column) for x in d.items]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_file_gets_its_code(tmp_path: Path, case: Hostile, capsys: pytest.CaptureFixture[str]) -> None:
    """Each hostile file under the size limit is refused with its code (or read, when within limits)."""
    path = tmp_path / case.filename
    path.write_bytes(case.make())
    status = main(case.argv(str(path)))
    output = "".join(capsys.readouterr())
    codes = set(re.findall(r"error\[(\w+)\]", output))
    assert "Traceback" not in output and "internal error" not in output
    if case.code:
        assert status == 1 and case.code in codes, output[-1000:]
    else:
        assert status in (0, 1) and not codes, output[-1000:]


def test_yaml_reading_stops_at_the_value_limit() -> None:
    """limits.MAX_NODES: the value past the limit is refused there; a syntax error after it is never reached."""
    text = "ranks: [" + "x, " * MAX_NODES + "x\n  ]] broken: [\n"
    tree, found = yaml_codes(text)
    first_refused = MAX_NODES - 2  # the mapping and the list are values too
    assert tree is None and found == [("E012", 1, 9 + 3 * first_refused)]


def test_yaml_reading_stops_at_the_depth_limit() -> None:
    """limits.MAX_DEPTH: the first value too deep is refused at its place, before the malformed rest."""
    text = "a: " + "[" * (MAX_DEPTH + 1) + "1" + "]" * (MAX_DEPTH + 1) + "\n: : broken\n"
    tree, found = yaml_codes(text)
    assert tree is None and found == [("E013", 1, 4 + MAX_DEPTH)]


def test_yaml_nesting_past_libyamls_own_limit_is_e013() -> None:
    """libyaml stops at 1,000 levels with its own message; the reader reports it as E013 like any other nesting."""
    tree, found = yaml_codes("[" * 5_000)
    assert tree is None and [code for code, _, _ in found] == ["E013"]


@pytest.mark.parametrize("value,where", [
    ("!!python/object/apply:os.system ['true']", (2, 8)),
    ("!!python/name:os.system", (2, 8)),
    ("!local 1", (2, 8)),
    ("!<tag:example.com,2000:x> 1", (2, 8)),
    ("! 1", (2, 8)),
    ("!!set {a, b}", (2, 8)),
    ("!!binary aGk=", (2, 8)),
    ("!!timestamp 2001-12-14", (2, 8)),
    ("[!!python/tuple [1, 2]]", (2, 9)),
    ("{!!python/str k: 1}", (2, 9)),
], ids=["python object", "python name", "local tag", "verbatim tag", "non-specific tag", "set", "binary",
        "timestamp", "tag inside a list", "tag on a key"])
def test_unknown_yaml_tags_are_refused_where_they_stand(value: str, where: tuple[int, int]) -> None:
    """A tag other than YAML's own for the value's kind is refused (E017) at the tagged value."""
    tree, found = yaml_codes(f"players: 3..6\ntitle: {value}\n")
    assert ("E017", *where) in found


def test_yaml_core_tags_are_read_as_they_say() -> None:
    """YAML's own tags for a value's kind are allowed: `!!str 5` is the text 5, `!!int "5"` the number."""
    tree, found = yaml_codes('a: !!str 5\nb: !!int "5"\nc: !!seq [1]\nd: !!map {x: !!null ""}\n')
    assert found == []
    assert [(e.key, getattr(e.value, "value", None)) for e in tree.entries][:2] == [("a", "5"), ("b", 5)]


def test_a_python_tag_in_a_shipped_rulebook_is_refused(tmp_path: Path) -> None:
    """A rulebook is untrusted: the tag that would run Python is refused, at its line, and never run."""
    marker = tmp_path / "ran"
    text = ENGLISH.replace("title: English", f"title: !!python/object/apply:os.system ['touch {marker}']\nx: English")
    path = tmp_path / "table.yaml"
    path.write_text(text, encoding="utf-8")
    _, d = compile_rulebook(str(path))
    line = text.splitlines().index(next(x for x in text.splitlines() if "!!python" in x)) + 1
    assert ("E017", line) in [(x.code, x.span.line) for x in d.errors]
    assert not marker.exists()


def test_a_tag_in_a_scenario_is_refused(tmp_path: Path) -> None:
    """Scenario files are read by the same reader: a tag is E017 there too."""
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO_HEAD.replace("players: 3", "players: !!python/object/apply:os.system ['true']"),
                    encoding="utf-8")
    d = Diagnostics()
    with pytest.raises(ScenarioError):
        if read_scenario(str(path), d) is None:
            raise ScenarioError(d)
    assert ("E017", 3, 10) in [(x.code, x.span.line, x.span.column) for x in d.errors]


def test_a_second_document_is_refused_where_it_starts() -> None:
    """A rulebook is one YAML document: `---` starting a second one is E010 at its line, and nothing is read."""
    tree, found = yaml_codes("players: 3..6\n---\nplayers: 2..4\n")
    assert tree is None and found == [("E010", 2, 1)]


def test_a_file_of_only_comments_holds_no_rules() -> None:
    tree, found = yaml_codes("# nothing\n# here\n")
    assert tree is None and found == [("E004", 1, 1)]


@pytest.mark.parametrize("text,where", [
    ("title: " + "x" * (MAX_SCALAR_CHARS + 1) + "\n", (1, 8)),
    ("players: " + "9" * 5_000 + "\n", (1, 10)),
    ("deck:\n  " + "k" * (MAX_SCALAR_CHARS + 1) + ": 1\n", (2, 3)),
], ids=["long text", "5,000 digits", "long key"])
def test_a_value_past_the_length_limit_is_refused_in_yaml(text: str, where: tuple[int, int]) -> None:
    """limits.MAX_SCALAR_CHARS: E018 at the value; no number of more digits than Python reads gets further."""
    tree, found = yaml_codes(text)
    assert tree is None and found == [("E018", *where)]


@pytest.mark.parametrize("text,where", [
    ('title "' + "x" * MAX_SCALAR_CHARS + '"\n', (1, 7)),
    ("packs " + "9" * 5_000 + "\n", (1, 7)),
    ("players 3.." + "9" * 5_000 + "\n", (1, 9)),
    ("k" * (MAX_SCALAR_CHARS + 1) + " 1\n", (1, 1)),
], ids=["long text", "5,000 digits", "long range", "long name"])
def test_a_value_past_the_length_limit_is_refused_in_the_dsl(text: str, where: tuple[int, int]) -> None:
    """limits.MAX_SCALAR_CHARS in the text DSL: E018 at the token, read no further (5,000 digits was a traceback)."""
    tree, found = dsl_codes(text)
    assert tree is None and found == [("E018", *where)]


def test_too_much_text_in_all_is_refused_at_the_value_past_the_limit() -> None:
    """limits.MAX_TEXT_CHARS bounds what the formulas' parser is given: E019 at the value that passes it, both forms."""
    values = MAX_TEXT_CHARS // 1_000 + 1
    text = "".join(f"k{i:03}: {'x' * 995}\n" for i in range(values)) + "]broken[\n"
    tree, found = yaml_codes(text)
    assert tree is None and found == [("E019", values, 7)]
    dsl = "".join(f"k{i:03} {'x' * 995}\n" for i in range(values)) + "]broken[\n"
    tree, found = dsl_codes(dsl)
    assert tree is None and found == [("E019", values, 6)]


def test_a_scenario_seat_written_in_other_digits_is_a_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A key such as `²` is not read as a seat number (int() refused it with a traceback): it is a located error."""
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO_HEAD + "expect:\n  hand_sizes: {\u00b2: 7, 1: 7}\n", encoding="utf-8")
    assert main(["scenario", str(path)]) == 1
    output = "".join(capsys.readouterr())
    assert "internal error" not in output and "error[" in output


def test_the_reader_uses_libyaml_and_matches_the_python_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where libyaml is installed it reads; PyYAML's own parser, used elsewhere, gives the same trees and spans."""
    if yaml.__with_libyaml__:
        assert yaml_reader._Parser is yaml.cyaml.CParser
    files = [*sorted((ROOT / "rulebooks").glob("*.yaml")), *sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))]
    with_c = [read_yaml(SourceFile(str(p), p.read_text(encoding="utf-8")), Diagnostics()) for p in files]
    monkeypatch.setattr(yaml_reader, "_Parser", yaml.SafeLoader)
    with_python = [read_yaml(SourceFile(str(p), p.read_text(encoding="utf-8")), Diagnostics()) for p in files]
    assert with_c == with_python


def test_the_dsl_reads_the_shipped_rulebook_within_the_limits() -> None:
    """The limits leave room: the shipped DSL rulebook reads without a diagnostic."""
    tree, found = dsl_codes(ENGLISH_DSL)
    assert tree is not None and found == []
