"""A compiled rulebook in plain words: one short cell per rule dimension of the rules catalogue."""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Table
from ..expr.ast import Name
from ..model import (
    AfterLast,
    ChallengeKind,
    ChallengeTest,
    ClaimKind,
    CountRule,
    DealerChoice,
    DealStyle,
    Direction,
    EmptiedBySets,
    EndStyle,
    FailedCall,
    Formula,
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
from . import counts, words
from .words import Vocabulary, number_word, plural


@dataclass(frozen=True)
class Dimension:
    """One row of the comparison: a stable key and the catalogue's name for it."""

    key: str
    label: str


DIMENSIONS: tuple[Dimension, ...] = (
    Dimension("players", "players"),
    Dimension("deck", "deck"),
    Dimension("out_of_play", "cards out of play"),
    Dimension("deal", "deal"),
    Dimension("first_player", "dealer and first player"),
    Dimension("claimed", "what is claimed"),
    Dimension("required", "required claim"),
    Dimension("cards_per_play", "cards per play"),
    Dimension("count", "count honesty"),
    Dimension("passing", "passing"),
    Dimension("turn_order", "turn order"),
    Dimension("call", "what a challenger says"),
    Dimension("who_challenges", "who may challenge, when"),
    Dimension("several_challengers", "several challengers"),
    Dimension("reveal", "what a challenge reveals"),
    Dimension("truth_test", "truth test"),
    Dimension("penalty", "penalty"),
    Dimension("next_player", "who plays next after a challenge"),
    Dimension("sets", "sets leaving the game"),
    Dimension("ending", "winning and ending"),
)
LABELS = {d.key: d.label for d in DIMENSIONS}


def describe(rulebook: Rulebook) -> dict[str, str]:
    """Every dimension of `rulebook` in words, in the order of DIMENSIONS."""
    d = Describer(rulebook)
    return {dim.key: getattr(d, dim.key)() for dim in DIMENSIONS}


def count_range(low: int, high: int | None, unit: str = "") -> str:
    """`1 to 4`, `exactly 1`, `1 or more` (with `unit`: `1 to 4 cards`)."""
    tail = f" {unit}s" if unit else ""
    if high is None:
        return f"{low} or more{tail}"
    if low == high:
        return f"exactly {low}{' ' + unit if unit and low == 1 else tail}"
    return f"{low} to {high}{tail}"


def _round_end_words(ends: frozenset[RoundEnd]) -> str:
    events = []
    if RoundEnd.CHALLENGE in ends:
        events.append("after a challenge")
    if RoundEnd.ALL_PASS in ends:
        events.append("when everyone passes")
    return " or ".join(events)


class Describer:
    """The words for each dimension of one rulebook; each method is one cell."""

    def __init__(self, rulebook: Rulebook) -> None:
        self.rb = rulebook
        self.v = Vocabulary.of(rulebook)
        self.unit = self.v.unit

    # -- helpers ----------------------------------------------------------------------------------

    def values(self, formula: Formula, place: str) -> dict[int, int] | None:
        """A table formula's whole-number value at each player count; None when one cannot be worked out."""
        found = counts.values(self.rb, formula, place)
        if found is None or not all(isinstance(v, int) for v in found.values()):
            return None
        return found

    def claims(self, formula: Formula) -> str:
        return words.claims(formula.expr, self.v)

    def seat(self, formula: Formula) -> str:
        return words.seat(formula.expr, self.v)

    def condition(self, formula: Formula) -> str:
        return words.condition(formula.expr, self.v)

    def amount(self, formula: Formula, place: str, unit: str) -> str:
        """A table formula as counts by player count: `12 cards`, `one pack, two packs from 5 players`."""
        by = self.values(formula, place)
        if by is None:
            return f"{unit}s: {words.number(formula.expr, self.v)}"
        pieces = counts.runs(by)
        first = pieces[0]
        text = plural(first[2], unit, words=True)
        for low, _, value in pieces[1:]:
            text += f", {plural(value, unit, words=True)} from {low} players"
        return text

    def _ranks_in_play(self) -> dict[int, int]:
        return {n: len(Table(self.rb, n).ranks_in_play) for n in self.rb.players.counts()}

    def wrap_words(self) -> str:
        """What comes after the last claim of the order, when a formula steps through it."""
        c = self.rb.claim
        uses_next = any(words.uses(f.expr, ("next",)) for f in (c.first, c.follow, c.lead))
        uses_prev = any(words.uses(f.expr, ("prev",)) for f in (c.first, c.follow, c.lead))
        if not (uses_next or uses_prev):
            return ""
        first, last = self._ends()
        if c.after_last is AfterLast.WRAP:
            if uses_next and uses_prev:
                return f"{first} and {last} are neighbours"
            return f"{first} after {last}" if uses_next else f"{last} after {first}"
        if uses_next and uses_prev:
            return f"nothing beyond {first} or {last}"
        return f"nothing after {last}" if uses_next else f"nothing before {first}"

    def _ends(self) -> tuple[str, str]:
        """The first and last claims of the order, in words (the last may depend on the player count)."""
        rb = self.rb
        ranks = rb.deck.ranks
        in_play = counts.constant(self._ranks_in_play())
        if in_play is None or in_play == 0:
            return "the first", "the last"
        low, high = ranks[0], ranks[in_play - 1]
        if rb.claim.kind is ClaimKind.CARD:
            suits = rb.deck.suits
            return f"the {low.name} of {suits[0].name}", f"the {high.name} of {suits[-1].name}"
        return low.plural, high.plural

    # -- the dimensions ---------------------------------------------------------------------------

    def players(self) -> str:
        p = self.rb.players
        return f"exactly {p.min}" if p.min == p.max else f"{p.min} to {p.max}"

    def deck(self) -> str:
        rb = self.rb
        deck = rb.deck
        suits = len(deck.suits)
        in_play = self._ranks_in_play()
        fixed_ranks = counts.constant(in_play)
        packs = self.values(deck.packs, "deck")
        if fixed_ranks is not None:
            size = fixed_ranks * suits
            shown = deck.ranks[:fixed_ranks]
            span = "" if fixed_ranks == 13 and suits == 4 else f" ({shown[0].symbol} to {shown[-1].symbol})"
            kind = f"{size}-card pack"
        else:
            order = ", ".join(r.symbol for r in deck.ranks)
            assert deck.ranks_used is not None
            span = (f" of only the first ({words.number(deck.ranks_used.expr, self.v)}) ranks of {order}")
            kind = "pack"
        if packs is None:
            text = f"{words.number(deck.packs.expr, self.v)} {kind}s{span}"
        else:
            pieces = counts.runs(packs)
            text = f"{plural(pieces[0][2], kind, words=True)}{span}"
            for low, _, value in pieces[1:]:
                text += f", {plural(value, 'pack', words=True)} from {low} players"
        if deck.jokers == 0:
            text += ", no jokers"
        else:
            wild = "wild " if deck.jokers_wild else ""
            text += f", {number_word(deck.jokers)} {wild}joker{'s' if deck.jokers != 1 else ''}"
            if not deck.jokers_wild:
                text += ", not wild"
        return text

    def out_of_play(self) -> str:
        rb = self.rb
        parts = []
        aside = self.values(rb.deal.set_aside, "set_aside")
        if aside is None or any(aside.values()):
            parts.append(f"{self.amount(rb.deal.set_aside, 'set_aside', 'card')} set aside unseen")
        leftover = self._leftover()
        if leftover:
            if rb.deal.surplus is Surplus.STOCK:
                parts.append("the cards not dealt form a draw pile")
            else:
                parts.append("cards left over after the deal, face down out of play")
        return "; ".join(parts) if parts else "none"

    def _leftover(self) -> bool:
        """Whether some player count leaves cards undealt."""
        if self.rb.deal.style is DealStyle.ALL:
            return False
        for n in self.rb.players.counts():
            sizes = Table(self.rb, n).hand_sizes()
            if isinstance(sizes, str) or sizes[1] > 0:
                return True
        return False

    def deal(self) -> str:
        deal = self.rb.deal
        if deal.style is DealStyle.ALL:
            return "all cards, hands may differ by one"
        if deal.style is DealStyle.EQUAL:
            text = "equal hands"
            if deal.minimum_hand > 1:
                text += f" of at least {number_word(deal.minimum_hand)}"
            if deal.hand_size is not None:
                text += f", at most {self.amount(deal.hand_size, 'hand_size', 'card')} each"
            return text
        assert deal.hand_size is not None
        return f"{self.amount(deal.hand_size, 'hand_size', 'card')} each"

    def first_player(self) -> str:
        setup = self.rb.setup
        dealer = "dealer by lot" if setup.dealer is DealerChoice.LOT else "the same seat always deals"
        who = self.seat(setup.first_player)
        if " if " in who:
            return f"the first to play is {who}; {dealer}"
        return f"{who} plays first; {dealer}"

    def claimed(self) -> str:
        if self.rb.claim.kind is ClaimKind.CARD:
            return "one exact card, rank and suit"
        return "a count and a rank"

    def required(self) -> str:
        c = self.rb.claim
        first, follow, lead = self.claims(c.first), self.claims(c.follow), self.claims(c.lead)
        rounds = bool(c.round_ends)
        each_round = rounds and c.first.canonical == c.lead.canonical
        if not rounds and c.first.canonical == c.follow.canonical:
            text = f"{first} on every play"
        else:
            text = f"{first} to start{' each round' if each_round else ''}, then {follow}"
        if c.kind is ClaimKind.CARD and words.uses(c.follow.expr, ("next", "prev")):
            ranks = self.rb.deck.ranks
            suits = ", ".join(s.name for s in self.rb.deck.suits)
            text += f" ({ranks[0].name} to {ranks[-1].name}, suit by suit: {suits})"
        if words.uses(c.follow.expr, ("above", "below")) or words.uses(c.first.expr, ("above", "below")):
            ranks = self.rb.deck.ranks
            text += f" ({ranks[0].symbol} low, {ranks[-1].symbol} high)"
        wrap = self.wrap_words()
        if wrap:
            text += f", {wrap}"
        if rounds:
            if not each_round:
                text += f"; {lead} to lead a new round"
            text += f"; a new round {_round_end_words(c.round_ends)}"
        return text

    def cards_per_play(self) -> str:
        c = self.rb.claim
        return count_range(c.min_cards, c.max_cards)

    def count(self) -> str:
        c = self.rb.claim
        caught = self.rb.challenge.reveal is Reveal.PLAY
        if c.count is CountRule.EXACT:
            return f"exact: only the {self.unit} may be a lie"
        if c.count is CountRule.EXTRA_ALLOWED:
            return ("extra cards may be slipped in beyond the count called"
                    + ("; a challenge catches them" if caught else ", unseen by a challenge"))
        return ("the count called may be higher or lower than the cards played"
                + ("; a challenge catches a wrong count" if caught else ""))

    def passing(self) -> str:
        p = self.rb.passing
        if not p.allowed:
            free = self.rb.claim.follow.canonical == "any"
            return "not allowed" if free else "not allowed: you must bluff"
        text = "allowed"
        if p.when is not None:
            text += f" when {self.condition(p.when)}"
        if not p.leader_may_pass:
            text += ", but not when leading a round"
        everyone = "the pile leaves the game unseen" if p.all_pass_pile is PileAfter.DISCARDED else "the pile stays"
        text += f"; if everyone passes, {everyone}"
        if p.all_pass_leader is not None:
            text += f" and {self.seat(p.all_pass_leader)} leads"
        return text

    def turn_order(self) -> str:
        if self.rb.players.max == 2:
            return "the two players alternate"
        return "clockwise" if self.rb.setup.direction is Direction.CLOCKWISE else "anticlockwise"

    def _when(self, kind: ChallengeKind) -> str:
        return f" (only when {self.condition(kind.allowed_when)})" if kind.allowed_when is not None else ""

    def call(self) -> str:
        return "; ".join(f"\"{k.call}\"{self._when(k)}" for k in self.rb.challenge.kinds)

    def who_challenges(self) -> str:
        window = self.rb.challenge.window
        if window is Window.COUNT_OF_THREE:
            return "any other player, within a count of three"
        return "any other player, before the next play"

    def several_challengers(self) -> str:
        ch = self.rb.challenge
        way = "clockwise" if self.rb.setup.direction is Direction.CLOCKWISE else "anticlockwise"
        if ch.priority is Priority.FIRST_CLOCKWISE:
            return f"first {way} from the claimant"
        if ch.priority is Priority.OFFERED_IN_TURN:
            return f"asked one by one, {way} from the claimant; the first challenge counts"
        return "whoever called first"

    def _hand_kinds(self) -> list[ChallengeKind]:
        return [k for k in self.rb.challenge.kinds if k.test is ChallengeTest.HAND]

    def reveal(self) -> str:
        ch = self.rb.challenge
        single = self.rb.claim.max_cards == 1
        if ch.reveal is Reveal.TOP_CARD:
            text = "the single card played" if single else "only the top card of the newest play"
        else:
            text = "the single card played" if single else "every card of the newest play"
        if ch.show_pile:
            text += "; then the whole pile is shown before it is taken"
        for k in self._hand_kinds():
            text += f"; \"{k.call}\": a card of the claimed {self.unit} from the claimant's hand"
        return text

    def truth_test(self) -> str:
        rb = self.rb
        single = rb.claim.max_cards == 1 or rb.challenge.reveal is Reveal.TOP_CARD
        if rb.claim.kind is ClaimKind.CARD:
            text = "the card is exactly the one claimed" if single else "every card is exactly the one claimed"
        else:
            text = "the card has the claimed rank" if single else "every card has the claimed rank"
        if rb.deck.jokers and rb.deck.jokers_wild:
            text += "; jokers wild"
        if rb.claim.count is not CountRule.EXACT and rb.challenge.reveal is Reveal.PLAY:
            text += "; and the count called is the count played"
        for k in self._hand_kinds():
            text += f"; \"{k.call}\": the claimant can show such a card"
        return text

    def penalty(self) -> str:
        pen = self.rb.challenge.penalty
        if pen.kind is PenaltyKind.TAKE_PILE:
            text = "the loser takes the whole pile"
        else:
            text = f"the loser draws {plural(pen.draw, 'card', words=True)} from the stock"
            text += "; the pile stays" if pen.pile_after is PileAfter.STAYS else "; the pile leaves the game"
            if pen.short_stock is ShortStock.TAKE_PILE:
                text += "; when the stock runs short, the loser takes the pile as well"
            else:
                text += "; when the stock runs short, only what is left"
        if pen.failed_call is FailedCall.FREE:
            text += "; but a wrong call costs the challenger nothing"
            if pen.kind is PenaltyKind.TAKE_PILE:
                text += "; the pile stays" if pen.pile_after is PileAfter.STAYS else "; the pile leaves the game"
            return text
        for k in self._hand_kinds():
            text += f"; \"{k.call}\": a card shown goes to the challenger as well"
        return text

    def next_player(self) -> str:
        text = self.seat(self.rb.challenge.next_player)
        if RoundEnd.CHALLENGE in self.rb.claim.round_ends:
            text += ", leading a new round"
        return text

    def sets(self) -> str:
        sets = self.rb.sets
        if sets is None:
            return "none"
        size = self.values(sets.size, "sets")
        fixed = counts.constant(size)
        is_copies = isinstance(sets.size.expr, Name) and sets.size.expr.name == "copies"
        if fixed is not None:
            amount = f"all {fixed}" if is_copies else number_word(fixed)
        else:
            amount = words.number(sets.size.expr, self.v)
        natural = " natural" if sets.naturals_only and self.rb.deck.jokers else ""
        what = f"{amount}{natural} cards of a rank"
        if sets.mode is SetMode.OPTIONAL:
            return f"after a pickup, a player may discard {what}"
        return f"{what} leave the game at once, from any hand"

    def ending(self) -> str:
        end = self.rb.ending
        if end.style is EndStyle.FIRST_OUT:
            text = "first out wins"
        else:
            text = "players go out one by one; the last holding cards loses"
        if end.out_check is OutCheck.AFTER_WINDOW:
            text += "; a last play must survive a challenge"
        else:
            text += " at once; a last play cannot be challenged"
        if self.rb.sets is not None:
            if end.emptied_by_sets is EmptiedBySets.OUT:
                text += "; a hand emptied by sets after a lost challenge is out"
            else:
                text += "; a hand emptied by sets after a lost challenge stays in, passed over while empty"
        if end.turn_start_win is not None:
            text += f"; you also go out when your turn comes and {self.condition(end.turn_start_win)}"
        if end.turn_cap is not None:
            text += f"; stopped without a winner after {end.turn_cap} plays"
        return text
