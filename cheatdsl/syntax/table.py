"""Every section and field of a rulebook: kind, allowed values, bounds, whether required, reference text.

It belongs to the front end, below the compiler: the compiler reads it (cheatdsl/compiler/fields.py looks
each field up by its section's path), and so do the writer (emit.py), the JSON Schema (cheatdsl/schema)
and the language server, so they cannot drift apart.
The reference text is docs/language.md's, row by row (tests/test_schema.py compares them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from ..expr import Type
from ..model import (
    AfterLast,
    ChallengeTest,
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
    SetMode,
    ShortStock,
    Surplus,
    Window,
)
from ..properties import PROPERTY_IDS
from .cards import STANDARD_RANK_ORDER, STANDARD_SUIT_ORDER


class Kind(Enum):
    """What kind of value a field holds."""

    TEXT = "text"
    INTEGER = "integer"
    BOOLEAN = "boolean"
    CHOICE = "choice"  # one word of `choices`
    WORDS = "words"  # a word or a list of words, each of `choices` when it has any
    RANGE = "range"  # N, N..M or N..
    FORMULA = "formula"  # a formula of type `value`, naming the facts of `place` (scopes.PLACES)
    SECTION = "section"  # a mapping read by the table at its own path
    SECTIONS = "sections"  # a list of mappings, each read by the table at `path[]`
    VERDICTS = "verdicts"  # property id -> expected verdict
    VARIATIONS = "variations"  # variation name -> the `variations.*` table
    NAME = "name"  # one name (of a rulebook)


@dataclass(frozen=True)
class Field:
    """One field of a section: its name, kind, reference text and what the checker holds it to."""

    name: str
    kind: Kind
    doc: str
    required: bool = False
    why: str = ""  # what the rules must say, for the missing-decision error
    enum: type[Enum] | None = None
    words: tuple[str, ...] = ()  # allowed words of a WORDS field (empty: any word)
    low: int = 0
    high: int = 10_000
    value: Type | None = None
    place: str = ""

    @property
    def choices(self) -> tuple[str, ...]:
        """The allowed words, in the order the reference lists them."""
        if self.enum is not None:
            return tuple(m.value for m in self.enum)
        return self.words


VERDICTS = ("proved", "refuted", "bounded", "unknown", "not_applicable", "holds", "fails")
SECTION_NAMES = ("deck", "deal", "setup", "claim", "passing", "challenge", "sets", "ending")

_N, _B, _S, _CL = Type.NUMBER, Type.BOOL, Type.SEAT, Type.CLAIMS
F, K = Field, Kind

# The fields of each section, by the section's path; `challenge.kinds[]` is each entry of that list.
SECTIONS: dict[str, tuple[Field, ...]] = {
    "": (
        F("rulebook", K.TEXT, "the rulebook's short name (defaults to the file name): a plain name, see below"),
        F("title", K.TEXT, "its full name"),
        F("source", K.TEXT, "**required**: the rule sheet or table it follows",
          required=True, why="which rule sheet or table this rulebook follows"),
        F("players", K.RANGE, "**required**: a range such as `3..6`", required=True, why="how many can play"),
        F("deck", K.SECTION, "**required**: which cards are used", required=True, why="which cards are used"),
        F("deal", K.SECTION, "**required**: how the cards are dealt", required=True, why="how the cards are dealt"),
        F("setup", K.SECTION, "**required**: who deals and who plays first",
          required=True, why="who deals and who plays first"),
        F("claim", K.SECTION, "**required**: what a play claims", required=True, why="what a play claims"),
        F("passing", K.SECTION, "**required**: whether a player may pass",
          required=True, why="whether a player may pass"),
        F("challenge", K.SECTION, "**required**: how a play is challenged",
          required=True, why="how a play is challenged"),
        F("sets", K.SECTION, "optional: complete sets leaving the game"),
        F("ending", K.SECTION, "**required**: how the game ends", required=True, why="how the game ends"),
        F("expect", K.VERDICTS, "verdicts the verifier should give for these rules, e.g. `termination: refuted`; "
          "a house rule is judged against its base's verdicts instead, unless it says `expect: inherit`",
          words=PROPERTY_IDS),
        F("variations", K.VARIATIONS, "named variations this rulebook offers"),
    ),
    "deck": (
        F("ranks", K.WORDS, "ranks in claim order, e.g. `[A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K]` (default: those 13)",
          words=STANDARD_RANK_ORDER),
        F("suits", K.WORDS, "suits in order (default `[clubs, diamonds, hearts, spades]`); exact-card claims run suit "
          "by suit in this order", words=STANDARD_SUIT_ORDER),
        F("packs", K.FORMULA, "packs shuffled together; a formula, e.g. `if players >= 5 then 2 else 1` (default 1)",
          value=_N, place="deck"),
        F("jokers", K.INTEGER, "jokers in the whole deck (default 0)", low=0, high=16),
        F("jokers_wild", K.BOOLEAN, "jokers count as whatever rank is claimed (default: true when there are jokers)"),
        F("ranks_used", K.FORMULA, "only the first N ranks of `ranks` are in the deck; a formula, e.g. `players + 2`",
          value=_N, place="deck"),
    ),
    "deal": (
        F("style", K.CHOICE, "**required**: `all` (every card, hands may differ by one and stay uneven) | `equal` "
          "(the same count each, the rest is surplus) | `fixed` (`hand_size` each, the rest is surplus)",
          required=True, why="whether all cards, equal hands or a fixed number are dealt", enum=DealStyle),
        F("hand_size", K.FORMULA, "cards each, for `fixed` (and a cap for `equal`)", value=_N, place="deal"),
        F("minimum_hand", K.INTEGER, "with `equal`: the fewest cards a hand may have (default 1)", low=0, high=1000),
        F("set_aside", K.FORMULA, "cards set aside unseen before the deal (default 0)", value=_N, place="deal"),
        F("surplus", K.CHOICE, "`aside` (face down, out of play) | `stock` (a draw pile)", enum=Surplus),
    ),
    "setup": (
        F("dealer", K.CHOICE, "`lot` (chosen at random: a chance action) | `seat_zero`", enum=DealerChoice),
        F("first_player", K.FORMULA, "**required**: a seat formula, e.g. `left(dealer)`, `holder(ace of hearts)`, "
          "`seat(0)`", required=True, why="who plays first, such as left(dealer)", value=_S, place="first_player"),
        F("direction", K.CHOICE, "`clockwise` | `anticlockwise`", enum=Direction),
    ),
    "claim": (
        F("kind", K.CHOICE, "`rank` (a count and a rank: \"two 7s\") | `card` (one exact card: \"the seven of "
          "hearts\")", enum=ClaimKind),
        F("cards", K.RANGE, "**required**: cards a play may hold, e.g. `1..4`, `1`, `1..`",
          required=True, why="how many cards a play may hold, such as 1..4"),
        F("count", K.CHOICE, "`exact` (the count called is the count played) | `extra_allowed` (more cards may be "
          "slipped in; a challenge catches it) | `any` (the count called may be higher or lower than the cards "
          "played; a challenge catches a wrong count)", enum=CountRule),
        F("first", K.FORMULA, "**required**: claims allowed for the first play of the game, e.g. `aces`, `any`, "
          "`ace of hearts`", required=True, why="what the first play of the game claims, such as aces or any",
          value=_CL, place="first_claim"),
        F("follow", K.FORMULA, "**required**: claims allowed for each later play of a round, e.g. `next(previous)`, "
          "`{prev(previous), next(previous)}`, `previous`, `any`, `above(previous)`", required=True,
          why="what each later play claims, such as next(previous)", value=_CL, place="follow"),
        F("lead", K.FORMULA, "claims allowed when a new round is led (default `any`)", value=_CL, place="lead"),
        F("after_last", K.CHOICE, "**required when `follow` uses next/prev**: `wrap` (after the last comes the "
          "first) | `nothing` (no claim follows the last)",
          why="what is claimed after the last rank (wrap or nothing)", enum=AfterLast),
        F("round_ends", K.WORDS, "events that end a round: `challenge`, `all_pass` (default: none; the sequence "
          "never restarts)", words=tuple(e.value for e in RoundEnd)),
    ),
    "passing": (
        F("allowed", K.BOOLEAN, "**required**: whether a player may pass instead of playing",
          required=True, why="whether a player may pass instead of playing"),
        F("when", K.FORMULA, "a formula saying when a player may pass, e.g. `holds(required) == 0` (only without "
          "the rank); default: whenever passing is allowed", value=_B, place="passing"),
        F("leader_may_pass", K.BOOLEAN, "whether the player leading a round may pass (default false)"),
        F("all_pass_pile", K.CHOICE, "when every player in the game passes in a row: `discarded` (the pile leaves "
          "the game unseen) | `stays`", enum=PileAfter),
        F("all_pass_leader", K.FORMULA, "**required when passing is allowed**: who leads after everyone passed, "
          "e.g. `last_player`", why="who leads when everyone passes, such as last_player", value=_S,
          place="all_pass_leader"),
    ),
    "challenge": (
        F("kinds", K.SECTIONS, "the ways to challenge (default: one, `cheat`); each has `name`, `call` (what is "
          "said), `test` (`played`: the cards just played are turned over | `hand`: the claimant must show a card "
          "of the claimed rank from hand, as in \"Force\") and `allowed_when` (a formula, e.g. `players == 2`)"),
        F("window", K.CHOICE, "`before_next_play` (a challenge may come until the next player puts cards down: at "
          "a table that passes, the last play's responders are asked again after each pass) | `count_of_three` "
          "(a slow table's count of three: the chance ends once every responder has answered, and a pass does "
          "not open it again); the two play alike at a table without passing", enum=Window),
        F("priority", K.CHOICE, "several challengers at once: `first_clockwise` (every opponent answers unseen; "
          "the caller nearest the claimant in turn order is heard) | `offered_in_turn` (each opponent is asked in "
          "turn from the claimant's left; the first challenge resolves and no one after is asked) | `first_caller` "
          "(every opponent answers unseen; of several callers, whoever called first, drawn by lot: a chance action, "
          "so a scenario must say who called first)", enum=Priority),
        F("reveal", K.CHOICE, "**required**: `play` (every card of the newest play) | `top_card` (only the top "
          "card)", required=True, why="which cards a challenge turns over (play or top_card)", enum=Reveal),
        F("show_pile", K.BOOLEAN, "the whole pile is turned face up before it is taken (default false)"),
        F("penalty", K.SECTION, "**required**: `kind` (`take_pile` | `draw`), `draw` (cards drawn from the stock), "
          "`pile_after` (`stays` | `discarded`: what becomes of a pile nobody takes), `short_stock` (with `draw`: "
          "what the loser does when the stock holds fewer cards than `draw`: `nothing`, the default, draws what is "
          "left and no more, so with an empty stock a lost challenge costs nothing and a caught bluff with a last "
          "card leaves a hand of none that stays in (and the game stops, with no legal action, if that seat must "
          "lead); `take_pile` draws what is left and then takes the whole pile as well, which always holds at "
          "least the card just judged), `failed_call` (what a challenger whose call was wrong suffers: `pays`, the "
          "default, the penalty as a caught claimant would; `free`, nothing, the pile left as `pile_after` says)",
          required=True, why="what the loser of a challenge suffers"),
        F("next_player", K.FORMULA, "**required**: who plays after a challenge, e.g. `left(claimant)`, `winner`, "
          "`if caught then challenger else claimant`", required=True,
          why="who plays after a challenge, such as left(claimant)", value=_S, place="next_player"),
    ),
    "challenge.kinds[]": (
        F("name", K.TEXT, "**required**: the challenge's name, e.g. `cheat`", required=True, why="the challenge's name"),
        F("call", K.TEXT, "what is said, e.g. `Cheat!` (default: the name)"),
        F("test", K.CHOICE, "`played` (the cards just played are turned over) | `hand` (the claimant must show a "
          "card of the claimed rank from hand, as in \"Force\")", enum=ChallengeTest),
        F("allowed_when", K.FORMULA, "when this challenge may be made; a formula, e.g. `players == 2`",
          value=_B, place="challenge_allowed"),
    ),
    "challenge.penalty": (
        F("kind", K.CHOICE, "**required**: `take_pile` (the loser takes the pile) | `draw` (the loser draws from "
          "the stock)", required=True, why="take_pile or draw", enum=PenaltyKind),
        F("draw", K.INTEGER, "cards drawn from the stock, with `draw`", low=0, high=100),
        F("pile_after", K.CHOICE, "`stays` | `discarded`: what becomes of a pile nobody takes", enum=PileAfter),
        F("short_stock", K.CHOICE, "with `draw`: what the loser does when the stock holds fewer cards than `draw`: "
          "`nothing` (draws what is left and no more) | `take_pile` (draws what is left and then takes the whole "
          "pile as well)", enum=ShortStock),
        F("failed_call", K.CHOICE, "what a challenger whose call was wrong (the claim was true) suffers: `pays` "
          "(the penalty, as a caught claimant would; the default) | `free` (nothing: it takes no card, draws none "
          "and is given no card shown, and the pile is left as `pile_after` says)", enum=FailedCall),
    ),
    "sets": (
        F("size", K.FORMULA, "**required**: cards of one rank that make a set, e.g. `copies` or `4`",
          required=True, why="how many cards make a set, such as copies", value=_N, place="sets"),
        F("mode", K.CHOICE, "**required**: `optional` (after a pickup the player may show and discard sets) | "
          "`forced` (every complete set leaves at once, from a dealt hand as well as after a pickup)",
          required=True, why="whether discarding a set is optional or forced", enum=SetMode),
        F("naturals_only", K.BOOLEAN, "jokers do not count towards a set (default true)"),
    ),
    "ending": (
        F("style", K.CHOICE, "**required**: `first_out` (the first player out wins and the game ends) | "
          "`last_holder_loses` (players go out one by one; the last one holding cards loses)",
          required=True, why="how the game ends (first_out, or last_holder_loses)", enum=EndStyle),
        F("out_check", K.CHOICE, "`after_window` (an empty hand counts once the last play survives its challenge "
          "window) | `at_once` (the game ends the moment a hand is empty; the last play cannot be challenged)",
          enum=OutCheck),
        F("turn_start_win", K.FORMULA, "a formula checked when a seat's turn comes, e.g. `hand == 1 and (leading "
          "or holds(required) == 1)`", value=_B, place="turn_start_win"),
        F("emptied_by_sets", K.CHOICE, "with `sets`: a player left with no cards by the sets discarded after losing "
          "a challenge (a caught player whose pickup makes only complete sets, say) is `out` (it has emptied its "
          "hand: with `first_out` it wins, with `last_holder_loses` it leaves and play goes on) | `stays_in` (it "
          "stays in the game and its turns pass it by while it holds nothing; it still answers every play, and a "
          "challenge it loses gives it cards again). Default `out`; with `stays_in` the game stops, as with no "
          "legal action, if no seat still in holds a card. A hand emptied by forced sets at the deal is always "
          "out", enum=EmptiedBySets),
        F("turn_cap", K.INTEGER, "an anti-loop rule: the game stops without a winner after this many plays",
          low=1, high=1_000_000),
    ),
    # Each entry of `variations` (read by the loader when the variation is switched on).
    "variations.*": (
        F("summary", K.TEXT, "what the variation changes, in a line"),
        F("conflicts", K.WORDS, "variations that cannot be on together with this one"),
        F("changes", K.SECTION, "rules laid over the rulebook when the variation is on: sections merge key by key, "
          "anything else is replaced"),
    ),
}

# Top-level keys the loader reads before the compiler sees the merged tree (loader.META_KEYS).
META: tuple[Field, ...] = (
    F("extends", K.NAME, "a base rulebook: a shipped profile's name (`standard`), a file in this one's folder or "
      "below it (`base.yaml`, `house/base.yaml`), or a file under an included folder (see below)"),
    F("drop", K.WORDS, "with `extends`: dotted names of base rules to remove, e.g. `[sets]`"),
    F("use", K.WORDS, "variations switched on, by name (the table \"agrees which variations are in play before the "
      "deal\")"),
)

del F, K

_INDEX = re.compile(r"\[\d+\]")


def table_path(path: str) -> str:
    """The table's name for a section path: `challenge.kinds[2]` is `challenge.kinds[]`."""
    return _INDEX.sub("[]", path)


def fields_at(path: str) -> dict[str, Field]:
    """The fields of the section at `path`, by name (empty for a section the table does not list)."""
    return {f.name: f for f in SECTIONS.get(table_path(path), ())}
