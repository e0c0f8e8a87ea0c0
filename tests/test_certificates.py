"""Issue 21 point 5: proof certificates anyone can check.

"`cheatdsl verify RULEBOOK --certificates DIR` writes, for every property proved by induction over the
transition system, SMT-LIB 2 files (the transition relation, the invariant, and each obligation:
initiation, consecution, property) whose `(check-sat)` must answer `unsat`, plus a JSON manifest. A test
re-checks them with a second solver (cvc5) and shows that a weakened invariant is caught."
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import cvc5
import pytest

from cheatdsl.cli import main
from cheatdsl.load import compile_rulebook
from verifier.certificates import Recorder, obligations, smtlib
from verifier.properties.invariant import houdini
from verifier.encoding.spec import build_spec

RULEBOOK = "rulebooks/bluffstopp.yaml"


def cvc5_answer(path: Path) -> str:
    """What cvc5 answers to the script's (check-sat), read by cvc5's own SMT-LIB parser."""
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    symbols = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, symbols)
    parser.setFileInput(cvc5.InputLanguage.SMT_LIB_2_6, str(path))
    answer = ""
    while True:
        command = parser.nextCommand()
        if command.isNull():
            return answer
        out = command.invoke(solver, symbols).strip()
        answer = out or answer


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("certificates")
    assert main(["verify", RULEBOOK, "--players", "3", "--certificates", str(folder)]) == 0
    return folder


def test_manifest_lists_every_induction_property_with_its_obligations(certificates: Path) -> None:
    manifest = json.loads((certificates / "manifest.json").read_text())
    [entry] = manifest["certificates"]
    assert entry["players"] == 3
    assert set(entry["properties"]) == {"card-conservation", "turn-order", "winner", "no-deadlock",
                                        "challenge-resolution"}
    kinds = {f["kind"] for f in entry["files"]}
    assert kinds == {"transition", "invariant", "initiation", "consecution", "property"}
    names = {Path(f["file"]).name for f in entry["files"]}
    assert {"initiation.smt2", "consecution-accept.smt2", "consecution-challenge.smt2",
            "consecution-pass.smt2", "property-no-deadlock.smt2"} <= names
    for f in entry["files"]:
        text = (certificates / f["file"]).read_text()
        assert hashlib.sha256(text.encode()).hexdigest() == f["sha256"]


def test_every_obligation_rechecks_unsat_in_cvc5(certificates: Path) -> None:
    manifest = json.loads((certificates / "manifest.json").read_text())
    checked = 0
    for entry in manifest["certificates"]:
        for f in entry["files"]:
            if f["expected"] is None:
                continue
            assert cvc5_answer(certificates / f["file"]) == "unsat", f["file"]
            checked += 1
    assert checked >= 8


def test_definition_files_parse_in_cvc5(certificates: Path) -> None:
    for path in sorted(certificates.glob("*/transition-*.smt2")) + sorted(certificates.glob("*/invariant.smt2")):
        assert cvc5_answer(path) == "", path  # definitions only: cvc5 accepts them and answers nothing


@pytest.mark.parametrize("dropped, broken", [("hands", "consecution-pass"),
                                             ("card-conservation", "consecution-challenge")])
def test_weakened_invariant_is_caught_by_cvc5(tmp_path: Path, dropped: str, broken: str) -> None:
    """Without the lemma that every seat in holds a card (or without conservation) the invariant is not
    inductive: cvc5 finds the step that breaks it (sat), so an unsat answer is not vacuous."""
    rb, _ = compile_rulebook(RULEBOOK, (), lints=False)
    recorder = Recorder()
    houdini(build_spec(rb, 3), recorder=recorder)
    parts = recorder.proofs[-1]
    assert dropped in parts.proved
    answers = {}
    for invariant in (parts.proved, parts.proved - {dropped}):
        for ob in obligations(parts, invariant, {}):
            path = tmp_path / f"{ob.name}.smt2"
            path.write_text(smtlib(ob, "weakened" if invariant != parts.proved else "full"))
            answers[(len(invariant), ob.name)] = cvc5_answer(path)
    assert answers[(len(parts.proved), broken)] == "unsat"
    assert answers[(len(parts.proved) - 1, broken)] == "sat"


def test_unwritable_folder_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["verify", RULEBOOK, "--players", "2", "-p", "turn-order",
                 "--certificates", str(blocker / "sub")]) == 2
    assert "cannot write certificates" in capsys.readouterr().err
