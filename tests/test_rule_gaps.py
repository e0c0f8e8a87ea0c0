"""Gaps in the rules a game meets (`State.rule_gaps`): where a seat formula names no seat, or a new round allows
no claim to lead, the interpreter fills the gap so play goes on, and says which gap it filled. Round-rank is
about these gaps (docs/properties.md), and the judge and the verifier's games read them here."""

from __future__ import annotations

import contextlib
import io
import random
from pathlib import Path

from cheatdsl.cli import main
from cheatdsl.engine import Game, Phase, RuleGap
from cheatdsl.load import load_rulebook
from verifier.properties.witness import dealt

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _gap_game(seed: int) -> tuple[int, int, Game] | None:
    """A game of `judge-round-gap-met` played by random bots until a challenge's next leader is missing: the
    claimant of that challenge and the seat that then plays."""
    game = Game(load_rulebook(str(FIXTURES / "judge-round-gap-met.yaml")), 2)
    st = dealt(game, seed, None)
    rng = random.Random(seed)
    claimant = None
    while not st.is_terminal() and st.turns < 200:
        if st.phase is Phase.PLAY:
            claimant = st.to_act
        st.apply_action(rng.choice(st.legal_actions()))
        if RuleGap.NEXT_PLAYER in st.rule_gaps:
            return (claimant if claimant is not None else -1), st.to_act, game
    return None


def test_a_next_leader_no_rule_names_is_the_claimant_and_is_said() -> None:
    """`challenge.next_player: holder(four of spades)` with the four set aside names nobody: the claimant plays
    next (docs/language.md), and the state says it filled the gap."""
    met = [g for g in map(_gap_game, range(40)) if g is not None]
    assert met, "no game of 40 met the gap"
    for claimant, to_act, _ in met:
        assert to_act == claimant


def test_a_game_without_gaps_says_none() -> None:
    st = dealt(Game(load_rulebook("standard"), 3), 1, None)
    assert st.rule_gaps == frozenset()


def test_a_scenario_expects_the_gaps_met_and_rejects_an_unknown_one(tmp_path: Path) -> None:
    """A scenario's `rule_gaps` lists the gaps the game met; a name that is no gap is a clear error."""
    path = tmp_path / "gaps.yaml"
    path.write_text(f"scenario: no gap at the deal\nrulebook: {FIXTURES / 'judge-round-gap-met.yaml'}\nplayers: 2\n"
                    "seed: 0\nactions: []\nexpect:\n  rule_gaps: []\n")
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        assert main(["scenario", str(path)]) == 0, sink.getvalue()
    path.write_text(path.read_text().replace("rule_gaps: []", "rule_gaps: [nobody]"))
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        assert main(["scenario", str(path)]) != 0
    assert "rule_gaps" in sink.getvalue() and "next_player" in sink.getvalue()
    assert "Traceback" not in sink.getvalue()
