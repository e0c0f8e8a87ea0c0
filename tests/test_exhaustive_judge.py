"""Issue 38: verdicts that hold in every game. The exhaustive judge (`verifier/exhaustive/`) explores every state
reachable from every deal on small tables, stepping with the interpreter, and its verdicts take the symbolic
ones' place there; the symbolic verdicts rest on play or are unknown.

Each class of wrong verdict the issue names has a fixture written from its description (tests/fixtures/
judge-*.yaml); each test says the class and the rule it checks.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import sys
from pathlib import Path
from typing import Any

import pytest

from cheatdsl.cli import main
from cheatdsl.engine import Challenge, Game, Phase
from cheatdsl.engine.deal import deal_in_order
from cheatdsl.load import load_rulebook
from verifier.encoding.subject import Subject
from verifier.exhaustive.deals import deal_count, every_deal
from verifier.exhaustive.explore import explore
from verifier.properties.judging import Judging, Mode
from verifier.properties.settings import Settings
from verifier.properties.verdict import Result, Verdict
from verifier.runner import verify

sys.path.insert(0, str(Path(__file__).resolve().parent))

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SYMBOLIC = Settings(judging=Judging(Mode.NEVER))
WITH_JUDGE = Settings()


def _results(name: str, settings: Settings = WITH_JUDGE, *pids: str) -> dict[str, Result]:
    rb = load_rulebook(str(FIXTURES / f"{name}.yaml"))
    return {t.result.id: t.result for t in verify(rb, list(pids) or None, settings=settings)}


def _at(r: Result, n: int) -> dict[str, Any]:
    """The result's verdict and details at `n` players, as JSON."""
    by = r.details.get("by_players")
    if by:
        return by[str(n)]
    return {"verdict": r.verdict.value, "summary": r.summary, **r.details}


def _witnesses(r: Result) -> list[dict[str, Any]]:
    """The games a result holds (consistency's `witness` is a sentence about the deal, not a game)."""
    out = [r.details["witness"]] if "witness" in r.details else []
    out += [d["witness"] for d in r.details.get("by_players", {}).values() if "witness" in d]
    return [w for w in out if isinstance(w, dict)]


# -- the judge's own steps, held against plain enumeration ------------------------------------------------

def _tiny(tmp_path: Path, **changes: Any) -> Game:
    import yaml
    data = yaml.safe_load((FIXTURES / "judge-top-card.yaml").read_text())
    data.update(rulebook="tiny", players=2)
    data["challenge"]["reveal"] = "play"
    for section, fields in changes.items():
        data[section].update(fields)
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(data))
    return Game(load_rulebook(str(path)), 2)


def test_every_deal_is_enumerated_once(tmp_path: Path) -> None:
    """The judge's deals are every distinct table the dealing makes: dealing every order of the six cards'
    places gives the same set of tables as the judge's enumeration, each table once."""
    game = _tiny(tmp_path)
    by_permutation = set()
    for order in itertools.permutations(range(len(game.rules.table.deck))):
        st = game.new_initial_state()
        deal_in_order(st, list(order))
        by_permutation.add(st.position(False, False))
    judged = [d.state.position(False, False) for d in every_deal(game)]
    assert len(judged) == len(set(judged)) == deal_count(game, 10**6)
    assert set(judged) == by_permutation


def _plain_tree(game: Game) -> dict[str, Any]:
    """Every game of `game` by plain recursion over every legal action, without merging positions: the winners,
    the largest count a call judged true, and whether a seat was left with no legal action."""
    out: dict[str, Any] = {"winners": set(), "judged": 0, "stuck": False}
    seen_deals = set()
    for order in itertools.permutations(range(len(game.rules.table.deck))):
        st = game.new_initial_state()
        deal_in_order(st, list(order))
        key = st.position(False, False)
        if key in seen_deals:
            continue
        seen_deals.add(key)
        stack = [st]
        while stack:
            here = stack.pop()
            if here.phase is Phase.TERMINAL:
                r = here.result()
                assert r is not None
                if r.winner is not None and not r.capped:
                    out["winners"].add(r.winner)
                out["stuck"] |= r.ending.name == "NO_LEGAL_ACTION"
                continue
            for action in here.legal_actions():
                child = here.clone()
                child.apply_action(action)
                if isinstance(action, Challenge) and not child.records[-1].caught:
                    out["judged"] = max(out["judged"], child.records[-1].count)
                stack.append(child)
    return out


def test_the_judge_meets_what_plain_enumeration_meets(tmp_path: Path) -> None:
    """Merging states of the same position loses no game: on a table small enough to walk every game of
    (a turn cap of 4, one card a play), the judge finds the same winners and the same largest claim a call
    judges true as a plain walk over every game that does not merge anything."""
    game = _tiny(tmp_path, claim={"cards": 1}, ending={"turn_cap": 4})
    plain = _plain_tree(game)
    x = explore(game, 1_000_000)
    assert x.complete
    assert set(x.facts.wins) == plain["winners"]
    assert max((v[0] for v in x.facts.judged_true.values()), default=0) == plain["judged"]
    assert (x.facts.stuck is not None) == plain["stuck"]


def test_a_search_past_its_budget_stops_cleanly_and_decides_only_what_it_met(tmp_path: Path) -> None:
    """A budget is a clean "too large": the search stops, says why, and leaves the symbolic verdicts of what
    it did not see (winnability stays the symbolic verifier's) while a game it met still refutes."""
    game = _tiny(tmp_path)
    x = explore(game, 50)
    assert not x.complete and "more than 50 states" in x.stopped
    subject = Subject(game.rulebook)
    from verifier.exhaustive.decide import Judge
    judge = Judge(subject, 2, x)
    assert judge.decide("card-conservation") is None
    assert judge.decide("claim-threshold") is None


def test_the_judges_witnesses_replay_from_a_deal(tmp_path: Path) -> None:
    """Issue 38 point 5: every witness is a game from a deal the rulebook's dealing makes (a seed, or the deck
    in an order a shuffle gives, dealt by the rules), and the scenario runner replays it."""
    folder = tmp_path / "witnesses"
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        main(["verify", str(FIXTURES / "judge-top-card.yaml"), "--save-witnesses", str(folder)])
    files = sorted(folder.glob("*.yaml"))
    assert files
    for f in files:
        text = f.read_text()
        assert "position:" not in text, f.name
        assert "seed:" in text or "deck:" in text, f.name
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        assert main(["scenario", *map(str, files)]) == 0, sink.getvalue()[-2000:]


def test_verify_says_what_the_judge_decided_over() -> None:
    """`verify` uses the judge where the table is small and says so in the verdict."""
    r = _results("judge-top-card", Settings(), "no-deadlock")["no-deadlock"]
    assert r.verdict is Verdict.PROVED
    assert "decided over all" in r.summary and "states from" in r.summary
    assert r.details["judged_players"] == [2, 3]


# -- the classes of wrong verdicts, each from its description --------------------------------------------

def test_class_a_a_force_call_that_passes_cards_grows_hands() -> None:
    """Class (a): the only call is a Force (`test: hand`), which passes the card shown to the loser, so hands
    grow with no pile taken; the threshold the symbolic verifier read off the cards ("2 natural copies")
    is not what a call can judge true. The symbolic side now says unknown, and the judge decides."""
    sym = _results("judge-force-passes-cards", SYMBOLIC, "claim-threshold")["claim-threshold"]
    assert sym.verdict is Verdict.UNKNOWN
    judged = _results("judge-force-passes-cards", Settings(), "claim-threshold")["claim-threshold"]
    assert judged.verdict is Verdict.PROVED
    at2 = _at(judged, 2)
    assert at2["threshold"] > at2["most_matching_cards"] and "not sure to win" in at2["summary"]


def test_class_b_a_turn_start_win_ends_the_game_before_the_claim() -> None:
    """Class (b): two of the rank asked for win at the start of a turn, so a seat holding both never claims
    them: the largest claim a call can judge true is 1, not the 2 the deck allows."""
    sym = _results("judge-turn-start-win", SYMBOLIC, "claim-threshold")["claim-threshold"]
    assert sym.verdict is not Verdict.PROVED or all(
        _at(sym, n).get("threshold") == 1 for n in (2, 3) if _at(sym, n)["verdict"] == "proved")
    judged = _results("judge-turn-start-win", Settings(), "claim-threshold")["claim-threshold"]
    assert judged.verdict is Verdict.PROVED
    assert {_at(judged, n)["threshold"] for n in (2, 3)} == {1}


def test_class_c_a_call_that_turns_over_only_the_top_card() -> None:
    """Class (c): with `reveal: top_card` a call judges the top card, so a claim of more than the two copies
    survives a call; the judge reports both bounds and a warning, the symbolic side says unknown."""
    sym = _results("judge-top-card", SYMBOLIC, "claim-threshold")["claim-threshold"]
    assert sym.verdict is Verdict.UNKNOWN and "top card" in sym.summary
    judged = _at(_results("judge-top-card", Settings(), "claim-threshold")["claim-threshold"], 2)
    assert judged["threshold"] > 2 >= judged["most_matching_cards"]
    assert "not sure to win" in judged["summary"]


def test_class_d_no_call_is_ever_offered_when_every_play_ends_the_game() -> None:
    """Class (d): one card each and `out_check: at_once`: every play ends the game, so no call is offered and
    two seats never call at once; the symbolic verifier refuted challenge-priority from calls no game makes."""
    sym = _results("judge-one-card-at-once", SYMBOLIC, "challenge-priority")["challenge-priority"]
    assert sym.verdict is not Verdict.REFUTED
    judged = _results("judge-one-card-at-once", Settings(), "challenge-priority",
                      "claim-threshold")
    assert judged["challenge-priority"].verdict is Verdict.PROVED
    assert "no call is ever offered" in judged["challenge-priority"].summary
    assert judged["claim-threshold"].verdict is Verdict.REFUTED


@pytest.mark.parametrize("settings", [SYMBOLIC, Settings()], ids=["symbolic", "with-judge"])
def test_class_f_no_internal_error_where_the_only_call_is_barred(settings: Settings) -> None:
    """Class (f): the only challenge is allowed at 2 and 3 players; termination raised StopIteration at 4 and
    5, where the recurrent set's caught lie cannot be made. Every property now has a verdict at every count."""
    results = _results("judge-barred-call", settings)
    assert not [pid for pid, r in results.items() if r.verdict is Verdict.ERROR]
    term = results["termination"]
    assert _at(term, 4)["verdict"] == _at(term, 5)["verdict"] == "proved"


def test_class_f_no_internal_error_where_the_deal_puts_a_seat_out() -> None:
    """Class (f), found by the differential campaign (generated rulebook 2552): forced sets put a seat out at the
    deal, and challenge-priority's game had that seat call at once with another; it was never asked, no call was
    heard, and the verifier raised IndexError. The game is now sought among seats still in."""
    results = _results("judge-seat-out-at-deal", SYMBOLIC, "challenge-priority")
    assert results["challenge-priority"].verdict is Verdict.PROVED


def test_a_loop_played_by_bots_is_a_whole_position_met_twice() -> None:
    """Found by the differential campaign (generated rulebook 2937): a pass lets the last play be challenged
    again, and the games played by bots took a position where it still may for one where it no longer may
    (alike in hands, pile and claims), so the symbolic verifier refuted termination; the judge decides that every
    game from every deal ends. The loops are now keyed by the whole position, as the judge keys it."""
    sym = _results("judge-pass-reopens-the-window", SYMBOLIC, "termination")["termination"]
    assert sym.verdict is not Verdict.REFUTED
    judged = _results("judge-pass-reopens-the-window", Settings(), "termination")["termination"]
    assert _at(judged, 2)["verdict"] == "proved"


def test_class_g_a_seat_that_wins_at_its_first_turn_from_every_deal() -> None:
    """Class (g): a full hand of three wins at the start of a turn, so the first player wins at once from every
    deal; the symbolic verifier left winnability and termination unknown, the judge decides both."""
    sym = _results("judge-first-turn-win", SYMBOLIC, "winnability", "termination")
    assert sym["winnability"].verdict is not Verdict.PROVED
    judged = _results("judge-first-turn-win", Settings(), "winnability", "termination")
    assert judged["winnability"].verdict is Verdict.REFUTED and "seat 0 never wins" in judged["winnability"].summary
    assert judged["termination"].verdict is Verdict.PROVED


def test_class_d_a_missing_leader_after_an_outcome_no_game_makes() -> None:
    """Class (d) for round-rank: `next_player` names no seat only after a true claim, and no claim can be true
    (three cards or more a play, two copies a rank). The symbolic verifier refuted round-rank from the rule
    table alone; a refutation now needs a game that meets the gap, and the judge decides the table."""
    sym = _results("judge-round-gap-never-met", SYMBOLIC, "round-rank")["round-rank"]
    assert sym.verdict is Verdict.UNKNOWN and "may never happen in play" in sym.summary
    judged = _results("judge-round-gap-never-met", Settings(), "round-rank")["round-rank"]
    assert judged.verdict is Verdict.PROVED and "decided over all" in judged.summary


@pytest.mark.parametrize("settings", [SYMBOLIC, Settings()], ids=["symbolic", "with-judge"])
def test_class_d_a_missing_leader_is_refuted_by_a_game_that_meets_it(settings: Settings, tmp_path: Path) -> None:
    """Round-rank refuted stands on a game from a deal in which the rules name nobody to lead (the four of
    spades set aside at two players), and the scenario runner replays it, with the gap the game met."""
    r = _results("judge-round-gap-met", settings, "round-rank")["round-rank"]
    assert r.verdict is Verdict.REFUTED and "names no seat to lead" in r.summary
    (w,) = _witnesses(r)
    assert w["expect"]["rule_gaps"] == ["next_player"]
    from verifier.properties.witness import scenario_of
    scenario = scenario_of(w, str(FIXTURES / "judge-round-gap-met.yaml"), path=str(tmp_path / "gap.yaml"))
    path = tmp_path / "gap.yaml"
    path.write_text(scenario.to_yaml())
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        assert main(["scenario", str(path)]) == 0, sink.getvalue()[-2000:]


@pytest.mark.parametrize("name", ["judge-force-passes-cards", "judge-turn-start-win", "judge-top-card",
                                  "judge-one-card-at-once", "judge-barred-call", "judge-first-turn-win",
                                  "judge-round-gap-met"])
def test_class_e_every_witness_starts_from_a_deal(name: str) -> None:
    """Class (e): a witness starts from a deal the rulebook's dealing makes (a seed, or a deck order dealt by
    the rules), never from a table set by hand."""
    for r in _results(name).values():
        for w in _witnesses(r):
            assert "seed" in w["start"] or "deck" in w["start"], (r.id, w["start"])


# -- the differential campaign, a sample -------------------------------------------------------------------

@pytest.mark.parametrize("number", [1, 4, 11])
def test_the_symbolic_verdicts_agree_with_the_judge_on_generated_rulebooks(number: int, tmp_path: Path) -> None:
    """Issue 38 point 2, a sample of benchmarks/differential_campaign.py: at every player count of a small
    generated rulebook, where the symbolic verifier and the judge both decide, they agree, and neither fails."""
    from small_rulebooks import generate, text_of

    from verifier.differential import differ
    data = generate(number)
    path = tmp_path / f"{data['rulebook']}.yaml"
    path.write_text(text_of(data))
    tables = differ(load_rulebook(str(path)), 60_000, judge_seconds=60)
    assert [t.disagreements for t in tables if t.disagreements] == []
    assert [t.internal for t in tables if t.internal] == []
    assert any(t.judge.get("complete") for t in tables)


def test_the_campaigns_generator_covers_every_schema_field() -> None:
    """Issue 38 point 2: the generator draws every field of the JSON Schema away from the base rulebook."""
    from small_rulebooks import coverage, generate
    cov = coverage([generate(i) for i in range(120)])
    assert [f for f, share in cov.items() if share == 0] == []


def test_a_call_that_sees_only_the_top_card_is_a_located_warning(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 38 point 4: where a call judges only the top card, `verify` reports both figures and a located
    warning that a call on a claim past the cards is not sure to win (W507, on `challenge.reveal`)."""
    import json
    assert main(["verify", str(FIXTURES / "judge-top-card.yaml"), "-p", "claim-threshold", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)["rulebooks"][0]
    (warning,) = [w for w in report["warnings"] if w["code"] == "W507"]
    text = (FIXTURES / "judge-top-card.yaml").read_text().splitlines()
    line = int(warning["at"].split(":")[1])
    assert "reveal" in text[line - 1] and "top_card" in text[line - 1]
    assert "not sure to win" in warning["message"] and "no play holds more than 2" in warning["message"]
