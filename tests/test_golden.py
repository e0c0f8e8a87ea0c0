"""Golden playthroughs: one seeded random game of every shipped rulebook, written out state by state.

In the manner of OpenSpiel's integration_tests/playthroughs (style.md, anchor 7): each state shows
the player to move (or chance), every seat's observation in the game's words, the legal actions
(their count and a sample when there are many) and the action taken. The first `DETAILED` actions
are shown in full, the rest of the action list compactly, then the final state and its result.

Run `pytest --regenerate` to rewrite tests/golden/ after a deliberate change, and read the diff.
A shipped rulebook without a golden file fails, as OpenSpiel's test does for a game with no playthrough.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from cheatdsl.engine import (
    CHANCE,
    PASS,
    Action,
    ChanceDealer,
    Game,
    Pass,
    Phase,
    State,
    TooManyActions,
    action_key,
)
from cheatdsl.words.notation import action_text, phase_text
from cheatdsl.load import compile_rulebook
from cheatdsl.play.words import Voices, hand_words, public_words, result_lines, reveal_lines, set_words

ROOT = Path(__file__).resolve().parents[1]
RULEBOOKS = ROOT / "rulebooks"
GOLDEN = Path(__file__).resolve().parent / "golden"
SHIPPED = sorted(p for p in RULEBOOKS.iterdir() if p.suffix in (".yaml", ".cheat"))

SEED = 1             # one seed for every rulebook: the chance rng and the random player share it
TURN_CAP = 200       # plays and passes; bounds the games whose termination is refuted (mogeln, one-rank-a-round)
DETAILED = 60        # actions shown state by state; the rest only as actions
LIST_LIMIT = 2000    # above this many legal actions a play is drawn with sample_play instead of listed
SHOW_LIMIT = 12      # legal actions written out in full up to this many; above it a count and a sample
SAMPLE = 3
PER_LINE = 6


def golden_name(path: Path) -> str:
    """`standard.txt` for `standard.yaml`; a text-DSL file keeps its suffix (`english-ascending.cheat.txt`)
    so that it does not share a golden file with the YAML form of the same rules."""
    return f"{path.stem}.txt" if path.suffix == ".yaml" else f"{path.name}.txt"


def choose(state: State, rng: random.Random) -> tuple[Action, str]:
    """A uniformly random legal action, and the legal actions in words."""
    g = state.game
    if state.current_player() == CHANCE:
        if state.legal_actions():
            legal = " | ".join(action_text(g, a) for a in state.legal_actions())
        else:
            legal = "shuffle with any seed from 0 up"
        return state.chance_outcome(rng), legal
    passing = state.phase is Phase.PLAY and state.can_pass()
    plays = state.count_play_actions() if state.phase is Phase.PLAY else 0
    if state.phase is not Phase.PLAY or plays + passing <= LIST_LIMIT:
        actions = state.legal_actions(limit=LIST_LIMIT)
        if state.phase is Phase.PLAY:
            assert len(actions) == plays + passing, "count_play_actions() disagrees with legal_actions()"
        action = actions[rng.randrange(len(actions))]
        if len(actions) <= SHOW_LIMIT or state.phase is not Phase.PLAY:
            return action, " | ".join(action_text(g, a) for a in actions)
        total = len(actions)
    else:
        total = plays + passing
        pick = rng.randrange(total)
        action = PASS if pick >= plays else state.sample_play(rng)
    return action, _sampled(state, total, plays, passing)


def _sampled(state: State, total: int, plays: int, passing: bool) -> str:
    """`5,984 actions (5,983 plays and pass), e.g. play ... | play ...`: a sample that uses its own rng."""
    g = state.game
    sample_rng = random.Random(state.turns)
    drawn = sorted({state.sample_play(sample_rng) for _ in range(SAMPLE)}, key=action_key)
    what = f"{plays:,} plays" + (" and pass" if passing else "")
    return f"{total:,} actions ({what}), e.g. " + " | ".join(action_text(g, a) for a in drawn)


def observation_lines(state: State, v: Voices) -> list[str]:
    """Every seat's observation: the public part once (checked equal for all seats), then each hand."""
    g = state.game
    observations = [state.observation(s) for s in range(g.players)]
    public = dataclasses.replace(observations[0], seat=0, hand=())
    for obs in observations[1:]:
        assert dataclasses.replace(obs, seat=0, hand=()) == public, "seats disagree about public information"
    lines = ["  public: " + line for line in public_words(g, public, v)]
    width = len(str(g.players - 1))
    for obs in observations:
        lines.append(f"  seat {obs.seat:>{width}} sees ({len(obs.hand)}): {hand_words(g, obs.hand)}")
    return lines


def who_moves(state: State) -> str:
    if state.current_player() == CHANCE:
        if state.callers():
            return "chance: the lot says which of the seats that called at once called first"
        return "chance: " + ("the dealer is drawn by lot" if state.dealer is None else "the deck is shuffled")
    if state.phase is Phase.PLAY and not state.required_claims():
        return f"seat {state.current_player()} is to pass: nothing can be claimed"
    return phase_text(state)


def events(before: State, action: Action, after: State, v: Voices) -> list[str]:
    """What the table saw happen during one action besides the action itself."""
    g = after.game
    lines = []
    for r in after.reveals()[len(before.reveals()):]:
        lines.extend(reveal_lines(g, r, v))
    for seat, rank, cards in after.discarded_sets()[len(before.discarded_sets()):]:
        lines.append(set_words(g, v, seat, rank, cards))
    if isinstance(action, Pass) and before.pile_size() and not after.pile_size():
        lines.append(f"Everyone passed: the pile of {before.pile_size()} cards leaves the game.")
    for seat in after.order_out()[len(before.order_out()):]:
        lines.append(f"{v.name(seat)} is out.")
    dealing = before.phase is Phase.CHANCE and not before.callers()
    if after.phase is Phase.PLAY and after.leading and not before.leading and not dealing:
        lines.append(f"{v.name(after.current_player())} leads a new round.")
    return ["  → " + line for line in lines]


def playthrough(path: Path, seed: int = SEED) -> str:
    """The golden text of one seeded uniformly random game of the rulebook at `path`."""
    rulebook, diagnostics = compile_rulebook(str(path))
    assert rulebook is not None, f"{path.name} does not compile: {diagnostics.render()}"
    players = rulebook.players.min
    game = Game(rulebook, players, turn_cap=TURN_CAP)
    v = Voices([f"seat {s}" for s in range(players)])
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = [
        f"# Golden playthrough of rulebooks/{path.name}; regenerate with `pytest tests/test_golden.py --regenerate`.",
        f"game: {rulebook.name} — {rulebook.title}",
        f"players: {players}   seed: {seed}   turn cap: {TURN_CAP}   deck: {len(game.rules.table.deck)} cards   "
        f"dealt from the dealer's left: {' '.join(str(n) for n in game.rules.hand_sizes)}",
        "policy: uniformly random legal actions, random.Random(seed) for chance and choices alike",
    ]
    taken: list[str] = []
    step = 0
    while not state.is_terminal():
        action, legal = choose(state, rng)
        before = state.clone()
        state.apply_action(action)
        taken.append(action_text(game, action))
        if step < DETAILED:
            out.append("")
            out.append(f"## state {step}: {who_moves(before)}")
            out.extend(observation_lines(before, v))
            out.append(f"  legal: {legal}")
            out.append(f"  action: {action_text(game, action)}")
            out.extend(events(before, action, state, v))
        step += 1
    if step > DETAILED:
        out.append("")
        out.append(f"## actions {DETAILED} to {step - 1}")
        rest = taken[DETAILED:]
        for i in range(0, len(rest), PER_LINE):
            out.append(f"  {DETAILED + i:>4}: " + " · ".join(rest[i:i + PER_LINE]))
    result = state.result()
    assert result is not None
    out.append("")
    out.append(f"## final state after {step} actions: {who_moves(state)}")
    out.extend(observation_lines(state, v))
    out.extend("  " + line for line in result_lines(game, result, v, state.hand_sizes()))
    out.append(f"  result: winner {result.winner} · order out {list(result.order_out)} · loser {result.loser} · "
               f"capped {result.capped} · {result.reason}")
    out.append(f"  returns: {' '.join(f'{r:+.3f}' for r in state.returns())}")
    return "\n".join(out) + "\n"


def _diff(expected: str, actual: str, name: str) -> str:
    lines = difflib.unified_diff(expected.splitlines(), actual.splitlines(), f"tests/golden/{name}",
                                 f"{name} (regenerated)", lineterm="", n=2)
    text = "\n".join(lines)
    cut = 120
    shown = text.splitlines()
    if len(shown) > cut:
        text = "\n".join(shown[:cut]) + f"\n... {len(shown) - cut} more diff lines"
    return text


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_golden_playthrough(path: Path, regenerate: bool) -> None:
    """Style anchor 7: the seeded random game of every shipped rulebook matches its golden trace."""
    golden = GOLDEN / golden_name(path)
    actual = playthrough(path)
    if regenerate:
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(actual, encoding="utf-8")
        return
    assert golden.exists(), (f"rulebooks/{path.name} has no golden playthrough tests/golden/{golden.name}; "
                             "create it with `pytest tests/test_golden.py --regenerate`")
    expected = golden.read_text(encoding="utf-8")
    if expected != actual:
        pytest.fail(f"the playthrough of rulebooks/{path.name} changed; if the change is meant, run "
                    f"`pytest tests/test_golden.py --regenerate` and review the diff:\n"
                    + _diff(expected, actual, golden.name), pytrace=False)


def test_every_golden_file_belongs_to_a_shipped_rulebook() -> None:
    """A golden file left behind by a removed or renamed rulebook is an error, not a silent pass."""
    names = {golden_name(p) for p in SHIPPED}
    stray = sorted(p.name for p in GOLDEN.glob("*.txt") if p.name not in names)
    assert not stray, f"golden files without a shipped rulebook: {stray}"


def test_a_missing_golden_file_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Anchor 7 (OpenSpiel): a game without a playthrough fails the suite rather than being skipped."""
    monkeypatch.setattr(sys.modules[__name__], "GOLDEN", tmp_path)
    with pytest.raises(AssertionError, match="has no golden playthrough"):
        test_golden_playthrough(SHIPPED[0], regenerate=False)


def test_playthroughs_do_not_depend_on_the_hash_seed() -> None:
    """The traces are the same under another PYTHONHASHSEED (no set or dict order leaks into a game)."""
    names = ["practice-table.yaml", "bluffstopp.yaml", "canadian-bluff.yaml", "one-rank-a-round.yaml"]
    code = ("import sys; sys.path.insert(0, 'tests'); from pathlib import Path; import test_golden as t; "
            f"sys.stdout.write(''.join(t.playthrough(t.RULEBOOKS / n) for n in {names!r}))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    other = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                           check=True).stdout
    assert other == "".join(playthrough(RULEBOOKS / n) for n in names)


def test_the_random_player_draws_uncapped_plays_without_listing_them() -> None:
    """A hand of 52 cards in a game without a card cap has too many plays to list: count and sample them."""
    rulebook, _ = compile_rulebook(str(RULEBOOKS / "standard.yaml"))
    assert rulebook is not None
    state = Game(rulebook, 2).new_initial_state()
    rng = random.Random(SEED)
    while state.current_player() == CHANCE:
        state.apply_action(state.chance_outcome(rng))
    with pytest.raises(TooManyActions):
        state.legal_actions(limit=LIST_LIMIT)
    action, legal = choose(state, rng)
    assert state.is_legal(action) and "plays" in legal and "e.g." in legal
    assert not isinstance(action, ChanceDealer)
