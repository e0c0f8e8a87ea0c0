"""Hostile files for the readers: each is under the size limit and must be refused or read cheaply.

Shared by tests/test_input_cost.py (each is refused with its code), tests/test_fuzz.py and
benchmarks/input_cost.py (what each costs in CPU time and memory). A case is a file name, the command
that reads it and the file's bytes; nothing here touches the disk.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = (ROOT / "rulebooks" / "english-ascending.yaml").read_text(encoding="utf-8")
ENGLISH_DSL = (ROOT / "rulebooks" / "english-ascending.cheat").read_text(encoding="utf-8")
SCENARIO_HEAD = ("scenario: hostile\nrulebook: english-ascending\nplayers: 3\nseed: 1\n")


@dataclass(frozen=True)
class Hostile:
    """One hostile file: its name, file name, the command reading it, its bytes and the code it must get.

    An empty code means the file is within the limits: it is read, and checks clean or runs.
    """

    name: str
    filename: str
    command: str
    make: Callable[[], bytes]
    code: str

    def argv(self, path: str) -> list[str]:
        """The command line that reads the file at `path`."""
        return [self.command, path]


def _text(text: str) -> Callable[[], bytes]:
    return lambda: text.encode("utf-8")


def _block_list() -> bytes:
    return b"ranks:\n" + b"- a\n" * 165_000


def _many_keys() -> bytes:
    return "".join(f"k{i}: {i}\n" for i in range(60_000)).encode()


def _flow_list() -> bytes:
    return b"[" + b"1, " * 150_000 + b"1]\n"


def _flow_list_max() -> bytes:
    return b"a: [" + b"1," * 499_990 + b"1]\n"


def _deep_block() -> bytes:
    lines = [" " * i + "a:" for i in range(1_300)]
    return ("\n".join(lines) + " 1\n").encode()


def _alias_bomb() -> bytes:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    return ("\n".join(lines) + "\n").encode()


def _many_anchors() -> bytes:
    return "".join(f"k{i}: &a{i} {i}\n" for i in range(40_000)).encode()


def _big_rulebook() -> bytes:
    """English ascending with 49,000 ranks: under the value limit, so the compiler sees every one."""
    return ENGLISH.replace("ranks: [A,", "ranks: [" + "x, " * 49_000 + "A,").encode()


def _many_formulas() -> bytes:
    formula = "next(" * 19 + "previous" + ")" * 19
    rows = "".join(f"  v{i}: {{claim: {{follow: '{formula}'}}}}\n" for i in range(4_000))
    return (ENGLISH + "\nvariations:\n" + rows).encode()


def _long_formula_list() -> bytes:
    formula = " + ".join(["players"] * 280)
    return ENGLISH.replace("  packs: 1", "  packs: " + formula).encode()


def _long_formulas(count: int) -> Callable[[], bytes]:
    formula = " + ".join(["players"] * 120) + " > 0"
    kinds = "".join(f"    - {{name: k{i}, call: k{i}, test: played, allowed_when: '{formula}'}}\n" for i in range(count))
    return lambda: ENGLISH.replace("  kinds:\n", "  kinds:\n" + kinds).encode()


def _variations(count: int) -> Callable[[], bytes]:
    rows = "".join(f"  v{i}: {{deck: {{packs: 2}}}}\n" for i in range(count))
    return lambda: (ENGLISH + "\nvariations:\n" + rows).encode()


def _dsl_many_keys() -> bytes:
    return "".join(f"k{i} {i}\n" for i in range(70_000)).encode()


def _dsl_garbage() -> bytes:
    return b"{{{{ ]]]] ,,, : \x7f `x\n" * 40_000


def _dsl_errors() -> bytes:
    return b"players: 3..6\n" * 70_000


def _scenario_actions() -> bytes:
    return (SCENARIO_HEAD + "actions: [" + '"0: pass", ' * 60_000 + '"0: pass"]\n').encode()


def _scenario_passes() -> bytes:
    return (SCENARIO_HEAD + "actions:\n" + '  - "0: pass"\n' * 2_000).encode()


def _scenario_keys() -> bytes:
    return (SCENARIO_HEAD + "expect:\n" + "".join(f"  k{i}: {i}\n" for i in range(60_000))).encode()


CASES: tuple[Hostile, ...] = (
    Hostile("YAML block list of 165,000 items (660 KB)", "list.yaml", "check", _block_list, "E012"),
    Hostile("YAML mapping of 60,000 keys", "keys.yaml", "check", _many_keys, "E019"),
    Hostile("YAML flow list of 150,000 items", "flow.yaml", "check", _flow_list, "E012"),
    Hostile("YAML flow list of 500,000 items (1 MB)", "flow-max.yaml", "check", _flow_list_max, "E012"),
    Hostile("YAML flow lists 999,000 deep", "deep-flow.yaml", "check", lambda: b"[" * 999_000, "E013"),
    Hostile("YAML block mappings 1,300 deep", "deep-block.yaml", "check", _deep_block, "E013"),
    Hostile("YAML alias bomb (billion laughs)", "bomb.yaml", "check", _alias_bomb, "E014"),
    Hostile("YAML 40,000 anchors", "anchors.yaml", "check", _many_anchors, "E019"),
    Hostile("YAML python tag", "tag.yaml", "check",
            _text(ENGLISH.replace("title: English", "title: !!python/object/apply:os.system ['true']\nx: English")),
            "E017"),
    Hostile("YAML local tag", "local-tag.yaml", "check", _text(ENGLISH.replace("packs: 1", "packs: !cards 1")),
            "E017"),
    Hostile("YAML 9,990 aliases", "aliases.yaml", "check", _text("a: &a 1\nb:\n" + "- *a\n" * 9_990), "E014"),
    Hostile("YAML 9,990 tags", "tags.yaml", "check", _text("a:\n" + "- !x 1\n" * 9_990), "E017"),
    Hostile("YAML 9,990 duplicate keys", "dups.yaml", "check", _text("a: 1\n" * 9_990), "E016"),
    Hostile("YAML 250,000 documents", "docs.yaml", "check", lambda: b"---\n" * 250_000, "E010"),
    Hostile("YAML scalar of 999,000 characters", "scalar.yaml", "check",
            lambda: b"title: " + b"x" * 999_000 + b"\n", "E018"),
    Hostile("rulebook with 49,000 ranks", "ranks.yaml", "check", _big_rulebook, "E012"),
    Hostile("rulebook with 8,000 variations", "variations.yaml", "check", _variations(8_000), "E012"),
    Hostile("rulebook with 4,000 nested formulas", "formulas.yaml", "check", _many_formulas, "E019"),
    Hostile("rulebook with 700 formulas of 1,300 characters", "long-formulas.yaml", "check", _long_formulas(700),
            "E019"),
    Hostile("rulebook with 36 formulas of 1,300 characters", "formulas-36.yaml", "check", _long_formulas(36), ""),
    Hostile("formula of 2,000 characters", "formula.yaml", "check", _long_formula_list, "E101"),
    Hostile("deck size formula asking for seats", "seats-in-deck.yaml", "check",
            _text(ENGLISH.replace("packs: 1", "packs: if left(seat(0)) == seat(1) then 1 else 2")), "E415"),
    Hostile("DSL list of 499,000 words", "words.cheat", "check",
            lambda: b"ranks " + b"x " * 499_000 + b"\n", "E012"),
    Hostile("DSL 70,000 rules", "keys.cheat", "check", _dsl_many_keys, "E019"),
    Hostile("DSL 9,990 duplicate rules", "dups.cheat", "check", _text("a 1\n" * 9_990), "E016"),
    Hostile("DSL braces 999,000 deep", "deep.cheat", "check", lambda: b"a " + b"{" * 999_000, "E013"),
    Hostile("DSL 40,000 lines of garbage", "garbage.cheat", "check", _dsl_garbage, "E030"),
    Hostile("DSL text left open after escapes", "escapes.cheat", "check",
            lambda: b'title "' + b"\\a" * 499_000 + b"\n", "E032"),
    Hostile("DSL number of 999,000 digits", "digits.cheat", "check", lambda: b"packs " + b"9" * 999_000, "E018"),
    Hostile("DSL 70,000 colons", "colons.cheat", "check", _dsl_errors, "E037"),
    # A scenario may be a whole recorded game: up to limits.SCENARIO_VALUES (200,000 values) within the file size,
    # and each kind of mistake is reported ten times at most, then counted.
    Hostile("scenario with 60,000 actions", "actions.yaml", "scenario", _scenario_actions, ""),
    Hostile("scenario with 2,000 actions", "passes.yaml", "scenario", _scenario_passes, ""),
    Hostile("scenario with 60,000 one-letter actions", "letters.yaml", "scenario",
            _text(SCENARIO_HEAD + "actions: [" + "a, " * 60_000 + "a]\n"), "S105"),
    Hostile("scenario with 300,000 numbers for actions", "numbers.yaml", "scenario",
            _text(SCENARIO_HEAD + "actions: [" + "1, " * 300_000 + "1]\n"), "E012"),
    Hostile("scenario with 150,000 numbers for actions", "numbers-within.yaml", "scenario",
            _text(SCENARIO_HEAD + "actions: [" + "1, " * 150_000 + "1]\n"), "S014"),
    Hostile("scenario with 60,000 expectations", "expect.yaml", "scenario", _scenario_keys, "S011"),
    Hostile("scenario with a python tag", "tag-scenario.yaml", "scenario",
            _text(SCENARIO_HEAD.replace("players: 3", "players: !!python/object/apply:os.system ['true']")), "E017"),
    # Within every reading limit, with their cost after reading (W503 builds the rules once per variation).
    Hostile("rulebook with 300 variations", "variations-300.yaml", "check", _variations(300), ""),
    Hostile("rulebook with 1,000 variations", "variations-1000.yaml", "check", _variations(1_000), ""),
)

# Files whose cost lies after reading and is too high for the suite: measured by benchmarks/input_cost.py.
COSTLY: tuple[Hostile, ...] = ()
