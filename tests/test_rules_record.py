"""Issue 27: one rules record per table. The verifier makes the record of a rulebook at a player count once in
each process and hands that one to its spec and to the interpreter's game, which hold it, never copy it."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

import cheatdsl.derived as derived
from cheatdsl.engine import Game
from cheatdsl.load import load_rulebook
from verifier.api import verify_files
from verifier.encoding.spec import build_spec
from verifier.encoding.subject import Subject

ROOT = Path(__file__).resolve().parents[1]


def test_one_verify_call_makes_each_tables_record_once_in_each_process(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Every property of english-ascending at 3..6 players: no process makes a table's record twice (the
    worker processes are forked, so they keep the counting constructor and write to the same file)."""
    log = tmp_path / "made.txt"
    made = derived.TableRules.__init__

    def counting(self: derived.TableRules, rulebook: object, players: int, *args: object, **kw: object) -> None:
        with log.open("a") as f:
            f.write(f"{os.getpid()} {players}\n")
        made(self, rulebook, players, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(derived.TableRules, "__init__", counting)
    report = verify_files([str(ROOT / "rulebooks" / "english-ascending.yaml")], [()])
    assert report is not None
    counts = Counter(log.read_text().split("\n")[:-1])
    assert counts and max(counts.values()) == 1, counts
    assert {line.split()[1] for line in counts} == {"3", "4", "5", "6"}


def test_the_subjects_game_and_spec_hold_the_subjects_record() -> None:
    """The record is held, not copied: the game and the spec made from a subject's record are that object."""
    subject = Subject(load_rulebook(str(ROOT / "rulebooks" / "standard.yaml")))
    n = subject.counts[0]
    record = subject.rules(n)
    assert subject.game(n).rules is record
    assert subject.game(n) is subject.game(n)
    assert build_spec(subject.rb, n, rules=record).rules is record


def test_a_game_refuses_the_record_of_another_table() -> None:
    """A record of one rulebook or player count is never held by a game of another."""
    rb = load_rulebook(str(ROOT / "rulebooks" / "standard.yaml"))
    record = Subject(rb).rules(4)
    with pytest.raises(ValueError, match="rules record given"):
        Game(rb, 5, rules=record)
    assert Game(rb, 4, rules=record).rules is record
