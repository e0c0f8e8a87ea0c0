"""`cheatdsl fmt` and the emitters (cheatdsl/syntax/emit.py): YAML and the text DSL say the same rules.

For every shipped YAML rulebook (those present when the tests run): YAML -> DSL -> YAML keeps the tree,
and the written .cheat file compiles to a Rulebook equal to the YAML one, with each of its variations
too (docs/language.md: "both read into the same tree and compile to the same model").
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from cheatdsl.cli import main
from cheatdsl.diagnostics import Diagnostics
from cheatdsl.load import compile_rulebook
from cheatdsl.source import SourceFile, Span
from cheatdsl.syntax.dsl_reader import read_dsl
from cheatdsl.syntax.emit import EmitError, same_tree, to_dsl, to_yaml
from cheatdsl.syntax.loader import read_tree
from cheatdsl.syntax.tree import Entry, ListNode, MapNode, Node, ScalarNode, to_plain
from cheatdsl.syntax.yaml_reader import read_yaml

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = ROOT / "rulebooks"
SHIPPED_YAML = sorted(RULEBOOKS.glob("*.yaml"))
AT = Span("t", 1, 1)


def dsl_tree(text: str) -> Node:
    d = Diagnostics()
    tree = read_dsl(SourceFile("t.cheat", text), d)
    assert tree is not None and not d.items, d.render() + "\n" + text
    return tree


def yaml_tree(text: str) -> Node:
    d = Diagnostics()
    tree = read_yaml(SourceFile("t.yaml", text), d)
    assert tree is not None and not d.items, d.render() + "\n" + text
    return tree


@pytest.fixture(scope="module")
def rulebooks_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of rulebooks/, so a written .cheat file finds the base its `extends` names beside it."""
    target = tmp_path_factory.mktemp("rulebooks")
    for path in RULEBOOKS.glob("*.yaml"):
        shutil.copy(path, target / path.name)
    return target


def outcome(path: Path, variations: tuple[str, ...] = ()) -> object:
    """The compiled Rulebook, or the codes of the errors that stopped it."""
    rb, d = compile_rulebook(str(path), variations)
    return rb if rb is not None else sorted(x.code for x in d.errors)


@pytest.mark.parametrize("path", SHIPPED_YAML, ids=[p.stem for p in SHIPPED_YAML])
def test_shipped_rulebook_round_trips_and_compiles_the_same_as_dsl(path: Path, rulebooks_copy: Path) -> None:
    d = Diagnostics()
    tree = read_tree(str(path), d)
    assert isinstance(tree, MapNode), d.render()
    cheat_text = to_dsl(tree)
    from_dsl = dsl_tree(cheat_text)
    assert same_tree(tree, from_dsl)
    assert same_tree(tree, yaml_tree(to_yaml(from_dsl)))

    written = rulebooks_copy / f"{path.stem}.cheat"
    written.write_text(cheat_text, encoding="utf-8")
    from_yaml_file = rulebooks_copy / path.name
    assert outcome(written) == outcome(from_yaml_file)
    variations = tree.get("variations")
    for name in variations.keys() if isinstance(variations, MapNode) else []:
        assert outcome(written, (name,)) == outcome(from_yaml_file, (name,)), name


@pytest.mark.parametrize("path", sorted(RULEBOOKS.glob("*.cheat")), ids=lambda p: p.stem)
def test_shipped_cheat_rulebook_equals_its_yaml_twin(path: Path) -> None:
    """A profile shipped in both forms compiles to one Rulebook."""
    twin = path.with_suffix(".yaml")
    if not twin.is_file():
        pytest.skip("no YAML twin")
    rb, d = compile_rulebook(str(path))
    assert rb is not None, d.render()
    assert rb == compile_rulebook(str(twin))[0]


# --- the emitters on their own ---------------------------------------------------------------------


@pytest.mark.parametrize("value", [
    "true", "false", "null", "2", "-3", "1.5", "3..6", "1..", "", " padded ", "two words", 'say "hi"',
    "back\\slash", "tab\there", "line\nbreak", "bell\x07", "émoji 🂡", "`tick`", "#hash", "a:b", "- dash",
    "yes", "no", "~", "0x1F", "1e5", "2nd", "counting-down", "passing.all_pass_leader", "{a, b}", "König",
    "\u0663x", "x\u0663",
], ids=repr)
def test_a_text_value_is_written_so_it_reads_back_as_the_same_text(value: str) -> None:
    tree = MapNode((Entry("k", AT, ScalarNode(value, AT)), Entry(value or "empty", AT, ScalarNode(1, AT))), AT)
    assert to_plain(dsl_tree(to_dsl(tree))) == {"k": value, value or "empty": 1}
    assert to_plain(yaml_tree(to_yaml(tree))) == {"k": value, value or "empty": 1}


def test_formula_places_are_written_in_backticks() -> None:
    tree = dsl_tree('claim { first aces; follow "next(previous)" }\n'
                    "variations { down { changes { claim { follow `prev(previous)` } } } }\n"
                    "expect { termination refuted }\n")
    text = to_dsl(tree)
    assert "first `aces`" in text and "follow `next(previous)`" in text and "follow `prev(previous)`" in text
    assert "termination refuted" in text


def test_dsl_output_is_stable_and_pretty() -> None:
    """fmt twice gives the same text; short sections in a list sit on one line."""
    tree = read_tree(str(RULEBOOKS / "english-ascending.yaml"), Diagnostics())
    assert isinstance(tree, MapNode)
    text = to_dsl(tree)
    again = dsl_tree(text)
    assert isinstance(again, MapNode) and to_dsl(again) == text
    assert '    { name cheat; call "Cheat!"; test played }' in text.splitlines()
    assert "  ranks A 2 3 4 5 6 7 8 9 10 J Q K" in text.splitlines()


def test_yaml_output_keeps_key_order_and_flow_lists() -> None:
    tree = dsl_tree("b { z 1; a 2 }\nranks A 2 3\nkinds [ { name cheat } ]\n")
    text = to_yaml(tree)
    assert text.index("z:") < text.index("a:")
    assert "ranks: [A, 2, 3]" in text
    assert same_tree(tree, yaml_tree(text))


def test_a_float_the_dsl_cannot_write_is_an_error() -> None:
    tree = MapNode((Entry("x", AT, ScalarNode(float("inf"), AT)),), AT)
    with pytest.raises(EmitError):
        to_dsl(tree)


def _random_value(rng: random.Random, depth: int) -> object:
    choice = rng.randrange(10 if depth < 4 else 6)
    if choice == 0:
        return rng.choice([True, False, None])
    if choice == 1:
        return rng.randrange(-1000, 1000)
    if choice == 2:
        return rng.choice([0.5, -2.25, 1e-7, 3.0, 1e20, -1.5e-10])
    if choice in (3, 4, 5):
        return "".join(rng.choice("aZ_-.0 9\"\\`#:{}\n\té") for _ in range(rng.randrange(0, 8)))
    if choice in (6, 7):
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    keys = {"".join(rng.choice("ab-_ 1.") for _ in range(rng.randrange(0, 5))) for _ in range(rng.randrange(0, 4))}
    return {k: _random_value(rng, depth + 1) for k in keys}


def _node(value: object) -> Node:
    if isinstance(value, dict):
        return MapNode(tuple(Entry(k, AT, _node(v)) for k, v in value.items()), AT)
    if isinstance(value, list):
        return ListNode(tuple(_node(v) for v in value), AT)
    return ScalarNode(value, AT)  # type: ignore[arg-type]


def test_random_trees_round_trip_through_both_forms() -> None:
    rng = random.Random(7)
    for _ in range(300):
        plain = {f"k{i}": _random_value(rng, 0) for i in range(rng.randrange(1, 5))}
        tree = _node(plain)
        assert same_tree(tree, dsl_tree(to_dsl(tree))), plain  # type: ignore[arg-type]
        assert same_tree(tree, yaml_tree(to_yaml(tree))), plain


# --- the command -----------------------------------------------------------------------------------


def test_fmt_prints_a_yaml_rulebook_as_dsl(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fmt", str(RULEBOOKS / "english-ascending.yaml"), "--to", "cheat"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("rulebook english-ascending\n")
    original = read_tree(str(RULEBOOKS / "english-ascending.yaml"), Diagnostics())
    assert original is not None and same_tree(dsl_tree(out), original)


def test_fmt_writes_out_and_back_and_keeps_extends_as_written(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Only the file's own tree is converted: `extends` and `use` stay as written, not merged."""
    source = tmp_path / "house.yaml"
    source.write_text("rulebook: house\nsource: our table\nextends: english-ascending\n"
                      "use: [counting-down]\nclaim:\n  follow: prev(previous)\n", encoding="utf-8")
    out = tmp_path / "house.cheat"
    assert main(["fmt", str(source), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "extends english-ascending" in text and "use [counting-down]" in text and "deck" not in text
    assert main(["fmt", str(out)]) == 0
    assert same_tree(yaml_tree(capsys.readouterr().out), yaml_tree(source.read_text(encoding="utf-8")))


def test_fmt_reports_errors_like_check_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.cheat"
    bad.write_text("players: 3..6\ndeck {\n  packs\n}\n", encoding="utf-8")
    assert main(["fmt", str(bad), "--to", "yaml"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{bad}:1:8: error[E037]:" in captured.err and f"{bad}:3:8: error[E036]:" in captured.err


@pytest.mark.parametrize("text,code", [("- a\n- b\n", "E020"), ("a: [1,\n", "E010"), ("{}\n", "E004")])
def test_fmt_refuses_yaml_that_is_not_a_rulebook(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 text: str, code: str) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["fmt", str(path)]) == 1
    assert f"error[{code}]" in capsys.readouterr().err


def test_fmt_missing_file_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fmt", str(tmp_path / "nowhere.yaml")]) == 1
    assert "error[E001]" in capsys.readouterr().err


def test_fmt_unwritable_output_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fmt", str(RULEBOOKS / "english-ascending.yaml"), "-o", str(tmp_path / "no" / "such.cheat")]) == 1
    assert "cannot write" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["fmt"], ["fmt", "x.yaml", "--to", "xml"], ["fmt", "a", "b"]])
def test_fmt_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2


def test_emptied_by_sets_reads_the_same_in_both_forms(tmp_path: Path) -> None:
    """`ending.emptied_by_sets` (the project's rule for a hand emptied by sets after a lost challenge, 004
    Verish' Ne Verish'): the house rule's YAML, written as the text DSL, compiles to the same model."""
    from cheatdsl.model import EmptiedBySets
    source = ROOT / "tests" / "fixtures" / "emptied-stays-in.yaml"
    tree = read_tree(str(source), Diagnostics())
    assert isinstance(tree, MapNode)
    cheat_text = to_dsl(tree)
    assert "emptied_by_sets stays_in" in cheat_text
    written = tmp_path / "emptied-stays-in.cheat"
    written.write_text(cheat_text, encoding="utf-8")
    from_yaml, from_dsl = outcome(source), outcome(written)
    assert from_dsl == from_yaml
    assert from_yaml.ending.emptied_by_sets is EmptiedBySets.STAYS_IN  # type: ignore[attr-defined]
