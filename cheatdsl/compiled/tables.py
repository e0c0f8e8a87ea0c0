"""A rulebook at a table as the flat numpy arrays the kernel reads, all worked out from `derived.TableRules`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from ..bots.base import copies_of
from ..bots.table import one_choice
from ..bots.honest import DOUBT, LAST_DOUBT, LAST_DOUBT_OUT
from ..derived import TableRules
from ..engine import Game, State
from ..jobs import free_memory
from ..model import ChallengeTest, CountRule, Priority


_COUNT_RULE = {CountRule.EXACT: 0, CountRule.EXTRA_ALLOWED: 1, CountRule.ANY: 2}  # kernel codes
_PRIORITY = {Priority.FIRST_CLOCKWISE: 0, Priority.OFFERED_IN_TURN: 1, Priority.FIRST_CALLER: 2}  # kernel codes


class TooLarge(ValueError):
    """The kernel's tables for a table would take more memory than they may (the message says how much)."""


class NotTabulated(ValueError):
    """A formula the kernel cannot read from a table worked out once (the message says which, in general
    terms)."""


class SeatFormulaReadsDeal(NotTabulated):
    """A seat formula asks about the deal, so it cannot be worked out once for the table."""


class _Unanswered(Exception):
    """A formula asked what a turn's table does not keep (`_TurnProbe`)."""


class KernelRules(NamedTuple):
    """The rules of one table as the kernel reads them: numbers and flags only (its arrays are `KernelTables`'
    other fields), read by name in each step of a turn (`compiled/steps.py`)."""

    cards: int                 # the deck's cards
    aside: int                 # cards set aside before the deal (their values stay out of play)
    dealt: int                 # cards dealt to the hands, round the table from the dealer's left
    players: int
    step: int                  # +1 clockwise, -1 anticlockwise
    by_lot: bool               # the dealer is chosen by lot (else seat 0)
    first_card: int            # the card value the first player's formula asks about the deal, or -1
    max_cards: int             # the card cap (the deck's size where the rules set none)
    count_rule: int            # common.EXACT, UP_TO_CARDS or ANY_COUNT: the counts a play may call
    count_top: int             # with ANY_COUNT, the highest count a play may call
    count_judged: bool         # a challenge catches a count called other than the cards put down
    show_pile: bool            # a challenge shows the whole pile (what `counter` remembers)
    priority: int              # common.NEAREST, IN_TURN or BY_LOT: which caller is heard
    turn_cap: int
    values: int                # card values (ranks) the hands count
    leads: bool                # a challenge ends the round: the next play leads (the `claims` rows of leads)
    last_holder: bool          # seats with empty hands leave and the last one holding cards loses (else the
                               # first out wins)
    set_size: int              # cards of a rank the loser of a challenge may put out as a set (0: no sets)
    emptied_out: bool          # a hand its sets emptied goes out
    reveal_all: bool           # a challenge turns the whole play over (else its top card)
    may_pass: bool
    leader_may_pass: bool
    all_pass_discards: bool    # when every seat in passes the pile leaves the game unseen
    all_pass_rounds: bool      # ... and a new round begins, led by `pass_leader`
    window_through_passes: bool  # a play that stood may be challenged until the next play (answers asked again
                               # after each pass)
    turn_win: bool             # `ending.turn_start_win` is set
    faces: int                 # card values the hands count: `values`, then the joker where the deck has jokers
    wild: int                  # the joker's value where it passes as any claim, else -1
    sets_forced: bool          # a loser's complete sets (and those dealt) leave at once, nobody choosing
    stock_size: int            # cards left after the deal as a stock to draw from (0: none)
    take_pile: bool            # the loser of a challenge takes the pile (else draws `draw_count` from the stock)
    draw_count: int
    short_takes_pile: bool     # a loser the stock cannot give the whole draw takes the pile as well
    failed_free: bool          # a challenger whose call was wrong suffers nothing (the pile stays)
    kinds: int                 # the challenge kinds allowed at the table
    preferred: int             # the kind bots call: the first that turns the play over, else the first (-1: none)
    force: int                 # the first kind that makes the claimant show a card from the hand, or -1
    doubt_scale: float         # `honest`'s doubt at which it challenges at its rate (bots/honest.py DOUBT)
    last_doubt: float          # ... and past which it challenges a claimant's last cards (LAST_DOUBT, or
                               # LAST_DOUBT_OUT where the last holder loses): read here, so the kernel's disk
                               # cache never keeps an old value


class KernelTables(NamedTuple):
    """The arrays one table of one rulebook becomes, and its `rules`; seats and claims are numbers, as in the
    engine."""

    rules: KernelRules
    deck: np.ndarray           # int64[cards]: the value of every card of the deck
    first_seat: np.ndarray     # int64[dealer, holder + 1]: the first player (-1: none is named), by the seat
                               # dealt `rules.first_card` (column 0: nobody; every column alike without one)
    claims: np.ndarray         # int64[row, i]: the claims allowed, ascending: row c after claim c, row `values`
                               # first, row `values + 1 + c` leading a round after claim c (with `leads`)
    choices: np.ndarray        # int64[previous claim]: how many claims each row of `claims` allows
    choice_slot: np.ndarray    # int64[previous claim]: the index in `lies` of that number of claims
    next_seat: np.ndarray      # int64[dealer, seats in, claimant, challenger, caught]: who plays after a
                               # challenge; `seats in` a bit a seat where seats leave (`last_holder`), else 0
    copies: np.ndarray         # int64[claim]: the deck's cards that pass as each claim, wild jokers too (what
                               # `honest` counts unseen)
    give_up: np.ndarray        # int64[seats in, claim, position]: `honest`'s order to give card values up to bluff
    give_up_group: np.ndarray  # int64[seats in, claim, position]: values asked for at one turn share a number
    lies: np.ndarray           # float64[pool, unseen, hand, played, choice slot]: `honest`'s chances of a lie,
                               # NaN until the kernel first works one out (a memo of this table, never shared)
    set_ranks: np.ndarray      # int64[]: the ranks a set may be of, in the engine's order
    row_set: np.ndarray        # int64[row]: the claim set of each row of `claims`, as an index of the tables below
    pass_ok: np.ndarray        # bool[set, leading, hand, holds]: `passing.when` for the claims required, whether
                               # the turn leads, the hand's size and the cards of it that pass as those claims
    pass_leader: np.ndarray    # int64[dealer, seats in, last player]: who leads after every seat passed
    wins_at_start: np.ndarray  # bool[set, leading, hand, holds]: `turn_start_win`, indexed as `pass_ok`
    kind_tests: np.ndarray     # int64[kind]: the test of each challenge kind allowed at the table, in the rules'
                               # order (common.PLAYED_TEST or HAND_TEST)
    weighed: np.ndarray        # int64[row]: the claims a responder takes the claimant of a play to have chosen among
                               # (its `choice_slot` in `lies`): the row's, or 1 everywhere where no row has two


def table_bytes(rules: TableRules, deck: int, copies: int, slots: int, claim_sets: int, seatings: int) -> int:
    """The bytes of the kernel's largest arrays for a table, worked out before any is made: `honest`'s lie memo
    (float64, in the square of the deck's size and of the copies of a claim), the turn tables of a passing rule
    and a turn-start win (one byte a cell, in the square of the deck's size), and the next players by seating."""
    n = rules.players
    memo = (deck + 1) * (copies + 1) * (deck + 1) * (copies + 1) * slots * 8
    turn = claim_sets * 2 * (deck + 1) ** 2
    turns = (turn if rules.may_pass else 0) + (turn if rules.turn_start_win is not None else 0)
    seats = n * seatings * n * n * 2 * 8 + n * seatings * n * 8
    return memo + turns + seats


def memory_budget() -> int:
    """The bytes the kernel's tables may take: a quarter of the memory free now (MemAvailable), at most 4 GiB
    (2 GiB where the machine does not say)."""
    free = free_memory()
    return 2 << 30 if free is None else min(4 << 30, free // 4)


def build(rules: TableRules, game: Game, budget: int | None = None) -> KernelTables:
    """The kernel's arrays for the table `rules` describes; `game` is the Python engine's game, whose seat
    formulas are asked once for every seat they can name. Assumes `support.refusal(rules, ...)` is None.
    Raises TooLarge, before any large array is made, where the arrays would take more than `budget` bytes
    (`memory_budget()` by default)."""
    budget = memory_budget() if budget is None else budget
    n = rules.players
    deck = np.array([rules.card_value(c) for c in rules.table.deck], dtype=np.int64)
    first = np.zeros((n, n + 1), dtype=np.int64)
    first_card = -1
    seatings = 1 << n if not rules.first_out else 1
    nxt = np.zeros((n, seatings, n, n, 2), dtype=np.int64)
    leaders = np.zeros((n, seatings, n), dtype=np.int64)
    for dealer, mask, state in _seatings(game):
        if mask == (1 << n) - 1 or rules.first_out:  # every seat in: the first player is named
            first_card = _first_players(game, state, dealer, first[dealer])
        _next_players(game, state, dealer, nxt[dealer, mask])
        if rules.round_ends_on_all_pass and rules.all_pass_leader is not None:
            _all_pass_leaders(game, state, dealer, leaders[dealer, mask])
    if not rules.dealer_by_lot:
        first[:] = first[0]
        nxt[:] = nxt[0]
        leaders[:] = leaders[0]
    claims, choices, slots, weighed = _claims(rules)
    row_set, claim_sets = _row_sets(claims, choices)
    copies = np.array([copies_of(game, c) for c in range(rules.values)], dtype=np.int64)
    need = table_bytes(rules, len(deck), int(copies.max(initial=0)), int(slots.max()) + 1, len(claim_sets), seatings)
    if need > budget:
        raise TooLarge(f"the compiled engine's tables for this table ({len(deck):,} cards) would take "
                       f"{need / 2**30:,.1f} GiB, past the {budget / 2**30:,.1f} GiB it may use")
    pass_ok = _turn_table(game, rules.pass_when, claim_sets, len(deck), "`passing.when`: a passing rule",
                          rules.may_pass)
    wins_at_start = _turn_table(game, rules.turn_start_win, claim_sets, len(deck),
                                "`ending.turn_start_win`: a win at the start of a turn",
                                False)
    give_up, groups = _give_up(game, n)
    faces = rules.values + (1 if rules.deck_counts[rules.joker] else 0)
    set_ranks = np.array(list(rules.ranks_in_play) if rules.set_size else [], dtype=np.int64)
    kind_tests, preferred, force = _kinds(rules)
    scalars = KernelRules(
        cards=len(deck), aside=rules.table.set_aside, dealt=sum(rules.hand_sizes), players=n, step=rules.step,
        by_lot=rules.dealer_by_lot, first_card=first_card,
        max_cards=int(rules.max_cards if rules.max_cards is not None else len(deck)),
        count_rule=_COUNT_RULE[rules.rulebook.claim.count],
        count_top=int(rules.any_count_cap if rules.any_count else 0), count_judged=rules.count_judged,
        show_pile=rules.show_pile, priority=_PRIORITY[rules.rulebook.challenge.priority],
        turn_cap=int(game.turn_limit), values=rules.values, leads=rules.round_ends_on_challenge,
        last_holder=not rules.first_out, set_size=int(rules.set_size or 0), emptied_out=not rules.emptied_stays_in,
        reveal_all=rules.reveal_all, may_pass=rules.may_pass, leader_may_pass=rules.leader_may_pass,
        all_pass_discards=rules.all_pass_discards,
        all_pass_rounds=rules.round_ends_on_all_pass and rules.all_pass_leader is not None,
        window_through_passes=rules.window_through_passes, turn_win=rules.turn_start_win is not None, faces=faces,
        wild=rules.joker if rules.wild else -1, sets_forced=rules.set_size is not None and rules.sets_forced,
        stock_size=rules.stock_count, take_pile=rules.take_pile, draw_count=int(rules.draw or 0),
        short_takes_pile=rules.short_stock_takes_pile, failed_free=rules.failed_call_free, kinds=len(kind_tests),
        preferred=preferred, force=force,
        doubt_scale=DOUBT, last_doubt=LAST_DOUBT if rules.first_out else LAST_DOUBT_OUT)
    return KernelTables(
        rules=scalars, deck=deck, first_seat=first, claims=claims, choices=choices, choice_slot=slots, next_seat=nxt,
        copies=copies, give_up=give_up, give_up_group=groups,
        lies=_lie_memo(len(deck), int(copies.max(initial=0)), int(slots.max()) + 1), set_ranks=set_ranks,
        row_set=row_set, pass_ok=pass_ok, pass_leader=leaders, wins_at_start=wins_at_start, kind_tests=kind_tests,
        weighed=weighed)


def _kinds(rules: TableRules) -> tuple[np.ndarray, int, int]:
    """Each challenge kind's test in the rules' order, the kind the bots call (`bots.base.preferred_challenge`)
    and the Force (`force_challenge`)."""
    tests = [1 if k.test is ChallengeTest.HAND else 0 for k in rules.kinds]
    preferred = tests.index(0) if 0 in tests else (0 if tests else -1)
    force = tests.index(1) if 1 in tests else -1
    return np.array(tests, dtype=np.int64), preferred, force


def _seatings(game: Game) -> Iterator[tuple[int, int, State]]:
    """For each dealer the table can have and each seating (two seats in or more, where seats leave; else
    every seat in, seating 0), a state laid out by that dealer with those seats in and no card in a hand: what
    seat formulas are read at (those that ask about the deal are answered by `_deal_probe`, or refused)."""
    rules = game.rules
    n = game.players
    for dealer in range(n) if rules.dealer_by_lot else range(1):
        # Every seat in, no turn begun: a deal through the engine would apply the turn-start rules already, and a
        # seat winning at its first turn would have left the table the formulas are read at.
        dealt = game.new_initial_state()
        dealt.lay_out(dealer, [[0] * (rules.values + 1)] * n)
        if rules.first_out:
            yield dealer, 0, dealt
            continue
        for mask in range(3, 1 << n):
            if bin(mask).count("1") < 2:
                continue
            state = dealt.clone()
            for out in range(n):
                if not mask >> out & 1:
                    state.leave(out, False)
            yield dealer, mask, state


def _first_players(game: Game, state: State, dealer: int, out: np.ndarray) -> int:
    """Into out[holder + 1]: the first player `setup.first_player` names after a deal by `dealer`, for each
    seat that may hold the one card it asks about (column 0: nobody holds it; -1: no seat is named); every
    column alike where it asks nothing of the deal. Returns that card's value, or -1. Raises NotTabulated
    for a formula that asks about more than one card, or about a card that shares its value with others
    (where claims are by rank the hands do not say which of a rank's cards a seat holds)."""
    rules = game.rules
    probe = _deal_probe(game)
    asked: set[int] = set()
    for holder in (None, *range(game.players)):
        facts = probe(state, dealer)
        facts.answer, facts.asked = holder, asked
        seat = rules.first_player.code(facts)
        out[0 if holder is None else holder + 1] = -1 if seat is None else seat % game.players
    if not asked:
        return -1
    (card, *others) = asked
    value = rules.card_value(card)
    if others or rules.deck_counts[value] != 1:
        raise SeatFormulaReadsDeal("`setup.first_player`: a first player named by more than one card of the deal, "
                                   "or by a card the hands do not tell apart from others of its rank")
    return value


def _deal_probe(game: Game) -> type:
    """The game's formula context answering `holder` (and so `dealt`) with a chosen seat, and noting the
    cards asked about in `asked`."""
    base = game.facts_type

    class _DealProbe(base):  # type: ignore[misc, valid-type]
        answer: int | None = None
        asked: set[int]

        def holder(self, card: int) -> int | None:
            self.asked.add(card)
            return self.answer

    return _DealProbe


def _next_players(game: Game, state: State, dealer: int, out: np.ndarray) -> None:
    """Into out[claimant, challenger, caught]: the seat `next_player` names after a challenge at `state`'s
    seating, moved on to the next seat still in where it names one gone (`challenge.settle`)."""
    n = game.players
    for claimant in range(n):
        for challenger in range(n):
            for caught in (0, 1):
                winner, loser = (challenger, claimant) if caught else (claimant, challenger)
                facts = game.facts(state, dealer, claimant=claimant, challenger=challenger, winner=winner,
                                   loser=loser, caught=bool(caught))
                seat = game.rules.next_player.code(facts)
                if facts.read_deal:
                    raise SeatFormulaReadsDeal("`challenge.next_player`: a next player named by the deal")
                seat = claimant if seat is None else seat % n
                out[claimant, challenger, caught] = seat if state.is_in(seat) else state.left_of(seat)


def _claims(rules: TableRules) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The claims allowed after each claim and first (`rules.follow_claims`, `rules.first_claims`, in claim
    value order, as the engine offers them), how many each allows, a slot in the lie memo for each number of
    claims a responder weighs, and that number for each row."""
    v = rules.values
    rows = [rules.follow_claims[c] if c < len(rules.follow_claims) else () for c in range(v)] + [rules.first_claims]
    if rules.round_ends_on_challenge or rules.round_ends_on_all_pass:
        rows += [rules.lead_claims[c] if c < len(rules.lead_claims) else () for c in range(v)]
        rows.append(rules.lead_none_claims)
    claims = np.zeros((len(rows), max(1, max(map(len, rows)))), dtype=np.int64)
    for previous, allowed in enumerate(rows):
        claims[previous, :len(allowed)] = allowed
    choices = np.array([len(allowed) for allowed in rows], dtype=np.int64)
    # Where no play has a choice of claims, a responder takes every claimant to have had one (`bots.table
    # .one_choice`), also at a turn that allows none (answers asked again after a pass there).
    weighed = np.ones_like(choices) if one_choice(rules) else choices
    counts = sorted(set(weighed.tolist()))
    slots = np.array([counts.index(k) for k in weighed.tolist()], dtype=np.int64)
    return claims, choices, slots, weighed


def _lie_memo(deck: int, copies: int, slots: int) -> np.ndarray:
    """An empty memo of `honest`'s chances of a lie, for `slots` numbers of claims allowed: a play of more
    cards than pass (at most `copies`) is a certain lie and never kept, so the matching cards and the cards
    played stay within `copies`."""
    return np.full((deck + 1, copies + 1, deck + 1, copies + 1, slots), np.nan)


def _give_up(game: Game, seats: int) -> tuple[np.ndarray, np.ndarray]:
    """For each number of seats in (two to `seats`; fewer read as two) and each claim, the `honest` bot's
    order to give card values up (`bots.table.Tables.give_up_order`, the same rule read from the same place)
    and the group of each position, over the card values the hands count (the joker last, where the deck has
    jokers)."""
    from ..bots.table import tables_for
    rules = game.rules
    values = rules.values
    faces = values + (1 if rules.deck_counts[rules.joker] else 0)
    order = np.zeros((seats + 1, values, faces), dtype=np.int64)
    group = np.zeros((seats + 1, values, faces), dtype=np.int64)
    tables = tables_for(game)
    for seated in range(2, seats + 1):
        for claim in range(values):
            given = tables.give_up_order(claim, seated)
            kept = [(v, g) for v, (g, _) in zip(given.values, given.groups) if v < faces]
            number, previous = -1, None
            for p, (v, g) in enumerate(kept):
                if g != previous:
                    number, previous = number + 1, g
                order[seated, claim, p], group[seated, claim, p] = v, number
    order[:2], group[:2] = order[2], group[2]
    return order, group


def _row_sets(claims: np.ndarray, choices: np.ndarray) -> tuple[np.ndarray, list[frozenset[int]]]:
    """Each row of `claims` as an index into the distinct claim sets of the table, and those sets."""
    sets: list[frozenset[int]] = []
    index = np.zeros(len(choices), dtype=np.int64)
    for row, k in enumerate(choices.tolist()):
        allowed = frozenset(claims[row, :k].tolist())
        if allowed not in sets:
            sets.append(allowed)
        index[row] = sets.index(allowed)
    return index, sets


def _turn_table(game: Game, formula: object, sets: list[frozenset[int]], deck: int, what: str,
                default: bool) -> np.ndarray:
    """A turn formula (`passing.when`, `ending.turn_start_win`) for every claim set required, whether the
    turn leads, every hand size and every count of the hand's cards that pass as the claims required;
    `default` everywhere where the rulebook has none (and a one-cell table where that is False). Raises
    NotTabulated for a formula that reads more of the hand than that count, or names seats."""
    if formula is None:
        if not default:
            return np.zeros((1, 2, 1, 1), dtype=np.bool_)
        return np.ones((len(sets), 2, deck + 1, deck + 1), dtype=np.bool_)
    table = np.zeros((len(sets), 2, deck + 1, deck + 1), dtype=np.bool_)
    probe = _turn_probe(game)
    code = formula.code  # type: ignore[attr-defined]
    for i, required in enumerate(sets):
        most = sum(game.rules.deck_counts[c] for c in required if c < game.rules.values)
        if game.rules.wild:
            most += game.rules.deck_counts[game.rules.joker]
        for leading in (0, 1):
            for hand in range(deck + 1):
                for holds in range(min(hand, most) + 1):
                    facts = probe(None, 0, hand=hand, leading=bool(leading), required=required, acting=0)
                    facts.holding = holds
                    try:
                        table[i, leading, hand, holds] = bool(code(facts))
                    except _Unanswered:
                        raise NotTabulated(f"{what} that reads more of the hand than the cards of the claims "
                                           "required, or names seats") from None
    return table


def _turn_probe(game: Game) -> type:
    """The game's formula context, answering `holds` only for the claims required (with `holding`) and
    refusing every seat fact: what a turn's table keeps."""
    base = game.facts_type

    class _TurnProbe(base):  # type: ignore[misc, valid-type]
        holding = 0

        def holds(self, claims: frozenset[int]) -> int:
            if claims != self.required:
                raise _Unanswered
            return self.holding

        def _seat_fact(self, *_: object) -> int:
            raise _Unanswered

        left = right = seat = holder = dealt = _seat_fact

    return _TurnProbe


def _all_pass_leaders(game: Game, state: State, dealer: int, out: np.ndarray) -> None:
    """Into out[last player]: who leads after every seat passed (`passing.all_pass_leader` of the last
    player, moved on to the next seat still in) at `state`'s seating."""
    n = game.players
    for last in range(n):
        facts = game.facts(state, dealer, last_player=last)
        seat = game.rules.all_pass_leader.code(facts)  # type: ignore[union-attr]
        if facts.read_deal:
            raise SeatFormulaReadsDeal("`passing.all_pass_leader`: a leader after every seat passed named by the deal")
        seat = last if seat is None else seat % n
        out[last] = seat if state.is_in(seat) else state.left_of(seat)
