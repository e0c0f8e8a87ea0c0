"""The interpreter's states and turns in the verifier's terms: a played position as constant Z3 facts,
a turn as the encoding's step.

Used to start a search from a real deal, to test whether a dealt state lies in a recurrent set, and
by the agreement checks: every interpreter turn is a step of the transition relation giving the
interpreter's next state (`step_problems`), and every step the relation allows from a played state
is a turn the interpreter allows (`encoding_moves`, `replay_move`).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import z3

from cheatdsl.engine import ACCEPT as ACCEPT_ACTION
from cheatdsl.engine import KEEP, Challenge, DiscardSet, Ending, Game, IllegalAction, Pass, Phase, Play
from cheatdsl.engine import PASS as PASS_ACTION
from cheatdsl.engine import Action as EngineAction
from cheatdsl.engine import State as EngineState

from .spec import FIRST, FOLLOW, LEAD, Spec
from .state import State, Term, fresh, hand, num, total
from .transitions import ACCEPT, CHALLENGE, PASS, Action, Builder, fresh_action

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
    nsets = [0] * len(spec.rules.ranks_in_play)
    for _, rank, cards in st.discarded_sets():
        sets.update(cards)
        if rank in spec.rules.ranks_in_play:
            nsets[spec.rules.ranks_in_play.index(rank)] += 1
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
    if st.leading and prev is None and required == spec.req_sets[spec.required.first]:
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
    if result is not None and not result.capped:
        out["winner"] = -1 if result.winner is None else result.winner
        out["loser"] = -1 if result.loser is None else result.loser
    else:  # the encoding's winner is the first seat out, also in a game stopped before its end
        out["winner"] = order[0] if order and not g.first_out else -1
        out["loser"] = -1
    out["leading"] = st.leading
    out["over"] = st.phase is Phase.TERMINAL
    out["capped"] = bool(result and result.capped)
    out["stuck"] = bool(result and result.ending is Ending.NO_LEGAL_ACTION)
    out["nodef"] = False
    for card in spec.held:
        holder = st.holders.get(card)
        out[f"holder{card}"] = -1 if holder is None else holder
    out["open"] = spec.rules.window_through_passes and st.window_open
    # The open play's cards and the count called (the newest play on the pile), zero when none is open.
    top: tuple[int, ...] = ()
    out["topcount"] = 0
    if out["open"]:
        _, top, _, out["topcount"], _ = st.pile_plays()[-1]
    for i, k in enumerate(_counts(spec, top)):
        out[f"top{i}"] = k
    # Facts the rules cannot change are constants of the encoding.
    if not spec.rules.may_pass:
        out["passes"], out["last"] = 0, -1
    if spec.turn_limit is None:
        out["turns"] = 0
    if spec.rules.first_out:  # the first seat out ends the game, so no seat leaves one that goes on
        out["loser"] = -1
        out.update({f"inn{seat}": True for seat in range(n)})
    return out


def constant(spec: Spec, values: Values) -> State:
    """A state whose every fact is the constant in `values`."""
    template = fresh(spec, "c")
    s = template.copy()
    flat = {}
    for _, name, term in template.items():
        v = values.get(name, 0)
        flat[name] = z3.BoolVal(bool(v)) if z3.is_bool(term) else z3.IntVal(int(v))
    s.h = [[flat[f"h{q}_{i}"] for i in range(spec.width)] for q in range(spec.n)]
    for name in ("pile", "stock", "aside", "gone", "sets", "top"):
        setattr(s, name, [flat[f"{name}{i}"] for i in range(spec.width)])
    s.nsets = [flat[f"nsets{r}"] for r in range(len(template.nsets))]
    s.inn = [flat[f"inn{q}"] for q in range(spec.n)]
    for name in ("prev", "mode", "actor", "passes", "last", "turns", "dealer", "winner", "loser", "topcount",
                 "leading", "over", "capped", "stuck", "nodef", "open"):
        setattr(s, name, flat[name])
    s.holder = {card: flat[f"holder{card}"] for card in spec.held}
    return s


def merged_values(full: Spec, merged: Spec, keep: tuple[int, ...], values: Values) -> Values:
    """`values` of the full game as facts of the merged game (classes summed)."""
    out = dict(values)
    classes = [[i] for i in keep]
    rest = [i for i in range(full.width) if i not in keep]
    if rest or not classes:
        classes.append(rest)
    prefixes = [f"h{q}_" for q in range(full.n)] + ["pile", "stock", "aside", "gone", "sets", "top"]
    for p in prefixes:
        for c, members in enumerate(classes):
            out[f"{p}{c}"] = sum(values.get(f"{p}{i}", 0) for i in members)
    out["nsets0"] = sum(values.get(f"nsets{r}", 0) for r in range(len(full.rules.ranks_in_play)))
    if merged.claims != full.claims:
        out["prev"] = -1 if values["prev"] < 0 else 0
    return out


# -- turns as steps ------------------------------------------------------------------------------------

@dataclass
class Turn:
    """One interpreter turn as the encoding's step: a pass, or a play accepted by all, or a play challenged
    by `challenger` (-1: nobody) with the kind named `test`, found a lie or not (`caught`); the cards the
    loser drew from the stock and the sets it chose to discard (by rank). A pass whose `challenger` is a
    seat was followed by a challenge of the last play, still open to one."""

    kind: int
    play: Play | None = None
    challenger: int = -1
    test: str = ""
    caught: bool | None = None
    drawn: Counter[int] = field(default_factory=Counter)
    discards: Counter[int] = field(default_factory=Counter)


def play_turn(st: EngineState, choose: Callable[[EngineState], EngineAction]) -> Turn:
    """Play one turn from the play phase, each action `choose(st)` (a chance action too, where the rules
    draw lots during a turn), up to the next play phase or the end."""
    if st.phase is not Phase.PLAY:
        raise ValueError(f"a turn starts in the play phase, not {st.phase.value}")
    stock, reveals = Counter(st.stock()), st.reveal_count()
    first = choose(st)
    st.apply_action(first)
    turn = Turn(PASS) if isinstance(first, Pass) else Turn(ACCEPT, play=first)  # type: ignore[arg-type]
    while st.phase is not Phase.PLAY and st.phase is not Phase.TERMINAL:
        action = choose(st)
        st.apply_action(action)
        if isinstance(action, DiscardSet):
            turn.discards[action.rank] += 1
    if st.reveal_count() > reveals:
        record = st.reveal(reveals)
        turn.challenger, turn.test, turn.caught = record.challenger, record.kind, record.caught
        if turn.play is not None:
            turn.kind = CHALLENGE
    turn.drawn = stock - Counter(st.stock())
    return turn


def action_of(spec: Spec, turn: Turn) -> Action:
    """The encoding's choices for `turn`, as Z3 numerals."""
    names = [kind.name for kind in spec.rules.kinds]
    test = num(names.index(turn.test) if turn.test else 0)
    if turn.play is None:
        zeros = [num(0)] * spec.width
        return Action(num(turn.kind), zeros, num(0), num(0), num(turn.challenger), test,
                      [num(turn.drawn.get(v, 0)) for v in spec.live],
                      [num(turn.discards.get(r, 0)) for r in spec.rules.ranks_in_play])
    cards = Counter(turn.play.cards)
    return Action(num(turn.kind), [num(cards.get(v, 0)) for v in spec.live], num(spec.claim_index[turn.play.claim]),
                  num(turn.play.count), num(turn.challenger), test,
                  [num(turn.drawn.get(v, 0)) for v in spec.live],
                  [num(turn.discards.get(r, 0)) for r in spec.rules.ranks_in_play])


# Facts that describe the turn to come, not the game: once the game is over they mean nothing.
TURN_FACTS = ("actor", "prev", "mode", "passes", "last", "leading", "dealer")


class Steps:
    """The encoding's step at one table, built once over variables, against which interpreter turns are
    checked by evaluating it on their values (no solving): `problems(before, turn, after)`. The turn cap
    is a variable too, so that one step serves games stopped at other caps (`with_cap`)."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.cap_var = z3.Int("turn_cap") if spec.turn_limit is not None else None
        self.shape = replace(spec, capped_at=self.cap_var) if self.cap_var is not None else spec
        self.s, self.t = fresh(self.shape, "before"), fresh(self.shape, "after")
        self.a = fresh_action(spec, "turn")
        b = Builder(self.shape, name_terms=False)
        self.legal, self.after = b.step(self.s, self.a)
        assert not b.defs, "the unnamed full step defines no terms"
        over = self.t.over
        same = [_or(over, eq) if fact in TURN_FACTS else eq
                for fact, eq in _equalities(self.t, self.after) if fact != "nodef"]
        self.check = _and([self.legal, *same])
        self.model = z3.Model()
        self.ctx = z3.main_ctx().ref()
        # Each fact as (name, the declaration of its variable or None, whether it is a truth value, the
        # encoding's constant when it is not a variable); declarations and values as Z3's own pointers,
        # since a turn of a large table gives the model hundreds of values.
        self.facts = {id(st): [_fact(name, term) for _, name, term in st.items()] for st in (self.s, self.t)}
        self.choices = [(var.decl().ast, i) for i, var in enumerate(_action_terms(self.a)) if _variable(var)]
        if self.cap_var is not None:
            self.choices.append((self.cap_var.decl().ast, -1))
        self.kept: list[Term] = []  # the values whose pointers are used, kept alive
        self.numbers: dict[int, Any] = {}
        self.truths = [self._pointer(z3.BoolVal(False)), self._pointer(z3.BoolVal(True))]
        self.solver: z3.Solver | None = None  # the whole step over the same variables, made when first asked
        self.deal_solver: z3.Solver | None = None  # the deal, made when first asked
        self.dealt = self.s

    def with_cap(self, cap: int) -> Steps:
        """The same step for games stopped at the turn cap `cap` (the step has a cap)."""
        if self.cap_var is None:
            raise ValueError("this step has no turn cap to change")
        other = copy.copy(self)
        other.spec = replace(self.spec, capped_at=cap)
        other.solver = other.deal_solver = None
        return other

    def _pointer(self, term: Term) -> Any:
        self.kept.append(term)
        return term.as_ast()

    def _number(self, value: int) -> Any:
        got = self.numbers.get(value)
        if got is None:
            got = self.numbers[value] = self._pointer(num(value))
        return got

    def _assign(self, values: Values, state: State) -> list[str]:
        """Give the model the facts `values` for `state`'s variables; facts the encoding holds constant must
        have that value (else a problem)."""
        out = []
        add, ctx, model, truths, numbers = z3.Z3_add_const_interp, self.ctx, self.model.model, self.truths, self.numbers
        for name, decl, truth, fixed in self.facts[id(state)]:
            value = values[name]
            if decl is None:
                if fixed != value:
                    out.append(f"{name}: the encoding holds it at {fixed}, the interpreter has {value}")
            elif truth:
                add(ctx, model, decl, truths[bool(value)])
            else:
                pointer = numbers.get(value)
                add(ctx, model, decl, self._number(value) if pointer is None else pointer)
        return out

    def problems(self, before: Values, turn: Turn, after: Values) -> list[str]:
        """How the encoding's step for `turn` from `before` differs from the interpreter's state `after`:
        empty when the step is legal in the encoding and gives exactly `after`."""
        # A model is evaluated once: Z3 keeps what it evaluated even when a value is changed afterwards.
        self.model = z3.Model()
        found = self._assign(before, self.s) + self._assign(after, self.t)
        values = [*_action_terms(action_of(self.spec, turn)), num(self.spec.turn_limit or 0)]
        for decl, i in self.choices:
            z3.Z3_add_const_interp(self.ctx, self.model.model, decl, values[i].as_ast())  # numerals kept by `num`
        if found or z3.is_true(self.model.eval(self.check)):
            return found
        if not z3.is_true(self.model.eval(self.legal)):
            return [f"the encoding does not allow the turn ({self._why_not(turn)})"]
        bad = []
        for fact, name, term in self.after.items():
            if fact == "nodef" or (after["over"] and fact in TURN_FACTS):
                continue
            value = _plain(self.model.eval(term))
            if value != after[name]:
                bad.append(f"{name}: encoding {value}, interpreter {after[name]}")
        return bad

    def deal_problems(self, values: Values) -> list[str]:
        """Empty when the interpreter's dealt state `values` is an initial state of the encoding (some deal
        the rules allow, followed by the first turn's start, gives it)."""
        if self.deal_solver is None:
            from .deal import initial
            cons, self.dealt, _ = initial(Builder(self.shape, name_terms=False), "deal")
            self.deal_solver = z3.Solver()
            self.deal_solver.add(cons)
        solver = self.deal_solver
        solver.push()
        if self.cap_var is not None:
            solver.add(self.cap_var == num(self.spec.turn_limit or 0))
        for fact, name, dealt in self.dealt.items():
            if fact == "nodef" or (values["over"] and fact in TURN_FACTS):
                continue
            value = values[name]
            solver.add(dealt == (z3.BoolVal(value) if isinstance(value, bool) else num(value)))
        found = solver.check()
        solver.pop()
        return [] if found == z3.sat else [f"the dealt state is not an initial state of the encoding ({found})"]

    def moves(self, before: Values, limit: int, rng: random.Random) -> list[dict[str, Any]]:
        """Up to `limit` distinct steps the encoding allows from `before`, each as the choices `kind`, `cards`
        (per live value), `claim`, `count`, `challenger`, `test` and `discards`. The cards drawn from the
        stock are left out: the encoding lets the loser draw any of them, the interpreter the top ones.
        Each shape of step is asked for in turn (a pass; a play accepted, or challenged by each seat with
        each kind; each also playing the whole hand; a challenge after which sets are discarded), so
        that no shape uses up the limit and the rarer ones are tried."""
        sp, a = self.spec, self.a
        if self.solver is None:
            self.solver = z3.Solver()
            self.solver.add(self.legal)
        solver = self.solver
        solver.push()
        solver.set("random_seed", rng.randrange(1 << 30))
        if self.cap_var is not None:
            solver.add(self.cap_var == num(self.spec.turn_limit or 0))
        for _, name, term in self.s.items():
            if _variable(term):
                value = before[name]
                solver.add(term == (z3.BoolVal(value) if isinstance(value, bool) else num(value)))
        whole = total(a.cards) == hand(self.s, self.s.actor)
        shapes: list[Term] = [z3.And(a.kind == PASS, a.challenger < 0), a.kind == ACCEPT,
                              z3.And(a.kind == ACCEPT, whole)]
        for c in range(sp.n):
            for k in range(len(sp.rules.kinds)):
                challenged = z3.And(a.kind == CHALLENGE, a.challenger == c, a.test == k)
                shapes += [challenged, z3.And(challenged, whole)]
                if sp.rules.window_through_passes and self.s.open is not None:  # a challenge of the open play
                    shapes.append(z3.And(a.kind == PASS, a.challenger == c, a.test == k, self.s.open))
        if any(_variable(x) for x in a.discards):
            shapes.append(z3.And(a.kind == CHALLENGE, total(a.discards) > 0))
        out: list[dict[str, Any]] = []
        for shape in shapes:
            if len(out) >= limit:
                break
            solver.push()
            solver.add(shape)
            for _ in range(max(1, (limit - len(out)) // len(shapes))):
                if len(out) >= limit or solver.check() != z3.sat:
                    break
                m = solver.model()

                def value(term: Term, m: z3.ModelRef = m) -> int:
                    return _plain(m.eval(term, model_completion=True))  # type: ignore[return-value]
                move = {"kind": value(a.kind), "cards": [value(x) for x in a.cards], "claim": value(a.claim),
                        "count": value(a.count), "challenger": value(a.challenger), "test": value(a.test),
                        "discards": [value(x) for x in a.discards]}
                out.append(move)
                solver.add(_other_than(a, move))
            solver.pop()
        solver.pop()
        return out

    def _why_not(self, turn: Turn) -> str:
        """The first guard of the step that the turn breaks, in its Z3 form."""
        b = Builder(self.shape, name_terms=False)
        if turn.kind == PASS:
            guards, _ = b.pass_turn(self.s, self.a)
        else:
            guards, t1, m = b.play(self.s, self.a)
            if turn.kind == CHALLENGE:
                guards = guards + b.challenge(self.s, t1, self.a, m)[0]
        for g in guards:
            if not z3.is_true(self.model.eval(g)):
                return f"fails {g}"
        return "no guard fails"


def _equalities(a: State, b: State) -> list[tuple[str, Term]]:
    """Fact by fact, a == b (made directly: a large table has hundreds)."""
    ctx = z3.main_ctx()
    return [(fact, z3.BoolRef(z3.Z3_mk_eq(ctx.ref(), x.as_ast(), y.as_ast()), ctx))
            for (fact, _, x), (_, _, y) in zip(a.items(), b.items())]


def _and(terms: list[Term]) -> Term:
    ctx = z3.main_ctx()
    args = (z3.Ast * len(terms))(*[t.as_ast() for t in terms])
    return z3.BoolRef(z3.Z3_mk_and(ctx.ref(), len(terms), args), ctx)


def _or(a: Term, b: Term) -> Term:
    ctx = z3.main_ctx()
    args = (z3.Ast * 2)(a.as_ast(), b.as_ast())
    return z3.BoolRef(z3.Z3_mk_or(ctx.ref(), 2, args), ctx)


def _action_terms(a: Action) -> list[Term]:
    return [a.kind, *a.cards, a.claim, a.count, a.challenger, a.test, *a.draws, *a.discards]


def _variable(term: Term) -> bool:
    """Whether `term` is a variable (not a numeral or a truth value: the facts a state holds constant)."""
    ctx, ast = term.ctx_ref(), term.as_ast()
    return (z3.Z3_get_app_num_args(ctx, ast) == 0
            and z3.Z3_get_decl_kind(ctx, z3.Z3_get_app_decl(ctx, ast)) == z3.Z3_OP_UNINTERPRETED)


def _fact(name: str, term: Term) -> tuple[str, Any, bool, int | bool | None]:
    """(name, the declaration of its variable or None, whether it is a truth value, its constant or None)."""
    if _variable(term):
        return name, term.decl().ast, z3.is_bool(term), None
    return name, None, z3.is_bool(term), _plain(term)


def _plain(term: Term) -> int | bool:
    """The Python value of a Z3 numeral or truth value."""
    if z3.is_true(term) or z3.is_false(term):
        return z3.is_true(term)
    return int(term.as_long())


def _other_than(a: Action, move: dict[str, Any]) -> Term:
    """A step differing from `move` in a choice that matters for its kind."""
    if move["kind"] == PASS:  # a pass, with or without a challenge of the open play after it
        if move["challenger"] < 0:
            return z3.Not(z3.And(a.kind == PASS, a.challenger < 0))
        return z3.Not(z3.And(a.kind == PASS, a.challenger == move["challenger"], a.test == move["test"]))
    same = [a.kind == move["kind"], a.claim == move["claim"], a.count == move["count"]]
    same += [x == k for x, k in zip(a.cards, move["cards"])]
    if move["kind"] == CHALLENGE:
        same += [a.challenger == move["challenger"], a.test == move["test"]]
        same += [x == k for x, k in zip(a.discards, move["discards"])]
    return z3.Not(z3.And(same))


def replay_move(spec: Spec, st: EngineState, move: dict[str, Any], rng: random.Random) -> Turn | str:
    """The encoding's step `move` played by the interpreter on `st` (changed in place): the turn it made,
    or why the interpreter refuses it. The challenger is the one seat that calls; lots the rules draw
    during the turn are drawn with `rng`."""
    stock, reveals = Counter(st.stock()), st.reveal_count()
    # A pass may be followed by a challenge of the last play, still open (`window: before_next_play`).
    calling = move["kind"] == CHALLENGE or (move["kind"] == PASS and move["challenger"] >= 0)
    test = spec.rules.kinds[move["test"]].name if calling else ""
    if move["kind"] == PASS:
        why = _try(st, PASS_ACTION)
        if why is not None:
            return f"refuses the pass: {why}"
        turn = Turn(PASS)
        # Where the pass leaves no play open (none was, or every seat has now passed), a challenger names
        # no one in the encoding either: the step is a plain pass.
        calling = calling and st.phase is Phase.RESPOND
    else:
        cards = tuple(sorted(v for v, k in zip(spec.live, move["cards"]) for _ in range(k)))
        play = Play(cards, spec.claims[move["claim"]], move["count"])
        why = _try(st, play)
        if why is not None:
            return f"refuses the play {play}: {why}"
        turn = Turn(move["kind"], play=play)
    while st.phase is Phase.RESPOND or st.is_chance_node():
        if st.is_chance_node():
            st.apply_action(st.chance_outcome(rng))
            continue
        seat = st.current_player()
        calls = calling and seat == move["challenger"]
        why = _try(st, Challenge(test) if calls else ACCEPT_ACTION)
        if why is not None:
            return f"refuses seat {seat}'s {f'challenge `{test}`' if calls else 'accepting'}: {why}"
    if calling and (st.reveal_count() == reveals or st.reveal(reveals).challenger != move["challenger"]):
        return f"never hears seat {move['challenger']} challenge"
    for rank, k in zip(spec.rules.ranks_in_play, move["discards"]):
        for _ in range(k):
            why = _try(st, DiscardSet(rank))
            if why is not None:
                return f"refuses a set of rank {rank}: {why}"
            turn.discards[rank] += 1
    if st.phase is Phase.DISCARD:
        why = _try(st, KEEP)
        if why is not None:
            return f"refuses keeping the other sets: {why}"
    if st.phase is not Phase.PLAY and st.phase is not Phase.TERMINAL:
        return f"is left in the {st.phase.value} phase after the step"
    if calling:
        turn.challenger, turn.test, turn.caught = move["challenger"], test, st.reveal(reveals).caught
    turn.drawn = stock - Counter(st.stock())
    return turn


def _try(st: EngineState, action: EngineAction) -> str | None:
    """Apply `action`; why the interpreter refuses it, or None."""
    try:
        st.apply_action(action)
    except IllegalAction as exc:
        return str(exc)
    return None
