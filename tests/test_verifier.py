"""The verifier's verdicts on the shipped rulebooks and on rulebooks broken on purpose (tests/fixtures/)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from functools import cache
from pathlib import Path

import pytest

from cheatdsl.cli import main
from cheatdsl.load import load_rulebook
from cheatdsl.properties import PROPERTY_IDS
from verifier.properties.registry import PENDING, properties
from verifier.report import RulebookReport
from verifier.runner import Timed, run_isolated, verify, verify_all
from verifier.solving.solver import ask, new_solver
from verifier.properties.verdict import Result, Verdict, proved, unknown

ROOT = Path(__file__).resolve().parents[1]
RULEBOOKS = ROOT / "rulebooks"
FIXTURES = ROOT / "tests" / "fixtures"

IMPLEMENTED = ("rank-cycle", "ranks-exist", "seat-fairness", "claim-threshold", "deal", "challenge-priority",
               "consistency", "round-rank")
DEFAULT = {pid: "proved" for pid in IMPLEMENTED} | {"round-rank": "not_applicable"}
SYSTEM = ("card-conservation", "discards", "no-deadlock", "turn-order", "termination", "winner", "winnability",
          "challenge-resolution")

# Verdicts that differ from DEFAULT, per shipped rulebook. The reasons:
#   first_caller ("whoever called first", standard and full rules): two calls at the same moment are
#     both first, so challenge-priority is refuted from three players (proved at two: one caller).
#   Mogeln: 52 exact cards in a fixed cycle meet 4, 6, 8 and 10 seats in step (seat-fairness), and with
#     an equal deal from five players up the ace of hearts can lie in the surplus (deal).
#   Free or round-by-round claims have no fixed sequence (seat-fairness not_applicable); games whose
#     rounds end get a round-rank verdict.
SHIPPED: dict[str, dict[str, str]] = {
    "bluffstopp": {"seat-fairness": "not_applicable", "round-rank": "proved"},
    "canadian-bluff-one-pack": {"seat-fairness": "not_applicable", "round-rank": "proved"},
    "canadian-bluff": {"seat-fairness": "not_applicable", "round-rank": "proved"},
    "english-ascending": {},
    "fujian": {"seat-fairness": "not_applicable"},
    "full-rules-bigger-claims": {"challenge-priority": "refuted"},
    "full-rules-free-choice": {"seat-fairness": "not_applicable", "challenge-priority": "refuted"},
    "full-rules-going-down": {"challenge-priority": "refuted"},
    "full-rules-up-down-same": {"seat-fairness": "not_applicable", "challenge-priority": "refuted"},
    "full-rules": {"challenge-priority": "refuted"},
    "mogeln": {"seat-fairness": "refuted"},
    "one-rank-a-round": {"seat-fairness": "not_applicable", "round-rank": "proved"},
    "practice-table": {},
    "standard-big-table": {"challenge-priority": "refuted"},
    "standard-count-of-three": {"challenge-priority": "refuted"},
    "standard-counting-down": {"challenge-priority": "refuted"},
    "standard-extra-cards": {"challenge-priority": "refuted"},
    "standard-nearest-left": {},
    "standard-one-card-only": {"challenge-priority": "refuted"},
    "standard-same-again": {"seat-fairness": "not_applicable", "challenge-priority": "refuted"},
    "standard-show-the-pile": {"challenge-priority": "refuted"},
    "standard-two-player-twelve-aside": {},
    "standard-two-player": {},
    "standard-up-or-down": {"seat-fairness": "not_applicable", "challenge-priority": "refuted"},
    "standard": {"challenge-priority": "refuted"},
    "verish-ne-verish-52": {"seat-fairness": "not_applicable", "round-rank": "proved"},
    "verish-ne-verish-skip": {"seat-fairness": "not_applicable", "round-rank": "proved"},
    "verish-ne-verish": {"seat-fairness": "not_applicable", "round-rank": "proved"},
}

SHIPPED_FILES = sorted(p.name for p in RULEBOOKS.iterdir() if p.suffix in (".yaml", ".cheat"))


FIXTURE_FILES = sorted(p.name for p in FIXTURES.iterdir() if p.suffix == ".yaml")


# Fixtures about the transition system get every property; the others only the checks of the tables.
SYSTEM_FIXTURES = ("dead-end-claims.yaml", "emptied-stays-in.yaml", "stops-after-last.yaml", "three-packs-wild-sets.yaml",
                   "turn-capped.yaml", "void-penalty.yaml")


@cache
def everything() -> dict[str, dict[str, Timed]]:
    """Every property of every shipped rulebook and fixture, verified in one run (children side by side)."""
    light = [pid for pid, prop in properties().items() if not prop.heavy]
    jobs = [(str(RULEBOOKS / name), None) for name in SHIPPED_FILES]
    jobs += [(str(FIXTURES / name), None if name in SYSTEM_FIXTURES else light) for name in FIXTURE_FILES]
    runs = verify_all([(load_rulebook(p), ids, None) for p, ids in jobs])
    return {p: {t.result.id: t for t in timed} for (p, _), timed in zip(jobs, runs)}


@cache
def results(path: str, variations: tuple[str, ...] = ()) -> dict[str, Timed]:
    if not variations and path in everything():
        return everything()[path]
    light = [pid for pid, prop in properties().items() if not prop.heavy]
    return {t.result.id: t for t in verify(load_rulebook(path, variations), light)}


def shipped(name: str) -> dict[str, Result]:
    """Results for a shipped rulebook, by file name (`standard.yaml`) or by profile (`standard`)."""
    file = name if Path(name).suffix else f"{name}.yaml"
    return {pid: t.result for pid, t in results(str(RULEBOOKS / file)).items()}


def fixture(name: str, *variations: str) -> dict[str, Result]:
    return {pid: t.result for pid, t in results(str(FIXTURES / f"{name}.yaml"), variations).items()}


def at(result: Result, players: int) -> dict:  # type: ignore[type-arg]
    """The details of a combined result at one player count (the same at every count when not split)."""
    assert players in result.details["players"]
    if "by_players" not in result.details:
        return {"verdict": result.verdict.value, **result.details}
    return result.details["by_players"][str(players)]  # type: ignore[no-any-return]


# English ascending (seed 000) -------------------------------------------------------------------------

def test_english_ascending_verdicts() -> None:
    r = shipped("english-ascending")
    assert {pid: r[pid].verdict.value for pid in IMPLEMENTED} == DEFAULT


def test_english_rank_cycle_is_a_to_k_and_back() -> None:
    """000: "the next player must claim the next rank up ... after kings come aces again"."""
    r = shipped("english-ascending")["rank-cycle"]
    assert r.details["sequence"] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def test_one_pack_five_is_a_certain_lie() -> None:
    """001: "with one deck a call of five is a sure lie"; the cap 1..4 forbids it as well."""
    r = shipped("english-ascending")["claim-threshold"]
    assert r.verdict is Verdict.PROVED
    assert (r.details["threshold"], r.details["certain_lie_from"]) == (4, 5)
    assert (r.details["copies_bound"], r.details["cap"]) == (4, 4)


def test_english_deal_three_players_18_17_17() -> None:
    """001: "three players hold 18/17/17, four hold 13 each"."""
    r = shipped("english-ascending")["deal"]
    assert at(r, 3)["hands"] == [18, 17, 17]
    assert at(r, 4)["hands"] == [13, 13, 13, 13]


def test_every_property_is_implemented() -> None:
    r = results(str(RULEBOOKS / "english-ascending.yaml"))
    assert PENDING == {}
    assert all(t.implemented for t in r.values())
    assert set(IMPLEMENTED) | set(SYSTEM) == set(PROPERTY_IDS)


def test_english_ascending_transition_system() -> None:
    """000 profile, as the verification notes expect: conservation, no deadlock, turn order, a winner and
    winnability proved; a caught lie repeated for ever refutes termination, with a witness."""
    r = shipped("english-ascending")
    verdicts = {pid: r[pid].verdict.value for pid in SYSTEM}
    assert verdicts == {"card-conservation": "proved", "discards": "not_applicable", "no-deadlock": "proved",
                        "turn-order": "proved", "termination": "refuted", "winner": "proved",
                        "winnability": "proved", "challenge-resolution": "proved"}
    for n in (3, 4, 5, 6):
        witness = at(r["termination"], n)["witness"]
        assert witness["expect"]["pile"] == 0 and "hand_sizes" in witness["expect"]
        assert len(at(r["winnability"], n)["witnesses"]) == n


# Every shipped rulebook ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", SHIPPED_FILES)
def test_shipped_rulebook_verdicts(name: str) -> None:
    r = shipped(name)
    for pid in IMPLEMENTED:
        assert r[pid].verdict is not Verdict.UNKNOWN, f"{pid}: {r[pid].summary}"
        json.dumps(r[pid].as_json())
    if Path(name).stem in SHIPPED:
        assert {pid: r[pid].verdict.value for pid in IMPLEMENTED} == DEFAULT | SHIPPED[Path(name).stem]


@pytest.mark.parametrize("name", SHIPPED_FILES)
def test_shipped_rulebook_meets_its_stated_expectations(name: str) -> None:
    rb = load_rulebook(str(RULEBOOKS / name))
    report = RulebookReport(name, rb, list(results(str(RULEBOOKS / name)).values()))
    assert [c for c in report.checks if c.status == "failed"] == []


@pytest.mark.parametrize("name", [n for n in SHIPPED_FILES if n.endswith(".cheat")])
def test_text_dsl_and_yaml_get_the_same_verdicts(name: str) -> None:
    yaml_twin = Path(name).with_suffix(".yaml").name
    if yaml_twin not in SHIPPED_FILES:
        pytest.skip(f"{name} has no YAML twin")
    cheat, yaml = shipped(name), shipped(yaml_twin)
    assert {pid: (r.verdict, r.summary) for pid, r in cheat.items()} == \
        {pid: (r.verdict, r.summary) for pid, r in yaml.items()}


def test_two_packs_eight_can_be_true() -> None:
    """001: "with two decks a call of up to eight can be true" (full rules: two decks from six players)."""
    r = shipped("full-rules")["claim-threshold"]
    assert at(r, 5)["threshold"] == 4
    assert at(r, 6)["threshold"] == 8 and at(r, 10)["certain_lie_from"] == 9


def test_canadian_bluff_eleven_is_the_largest_true_claim() -> None:
    """004: "Canadian jokers allow a true claim of up to eleven of one rank" (8 naturals forced out)."""
    r = shipped("canadian-bluff")["claim-threshold"]
    assert r.verdict is Verdict.PROVED
    assert (r.details["threshold"], r.details["certain_lie_from"]) == (11, 12)
    assert "7 naturals + 4 jokers" in r.summary
    assert any(rule.startswith("forced sets") for rule in r.details["binding_rules"])
    assert shipped("canadian-bluff-one-pack")["claim-threshold"].details["threshold"] == 7


@pytest.mark.parametrize("name", ["english-ascending", "canadian-bluff", "full-rules"])
def test_threshold_claim_is_shown_true_in_a_saved_game(name: str, tmp_path: Path) -> None:
    """001/004: the largest true claim ("with one deck four of a kind", Canadian jokers "up to eleven") is
    made at a table in a game the interpreter plays: `verify --save-witnesses` writes it as a scenario in
    which the claim is challenged and shown true, and the scenario runner passes it."""
    from cheatdsl.diagnostics import Diagnostics
    from cheatdsl.scenario import read_scenario, run
    status = main(["verify", "-p", "claim-threshold", str(RULEBOOKS / f"{name}.yaml"), "--save-witnesses",
                   str(tmp_path)])
    assert status == 0
    r = shipped(name)["claim-threshold"]
    thresholds = {at(r, n)["threshold"] for n in r.details["players"]}
    saved = sorted(tmp_path.glob("*claim-threshold*.yaml"))
    assert len(saved) == len(thresholds)  # one game for each distinct threshold
    for path in saved:
        scenario = read_scenario(str(path), Diagnostics())
        assert scenario is not None
        assert len(scenario.expect["revealed"]) in thresholds and scenario.expect["caught"] is False
        assert run(scenario).passed, path.read_text()
        # The runner checks the claim's truth: the same play expected caught fails.
        scenario.expect["caught"] = True
        assert not run(scenario).passed


def test_first_caller_is_not_determined_by_the_rules() -> None:
    """002: "whoever called first": two calls at the same moment leave the rules without an answer."""
    r = shipped("standard")["challenge-priority"]
    assert r.verdict is Verdict.REFUTED
    assert r.details["failing_players"] == list(range(3, 11))
    assert at(r, 2)["verdict"] == "proved"
    assert len(at(r, 3)["callers"]) >= 2
    assert shipped("standard-nearest-left")["challenge-priority"].verdict is Verdict.PROVED
    assert shipped("practice-table")["challenge-priority"].verdict is Verdict.PROVED


def test_mogeln_findings() -> None:
    """004 Mogeln: 52 cards in suit order meet four seats in step; the rulebook's guard covers an undealt ace."""
    r = shipped("mogeln")
    assert r["rank-cycle"].verdict is Verdict.PROVED and len(r["rank-cycle"].details["sequence"]) == 52
    assert r["seat-fairness"].details["failing_players"] == [4, 6, 8, 10]
    assert r["deal"].verdict is Verdict.PROVED, "first_player says who leads when the ace of hearts is not dealt"


def test_bluffstopp_rounds_end_after_the_aces() -> None:
    """004 bluffstopp: nothing follows an ace, so the round ends when everyone passes."""
    r = shipped("bluffstopp")["rank-cycle"]
    assert r.verdict is Verdict.PROVED
    assert r.details["round_closers"] == ["A♣", "A♦", "A♥", "A♠"]


# Rulebooks broken on purpose -------------------------------------------------------------------------

def test_skipping_cycle_is_caught_by_rank_cycle() -> None:
    r = fixture("skipping-cycle")["rank-cycle"]
    assert r.verdict is Verdict.REFUTED
    assert r.details["never_asked"] == ["2", "4", "6", "8", "10", "Q"]
    assert r.details["breaks_at"] == "2"


def test_unfair_seats_are_caught_by_seat_fairness() -> None:
    """001: "drop the kings and four players only ever claim three ranks each"."""
    r = fixture("unfair-seats")["seat-fairness"]
    assert r.verdict is Verdict.REFUTED
    assert r.details["failing_players"] == [3, 4, 6]
    four = at(r, 4)
    assert four["seat"] == "the first player" and four["gcd"] == 4
    met = [x for x in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"]
           if x not in four["never_asked"]["the first player"]]
    assert met == ["A", "5", "9"]
    assert at(r, 5)["verdict"] == "proved"


def test_unheld_first_card_is_caught_by_deal_not_by_check() -> None:
    assert main(["check", str(FIXTURES / "unheld-first-card.yaml")]) == 0
    r = fixture("unheld-first-card")
    assert r["deal"].verdict is Verdict.REFUTED
    assert r["deal"].details["failing_players"] == [3, 4, 5]
    assert at(r["deal"], 3)["card"] == "ace of hearts"
    assert r["consistency"].verdict is Verdict.PROVED  # some deal does hand the ace out


def test_a_dealt_fallback_makes_the_deal_whole(tmp_path: Path) -> None:
    """The same rulebook, with a rule for the ace of hearts lying aside, deals at every count."""
    text = (FIXTURES / "unheld-first-card.yaml").read_text().replace(
        "first_player: holder(ace of hearts)",
        "first_player: if dealt(ace of hearts) then holder(ace of hearts) else left(dealer)")
    path = tmp_path / "fallback.yaml"
    path.write_text(text)
    r = {t.result.id: t.result for t in verify(load_rulebook(str(path)), ["deal", "consistency"])}
    assert r["deal"].verdict is Verdict.PROVED, r["deal"].summary
    assert r["consistency"].verdict is Verdict.PROVED


def test_missing_rank_is_caught_by_ranks_exist() -> None:
    r = fixture("missing-rank")
    assert r["ranks-exist"].verdict is Verdict.REFUTED
    assert r["ranks-exist"].details["claim"] == "kings"
    assert r["rank-cycle"].verdict is Verdict.REFUTED and r["rank-cycle"].details["breaks_at"] == "Q"


def test_leaderless_round_is_caught_by_round_rank() -> None:
    r = fixture("leaderless-round")["round-rank"]
    assert r.verdict is Verdict.REFUTED
    assert r.details["failing_players"] == [3, 4]


def test_seat_counts_from_the_dealer_as_the_interpreter_reads_it(tmp_path: Path) -> None:
    """docs/language.md: `seat(n)` is the seat n places after the dealer, so `seat(4)` is a seat at any table."""
    from cheatdsl.engine import Game
    from cheatdsl.engine.context import facts_class
    from verifier.encoding.facts import SeatFacts

    rb = load_rulebook(str(FIXTURES / "leaderless-round.yaml"))
    game = Game(rb, 4)
    table = facts_class(game)
    for dealer in range(4):
        for k in range(9):
            assert SeatFacts(4, game.rules.step, dealer=dealer).seat(k) == table(None, dealer).seat(k)
    text = (FIXTURES / "leaderless-round.yaml").read_text().replace("holder(king of hearts)", "seat(4)")
    (tmp_path / "seat-four-leads.yaml").write_text(text)
    r = {t.result.id: t.result for t in verify(load_rulebook(str(tmp_path / "seat-four-leads.yaml")),
                                                ["round-rank", "seat-fairness"])}
    assert r["round-rank"].verdict is Verdict.PROVED, r["round-rank"].summary


def test_clashing_variations_name_their_lines() -> None:
    assert fixture("clashing-variations", "king-of-hearts-leads")["consistency"].verdict is Verdict.PROVED
    assert fixture("clashing-variations", "no-kings")["consistency"].verdict is Verdict.PROVED
    r = fixture("clashing-variations", "king-of-hearts-leads", "no-kings")["consistency"]
    assert r.verdict is Verdict.REFUTED
    clash = at(r, 4)["clash"]
    text = (FIXTURES / "clashing-variations.yaml").read_text().splitlines()
    lines = sorted(text[int(c["at"].split(":")[-2]) - 1].strip() for c in clash)
    assert lines == ["first_player: holder(king of hearts)", "ranks_used: 12"]


# The command line ------------------------------------------------------------------------------------

def test_cli_json_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(RULEBOOKS / "english-ascending.yaml"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (book,) = data["rulebooks"]
    assert [r["id"] for r in book["results"]] == list(PROPERTY_IDS)
    assert all(set(r) == {"id", "verdict", "summary", "details"} for r in book["results"])
    assert data["exit_status"] == 0

    # An expectation the verdict contradicts: exit 1.
    assert main(["verify", str(FIXTURES / "skipping-cycle.yaml"), "-p", "rank-cycle"]) == 1
    # A refutation the rulebook expects: exit 0.
    assert main(["verify", str(FIXTURES / "unfair-seats.yaml"), "-p", "seat-fairness", "-p", "rank-cycle"]) == 0
    # A refutation nobody expected: exit 1, the clash named in the output.
    assert main(["verify", str(FIXTURES / "clashing-variations.yaml"), "-V", "king-of-hearts-leads",
                 "-V", "no-kings", "--property", "consistency", "--players", "4"]) == 1
    out = capsys.readouterr().out
    assert "refuted" in out and "clashing-variations.yaml:34" in out and "clashing-variations.yaml:39" in out
    # Usage errors: exit 2.
    assert main(["verify", str(RULEBOOKS / "english-ascending.yaml"), "--players", "9"]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["verify", str(RULEBOOKS / "english-ascending.yaml"), "--property", "no-such-property"])
    assert exc.value.code == 2


def test_unknown_never_meets_an_expectation_of_proved() -> None:
    rb = load_rulebook(str(RULEBOOKS / "english-ascending.yaml"))
    report = RulebookReport("english", rb, [Timed(unknown("rank-cycle", "timeout"), True, 0.0)])
    assert report.problems == [f"rank-cycle: expected proved, got unknown ({report.checks[0].at})"]
    report = RulebookReport("english", rb, [Timed(proved("rank-cycle", "ok"), True, 0.0)])
    assert report.problems == []


def test_check_never_imports_z3() -> None:
    code = ("import sys; from cheatdsl.cli import main; "
            f"status = main(['check', {str(RULEBOOKS / 'english-ascending.yaml')!r}]); "
            "assert 'z3' not in sys.modules and 'verifier' not in sys.modules, 'z3 imported'; sys.exit(status)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


# Solver and runner ----------------------------------------------------------------------------------

def test_solver_reports_why_it_gave_up() -> None:
    import z3

    x, y, z = z3.Ints("x y z")
    s = new_solver(rlimit=100)
    s.add(x * x * x + y * y * y == z * z * z, x > 0, y > 0, z > 0)
    a = ask(s)
    assert a.unknown and a.reason


def test_heavy_check_is_killed_and_reads_unknown() -> None:
    def slow() -> Result:
        time.sleep(30)
        return proved("termination", "never reached")

    start = time.perf_counter()
    r = run_isolated("termination", slow, 0.3)
    assert time.perf_counter() - start < 5
    assert r.verdict is Verdict.UNKNOWN and "killed after" in r.summary
    fast = run_isolated("termination", lambda: proved("termination", "done", depth=3), 10)
    assert fast == proved("termination", "done", depth=3)
