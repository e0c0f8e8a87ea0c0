"""Seat rotation in the exhaustive judge (issue 38: "reduced by symmetries that are sound (... seat rotation when
every seat is alike)"): where no formula read in play names a seat by its number, a state turned round the table
plays the same games turned (`cheatdsl/engine/turning.py`), so the judge explores one state of each turn
(`verifier/exhaustive/rotation.py`). Held here against the interpreter itself, game by game, and against the
judge without the reduction, verdict by verdict."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from cheatdsl.engine import Game, Phase, Position
from cheatdsl.engine.turning import turned
from cheatdsl.load import load_rulebook
from verifier.encoding.subject import Subject
from verifier.exhaustive.deals import deals_for_every_dealer
from verifier.exhaustive.decide import JUDGED, Judge, _rounds_to_come_back
from verifier.exhaustive.explore import explore
from verifier.exhaustive.rotation import seats_alike, turned_action, worth_turning
from verifier.exhaustive.witness import replayed

sys.path.insert(0, str(Path(__file__).resolve().parent))
import small_rulebooks  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(str(p) for p in (ROOT / "rulebooks").glob("*.yaml"))


def _generated(tmp_path: Path, numbers: range) -> list[str]:
    out = []
    for i in numbers:
        data = small_rulebooks.generate(i)
        path = tmp_path / f"{data['rulebook']}.yaml"
        path.write_text(small_rulebooks.text_of(data))
        out.append(str(path))
    return out


def _start(game: Game, seed: int) -> Position:
    """A deal's table as a position (hands, dealer, stock, cards aside, the seat to play)."""
    rng = random.Random(seed)
    st = game.new_initial_state()
    while st.is_chance_node():
        st.apply_action(st.chance_outcome(rng))
    return Position(tuple(tuple(st.hand_cards(s)) for s in range(game.players)), max(st.to_act, 0),
                    st.dealer or 0, stock=tuple(st.stock()), aside=tuple(st.aside()))


def _turn(p: Position, n: int, k: int) -> Position:
    return Position(tuple(p.hands[(i - k) % n] for i in range(n)), (p.to_play + k) % n, (p.dealer + k) % n,
                    stock=p.stock, aside=p.aside)


def _walk(game: Game, seed: int, k: int, steps: int = 60) -> int:
    """A random game from a deal's position and the same game turned `k` places, step by step: the legal actions
    and the positions correspond, turned. Returns the steps taken."""
    n = game.players
    start = _start(game, seed)
    if not all(start.hands):  # a seat dealt nothing (or only sets) is no position to start from
        return 0
    a, b = game.state_from_position(start), game.state_from_position(_turn(start, n, k))
    rng = random.Random(seed)
    for step in range(steps):
        assert turned(a.position(True, False), n, k) == b.position(True, False), (game.rulebook.name, seed, step)
        if a.phase is Phase.TERMINAL:
            return step
        if a.phase is Phase.PLAY and a.count_play_actions() > 2000:  # too many to list: counted, one drawn
            assert a.count_play_actions() == b.count_play_actions()
            action = a.sample_play(rng)
        else:
            actions = a.legal_actions()
            assert sorted(map(repr, (turned_action(x, n, k) for x in actions))) == sorted(
                map(repr, b.legal_actions())), (game.rulebook.name, seed, step)
            action = rng.choice(actions)
        a.apply_action(action)
        b.apply_action(turned_action(action, n, k))
    return steps


def test_a_position_turned_round_the_table_and_back_is_itself() -> None:
    game = Game(load_rulebook("standard"), 4)
    st = game.state_from_position(_start(game, 1))
    pos = st.position(True, True)
    assert turned(pos, 4, 0) is pos and turned(pos, 4, 4) is pos
    assert turned(turned(pos, 4, 1), 4, 3) == pos and turned(pos, 4, 1) != pos


def test_every_shipped_rulebook_whose_seats_are_alike_plays_the_same_games_turned() -> None:
    """Equivariance, shown by the interpreter: the same game from a deal turned one or more places."""
    walked = 0
    for path in SHIPPED:
        rb = load_rulebook(path)
        for n in sorted({rb.players.min, min(rb.players.max, rb.players.min + 1)}):
            game = Game(rb, n, turn_cap=400)
            if not seats_alike(game):
                continue
            for seed in range(2):
                walked += _walk(game, seed, 1 + seed % (n - 1))
    assert walked > 500


def test_generated_rulebooks_whose_seats_are_alike_play_the_same_games_turned(tmp_path: Path) -> None:
    checked = 0
    for path in _generated(tmp_path, range(200, 240)):
        rb = load_rulebook(path)
        for n in rb.players.counts():
            game = Game(rb, n, turn_cap=200)
            if seats_alike(game):
                checked += _walk(game, n, 1) > 0
    assert checked >= 20, checked


def test_a_formula_naming_a_seat_by_its_number_tells_seats_apart(tmp_path: Path) -> None:
    book = tmp_path / "seat-zero-leads.yaml"
    book.write_text("rulebook: seat-zero-leads\nextends: one-rank-a-round\nchallenge:\n  next_player: seat(0)\n")
    game = Game(load_rulebook(str(book)), 2)
    assert not seats_alike(game) and not worth_turning(game)
    assert seats_alike(Game(load_rulebook("one-rank-a-round"), 2))


def _small_turned_tables(tmp_path: Path, numbers: range) -> list[tuple[str, Subject, int]]:
    """The tables of generated rulebooks where the judge turns states and would run unasked (few deals)."""
    out = []
    for path in _generated(tmp_path, numbers):
        rb = load_rulebook(path)
        subject = Subject(rb, path)
        for n in rb.players.counts():
            try:
                game = subject.game(n)
            except ValueError:
                continue
            if worth_turning(game) and deals_for_every_dealer(game, 2001) <= 2000:
                out.append((path, subject, n))
    return out


def _verdicts(subject: Subject, n: int, turns: bool) -> tuple[dict[str, object], bool, int]:
    game = subject.game(n)
    out: dict[str, object] = {}
    complete, states = True, 0
    for origin in (False, True):
        x = explore(game, 8_000, origin=origin, turns=turns)
        complete, states = (x.complete, x.states) if not origin else (complete, states)
        judge = Judge(subject, n, x)
        for pid in JUDGED:
            if (pid == "seat-fairness") == origin:
                r = judge.decide(pid)
                out[pid] = None if r is None else (r.verdict.value, r.details.get("threshold"),
                                                   r.details.get("seats"), r.details.get("never_wins"),
                                                   "no_play" in r.details)
    return out, complete, states


@pytest.mark.parametrize("numbers", [range(0, 30), range(30, 60)])
def test_the_judge_turned_gives_the_verdicts_of_the_judge_unturned(tmp_path: Path, numbers: range) -> None:
    """The independent check of the reduction: at every table of generated rulebooks where the dealer is drawn
    by lot and seats are alike, each property's verdict (with its threshold, the seats that win, those that
    never do, and whether its game replays) is the same with and without it, wherever both searches decide."""
    tables = reduced = 0
    for path, subject, n in _small_turned_tables(tmp_path, numbers):
        plain, plain_done, plain_states = _verdicts(subject, n, False)
        turn, turn_done, turn_states = _verdicts(subject, n, True)
        for pid in plain:
            if plain[pid] is not None and turn[pid] is not None:
                assert plain[pid] == turn[pid], (path, n, pid, plain[pid], turn[pid])
            elif plain_done and turn_done:
                assert plain[pid] == turn[pid], (path, n, pid)
        assert not turn_done or not plain_done or turn_states <= plain_states
        tables += 1
        reduced += turn_done and plain_done and turn_states * 2 <= plain_states
    assert tables >= 10 and reduced >= 3, (tables, reduced)


def test_a_loop_met_in_a_turned_search_replays_back_to_its_position(tmp_path: Path) -> None:
    """Termination refuted by the judge turning states: the loop's game replays from its deal and comes back to
    the position it left, exactly (played round again, turned, where it came back turned)."""
    found = 0
    for path, subject, n in _small_turned_tables(tmp_path, range(200, 230)):
        game = subject.game(n)
        x = explore(game, 8_000, turns=True)
        if x.cycle is None:
            continue
        result = Judge(subject, n, x).decide("termination")
        assert result is not None and result.verdict.value == "refuted" and "witness" in result.details
        _, lead = x.path((x.cycle[0], None))
        deal, moves = x.path((x.cycle[1], x.cycle[2]))
        moves += _rounds_to_come_back(moves[len(lead):], n, x.cycle_turn)
        end, mid = replayed(game, None, deal, moves), replayed(game, None, deal, lead)
        assert end is not None and mid is not None
        assert end.position(False, False) == mid.position(False, False), (path, n, x.cycle_turn)
        found += 1
    assert found >= 3


def test_a_loop_that_comes_back_turned_is_made_again_turned_until_the_table_is_round() -> None:
    """A loop that comes back one place round a table of three is made twice more, its seats and the seat the lot
    picks turned one place, then two."""
    from cheatdsl.engine import ACCEPT, ChanceCaller
    loop = [(0, ACCEPT), (-1, ChanceCaller(2))]
    assert _rounds_to_come_back(loop, 3, 1) == [(1, ACCEPT), (-1, ChanceCaller(0)), (2, ACCEPT), (-1, ChanceCaller(1))]
    assert _rounds_to_come_back(loop, 4, 2) == [(2, ACCEPT), (-1, ChanceCaller(0))]
    assert _rounds_to_come_back(loop, 3, 0) == []
