"""The table talk: claims as spoken, hands, reveals and results in a card player's words.

Shared by the terminal game and the golden playthroughs, so a rule reads the same in both.
Cards are written in the notation of `words.notation` (`7`, `K`, `7H`, `JK`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine.actions import Phase
from ..words.notation import card_text, cards_text, claim_text, rank_words
from ..model import ChallengeTest

if TYPE_CHECKING:
    from ..engine import Game, Observation, Result, RevealRecord

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve")
_THIRD_PERSON = {"have": "has", "are": "is", "do": "does", "go": "goes", "pass": "passes", "were": "was"}


def number_word(n: int) -> str:
    """`one` .. `twelve`, then digits."""
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def plural(n: int, word: str, words: str | None = None) -> str:
    """`1 card`, `3 cards`."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


class Voices:
    """Names for the seats at the table: `You` for the human seat, a name or `seat N` for the others."""

    def __init__(self, names: Sequence[str], you: int | None = None) -> None:
        self.names = list(names)
        self.you = you

    def name(self, seat: int | None, start: bool = True) -> str:
        if seat is None:
            return "nobody"
        if seat == self.you:
            return "You" if start else "you"
        return self.names[seat]

    def possessive(self, seat: int, start: bool = True) -> str:
        if seat == self.you:
            return "Your" if start else "your"
        return f"{self.names[seat]}'s"

    def verb(self, seat: int | None, base: str) -> str:
        """`take` for you, `takes` for anyone else."""
        if seat is not None and seat == self.you:
            return base
        return _THIRD_PERSON.get(base, base + "s")

    def says(self, seat: int | None, base: str, rest: str = "") -> str:
        """A sentence `Robin takes ...` / `You take ...`."""
        text = f"{self.name(seat)} {self.verb(seat, base)}"
        return f"{text} {rest}" if rest else text


# -- cards and claims --------------------------------------------------------------------------

def display_order(game: Game, cards: Sequence[int]) -> list[int]:
    """Cards sorted as a hand is held: by rank in claim order, then by suit; jokers last."""
    def key(v: int) -> tuple[int, int]:
        if v == game.rules.joker:
            return (game.rules.rank_count, 0)
        return (v % game.rules.rank_count, v // game.rules.rank_count)
    return sorted(cards, key=key)


def hand_words(game: Game, cards: Sequence[int]) -> str:
    """A hand as text, sorted as it is held."""
    return cards_text(game, display_order(game, cards))


def said(game: Game, claim: int | None, count: int) -> str:
    """A claim as spoken: `two sevens`, `one ace`, `the seven of hearts`."""
    if claim is None:
        return "nothing"
    if not game.rules.by_rank:
        text = claim_text(game, claim)
        return text if count == 1 else f"{number_word(count)} times {text}"
    return f"{number_word(count)} {rank_words(game, claim, count)}"


def claim_name(game: Game, claim: int) -> str:
    """A claim without a count: `sevens`, `the seven of hearts`."""
    return claim_text(game, claim)


def choices_words(game: Game, claims: Sequence[int]) -> str:
    """`sevens`, `sevens or eights`, `any rank`, `any card`."""
    if not claims:
        return "no claim"
    if len(claims) == len(game.rules.claim_order) and len(claims) > 1:
        return "any rank" if game.rules.by_rank else "any card"
    names = [claim_name(game, c) for c in claims]
    if len(names) == 1:
        return names[0]
    if len(names) > 6:
        return f"{', '.join(names[:3])}, ... or {names[-1]} ({len(names)} choices)"
    return ", ".join(names[:-1]) + " or " + names[-1]


def matches(game: Game, card: int, claim: int) -> bool:
    """Whether `card` passes as `claim` when turned over: the very value, or a wild joker."""
    return card == claim or (game.rules.wild and card == game.rules.joker)


def bluff_reasons(game: Game, cards: Sequence[int], claim: int, count: int) -> list[str]:
    """Why a play of `cards` called as `count` of `claim` would be caught if turned over (empty: honest)."""
    reasons = []
    wrong = [c for c in cards if not matches(game, c, claim)]
    for c in sorted(set(wrong)):
        reasons.append(f"{card_text(game, c)} is not {_a_claim(game, claim)}")
    if game.rules.count_judged and len(cards) != count:
        reasons.append(f"{plural(len(cards), 'card')} put down for a call of {number_word(count)}")
    return reasons


def _a_claim(game: Game, claim: int) -> str:
    if not game.rules.by_rank:
        return claim_text(game, claim)
    name = rank_words(game, claim, 1)
    return ("an " if name[:1] in "aeiou" else "a ") + name


def play_words(game: Game, v: Voices, seat: int, played: int, claim: int, count: int, last: bool) -> str:
    """`Robin plays 2 cards: “two sevens”.`"""
    text = v.says(seat, "play", f"{plural(played, 'card')}: “{said(game, claim, count)}”")
    if last:
        return text + f" — {'your' if seat == v.you else 'their'} last {'card' if played == 1 else 'cards'}!"
    return text + "."


def call_words(game: Game, kind: str) -> str:
    """The words of a challenge: `Cheat!`."""
    for k in game.rulebook.challenge.kinds:
        if k.name == kind:
            return k.call
    return kind


# -- public events -----------------------------------------------------------------------------

def reveal_lines(game: Game, r: RevealRecord, v: Voices) -> list[str]:
    """A challenge settled: what was shown, the verdict, and who paid how many cards."""
    kind = next((k for k in game.rulebook.challenge.kinds if k.name == r.kind), None)
    claim = said(game, r.claim, r.count)
    lines = []
    if kind is not None and kind.test is ChallengeTest.HAND:
        rank = _a_claim(game, r.claim)
        if r.caught:
            lines.append(f"{v.name(r.claimant)} cannot show {rank} from hand: “{claim}” was a bluff.")
        elif not r.paid:
            lines.append(f"{v.name(r.claimant)} {v.verb(r.claimant, 'show')} {cards_text(game, r.revealed)} "
                         f"from hand and {v.verb(r.claimant, 'keep')} it: the claim holds.")
        else:
            lines.append(f"{v.name(r.claimant)} {v.verb(r.claimant, 'show')} {cards_text(game, r.revealed)} "
                         f"from hand and {v.verb(r.claimant, 'pass')} it to {v.name(r.challenger, False)}: "
                         f"the claim holds.")
    else:
        what = "THE NEWEST PLAY" if game.rules.reveal_all else "THE TOP CARD"
        lines.append(f"{what}, REVEALED: {cards_text(game, r.revealed)}  (claimed “{claim}”)")
        if r.caught:
            reasons = bluff_reasons(game, r.revealed, r.claim, r.count) or ["the cards do not match the claim"]
            lines.append("A bluff: " + "; ".join(reasons) + ".")
        else:
            lines.append("Every card matches: the claim was true.")
    if r.pile is not None:
        lines.append(f"The whole pile is shown: {cards_text(game, r.pile)}.")
    if not r.paid:
        after = "the pile is put out of play" if game.rules.pile_after_discarded else "the pile stays"
        lines.append(f"A wrong call costs nothing here: {v.name(r.challenger, False)} "
                     f"{v.verb(r.challenger, 'take')} no card, and {after}.")
    elif game.rules.take_pile:
        lines.append(v.says(r.loser, "collect", f"the pile: {plural(r.taken, 'card')}."))
    elif r.pile_taken:
        drawn = v.says(r.loser, "draw", f"{plural(r.taken - r.pile_taken, 'card')} from the stock")
        lines.append(f"{drawn}, all it held, and {v.verb(r.loser, 'collect')} the pile as well: "
                     f"{plural(r.pile_taken, 'card')}.")
    else:
        drawn = v.says(r.loser, "draw", f"{plural(r.taken, 'card')} from the stock")
        lines.append(drawn + ("; the pile is put out of play." if game.rules.pile_after_discarded else "."))
    return lines


def set_words(game: Game, v: Voices, seat: int, rank: int, cards: Sequence[int]) -> str:
    """`Robin discards the four sevens: 7 7 7 7.`"""
    return v.says(seat, "discard", f"a set of {rank_words(game, rank)}: {hand_words(game, cards)}.")


def result_lines(game: Game, result: Result, v: Voices, sizes: Sequence[int],
                 order: Sequence[int] | None = None) -> list[str]:
    """The end of the game: the winner, or the order out and the loser, and every hand's count."""
    lines = []
    if result.capped:
        lines.append(f"The game stopped without a winner: {result.reason}.")
    elif game.rules.first_out:
        whose = "your" if result.winner == v.you else "the"
        lines.append(f"{v.says(result.winner, 'win')}: {whose} last claim survived and {whose} hand is empty.")
    else:
        lines.append(f"Order out: {', '.join(v.name(s) for s in result.order_out)}.")
        if result.loser is not None:
            lines.append(f"{v.name(result.loser)} {v.verb(result.loser, 'are')} the last one holding cards "
                         f"and {v.verb(result.loser, 'lose')}.")
    seats = range(game.players) if order is None else order
    lines.append("Cards left in hand: " + " · ".join(f"{v.name(s)} {sizes[s]}" for s in seats) + ".")
    return lines


def public_words(game: Game, obs: Observation, v: Voices) -> list[str]:
    """Everything public in an observation, in a few short lines (the same for every seat)."""
    sizes = " ".join(str(n) for n in obs.hand_sizes)
    parts = [f"hands {sizes}", f"pile {obs.pile_size}"]
    if obs.stock_size or game.rulebook.deal.surplus.value == "stock":
        parts.append(f"stock {obs.stock_size}")
    if obs.aside_size:
        parts.append(f"aside {obs.aside_size}")
    parts.append(f"turns {obs.turns}")
    parts.append(f"dealer {'-' if obs.dealer is None else obs.dealer}")
    lines = [" · ".join(parts)]
    claims = [c for c in obs.claims if c.seat is not None]
    if obs.claims:
        newest = obs.claims[-1]
        if newest.seat is None:
            latest = f"{newest.played} cards already on the table"
        else:
            latest = (f"{v.name(newest.seat, False)} put down {newest.played} as "
                      f"“{said(game, newest.claim, newest.count)}”" + (" (last cards)" if newest.last_cards else ""))
        lines.append(f"claims on the pile {len(claims)}, newest: {latest}")
    allowed = choices_words(game, obs.required)
    if obs.phase is Phase.RESPOND and obs.claimant is not None:
        due = f"{v.possessive(obs.claimant, False)} claim awaits answers (it had to be {allowed})"
    elif obs.phase is Phase.PLAY and obs.required:
        due = f"the next play {'leads with' if obs.leading else 'must claim'} {allowed}"
    elif obs.phase is Phase.PLAY:
        due = "nothing can be claimed now"
    elif obs.phase is Phase.CHANCE and obs.callers:
        due = (f"{' and '.join(v.name(s, False) for s in obs.callers)} called at once; "
               "the lot says who called first")
    elif obs.phase is Phase.CHANCE:
        due = "the cards are not dealt yet"
    else:
        due = f"claims allowed: {allowed}"
    lines.append(f"previous claim {claim_text(game, obs.previous)}; {due}")
    extra = []
    if obs.reveals:
        extra.append(f"challenges {len(obs.reveals)}")
    if obs.discarded_sets:
        extra.append("sets out " + ", ".join(f"{rank_words(game, r)} ({v.name(s, False)})"
                                             for s, r, _ in obs.discarded_sets))
    if obs.out:
        extra.append("out " + ", ".join(v.name(s, False) for s in obs.out))
    if extra:
        lines.append(" · ".join(extra))
    return lines
