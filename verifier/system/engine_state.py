"""The interpreter's states in the verifier's terms: a played position as constant Z3 facts.

Used to start a search from a real deal, to test whether a dealt state lies in a recurrent set,
and by the tests that check every interpreter step against the transition relation.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import z3

from cheatdsl.engine import Ending, Game, Phase
from cheatdsl.engine import State as EngineState

from .spec import FIRST, FOLLOW, LEAD, Spec
from .state import State

Values = dict[str, Any]


def _counts(spec: Spec, cards: Any) -> list[int]:
    c = Counter(cards)
    return [c.get(v, 0) for v in spec.live]


def read(spec: Spec, st: EngineState) -> Values:
    """The facts of an interpreter state, named as `State.items()` names them (full spec only)."""
    g: Game = st.game
    n = spec.n
    out: Values = {}
    for seat in range(n):
        for i, k in enumerate(_counts(spec, st.hand_cards(seat))):
            out[f"h{seat}_{i}"] = k
    sets: Counter[int] = Counter()
    nsets = [0] * len(spec.ranks_in_play)
    for _, rank, cards in st.discarded_sets():
        sets.update(cards)
        if rank in spec.ranks_in_play:
            nsets[spec.ranks_in_play.index(rank)] += 1
    places: list[tuple[str, Any]] = [("pile", st.pile_cards()), ("stock", st.stock()), ("aside", st.aside()),
                                     ("gone", st.gone()), ("sets", list(sets.elements()))]
    for name, cards in places:
        for i, k in enumerate(_counts(spec, cards)):
            out[f"{name}{i}"] = k
    for r, k in enumerate(nsets):
        out[f"nsets{r}"] = k
    for seat in range(n):
        out[f"inn{seat}"] = st.is_in(seat)
    prev = st.previous
    out["prev"] = -1 if prev is None else spec.claim_index[prev]
    required = frozenset(spec.claim_index[c] for c in st.required_claims())
    if st.leading and prev is None and required == spec.req_sets[spec.first]:
        mode = FIRST
    elif st.leading:
        mode = LEAD
    else:
        mode = FOLLOW
    out["mode"] = mode
    actor = st.current_player()
    out["actor"] = actor if actor >= 0 else 0
    out["passes"] = st.passes
    last = st.last_player
    out["last"] = -1 if last is None else last
    out["turns"] = st.turns
    out["dealer"] = st.dealer or 0
    result = st.result()
    order = st.order_out()
    if result is not None:
        out["winner"] = -1 if result.winner is None else result.winner
        out["loser"] = -1 if result.loser is None else result.loser
    else:
        out["winner"] = order[0] if order and not g.first_out else -1
        out["loser"] = -1
    out["leading"] = st.leading
    out["over"] = st.phase is Phase.TERMINAL
    out["capped"] = bool(result and result.capped)
    out["stuck"] = bool(result and result.ending is Ending.NO_LEGAL_ACTION)
    out["nodef"] = False
    # Facts the rules cannot change are constants of the encoding.
    if not spec.may_pass:
        out["passes"], out["last"] = 0, -1
    if spec.turn_cap is None:
        out["turns"] = 0
    if spec.first_out:
        out["loser"] = -1
    return out


def constant(spec: Spec, values: Values) -> State:
    """A state whose every fact is the constant in `values`."""
    from .state import fresh
    template = fresh(spec, "c")
    s = template.copy()
    flat = {}
    for _, name, term in template.items():
        v = values.get(name, 0)
        flat[name] = z3.BoolVal(bool(v)) if z3.is_bool(term) else z3.IntVal(int(v))
    s.h = [[flat[f"h{q}_{i}"] for i in range(spec.width)] for q in range(spec.n)]
    for name in ("pile", "stock", "aside", "gone", "sets"):
        setattr(s, name, [flat[f"{name}{i}"] for i in range(spec.width)])
    s.nsets = [flat[f"nsets{r}"] for r in range(len(template.nsets))]
    s.inn = [flat[f"inn{q}"] for q in range(spec.n)]
    for name in ("prev", "mode", "actor", "passes", "last", "turns", "dealer", "winner", "loser",
                 "leading", "over", "capped", "stuck", "nodef"):
        setattr(s, name, flat[name])
    return s


def merged_values(full: Spec, merged: Spec, keep: tuple[int, ...], values: Values) -> Values:
    """`values` of the full game as facts of the merged game (classes summed)."""
    out = dict(values)
    classes = [[i] for i in keep]
    rest = [i for i in range(full.width) if i not in keep]
    if rest or not classes:
        classes.append(rest)
    prefixes = [f"h{q}_" for q in range(full.n)] + ["pile", "stock", "aside", "gone", "sets"]
    for p in prefixes:
        for c, members in enumerate(classes):
            out[f"{p}{c}"] = sum(values.get(f"{p}{i}", 0) for i in members)
    out["nsets0"] = sum(values.get(f"nsets{r}", 0) for r in range(len(full.ranks_in_play)))
    if merged.claims != full.claims:
        out["prev"] = -1 if values["prev"] < 0 else 0
    return out
