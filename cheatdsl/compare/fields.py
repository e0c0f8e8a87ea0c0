"""Every rule field of the model as a sentence a card player reads, with the dimension it belongs to.

`cheatdsl diff` says what a house rule changes field by field; each field here gives the sentence
for its value in one rulebook, and says when the field makes no difference to play (a lead rule in
a game whose rounds never end, a joker rule without jokers).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..model import (
    AfterLast,
    ClaimKind,
    CountRule,
    DealerChoice,
    DealStyle,
    Direction,
    EmptiedBySets,
    EndStyle,
    FailedCall,
    OutCheck,
    PenaltyKind,
    PileAfter,
    Priority,
    Reveal,
    RoundEnd,
    Rulebook,
    ShortStock,
    Surplus,
    Window,
)
from . import words
from .describe import Describer, count_range

Say = Callable[[Describer], str]
Relevant = Callable[[Rulebook], str]


@dataclass(frozen=True)
class Field:
    """One rule field: its dimension (a row of `compare`), its sentence, and when it matters.

    `idle(rb)` is "" when the field matters under `rb`'s other rules, else the reason it does not.
    `part_of` names a field whose sentence already says this one's value: when that field changes
    too, this one needs no sentence of its own.
    """

    path: str
    dimension: str
    say: Say
    idle: Relevant = lambda rb: ""
    part_of: str = ""


def _steps_through(rb: Rulebook) -> str:
    c = rb.claim
    stepped = any(words.uses(f.expr, ("next", "prev")) for f in (c.first, c.follow, c.lead))
    return "" if stepped else "no claim rule steps through the order with next or prev"


def _when_passing(rb: Rulebook) -> str:
    return "" if rb.passing.allowed else "passing is not allowed"


def _when_drawing(rb: Rulebook) -> str:
    return "" if rb.challenge.penalty.kind is PenaltyKind.DRAW else "the loser takes the pile"


def _count(d: Describer) -> str:
    c = d.rb.claim
    if c.count is CountRule.EXACT:
        return f"the count called must be the count played: only the {d.unit} may be a lie"
    if c.count is CountRule.EXTRA_ALLOWED:
        caught = d.rb.challenge.reveal is Reveal.PLAY
        return ("a play may hold extra cards beyond the count called"
                + ("; a challenge catches them" if caught else "; a challenge does not see them"))
    return "the count called may be higher or lower than the cards played; a challenge catches a wrong count"


def _follow(d: Describer) -> str:
    wrap = d.wrap_words()
    return f"each later call is {d.claims(d.rb.claim.follow)}" + (f", {wrap}" if wrap else "")


def _after_last(d: Describer) -> str:
    wrap = d.wrap_words()
    verb = "the order wraps round" if d.rb.claim.after_last is AfterLast.WRAP else "the order stops at its end"
    return f"{verb}: {wrap}" if wrap else verb


def _round_ends(d: Describer) -> str:
    ends = d.rb.claim.round_ends
    if not ends:
        return "rounds never end: the order of calls runs on through every challenge"
    events = []
    if RoundEnd.CHALLENGE in ends:
        events.append("after a challenge")
    if RoundEnd.ALL_PASS in ends:
        events.append("when everyone passes")
    return f"a round ends {' or '.join(events)}, and a new one is led"


def _deal(d: Describer) -> str:
    deal = d.rb.deal
    if deal.style is DealStyle.ALL:
        return "every card is dealt; hands may differ by one"
    if deal.style is DealStyle.EQUAL:
        return f"the deal gives {d.deal()}; the cards left over are not dealt"
    return f"the deal gives {d.deal()}"


def _set_aside(d: Describer) -> str:
    by = d.values(d.rb.deal.set_aside, "set_aside")
    if by is not None and not any(by.values()):
        return "no card is set aside before the deal"
    return f"{d.amount(d.rb.deal.set_aside, 'set_aside', 'card')} set aside unseen before the deal"


def _priority(d: Describer) -> str:
    p = d.rb.challenge.priority
    way = "clockwise" if d.rb.setup.direction is Direction.CLOCKWISE else "anticlockwise"
    if p is Priority.FIRST_CLOCKWISE:
        return f"of several challengers, the first {way} from the claimant challenges"
    if p is Priority.OFFERED_IN_TURN:
        return f"the other players are asked one by one, {way} from the claimant; the first to challenge does"
    return "of several challengers, whoever called first challenges"


def _penalty(d: Describer) -> str:
    pen = d.rb.challenge.penalty
    if pen.kind is PenaltyKind.TAKE_PILE:
        return "the loser of a challenge takes the whole pile"
    pile = "the pile stays" if pen.pile_after is PileAfter.STAYS else "the pile leaves the game"
    return f"the loser of a challenge draws {words.plural(pen.draw, 'card', words=True)} from the stock; {pile}"


def _short_stock(d: Describer) -> str:
    if d.rb.challenge.penalty.short_stock is ShortStock.TAKE_PILE:
        return "when the stock runs short, the loser of a challenge draws what is left and takes the pile as well"
    return "when the stock runs short, the loser of a challenge draws only what is left"


def _failed_call(d: Describer) -> str:
    pen = d.rb.challenge.penalty
    if pen.failed_call is FailedCall.FREE:
        pile = "the pile stays" if pen.pile_after is PileAfter.STAYS else "the pile leaves the game"
        return f"a wrong call costs the challenger nothing ({pile}); only a caught claimant pays"
    return "a wrong call costs the challenger the same as a caught lie costs the claimant"


def _kinds(d: Describer) -> str:
    parts = []
    for k in d.rb.challenge.kinds:
        when = f" when {d.condition(k.allowed_when)}" if k.allowed_when is not None else ""
        if k.test.value == "hand":
            test = f"the claimant must show a card of the claimed {d.unit} from hand"
        else:
            test = "the cards just played are turned over"
        parts.append(f"\"{k.call}\"{when}: {test}")
    return "a play is challenged by " + "; or ".join(parts)


def _next_player(d: Describer) -> str:
    who = d.seat(d.rb.challenge.next_player)
    return f"after a challenge, the next to play is {who}" if " if " in who else f"after a challenge, {who} plays next"


def _sets(d: Describer) -> str:
    return "no sets leave the game" if d.rb.sets is None else f"sets leave the game: {d.sets()}"


def _ending(d: Describer) -> str:
    if d.rb.ending.style is EndStyle.FIRST_OUT:
        return "the first player out of cards wins and the game ends"
    return "players go out one by one as their hands empty; the last one holding cards loses"


def _out_check(d: Describer) -> str:
    if d.rb.ending.out_check is OutCheck.AFTER_WINDOW:
        return "a last play must survive its challenge before its player is out"
    return "an empty hand counts at once: a last play cannot be challenged"


def _emptied_by_sets(d: Describer) -> str:
    if d.rb.ending.emptied_by_sets is EmptiedBySets.OUT:
        return "a player whose hand is emptied by the sets discarded after losing a challenge is out"
    return ("a player whose hand is emptied by the sets discarded after losing a challenge stays in, "
            "passed over while holding nothing")


FIELDS: tuple[Field, ...] = (
    Field("players", "players", lambda d: f"the game is for {d.players()} players"),
    Field("deck.ranks", "deck", lambda d: f"the deck is {d.deck()}; the ranks run "
          + ", ".join(r.symbol for r in d.rb.deck.ranks) + " in claim order"),
    Field("deck.suits", "deck", lambda d: "the suits run " + ", ".join(s.name for s in d.rb.deck.suits)),
    Field("deck.packs", "deck", lambda d: f"the deck is {d.deck()}"),
    Field("deck.jokers", "deck", lambda d: f"the deck is {d.deck()}"),
    Field("deck.ranks_used", "deck", lambda d: f"the deck is {d.deck()}"),
    Field("deck.jokers_wild", "truth_test",
          lambda d: "jokers are wild" if d.rb.deck.jokers_wild else "jokers are not wild",
          lambda rb: "" if rb.deck.jokers else "there are no jokers"),
    Field("deal.style", "deal", _deal),
    Field("deal.hand_size", "deal", lambda d: f"the deal gives {d.deal()}",
          lambda rb: "every card is dealt" if rb.deal.style is DealStyle.ALL else "", "deal.style"),
    Field("deal.minimum_hand", "deal", lambda d: f"the deal gives {d.deal()}",
          lambda rb: "" if rb.deal.style is DealStyle.EQUAL else "the hands are not dealt equal", "deal.style"),
    Field("deal.set_aside", "out_of_play", _set_aside),
    Field("deal.surplus", "out_of_play",
          lambda d: "the cards not dealt form a draw pile" if d.rb.deal.surplus is Surplus.STOCK
          else "the cards not dealt stay face down out of play",
          lambda rb: "every card is dealt" if rb.deal.style is DealStyle.ALL else ""),
    Field("setup.dealer", "first_player",
          lambda d: "the dealer is chosen by lot" if d.rb.setup.dealer is DealerChoice.LOT
          else "the same seat always deals"),
    Field("setup.first_player", "first_player", lambda d: f"{d.seat(d.rb.setup.first_player)} plays first"),
    Field("setup.direction", "turn_order", lambda d: f"play goes {d.rb.setup.direction.value}"),
    Field("claim.kind", "claimed", lambda d: "a play claims a count and a rank" if d.rb.claim.kind is ClaimKind.RANK
          else "a play claims one exact card, rank and suit"),
    Field("claim.cards", "cards_per_play",
          lambda d: f"a play holds {count_range(d.rb.claim.min_cards, d.rb.claim.max_cards, 'card')}"),
    Field("claim.count", "count", _count),
    Field("claim.first", "required", lambda d: f"the first play of the game claims {d.claims(d.rb.claim.first)}"),
    Field("claim.follow", "required", _follow),
    Field("claim.lead", "required", lambda d: f"a new round is led with {d.claims(d.rb.claim.lead)}",
          lambda rb: "" if rb.claim.round_ends else "rounds never end"),
    Field("claim.after_last", "required", _after_last, _steps_through),
    Field("claim.round_ends", "required", _round_ends),
    Field("passing.allowed", "passing", lambda d: f"passing is {d.passing()}"),
    Field("passing.when", "passing",
          lambda d: "a player may pass at any turn" if d.rb.passing.when is None
          else f"a player may pass only when {d.condition(d.rb.passing.when)}", _when_passing, "passing.allowed"),
    Field("passing.leader_may_pass", "passing",
          lambda d: "the player leading a round may pass" if d.rb.passing.leader_may_pass
          else "the player leading a round may not pass", _when_passing, "passing.allowed"),
    Field("passing.all_pass_pile", "passing",
          lambda d: "when everyone passes, the pile leaves the game unseen"
          if d.rb.passing.all_pass_pile is PileAfter.DISCARDED else "when everyone passes, the pile stays",
          _when_passing, "passing.allowed"),
    Field("passing.all_pass_leader", "passing",
          lambda d: "after everyone passes, the next player in turn leads" if d.rb.passing.all_pass_leader is None
          else f"after everyone passes, {d.seat(d.rb.passing.all_pass_leader)} leads", _when_passing,
          "passing.allowed"),
    Field("challenge.kinds", "call", _kinds),
    Field("challenge.window", "who_challenges",
          lambda d: "a challenger has a count of three" if d.rb.challenge.window is Window.COUNT_OF_THREE
          else "a challenge must come before the next play"),
    Field("challenge.priority", "several_challengers", _priority),
    Field("challenge.reveal", "reveal",
          lambda d: "a challenge turns over only the top card of the newest play"
          if d.rb.challenge.reveal is Reveal.TOP_CARD else "a challenge turns over every card of the newest play"),
    Field("challenge.show_pile", "reveal",
          lambda d: "the whole pile is shown to everyone before it is taken" if d.rb.challenge.show_pile
          else "the pile is taken without being shown"),
    Field("challenge.penalty.kind", "penalty", _penalty),
    Field("challenge.penalty.draw", "penalty", _penalty, _when_drawing, "challenge.penalty.kind"),
    Field("challenge.penalty.pile_after", "penalty", _penalty, _when_drawing, "challenge.penalty.kind"),
    Field("challenge.penalty.short_stock", "penalty", _short_stock, _when_drawing),
    Field("challenge.penalty.failed_call", "penalty", _failed_call),
    Field("challenge.next_player", "next_player", _next_player),
    Field("sets", "sets", _sets),
    Field("ending.style", "ending", _ending),
    Field("ending.out_check", "ending", _out_check),
    Field("ending.emptied_by_sets", "ending", _emptied_by_sets,
          lambda rb: "" if rb.sets is not None else "no sets leave the game"),
    Field("ending.turn_start_win", "ending",
          lambda d: "no one goes out at the start of a turn" if d.rb.ending.turn_start_win is None
          else f"you also go out when your turn comes and {d.condition(d.rb.ending.turn_start_win)}"),
    Field("ending.turn_cap", "ending",
          lambda d: "there is no limit on the number of plays" if d.rb.ending.turn_cap is None
          else f"the game stops without a winner after {d.rb.ending.turn_cap} plays"),
)
BY_PATH = {f.path: f for f in FIELDS}
# Model fields read together as one rule.
ALIASES = {"players.min": "players", "players.max": "players", "claim.min_cards": "claim.cards",
           "claim.max_cards": "claim.cards"}


def field_for(path: str) -> Field | None:
    """The rule field a model path belongs to: itself, an alias, or its nearest registered parent."""
    path = ALIASES.get(path, path)
    while path:
        if path in BY_PATH:
            return BY_PATH[path]
        path = path.rpartition(".")[0]
    return None
