"""Issue 40, point 1: which back ends play each rule, declared once (`cheatdsl.played_by`).

Every leaf field of the JSON Schema, every enum word and true/false of it, and every built-in function of every
place a formula may stand has a declaration; the kernel refuses, naming the field, every table a declaration
says it does not play, and plays (and replays) the rest.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from cheatdsl import played_by
from cheatdsl.compiler.scopes import PLACE_FACTS
from cheatdsl.derived import DealError, TableRules
from cheatdsl.expr.types import builtins_answered
from cheatdsl.load import load_rulebook
from cheatdsl.played_by import FIELDS, FUNCTIONS_AT, Engine, unplayed
from cheatdsl.schema import rulebook_schema

sys.path.insert(0, str(Path(__file__).resolve().parent))
import small_rulebooks  # noqa: E402

from cheatdsl.compiled.cache import sources_key


def _leaf(path: str) -> dict[str, Any]:
    schema = rulebook_schema()
    defs = schema.get("$defs", schema.get("definitions", {}))

    def deref(node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            node = defs[node["$ref"].split("/")[-1]]
        return node

    node = deref(schema)
    for part in path.split("."):
        node = deref(node["properties"][part[:-2]]["items"] if part.endswith("[]") else node["properties"][part])
    return node


def _words(node: dict[str, Any]) -> set[object]:
    """The schema's enum words (of an array's items too) and true/false of a boolean; empty for the rest."""
    if node.get("type") == "boolean":
        return {True, False}
    if "enum" in node:
        return set(node["enum"])
    items = node.get("items")
    if isinstance(items, dict) and "enum" in items and not node.get("anyOf"):
        return set(items["enum"])
    return set()


def test_every_schema_field_is_declared_once() -> None:
    assert sorted(FIELDS) == sorted(small_rulebooks.fields())


@pytest.mark.parametrize("field", sorted(FIELDS))
def test_every_value_kind_of_a_field_is_declared_for_every_back_end(field: str) -> None:
    """Each enum word (and true/false) of the field is named by a case; the last case applies to every table, so
    no value is without a declaration; the interpreter, the reference, plays every case."""
    cases = FIELDS[field]
    named = {w for case in cases for w in case.words}
    words = _words(_leaf(field))
    if words and field != "deck.ranks" and field != "deck.suits":
        assert named == words, (field, named, words)
    assert cases[-1].applies is played_by._always, field
    for case in cases:
        assert case.engines and Engine.INTERPRETER in case.engines, (field, case.what)


def test_every_function_of_every_formula_place_is_declared() -> None:
    assert sorted(FUNCTIONS_AT) == sorted(PLACE_FACTS)
    for place, facts in PLACE_FACTS.items():
        assert sorted(FUNCTIONS_AT[place]) == sorted(builtins_answered(facts)), place


def test_the_verifier_models_every_declared_rule() -> None:
    """Today the symbolic encoding is declared to model every rule (the differential campaign holds it against
    the judge over every field): no generated table is refused by it."""
    for field, cases in FIELDS.items():
        for case in cases:
            assert Engine.VERIFIER in case.engines, (field, case.what)


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba is not installed")
def test_the_kernel_refuses_by_the_fields_name_exactly_what_it_is_not_declared_to_play(tmp_path: Path) -> None:
    """On generated rulebooks: where a declaration says the kernel does not play a table, the refusal names that
    field; elsewhere the kernel builds its tables (or refuses a formula its tables cannot hold, naming its
    field too)."""
    os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(tempfile.gettempdir()) / "cheatdsl-test-numba" / sources_key()))
    from cheatdsl.compiled.run import CompiledTable, Refused, RefusedForMemory
    from cheatdsl.engine import Game

    refused = played = 0
    for i in range(0, 300, 3):
        path = tmp_path / f"small-{i}.yaml"
        path.write_text(small_rulebooks.text_of(small_rulebooks.generate(i)))
        rb = load_rulebook(str(path))
        n = rb.players.min
        try:
            rules = TableRules(rb, n)
        except DealError:
            continue
        why = unplayed(rules, Engine.KERNEL)
        try:
            CompiledTable(Game(rb, n), ["honest"] * n, 0, 0.15)
        except (Refused, RefusedForMemory) as exc:
            refused += 1
            if why is not None:
                assert f"does not play {why}:" in str(exc), (i, why, str(exc))
            assert "`" in str(exc).split(":")[0], str(exc)  # the field is named
            continue
        played += 1
        assert why is None, (i, why)
    assert refused > 10 and played > 40, (refused, played)
