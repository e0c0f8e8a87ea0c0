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
from verifier.encoding.graph import claim_graph
from verifier.encoding.spec import build_spec
from verifier.encoding.subject import Subject

ROOT = Path(__file__).resolve().parents[1]


def test_one_verify_call_makes_each_tables_record_once_in_each_process(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Every property of english-ascending at 3..6 players: no process makes a table's record twice (the
    worker processes are forked, so they keep the counting constructor and write to the same file)."""
    log = tmp_path / "made.txt"

    def counting(record: type) -> None:
        made = record.__init__

        def init(self: object, rulebook: object, players: int, *args: object, **kw: object) -> None:
            with log.open("a") as f:
                f.write(f"{record.__name__} {os.getpid()} {players}\n")
            made(self, rulebook, players, *args, **kw)

        monkeypatch.setattr(record, "__init__", init)

    counting(derived.TableRules)
    counting(derived.ClaimRules)  # the claim checks (claim graph, first claim, round leads) read the record's
    report = verify_files([str(ROOT / "rulebooks" / "english-ascending.yaml")], [()])
    assert report is not None
    counts = Counter(log.read_text().split("\n")[:-1])
    assert counts and max(counts.values()) == 1, counts
    for record in ("TableRules", "ClaimRules"):
        assert {line.split()[2] for line in counts if line.startswith(record)} == {"3", "4", "5", "6"}


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


def test_the_claim_checks_read_the_claim_rules_of_the_record() -> None:
    """The claim graph (rank-cycle, ranks-exist, seat-fairness) is the record's claim rules: the same
    sets, from the one `ClaimRules` the record holds."""
    subject = Subject(load_rulebook(str(ROOT / "rulebooks" / "standard.yaml")))
    n = subject.counts[0]
    claims = subject.rules(n).claim_rules
    assert subject.claim_rules(n) is claims
    g = claim_graph(subject, n)
    assert not isinstance(g, str)
    assert [g.order[i] for i in sorted(g.start)] == sorted(claims.first)
    assert all({g.order[j] for j in g.follow[i]} == claims.follow[v] for i, v in enumerate(g.order))


def test_the_claim_rules_exist_at_a_table_that_cannot_be_dealt() -> None:
    """Where the deck cannot be dealt there is no record (`DealError`), yet the claim checks still read
    which claims follow which, worked out by the same `ClaimRules`."""
    subject = Subject(load_rulebook(str(ROOT / "rulebooks" / "standard.yaml")), (60,))
    with pytest.raises(derived.DealError):
        subject.rules(60)
    g = claim_graph(subject, 60)
    assert not isinstance(g, str) and g.size == 13 and g.deterministic


def test_claim_rules_keep_the_claims_a_formula_names_outside_the_deck() -> None:
    """`ranks-exist` names a claim the deck lacks: the record's claim rules keep it (`outside`), while the
    sets the interpreter reads hold only claims of the table."""
    rb = load_rulebook(str(ROOT / "tests" / "fixtures" / "missing-rank.yaml"))  # after queens come kings
    claims = Subject(rb).claim_rules(rb.players.min)
    kings = 12
    assert claims.outside["follow"] == {kings} and kings not in claims.order
    assert all(kings not in allowed for allowed in claims.follow.values())
