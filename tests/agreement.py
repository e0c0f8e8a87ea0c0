"""Interpreter and verifier held to one game: whole games played by bots, every turn checked as a step of
the Z3 encoding, and from sampled states every step the encoding allows played by the interpreter.

Shared by tests/test_agreement.py (a small run in the suite) and benchmarks/agreement_campaign.py (the same
at scale). A finding is a sentence naming the rulebook, the table, the game's seed and the turn.
"""

from __future__ import annotations

import random
import time
import typing
from collections import Counter
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

from verifier_steps import Steps

from cheatdsl.bots import make_bot
from cheatdsl.engine import Ending, Game, Phase
from cheatdsl.engine import State as EngineState
from cheatdsl.model import Rulebook
from cheatdsl.syntax.table import SECTIONS, Kind
from verifier.encoding.engine_state import play_turn, read, replay_move
from verifier.encoding.spec import Spec, build_spec

ROOT = Path(__file__).resolve().parent.parent
BOTS = ("random", "greedy", "honest", "counter")


def rulebook_files() -> list[Path]:
    """Every shipped rulebook and every fixture rulebook."""
    shipped = sorted((ROOT / "rulebooks").glob("*.yaml")) + sorted((ROOT / "rulebooks").glob("*.cheat"))
    return shipped + sorted((ROOT / "tests" / "fixtures").rglob("*.yaml"))


def seat_counts(rb: Rulebook) -> list[int]:
    """The fewest seats the rulebook is for, and one more where it allows."""
    counts = list(rb.players.counts())
    return counts[:2]


@dataclass
class Tally:
    """What a run played and checked, and what disagreed."""

    games: int = 0
    steps: int = 0
    deals: int = 0
    states: int = 0
    moves: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    findings: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, other: Tally) -> None:
        for name in ("games", "steps", "deals", "states", "moves", "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.endings.update(other.endings)
        self.findings += other.findings

    def summary(self) -> str:
        ends = ", ".join(f"{k} {v}" for k, v in sorted(self.endings.items()))
        return (f"{self.games} games ({ends}), {self.steps} steps, {self.deals} deals, {self.states} states "
                f"sampled, {self.moves} encoding moves replayed, {len(self.findings)} findings, "
                f"{self.seconds:.1f} s")


def spec_for(rb: Rulebook, n: int, cap: int | None) -> Spec:
    """The encoding of `rb` at `n` seats with the table's turn cap `cap` (the rulebook's own if lower)."""
    sp = build_spec(rb, n)
    caps = [c for c in (rb.ending.turn_cap, cap) if c is not None]
    return replace(sp, capped_at=min(caps)) if caps else sp


_STEPS: dict[tuple[Spec, bool], Steps] = {}


def steps_for(sp: Spec) -> Steps:
    """The encoding's step at the table of `sp`, shared by its games whatever their turn cap (the last few
    tables are kept)."""
    key = (replace(sp, capped_at=None), sp.turn_limit is not None)
    got = _STEPS.get(key)
    if got is None:
        if len(_STEPS) >= 8:
            del _STEPS[next(iter(_STEPS))]
        got = _STEPS[key] = Steps(sp)
    return got if got.spec.turn_limit == sp.turn_limit or sp.turn_limit is None else got.with_cap(sp.turn_limit)


def play_game(rb: Rulebook, n: int, seed: int, *, cap: int | None = None, sample_every: int = 0,
              moves_per_state: int = 12, max_samples: int = 4) -> Tally:
    """One seeded game at `n` seats by a seeded mix of bots, each turn checked against the encoding; every
    `sample_every` turns, and when the seat to play holds two cards or fewer (0: never; at most `max_samples`
    states), up to `moves_per_state` steps the encoding allows are played by the interpreter from that state
    and checked the same way."""
    t0 = time.process_time()
    tally = Tally(games=1)
    rng = random.Random(f"{rb.name}/{n}/{seed}/{cap}")
    game = Game(rb, n, turn_cap=cap)
    sp = spec_for(rb, n, cap)
    steps = steps_for(sp)
    names = [rng.choice(BOTS) for _ in range(n)]
    bots = [make_bot(name, s, random.Random(rng.random())) for s, name in enumerate(names)]
    where = f"{rb.name} at {n} seats, game {seed} ({', '.join(names)}{f', cap {cap}' if cap else ''})"
    st = game.new_initial_state()
    while st.is_chance_node():
        st.apply_action(st.chance_outcome(rng))
    res = st.result()
    if res is not None and res.ending is Ending.NO_FIRST_PLAYER:
        # The encoding deals on to the dealer's left; the verifier's deal property refutes such rules.
        tally.endings[res.ending.value] += 1
        tally.seconds = time.process_time() - t0
        return tally
    tally.deals += 1
    tally.findings += [f"{where}, the deal: {p}" for p in steps.deal_problems(read(sp, st))]

    def choose(state: EngineState) -> Any:
        if state.is_chance_node():
            return state.chance_outcome(rng)
        seat = state.current_player()
        return bots[seat].act(state.view(seat))

    turn_no = 0
    samples = 0
    while st.phase is Phase.PLAY:
        before = read(sp, st)
        due = turn_no % sample_every == sample_every - 1 if sample_every else False
        if sample_every and samples < max_samples and (due or st.hand_size(st.current_player()) <= 2):
            samples += 1
            tally.states += 1
            for move in steps.moves(before, moves_per_state, rng):
                tally.moves += 1
                trial = st.clone()
                got = replay_move(sp, trial, move, rng)
                if isinstance(got, str):
                    tally.findings.append(f"{where}, turn {turn_no}: the encoding allows {_move_words(move)}, "
                                          f"the interpreter {got}")
                    continue
                for p in steps.problems(before, got, read(sp, trial)):
                    tally.findings.append(f"{where}, turn {turn_no}, encoding move {_move_words(move)}: {p}")
        turn = play_turn(st, choose)
        tally.steps += 1
        for p in steps.problems(before, turn, read(sp, st)):
            tally.findings.append(f"{where}, turn {turn_no} ({turn}): {p}")
        turn_no += 1
    res = st.result()
    assert res is not None
    tally.endings[res.ending.value] += 1
    tally.seconds = time.process_time() - t0
    return tally


def _move_words(move: dict[str, Any]) -> str:
    kind = ("play accepted", "play challenged", "pass")[move["kind"]]
    if kind == "pass":
        return kind
    out = f"{kind}: cards {move['cards']} claim #{move['claim']} count {move['count']}"
    if move["kind"] == 1:
        out += f", seat {move['challenger']} challenges with kind #{move['test']}, discards {move['discards']}"
    return out


# -- the rule values the language has --------------------------------------------------------------------

# A value counts only where the rule has an effect: these rules mean nothing unless another is set.
_ONLY_WHEN: dict[str, Any] = {
    "deck.jokers_wild": lambda rb: rb.deck.jokers > 0,
    "passing.leader_may_pass": lambda rb: rb.passing.allowed,
    "passing.all_pass_pile": lambda rb: rb.passing.allowed,
    "challenge.penalty.pile_after": lambda rb: rb.challenge.penalty.kind.value == "draw"
    or rb.challenge.penalty.failed_call.value == "free",
    "challenge.penalty.short_stock": lambda rb: rb.challenge.penalty.kind.value == "draw",
    "sets.naturals_only": lambda rb: rb.deck.jokers > 0,
    "ending.emptied_by_sets": lambda rb: rb.sets is not None,
}


# Fields whose words name the deck's cards, not a rule's choice.
_CARDS = ("deck.ranks", "deck.suits")
GIVEN = "given"


def rule_values() -> set[tuple[str, object]]:
    """Every value of every rule, read from the language's field table, as (dotted field, value): each
    choice of a field of choices or words, both answers of a yes/no field, and `GIVEN` for a rule that may
    be left out (a formula, a number or a section the model holds as None when it is not written)."""
    out: set[tuple[str, object]] = set()
    for path, fields in SECTIONS.items():
        if path.startswith("variations"):
            continue
        owner = _model_class(path)
        for f in fields:
            dotted = f"{path}.{f.name}" if path else f.name
            if f.kind is Kind.BOOLEAN:
                out |= {(dotted, True), (dotted, False)}
            elif f.kind in (Kind.CHOICE, Kind.WORDS) and f.choices and dotted not in _CARDS:
                out |= {(dotted, c) for c in f.choices}
            elif not f.required and _optional(owner, f.name):
                out.add((dotted, GIVEN))
    return out


def _model_class(path: str) -> type:
    """The model's class of the section at a table path (`challenge.kinds[]` is `ChallengeKind`)."""
    cls: type = Rulebook
    for part in path.replace("[]", "").split(".") if path else []:
        hint = typing.get_type_hints(cls)[part]
        inner = [a for a in typing.get_args(hint) if a is not type(None) and a is not Ellipsis]
        cls = inner[0] if inner else hint
    return cls


def _optional(cls: type, name: str) -> bool:
    """Whether the model's field `name` of `cls` may be None (a rule left out)."""
    hint = typing.get_type_hints(cls).get(name)
    return hint is not None and type(None) in typing.get_args(hint)


def values_used(rb: Rulebook) -> set[tuple[str, object]]:
    """The rule values `rb` uses, where they have an effect (see `rule_values`)."""
    out: set[tuple[str, object]] = set()
    for dotted in {name for name, _ in rule_values()}:
        only = _ONLY_WHEN.get(dotted)
        if only is not None and not only(rb):
            continue
        *sections, name = dotted.replace("[]", "").split(".")
        objects: list[Any] = [rb]
        for part in sections:
            objects = [x for o in objects for x in _as_list(getattr(o, part))]
        for o in objects:
            got = getattr(o, name)
            if _optional(type(o), name) and not isinstance(got, frozenset | bool | Enum):
                if got is not None:
                    out.add((dotted, GIVEN))
                continue
            for v in got if isinstance(got, frozenset) else (got,):
                out.add((dotted, v.value if isinstance(v, Enum) else v))
    return out


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, tuple) else [value]
