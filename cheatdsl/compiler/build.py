"""Building the model from a merged node tree, section by section, collecting every problem."""

from __future__ import annotations

from ..diagnostics import Diagnostics, shown
from ..expr import Scope
from ..expr.ast import Call, Expr, children
from ..model import (
    AfterLast,
    ChallengeKind,
    ChallengeRules,
    ChallengeTest,
    ClaimKind,
    ClaimRules,
    CountRule,
    Deal,
    DealerChoice,
    DealStyle,
    Deck,
    Direction,
    EmptiedBySets,
    Ending,
    EndStyle,
    Expectation,
    FailedCall,
    OutCheck,
    Passing,
    Penalty,
    PenaltyKind,
    PileAfter,
    PlayerRange,
    Priority,
    Rank,
    Reveal,
    RoundEnd,
    Rulebook,
    SetDiscard,
    SetMode,
    Setup,
    ShortStock,
    Suit,
    Surplus,
    VariationInfo,
    Window,
)
from ..profiles import NAME_RULE, is_safe_name
from ..properties import PROPERTY_IDS
from ..syntax.cards import STANDARD_RANK_ORDER, STANDARD_RANKS, STANDARD_SUIT_ORDER, STANDARD_SUITS
from ..syntax.hints import suggest
from ..syntax.table import SECTIONS, VERDICTS
from ..syntax.tree import ListNode, MapNode, kind_of
from .fields import Section
from .scopes import scope_for

TOP_LEVEL = tuple(f.name for f in SECTIONS[""])


def uses_function(expr: Expr, names: tuple[str, ...]) -> bool:
    """True when the formula calls one of the named functions anywhere."""
    if isinstance(expr, Call) and expr.function in names:
        return True
    return any(uses_function(child, names) for child in children(expr))


def default_name(path: str) -> str:
    """The name of a rulebook that gives none: its file name without the suffix."""
    stem = path.rsplit("/", 1)[-1].split(".")[0]
    return stem if is_safe_name(stem) else "rulebook"


class Builder:
    """Reads one merged rulebook tree into the model."""

    def __init__(self, tree: MapNode, path: str, chain: tuple[str, ...], active: list[str], d: Diagnostics,
                 dropped_expect: MapNode | None = None) -> None:
        self.tree = tree
        self.dropped_expect = dropped_expect
        self.path = path
        self.chain = chain
        self.active = active
        self.d = d
        self.ranks: tuple[Rank, ...] = ()
        self.suits: tuple[Suit, ...] = ()
        self.cards = False

    def scope(self, place: str) -> Scope:
        return scope_for(place, self.ranks, self.suits, self.cards)

    def build(self) -> Rulebook | None:
        top = Section(self.tree, "", self.d)
        name = top.text("rulebook", default=default_name(self.path))
        if not is_safe_name(name):
            self.d.error(top.span("rulebook"), "E021", f"the rulebook's name '{shown(name, 60)}' is not a plain name",
                         f"a name may hold {NAME_RULE}: it names files the tools write")
        title = top.text("title", default=name)
        source = top.text("source")
        players = self.players(top)
        claim_node = top.section("claim")
        if claim_node is not None:
            kind = claim_node.choice("kind", ClaimKind.RANK)
            self.cards = kind is ClaimKind.CARD
        deck = self.deck(top.section("deck"))
        deal = self.deal(top.section("deal"))
        setup = self.setup(top.section("setup"))
        claim = self.claim(claim_node)
        passing = self.passing(top.section("passing"))
        challenge = self.challenge(top.section("challenge"))
        sets_section = top.section("sets")
        sets = self.sets(sets_section) if sets_section is not None else None
        ending = self.ending(top.section("ending"))
        expectations = self.expectations(top.section("expect"))
        variations = self.variations(top)
        top.finish()
        if (self.d.has_errors() or players is None or deck is None or deal is None or setup is None
                or claim is None or passing is None or challenge is None or ending is None):
            return None
        return Rulebook(name, title, source, self.path, self.chain, players, deck, deal, setup, claim,
                        passing, challenge, sets, ending, expectations, variations, self.tree.span,
                        self.dropped())

    def dropped(self) -> tuple[Expectation, ...]:
        """The base's expectations the house rule left behind (read quietly: the base was checked)."""
        if self.dropped_expect is None:
            return ()
        return Builder(self.dropped_expect, self.path, self.chain, [], Diagnostics()).expectations(
            Section(self.dropped_expect, "expect", Diagnostics()))

    def players(self, top: Section) -> PlayerRange | None:
        low, high = top.count_range("players", default=(0, 0))
        if low == 0 and high == 0:
            return None
        span = top.span("players")
        if high is None:
            self.d.error(span, "E208", "`players` needs an upper limit, such as 3..10")
            return None
        if low < 2:
            self.d.error(span, "E204", f"`players` starts at {low}; a game of Cheat needs at least two")
            return None
        if high > 20:
            self.d.error(span, "E204", f"`players` goes up to {high}; at most 20 seats are supported")
            return None
        return PlayerRange(low, high, span, (("players", span),))

    def deck(self, s: Section | None) -> Deck | None:
        if s is None:
            return None
        ranks = []
        seen: set[str] = set()
        s.used.update(("ranks", "suits"))
        rank_words = s.words("ranks") if s.node.get("ranks") is not None else [(r, s.span()) for r in STANDARD_RANK_ORDER]
        for symbol, span in rank_words:
            if symbol in seen:
                self.d.error(span, "E210", f"rank `{symbol}` is listed twice")
                continue
            seen.add(symbol)
            if symbol not in STANDARD_RANKS:
                self.d.error(span, "E211", f"unknown rank `{symbol}`",
                             suggest(symbol, list(STANDARD_RANKS)) or "ranks are " + " ".join(STANDARD_RANK_ORDER))
                continue
            name, plural = STANDARD_RANKS[symbol]
            ranks.append(Rank(symbol, name, plural, span))
        if not ranks and not self.d.has_errors():
            self.d.error(s.span("ranks"), "E212", "the deck has no ranks")
        suits: list[Suit] = []
        suit_words = s.words("suits") if s.node.get("suits") is not None else [(x, s.span()) for x in STANDARD_SUIT_ORDER]
        for word, span in suit_words:
            if word not in STANDARD_SUITS:
                self.d.error(span, "E211", f"unknown suit `{word}`",
                             suggest(word, list(STANDARD_SUITS)) or "suits are " + ", ".join(STANDARD_SUITS))
                continue
            if any(x.name == word for x in suits):
                self.d.error(span, "E210", f"suit `{word}` is listed twice")
                continue
            suits.append(Suit(word, STANDARD_SUITS[word], span))
        if not suits:
            self.d.error(s.span("suits"), "E212", "the deck has no suits")
        self.ranks, self.suits = tuple(ranks), tuple(suits)
        packs = s.formula("packs", self.scope, default="1")
        jokers = s.integer("jokers", 0)
        wild = s.boolean("jokers_wild", jokers > 0)
        used = s.formula("ranks_used", self.scope)
        s.finish()
        if packs is None:
            return None
        return Deck(self.ranks, self.suits, packs, jokers, wild, used, s.node.span, s.spans())

    def deal(self, s: Section | None) -> Deal | None:
        if s is None:
            return None
        style: DealStyle | None = s.choice("style", None)
        hand = s.formula("hand_size", self.scope)
        minimum = s.integer("minimum_hand", 1)
        aside = s.formula("set_aside", self.scope, default="0")
        surplus = s.choice("surplus", Surplus.ASIDE)
        s.finish()
        if style is DealStyle.FIXED and hand is None:
            self.d.error(s.node.span, "E201", "`deal.hand_size` is missing: a fixed deal must say how many cards each")
        if style is None or aside is None:
            return None
        return Deal(style, hand, minimum, aside, surplus or Surplus.ASIDE, s.node.span, s.spans())

    def setup(self, s: Section | None) -> Setup | None:
        if s is None:
            return None
        dealer = s.choice("dealer", DealerChoice.LOT)
        first = s.formula("first_player", self.scope)
        direction = s.choice("direction", Direction.CLOCKWISE)
        s.finish()
        if first is None:
            return None
        return Setup(dealer or DealerChoice.LOT, first, direction or Direction.CLOCKWISE, s.node.span, s.spans())

    def claim(self, s: Section | None) -> ClaimRules | None:
        if s is None:
            return None
        kind = s.choice("kind", ClaimKind.RANK) or ClaimKind.RANK
        low, high = s.count_range("cards")
        if low < 1:
            self.d.error(s.span("cards"), "E204", "`claim.cards` must start at 1 or more: a play puts down at least one card")
        count = s.choice("count", CountRule.EXACT) or CountRule.EXACT
        first = s.formula("first", self.scope)
        follow = s.formula("follow", self.scope)
        lead = s.formula("lead", self.scope, default="any")
        uses_order = any(uses_function(f.expr, ("next", "prev")) for f in (first, follow, lead) if f is not None)
        after_last: AfterLast | None = s.choice("after_last", None, required=uses_order)
        ends: set[RoundEnd] = set()
        for word, span in s.words("round_ends"):
            match = [e for e in RoundEnd if e.value == word.replace("-", "_")]
            if match:
                ends.add(match[0])
            else:
                self.d.error(span, "E205", f"`claim.round_ends` takes challenge or all_pass, found '{word}'",
                             suggest(word, [e.value for e in RoundEnd]))
        s.finish()
        if first is None or follow is None or lead is None:
            return None
        return ClaimRules(kind, low, high, count, first, follow, lead, after_last or AfterLast.WRAP,
                          frozenset(ends), s.node.span, s.spans())

    def passing(self, s: Section | None) -> Passing | None:
        if s is None:
            return None
        allowed = s.boolean("allowed", False)
        when = s.formula("when", self.scope)
        leader = s.boolean("leader_may_pass", False)
        pile = s.choice("all_pass_pile", PileAfter.DISCARDED) or PileAfter.DISCARDED
        leader_formula = s.formula("all_pass_leader", self.scope, required=allowed)
        s.finish()
        return Passing(allowed, when, leader, pile, leader_formula, s.node.span, s.spans())

    def challenge(self, s: Section | None) -> ChallengeRules | None:
        if s is None:
            return None
        kinds = self.challenge_kinds(s)
        window = s.choice("window", Window.BEFORE_NEXT_PLAY) or Window.BEFORE_NEXT_PLAY
        priority = s.choice("priority", Priority.FIRST_CLOCKWISE) or Priority.FIRST_CLOCKWISE
        reveal: Reveal | None = s.choice("reveal", None)
        show = s.boolean("show_pile", False)
        penalty = self.penalty(s.section("penalty"))
        nxt = s.formula("next_player", self.scope)
        s.finish()
        if reveal is None or penalty is None or nxt is None:
            return None
        return ChallengeRules(kinds, window, priority, reveal, show, penalty, nxt, s.node.span, s.spans())

    def challenge_kinds(self, s: Section) -> tuple[ChallengeKind, ...]:
        node = s.raw("kinds")
        if node is None:
            return (ChallengeKind("cheat", "Cheat!", ChallengeTest.PLAYED, None, s.node.span),)
        if not isinstance(node, ListNode):
            self.d.error(node.span, "E202", f"`challenge.kinds` must be a list of sections, found {kind_of(node)}")
            return ()
        kinds: list[ChallengeKind] = []
        for index, item in enumerate(node.items):
            if not isinstance(item, MapNode):
                self.d.error(item.span, "E202", f"each entry of `challenge.kinds` must be a section, found {kind_of(item)}")
                continue
            k = Section(item, f"challenge.kinds[{index}]", self.d)
            name = k.text("name")
            call = k.text("call", default=name)
            test = k.choice("test", ChallengeTest.PLAYED) or ChallengeTest.PLAYED
            when = k.formula("allowed_when", self.scope)
            k.finish()
            if any(x.name == name for x in kinds):
                self.d.error(item.span, "E210", f"challenge `{name}` is defined twice")
            kinds.append(ChallengeKind(name, call, test, when, item.span, k.spans()))
        if not kinds:
            self.d.error(node.span, "E212", "`challenge.kinds` is empty: no play could ever be challenged")
        return tuple(kinds)

    def penalty(self, s: Section | None) -> Penalty | None:
        if s is None:
            return None
        kind: PenaltyKind | None = s.choice("kind", None)
        draw = s.integer("draw", 0)
        pile = s.choice("pile_after", PileAfter.STAYS) or PileAfter.STAYS
        short = s.choice("short_stock", ShortStock.NOTHING) or ShortStock.NOTHING
        failed = s.choice("failed_call", FailedCall.PAYS) or FailedCall.PAYS
        s.finish()
        if kind is PenaltyKind.DRAW and draw == 0:
            self.d.error(s.node.span, "E201", "`challenge.penalty.draw` is missing: say how many cards the loser draws")
        if kind is None:
            return None
        return Penalty(kind, draw, pile, short, failed, s.node.span, s.spans())

    def sets(self, s: Section) -> SetDiscard | None:
        size = s.formula("size", self.scope)
        mode: SetMode | None = s.choice("mode", None)
        naturals = s.boolean("naturals_only", True)
        s.finish()
        if size is None or mode is None:
            return None
        return SetDiscard(size, mode, naturals, s.node.span, s.spans())

    def ending(self, s: Section | None) -> Ending | None:
        if s is None:
            return None
        style: EndStyle | None = s.choice("style", None)
        check = s.choice("out_check", OutCheck.AFTER_WINDOW) or OutCheck.AFTER_WINDOW
        win = s.formula("turn_start_win", self.scope)
        cap = s.optional_integer("turn_cap")
        emptied = s.choice("emptied_by_sets", EmptiedBySets.OUT) or EmptiedBySets.OUT
        s.finish()
        if style is None:
            return None
        return Ending(style, check, win, cap, emptied, s.node.span, s.spans())

    def expectations(self, s: Section | None) -> tuple[Expectation, ...]:
        if s is None:
            return ()
        out = []
        for entry in s.node.entries:
            s.used.add(entry.key)
            value = entry.value
            word = str(getattr(value, "value", "")).replace("-", "_")
            if entry.key not in PROPERTY_IDS:
                self.d.error(entry.key_span, "E406", f"unknown property `{entry.key}`",
                             suggest(entry.key, list(PROPERTY_IDS)) or "see docs/properties.md")
                continue
            if word not in VERDICTS:
                self.d.error(value.span, "E205", f"expected verdict for `{entry.key}` must be one of "
                             f"{', '.join(VERDICTS)}, found {kind_of(value)}", suggest(word, list(VERDICTS)))
                continue
            out.append(Expectation(entry.key, word, entry.key_span))
        return tuple(out)

    def variations(self, top: Section) -> tuple[VariationInfo, ...]:
        node = top.raw("variations")
        if not isinstance(node, MapNode):
            return ()
        out = []
        for entry in node.entries:
            if not is_safe_name(entry.key):
                self.d.error(entry.key_span, "E022", f"the variation name '{shown(entry.key, 60)}' is not a plain name",
                             f"a name may hold {NAME_RULE}")
            summary = ""
            conflicts: tuple[str, ...] = ()
            if isinstance(entry.value, MapNode):
                summary = str(getattr(entry.value.get("summary"), "value", "") or "")
                c = entry.value.get("conflicts")
                if isinstance(c, ListNode):
                    conflicts = tuple(str(getattr(i, "value", "")) for i in c.items)
            out.append(VariationInfo(entry.key, summary, conflicts, entry.key in self.active, entry.key_span))
        return tuple(out)

