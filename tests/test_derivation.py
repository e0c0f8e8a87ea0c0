"""What the rules imply at a table is one frozen record that the interpreter holds and the verifier reads.

Project's choice (issue 27, point 1: "one frozen rules record ... that `Game`, the verifier's encoding, the
bots, compare and the compiled engine hold and read; nothing copies its fields. Derived once per table, in
one place"): a rule's consequence at a table (the count cap, the claims allowed after each claim, the turn
order, the challenges allowed, the set size, what a short stock or a hand emptied by sets does) is worked
out once, in `cheatdsl.derived.TableRules`. `Game` holds it as `game.rules` and repeats none of its fields;
the record cannot change once made; its claim graph, indexed by the previous claim for the interpreter,
says what its sets keyed by claim say; and seats are stepped by one helper (`derived.seat_after`). The
verifier's `Spec` holds a record too (`spec.rules`) and copies none of it, adding only the encoding's
own tables (card classes, claim sets by position, seat formulas tabulated); the last tests compare those
tables with the interpreter's record, for every shipped rulebook and fixture at every
player count it allows, so a back end that derived a table again, differently, fails here.
"""

from __future__ import annotations

import pickle
import re
from dataclasses import FrozenInstanceError
from itertools import product
from pathlib import Path

import pytest

from cheatdsl.derived import NO_CAP, TableRules, holder_answers, seat_after
from cheatdsl.engine import Game
from cheatdsl.load import load_rulebook
from cheatdsl.model import ChallengeTest, Direction, Rulebook, Surplus
from verifier.encoding.spec import KEY_FIELDS, Spec, SpecError, build_spec, merge_values
from verifier.encoding.tabulate import Tree, evaluate

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*(ROOT / "rulebooks").glob("*.yaml"), *(ROOT / "rulebooks").glob("*.cheat"),
                *(ROOT / "tests" / "fixtures").rglob("*.yaml")])


def _tables(path: Path) -> list[tuple[Rulebook, int]]:
    rb = load_rulebook(str(path))
    return [(rb, n) for n in rb.players.counts()]


CASES = [pytest.param(rb, n, id=f"{path.stem}-{n}") for path in FILES for rb, n in _tables(path)]


def _claims(spec: Spec, req: int) -> frozenset[int]:
    """A set of claims the spec asks for, as claim values."""
    return frozenset(spec.claims[i] for i in spec.req_sets[req])


def _seat(tree: Tree, facts: dict[str, object], holder: int | None = None) -> object:
    """A tabulated formula's value with every seat in the game and `holder` dealt every card asked about."""
    def answer(query: tuple[object, ...]) -> object:
        if query[0] == "in":
            return True
        if query[0] == "holder":
            return holder
        assert query[0] == "fact", f"{query} is not read by a seat formula with every seat in"
        return facts[str(query[1])]
    return evaluate(tree, answer)


def test_every_shipped_rulebook_and_fixture_is_compared() -> None:
    """A rulebook missing from the comparison is a table nobody checks."""
    names = {p.stem for p in FILES}
    assert {"english-ascending", "bluffstopp", "canadian-bluff", "emptied-stays-in", "anticlockwise"} <= names
    assert len(CASES) > len(FILES)


@pytest.fixture(scope="module")
def games() -> list[Game]:
    """A game at every table of CASES that can be dealt (made once: the checks below only read them)."""
    out = []
    for case in CASES:
        try:
            out.append(Game(*case.values))
        except ValueError:
            pass
    assert len(out) > len(FILES)
    return out


def test_game_holds_the_rules_and_repeats_none_of_its_fields(games: list[Game]) -> None:
    """Issue 27: "the interpreter holds the one rules record; nothing copies it". `Game` keeps only what is
    about one game object (the caller's turn limit, the formula context class, memos)."""
    for game in games:
        assert isinstance(game.rules, TableRules)
        assert (game.rules.rulebook, game.rules.players) == (game.rulebook, game.players)
        assert set(vars(game)) & set(vars(game.rules)) <= {"players", "rulebook", "rules"}, game


def test_the_rules_of_a_table_cannot_change() -> None:
    """Issue 27: "one frozen rules record": setting or deleting a field after it is made raises, and the
    record still says what it said."""
    game = Game(load_rulebook(str(ROOT / "rulebooks" / "english-ascending.yaml")), 3)
    rules = game.rules
    with pytest.raises(FrozenInstanceError):
        rules.min_cards = 2
    with pytest.raises(FrozenInstanceError):
        rules.new_field = 1
    with pytest.raises(FrozenInstanceError):
        del rules.min_cards
    assert rules.min_cards == 1 and not hasattr(rules, "new_field")
    # Its tables cannot be changed in place either.
    with pytest.raises(TypeError):
        rules.follow[0] = frozenset()  # type: ignore[index]
    with pytest.raises(TypeError):
        rules.kind_by_name["doubt"] = rules.kinds[0]  # type: ignore[index]
    with pytest.raises(TypeError):
        rules.deck_counts[0] = 0  # type: ignore[index]


def test_the_turn_limit_is_the_lower_of_the_rulebook_cap_and_the_callers() -> None:
    """The one thing about a table `Game` works out beside the rules: how many turns this game object is
    played for (`turn_cap` of the rulebook and of the caller, the lower; no cap at all without either)."""
    plain = load_rulebook(str(ROOT / "rulebooks" / "english-ascending.yaml"))
    assert plain.ending.turn_cap is None
    assert Game(plain, 3).turn_limit == NO_CAP and Game(plain, 3, turn_cap=50).turn_limit == 50
    capped = next(rb for rb, _ in (c.values for c in CASES) if rb.ending.turn_cap is not None)
    n = min(capped.players.counts())
    cap = capped.ending.turn_cap
    assert Game(capped, n).turn_limit == cap and Game(capped, n, turn_cap=cap + 1).turn_limit == cap
    assert Game(capped, n, turn_cap=1).turn_limit == 1


def test_the_claim_graph_by_previous_claim_is_the_graph_by_claim(games: list[Game]) -> None:
    """`first`, `lead` and `follow` (docs/language.md, `claim`): the interpreter reads them indexed by the
    previous claim, as a set and in claim value order; they are the sets keyed by claim, and no claim is
    allowed after a value that is not a claim of the table."""
    for game in games:
        rules = game.rules
        assert rules.required_after(None, False) == (tuple(sorted(rules.first)), rules.first), game
        assert rules.required_after(None, True) == (tuple(sorted(rules.lead_none)), rules.lead_none), game
        for prev in range(len(rules.follow_sets)):
            for leading, by_claim in ((False, rules.follow), (True, rules.lead)):
                claims, allowed = rules.required_after(prev, leading)
                assert allowed == by_claim.get(prev, frozenset()) and claims == tuple(sorted(allowed)), (game, prev)
        assert set(rules.follow) == set(rules.claim_order), game
        assert len(rules.follow_sets) == max(rules.claim_order) + 1, game


def test_seats_are_stepped_by_one_helper(games: list[Game]) -> None:
    """docs/language.md: `left(s)` is the next seat in turn order, `right(s)` the previous one and `seat(k)`
    the seat k places after the dealer; clockwise play goes from seat s to s + 1, anticlockwise to s - 1.
    The record's turn order tables and the interpreter's formula context step seats with `seat_after`."""
    for game in games:
        rules, n = game.rules, game.players
        step = 1 if game.rulebook.setup.direction is Direction.CLOCKWISE else -1
        assert rules.step == step, game
        for s in range(n):
            assert rules.succ[s] == seat_after(s, step, 1, n) == rules.seat_after(s) == (s + step) % n, game
            assert rules.pred[s] == seat_after(s, step, -1, n) == (s - step) % n, game
            assert rules.responders_of[s] == tuple((s + step * i) % n for i in range(1, n)), game
            facts = game.facts(None, dealer=s)
            assert (facts.left(s), facts.right(s), facts.seat(2)) == (rules.succ[s], rules.pred[s],
                                                                     (s + 2 * step) % n), game
        # Before anyone goes out, a game's turn order is the table's.
        state = game.new_initial_state()
        assert [state.left_of(s) for s in range(n)] == list(rules.succ), game
        assert [state.right_of(s) for s in range(n)] == list(rules.pred), game


def test_an_anticlockwise_table_steps_the_other_way() -> None:
    """`setup.direction: anticlockwise`: play passes from seat s to seat s - 1 (the fixture the check above
    must meet, so that a helper ignoring the direction fails)."""
    rb = load_rulebook(str(ROOT / "tests" / "fixtures" / "agreement" / "anticlockwise.yaml"))
    n = max(rb.players.counts())
    rules = Game(rb, n).rules
    assert rules.step == -1
    assert rules.succ[0] == n - 1 and rules.pred[0] == 1 and rules.responders_of[0][:2] == (n - 1, n - 2)
    assert seat_after(1, -1, 3, n) == (1 - 3) % n


@pytest.mark.parametrize(("rb", "n"), CASES)
def test_game_and_spec_read_the_same_tables(rb: Rulebook, n: int) -> None:
    """The verifier's `Spec` says what the interpreter's rules record says, table by table."""
    try:
        game = Game(rb, n)
    except ValueError:
        with pytest.raises(SpecError):
            build_spec(rb, n)
        return
    spec = build_spec(rb, n)
    rules = game.rules
    assert spec.players == game.players and spec.rules.step == rules.step
    # The spec's own record says what the interpreter's does (each derived from the rulebook once).
    assert {k: v for k, v in vars(spec.rules).items() if k not in ("rulebook", "table", "space")} == \
        {k: v for k, v in vars(rules).items() if k not in ("rulebook", "table", "space")}
    # Cards: the deck as the encoding's card classes, and which claim each card passes as.
    assert {v: spec.deck[i] for i, v in enumerate(spec.live)} == {v: k for v, k in enumerate(rules.deck_counts) if k}
    assert spec.claims == tuple(rules.claim_order)
    for i, v in enumerate(spec.live):
        passes = {spec.claims[c] for c in spec.matches[i]}
        assert passes == {c for c in rules.claim_order if rules.count_matching(_one(game, v), frozenset([c]))}
    # Claims: the first claim, a lead with nothing before it, and follow and lead after each claim.
    assert _claims(spec, spec.required.first) == rules.required_after(None, False)[1]
    assert _claims(spec, spec.required.lead_none) == rules.required_after(None, True)[1]
    for i, prev in enumerate(spec.claims):
        assert _claims(spec, spec.required.follow[i]) == rules.required_after(prev, False)[1]
        assert _claims(spec, spec.required.lead[i]) == rules.required_after(prev, True)[1]
    # Challenges: the kinds by name and which of them test a hand.
    assert tuple(kind.name for kind in spec.rules.kinds) == rules.kind_names
    assert all(by_hand == (rules.kind_by_name[kind.name].test is ChallengeTest.HAND)
               for kind, by_hand in zip(spec.rules.kinds, spec.by_hand))
    if rb.ending.turn_cap is None:
        assert spec.turn_limit is None and game.turn_limit == NO_CAP
    else:
        assert spec.turn_limit == game.turn_limit
    # Who plays after a challenge, with every seat in and any seat (or nobody) dealt the cards it asks
    # about: the tabulated formula and the interpreter's agree.
    holders = [h for h in (None, *range(n)) if all(h in holder_answers(rules.table, card) for card in spec.held)
               ] if spec.held else [None]
    for claimant in range(n):
        for challenger in (s for s in range(n) if s != claimant):
            for caught in (False, True):
                winner, loser = (challenger, claimant) if caught else (claimant, challenger)
                facts = {"claimant": claimant, "challenger": challenger, "winner": winner, "loser": loser,
                         "caught": caught}
                for dealer, holder in product(range(n), holders):
                    state = game.new_initial_state()
                    state.lay_out(dealer, [[0] * (rules.values + 1)] * n,
                                  holders={} if holder is None else dict.fromkeys(spec.held, holder))
                    assert _seat(spec.trees.next_player, {**facts, "dealer": dealer}, holder) == \
                        rules.next_player.code(game.facts(state, dealer, **facts))


def _one(game: Game, value: int) -> list[int]:
    """A hand holding one card of `value`."""
    hand = [0] * (game.rules.values + 1)
    hand[value] = 1
    return hand


# The spec holds the rules record and copies none of it (issue 27, point 1: "the verifier's encoding holds
# the one rules record; nothing copies it").

# Fields of the record whose content the spec's own fields hold in the encoding's form: the deck as card
# classes (`live`, `deck`, `matches`), the claim order and claim sets as positions (`claims`, `req_sets`,
# `required`), the seat formulas tabulated (`trees`); and what those are made from.
HELD_BY_THE_SPEC = {"table", "space", "rulebook", "deck_counts", "passes_as", "claim_order", "first", "follow", "lead",
                    "lead_none", "next_player", "first_player", "all_pass_leader", "pass_when", "turn_start_win"}
# Read by the key in the form the encoding reads them: card values, jokers and ranks (which a merged spec
# overrides), and the kinds of challenge by name and test.
READ_BY_THE_KEY = {"values", "wild", "ranks_in_play", "kinds"}
# Worked out from fields in the key: the joker's value (`values`), the kinds' names (`kinds`), seat stepping
# (`step` and the player count).
FROM_THE_KEY = {"joker", "kind_names", "seat_after"}


def _specs() -> list[Spec]:
    """A spec of every shipped rulebook at its smallest count, with its merged games."""
    out = []
    for path in sorted((ROOT / "rulebooks").glob("*.yaml")):
        rb = load_rulebook(str(path))
        try:
            spec = build_spec(rb, rb.players.min)
        except SpecError:
            continue
        out += [spec, merge_values(spec), merge_values(spec, tuple(range(spec.width)))]
    return out


def test_a_spec_repeats_no_field_of_its_rules_record() -> None:
    """Every consequence of a rule is read from `spec.rules`; the spec keeps only the encoding's own tables."""
    specs = _specs()
    assert len(specs) > 20
    for spec in specs:
        # Fill the spec's cached views too: none of them may store a field of the record either.
        for name in dir(spec):
            if not name.startswith("_"):
                getattr(spec, name)
        assert set(vars(spec)) & set(vars(spec.rules)) == set(), spec.rules


def test_every_field_the_verifier_reads_of_the_record_is_in_the_key() -> None:
    """A spec is the key verdicts are cached under: a field of the record that the encoding reads but the key
    leaves out would let two different games share one verdict."""
    read: set[str] = set()
    for path in (ROOT / "verifier").rglob("*.py"):
        if "exhaustive" in path.parts:
            continue  # the exhaustive judge reads a game's record, and keeps nothing under a spec's key
        read |= set(re.findall(r"\.rules\.([a-z_]+)", path.read_text()))
    # `spec.py` itself reads the record as `rules` (building a spec) and `r` (its views and key).
    read |= set(re.findall(r"\b(?:rules|r)\.([a-z_]+)", (ROOT / "verifier" / "encoding" / "spec.py").read_text()))
    assert {"step", "take_pile", "pile_after_discarded"} <= read  # the scan finds the readers
    missing = read - set(KEY_FIELDS) - HELD_BY_THE_SPEC - READ_BY_THE_KEY - FROM_THE_KEY
    assert not missing, f"read from spec.rules but not in spec.KEY_FIELDS: {sorted(missing)}"


def test_specs_are_keys_by_the_game_they_encode() -> None:
    """Two loads of one rulebook give equal specs that hash alike, whichever process holds them (a spec sent
    from a worker is looked up by its key); another player count or the merged game is another key."""
    path = str(ROOT / "rulebooks" / "english-ascending.yaml")
    one, other = build_spec(load_rulebook(path), 3), build_spec(load_rulebook(path), 3)
    assert one.rules is not other.rules
    assert one == other and hash(one) == hash(other)
    sent = pickle.loads(pickle.dumps(one))
    assert sent == one and hash(sent) == hash(one) and {sent: "proved"}[other] == "proved"
    assert merge_values(one) == pickle.loads(pickle.dumps(merge_values(other)))
    assert one != build_spec(load_rulebook(path), 4)
    assert one != merge_values(one) and hash(merge_values(one)) != hash(one)
