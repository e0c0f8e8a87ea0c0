"""The shipped rulebooks: each checks clean and compiles to the facts its source states.

Seeds are cited by number and section: 000 English ascending, 001 the standard sheet and its
companions, 002 full rules, 003 the practice table, 004 the encyclopedia article.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from pathlib import Path
from typing import Any

import pytest

from cheatdsl.cards import ClaimSpace, Table, as_claims
from cheatdsl.load import compile_rulebook
from cheatdsl.model import (
    AfterLast,
    ChallengeTest,
    ClaimKind,
    CountRule,
    DealerChoice,
    DealStyle,
    EmptiedBySets,
    EndStyle,
    OutCheck,
    PenaltyKind,
    PileAfter,
    Priority,
    Reveal,
    RoundEnd,
    Rulebook,
    SetMode,
    ShortStock,
    Surplus,
    Window,
)

RULEBOOKS = Path(__file__).resolve().parents[1] / "rulebooks"
SHIPPED = sorted(p for p in RULEBOOKS.iterdir() if p.suffix in (".yaml", ".cheat"))
RULE_SECTIONS = ("players", "deck", "deal", "setup", "claim", "passing", "challenge", "sets", "ending")
STANDARD_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


# --- helpers -----------------------------------------------------------------------------------


def load(name: str, *variations: str) -> Rulebook:
    """The compiled rulebook `name` from rulebooks/, with `variations` on; fails on any diagnostic."""
    rb, d = compile_rulebook(str(RULEBOOKS / name), variations)
    assert rb is not None and not d.items, d.render()
    return rb


def codes(name: str, *variations: str) -> set[str]:
    """The diagnostic codes of compiling `name` with `variations`."""
    _, d = compile_rulebook(str(RULEBOOKS / name), variations)
    return {x.code for x in d.items}


def hands(rb: Rulebook, players: int) -> tuple[tuple[int, ...], int]:
    """Cards dealt to each seat from the dealer's left, and cards left over."""
    sizes = Table(rb, players).hand_sizes()
    assert not isinstance(sizes, str), sizes
    return sizes


class Facts:
    """A formula context: named values as attributes, the claim functions of a table as methods."""

    def __init__(self, rb: Rulebook | None = None, players: int = 4, **values: Any) -> None:
        self.players = players
        if rb is not None:
            space = ClaimSpace(Table(rb, players))
            self.all_claims = space.all_claims
            self.next_claim = space.next_claim
            self.prev_claim = space.prev_claim
            self.above = space.above
            self.below = space.below
        for key, value in values.items():
            setattr(self, key, value)

    def left(self, seat: int) -> int:
        return (seat + 1) % self.players

    def right(self, seat: int) -> int:
        return (seat - 1) % self.players

    def seat(self, number: int) -> int:
        return number % self.players


def rank(rb: Rulebook, symbol: str) -> int:
    """A rank's claim value: its place in the deck's rank list."""
    return [r.symbol for r in rb.deck.ranks].index(symbol)


def card(rb: Rulebook, symbol: str, suit: str) -> int:
    """An exact card's claim value."""
    return [s.name for s in rb.deck.suits].index(suit) * len(rb.deck.ranks) + rank(rb, symbol)


def ranks_of(rb: Rulebook, claims: object) -> set[str]:
    """Rank symbols of a claim formula's result."""
    return {rb.deck.ranks[v].symbol for v in as_claims(claims)}


def first_claims(rb: Rulebook, players: int = 4) -> set[str]:
    return ranks_of(rb, rb.claim.first.code(Facts(rb, players)))


def claims_after(rb: Rulebook, previous: str, players: int = 4) -> set[str]:
    """Ranks `claim.follow` allows after a claim of `previous`."""
    return ranks_of(rb, rb.claim.follow.code(Facts(rb, players, previous=rank(rb, previous))))


def differences(a: object, b: object, path: str = "") -> set[str]:
    """Dotted names of the compared fields where two model values differ."""
    if a == b:
        return set()
    if (dataclasses.is_dataclass(a) and type(a) is type(b) and type(a).__name__ != "Formula"):
        out: set[str] = set()
        for f in dataclasses.fields(a):  # type: ignore[arg-type]
            if f.compare:
                out |= differences(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}" if path else f.name)
        return out
    return {path}


def rule_differences(a: Rulebook, b: Rulebook) -> set[str]:
    """Where the rules of two compiled rulebooks differ (names, sources and expectations aside)."""
    out: set[str] = set()
    for section in RULE_SECTIONS:
        out |= differences(getattr(a, section), getattr(b, section), section)
    return out


def expectations(rb: Rulebook) -> dict[str, str]:
    return {e.property: e.verdict for e in rb.expectations}


def _yaml_line(text: str, dotted: str) -> str | None:
    """The line of a YAML file holding the key at `dotted` (block style, two-space nesting)."""
    want = dotted.split(".")
    stack: list[tuple[int, str]] = []
    for line in text.splitlines():
        m = re.match(r"^(\s*)([A-Za-z_][\w-]*):", line)
        if not m:
            continue
        indent = len(m.group(1))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, m.group(2)))
        if [k for _, k in stack] == want:
            return line
    return None


# --- every rulebook ----------------------------------------------------------------------------


def test_rulebooks_are_shipped() -> None:
    """Catalogue §2: ten profiles, most with house-rule files beside them."""
    assert len(SHIPPED) >= 10


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_rulebook_checks_clean(path: Path) -> None:
    """Every shipped rulebook compiles with no error and no warning."""
    rb, d = compile_rulebook(str(path))
    assert rb is not None and not d.items, d.render()


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_rulebook_names_its_seed(path: Path) -> None:
    """Each rulebook says which seed it follows, and is named after its file."""
    rb = load(path.name)
    assert re.search(r"[Ss]eed 00[0-4]", rb.source)
    assert rb.name == path.stem


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_variation_offered_compiles_clean(path: Path) -> None:
    """Each variation a rulebook offers can be switched on without a problem, unless it clashes with one in use."""
    rb = load(path.name)
    active = set(rb.active_variations)
    for v in rb.variations:
        if not active & set(v.conflicts):
            load(path.name, v.name)


TWINS = [p for p in SHIPPED if p.suffix == ".cheat" and p.with_suffix(".yaml").is_file()]


@pytest.mark.parametrize("path", TWINS, ids=lambda p: p.name)
def test_text_form_matches_yaml_form(path: Path) -> None:
    """A rulebook shipped in both surface forms says the same rules and expects the same verdicts."""
    text, yaml_form = load(path.name), load(path.with_suffix(".yaml").name)
    assert rule_differences(yaml_form, text) == set()
    assert expectations(yaml_form) == expectations(text)


@pytest.mark.parametrize("base", ["standard.yaml", "full-rules.yaml", "verish-ne-verish.yaml", "canadian-bluff.yaml"])
def test_conflicts_are_declared_both_ways(base: str) -> None:
    """A clash between two variations is named on both sides, so the order they are asked in does not matter."""
    rb = load(base)
    table = {v.name: set(v.conflicts) for v in rb.variations}
    for name, others in table.items():
        for other in others:
            assert other in table, f"{name} names an unknown variation {other}"
            assert name in table[other], f"{other} does not name {name}"


# Catalogue §3: where the sources are silent, the rulebook decides out loud.
OPEN_DECISIONS = [
    ("mogeln.yaml", "deck.suits"),                 # the order of the suits after hearts
    ("mogeln.yaml", "claim.after_last"),           # what is claimed after the last king
    ("mogeln.yaml", "challenge.next_player"),      # who plays next after a challenge
    ("mogeln.yaml", "passing.allowed"),            # whether a player may pass
    ("verish-ne-verish.yaml", "claim.first"),      # who names the round's rank
    ("verish-ne-verish.yaml", "claim.cards"),      # how many cards a play may hold
    ("verish-ne-verish.yaml", "ending.style"),     # a loser or a winner
    ("canadian-bluff.yaml", "deck.ranks_used"),    # how many ranks for a given table
    ("canadian-bluff.yaml", "ending.out_check"),   # whether the last play of a player going out may be challenged
    ("canadian-bluff.yaml", "ending.style"),       # what the single loser means with three left
    ("one-rank-a-round.yaml", "ending.out_check"),  # what a player with an empty hand does
    ("one-rank-a-round.yaml", "deal.surplus"),     # the cards beyond equal hands
    ("fujian.yaml", "deck.packs"),                 # how many packs
    ("fujian.yaml", "claim.cards"),                # how many cards a play may hold
    ("fujian.yaml", "ending.out_check"),           # 004's standard game ends at once; we keep the window
    ("canadian-bluff.yaml", "ending.emptied_by_sets"),    # a caught player whose pickup leaves only sets
    ("verish-ne-verish.yaml", "ending.emptied_by_sets"),  # the same, with the optional discard of four
    ("bluffstopp.yaml", "challenge.penalty.short_stock"),  # a draw penalty the stock cannot fill
]


@pytest.mark.parametrize("name,key", OPEN_DECISIONS, ids=lambda x: x)
def test_silent_points_are_decided_out_loud(name: str, key: str) -> None:
    """Catalogue §3: each point the sources leave open is an explicit rule marked as the project's choice."""
    line = _yaml_line((RULEBOOKS / name).read_text(encoding="utf-8"), key)
    assert line is not None, f"{name} does not state {key}"
    assert "project's choice" in line


def test_every_rulebook_with_sets_decides_a_hand_emptied_by_sets() -> None:
    """004 (Canadian bluff, Verish' Ne Verish'): sets leave the game after a pickup, and the sources are
    silent on a hand the discard empties; each rulebook with `sets:` states `ending.emptied_by_sets` as
    the project's choice, and chooses `out`, so the player is never left to play with nothing."""
    with_sets = [p for p in RULEBOOKS.glob("*.yaml") if _yaml_line(p.read_text(encoding="utf-8"), "sets")]
    assert {p.name for p in with_sets} >= {"canadian-bluff.yaml", "verish-ne-verish.yaml"}
    for path in with_sets:
        line = _yaml_line(path.read_text(encoding="utf-8"), "ending.emptied_by_sets")
        assert line is not None and "project's choice" in line, path.name
        rb = load(path.name)
        assert rb.ending.emptied_by_sets is EmptiedBySets.OUT


# --- 1. English ascending (seed 000) -----------------------------------------------------------


def test_english_three_to_six_players_one_pack() -> None:
    """Seed 000 §02: three to six players share a single pack of 52, no jokers."""
    rb = load("english-ascending.yaml")
    assert rb.players.counts() == range(3, 7)
    for n in rb.players.counts():
        assert len(Table(rb, n).deck) == 52
    assert rb.deck.jokers == 0


def test_english_uneven_hands_stay() -> None:
    """Seed 000 §02: every card dealt, hands differing by one are fine (18/17/17 for three)."""
    rb = load("english-ascending.yaml")
    assert hands(rb, 3) == ((18, 17, 17), 0)
    assert hands(rb, 4) == ((13, 13, 13, 13), 0)


def test_english_dealers_left_leads_aces_and_kings_wrap_to_aces() -> None:
    """Seed 000 §02: the dealer's left starts with aces; the order runs A..K then A again."""
    rb = load("english-ascending.yaml")
    assert rb.setup.first_player.canonical == "left(dealer)"
    assert first_claims(rb) == {"A"}
    assert claims_after(rb, "7") == {"8"}
    assert claims_after(rb, "K") == {"A"}


def test_english_one_to_four_cards_exact_count_no_passing() -> None:
    """Seed 000 §03: 1-4 cards, the count is true, passing is forbidden."""
    rb = load("english-ascending.yaml")
    assert (rb.claim.min_cards, rb.claim.max_cards) == (1, 4)
    assert rb.claim.count is CountRule.EXACT
    assert not rb.passing.allowed


def test_english_challenge_tests_latest_play_first_clockwise_wins_priority() -> None:
    """Seed 000 §04: only the latest group is inspected; the loser takes the pile; priority is first clockwise."""
    rb = load("english-ascending.yaml")
    c = rb.challenge
    assert c.reveal is Reveal.PLAY and not c.show_pile
    assert c.penalty.kind is PenaltyKind.TAKE_PILE
    assert c.priority is Priority.FIRST_CLOCKWISE
    assert c.window is Window.BEFORE_NEXT_PLAY


def test_english_claimants_left_plays_next_after_a_challenge() -> None:
    """Seed 000 §06: B challenged A and still the seat after A plays next, claiming the next rank."""
    rb = load("english-ascending.yaml")
    seat = rb.challenge.next_player.code(Facts(players=4, claimant=0, challenger=1, winner=1, loser=0, caught=True))
    assert seat == 1
    assert rb.claim.round_ends == frozenset()


def test_english_last_play_must_survive() -> None:
    """Seed 000 §05: the first to empty the hand wins once the last play is accepted or proved true."""
    rb = load("english-ascending.yaml")
    assert rb.ending.style is EndStyle.FIRST_OUT
    assert rb.ending.out_check is OutCheck.AFTER_WINDOW


def test_english_expects_an_endless_play() -> None:
    """Verification notes: a caught lie repeated for ever never ends English ascending."""
    e = expectations(load("english-ascending.yaml"))
    assert e["termination"] == "refuted"
    assert e["claim-threshold"] == "proved"


# --- 2. The standard sheet (seed 001) ----------------------------------------------------------

STANDARD_VARIATIONS = {
    "big-table": {"deck.packs"},
    "counting-down": {"claim.follow"},
    "up-or-down": {"claim.follow"},
    "same-again": {"claim.follow"},
    "one-card-only": {"claim.max_cards"},
    "extra-cards": {"claim.count"},
    "show-the-pile": {"challenge.show_pile"},
}


def test_standard_two_to_ten_players_one_deck() -> None:
    """Seed 001, source note (after Pagat): a single 52-card pack for two up to ten players."""
    rb = load("standard.yaml")
    assert rb.players.counts() == range(2, 11)
    for n in rb.players.counts():
        assert len(Table(rb, n).deck) == 52


def test_standard_hand_sizes() -> None:
    """Seed 001, Table rulings row 8: three players hold 18, 17 and 17; four hold 13 each."""
    rb = load("standard.yaml")
    assert hands(rb, 3) == ((18, 17, 17), 0)
    assert hands(rb, 4) == ((13,) * 4, 0)


def test_standard_one_card_or_more() -> None:
    """Seed 001, Common questions: at least one card a turn, no cap, the number announced honestly, no passing."""
    rb = load("standard.yaml")
    assert (rb.claim.min_cards, rb.claim.max_cards) == (1, None)
    assert rb.claim.count is CountRule.EXACT
    assert not rb.passing.allowed


def test_standard_ranks_climb_and_wrap() -> None:
    """Seed 001, Common questions rows 3-4: the order climbs from aces through kings, then starts over."""
    rb = load("standard.yaml")
    assert first_claims(rb) == {"A"}
    assert claims_after(rb, "10") == {"J"}
    assert claims_after(rb, "K") == {"A"}
    assert rb.claim.after_last is AfterLast.WRAP


def test_standard_one_deck_makes_a_call_of_five_a_sure_lie() -> None:
    """Seed 001, Table rulings row 6: a single pack has four of each rank, so five is always a lie."""
    rb = load("standard.yaml")
    assert all(Table(rb, n).copies == 4 for n in rb.players.counts())


def test_standard_order_unchanged_after_a_challenge() -> None:
    """Seed 001, Table rulings row 4: seat order and rank order carry on, whoever collected the pile."""
    rb = load("standard.yaml")
    for caught in (True, False):
        facts = Facts(players=5, claimant=2, challenger=4, winner=4 if caught else 2,
                      loser=2 if caught else 4, caught=caught)
        assert rb.challenge.next_player.code(facts) == 3
    assert rb.claim.round_ends == frozenset()


def test_standard_challenge_window_and_reveal() -> None:
    """Seed 001, Table rulings rows 1-2: challenges close at the following play; only the newest play is shown."""
    rb = load("standard.yaml")
    assert rb.challenge.window is Window.BEFORE_NEXT_PLAY
    assert rb.challenge.reveal is Reveal.PLAY and not rb.challenge.show_pile


def test_standard_final_play_must_survive() -> None:
    """Seed 001, Table rulings row 5: a false last play sends the pile back and play goes on."""
    rb = load("standard.yaml")
    assert rb.ending.out_check is OutCheck.AFTER_WINDOW


def test_standard_uses_no_variation_by_default() -> None:
    """Seed 001, Variations row 1: the plain sheet plays with every variation off."""
    rb = load("standard.yaml")
    assert rb.active_variations == ()
    assert {v.name for v in rb.variations} == set(STANDARD_VARIATIONS)


def test_big_table_two_decks_at_five() -> None:
    """Seed 001, Variations row 2: a double deck from five players up, so eight copies of each rank."""
    rb = load("standard-big-table.yaml")
    assert len(Table(rb, 4).deck) == 52
    assert len(Table(rb, 5).deck) == 104
    assert Table(rb, 5).copies == 8


def test_counting_down_after_aces_come_kings() -> None:
    """Seed 001, Variations row 3: ranks called downward, so kings follow aces."""
    rb = load("standard-counting-down.yaml")
    assert first_claims(rb) == {"A"}
    assert claims_after(rb, "A") == {"K"}
    assert claims_after(rb, "J") == {"10"}
    assert claims_after(rb, "2") == {"A"}


def test_up_or_down_after_tens_jacks_or_nines() -> None:
    """Seed 001, Variations row 4: after two 10s, jacks or 9s."""
    rb = load("standard-up-or-down.yaml")
    assert claims_after(rb, "10") == {"9", "J"}


def test_same_again_after_tens_nines_tens_or_jacks() -> None:
    """Seed 001, Variations row 5: after two 10s, 9s, 10s or jacks."""
    rb = load("standard-same-again.yaml")
    assert claims_after(rb, "10") == {"9", "10", "J"}


def test_one_card_only() -> None:
    """Seed 001, Variations row 6: plays limited to one card."""
    rb = load("standard-one-card-only.yaml")
    assert (rb.claim.min_cards, rb.claim.max_cards) == (1, 1)


def test_extra_cards_may_be_slipped_in() -> None:
    """Seed 001, Variations row 7: hidden cards beyond the number announced are allowed, and a challenge exposes them."""
    rb = load("standard-extra-cards.yaml")
    assert rb.claim.count is CountRule.EXTRA_ALLOWED


def test_show_the_pile() -> None:
    """Seed 001, Variations row 8: the collected pile is exposed to everyone before pickup."""
    assert load("standard-show-the-pile.yaml").challenge.show_pile


@pytest.mark.parametrize("variation", sorted(STANDARD_VARIATIONS))
def test_standard_house_rule_differs_only_where_its_variation_says(variation: str) -> None:
    """Seed 001, Variations: each small file is the standard sheet with one variation, and nothing else."""
    base = load("standard.yaml")
    house = load(f"standard-{variation}.yaml")
    assert house.active_variations == (variation,)
    assert rule_differences(base, house) == STANDARD_VARIATIONS[variation]
    assert rule_differences(load("standard.yaml", variation), house) == set()


STANDARD_CONFLICTS = [("one-card-only", "extra-cards"), ("counting-down", "up-or-down"),
                      ("counting-down", "same-again"), ("up-or-down", "same-again")]


@pytest.mark.parametrize("a,b", STANDARD_CONFLICTS)
def test_standard_clashing_variations_are_refused(a: str, b: str) -> None:
    """Seed 001, Variations: one card only and extra cards clash, and so do the three rank orders (E305)."""
    assert "E305" in codes("standard.yaml", a, b)
    assert "E305" in codes("standard.yaml", b, a)


def test_standard_compatible_variations_combine() -> None:
    """Seed 001, Variations row 1: the table says which are in play; those that do not clash combine."""
    rb = load("standard.yaml", "big-table", "counting-down", "extra-cards", "show-the-pile")
    assert claims_after(rb, "A", players=6) == {"K"}
    assert Table(rb, 6).copies == 8
    clashing = {frozenset(p) for p in STANDARD_CONFLICTS}
    for a, b in itertools.combinations(sorted(STANDARD_VARIATIONS), 2):
        if frozenset((a, b)) not in clashing:
            load("standard.yaml", a, b)


def test_two_player_game_26_each() -> None:
    """Seed 001, Cheat with 2 players row 1: the standard game for two, the whole deck dealt, 26 each."""
    rb = load("standard-two-player.yaml")
    assert (rb.players.min, rb.players.max) == (2, 2)
    assert hands(rb, 2) == ((26, 26), 0)
    assert rule_differences(load("standard.yaml"), rb) == {"players.max"}


def test_two_players_split_the_ranks_then_swap() -> None:
    """Seed 001, Cheat with 2 players row 2: one calls A, 3 ... K, the other 2, 4 ... Q, then they swap."""
    rb = load("standard-two-player.yaml")
    calls = [rank(rb, "A")]
    for _ in range(25):
        calls.append(rb.claim.follow.code(Facts(rb, 2, previous=calls[-1])))
    symbols = [rb.deck.ranks[c].symbol for c in calls]
    assert symbols[0:13:2] == ["A", "3", "5", "7", "9", "J", "K"]
    assert symbols[1:13:2] == ["2", "4", "6", "8", "10", "Q"]
    assert symbols[13::2] == ["A", "3", "5", "7", "9", "J", "K"]  # the second seat's turn now
    assert symbols[14::2] == ["2", "4", "6", "8", "10", "Q"]


def test_two_player_twelve_aside_20_each() -> None:
    """Seed 001, Cheat with 2 players row 4: 12 cards aside unseen, 20 each."""
    rb = load("standard-two-player-twelve-aside.yaml")
    assert Table(rb, 2).set_aside == 12
    assert hands(rb, 2) == ((20, 20), 0)
    assert rule_differences(load("standard-two-player.yaml"), rb) == {"deal.set_aside"}


def test_slow_table_count_of_three() -> None:
    """Seed 001, Table rulings row 1 (the site's own): unhurried tables give challengers a count of three."""
    rb = load("standard-count-of-three.yaml")
    assert rb.challenge.window is Window.COUNT_OF_THREE
    assert rule_differences(load("standard.yaml"), rb) == {"challenge.window"}


def test_double_challenge_goes_to_the_nearest_left() -> None:
    """Seed 001, Table rulings row 7: of two challengers, the one nearest the player's left."""
    rb = load("standard-nearest-left.yaml")
    assert rb.challenge.priority is Priority.FIRST_CLOCKWISE
    assert load("standard.yaml").challenge.priority is not Priority.FIRST_CLOCKWISE
    assert rule_differences(load("standard.yaml"), rb) == {"challenge.priority"}


def test_house_rules_that_free_the_rank_drop_cycle_expectations() -> None:
    """Seed 001, Variations rows 4-5: with a rank to choose, no fixed cycle is expected to be proved."""
    assert "rank-cycle" in expectations(load("standard.yaml"))
    for name in ("standard-up-or-down.yaml", "standard-same-again.yaml"):
        e = expectations(load(name))
        assert "rank-cycle" not in e and "seat-fairness" not in e
        assert e["termination"] == "refuted"


# --- 3. Full rules (seed 002) ------------------------------------------------------------------

FULL_RULES_VARIATIONS = {
    "up-down-same": {"claim.follow"},
    "going-down": {"claim.first", "claim.follow"},
    "free-choice": {"claim.first", "claim.follow"},
    "bigger-claims": {"claim.count"},
}


def test_full_rules_three_to_ten_two_decks_at_six() -> None:
    """Seed 002, Overview: 3-10 players, one deck without jokers, two decks from six players."""
    rb = load("full-rules.yaml")
    assert rb.players.counts() == range(3, 11)
    assert len(Table(rb, 5).deck) == 52
    assert len(Table(rb, 6).deck) == 104
    assert rb.deck.jokers == 0


def test_full_rules_turn() -> None:
    """Seed 002, Playing a turn: dealer's left starts with aces, one or more cards, an honest count, no passing."""
    rb = load("full-rules.yaml")
    assert rb.setup.first_player.canonical == "left(dealer)"
    assert first_claims(rb) == {"A"}
    assert claims_after(rb, "K") == {"A"}
    assert (rb.claim.min_cards, rb.claim.max_cards) == (1, None)
    assert rb.claim.count is CountRule.EXACT
    assert not rb.passing.allowed


def test_full_rules_whoever_called_first() -> None:
    """Seed 002, Calling Cheat: if several call at once, the first caller counts."""
    assert load("full-rules.yaml").challenge.priority is Priority.FIRST_CALLER


def test_full_rules_ben_carla_dan() -> None:
    """Seed 002, Calling Cheat, worked example: Carla catches Ben's jacks; Ben's neighbour Dan goes on with queens."""
    rb = load("full-rules.yaml")
    ben, dan, carla = 0, 1, 2
    facts = Facts(players=4, claimant=ben, challenger=carla, winner=carla, loser=ben, caught=True)
    assert rb.challenge.next_player.code(facts) == dan
    assert claims_after(rb, "J") == {"Q"}


def test_full_rules_up_down_same() -> None:
    """Seed 002, Variants (up, down or same): repeat the last rank or step one either way."""
    assert claims_after(load("full-rules-up-down-same.yaml"), "7") == {"6", "7", "8"}


def test_full_rules_going_down_kings_first() -> None:
    """Seed 002, Variants (going down): kings open and the order falls to aces."""
    rb = load("full-rules-going-down.yaml")
    assert first_claims(rb) == {"K"}
    assert claims_after(rb, "K") == {"Q"}
    assert claims_after(rb, "2") == {"A"}
    assert claims_after(rb, "A") == {"K"}


def test_full_rules_free_choice() -> None:
    """Seed 002, Variants (free choice): every play may name whatever rank it likes."""
    rb = load("full-rules-free-choice.yaml")
    assert first_claims(rb) == set(STANDARD_RANKS)
    assert claims_after(rb, "5") == set(STANDARD_RANKS)


def test_full_rules_bigger_claims() -> None:
    """Seed 002, Variants: the number of cards may be a lie too, more or fewer than called."""
    assert load("full-rules-bigger-claims.yaml").claim.count is CountRule.ANY


@pytest.mark.parametrize("variation", sorted(FULL_RULES_VARIATIONS))
def test_full_rules_house_rule_differs_only_where_its_variant_says(variation: str) -> None:
    """Seed 002, Variants: each small file is the full rules with one variant."""
    house = load(f"full-rules-{variation}.yaml")
    assert house.active_variations == (variation,)
    assert rule_differences(load("full-rules.yaml"), house) == FULL_RULES_VARIATIONS[variation]
    assert rule_differences(load("full-rules.yaml", variation), house) == set()


@pytest.mark.parametrize("a,b", list(itertools.combinations(["up-down-same", "going-down", "free-choice"], 2)))
def test_full_rules_rank_orders_clash(a: str, b: str) -> None:
    """Seed 002, Variants: the three ways of choosing the rank cannot be played together (E305)."""
    assert "E305" in codes("full-rules.yaml", a, b)


def test_full_rules_bigger_claims_combine() -> None:
    """Seed 002, Variants: bigger claims sits with any way of choosing the rank."""
    for other in ("up-down-same", "going-down", "free-choice"):
        load("full-rules.yaml", "bigger-claims", other)


# --- 4. The practice table (seed 003) ----------------------------------------------------------


def test_practice_exactly_three_seats_18_17_17() -> None:
    """Seed 003 §01: three seats, one pack, you start with 18 and each opponent 17."""
    rb = load("practice-table.yaml")
    assert rb.players.counts() == range(3, 4)
    assert hands(rb, 3) == ((18, 17, 17), 0)


def test_practice_the_fixed_starter_holds_eighteen() -> None:
    """Seed 003 §01: the browser gives the human seat the first turn, and that seat holds 18."""
    rb = load("practice-table.yaml")
    assert rb.setup.dealer is DealerChoice.SEAT_ZERO
    starter = rb.setup.first_player.code(Facts(players=3, dealer=0))
    deal_order = [(0 + 1 + i) % 3 for i in range(3)]  # cards go out from the dealer's left
    assert hands(rb, 3)[0][deal_order.index(starter)] == 18


def test_practice_one_to_four_cards() -> None:
    """Seed 003 §02: plays of 1-4 cards with an honest number; a playing turn cannot be skipped."""
    rb = load("practice-table.yaml")
    assert (rb.claim.min_cards, rb.claim.max_cards) == (1, 4)
    assert rb.claim.count is CountRule.EXACT
    assert not rb.passing.allowed
    assert first_claims(rb, 3) == {"A"} and claims_after(rb, "K", 3) == {"A"}


def test_practice_responses_offered_clockwise() -> None:
    """Seed 003 §03: responses are offered in clockwise order and the first challenge resolves."""
    rb = load("practice-table.yaml")
    assert rb.challenge.priority is Priority.OFFERED_IN_TURN
    assert rb.challenge.reveal is Reveal.PLAY


def test_practice_robins_twos_then_alex() -> None:
    """Seed 003 §04, example: after Robin's challenged twos the turn still moves on to Alex, on threes."""
    rb = load("practice-table.yaml")
    you, robin, alex = 1, 2, 0
    facts = Facts(players=3, claimant=robin, challenger=you, winner=you, loser=robin, caught=True)
    assert rb.challenge.next_player.code(facts) == alex
    assert claims_after(rb, "2", 3) == {"3"}


def test_practice_last_play_survives_to_win() -> None:
    """Seed 003 §05: a last play wins once both accept it or a challenge proves it true."""
    rb = load("practice-table.yaml")
    assert rb.ending.style is EndStyle.FIRST_OUT
    assert rb.ending.out_check is OutCheck.AFTER_WINDOW


# --- 5. I Doubt It, one rank a round (seed 001) -------------------------------------------------


def test_one_rank_equal_hands_of_at_least_five() -> None:
    """Seed 001, I Doubt It row 1: the same count each, at least five."""
    rb = load("one-rank-a-round.yaml")
    assert rb.deal.style is DealStyle.EQUAL and rb.deal.minimum_hand == 5
    assert hands(rb, 2) == ((26, 26), 0)
    assert hands(rb, 3) == ((17, 17, 17), 1)
    assert hands(rb, 6) == ((8,) * 6, 4)
    assert rb.deal.surplus is Surplus.ASIDE


def test_one_rank_three_to_six_and_two_with_force() -> None:
    """Seed 001, I Doubt It rows 1 and 8: three to six players, and two with Force."""
    assert load("one-rank-a-round.yaml").players.counts() == range(2, 7)


def test_one_rank_leader_names_any_rank_the_rest_follow_it() -> None:
    """Seed 001, I Doubt It rows 2-3: one card a play, the leader names any rank, the others claim it."""
    rb = load("one-rank-a-round.yaml")
    assert (rb.claim.min_cards, rb.claim.max_cards) == (1, 1)
    assert first_claims(rb) == set(STANDARD_RANKS)
    assert ranks_of(rb, rb.claim.lead.code(Facts(rb, 4, previous=rank(rb, "9")))) == set(STANDARD_RANKS)
    assert claims_after(rb, "9") == {"9"}
    assert rb.claim.round_ends == frozenset({RoundEnd.CHALLENGE, RoundEnd.ALL_PASS})


def test_one_rank_passing_and_all_pass_clears_the_pile() -> None:
    """Seed 001, I Doubt It rows 3 and 6: a player may pass; if all pass the pile leaves unseen, the last to add leads."""
    rb = load("one-rank-a-round.yaml")
    p = rb.passing
    assert p.allowed
    assert p.all_pass_pile is PileAfter.DISCARDED
    assert p.all_pass_leader is not None and p.all_pass_leader.code(Facts(players=4, last_player=2)) == 2


def test_one_rank_challenge_checks_the_top_card() -> None:
    """Seed 001, I Doubt It row 4: a challenge checks the uppermost card alone."""
    assert load("one-rank-a-round.yaml").challenge.reveal is Reveal.TOP_CARD


def test_one_rank_next_leader_by_the_outcome() -> None:
    """Seed 001, I Doubt It row 5: wrong rank, the challenger leads; right rank, the challenged player leads."""
    rb = load("one-rank-a-round.yaml")
    caught = Facts(players=4, claimant=0, challenger=2, winner=2, loser=0, caught=True)
    cleared = Facts(players=4, claimant=0, challenger=2, winner=0, loser=2, caught=False)
    assert rb.challenge.next_player.code(caught) == 2
    assert rb.challenge.next_player.code(cleared) == 0


def test_one_rank_force_for_two_players_tests_the_hand() -> None:
    """Seed 001, I Doubt It row 8: two players get a second challenge, Force, that tests the accused's hand for the rank."""
    rb = load("one-rank-a-round.yaml")
    kinds = {k.name: k for k in rb.challenge.kinds}
    assert set(kinds) == {"doubt", "force"}
    assert kinds["doubt"].test is ChallengeTest.PLAYED and kinds["doubt"].allowed_when is None
    force = kinds["force"]
    assert force.test is ChallengeTest.HAND
    assert force.allowed_when is not None
    assert force.allowed_when.code(Facts(players=2)) is True
    assert force.allowed_when.code(Facts(players=3)) is False


@pytest.mark.parametrize("hand,leading,held,wins", [
    (1, False, 1, True),    # one card, of the rank in play
    (1, True, 0, True),     # one card and the lead
    (1, False, 0, False),   # one card, not the rank, not leading
    (2, True, 2, False),    # two cards
])
def test_one_rank_turn_start_win(hand: int, leading: bool, held: int, wins: bool) -> None:
    """Seed 001, I Doubt It row 7: a seat wins at the start of its turn with a last card of the rank, or a last card and the lead."""
    rb = load("one-rank-a-round.yaml")
    assert rb.ending.turn_start_win is not None
    facts = Facts(players=3, hand=hand, leading=leading, required=frozenset({rank(rb, "5")}),
                  holds=lambda claims: held)
    assert bool(rb.ending.turn_start_win.code(facts)) is wins


# --- 6. Mogeln (seed 004) ----------------------------------------------------------------------


def test_mogeln_four_or_more_equal_deal_surplus_aside() -> None:
    """Seed 004, Mogeln: four or more players, one pack, the same number each, the surplus face down."""
    rb = load("mogeln.yaml")
    assert rb.players.min == 4
    assert rb.deal.style is DealStyle.EQUAL and rb.deal.surplus is Surplus.ASIDE
    assert hands(rb, 4) == ((13,) * 4, 0)
    assert hands(rb, 5) == ((10,) * 5, 2)
    assert hands(rb, 6) == ((8,) * 6, 4)


def test_mogeln_ace_of_hearts_holder_leads_it() -> None:
    """Seed 004, Mogeln: whoever was dealt the ace of hearts opens with it."""
    rb = load("mogeln.yaml")
    asked: list[int] = []
    facts = Facts(players=4, dealer=0, holder=lambda c: asked.append(c) or 3, dealt=lambda c: True,
                  left=lambda s: (s + 1) % 4)
    assert rb.setup.first_player.code(facts) == 3
    assert asked == [card(rb, "A", "hearts")]
    undealt = Facts(players=5, dealer=0, holder=lambda c: None, dealt=lambda c: False, left=lambda s: (s + 1) % 5)
    assert rb.setup.first_player.code(undealt) == 1, "project's choice: the dealer's left leads without the ace"
    assert as_claims(rb.claim.first.code(Facts(rb, 4))) == {card(rb, "A", "hearts")}


def test_mogeln_exact_cards_up_the_suit_then_the_next_suit() -> None:
    """Seed 004, Mogeln: single exact cards, hearts from ace upward, then the following suit."""
    rb = load("mogeln.yaml")
    assert rb.claim.kind is ClaimKind.CARD and rb.claim.max_cards == 1
    assert rb.deck.suits[0].name == "hearts"
    follow = rb.claim.follow.code
    assert follow(Facts(rb, 4, previous=card(rb, "A", "hearts"))) == card(rb, "2", "hearts")
    second = rb.deck.suits[1].name
    assert follow(Facts(rb, 4, previous=card(rb, "K", "hearts"))) == card(rb, "A", second)


def test_mogeln_first_out_wins_last_holder_loses() -> None:
    """Seed 004, Mogeln: the first empty hand wins and the last seat still holding cards loses."""
    rb = load("mogeln.yaml")
    assert rb.ending.style is EndStyle.LAST_HOLDER_LOSES
    assert rb.challenge.penalty.kind is PenaltyKind.TAKE_PILE


# --- 7. Verish' Ne Verish' (seed 004) ----------------------------------------------------------


def test_verish_36_cards_one_aside() -> None:
    """Seed 004, Verish': 36 cards, one set aside at random face down, the rest dealt."""
    rb = load("verish-ne-verish.yaml")
    assert [r.symbol for r in rb.deck.ranks] == ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    table = Table(rb, 3)
    assert len(table.deck) == 36 and table.set_aside == 1
    assert hands(rb, 3) == ((12, 12, 11), 0)
    assert sum(hands(rb, 4)[0]) == 35


def test_verish_52_cards_one_aside() -> None:
    """Seed 004, Verish': the game is also played with 52 cards."""
    rb = load("verish-ne-verish-52.yaml")
    assert len(Table(rb, 3).deck) == 52
    assert hands(rb, 3) == ((17, 17, 17), 0)
    assert rule_differences(load("verish-ne-verish.yaml"), rb) == {"deck.ranks"}


def test_verish_everyone_calls_the_same_rank() -> None:
    """Seed 004, Verish': the round's rank stays fixed for the whole table."""
    rb = load("verish-ne-verish.yaml")
    assert claims_after(rb, "Q") == {"Q"}
    assert RoundEnd.CHALLENGE in rb.claim.round_ends


def test_verish_optional_discard_of_four() -> None:
    """Seed 004, Verish': after a pickup a player may reveal four of a rank and discard them."""
    rb = load("verish-ne-verish.yaml")
    assert rb.sets is not None and rb.sets.mode is SetMode.OPTIONAL
    assert rb.sets.size.code(Facts(players=3, copies=4)) == 4


def test_verish_skip_pass_table_rule() -> None:
    """Seed 004, Verish' (some tables): passing allowed; a round of passes clears the pile and the last to play leads."""
    rb = load("verish-ne-verish-skip.yaml")
    assert rb.passing.allowed and rb.passing.all_pass_pile is PileAfter.DISCARDED
    assert rb.passing.all_pass_leader is not None
    assert rb.passing.all_pass_leader.code(Facts(players=3, last_player=1)) == 1
    assert rb.claim.round_ends == frozenset({RoundEnd.CHALLENGE, RoundEnd.ALL_PASS})
    assert rb.passing.when is not None and rb.passing.when.canonical == "(holds(required) == 0)"
    assert rule_differences(load("verish-ne-verish.yaml"), rb) == {
        "claim.round_ends", "passing.allowed", "passing.when", "passing.all_pass_leader"}
    assert not load("verish-ne-verish.yaml").passing.allowed


# --- 8. Canadian bluff (seed 004) --------------------------------------------------------------


def test_canadian_two_packs_four_wild_jokers() -> None:
    """Seed 004, Canadian/Spanish Bluff: two decks, eight of every card, and four wild jokers."""
    rb = load("canadian-bluff.yaml")
    assert rb.deck.jokers == 4 and rb.deck.jokers_wild
    assert Table(rb, 4).copies == 8


def test_canadian_ranks_used_players_plus_two() -> None:
    """Seed 004, Canadian/Spanish Bluff: the ranks in play number the players plus a few (we take two)."""
    rb = load("canadian-bluff.yaml")
    for n in rb.players.counts():
        table = Table(rb, n)
        assert len(table.ranks_in_play) == n + 2
        assert len(table.deck) == 8 * (n + 2) + 4


def test_canadian_any_number_any_rank_extra_allowed() -> None:
    """Seed 004, Canadian/Spanish Bluff: any rank and amount to lead, the rank kept, more cards than claimed allowed."""
    rb = load("canadian-bluff.yaml")
    assert (rb.claim.min_cards, rb.claim.max_cards) == (1, None)
    assert rb.claim.count is CountRule.EXTRA_ALLOWED
    in_play = {rb.deck.ranks[i].symbol for i in Table(rb, 4).ranks_in_play}
    assert first_claims(rb) == in_play
    assert claims_after(rb, "K") == {"K"}


def test_canadian_eleven_is_the_largest_true_claim() -> None:
    """Seed 004, Canadian/Spanish Bluff: eight naturals must leave, so jokers allow a true claim of up to eleven."""
    rb = load("canadian-bluff.yaml")
    assert rb.sets is not None and rb.sets.mode is SetMode.FORCED and rb.sets.naturals_only
    copies = Table(rb, 4).copies
    size = rb.sets.size.code(Facts(players=4, copies=copies))
    assert size == 8
    assert (size - 1) + rb.deck.jokers == 11


def test_canadian_challenge_winner_leads_a_new_round() -> None:
    """Seed 004, Canadian/Spanish Bluff: a challenge's winner opens the next round."""
    rb = load("canadian-bluff.yaml")
    facts = Facts(players=4, claimant=0, challenger=2, winner=2, loser=0, caught=True)
    assert rb.challenge.next_player.code(facts) == 2
    assert RoundEnd.CHALLENGE in rb.claim.round_ends


def test_canadian_players_go_out_until_a_loser() -> None:
    """Seed 004, Canadian/Spanish Bluff: empty hands drop out and play runs on to a single loser."""
    assert load("canadian-bluff.yaml").ending.style is EndStyle.LAST_HOLDER_LOSES


def test_canadian_one_pack() -> None:
    """Seed 004, Canadian/Spanish Bluff: a single pack is an accepted alternative."""
    rb = load("canadian-bluff-one-pack.yaml")
    assert Table(rb, 4).copies == 4
    assert rule_differences(load("canadian-bluff.yaml"), rb) == {"deck.packs", "deck.ranks_used"}


# --- 9. Fujian (seed 004) ----------------------------------------------------------------------


def test_fujian_several_packs() -> None:
    """Seed 004, China: usually several decks shuffled together."""
    rb = load("fujian.yaml")
    for n in rb.players.counts():
        table = Table(rb, n)
        assert table.packs >= 2
        assert len(table.deck) == 52 * table.packs


def test_fujian_any_rank_each_turn() -> None:
    """Seed 004, China: every rank is open to every play."""
    rb = load("fujian.yaml")
    assert first_claims(rb) == set(STANDARD_RANKS)
    assert claims_after(rb, "4") == set(STANDARD_RANKS)
    assert rb.claim.kind is ClaimKind.RANK


# --- 10. Bluffstopp (seed 004) -----------------------------------------------------------------


def test_bluffstopp_six_each_rest_a_stock() -> None:
    """Seed 004, Sweden: six cards each, the rest makes a pile to draw from."""
    rb = load("bluffstopp.yaml")
    assert rb.deal.style is DealStyle.FIXED and rb.deal.surplus is Surplus.STOCK
    for n in rb.players.counts():
        assert hands(rb, n) == ((6,) * n, 52 - 6 * n)


def test_bluffstopp_follow_suit_and_higher() -> None:
    """Seed 004, Sweden: a play must stay in suit and go higher."""
    rb = load("bluffstopp.yaml")
    assert rb.claim.kind is ClaimKind.CARD and rb.claim.max_cards == 1
    assert [r.symbol for r in rb.deck.ranks][-1] == "A"
    allowed = as_claims(rb.claim.follow.code(Facts(rb, 4, previous=card(rb, "J", "hearts"))))
    assert allowed == {card(rb, s, "hearts") for s in ("Q", "K", "A")}
    assert as_claims(rb.claim.follow.code(Facts(rb, 4, previous=card(rb, "A", "spades")))) == set()
    assert rb.claim.after_last is AfterLast.NOTHING


def test_bluffstopp_draw_three() -> None:
    """Seed 004, Sweden: the loser of a challenge takes three cards from the stock."""
    rb = load("bluffstopp.yaml")
    assert rb.challenge.penalty.kind is PenaltyKind.DRAW and rb.challenge.penalty.draw == 3


def test_bluffstopp_short_stock_takes_the_pile() -> None:
    """Seed 004, Sweden: "the player draws three cards from the pile", silent on a pile run short; the
    project's choice `challenge.penalty.short_stock: take_pile` has the loser draw what is left and take
    the cards played as well, so a last card caught with an empty stock is never free."""
    rb = load("bluffstopp.yaml")
    assert rb.challenge.penalty.short_stock is ShortStock.TAKE_PILE


def test_bluffstopp_may_pass() -> None:
    """Seed 004, Sweden leaves passing open; our choice lets a player who cannot go higher pass."""
    rb = load("bluffstopp.yaml")
    assert rb.passing.allowed and not rb.passing.leader_may_pass
