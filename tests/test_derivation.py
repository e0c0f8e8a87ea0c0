"""The interpreter (`Game`) and the verifier (`Spec`) read the same tables of what the rules imply.

Project's choice: a rule's consequence at a table (the count cap, the claims allowed after each claim,
the challenges allowed, the set size, what a short stock or a hand emptied by sets does) is worked out
once (`cheatdsl.derived.TableRules`). These tests compare every table the two back ends keep, for every
shipped rulebook and fixture at every player count it allows, so a back end that derived one of them
again, differently, fails here.
"""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest

from cheatdsl.derived import holder_answers
from cheatdsl.engine import Game
from cheatdsl.engine.game import NO_CAP
from cheatdsl.load import load_rulebook
from cheatdsl.model import ChallengeTest, Rulebook, Surplus
from verifier.system.spec import Spec, SpecError, build_spec
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
