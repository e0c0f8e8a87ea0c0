"""Issue 21 (sound verdicts): a verdict is about the games the rulebook allows from a legal deal, so a
shortcut may count on a rule only where play shows the rule can fire."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cheatdsl.load import load_rulebook
from verifier.runner import verify
from verifier.properties.verdict import Result, Verdict

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _verdicts(name: str, *pids: str) -> dict[str, Result]:
    return {t.result.id: t.result for t in verify(load_rulebook(str(FIXTURES / f"{name}.yaml")), list(pids))}


def test_seat_fairness_counts_no_pass_that_can_never_happen() -> None:
    """Issue 21 point 2, "a shortcut that assumes a rule can fire": passing is allowed only with an empty
    hand, which never happens, so the order never shifts and twelve ranks meet four seats in step. The old
    code counted a pass shift because `passing.allowed` is true and said *proved*."""
    r = _verdicts("sound-pass-never", "seat-fairness")["seat-fairness"]
    assert r.verdict is Verdict.REFUTED
    witness = r.details.get("witness") or next(iter(r.details.get("by_players", {}).values()), {}).get("witness")
    assert witness, "the refutation is shown by a game from a deal"


def test_claim_threshold_is_bounded_by_what_a_hand_can_hold() -> None:
    """Issue 21 point 3, "a witness from a position no deal can produce": two cards each, every other card
    set aside, nothing to draw, so no hand ever holds more than two cards. The old code answered 4 from a
    position where one seat holds four aces."""
    r = _verdicts("sound-two-card-hands", "claim-threshold")["claim-threshold"]
    assert r.verdict is Verdict.PROVED
    thresholds = {d["threshold"] for d in r.details.get("by_players", {}).values()} or {r.details["threshold"]}
    assert thresholds == {2}


def test_a_winnability_witness_expects_the_order_out_the_game_leaves(tmp_path: Path) -> None:
    """Issue 21 point 3, "every witness is a seeded deal ... followed by actions the engine accepts", and point 6
    (0 witness failures): where the last holder loses, the seat that wins goes out first, and another seat
    may go out at the start of its next turn (`turn_start_win`) once the winner's last play is accepted. The
    old witness expected `out: [winner]` and its scenario failed with `[0, 1]`; every winnability witness of
    the fixture now replays."""
    from cheatdsl.cli import main

    out = tmp_path / "witnesses"
    main(["verify", str(FIXTURES / "sound-out-at-turn-start.yaml"), "--players", "3", "-p", "winnability",
          "--save-witnesses", str(out)])
    files = sorted(out.glob("*.yaml"))
    assert len(files) == 3
    assert main(["scenario", *map(str, files)]) == 0


def test_a_per_value_conservation_query_without_an_answer_claims_nothing(monkeypatch: Any) -> None:
    """Issue 21 point 4 ("no internal error on any generated rulebook"; found by benchmarks/soundness_campaign.py,
    generated rulebooks 1088, 1172, 1204, 1208 and 1366): with jokers, conservation of each card class is
    checked apart, and a query that got no answer (a timeout: "canceled") was taken for a counterexample
    without a model, so five properties ended in `AttributeError` (an internal error). It is the solver's
    reason now, and the invariants claim nothing from that proof: every property reading them is unknown."""
    from verifier.encoding.spec import build_spec
    from verifier.properties import invariant
    from verifier.solving.solver import Answer, Status

    sp = build_spec(load_rulebook(str(FIXTURES / "three-packs-wild-sets.yaml")), 3)
    assert sp.joker_index is not None  # the jokers are kept apart, so the per-value query is asked
    assert invariant.houdini(sp).proved  # answered, the proof stands

    monkeypatch.setattr(invariant, "ask", lambda *_args, **_kw: Answer(Status.UNKNOWN, reason="canceled"))
    assert invariant._per_value(sp, True, None) == "canceled"

    monkeypatch.undo()  # the solver answers again; only the per-value proof goes without an answer
    monkeypatch.setattr(invariant, "_per_value", lambda *_args: "canceled")
    found = invariant.houdini(sp)
    assert found.unknown == "canceled" and not found.proved


def test_winnability_takes_games_where_a_seat_picks_up_cards_to_empty_its_hand(tmp_path: Path) -> None:
    """Issue 21 point 6 (unknown or bounded verdicts under 2%; the campaign's largest class was winnability):
    exactly two cards a play, thirteen cards each, a lost challenge draws one card. A seat empties its odd
    hand only after losing a challenge, which the scripted play and the model checker (plays without
    challenges) never show, and the bots' games missed seat 3: the old code answered `unknown`. A game
    steered towards each seat's win, with challenges, now shows every seat can win; each such game is a
    seeded deal and actions the interpreter replays as a scenario."""
    from cheatdsl.cli import main

    r = _verdicts("sound-two-card-plays", "winnability")["winnability"]
    assert r.verdict is Verdict.PROVED, r.summary
    assert "steered" in r.details["found_by"]
    out = tmp_path / "witnesses"
    main(["verify", str(FIXTURES / "sound-two-card-plays.yaml"), "-p", "winnability", "--save-witnesses", str(out)])
    files = sorted(out.glob("*.yaml"))
    assert len(files) == 4  # one game won by each seat
    assert main(["scenario", *map(str, files)]) == 0


def test_a_challenge_after_the_stock_runs_dry_costs_nothing(tmp_path: Path) -> None:
    """Issue 21 point 4, "a penalty that draws from a stock that runs dry (challenge-resolution
    `unknown`/`bounded`)" (generated rulebook 52 of benchmarks/soundness_campaign.py): a lost challenge draws
    one card, nothing once the stock is empty. The stock runs dry after some eighty challenges, far deeper than
    the model checker looks, so the old code answered `bounded`. Seeded games are now played looking for a
    challenge whose loser picks up nothing: refuted, with a game that replays from its deal."""
    from cheatdsl.cli import main

    r = _verdicts("sound-dry-stock-challenge", "challenge-resolution")["challenge-resolution"]
    assert r.verdict is Verdict.REFUTED, r.summary
    out = tmp_path / "witnesses"
    main(["verify", str(FIXTURES / "sound-dry-stock-challenge.yaml"), "-p", "challenge-resolution",
          "--save-witnesses", str(out)])
    files = sorted(out.glob("*.yaml"))
    assert len(files) == 1
    assert "stock: 0" in files[0].read_text()  # the loser picked up nothing because the stock was empty
    assert main(["scenario", str(files[0])]) == 0


def test_a_seat_going_out_at_its_turn_start_as_the_game_ends_keeps_its_cards() -> None:
    """Issue 21 point 6 (unknown or bounded under 2%; the campaign's `winner` class, generated rulebooks 38, 58,
    65 and 82): where the last holder loses and a seat with one card it may play goes out at the start of its
    turn (`turn_start_win`), the seat going out with only one other seat left keeps its card and the game ends.
    The lemma "a seat out holds nothing" is false there, so the old code dropped it and answered `bounded`;
    it is now asked only while the game goes on, and `winner` is proved. Seeded games agree: a seat out
    holds nothing until the game is over."""
    import random

    from cheatdsl.bots import make_bot
    from cheatdsl.engine import Game, Phase
    from verifier.properties.witness import dealt

    r = _verdicts("sound-out-at-turn-start", "winner")["winner"]
    at3 = r.details.get("by_players", {}).get("3", r.details)
    assert at3.get("verdict", r.verdict.value) == "proved", r.summary
    assert "while the game goes on" in r.summary

    game = Game(load_rulebook(str(FIXTURES / "sound-out-at-turn-start.yaml")), 3)
    kept = 0
    for seed in range(12):
        st = dealt(game, seed, seed % 3)
        bots = [make_bot("random", s, random.Random(f"{seed}/{s}")) for s in range(3)]
        while st.phase is not Phase.TERMINAL:
            if st.is_chance_node():
                st.apply_action(st.chance_outcome(random.Random(seed)))
                continue
            st.apply_action(bots[st.current_player()].act(st.view(st.current_player())))
            held = [st.hand_size(s) for s in st.order_out()]
            if st.phase is not Phase.TERMINAL:
                assert not any(held), f"game {seed}: a seat out holds cards while the game goes on"
            kept += any(held)
    assert kept, "some game ends with the seat going out keeping its card (the case the lemma now allows)"


def test_a_caught_lie_that_returns_every_hand_is_a_loop_found_in_play(tmp_path: Path) -> None:
    """Issue 21 point 6 (unknown or bounded under 2%; the campaign's `termination` class, generated rulebook 97):
    two seats, the pile goes back to a caught liar and the claim starts again. A lie of one card caught at
    once gives every hand back as it was, and the next seat can do the same: play can go round for ever. The
    old code found the recurrent set but no dealt game in it (`unknown`). Games steered so that every play is
    a lie and challenged now meet a whole position twice: refuted, with a game that replays from its deal."""
    from cheatdsl.cli import main

    r = _verdicts("sound-caught-lie-loop", "termination")["termination"]
    assert r.verdict is Verdict.REFUTED, r.summary
    out = tmp_path / "witnesses"
    main(["verify", str(FIXTURES / "sound-caught-lie-loop.yaml"), "-p", "termination", "--save-witnesses", str(out)])
    files = sorted(out.glob("*.yaml"))
    assert len(files) == 1
    assert main(["scenario", str(files[0])]) == 0


def test_round_rank_counts_no_gap_after_a_claim_nobody_can_make() -> None:
    """Issue 21 point 2, "shortcuts guarded by reachability": the lead rule gives nothing after kings, but
    the claims run aces to queens and back, so no round ever ends after kings. The old code read every
    claim of the table and said *refuted* ("after a round of K ... allows no claim"); a round only ends
    after a claim the claim graph reaches, so the lead is always defined."""
    r = _verdicts("sound-unclaimed-lead", "round-rank")["round-rank"]
    assert r.verdict is Verdict.PROVED, r.summary


def test_round_rank_still_finds_a_gap_after_a_claim_that_is_made(tmp_path: Path) -> None:
    """The guard takes out only claims nobody makes: with kings in the cycle the same lead gap refutes."""
    text = (FIXTURES / "sound-unclaimed-lead.yaml").read_text().replace(
        "follow: if previous == queens then aces else next(previous)", "follow: next(previous)")
    path = tmp_path / "kings-made.yaml"
    path.write_text(text.split("\nexpect:")[0] + "\n")
    (t,) = verify(load_rulebook(str(path)), ["round-rank"])
    assert t.result.verdict is Verdict.REFUTED and "after a round of K" in t.result.summary, t.result.summary


def test_claim_thresholds_witness_starts_from_a_seeded_deal() -> None:
    """Issue 21 point 3, "every witness is a seeded deal the rulebook's dealing can produce followed by
    actions the engine accepts": where a few hundred deals are likely to hand the first player the cards of
    the largest true claim (four aces of one pack, three seats), the witness starts from such a deal itself, and its
    scenario passes in the interpreter."""
    import os

    from cheatdsl.scenario import run
    from verifier.properties.witness import scenario_of

    path = Path(__file__).resolve().parents[1] / "rulebooks" / "english-ascending.yaml"
    rb = load_rulebook(str(path))
    (t,) = verify(rb, ["claim-threshold"], (3,))
    witness = t.result.details["witness"]
    assert "seed" in witness["start"] and "position" not in witness["start"], witness["start"]
    assert witness["summary"].endswith("(as dealt)")
    assert run(scenario_of(witness, os.path.abspath(path))).passed


def test_cards_for_the_threshold_game_come_from_a_deck_the_rules_deal() -> None:
    """Issue 21 point 3 and issue 38 point 5 ("witnesses are games"): where no searched deal gives the claimant
    the claim's cards, a seeded deck has cards exchanged between its places and is dealt by the rules, never a
    table edited by hand: the hands are what that deck deals, forced sets leave at the deal (no hand keeps
    one), and the first player is the one the rules name."""
    from cheatdsl.engine import ChanceDealer, Game
    from cheatdsl.engine.challenge import complete_sets
    from cheatdsl.engine.deal import deal_deck
    from verifier.properties.true_claim import _arranged

    rulebooks = Path(__file__).resolve().parents[1] / "rulebooks"
    forced = Game(load_rulebook(str(rulebooks / "canadian-bluff.yaml")), 4)
    made = _arranged(forced, 0, 0, 7, 4)
    assert not isinstance(made, str), made
    st, deck = made
    first = st.current_player()
    assert max(st.hand(first)[c] for c in st.required_claims()) >= 7 and st.hand(first)[forced.rules.joker] == 4
    assert all(not complete_sets(st, seat) for seat in range(4))
    again = forced.new_initial_state()
    again.apply_action(ChanceDealer(0))
    deal_deck(again, deck)
    assert again.position(False, True) == st.position(False, True)


def test_every_closed_form_verdict_says_what_it_rests_on() -> None:
    """Issue 38 point 3: "Every closed-form verdict names the play events it counts ... The details say what the
    verdict rests on." Seat fairness (a seat-claim cycle), claim-threshold, challenge-priority and round-rank,
    proved or refuted, each name theirs at every player count: the games from a deal, or the rule table Z3 read."""
    closed = ("seat-fairness", "claim-threshold", "challenge-priority", "round-rank", "winnability")
    seen = set()
    for name in ("standard", "verish-ne-verish", "full-rules-bigger-claims"):
        for t in verify(load_rulebook(name), list(closed)):
            r = t.result
            per = r.details.get("by_players") or {"all": {"verdict": r.verdict.value, **r.details}}
            for n, d in per.items():
                if d["verdict"] in ("proved", "refuted"):
                    assert d.get("rests_on"), (name, r.id, n, d["verdict"])
                    seen.add((r.id, d["verdict"]))
    assert {("challenge-priority", "refuted"), ("challenge-priority", "proved"), ("round-rank", "proved"),
            ("seat-fairness", "proved"), ("claim-threshold", "proved"), ("winnability", "proved")} <= seen
