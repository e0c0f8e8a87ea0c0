"""A distinguishing game: one seeded deal and one run of actions on which two rulebooks part ways.

Both rulebooks are dealt the same seed at the same table and played by the same simple policy
(random plays, a challenge now and then, the same choice applied to both), until either an action
is legal under one and refused under the other, or the same action leaves the two tables in
different states (hands, pile, who acts, the claims due, the result). The game is then written as
two scenario files, one per rulebook, that replay it and expect each rulebook's own outcome.

Actions cross from one game to the other through the scenario notation (`0: play 7C KD as 2 sevens`),
so two rulebooks with different decks or claim orders are compared in the words a table uses.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model import Rulebook
from ..output import file_in
from ..profiles import command_name, reference_to

SEEDS = 24
STEPS = 400
SAMPLES = 6
CHALLENGE_CHANCE = 0.3


@dataclass
class Distinction:
    """Where the two rulebooks part ways, and what each one's scenario expects there."""

    players: int
    seed: int
    dealer: int
    actions: list[str]
    action: str | None = None
    base_expect: dict[str, Any] = field(default_factory=dict)
    variant_expect: dict[str, Any] = field(default_factory=dict)
    base_why: str = ""
    variant_why: str = ""

    @property
    def kind(self) -> str:
        if self.action is None:
            return "deal"
        return "legality" if "legal" in self.base_expect or "illegal" in self.base_expect else "outcome"

    def sentence(self, base: str, variant: str) -> str:
        """The distinction in one sentence, naming the two rulebooks `base` and `variant`."""
        where = f"with {self.players} players, shuffle seed {self.seed}, dealer {self.dealer}"
        if self.kind == "deal":
            what = "; ".join(f"{k} {_show(self.base_expect[k])} under {base}, {_show(self.variant_expect[k])} "
                             f"under {variant}" for k in self.base_expect)
            return f"{where}: the deal already differs: {what}"
        n = len(self.actions)
        steps = "at the first turn" if not n else f"after {n} action{'s' if n != 1 else ''}"
        seat, _, text = (self.action or "").partition(": ")
        if self.kind == "legality":
            legal, refused, why = (base, variant, self.variant_why) if "legal" in self.base_expect else \
                (variant, base, self.base_why)
            return (f"{where}, {steps}: seat {seat} may `{text}` under {legal} but not under {refused}"
                    + (f" ({why})" if why else ""))
        what = "; ".join(f"{k} {_show(self.base_expect[k])} under {base}, {_show(self.variant_expect[k])} "
                         f"under {variant}" for k in self.base_expect)
        return f"{where}, {steps}: seat {seat} plays `{text}`, and then {what}"


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "/".join(str(value[k]) if not isinstance(value[k], list) else " ".join(value[k]) for k in sorted(value))
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def _observe(state: Any) -> dict[str, Any]:
    """What a scenario can check about a table, in the notation (so it means the same in any rulebook)."""
    from ..engine import Phase
    from ..words.notation import cards_text, claim_text
    g = state.game
    result = state.result()
    out: dict[str, Any] = {
        "phase": "over" if state.phase is Phase.TERMINAL else state.phase.value,
        "hand_sizes": {s: state.hand_size(s) for s in range(g.players)},
        "hands": {s: cards_text(g, state.hand_cards(s)).split() for s in range(g.players)},
        "pile": state.pile_size(),
    }
    if state.phase in (Phase.PLAY, Phase.RESPOND, Phase.DISCARD):
        out["to_act"] = state.current_player()
    if state.phase is Phase.PLAY:
        due = state.required_claims()
        every = len(due) == len(g.rules.claim_order) > 1
        out["required"] = "any" if every else sorted(claim_text(g, c) for c in due)
    if result is not None:
        out["winner"] = result.winner
        out["loser"] = result.loser
    reveals = state.reveals()
    if reveals:
        last = reveals[-1]
        out["revealed"] = cards_text(g, last.revealed).split()
        out["caught"] = last.caught
        out["picked_up"] = last.loser if last.paid else None  # none: a wrong call that cost nothing
        out["pile_shown"] = "none" if last.pile is None else cards_text(g, last.pile).split()
    return out


def _table(rb: Rulebook, players: int, seed: int, dealer: int) -> Any:
    from ..engine import ChanceDealer, ChanceShuffle, Game
    state = Game(rb, players).new_initial_state()
    if state.game.rules.dealer_by_lot:
        state.apply_action(ChanceDealer(dealer))
    state.apply_action(ChanceShuffle(seed))
    return state


def _cross(text: str, state: Any) -> tuple[Any | None, str]:
    """The action written `text` in `state`'s game, and why it is refused there ("" when legal)."""
    from ..words.notation import NotationError, parse_action, why_illegal
    try:
        action = parse_action(state.game, text)
    except NotationError as exc:
        return None, str(exc)
    why = why_illegal(state, action)
    return action, why or ""


def _candidates(state: Any, rng: random.Random) -> list[str]:
    """A few actions the seat to act might take, in the notation: sampled plays and passes, or every response."""
    from ..engine import Phase, TooManyActions
    from ..words.notation import action_text
    g = state.game
    if state.phase is Phase.PLAY:
        texts = [action_text(g, state.sample_play(rng)) for _ in range(SAMPLES)]
        if state.can_pass():
            texts.append("pass")
        return list(dict.fromkeys(texts))
    try:
        return [action_text(g, a) for a in state.legal_actions(limit=64)]
    except TooManyActions:
        return [action_text(g, state.sample_play(rng))]


def _choose(texts: list[str], state: Any, rng: random.Random) -> str:
    """The policy: a play (or a pass, now and then); in answer to a claim, a challenge now and then."""
    from ..engine import Phase
    if state.phase is Phase.RESPOND:
        challenges = [t for t in texts if t.startswith("challenge")]
        if challenges and rng.random() < CHALLENGE_CHANCE:
            return challenges[0]
        return "accept" if "accept" in texts else texts[0]
    plays = [t for t in texts if t != "pass"]
    if "pass" in texts and (not plays or rng.random() < 0.2):
        return "pass"
    return plays[0] if plays else texts[0]


# Facts a table can see, the most telling first; whole hands only when nothing else differs.
TELLING = ("winner", "loser", "hand_sizes", "required", "to_act", "phase", "pile", "caught", "picked_up",
           "revealed", "pile_shown", "hands")


def _differences(a: dict[str, Any], b: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    keys = [k for k in TELLING if k in a and k in b and a[k] != b[k]]
    if len(keys) > 1 and "hands" in keys:
        keys.remove("hands")
    return {k: a[k] for k in keys}, {k: b[k] for k in keys}


def _table_sizes(base: Rulebook, variant: Rulebook) -> list[int]:
    """Player counts both rulebooks allow: those where their deals differ first, then the nearest four."""
    from ..cards import Table
    common = sorted(set(base.players.counts()) & set(variant.players.counts()), key=lambda n: (abs(n - 4), n))

    def dealt(rb: Rulebook, n: int) -> object:
        t = Table(rb, n)
        return len(t.deck), t.hand_sizes()

    differing = [n for n in common if dealt(base, n) != dealt(variant, n)]
    return (differing[:1] + [n for n in common if n not in differing[:1]])[:3]


def _one_game(base: Rulebook, variant: Rulebook, players: int, seed: int) -> Distinction | None:
    dealer = seed % players
    a, b = _table(base, players, seed, dealer), _table(variant, players, seed, dealer)
    rng = random.Random(seed * 7919 + players)
    found = Distinction(players, seed, dealer, [])
    before_a, before_b = _observe(a), _observe(b)
    if before_a != before_b:
        found.base_expect, found.variant_expect = _differences(before_a, before_b)
        return found
    for _ in range(STEPS):
        if a.is_terminal():
            return None
        seat = a.current_player()
        texts = list(dict.fromkeys(_candidates(a, rng) + _candidates(b, rng)))
        common = []
        for text in texts:
            act_a, why_a = _cross(text, a)
            act_b, why_b = _cross(text, b)
            if bool(why_a) != bool(why_b):
                found.action = f"{seat}: {text}"
                found.base_expect = {"illegal" if why_a else "legal": [text]}
                found.variant_expect = {"illegal" if why_b else "legal": [text]}
                found.base_why, found.variant_why = why_a, why_b
                return found
            if not why_a:
                common.append((text, act_a, act_b))
        if not common:
            return None
        text = _choose([t for t, _, _ in common], a, rng)
        _, act_a, act_b = next(c for c in common if c[0] == text)
        a.apply_action(act_a)
        b.apply_action(act_b)
        after_a, after_b = _observe(a), _observe(b)
        if after_a != after_b:
            found.action = f"{seat}: {text}"
            found.base_expect, found.variant_expect = _differences(after_a, after_b)
            return found
        found.actions.append(f"{seat}: {text}")
    return None


def search(base: Rulebook, variant: Rulebook, seeds: int = SEEDS) -> tuple[Distinction | None, str]:
    """The first seeded game on which the two rulebooks part ways, or None and why none was found."""
    counts = _table_sizes(base, variant)
    if not counts:
        return None, "no table size is allowed by both rulebooks, so no one game can be played under both"
    try:
        for n in counts:
            for seed in range(1, seeds + 1):
                try:
                    found = _one_game(base, variant, n, seed)
                except ValueError:  # a table the rules cannot deal (too few cards for the hands)
                    break
                if found is not None:
                    return found, ""
    except Exception as exc:  # the interpreter is a separate back end: its failure costs this part only
        return None, f"the interpreter failed while searching ({type(exc).__name__}: {exc})"
    tried = ", ".join(str(n) for n in counts)
    return None, (f"no game of {seeds} seeded deals at {tried} players told the two apart: the interpreter "
                  "plays these rules alike, or the difference is rare under a random policy")


def scenarios(found: Distinction, base: Rulebook, variant: Rulebook, directory: str,
              variations: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())) -> list[tuple[str, Any]]:
    """The distinguishing game as one scenario per rulebook, each checked to pass, as (path, Scenario)."""
    from ..scenario.model import Scenario
    if "-" in (base.path, variant.path):
        raise ValueError("a scenario names its rulebook, and one read from standard input has no name to give: "
                         "save it to a file first")
    stem = f"{variant.name}-vs-{base.name}"
    out = []
    for role, rb, expect, used in (("base", base, found.base_expect, variations[0]),
                                   ("variant", variant, found.variant_expect, variations[1])):
        path = str(file_in(Path(directory), stem, suffix=f".{role}.yaml"))
        rulebook = reference_to(rb.path, directory)
        actions = found.actions + ([found.action] if found.action and found.kind == "outcome" else [])
        scenario = Scenario(
            name=found.sentence(base.name, variant.name),
            rulebook=rulebook, players=found.players, actions=list(actions), expect=dict(expect),
            source=f"cheatdsl diff {command_name(base.path)} {command_name(variant.path)}", variations=list(used), seed=found.seed,
            dealer=found.dealer if _by_lot(rb) else None, path=path)
        kept = {}
        for key, value in expect.items():
            scenario.expect = {key: value}
            if scenario.run().passed:
                kept[key] = value
        scenario.expect = kept
        if not kept or not scenario.run().passed:
            raise ValueError(f"the {role} scenario does not replay as found")
        out.append((path, scenario))
    return out


def _by_lot(rb: Rulebook) -> bool:
    from ..model import DealerChoice
    return rb.setup.dealer is DealerChoice.LOT
