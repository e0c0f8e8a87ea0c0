"""Shared hypothesis strategies: random games on every shipped rulebook (style.md, anchor 12).

In the manner of attrs' tests/strategies.py: a game is drawn as a rulebook, a player count in its
range, a shuffle seed and a list of action choice indices. `play_out` turns a drawn game into
states: chance draws from the seed, the seat to act takes `choices[i] mod (legal actions)`, and
once the choices run out a random.Random(seed) chooses, so shrinking works on the list's prefix.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from hypothesis import strategies as st

from cheatdsl.engine import CHANCE, PASS, Action, Game, Phase, State
from cheatdsl.load import load_rulebook
from cheatdsl.model import Rulebook

RULEBOOKS = Path(__file__).resolve().parents[1] / "rulebooks"
SHIPPED: tuple[str, ...] = tuple(sorted(p.name for p in RULEBOOKS.iterdir() if p.suffix in (".yaml", ".cheat")))
LIST_LIMIT = 500  # more legal plays than this are drawn with sample_play instead of listed


@cache
def rulebook(name: str) -> Rulebook:
    """A shipped rulebook, compiled once per test session."""
    return load_rulebook(str(RULEBOOKS / name))


@cache
def game(name: str, players: int, turn_cap: int) -> Game:
    return Game(rulebook(name), players, turn_cap=turn_cap)


@dataclass(frozen=True)
class RandomGame:
    """A drawn game: which rulebook at how many seats, the deal's seed and the action choices."""

    rulebook: str
    players: int
    seed: int
    choices: tuple[int, ...]

    def game(self, turn_cap: int) -> Game:
        return game(self.rulebook, self.players, turn_cap)


rulebook_names = st.sampled_from(SHIPPED)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
choice_indices = st.lists(st.integers(min_value=0, max_value=2**16 - 1), max_size=80).map(tuple)


@st.composite
def player_counts(draw: st.DrawFn, name: str) -> int:
    """A player count in the rulebook's range."""
    players = rulebook(name).players
    return draw(st.integers(min_value=players.min, max_value=players.max))


@st.composite
def random_games(draw: st.DrawFn, names: st.SearchStrategy[str] = rulebook_names) -> RandomGame:
    """A rulebook (any shipped one unless `names` says otherwise), its players, a seed and choices."""
    name = draw(names)
    return RandomGame(name, draw(player_counts(name)), draw(seeds), draw(choice_indices))


def choose(state: State, choice: int) -> Action:
    """The legal action `choice` picks: an index into the listed actions, or a seed for a drawn play."""
    if state.phase is Phase.PLAY:
        plays = state.count_play_actions()
        passing = state.can_pass()
        if plays + passing > LIST_LIMIT:
            return PASS if passing and choice % (plays + 1) == plays else state.sample_play(random.Random(choice))
    actions = state.legal_actions(limit=LIST_LIMIT)
    return actions[choice % len(actions)]


def play_out(drawn: RandomGame, turn_cap: int, limit: int = 50_000) -> Iterator[tuple[State, Action | None]]:
    """Play the drawn game from the deal: each state with the action taken from it, and last the final
    state with None (after `limit` actions the game is left unfinished, for the caller to notice)."""
    state = drawn.game(turn_cap).new_initial_state()
    chance = random.Random(drawn.seed)
    fallback = random.Random(drawn.seed)
    i = steps = 0
    while not state.is_terminal() and steps < limit:
        if state.current_player() == CHANCE:
            action = state.chance_outcome(chance)
        else:
            action = choose(state, drawn.choices[i] if i < len(drawn.choices) else fallback.randrange(2**16))
            i += 1
        yield state, action
        state.apply_action(action)
        steps += 1
    yield state, None


def cards_everywhere(state: State) -> Counter[int]:
    """Every card of the game wherever it lies: hands, pile, stock, aside, sets put out, cards gone."""
    total: Counter[int] = Counter()
    for seat in range(state.game.players):
        total.update(state.hand_cards(seat))
    total.update(state.pile_cards())
    total.update(state.stock())
    total.update(state.aside())
    total.update(state.gone())
    for _, _, cards in state.discarded_sets():
        total.update(cards)
    return total


def deck_of(g: Game) -> Counter[int]:
    """The game's whole deck as card values."""
    return Counter({v: k for v, k in enumerate(g.rules.deck_counts) if k})
