"""A game showing a claim larger than any dealt hand can hold judged true: the claimant's hand grows by a pickup.

Where hands are dealt too small for the threshold claim (eleven aces and jokers at a table of ten hands of
ten), no game shows it at the first turn. This plays one that grows a hand first, from a deal by the rules:
a seeded shuffle's cards are exchanged between places so that the first player holds as many of the claim's
cards as its hand can with one card to spare, and the next seat holds the rest (with a card to spare too);
the deck that deals those hands is dealt by the interpreter. Then, turn by turn:

- the first player leads a card it can spare, claiming the rank of the threshold claim where it may;
- the next seat plays its cards of that rank truthfully, and the first player, alone, calls it: the claim is
  true, so the first player loses the call and picks up the pile, the cards it lacked among it;
- every other play is one card the seat can spare, claiming that rank where it may, and is accepted;
- once the first player holds the claim's cards and may claim that rank, it makes the claim, and the first
  seat allowed to call does: a true claim, judged so.

Every step is the interpreter's, and the game is written as a scenario that starts from the deck (`deck:`).
Where the rules steer the play elsewhere (the turn passes the first player by, a seat goes out), the script
stops and says so; it is a witness only when the call at its end judges the claim true.
"""

from __future__ import annotations

from typing import Any

from cheatdsl.engine import ACCEPT, KEEP, Challenge, ChanceCaller, Game, IllegalAction, Phase, Play, Position
from cheatdsl.words.notation import card_text, cards_text, claim_text, refusal_text

from .witness import Table, Witness, dealt, dealt_as

TURNS = 40  # plays the script makes at most before the claim


def grown_claim_play(game: Game, seed: int, dealer: int | None, count: int, naturals: int, jokers: int,
                     pid: str) -> Witness | str:
    """The game described above from the deal of `seed`, or why it could not be played."""
    rules = game.rules
    start = dealt(game, seed, dealer)
    if start.phase is not Phase.PLAY:
        return "no dealt game starts with a play"
    first = start.current_player()
    nxt = start.left_of(first)
    claims = [c for c in start.required_claims() if 0 <= c < rules.values and rules.deck_counts[c] >= naturals]
    if not claims:
        return "no claim the first player may open with has that many natural cards in the deck"
    claim = claims[0]
    wanted = [claim] * naturals + [rules.joker] * jokers
    hands = [list(start.hand_cards(s)) for s in range(game.players)]
    room = len(hands[first]) - 1
    if room < 1 or len(wanted) - room > len(hands[nxt]) - 1:
        return "the first two seats' hands cannot hold the claim's cards with a card to spare"
    made = _exchanged(game, start, hands, {first: wanted[:room], nxt: wanted[room:]}, claim)
    if isinstance(made, str):
        return made
    table = dealt_as(game, Position(tuple(map(tuple, made)), first, start.dealer or 0, stock=start.stock(),
                                    aside=start.aside()))
    if isinstance(table, str):
        return table
    st, begin = table
    try:
        return _script(game, Table(game, st), first, nxt, claim, count, naturals, jokers, pid, begin)
    except IllegalAction as exc:
        return f"the interpreter refuses a step: {refusal_text(exc)}"


def _exchanged(game: Game, st: Any, hands: list[list[int]], give: dict[int, list[int]],
               claim: int) -> list[list[int]] | str:
    """`hands` with the cards of `give` moved into the seats named, each in exchange for a card of that hand
    that is neither the claim nor a joker, taken from the other hands (the stock and the cards aside stay)."""
    rules = game.rules
    out = [list(h) for h in hands]
    for seat, cards in give.items():
        for value in cards:
            if out[seat].count(value) >= cards.count(value):
                continue
            donor = next((s for s in range(game.players) if s not in give and value in out[s]), None)
            spare = next((c for c in out[seat] if c not in (claim, rules.joker)), None)
            if donor is None or spare is None:
                return "the other hands do not hold the claim's cards to exchange"
            out[donor].remove(value)
            out[donor].append(spare)
            out[seat].remove(spare)
            out[seat].append(value)
    return out


def _spare_play(st: Any, seat: int, claim: int, keep: frozenset[int]) -> Play | None:
    """One card of `seat`'s hand outside `keep`, claimed as `claim` where the seat may, else as the first claim
    allowed, with the count the rules take for one card."""
    rules = st.game.rules
    hand = st.hand(seat)
    cards = [v for v, k in enumerate(hand) if k and v not in keep] or [v for v, k in enumerate(hand) if k]
    if not cards or rules.min_cards > 1:
        return None
    required = st.required_claims()
    said = claim if claim in required else (required[0] if required else None)
    if said is None:
        return None
    return Play((cards[0],), said, 1)


def _script(game: Game, table: Table, first: int, nxt: int, claim: int, count: int, naturals: int, jokers: int,
            pid: str, begin: dict[str, Any]) -> Witness | str:
    rules = game.rules
    st = table.state
    keep = frozenset((claim, rules.joker))
    cards = tuple(sorted([claim] * naturals + [rules.joker] * jokers))
    picked = False
    for _ in range(TURNS):
        if st.phase is Phase.TERMINAL:
            return "a seat went out before the claim was made"
        seat = st.current_player()
        hand = st.hand(seat)
        ready = hand[claim] >= naturals and hand[rules.joker] >= jokers
        if seat == first and ready and claim in st.required_claims():
            return _claimed(game, table, first, cards, claim, count, pid, begin)
        caller = None
        if seat == nxt and not picked and claim in st.required_claims() and hand[claim] + hand[rules.joker]:
            mine = tuple(sorted([claim] * hand[claim] + [rules.joker] * hand[rules.joker]))
            play = Play(mine, claim, len(mine))
            caller = first
        else:
            play = _spare_play(st, seat, claim, keep)
            if play is None:
                return "a seat has no card to spare"
        table.act(play)
        _answer(game, table, caller)
        picked = picked or (caller is not None and st.hand(first)[claim] >= naturals)
    return f"the first player did not come to claim {claim_text(game, claim, count)} within {TURNS} plays"


def _answer(game: Game, table: Table, caller: int | None) -> None:
    """Every responder accepts, but `caller`, which calls; the lot picks it; discards are kept where optional."""
    st = table.state
    name = game.rules.kind_names[0] if game.rules.kind_names else None
    while st.phase in (Phase.RESPOND, Phase.CHANCE, Phase.DISCARD):
        if st.phase is Phase.CHANCE:
            table.act(ChanceCaller(caller if caller in st.callers() else st.callers()[0]))
        elif st.phase is Phase.DISCARD:
            table.act(KEEP)
        elif caller is not None and st.current_player() == caller and name is not None:
            table.act(Challenge(name))
        else:
            table.act(ACCEPT)


def _claimed(game: Game, table: Table, seat: int, cards: tuple[int, ...], claim: int, count: int, pid: str,
             begin: dict[str, Any]) -> Witness | str:
    """The claim made and called by the first seat allowed to; a witness when the call judges it true."""
    st = table.state
    table.act(Play(cards, claim, count))
    called = False
    while st.phase is Phase.RESPOND:
        call = None if called else next((a for a in st.legal_actions() if isinstance(a, Challenge)), None)
        table.act(call if call is not None else ACCEPT)
        called = called or call is not None
    records = st.records
    if not called or not records or records[-1].caught or sorted(records[-1].revealed) != list(cards):
        return "the call at the end did not judge the claim true"
    r = records[-1]
    said = f"seat {seat} plays {cards_text(game, cards)} as {claim_text(game, claim, count)}"
    table.words.append(f"{said}; seat {r.challenger} challenges: true, seat {r.loser} picks up {r.taken} "
                       f"card{'s' if r.taken != 1 else ''}")
    expect = {"revealed": [card_text(game, c) for c in cards], "caught": False, "picked_up": r.loser if r.paid else None}
    return Witness(pid, game.players, begin, table.steps, expect, table.words,
                   f"seat {seat} makes the largest true claim, {claim_text(game, claim, count)}, with "
                   f"{cards_text(game, cards)}, its hand grown by a pickup (dealt from a deck in an order a "
                   "shuffle can give)")
