"""Issue 21 point 6: the proof-against-play campaign (benchmarks/soundness_campaign.py), a small sample.

"For generated rulebooks and mutants of every shipped rulebook, every *proved* verdict is held against
long seeded games by several bots (`random` among them) and every *refuted* witness is replayed from its
deal. It ends with one JSON line holding rulebooks, proved, contradicted, witnesses_replayed,
witness_failures, unknown." The campaign itself runs from benchmarks/; here a few rulebooks, and the
checks shown able to fail: a proof claimed for a rulebook whose games break it is caught.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cheatdsl.engine import Game
from cheatdsl.load import compile_rulebook

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import soundness_campaign as campaign  # noqa: E402
from rulebook_strategies import generate, text_of  # noqa: E402


def test_sample_has_no_contradiction_and_every_witness_replays() -> None:
    """A generated rulebook and a mutant of a shipped one: proofs hold in play, witnesses replay."""
    results = [campaign.examine(i, games=1, turns=400, verify_seconds=30) for i in (2, 3)]
    assert results[1]["made"].startswith("mutant 3: ")
    totals = campaign.totals(results)
    assert totals["rulebooks"] == 2 and totals["mutants"] == 1
    assert totals["proved"] > 0
    assert totals["contradicted"] == 0, [r["contradictions"] for r in results]
    assert totals["witness_failures"] == 0, [r["witness_failures"] for r in results]
    assert totals["internal_errors"] == 0


def test_command_ends_with_one_json_line() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "soundness_campaign.py"), "--count", "1",
                          "--start", "1", "--games", "1", "--turns", "200"],
                         capture_output=True, text=True, cwd=ROOT, timeout=600, check=True)
    last = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(last) >= {"rulebooks", "proved", "contradicted", "witnesses_replayed", "witness_failures", "unknown"}
    assert last["rulebooks"] == 1


def _game(path: str) -> Game:
    rb, _ = compile_rulebook(path, (), lints=False)
    assert rb is not None
    return Game(rb, rb.players.counts()[0])


@pytest.mark.parametrize("fixture, pid, words", [
    ("dead-end-claims", "no-deadlock", "has no legal action"),  # the seat to play can claim nothing
    ("void-penalty", "challenge-resolution", "picks up no card"),  # a penalty meets an empty stock
])
def test_a_false_proof_is_contradicted_by_play(fixture: str, pid: str, words: str) -> None:
    """Each play check can fail: told the property was proved where it is false, a game shows it."""
    game = _game(str(ROOT / "tests" / "fixtures" / f"{fixture}.yaml"))
    found = campaign.contradictions(game, 0, "random", {pid}, 1500)
    assert found and pid in found[0] and words in found[0]


def test_a_false_termination_proof_is_contradicted_by_a_repeated_position(tmp_path: Path) -> None:
    """Termination: a game that comes back to a whole position (no turn cap) can go round for ever."""
    data = generate(8)
    data["ending"].pop("turn_cap", None)
    path = tmp_path / "loops.yaml"
    path.write_text(text_of(data))
    found = campaign.contradictions(_game(str(path)), 0, "random", {"termination"}, 1500)
    assert found and "comes back to a position" in found[0]


def test_true_proofs_are_not_contradicted() -> None:
    game = _game(str(ROOT / "rulebooks" / "bluffstopp.yaml"))
    proved = set(campaign.PLAYED) - {"termination"}  # what verify proves of this rulebook
    assert campaign.contradictions(game, 0, "random", proved, 600) == []


def test_a_threshold_below_what_a_call_judges_true_in_play_is_a_contradiction() -> None:
    """Issue 38 point 7: the campaign holds the table facts against play too. A claim-threshold stated lower
    than a claim some call judges true in a seeded game (here 0 on English ascending, where honest calls
    find true claims) is reported; the true threshold is not."""
    rb, _ = compile_rulebook(str(ROOT / "rulebooks" / "english-ascending.yaml"))
    assert rb is not None
    game = Game(rb, 3)
    found = [c for seed in range(3) for c in campaign.contradictions(game, seed, "honest", set(), 400,
                                                                     {"threshold": 0})]
    assert found and "judges a claim of" in found[0]
    assert not [c for seed in range(3) for c in campaign.contradictions(game, seed, "honest", set(), 400,
                                                                         {"threshold": 4})]
