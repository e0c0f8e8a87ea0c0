"""Ratings (issue 23, point 2): the ladder's fit, its skill index, the table figures in Ludii's words,
`cheatdsl rate` and `compare --rate` (point 3). Small samples; the timings are benchmarks/rate_speed.py's."""

from __future__ import annotations

import json
import random

import pytest

from cheatdsl.cli import main
from cheatdsl.rate.entrants import LADDER, strong_table
from cheatdsl.rate.fit import bootstrap, fit, interval
from cheatdsl.rate.ladder import rate, schedule
from cheatdsl.rate.matches import Match
from cheatdsl.rate.metrics import figures, position_shares


def _games(strengths: list[float], n: int, loser: bool, seed: int = 1) -> list[tuple[tuple[int, ...], int, bool]]:
    rng = random.Random(seed)
    table = tuple(range(len(strengths)))
    weights = [1 / g for g in strengths] if loser else strengths
    return [(table, rng.choices(table, weights=weights)[0], loser) for _ in range(n)]


@pytest.mark.parametrize("loser", [False, True])
def test_the_fit_recovers_the_order_of_strengths(loser: bool) -> None:
    """Issue 23: "fits multiplayer ratings (... a Bradley-Terry/Plackett-Luce fit)": from games drawn with
    known strengths 1, 2, 4, 8 (first choice of the winner; of the loser in last-holder-loses games)
    the fitted strengths come out in that order, near their ratios."""
    f = fit(_games([1, 2, 4, 8], 4000, loser), 4)
    ratios = [g / f.strengths[0] for g in f.strengths]
    assert ratios == sorted(ratios)
    assert 5.5 < ratios[3] < 10.5


def test_the_fit_does_not_depend_on_the_order_of_the_games() -> None:
    """A maximum-likelihood fit, unlike an online update: the same games in another order, the same ratings."""
    games = _games([1, 3, 2], 300, False)
    shuffled = games[:]
    random.Random(4).shuffle(shuffled)
    assert fit(games, 3).ratings == pytest.approx(fit(shuffled, 3).ratings, abs=1e-6)


def test_the_skill_index_is_zero_for_a_coin_flip_and_grows_with_skill() -> None:
    """Issue 23: a skill index "with ... 'a coin-flip game' at zero": equal wins give 0; a stronger top bot more."""
    table = (0, 1, 2, 3)
    even = [(table, i % 4, False) for i in range(400)]
    assert fit(even, 4).skill_index() == pytest.approx(0.0, abs=1e-6)
    assert fit(even, 4).spread() == pytest.approx(0.0, abs=1e-3)
    assert fit(_games([1, 1, 1, 3], 2000, False), 4).skill_index() < fit(_games([1, 1, 1, 30], 2000, False), 4).skill_index()


def test_bootstrap_intervals_hold_the_estimate() -> None:
    games = _games([1, 2, 4], 300, False)
    fits = bootstrap(games, 3, 50, random.Random(0))
    low, high = interval([f.skill_index() for f in fits])
    assert low <= fit(games, 3).skill_index() <= high


def test_the_round_robin_seats_every_group_in_every_rotation() -> None:
    """Issue 23: "plays a round robin of bots": with 6 entrants at 4 seats, 15 groups in 4 rotations."""
    seatings = schedule(6, 4, 60)
    assert len(set(seatings)) == 60
    assert all(len(set(s)) == 4 for s in seatings)
    assert strong_table(LADDER, 4) == LADDER[-4:]


def _match(first: int, winner: int = -1, loser: int = -1, turns: int = 10, settled: int = 5) -> Match:
    return Match((0, 1, 2), first, winner, loser, winner >= 0 or loser >= 0, turns, settled)


def test_table_figures_follow_ludiis_definitions() -> None:
    """Issue 23: "completion, decisiveness and balance in the words Ludii uses": Balance is one less the
    largest difference between two players' win rates; Completion the share of games with a result;
    DurationTurns the turns of a game; the first player's share counted from the seat that played first."""
    games = [_match(0, winner=0), _match(1, winner=1), _match(2, winner=0), _match(0, turns=40)]
    shares = position_shares(games, 3)
    assert shares == pytest.approx((2 / 3, 1 / 3, 0.0))  # positions from the first player: 0, 0, 1
    f = figures(games, 3)
    assert f.balance == pytest.approx(1 - 2 / 3)
    assert f.completion == pytest.approx(3 / 4)
    assert f.duration == pytest.approx(70 / 4)
    assert f.decisiveness == pytest.approx(0.5)


def test_a_last_holder_game_shares_not_losing() -> None:
    """In last-holder-loses games each seat's fair share is still 1/N: not losing, shared by the others."""
    assert position_shares([_match(0, loser=0)], 3) == pytest.approx((0.0, 0.5, 0.5))


def test_rate_prints_the_issues_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 23: "JSON keys: `skill_index` {value, low, high}, `ladder` [{bot, rating, low, high}],
    `seat_advantage`, `first_player_advantage`, `completion`, `duration`, `balance`, `decisiveness`"; issue 39:
    `skill_edge`, `luck_share` and `bluffing` (the lie share, lies caught, calls won and `lie_value`)."""
    assert main(["rate", "english-ascending", "--games", "24", "--samples", "10", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("skill_index", "rating_spread", "first_player_advantage", "completion", "duration", "balance",
                "decisiveness", "skill_edge", "luck_share"):
        assert set(out[key]) == {"value", "low", "high"}, key
    for key in ("lie_share", "lies_caught", "calls_won", "lie_value"):
        assert set(out["bluffing"][key]) == {"value", "low", "high"}, key
    assert sum(out["headline_games"].values()) == 12
    assert [e["bot"] for e in out["ladder"]] == [e.label for e in LADDER]
    assert all(set(e) == {"bot", "rating", "low", "high"} for e in out["ladder"])
    assert len(out["seat_advantage"]) == 4
    assert out["games"] == 24


def test_rate_refuses_bad_input_plainly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rate", "standard", "--players", "99"]) == 2
    assert "not 99" in capsys.readouterr().err
    assert main(["rate", "no-such-rulebook"]) == 1
    with pytest.raises(SystemExit) as exit_:
        main(["rate", "standard", "--games", "0"])
    assert exit_.value.code == 2


def test_the_games_are_the_same_whatever_the_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 23: `cheatdsl rate` "in minutes on two cores": `--jobs 2` plays the ladder's games in two
    processes, each game seeded by its index, so the matches and the report are those of `--jobs 1`."""
    from cheatdsl.engine import Game
    from cheatdsl.load import load_rulebook
    from cheatdsl.profiles import shipped_path
    from cheatdsl.rate.matches import play_matches

    game = Game(load_rulebook(str(shipped_path("english-ascending"))), 4, turn_cap=500)
    cheap = LADDER[:4]  # random, greedy, honest, counter
    seatings = schedule(len(cheap), 4, 12)
    ticks: list[int] = []
    one = play_matches(game, cheap, seatings, 3, jobs=1)
    two = play_matches(game, cheap, seatings, 3, jobs=2, progress=ticks.append)
    assert one == two and len(ticks) == 12
    assert len({m.winner for m in one}) > 1  # games that differ, not one game twelve times
    reports = []
    for jobs in ("1", "2"):
        assert main(["rate", "english-ascending", "--games", "8", "--samples", "10", "--format", "json",
                     "--jobs", jobs]) == 0
        reports.append(json.loads(capsys.readouterr().out))
    assert reports[0] == reports[1]
    with pytest.raises(SystemExit) as exit_:
        main(["rate", "standard", "--jobs", "0"])
    assert exit_.value.code == 2


def test_compare_rate_adds_the_ratings_rows(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 23, point 3: "`compare --rate` adds these rows side by side"."""
    assert main(["compare", "english-ascending", "standard", "--rate", "8", "--no-verify", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    text = json.dumps(out)
    for key in ("skill_index", "first_player_advantage", "balance", "decisiveness", "ladder"):
        assert f'"key": "{key}"' in text


def test_rate_plays_the_search_bots_playouts_on_the_compiled_engine_where_asked(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 23, "playouts by the compiled engine where it exists (or the Python engine)": `rate --engine
    compiled` plays the search bots' playouts on the kernel; without numba it is refused with the install
    hint, and `auto` says in one line that the playouts stay in Python."""
    import importlib.util

    from cheatdsl.compiled import cache
    from cheatdsl.load import load_rulebook
    from cheatdsl.profiles import shipped_path
    from cheatdsl.rate import rate

    if importlib.util.find_spec("numba") is not None:
        from cheatdsl.compiled.playouts import CompiledPlayouts
        playouts = CompiledPlayouts()
        # 16 games: too few for the headline tables, so the ladder alone (whose search bots are what is asked).
        report = rate(load_rulebook(str(shipped_path("english-ascending"))), 4, 16, samples=10, playouts=playouts)
        assert playouts.compiled > 0 and report.as_json()["games"] == 16 and report.headline is None
    monkeypatch.setattr(cache, "numba_available", lambda: False)
    assert main(["rate", "english-ascending", "--games", "4", "--samples", "10", "--engine", "compiled"]) == 2
    assert "pip install cheatdsl[compiled]" in capsys.readouterr().err
    assert main(["rate", "english-ascending", "--games", "8", "--samples", "10", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["games"] == 8
    assert captured.err.count("numba is not installed") == 1


def test_a_deal_is_played_in_every_rotation_of_its_entrants() -> None:
    """Issue 39, point 1, duplicate deals: the rotations of a group of entrants share one deal, so every entrant
    meets the same cards from every seat; the games' own bots draw apart. The intervals then resample deals."""
    import random as random_module

    from cheatdsl.engine import Game
    from cheatdsl.load import load_rulebook
    from cheatdsl.rate import matches as matches_module
    from cheatdsl.simulate.play import game_seed

    game = Game(load_rulebook("standard"), 3)

    def dealt(index: int, deal: int | None) -> list[list[int]]:
        rng = random_module.Random(game_seed(5, index) if deal is None
                                   else game_seed(5, deal, matches_module.DEAL_STREAM))
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcome(rng))
        return [list(state.hand(s)) for s in range(3)]

    assert dealt(0, 7) == dealt(1, 7) == dealt(2, 7)
    assert dealt(0, 7) != dealt(3, 8)
    assert dealt(0, None) != dealt(1, None)
    rating = rate(load_rulebook("standard-one-card-only"), 2, games=12, seed=1, samples=20,
                  ladder=LADDER[:3], playouts=None)
    assert rating.games == 12 and rating.skill_index.low <= rating.skill_index.value <= rating.skill_index.high


def test_duplicate_deals_give_the_same_report_whatever_the_jobs() -> None:
    """Issue 39, point 4: the same report for the same seed whatever --jobs, the deals shared by a rotation's
    games handed to the workers too."""
    from cheatdsl.load import load_rulebook

    rulebook = load_rulebook("standard-one-card-only")
    one = rate(rulebook, 2, games=12, seed=4, samples=10, ladder=LADDER[:3], playouts=None, jobs=1)
    two = rate(rulebook, 2, games=12, seed=4, samples=10, ladder=LADDER[:3], playouts=None, jobs=2)
    assert json.dumps(one.as_json(), sort_keys=True) == json.dumps(two.as_json(), sort_keys=True)
