"""A game showing the threshold claim made truthfully, played by the interpreter.

First, seeded deals are searched (`DEAL_SEEDS` of them) for one whose first player is dealt the natural
cards and the jokers of the largest true claim: the game then starts from that deal itself, a legal deal
of the rulebook (searched only where an estimate says one is likely). Where no such deal turns up (a claim
of many copies, several packs), a seeded shuffle's deck has cards exchanged between its places so that the
first player's share holds them, and that deck is dealt by the rules (a scenario's `deck:` start: the
first player, forced sets and turn-start rules are the interpreter's, and a deal that moves the first
player or ends at once is dropped); the witness's summary then says so. Either way the seat makes that
claim and the first seat allowed to challenge does so. The claim is shown true when the revealed cards are
the ones played and the challenge does not catch a lie; where no seat may challenge, the play is accepted
(and claim-threshold takes no game from that). The interpreter plays every step, and the play is written
as a scenario (`verify --save-witnesses`).
"""

from __future__ import annotations

from typing import Any

from cheatdsl.bots.odds import hand_odds
from cheatdsl.engine import ACCEPT, Challenge, Game, IllegalAction, Phase, Play, State
from cheatdsl.engine.deal import shuffle_order
from cheatdsl.words.notation import card_text, cards_text, claim_text, deck_card_text, refusal_text

from .witness import Table, Witness, dealt, dealt_in_order

SEEDS = 8  # shuffles tried for a deck to exchange cards in (the first one almost always serves)
DEAL_SEEDS = 300  # deals searched for one whose first player is dealt the claim's cards


def true_claim_play(game: Game, count: int, naturals: int, jokers: int, pid: str) -> Witness | str:
    """A replayed play in which a claim of `count` (`naturals` natural cards and `jokers` jokers) is made
    at the first turn and shown true; or why none was found."""
    if jokers and not game.rules.wild:
        return "the jokers of the threshold claim are not wild in the interpreter"
    dealer = 0 if game.rules.dealer_by_lot else None
    for seed in range(DEAL_SEEDS if _likely(game, naturals, jokers) else 0):
        start = dealt(game, seed, dealer)
        if start.phase is not Phase.PLAY:
            continue
        hand = start.hand_cards(start.current_player())
        for claim in start.required_claims():
            if hand.count(claim) >= naturals and hand.count(game.rules.joker) >= jokers:
                found = _play(game, start.clone(), claim, count, naturals, jokers, pid,
                              {"seed": seed, "dealer": dealer})
                if isinstance(found, Witness):
                    return found
    why = "no dealt game starts with a play"
    for seed in range(SEEDS):
        found = _arranged(game, seed, dealer, naturals, jokers)
        if isinstance(found, str):
            why = found
            continue
        st, deck = found
        hand = st.hand_cards(st.current_player())
        for claim in st.required_claims():
            if hand.count(claim) < naturals or hand.count(game.rules.joker) < jokers:
                continue
            play = _play(game, st.clone(), claim, count, naturals, jokers, pid,
                         {"deck": [deck_card_text(game, c) for c in deck], "dealer": dealer})
            if isinstance(play, Witness):
                return play
            why = play
    # Hands dealt too small for the claim: one grows by a pickup first (`grown_claim.py`).
    from .grown_claim import grown_claim_play
    for seed in range(SEEDS):
        grown = grown_claim_play(game, seed, dealer, count, naturals, jokers, pid)
        if isinstance(grown, Witness):
            return grown
        why = f"{why}; nor with a hand grown by a pickup: {grown}"
    return why


def _arranged(game: Game, seed: int, dealer: int | None, naturals: int, jokers: int) -> tuple[State, list[int]] | str:
    """The deck of `seed`'s shuffle with cards exchanged between places so that the first player is dealt
    `naturals` cards of a claim it may open with and `jokers` jokers, dealt by the rules (a deck in that order
    is one a shuffle can give); with the deck's cards in that order, or why no such deal was made."""
    rules = game.rules
    deck = rules.table.deck
    st = dealt(game, seed, dealer)
    if st.phase is not Phase.PLAY:
        return "no dealt game starts with a play"
    first = st.current_player()
    order = list(shuffle_order(len(deck), seed))
    value = [rules.deck_values[p] for p in order]
    aside = rules.table.set_aside
    end = aside + sum(rules.hand_sizes)
    turn = next(i for i in range(game.players) if rules.seat_after(st.dealer or 0, i + 1) == first)
    mine = list(range(aside + turn, end, game.players))
    claims = [c for c in st.required_claims() if 0 <= c < rules.values]
    if not claims:
        return "the first claim is not a card of the deck"
    claim = max(claims, key=lambda c: rules.deck_counts[c])
    for wanted_value, wanted in ((claim, naturals), (rules.joker, jokers)):
        while sum(1 for k in mine if value[k] == wanted_value) < wanted:
            donor = next((k for k in range(len(order)) if k not in mine and value[k] == wanted_value), None)
            spare = next((k for k in mine if value[k] not in (claim, rules.joker)), None)
            if donor is None or spare is None:
                return f"the deck cannot give the first player {naturals} natural cards of a claim it may open with"
            order[donor], order[spare] = order[spare], order[donor]
            value[donor], value[spare] = value[spare], value[donor]
    arranged = dealt_in_order(game, dealer, order)
    if arranged.phase is not Phase.PLAY or arranged.current_player() != first:
        return "dealt those cards, the first player is another seat or the game does not start with a play"
    return arranged, [deck[p] for p in order]


def _at_least(k: int, copies: int, deck: int, hand: int) -> float:
    """The chance a hand of `hand` cards dealt from `deck` holds at least `k` of `copies` like cards."""
    return sum(hand_odds(deck, copies, hand)[k:]) if k > 0 else 1.0


def _likely(game: Game, naturals: int, jokers: int) -> bool:
    """Whether `DEAL_SEEDS` deals are likely (one expected or more) to give the first player `naturals` of a
    first claim and `jokers` jokers as dealt; searching them is not worth it otherwise."""
    rules = game.rules
    deck = len(rules.deck_values)
    hand = max(rules.hand_sizes, default=0)
    miss = 1.0
    for claim in rules.first:
        copies = rules.deck_counts[claim] if 0 <= claim < rules.values else 0
        miss *= 1.0 - _at_least(naturals, copies, deck, hand)
    chance = (1.0 - miss) * _at_least(jokers, rules.deck_counts[rules.joker], deck, hand)
    return chance * DEAL_SEEDS >= 1.0


def _play(game: Game, st: State, claim: int, count: int, naturals: int, jokers: int, pid: str,
          start: dict[str, Any]) -> Witness | str:
    """The claim made from `st` (which `start` names: a seed, or a position) and answered."""
    seat = st.current_player()
    if claim not in st.required_claims():
        return "the claim may not be made from that position"
    cards = tuple(sorted([claim] * naturals + [game.rules.joker] * jokers))
    table = Table(game, st)
    said = f"seat {seat} plays {cards_text(game, cards)} as {claim_text(game, claim, count)}"
    try:
        table.act(Play(cards, claim, count))
        called = False
        while st.phase is Phase.RESPOND:  # the first seat allowed challenges; any asked after it accept
            challenge = None if called else next((a for a in st.legal_actions() if isinstance(a, Challenge)), None)
            table.act(challenge if challenge is not None else ACCEPT)
            called = called or challenge is not None
    except IllegalAction as exc:
        return f"the interpreter refuses the play: {refusal_text(exc)}"
    expect: dict[str, Any]
    reveals = st.reveals()
    if reveals:
        r = reveals[-1]
        if r.caught or sorted(r.revealed) != list(cards):
            return "the challenge did not show the cards played as a true claim"
        expect = {"revealed": [card_text(game, c) for c in cards], "caught": False, "picked_up": r.loser if r.paid else None}
        table.words.append(f"{said}; seat {r.challenger} challenges: true, seat {r.loser} picks up {r.taken} "
                           f"card{'s' if r.taken != 1 else ''}")
    else:
        expect = {"pile": st.pile_size()}
        table.words.append(f"{said}; accepted (no seat may challenge it)")
    how = "as dealt" if "seed" in start else "dealt from a deck in an order a shuffle can give"
    return Witness(pid, game.players, start, table.steps, expect, table.words,
                   f"seat {seat} makes the largest true claim, {claim_text(game, claim, count)}, with "
                   f"{cards_text(game, cards)} ({how})")
