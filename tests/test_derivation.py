"""The interpreter (`Game`) and the verifier (`Spec`) read the same tables of what the rules imply.

Project's choice: a rule's consequence at a table (the count cap, the claims allowed after each claim,
the challenges allowed, the set size, what a short stock or a hand emptied by sets does) is worked out
once (`cheatdsl.derived.TableRules`). The verifier's `Spec` holds that record (`spec.rules`) and copies
none of it; it adds the encoding's own tables (card classes, claim sets by position, seat formulas
tabulated). These tests compare those tables and the interpreter's with the record, for every shipped
rulebook and fixture at every player count it allows, so a back end that derived one of them again,
differently, fails here.
"""

from __future__ import annotations

import pickle
import re
from itertools import product
from pathlib import Path

import pytest

from cheatdsl.derived import holder_answers
from cheatdsl.engine import Game
from cheatdsl.engine.game import NO_CAP
from cheatdsl.load import load_rulebook
from cheatdsl.model import ChallengeTest, Rulebook, Surplus
from verifier.system.spec import KEY_FIELDS, Spec, SpecError, build_spec, merge_values
from verifier.system.tabulate import Tree, evaluate

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


@pytest.mark.parametrize(("rb", "n"), CASES)
def test_game_and_spec_read_the_same_tables(rb: Rulebook, n: int) -> None:
    try:
        game = Game(rb, n)
    except ValueError:
        with pytest.raises(SpecError):
            build_spec(rb, n)
        return
    spec = build_spec(rb, n)
    rules = spec.rules
    assert spec.players == game.players and rules.step == game.step
    # Cards: values, the deck, wild jokers, and which claim each card passes as.
    assert (rules.by_rank, rules.rank_count, rules.values, rules.wild) == \
        (game.by_rank, game.rank_count, game.values, game.wild)
    assert {v: spec.deck[i] for i, v in enumerate(spec.live)} == {v: k for v, k in enumerate(game.deck_counts) if k}
    assert spec.claims == tuple(game.claim_order)
    for i, v in enumerate(spec.live):
        passes = {spec.claims[c] for c in spec.matches[i]}
        assert passes == {c for c in game.claim_order if game.count_matching(_one(game, v), frozenset([c]))}
    assert rules.ranks_in_play == game.ranks_in_play
    # Claims: the first claim, a lead with nothing before it, and follow and lead after each claim.
    assert _claims(spec, spec.required.first) == game.required_after(None, False)[1]
    assert _claims(spec, spec.required.lead_none) == game.required_after(None, True)[1]
    for i, prev in enumerate(spec.claims):
        assert _claims(spec, spec.required.follow[i]) == game.required_after(prev, False)[1]
        assert _claims(spec, spec.required.lead[i]) == game.required_after(prev, True)[1]
    assert (rules.min_cards, rules.max_cards, rules.exact, rules.any_count, rules.count_cap) == \
        (game.min_cards, game.max_cards, game.exact, game.any_count, game.count_cap)
    assert (rules.count_judged, rules.reveal_all) == (game.count_judged, game.reveal_all)
    assert (rules.round_ends_on_challenge, rules.round_ends_on_all_pass) == \
        (game.round_ends_on_challenge, game.round_ends_on_all_pass)
    assert (rules.may_pass, rules.leader_may_pass, rules.all_pass_discards) == \
        (game.may_pass, game.leader_may_pass, game.all_pass_discards)
    # Challenges and penalties.
    assert tuple(kind.name for kind in rules.kinds) == game.kind_names
    assert all(by_hand == (game.kinds[kind.name].test is ChallengeTest.HAND)
               for kind, by_hand in zip(rules.kinds, spec.by_hand))
    assert (rules.take_pile, rules.draw, rules.pile_after_discarded, rules.short_stock_takes_pile) == \
        (game.take_pile, game.draw, game.pile_after_discarded, game.short_stock_takes_pile)
    # Sets and the end.
    assert (rules.set_size, rules.sets_forced, rules.sets_naturals_only) == \
        (game.set_size, game.sets_forced, game.sets_naturals_only)
    assert (rules.first_out, rules.at_once, rules.emptied_stays_in) == (game.first_out, game.at_once,
                                                                      game.emptied_stays_in)
    if rb.ending.turn_cap is None:
        assert spec.turn_limit is None and game.turn_cap == NO_CAP
    else:
        assert spec.turn_limit == game.turn_cap
    # The deal.
    assert rules.hand_sizes == tuple(game.hand_sizes) and rules.dealer_by_lot == game.dealer_by_lot
    to_stock = rb.deal.surplus is Surplus.STOCK
    assert rules.stock_count == (game.surplus if to_stock else 0)
    assert rules.aside_count == game.table.set_aside + (0 if to_stock else game.surplus)
    # Who plays after a challenge, with every seat in and any seat (or nobody) dealt the cards it asks
    # about: the tabulated formula and the interpreter's agree.
    holders = [h for h in (None, *range(n)) if all(h in holder_answers(game.table, card) for card in spec.held)
               ] if spec.held else [None]
    for claimant in range(n):
        for challenger in (s for s in range(n) if s != claimant):
            for caught in (False, True):
                winner, loser = (challenger, claimant) if caught else (claimant, challenger)
                facts = {"claimant": claimant, "challenger": challenger, "winner": winner, "loser": loser,
                         "caught": caught}
                for dealer, holder in product(range(n), holders):
                    state = game.new_initial_state()
                    state.lay_out(dealer, [[0] * (game.values + 1)] * n,
                                  holders={} if holder is None else dict.fromkeys(spec.held, holder))
                    assert _seat(spec.trees.next_player, {**facts, "dealer": dealer}, holder) == \
                        game.next_player(game.facts(state, dealer, **facts))


def _one(game: Game, value: int) -> list[int]:
    """A hand holding one card of `value`."""
    hand = [0] * (game.values + 1)
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
        read |= set(re.findall(r"\.rules\.([a-z_]+)", path.read_text()))
    # `spec.py` itself reads the record as `rules` (building a spec) and `r` (its views and key).
    read |= set(re.findall(r"\b(?:rules|r)\.([a-z_]+)", (ROOT / "verifier" / "system" / "spec.py").read_text()))
    assert {"step", "take_pile", "pile_after_discarded"} <= read  # the scan finds the readers
    missing = read - set(KEY_FIELDS) - HELD_BY_THE_SPEC - READ_BY_THE_KEY
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
