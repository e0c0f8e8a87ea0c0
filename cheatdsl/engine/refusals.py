"""Why the engine refuses an action, as data: `words.notation.refusal_text` turns it into a sentence."""

from __future__ import annotations

from enum import Enum


class Refusal(Enum):
    """The reason the engine refuses an action; what else the sentence needs travels with the refusal
    (`IllegalAction`'s state, seat, action, kind or rank)."""

    NOT_NOW = "not now"          # the action is not one the phase asks for
    BAD_PLAY = "bad play"        # the claim or the count called does not fit the rules
    BAD_CARDS = "bad cards"      # the cards are not card values, not in order, or not in the hand
    BAD_KIND = "bad kind"        # no challenge of that name, or not at this player count
    NO_SET = "no set"            # the seat holds no complete set of the rank it would discard
    NOT_AN_ACTION = "not an action"  # not one of the game's kinds of action at all
    NOT_A_PLAY = "not a play"    # a play whose cards, claim or count are not numbers
    NO_PLAY_NOW = "no play now"  # a play was asked for outside a seat's turn to play
    NOTHING_TO_PLAY = "nothing to play"  # the seat to play has no legal play (a dead end)
    NOT_YOUR_TURN = "not your turn"  # a seat's view was asked for a play on another seat's turn
    NO_PASSING = "no passing"    # the rules never allow a pass
    LEADER_MAY_NOT_PASS = "leader may not pass"  # the seat leads the round, where leaders must play
    PASS_NEEDS = "pass needs"    # the rules' condition for passing (`pass_when`) does not hold
    NOT_CHANCE = "not chance"    # chance was asked to act when a seat is to act
    NO_LOT = "no lot"            # no calls made at once are waiting for the lot
    NOT_A_CALLER = "not a caller"  # the lot named a seat that did not call
    NO_DEALER_CHOICE = "no dealer choice"  # the dealer is not being chosen now
    NO_SUCH_SEAT = "no such seat"  # the dealer chosen is not a seat of the table
    NO_SHUFFLE = "no shuffle"    # the deck is not being shuffled now
    BAD_SEED = "bad seed"        # a shuffle seed that is not a whole number from 0 up


class Doing(Enum):
    """What a seat tried to do when refused with `Refusal.NOT_NOW`."""

    PLAY = "play"
    ACCEPT = "accept"
    CHALLENGE = "challenge"
    PASS = "pass"
    DISCARD = "discard"
    FINISH_DISCARDING = "finish discarding"
