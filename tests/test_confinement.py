"""Rulebooks are untrusted: what `extends:` may reach, plain names, and file-system failures as located errors.

The rule (docs/language.md, "What a rulebook may read"): a rulebook may extend a shipped profile by
name, a file in its own folder or below it, or a file under a folder named with `--include` (or
CHEATDSL_INCLUDE). Anything else is error E306, which quotes nothing of the target and reads the same
whether or not the target exists. Every test here writes only under pytest's tmp_path.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from cheatdsl.cli import main

HOUSE = """rulebook: house
extends: {base}
title: A house rule
"""
SECRET_LINE = "password: hunter2-do-not-print"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def house(folder: Path, base: str, name: str = "house.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(HOUSE.format(base=base), encoding="utf-8")
    return path


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A private file outside the rulebook's folder, shaped like a rulebook so a reader would quote it."""
    private = tmp_path / "private"
    private.mkdir()
    path = private / "config.yaml"
    path.write_text(f"rulebook: config\n{SECRET_LINE}\n", encoding="utf-8")
    return path


def _masked(text: str, *words: str) -> str:
    for word in words:
        text = text.replace(word, "TARGET")
    return text


@pytest.mark.parametrize("how", ["absolute", "parent", "parent-no-suffix"])
def test_extends_outside_the_folder_is_refused_without_quoting_the_target(
        tmp_path: Path, secret: Path, capsys: pytest.CaptureFixture[str], how: str) -> None:
    """`extends:` that leaves the rulebook's folder is E306, and nothing of the file it names is printed."""
    reference = {"absolute": str(secret), "parent": "../private/config.yaml",
                 "parent-no-suffix": "../private/config"}[how]
    rulebook = house(tmp_path / "table", reference)
    code, out, err = run(capsys, "check", str(rulebook))
    assert code == 1
    assert "error[E306]" in out
    assert "hunter2" not in out + err and "password" not in out + err


def test_refusal_reads_the_same_whether_or_not_the_target_exists(
        tmp_path: Path, secret: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The messages must not tell an author whether a path outside the folder exists."""
    there = house(tmp_path / "a", "../private/config.yaml")
    missing = house(tmp_path / "b", "../private/absent.yaml")
    _, out_there, _ = run(capsys, "check", str(there))
    _, out_missing, _ = run(capsys, "check", str(missing))
    assert _masked(out_there, str(tmp_path / "a"), "config") == _masked(out_missing, str(tmp_path / "b"), "absent")


def test_a_symlink_that_leaves_the_folder_is_refused(
        tmp_path: Path, secret: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A link inside the folder to a file outside it is followed first, then refused like the file itself."""
    table = tmp_path / "table"
    table.mkdir()
    (table / "base.yaml").symlink_to(secret)
    code, out, err = run(capsys, "check", str(house(table, "base.yaml")))
    assert code == 1 and "error[E306]" in out and "hunter2" not in out + err


def test_a_file_below_the_folder_and_a_shipped_name_are_allowed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A base in a subfolder, and a base given by a shipped profile's name, both compile."""
    table = tmp_path / "table"
    house(table / "shared", "english-ascending", name="base.yaml")
    code, out, err = run(capsys, "check", str(house(table, "shared/base.yaml")))
    assert code == 0, out + err


def test_include_lets_a_rulebook_reach_a_named_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`--include DIR` (and CHEATDSL_INCLUDE) opens one more folder, and only that one."""
    house(tmp_path / "common", "english-ascending", name="base.yaml")
    rulebook = house(tmp_path / "table", "../common/base.yaml")
    code, out, _ = run(capsys, "check", str(rulebook))
    assert code == 1 and "error[E306]" in out
    code, out, err = run(capsys, "check", "--include", str(tmp_path / "common"), str(rulebook))
    assert code == 0, out + err
    monkeypatch.setenv("CHEATDSL_INCLUDE", str(tmp_path / "common"))
    code, out, err = run(capsys, "check", str(rulebook))
    assert code == 0, out + err


@pytest.mark.parametrize("reference, code", [
    ("x" * 3000 + ".yaml", "E306"),                   # over the file-name limit (ENAMETOOLONG before)
    ('"a\\0b.yaml"', "E306"),                          # a NUL in the name (ValueError before)
    ("loop.yaml", "E302"),                             # a symlink loop in the folder (RuntimeError before)
    ("folder.yaml", "E302"),                           # a folder where a file is expected
])
def test_file_system_failures_are_located_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], reference: str, code: str) -> None:
    """Names that are too long, hold a NUL, loop, or name a folder: a located error, exit 1, never exit 3."""
    table = tmp_path / "table"
    table.mkdir()
    (table / "loop.yaml").symlink_to(table / "loop2.yaml")
    (table / "loop2.yaml").symlink_to(table / "loop.yaml")
    (table / "folder.yaml").mkdir()
    status, out, err = run(capsys, "check", str(house(table, reference)))
    assert status == 1, err
    assert re.search(rf"house\.yaml:2:\d+: error\[{code}\]", out), out
    assert "internal error" not in err


def test_command_line_file_problems_are_errors_not_crashes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A device or a too-long name on the command line: E001, exit 1."""
    for path in ("/dev/null", "y" * 5000 + ".yaml"):
        status, out, err = run(capsys, "check", path)
        assert status == 1 and "error[E001]" in out and "internal error" not in err, (path, out, err)


@pytest.mark.parametrize("field, code", [("rulebook: ../escaped/x", "E021"), ("rulebook: /abs", "E021"),
                                         ("rulebook: .hidden", "E021")])
def test_rulebook_names_are_plain_names(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        field: str, code: str) -> None:
    """A rulebook's name names files the tools write (witnesses, diff games), so it may not hold a path."""
    text = (Path(__file__).parent.parent / "rulebooks" / "english-ascending.yaml").read_text(encoding="utf-8")
    path = tmp_path / "named.yaml"
    path.write_text(re.sub(r"^rulebook: .*$", field, text, count=1, flags=re.M), encoding="utf-8")
    status, out, _ = run(capsys, "check", str(path))
    assert status == 1 and f"error[{code}]" in out


def test_variation_names_are_plain_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A variation's name is a plain name too."""
    path = tmp_path / "v.yaml"
    path.write_text("rulebook: v\nextends: english-ascending\nvariations:\n  ../up:\n    summary: x\n"
                    "    changes: {}\n", encoding="utf-8")
    status, out, _ = run(capsys, "check", str(path))
    assert status == 1 and "error[E022]" in out


def test_witnesses_stay_in_their_folder_and_keep_existing_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """verify --save-witnesses: a file where the folder should be is a usage error (2), an existing scenario
    is kept unless --force, and every file written is inside the folder and names the shipped profile."""
    as_file = tmp_path / "file"
    as_file.write_text("keep me", encoding="utf-8")
    args = ["verify", "english-ascending", "-p", "termination", "-n", "3"]
    status, _, err = run(capsys, *args, "--save-witnesses", str(as_file))
    assert status == 2 and "is a file" in err and as_file.read_text() == "keep me"
    folder = tmp_path / "w"
    status, _, err = run(capsys, *args, "--save-witnesses", str(folder))
    assert status == 0, err
    written = sorted(folder.iterdir())
    assert written and all(p.parent == folder for p in written)
    assert "rulebook: english-ascending" in written[0].read_text(encoding="utf-8")
    status, _, err = run(capsys, *args, "--save-witnesses", str(folder))
    assert status == 2 and "--force" in err
    status, _, err = run(capsys, *args, "--save-witnesses", str(folder), "--force")
    assert status == 0, err
    status, out, err = run(capsys, "scenario", str(folder))
    assert status == 0, out + err


def test_scenario_folders_with_loops_and_unreadable_places(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder walk follows no links and reports what it cannot read, never an internal error."""
    (tmp_path / "loop").symlink_to(tmp_path)
    os.mkfifo(tmp_path / "pipe.yaml")
    status, _, err = run(capsys, "scenario", str(tmp_path))
    assert status == 1 and "internal error" not in err
    status, _, err = run(capsys, "scenario", "/proc/self")
    assert status in (0, 1) and "internal error" not in err


def test_a_scenario_naming_an_unusable_rulebook_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A scenario's `rulebook:` too long for the file system is error S020 at that line (exit 3 before)."""
    path = tmp_path / "s.yaml"
    path.write_text(f"scenario: long name\nrulebook: {'z' * 3000}.yaml\nplayers: 3\nseed: 1\nactions: []\n",
                    encoding="utf-8")
    status, out, err = run(capsys, "scenario", str(path))
    assert status == 1 and "S020" in out + err and "internal error" not in err


def test_a_rulebook_from_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`-` reads the rulebook from standard input, YAML or the text DSL; its problems are located at <stdin>."""
    import io
    root = Path(__file__).parent.parent / "rulebooks"
    for name in ("english-ascending.yaml", "english-ascending.cheat"):
        from cheatdsl.syntax import reading
        monkeypatch.setattr(reading, "_stdin_bytes", [])
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO((root / name).read_bytes())))
        status, out, err = run(capsys, "check", "-")
        assert status == 0, (name, out, err)
    monkeypatch.setattr(reading, "_stdin_bytes", [])
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"rulebook: x\nplayers: banana\n")))
    status, out, _ = run(capsys, "check", "-")
    assert status == 1 and "<stdin>:2:" in out


def test_use_without_extends_switches_on_the_rulebooks_own_variations(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/language.md lists `use` as a top-level field: a rulebook may switch on its own variations."""
    text = (Path(__file__).parent.parent / "rulebooks" / "full-rules.yaml").read_text(encoding="utf-8")
    path = tmp_path / "own.yaml"
    path.write_text(text + "\nuse: [going-down]\n", encoding="utf-8")
    status, out, err = run(capsys, "check", str(path))
    assert status == 0, out + err
    path.write_text(text + "\ndrop: [sets]\n", encoding="utf-8")
    status, out, _ = run(capsys, "check", str(path))
    assert status == 1 and "error[E303]" in out and "extends none" in out
