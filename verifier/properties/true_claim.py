"""A game showing the threshold claim made truthfully, played by the interpreter.

First, seeded deals are searched (`DEAL_SEEDS` of them) for one whose first player is dealt the natural
cards and the jokers of the largest true claim: the game then starts from that deal itself, a legal deal
of the rulebook (searched only where an estimate says one is likely). Where no such deal turns up (a claim
of many copies, several packs), a seeded deal gives the table and the seat to play is handed those cards
(each taken from another place of the table in exchange for a card of its hand that does not match),
provided a deal could give that table too (`_exchange_unfit`, `_holds_a_forced_set`); the witness's
summary then says "handed to it on a dealt table". Either way the seat makes that claim and the first
seat allowed to challenge does so. The claim is shown true when the revealed cards are the ones played and the challenge
does not catch a lie; where no seat may challenge, the play is accepted. The interpreter plays every
step, and the play is written as a scenario (`verify --save-witnesses`).
"""

from __future__ import annotations

from typing import Any

from cheatdsl.bots.odds import hand_odds
from cheatdsl.engine import ACCEPT, Challenge, Game, IllegalAction, Phase, Play, Position, State
from cheatdsl.words.notation import card_text, cards_text, claim_text, refusal_text
from cheatdsl.scenario.runner import position_notation

from .witness import Table, Witness, dealt

SEEDS = 8  # deals tried for a table to exchange cards in (the first one almost always serves)
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
                found = _play(game, start, claim, count, naturals, jokers, pid, {"seed": seed, "dealer": dealer})
                if isinstance(found, Witness):
                    return found
    why = "no dealt game starts with a play"
    for seed in range(SEEDS):
        start = dealt(game, seed, 0)
        if start.phase is not Phase.PLAY:
            continue
        unfit = _exchange_unfit(game, start)
        if unfit:
            return unfit
        for claim in start.required_claims():
            pos = _position(game, start, claim, naturals, jokers)
            if pos is None:
                why = f"no deal lets the seat to play hold {naturals} natural cards of a claim it may make"
                continue
            try:
                st = game.state_from_position(pos)
            except ValueError as exc:
                why = f"the position is not one of this table: {exc}"
                continue
            found = _play(game, st, claim, count, naturals, jokers, pid,
                          {"position": position_notation(game, pos)})
            if isinstance(found, Witness):
                return found
            why = found
    return why


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


def _exchange_unfit(game: Game, st: State) -> str:
    """Why cards handed over on a dealt table might make a table no deal gives, or "": the first player
    named by who holds a card (the exchange may move it). A set the deal would have put out is checked
    on each table made (`_position`)."""
    facts = game.facts(st, st.dealer or 0)
    game.rules.first_player.code(facts)
    if facts.read_deal:
        return ("no deal searched gives the claim's cards, and handing them over could move the card that names "
                "the first player")
    return ""


def _position(game: Game, st: State, claim: int, naturals: int, jokers: int) -> Position | None:
    """The dealt table with the seat to play holding `naturals` cards of `claim` and `jokers` jokers, each
    taken from another place in exchange for a card of its hand that matches neither."""
    seat = st.current_player()
    places = [list(st.hand_cards(s)) for s in range(game.players)] + [list(st.stock()), list(st.aside())]
    hand = places[seat]
    for value, wanted in ((claim, naturals), (game.rules.joker, jokers)):
        while hand.count(value) < wanted:
            donor = next((p for i, p in enumerate(places) if i != seat and value in p
                          and (i >= game.players or len(p) > 1 or _spare(hand, claim, game) is not None)), None)
            if donor is None:
                return None
            donor.remove(value)
            spare = _spare(hand, claim, game)
            if spare is not None:
                hand.remove(spare)
                donor.append(spare)
            hand.append(value)
    hands = tuple(tuple(sorted(p)) for p in places[:game.players])
    if not all(hands) or _holds_a_forced_set(game, hands):
        return None
    return Position(hands=hands, to_play=seat, dealer=st.dealer or 0, stock=tuple(places[-2]),
                    aside=tuple(sorted(places[-1])), previous=st.previous, leading=st.leading,
                    last_player=st.last_player)


def _holds_a_forced_set(game: Game, hands: tuple[tuple[int, ...], ...]) -> bool:
    """Whether a hand holds a complete set where the deal puts sets out at once: no deal leaves one."""
    rules = game.rules
    if not rules.sets_forced or rules.set_size is None:
        return False
    for hand in hands:
        counts = [0] * (rules.values + 1)
        for card in hand:
            counts[card] += 1
        if any(rules.rank_count_in(counts, rank, rules.sets_naturals_only) >= rules.set_size
               for rank in range(rules.rank_count)):
            return True
    return False


def _spare(hand: list[int], claim: int, game: Game) -> int | None:
    """A card of the hand that is neither the claim nor a joker (given away in exchange)."""
    return next((c for c in hand if c != claim and c != game.rules.joker), None)


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
        expect = {"revealed": [card_text(game, c) for c in cards], "caught": False, "picked_up": r.loser}
        table.words.append(f"{said}; seat {r.challenger} challenges: true, seat {r.loser} picks up {r.taken} "
                           f"card{'s' if r.taken != 1 else ''}")
    else:
        expect = {"pile": st.pile_size()}
        table.words.append(f"{said}; accepted (no seat may challenge it)")
    how = "as dealt" if "seed" in start else "handed to it on a dealt table"
    return Witness(pid, game.players, start, table.steps, expect, table.words,
                   f"seat {seat} makes the largest true claim, {claim_text(game, claim, count)}, with "
                   f"{cards_text(game, cards)} ({how})")
