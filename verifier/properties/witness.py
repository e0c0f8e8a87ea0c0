"""Witnesses: plays the solver found, played again by the interpreter and written as scenarios.

A trace of the full game is replayed exactly (its deal becomes a scenario position, each turn the
interpreter's actions). A trace of the merged game only fixes the turns' shape (who plays how many
cards, who challenges, whether the lie is caught); the cards are chosen from the interpreter's
hands as the turn goes. Either way the interpreter is the judge: a witness counts only if the
replayed game shows what the verifier claims.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from cheatdsl.engine import (
    ACCEPT as ENGINE_ACCEPT,
)
from cheatdsl.engine import (
    KEEP,
    Challenge,
    ChanceDealer,
    ChanceShuffle,
    DiscardSet,
    Game,
    IllegalAction,
    Phase,
    Play,
    Position,
    State,
)
from cheatdsl.engine import (
    PASS as ENGINE_PASS,
)
from cheatdsl.engine.deal import deal_deck, deal_in_order, deck_dealing
from cheatdsl.profiles import reference_to
from cheatdsl.scenario import Scenario
from cheatdsl.words.notation import action_text, cards_text, claim_text, deck_card_text, refusal_text

from ..encoding.spec import Spec
from ..encoding.transitions import CHALLENGE, PASS
from .search import Trace

_PLAY, _RESPOND, _DISCARD, _TERMINAL = Phase.PLAY, Phase.RESPOND, Phase.DISCARD, Phase.TERMINAL


@dataclass
class Witness:
    """A replayed play: how it starts (a seed or a position), the actions in the scenario notation
    (with checkpoints), what the scenario expects at the end, and the play in words."""

    property: str
    players: int
    start: dict[str, Any]
    actions: list[Any]
    expect: dict[str, Any]
    words: list[str] = field(default_factory=list)
    summary: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"property": self.property, "players": self.players, "start": self.start, "actions": self.actions,
                "expect": self.expect, "words": self.words, "summary": self.summary}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Witness:
        return Witness(data["property"], data["players"], data["start"], data["actions"], data["expect"],
                       data.get("words", []), data.get("summary", ""))


def scenario_of(data: dict[str, Any], rulebook: str, variations: tuple[str, ...] = (), name: str = "",
                path: str | None = None) -> Scenario:
    """The witness as a scenario; `rulebook` is written as a shipped profile's name, or a path relative to
    `path`'s folder."""
    w = Witness.from_json(data)
    where = rulebook
    if path is not None:
        where = reference_to(rulebook, os.path.dirname(os.path.abspath(path)))
    fields: dict[str, Any] = {}
    if "position" in w.start:
        fields["position"] = w.start["position"]
    else:
        if "deck" in w.start:
            fields["deck"] = w.start["deck"]
        else:
            fields["seed"] = w.start["seed"]
        if w.start.get("dealer") is not None:
            fields["dealer"] = w.start["dealer"]
    return Scenario(name=name or f"{w.property}: {w.summary}", rulebook=where, players=w.players,
                    actions=list(w.actions), expect=dict(w.expect), source=f"cheatdsl verify, {w.property}",
                    variations=list(variations), path=path, **fields)


def steps_text(game: Game, moves: list[Any]) -> list[Any]:
    """Scenario steps of moves kept as (seat, action); checkpoints (dicts) and steps written as they are."""
    # The same action recurs (every accept, a play made again): written once, known by its identity (the
    # moves hold every action, so no two of them share one while this runs).
    written: dict[int, str] = {}
    heads = [f"{seat}: " for seat in range(game.players)]
    out: list[Any] = []
    for m in moves:
        if m.__class__ is not tuple:  # a checkpoint, or a step already written
            out.append(m)
            continue
        seat, action = m
        text = written.get(id(action))
        if text is None:
            text = written[id(action)] = action_text(game, action)
        out.append((heads[seat] if seat >= 0 else "chance: ") + text)
    return out


# A sentence of the play, kept as (seat, play or None for a pass, then: None, ACCEPTED or the challenge's
# RevealRecord) and written out only for a witness kept (most games played keep none); or a sentence
# already written. A seat None says nothing before the challenge.
Said = tuple[int | None, Play | None, Any] | str
ACCEPTED = True


def said_text(game: Game, said: Said) -> str:
    """The sentence `said` stands for."""
    if isinstance(said, str):
        return said
    seat, play, then = said
    if seat is None:
        words = ""
    elif play is None:
        words = f"seat {seat} passes"
    else:
        words = f"seat {seat} plays {cards_text(game, play.cards)} as {claim_text(game, play.claim, play.count)}"
    if then is None:
        return words
    if then is ACCEPTED:
        return f"{words}; accepted"
    r = then
    return (f"{words}; seat {r.challenger} challenges: {'a lie' if r.caught else 'true'}, "
            f"seat {r.loser} picks up {r.taken} card{'s' if r.taken != 1 else ''}")


def words_text(game: Game, said: list[Said]) -> list[str]:
    return [said_text(game, w) for w in said]


class Table:
    """An interpreter game being replayed, with the scenario steps and the words, kept as moves and
    written out when read (`steps`, `words`)."""

    def __init__(self, game: Game, state: State) -> None:
        self.game = game
        self.state = state
        self.moves: list[Any] = []  # (seat, action) for each action applied, or a checkpoint (a dict)
        self.said: list[Said] = []
        # The same play or call made again is the same object: written once by `steps_text`.
        self._plays: dict[tuple[tuple[int, ...], int, int], Play] = {}
        self._calls: dict[str, Challenge] = {}

    @property
    def steps(self) -> list[Any]:
        """The scenario steps so far: `moves` itself, written out in place (a step added to it stays)."""
        self.moves[:] = steps_text(self.game, self.moves)
        return self.moves

    @property
    def words(self) -> list[str]:
        """The play so far in words: `said` itself, written out in place (a sentence added to it stays)."""
        self.said[:] = words_text(self.game, self.said)
        return cast(list[str], self.said)

    def act(self, action: Any) -> None:
        st = self.state
        seat = st.to_act
        st.apply_action(action)
        self.moves.append((seat, action))

    def checkpoint(self, expect: dict[str, Any]) -> None:
        self.moves.append({"expect": expect})

    def turn(self, kind: int, cards: tuple[int, ...], claim: int, count: int, challenger: int | None,
             test: str | None, discards: dict[int, int] | None = None) -> None:
        """One turn as the verifier's step: a play answered by all, or challenged by `challenger`; or a pass
        (after which, where a pass leaves the last play open, `challenger` may challenge that play)."""
        g, st = self.game, self.state
        moves = self.moves
        seat = st.to_act
        records = st.records
        reveals = len(records)
        play = None
        if kind == PASS:
            st.apply_action(ENGINE_PASS)
            moves.append((seat, ENGINE_PASS))
        else:
            play = self._plays.get((cards, claim, count))
            if play is None:
                play = self._plays[cards, claim, count] = Play(cards, claim, count)
            st.apply_action(play)
            moves.append((seat, play))
        # The one challenger the step names; every other responder accepts (with calls made at once, the
        # responders after it answer too before the call is heard).
        until = challenger if kind in (CHALLENGE, PASS) and challenger is not None else -1
        add = moves.append
        while st.phase is _RESPOND:
            for answer in st.accept_until(until):
                add((answer, ENGINE_ACCEPT))
            if until >= 0 and st.phase is _RESPOND and st.to_act == until:
                name = test or g.rules.kind_names[0]
                action = self._calls.get(name) or self._calls.setdefault(name, Challenge(name))
                st.apply_action(action)
                add((until, action))
        if len(records) > reveals:
            self.said.append((seat, play, records[-1]))
        else:
            self.said.append((seat, None, None) if kind == PASS else (seat, play, ACCEPTED))
        if st.phase is _DISCARD:
            for rank, k in (discards or {}).items():
                for _ in range(k):
                    if st.phase is _DISCARD:
                        self.act(DiscardSet(rank))
            if st.phase is _DISCARD:
                self.act(KEEP)
        if st.phase is _TERMINAL:
            res = st.result()
            if res is not None:
                self.said.append(f"the game ends: {res.reason}")


def win_expected(st: State, seat: int) -> dict[str, Any]:
    """What a scenario of a game `seat` won must find at its end: the winner where the first seat out wins,
    else the order out as the game left it (`seat` first, and any seat that went out after it, for example
    at the start of its next turn, after it)."""
    if st.game.rules.first_out:
        return {"winner": seat, "over": True}
    return {"out": list(st.order_out())}


def dealt(game: Game, seed: int, dealer: int | None) -> State:
    st = game.new_initial_state()
    if game.rules.dealer_by_lot:
        st.apply_action(ChanceDealer(dealer or 0))
    st.apply_action(ChanceShuffle(seed))
    return st


def dealt_in_order(game: Game, dealer: int | None, order: list[int]) -> State:
    """A game dealt by the rules from the deck laid in `order` (the places of the table's deck, top first), as
    `dealt` deals a shuffled one, `dealer` dealing where the dealer is drawn by lot."""
    st = game.new_initial_state()
    if game.rules.dealer_by_lot:
        st.apply_action(ChanceDealer(dealer or 0))
    deal_in_order(st, order)
    return st


def position_of(sp: Spec, game: Game, trace: Trace) -> Position:
    """The trace's deal as a table: the hands dealt, the stock in the order it is drawn."""
    d = trace.deal
    n = sp.n
    hands = tuple(tuple(sorted(v for i, v in enumerate(sp.live) for _ in range(d["dealt"][q][i]))) for q in range(n))
    drawn: list[int] = []
    for a in trace.actions:
        for i, k in enumerate(a["draws"]):
            drawn.extend([sp.live[i]] * k)
    left = {i: d["stock"][i] for i in range(sp.width)}
    for v in drawn:
        left[sp.live.index(v)] -= 1
    stock = tuple(drawn) + tuple(v for i, v in enumerate(sp.live) for _ in range(max(left[i], 0)))
    aside = tuple(v for i, v in enumerate(sp.live) for _ in range(d["aside"][i]))
    return Position(hands=hands, to_play=trace.states[0]["actor"], dealer=d["dealer"], stock=stock, aside=aside)


def dealt_as(game: Game, pos: Position) -> tuple[State, dict[str, Any]] | str:
    """The table `pos` holds as a deal by the rules: a deck laid so that the rules deal those hands, stock and
    cards aside, dealt by the interpreter (forced sets, the first player and the turn-start rules its own), with
    the scenario start that deals it; or why the rules do not deal that table."""
    deck = deck_dealing(game, pos.dealer, [list(h) for h in pos.hands], list(pos.stock), list(pos.aside))
    if deck is None:
        return "the rules of this table do not deal those hands"
    st = game.new_initial_state()
    if game.rules.dealer_by_lot:
        st.apply_action(ChanceDealer(pos.dealer))
    deal_deck(st, deck)
    if st.phase is not _PLAY or st.current_player() != pos.to_play or any(
            st.hand_cards(s) != tuple(sorted(pos.hands[s])) for s in range(game.players)):
        return "dealt by the rules, those cards start another game (another first player, sets put out, or a win)"
    start: dict[str, Any] = {"deck": [deck_card_text(game, c) for c in deck]}
    if game.rules.dealer_by_lot:
        start["dealer"] = pos.dealer
    return st, start


def replay_exact(sp: Spec, game: Game, trace: Trace) -> tuple[Table, dict[str, Any]] | str:
    """The full game's trace played by the interpreter from its deal (a deck the rules deal into the trace's
    hands); or why it could not be."""
    pos = position_of(sp, game, trace)
    made = dealt_as(game, pos)
    if isinstance(made, str):
        return f"the trace's deal is not one the rules make: {made}"
    st, start = made
    table = Table(game, st)
    try:
        for a in trace.actions:
            cards = tuple(sorted(v for i, v in enumerate(sp.live) for _ in range(a["cards"][i])))
            claim = sp.claims[a["claim"]] if 0 <= a["claim"] < len(sp.claims) else sp.claims[0]
            test = sp.rules.kinds[a["test"]].name if 0 <= a["test"] < len(sp.rules.kinds) else None
            discards = {sp.rules.ranks_in_play[r]: k for r, k in enumerate(a["discards"]) if k > 0}
            table.turn(a["kind"], cards, claim, a["count"], a["challenger"], test, discards)
    except IllegalAction as exc:
        return f"the interpreter refuses a step: {refusal_text(exc)}"
    return table, start


def lowest(hand: list[int], k: int) -> tuple[int, ...]:
    """The `k` lowest cards of `hand` (its count of each card value), fewer if it holds fewer: the first `k`
    of its cards sorted."""
    out: list[int] = []
    for v, c in enumerate(hand):
        if c:
            if len(out) + c >= k:
                out.extend([v] * (k - len(out)))
                return tuple(out)
            out.extend([v] * c)
    return tuple(out)


Chooser = Callable[[State, int, int, bool | None], tuple[tuple[int, ...], int] | None]


def choose(game: Game, st: State, k: int, kind: int, truth: bool | None) -> tuple[tuple[int, ...], int] | None:
    """Cards and a claim for a play of `k` cards that is true (`truth`), a lie (not `truth`), or either."""
    counts = st.hand(st.current_player())
    required = list(st.required_claims())
    if sum(counts) < k or not required:
        return None
    if truth is None:  # the lowest cards, as the first claim allowed
        return lowest(counts, k), required[0]
    hand = list(st.hand_cards(st.current_player()))
    wild = game.rules.wild

    def fits(c: int, claim: int) -> bool:
        return c == claim or (wild and c == game.rules.joker)

    for claim in required:
        good = [c for c in hand if fits(c, claim)]
        bad = [c for c in hand if not fits(c, claim)]
        if truth is True and len(good) >= k:
            return tuple(sorted(good[:k])), claim
        if truth is False and bad:
            rest = [c for c in hand if c != bad[0]]
            return tuple(sorted([bad[0], *rest[:k - 1]])), claim
    return None


def replay_shape(game: Game, state: State, trace: Trace, rotate: int = 0) -> Table | str:
    """A merged trace played from `state`: each turn of the same kind and size, cards chosen to fit."""
    table = Table(game, state)
    n = game.players
    window = trace.spec.rules.window_through_passes
    # A challenge after a pass judges the last play: that play is made true or a lie to match its verdict.
    truths: dict[int, bool] = {}
    last_play = -1
    for i, a in enumerate(trace.actions):
        if a["kind"] != PASS:
            last_play = i
        elif window and a["challenger"] >= 0 and a.get("caught") is not None and last_play >= 0:
            truths[last_play] = not a["caught"]
    try:
        for i, a in enumerate(trace.actions):
            if state.phase is not _PLAY:
                return "the game ended before the play did"
            k = sum(a["cards"])
            if a["kind"] == PASS:  # a pass, and where the last play is still open, perhaps a challenge of it
                called = a["challenger"] >= 0 and window
                kinds = trace.spec.rules.kinds
                test = kinds[a["test"]].name if called and 0 <= a["test"] < len(kinds) else None
                table.turn(PASS, (), 0, 0, (a["challenger"] + rotate) % n if called else None, test)
                continue
            truth = truths.get(i)
            if a["kind"] == CHALLENGE and a.get("caught") is not None:
                truth = not a["caught"]
            picked = choose(game, state, k, a["kind"], truth)
            if picked is None:
                return f"seat {state.current_player()} holds no cards that make that play"
            cards, claim = picked
            count = k if game.rules.exact else min(max(a["count"], game.rules.min_cards), k)
            ch = (a["challenger"] + rotate) % n if a["kind"] == CHALLENGE else None
            test = trace.spec.rules.kinds[a["test"]].name if a["kind"] == CHALLENGE and trace.spec.rules.kinds else None
            table.turn(a["kind"], cards, claim, count, ch, test)
    except IllegalAction as exc:
        return f"the interpreter refuses a step: {refusal_text(exc)}"
    return table
