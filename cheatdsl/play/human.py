"""The human seat: reading a selection, a claim, a count, an answer to a claim or a set to discard."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..engine import ACCEPT, KEEP, PASS, Action, Challenge, DiscardSet, Phase, Play
from ..words.notation import (NotationError, card_text, parse_action, parse_card, parse_claim, rank_words,
                              why_illegal)
from ..model import ChallengeTest
from .console import Console
from .screen import evidence_line, hand_lines, required_lines, rule, table_line
from .words import Voices, bluff_reasons, claim_name, display_order, number_word, plural, said

if TYPE_CHECKING:
    from ..engine import Game, State

PLAY_HELP = """Choose the cards to put face down:
  card names     4 4 9        (in games of exact cards: 7H KD)
  positions      #4 #5 #8     (the numbers under your hand)
  with a claim   4 4 9 as three fours
  the notation   play 4 4 9 as 3 fours
Other answers: hand (show it again), pass (where the rules allow), help, quit."""


class Problem(Exception):
    """An answer that does not fit; the message says why and the question is asked again."""


class HumanSeat:
    """Asks the person at the keyboard for each of their seat's actions."""

    name = "you"

    def __init__(self, console: Console, seat: int, voices: Voices) -> None:
        self.console = console
        self.seat = seat
        self.v = voices

    def act(self, state: State) -> Action:
        if state.phase is Phase.RESPOND:
            return self.respond(state)
        if state.phase is Phase.DISCARD:
            return self.discard(state)
        return self.play(state)

    # -- a play --------------------------------------------------------------------------------

    def show_turn(self, state: State) -> None:
        g = state.game
        top = len(state.hand_cards(self.seat)) if g.rules.max_cards is None else g.rules.max_cards
        c = self.console
        c.say("", rule(f"Turn {state.turns + 1} · your play"), table_line(state, self.v))
        c.say(*required_lines(state))
        c.say(*hand_lines(g, state.hand_cards(self.seat), top))

    def play(self, state: State) -> Action:
        self.show_turn(state)
        while True:
            answer = self.console.ask("Your play> ")
            try:
                action = self._read_play(state, answer)
            except Problem as exc:
                self.console.say(str(exc))
                continue
            if action is None:
                continue
            return action

    def _read_play(self, state: State, answer: str) -> Action | None:
        g = state.game
        low = answer.lower()
        if not answer:
            raise Problem("Type the cards to play, such as `4 4 9` or `#1 #2`; `help` explains.")
        if low in ("help", "?", "h"):
            self.console.say(PLAY_HELP)
            return None
        if low == "hand":
            self.show_turn(state)
            return None
        if low == "pass":
            why = why_illegal(state, PASS)
            if why:
                raise Problem(f"You cannot pass: {why}.")
            return PASS
        if low.startswith("play "):
            try:
                action = parse_action(g, answer)
            except NotationError as exc:
                raise Problem(str(exc)) from None
            if not isinstance(action, Play):
                raise Problem("Write a play as `play CARDS as CLAIM`.")
            return self._confirmed(state, action)
        if not state.required_claims():
            raise Problem("Nothing can be claimed now: type `pass`.")
        both = re.match(r"^(.*?)\s+as\s+(.+)$", answer, flags=re.I)
        selection, said_claim = (both.group(1), both.group(2)) if both else (answer, "")
        cards = self._select(state, selection)
        claim, count = self._claim(state, said_claim, len(cards))
        if count is None:
            count = self._count(state, len(cards))
        return self._confirmed(state, Play(tuple(sorted(cards)), claim, count))

    def _select(self, state: State, text: str) -> list[int]:
        """Cards from names and `#n` positions, taken from the hand as shown."""
        g = state.game
        hand = display_order(g, state.hand_cards(self.seat))
        free = list(range(len(hand)))
        chosen: list[int] = []
        names = []
        for token in re.split(r"[\s,]+", text.strip()):
            if not token:
                continue
            position = token[1:] if token.startswith("#") else token if _is_position(g, token) else None
            if position is None:
                names.append(token)
                continue
            if not position.isdigit() or not 1 <= int(position) <= len(hand):
                raise Problem(f"`{token}` is not a position in your hand: they run from #1 to #{len(hand)}.")
            i = int(position) - 1
            if i not in free:
                raise Problem(f"You chose #{i + 1} twice.")
            free.remove(i)
            chosen.append(hand[i])
        for token in names:
            try:
                card = parse_card(g, token)
            except NotationError as exc:
                raise Problem(f"{exc}. Type `help` for how to choose cards.") from None
            spare = next((i for i in free if hand[i] == card), None)
            if spare is None:
                raise Problem(f"You hold {held_text(g, card, hand.count(card))}.")
            free.remove(spare)
            chosen.append(card)
        if not chosen:
            raise Problem("Choose at least one card.")
        n = len(chosen)
        if n < g.rules.min_cards or (g.rules.max_cards is not None and n > g.rules.max_cards):
            top = "" if g.rules.max_cards is None else f" and at most {number_word(g.rules.max_cards)}"
            raise Problem(f"Select at least {number_word(g.rules.min_cards)}{top} cards; you chose {number_word(n)}.")
        return chosen

    def _claim(self, state: State, text: str, played: int) -> tuple[int, int | None]:
        """The claim typed after `as`, the only one allowed, or one asked for."""
        g = state.game
        claims = state.required_claims()
        if text:
            try:
                claim, count = parse_claim(g, text)
            except NotationError as exc:
                raise Problem(str(exc)) from None
            if claim not in claims:
                raise Problem(f"You may not claim {claim_name(g, claim)} now.")
            return claim, (played if g.rules.exact else count)
        count = played if g.rules.exact else None
        if len(claims) == 1:
            return claims[0], count
        return self._ask_claim(state), count

    def _ask_claim(self, state: State) -> int:
        g = state.game
        claims = state.required_claims()
        listed = len(claims) <= 20
        if listed:
            self.console.say("Which claim? " + "  ".join(f"[{i + 1}] {claim_name(g, c)}"
                                                        for i, c in enumerate(claims)))
        else:
            self.console.say("Which claim? Name the card, such as 7H or `the seven of hearts`.")
        while True:
            answer = self.console.ask("Claim> ")
            if answer.lower() == "back":
                raise Problem("Choose your cards again.")
            if not answer:
                self.console.say("Name the claim" + (" or its number" if listed else "") + "; `back` to choose "
                                 "other cards.")
                continue
            if listed and answer.isdigit() and 1 <= int(answer) <= len(claims):
                return claims[int(answer) - 1]
            try:
                claim, _ = parse_claim(g, answer)
            except NotationError as exc:
                self.console.say(str(exc))
                continue
            if claim in claims:
                return claim
            self.console.say(f"You may not claim {claim_name(g, claim)} now.")

    def _count(self, state: State, played: int) -> int:
        g = state.game
        # The engine's rule: up to the cards played, or with `count: any` up to the count cap.
        top = (g.rules.count_cap or played) if g.rules.any_count else played
        low = g.rules.min_cards
        while True:
            answer = self.console.ask(f"How many do you call? ({low}–{top}, Enter for {played}) ")
            if not answer:
                return played
            if answer.isdigit() and low <= int(answer) <= top:
                return int(answer)
            self.console.say(f"Call a number from {low} to {top}.")

    def _confirmed(self, state: State, action: Play) -> Action | None:
        """The play, after the rules accept it and, for a bluff, after you confirm it."""
        g = state.game
        why = why_illegal(state, action)
        if why:
            raise Problem(f"The rules do not allow that: {why}.")
        reasons = bluff_reasons(g, action.cards, action.claim, action.count)
        if reasons:
            self.console.say(f"Careful: “{said(g, action.claim, action.count)}” would be a BLUFF: "
                             + "; ".join(reasons) + ".")
            if not self.console.confirm("Play it anyway?"):
                self.console.say("Choose again.")
                return None
        return action

    # -- answering a claim ---------------------------------------------------------------------

    def respond(self, state: State) -> Action:
        g = state.game
        newest = state.observation(self.seat).claims[-1]
        seat, claim, count = newest.seat, newest.claim, newest.count
        if seat is None or claim is None:
            return ACCEPT
        kinds = [k for k in g.rulebook.challenge.kinds if k.name in g.rules.kind_by_name]
        options: list[tuple[str, str, Action]] = [("a", "accept", ACCEPT)]
        letters = {k.name[0].lower() for k in kinds}
        for i, k in enumerate(kinds):
            key = k.name[0].lower() if len(letters) == len(kinds) and k.name[0].lower() != "a" else str(i + 1)
            label = f"call “{k.call}”" + (f" (they must show {_a(g, claim)} from hand)"
                                          if k.test is ChallengeTest.HAND else "")
            options.append((key, label, Challenge(k.name)))
        c = self.console
        c.say(evidence_line(g, state.hand_cards(self.seat), claim, count))
        c.say("   ".join(f"[{key}] {label}" for key, label, _ in options))
        while True:
            answer = c.ask(f"Accept or challenge {self.v.possessive(seat, False)} claim? ").lower()
            if answer in ("help", "?", "h", "hand"):
                if answer != "hand":
                    c.say(f"{self.v.name(seat)} put down {plural(newest.played, 'card')} face down and said "
                          f"“{said(g, claim, count)}”. Your choices:")
                    for key, label, action in options:
                        c.say(f"  [{key}] {label}: " + ("the claim stands unseen and play goes on."
                                                        if action is ACCEPT else "the cards are turned up; "
                                                        "whoever the rules say is wrong collects the pile."))
                    c.say("Other answers: hand (show your hand), help, quit.")
                c.say(*hand_lines(g, state.hand_cards(self.seat)))
                c.say(evidence_line(g, state.hand_cards(self.seat), claim, count))
                continue
            for key, label, action in options:
                names = {key, label.lower()}
                if isinstance(action, Challenge):
                    kind = g.rules.kind_by_name[action.kind]
                    names |= {kind.name.lower(), kind.call.lower().strip("!?. “”"), "challenge", "c"}
                if answer in names:
                    return action
            c.say("Answer " + " or ".join(f"`{key}`" for key, _, _ in options) + "; `help` explains each, "
                  "`hand` shows your hand.")

    # -- sets ----------------------------------------------------------------------------------

    def discard(self, state: State) -> Action:
        g = state.game
        sets = [a for a in state.legal_actions() if isinstance(a, DiscardSet)]
        c = self.console
        c.say(hand_lines(g, state.hand_cards(self.seat))[0] + ": " + " ".join(
            card_text(g, x) for x in display_order(g, state.hand_cards(self.seat))))
        names = [rank_words(g, a.rank) for a in sets]
        c.say("You hold a complete set of " + ", ".join(names) + ". Discard a set, or keep your cards:")
        c.say("   ".join(f"[{i + 1}] {n}" for i, n in enumerate(names)) + f"   [{len(names) + 1}] keep")
        while True:
            answer = c.ask("Discard> ").lower()
            if answer in ("help", "?", "h", "hand"):
                if answer != "hand":
                    c.say("A complete set may be put out of the game: its cards leave your hand for good. "
                          "Name a set (its number or rank) to discard it, or `keep` to hold your cards.")
                c.say(*hand_lines(g, state.hand_cards(self.seat)))
                continue
            if answer in ("keep", "k", str(len(names) + 1)):
                return KEEP
            for i, a in enumerate(sets):
                if answer in (str(i + 1), names[i], rank_words(g, a.rank, 1), g.rules.rank_symbols[a.rank].lower()):
                    return a
            c.say("Answer with a number, a rank or `keep`; `help` explains.")


def _is_position(g: Game, token: str) -> bool:
    """A bare number is a position when it names no rank of the game (`12`, but not `7`)."""
    return token.isdigit() and token not in g.rules.rank_symbols


def _a(g: Game, claim: int) -> str:
    if not g.rules.by_rank:
        return claim_name(g, claim)
    name = rank_words(g, claim, 1)
    return ("an " if name[:1] in "aeiou" else "a ") + name


def held_text(g: Game, card: int, held: int) -> str:
    """`no sevens`, `only one seven`, `only two sevens` (`no 7H`, `only one JK` for exact cards and jokers)."""
    amount = "no" if not held else "only " + number_word(held)
    if g.rules.by_rank and card != g.rules.joker:
        return f"{amount} {rank_words(g, card, held)}"
    return f"{amount} {card_text(g, card)}"
