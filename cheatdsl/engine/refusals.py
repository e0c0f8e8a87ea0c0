"""Why the engine refuses an action, as data: `words.notation.refusal_text` turns it into a sentence."""

from __future__ import annotations

from enum import Enum


class Refusal(Enum):
    """The reason an action is refused, for the reasons whose sentence needs the game's card words."""

    NOT_NOW = "not now"          # the action is not one the phase asks for
    BAD_PLAY = "bad play"        # the claim or the count called does not fit the rules
    BAD_CARDS = "bad cards"      # the cards are not card values, not in order, or not in the hand
    BAD_KIND = "bad kind"        # no challenge of that name, or not at this player count
    NO_SET = "no set"            # the seat holds no complete set of the rank it would discard


class Doing(Enum):
    """What a seat tried to do when refused with `Refusal.NOT_NOW`."""

    PLAY = "play"
    ACCEPT = "accept"
    CHALLENGE = "challenge"
    PASS = "pass"
    DISCARD = "discard"
    FINISH_DISCARDING = "finish discarding"
