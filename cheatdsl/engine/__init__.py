"""The interpreter: any compiled rulebook played as an OpenSpiel-style game of states and actions.

    game = Game(rulebook, players, turn_cap=None)     # the spec: tables worked out once
    game.rules                                        # what the rules imply there (`derived.TableRules`)
    state = game.new_initial_state()                  # chance: ChanceDealer (by lot), ChanceShuffle(seed)
                                                      # and, mid-game, ChanceCaller (who called first)
    state = game.state_from_position(Position(...))   # or an explicit table (scenarios, counterexamples)
    state.current_player()    # a seat, CHANCE or TERMINAL;  state.phase: PLAY, RESPOND, DISCARD, ...
    state.legal_actions()     # canonical order; count_play_actions() and sample_play(rng) never list
    state.apply_action(a)     # IllegalAction says why, in the game's words, and changes nothing
    state.observation(seat)   # own hand and the public record, as a frozen snapshot
    state.view(seat)          # the same seen live and cheaply: what a bot reads (`view.py`)
    state.returns(), state.result(), state.history(), state.clone()

Every difference between games comes from the rulebook; nothing here names a game.
"""

from .actions import (
    ACCEPT,
    CHANCE,
    KEEP,
    PASS,
    TERMINAL,
    Accept,
    Action,
    Challenge,
    ChanceCaller,
    ChanceDealer,
    ChanceShuffle,
    DiscardSet,
    IllegalAction,
    KeepSets,
    Pass,
    Phase,
    Play,
    TooManyActions,
    action_key,
)
from .ending import Ending
from .game import Game
from .observation import ClaimRecord, Observation
from .position import Position
from .records import Result, RevealRecord, RuleGap
from .state import State
from .view import View

__all__ = [
    "ACCEPT", "CHANCE", "KEEP", "PASS", "TERMINAL", "Accept", "Action", "Challenge", "ChanceCaller", "ChanceDealer",
    "ChanceShuffle", "ClaimRecord", "DiscardSet", "Game", "IllegalAction", "KeepSets", "Observation", "Pass", "Phase",
    "Play", "Position", "Ending", "Result", "RevealRecord", "RuleGap", "State", "TooManyActions", "View", "action_key",
]
