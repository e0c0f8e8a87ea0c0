"""A rulebook at a table of N players, ready to be played by the interpreter.

What the rules imply at the table (claim sets for every previous claim, turn order, challenge kinds,
count cap, set size) is one frozen record, `cheatdsl.derived.TableRules`, that `Game` holds as
`rules` and every reader reads (`game.rules.min_cards`); `Game` keeps only what belongs to this
game object: the turn limit its caller asked for, the formula context class and memos.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..derived import NO_CAP, DealError, TableRules
from ..model import Rulebook
from .actions import ACCEPT, Action, Challenge
from .context import Facts, facts_class

if TYPE_CHECKING:
    from .position import Position
    from .state import State


class Game:
    """An immutable game spec: a compiled rulebook played by `players` seats.

    What the rules imply at this table is read from `rules` (`cheatdsl.derived.TableRules`, which
    the verifier reads too); nothing here repeats one of its fields. A caller that holds the record of
    this rulebook at this table already (the verifier) passes it in, and the game holds that one.
    """

    def __init__(self, rulebook: Rulebook, players: int, turn_cap: int | None = None,
                 rules: TableRules | None = None) -> None:
        if players not in rulebook.players.counts():
            raise ValueError(f"{rulebook.name} is for {rulebook.players.min}..{rulebook.players.max} players, "
                             f"not {players}")
        self.rulebook = rulebook
        self.players = players
        if rules is not None and (rules.rulebook is not rulebook or rules.players != players):
            raise ValueError(f"the rules record given is of {rules!r}, not of {rulebook.name} at {players} players")
        try:
            self.rules = rules = TableRules(rulebook, players) if rules is None else rules
        except DealError as exc:
            raise ValueError(f"{rulebook.name} cannot be dealt to {players} players: {exc.reason}") from None
        self.facts_type = facts_class(self)
        # The answers a responder may give, as the engine's actions: accept, or a call of each kind allowed.
        self.responses: tuple[Action, ...] = (ACCEPT, *(Challenge(k) for k in rules.kind_names))
        self.next_player_memo: dict[tuple[object, ...], tuple[int, bool]] = {}  # seat, and whether the rule named none
        self.card_memo: dict[str, int] = {}  # a card's text -> its value, for the texts read so far
        # The turns this game is played for at most: the rulebook's turn cap or the caller's, the lower.
        caps = [c for c in (rules.turn_cap, turn_cap) if c is not None]
        self.turn_limit = min(caps) if caps else NO_CAP

    # -- states --------------------------------------------------------------------------------

    def new_initial_state(self) -> State:
        """A game before the deal: chance chooses the dealer (when by lot), then shuffles."""
        from .state import State
        return State(self)

    def state_from_position(self, position: Position) -> State:
        """A game in the middle: explicit hands, pile, stock and the seat to play (for scenarios)."""
        from .deal import enter_position
        from .state import State
        state = State(self)
        enter_position(state, position)
        return state

    def facts(self, state: State | None, dealer: int = 0, **values: Any) -> Facts:
        """A formula context for a seat formula."""
        return self.facts_type(state, dealer, **values)

    def __repr__(self) -> str:
        return f"Game({self.rulebook.name!r}, players={self.players})"

