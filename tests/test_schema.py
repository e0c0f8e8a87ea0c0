"""The JSON Schema of the YAML form: generated from the compiler's field table, shipped current, and
accepting every shipped rulebook while rejecting the usual mistakes."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from cheatdsl.cli import main
from cheatdsl.compiler import fields as compiler_fields
from cheatdsl.load import compile_rulebook
from cheatdsl.schema import schema_text, shipped_schema_text
from cheatdsl.schema.__main__ import main as regenerate
from cheatdsl.syntax.emit import FORMULA_FIELDS
from cheatdsl.syntax.loader import META_KEYS
from cheatdsl.syntax.table import META, SECTIONS, Kind, table_path

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "rulebooks").glob("*.yaml"))
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yaml"))
FIXTURES = sorted((ROOT / "tests" / "fixtures").glob("*.yaml"))


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(schema_text()))


def errors(validator: jsonschema.Draft202012Validator, document: object) -> list[str]:
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    schema = json.loads(schema_text())
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_shipped_schema_copies_are_current() -> None:
    """The package's and docs/schema/'s copies are what the field table generates (python -m cheatdsl.schema)."""
    assert shipped_schema_text() == schema_text()
    assert (ROOT / "docs" / "schema" / "rulebook.schema.json").read_text(encoding="utf-8") == schema_text()
    assert regenerate(["--check"]) == 0


def test_schema_command_prints_the_schema(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["schema"]) == 0
    assert capsys.readouterr().out == schema_text()
    out = tmp_path / "rulebook.schema.json"
    assert main(["schema", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == schema_text()


def test_schema_command_reports_an_unwritable_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["schema", "-o", str(tmp_path / "missing" / "x.json")]) == 1
    err = capsys.readouterr().err
    assert "cannot write" in err and "Traceback" not in err


@pytest.mark.parametrize("path", SHIPPED + EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_rulebook_and_example_validates(validator: jsonschema.Draft202012Validator, path: Path) -> None:
    assert errors(validator, yaml.safe_load(path.read_text(encoding="utf-8"))) == []


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_every_fixture_that_checks_clean_validates(validator: jsonschema.Draft202012Validator, path: Path) -> None:
    rulebook, d = compile_rulebook(str(path))
    if rulebook is None:
        pytest.skip("the fixture is meant to fail `check`")
    assert errors(validator, yaml.safe_load(path.read_text(encoding="utf-8"))) == []


def _standard() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "rulebooks" / "standard.yaml").read_text(encoding="utf-8"))


def _set(doc: dict[str, Any], dotted: str, value: object) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    *parents, last = dotted.split(".")
    place = doc
    for part in parents:
        place = place[part]
    place[last] = value
    return doc


def _drop(doc: dict[str, Any], dotted: str) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    *parents, last = dotted.split(".")
    place = doc
    for part in parents:
        place = place[part]
    del place[last]
    return doc


MISTAKES = [
    ("unknown top-level key", lambda d: _set(d, "player", "3..6"), "Additional properties"),
    ("unknown key in a section", lambda d: _set(d, "deal.hand", 7), "Additional properties"),
    ("misspelt variation field", lambda d: _set(d, "variations.big-table.summry", "x"), "Additional properties"),
    ("text where a truth value goes", lambda d: _set(d, "passing.allowed", "sometimes"), "is not of type 'boolean'"),
    ("a list where a number goes", lambda d: _set(d, "deck.jokers", [2]), "is not of type 'integer'"),
    ("a number out of bounds", lambda d: _set(d, "deck.jokers", 99), "is greater than the maximum"),
    ("a section given as a word", lambda d: _set(d, "setup", "left"), "is not of type 'object'"),
    ("a range that is not one", lambda d: _set(d, "players", "three to six"), "players"),
    ("a choice out of the allowed set", lambda d: _set(d, "deal.style", "everyone"), "is not one of"),
    ("a penalty out of the allowed set", lambda d: _set(d, "challenge.penalty.kind", "drink"), "is not one of"),
    ("an unknown rank", lambda d: _set(d, "deck.ranks", ["A", "2", "Z"]), "is not valid"),
    ("an unknown property expected", lambda d: _set(d, "expect", {"fairness": "proved"}), "Additional properties"),
    ("an unknown verdict", lambda d: _set(d, "expect", {"termination": "maybe"}), "is not one of"),
    ("a word other than inherit for expect", lambda d: _set(d, "expect", "inherits"), "does not match"),
    ("a number for expect", lambda d: _set(d, "expect", 3), "is not of type"),
    ("a required rule left out", lambda d: _drop(d, "challenge.reveal"), "'reveal' is a required property"),
    ("a required section left out", lambda d: _drop(d, "ending"), "'ending' is a required property"),
    ("drop without extends", lambda d: _set(d, "drop", ["sets"]), "'extends' is a dependency of 'drop'"),
]


@pytest.mark.parametrize("make, message", [m[1:] for m in MISTAKES], ids=[m[0] for m in MISTAKES])
def test_schema_rejects_the_usual_mistakes(validator: jsonschema.Draft202012Validator, make: Any,
                                           message: str) -> None:
    found = errors(validator, make(_standard()))
    assert found and any(message in e for e in found), found


def test_a_rulebook_that_extends_another_need_not_repeat_required_rules(
        validator: jsonschema.Draft202012Validator) -> None:
    assert errors(validator, {"extends": "standard", "drop": ["sets"], "deal": {"hand_size": 7}}) == []
    assert errors(validator, {"extends": "standard", "deal": {"style": "everyone"}})


def test_a_house_rule_may_say_expect_inherit(validator: jsonschema.Draft202012Validator) -> None:
    """docs/language.md, `expect`: "To keep the base's expectations, say so with `expect: inherit`"."""
    assert errors(validator, {"extends": "standard", "expect": "inherit"}) == []


def _described(node: object, where: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every schema object that carries a description, with where it is."""
    out = []
    if isinstance(node, dict):
        if "description" in node or "markdownDescription" in node:
            out.append((where, node))
        for key, value in node.items():
            out += _described(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _described(value, f"{where}/{i}")
    return out


def test_every_description_has_a_markdown_twin_and_reads_plainly() -> None:
    """Issue 25: "Hover from yaml-language-server shows escaped Markdown (the schema puts Markdown in
    `description`)": the Markdown goes in `markdownDescription`, and `description` has no Markdown marks."""
    described = _described(json.loads(schema_text()))
    assert len(described) > 80
    for where, node in described:
        assert node.get("markdownDescription") and node.get("description"), where
        assert "`" not in node["description"] and "**" not in node["description"], where
    source = next(node for where, node in described if where == "/properties/source")
    assert source["markdownDescription"] == "**required**: the rule sheet or table it follows"
    assert source["description"] == "required: the rule sheet or table it follows"


def test_every_row_of_the_language_reference_is_the_tables_text() -> None:
    """docs/language.md's field rows and the table's reference text are the same words."""
    rows: dict[tuple[str, str], str] = {}
    section = None
    for line in (ROOT / "docs" / "language.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            heading = re.match(r"## (?:`(\w+)`|(Top level))$", line)
            section = None if heading is None else (heading.group(1) or "")
        row = re.match(r"\| `(\w+)` \| (.*) \|$", line)
        if section is not None and row:
            rows[(section, row.group(1))] = row.group(2)
    tables = {(path, f.name): f.doc for path, fields in SECTIONS.items() for f in fields}
    tables.update({("", f.name): f.doc for f in META})
    for key, text in rows.items():
        assert key in tables, f"{key} is in docs/language.md but not in cheatdsl/syntax/table.py"
        assert tables[key].replace("|", "\\|") == text, key
    documented = {"deck", "deal", "setup", "claim", "passing", "challenge", "sets", "ending"}
    missing = [key for key in tables if key[0] in documented and key not in rows]
    assert missing == []


def test_the_compiler_reads_exactly_the_fields_the_table_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiling every shipped rulebook reads every field of every section the table lists, and no other."""
    read: dict[str, set[str]] = {}
    finish = compiler_fields.Section.finish

    def recording(self: compiler_fields.Section) -> None:
        read.setdefault(table_path(self.path), set()).update(self.used)
        finish(self)

    monkeypatch.setattr(compiler_fields.Section, "finish", recording)
    for path in SHIPPED:
        assert compile_rulebook(str(path))[0] is not None
    listed = {path: {f.name for f in fields} for path, fields in SECTIONS.items() if path != "variations.*"}
    assert read == listed


def test_formula_fields_agree_with_the_printer() -> None:
    """The DSL printer writes in backticks exactly the fields the table says are formulas."""
    formulas = set()
    for path, fields in SECTIONS.items():
        for f in fields:
            if f.kind is Kind.FORMULA:
                formulas.add((*table_path(path).replace("[]", "").split("."), f.name))
    assert formulas == set(FORMULA_FIELDS)


def test_meta_fields_are_the_loaders() -> None:
    assert {f.name for f in META} == set(META_KEYS)
