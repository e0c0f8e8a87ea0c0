"""Issue 26 point 1: `simulate --games 1000000000000` makes its chunks as it plays them (flat memory),
and --games has a documented range checked when the arguments are read."""

from __future__ import annotations

import itertools

import pytest

from cheatdsl.cli import main
from cheatdsl.simulate.runner import MAX_GAMES, TALLIED_CHUNK, _chunks


def test_chunks_of_a_trillion_games_are_made_one_at_a_time() -> None:
    """Issue 26.1: the chunk ranges are not all built up front; the first ones come at once."""
    chunks = _chunks(MAX_GAMES, 2)
    assert not isinstance(chunks, (list, tuple))
    first = list(itertools.islice(chunks, 3))
    assert first == [(0, 500), (500, 1000), (1000, 1500)]
    # The compiled engine tallies its chunks itself: they may be larger, made one at a time all the same.
    tallied = _chunks(MAX_GAMES, 2, TALLIED_CHUNK)
    assert list(itertools.islice(tallied, 2)) == [(0, TALLIED_CHUNK), (TALLIED_CHUNK, 2 * TALLIED_CHUNK)]


def test_chunks_cover_every_game_once_in_order() -> None:
    """Game i is played once, in game order, whatever the chunk size."""
    for games, jobs in ((1, 1), (7, 2), (1001, 2), (4000, 1)):
        spans = list(_chunks(games, jobs))
        assert spans[0][0] == 0 and spans[-1][1] == games
        assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))


@pytest.mark.parametrize("games", [str(MAX_GAMES + 1), "0", "-5"])
def test_games_outside_the_range_are_a_usage_error(capsys: pytest.CaptureFixture[str], games: str) -> None:
    """Issue 26.1: --games is 1 to 10^12, checked before any game is played (exit 2, no traceback)."""
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "english-ascending", "--games", games])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--games" in err and "Traceback" not in err
