"""The eight properties of the transition system at one player count, from the shared analyses.

`Analysis(rulebook, n)` tabulates the spec once and runs each proof once (the invariants, the
recurrent set, the searches), caching by spec so that rulebooks playing the same game at a table
share the work. Each `*_at` function returns the `Result` of one property at this count.
"""

from __future__ import annotations

import time
from functools import cached_property
from typing import Any

import z3

from cheatdsl.derived import TableRules
from cheatdsl.engine import Ending, Game, Phase, State
from cheatdsl.model import Rulebook

from ..encoding.engine_state import constant, read
from ..encoding.spec import Spec, SpecError, build_spec, merge_values
from ..encoding.symmetry import rotation_symmetric
from ..encoding.transitions import CHALLENGE, PASS, Builder
from ..solving.solver import ask, fresh_context, new_solver
from . import ranking, recurrence
from .counterexample import Outcome, cti_words, group_goal, search
from .games import Found, play_games
from .invariant import Counterexample, Invariants, _classes, houdini, out_keeps_cards_at_end
from .search import bmc
from .settings import DEFAULT, Caches, Settings
from .verdict import Result, Verdict, bounded, not_applicable, proved, refuted, unknown
from .witness import Table, Witness, dealt, scenario_of, steps_text, words_text

SEARCH_DEPTH = 4  # turns a counterexample search unrolls at --search-effort 1; more effort goes deeper


def search_depth(effort: float) -> int:
    """The depth of a counterexample search: SEARCH_DEPTH, times the square root of the search effort above 1."""
    return int(SEARCH_DEPTH * max(1.0, effort) ** 0.5)
WIN_DEPTH = 64
SEEDS = 10


class Budget:
    """What a rulebook may spend: `deadline` for everything (a safety net), and for each property a number
    of counterexample searches (the dearest part), made at the smallest player counts that need one.
    Searches are bounded by Z3's resource limit, not the clock, so that verdicts do not depend on the
    machine. `first` tells whether this is the smallest player count; `recurrence` gives the recurrent set
    checked once, at the smallest count, kept in `caches` by table."""

    def __init__(self, seconds: float, searches: int, caches: Caches | None = None) -> None:
        self.deadline = time.perf_counter() + seconds
        self.searches = searches
        self.caches = Caches() if caches is None else caches
        self.spent: dict[str, int] = {}
        self.first = True
        self.smallest = 0  # the smallest player count, where the recurrent set is checked
        self._recurrent: Any = None
        self._checked = False

    def recurrence(self, rb: Rulebook, known: Spec | None = None) -> Any:
        """The recurrent set checked at the smallest player count (None where that table cannot be
        tabulated), made when a count first asks for it, in a Z3 context of its own: what follows it
        in the asking property is the same whether it was made there or earlier. `known`: the smallest
        count's spec, when the asking count is that one."""
        if not self._checked:
            self._checked = True
            fresh_context()
            try:
                sp = known if known is not None else build_spec(rb, self.smallest)
            except SpecError:  # the smallest table has no analysis, so no recurrent set is checked
                sp = None
            recurrent = self.caches.recurrent
            if sp is not None and sp not in recurrent:
                recurrent[sp] = recurrence.find(sp, rotation_symmetric(sp))
            self._recurrent = None if sp is None else recurrent[sp]
        fresh_context()
        return self._recurrent

    def due(self, pid: str) -> bool:
        """Whether `pid` may still search (without counting it)."""
        return self.spent.get(pid, 0) < self.searches and time.perf_counter() <= self.deadline

    def take(self, pid: str) -> bool:
        """Whether `pid` may search once more (and count it)."""
        if not self.due(pid):
            return False
        self.spent[pid] = self.spent.get(pid, 0) + 1
        return True

    def seconds_left(self) -> float:
        return max(1.0, self.deadline - time.perf_counter())


def invariants(sp: Spec, proved: dict[Spec, Invariants]) -> Invariants:
    """The invariants of `sp`'s table, from `proved` (by table) or proved now and kept there."""
    key = merge_values(sp, _classes(sp))  # the finer of the two merged games the invariants are proved on
    if key not in proved:
        proved[key] = houdini(sp)
    return proved[key]


def plain(inv: Invariants) -> Invariants:
    """The invariants without their Z3 models (what the checks read of them, in words): data that another
    process can take."""
    dropped = {g: Counterexample(cx.group, cx.where, cx.facts, None, None, words=cx.words)  # type: ignore[arg-type]
               for g, cx in inv.dropped.items()}
    return Invariants(set(inv.proved), dropped, inv.unknown, inv.symmetric, inv.queries)


def proved_so_far(a: Analysis) -> tuple[Spec, Invariants] | None:
    """The invariants `a` proved, as plain data another process can take (`adopt`), or None."""
    inv = a.__dict__.get("inv")
    if a.spec is None or inv is None:
        return None
    return merge_values(a.spec, _classes(a.spec)), plain(inv)


def adopt(found: tuple[Spec, Invariants], caches: Caches) -> None:
    """Invariants another process proved, for the checks made with `caches` at the same table."""
    caches.invariants.setdefault(*found)


class Analysis:
    """One rulebook at one player count, with the run's settings and the caches it reads and fills."""

    def __init__(self, rb: Rulebook, n: int, settings: Settings = DEFAULT, caches: Caches | None = None,
                 rules: TableRules | None = None) -> None:
        self.rb = rb
        self.n = n
        self.settings = settings
        self.caches = Caches() if caches is None else caches
        self.crash: BaseException | None = None  # an exception building the spec: the tool's error, not a verdict
        try:
            self.spec: Spec | None = build_spec(rb, n, rules=rules)
            self.error = ""
        except SpecError as exc:
            self.spec, self.error = None, str(exc)
        except Exception as exc:  # noqa: BLE001 - reported by each property as an internal error
            self.spec, self.error, self.crash = None, f"the rules cannot be tabulated: {exc}", exc

    @cached_property
    def game(self) -> Game:
        """The interpreter's game at this table, holding the spec's rules record where there is a spec."""
        return Game(self.rb, self.n, rules=self.spec.rules if self.spec is not None else None)

    @cached_property
    def inv(self) -> Invariants:
        """The invariants, proved in a Z3 context of their own: whichever property asks first, what it
        does next starts from a fresh context (so its result does not depend on who asked first)."""
        assert self.spec is not None
        fresh_context()
        out = invariants(self.spec, self.caches.invariants)
        fresh_context()
        return out

    def cached(self, label: str, compute: Any) -> Any:
        assert self.spec is not None
        key = (label, self.spec)
        done = self.caches.analyses
        if key not in done:
            done[key] = compute()
        return done[key]


def games(a: Analysis, look: str) -> Found:
    """Seeded games at this table played by bots until they show `look` (see `games.py`), cached."""
    return a.cached(f"games:{look}",  # type: ignore[no-any-return]
                    lambda: play_games(a.game, (look,), engine=a.settings.engine))


def replays(a: Analysis, w: Witness) -> bool:
    """Whether the witness, written as a scenario of this rulebook, passes when the interpreter runs it."""
    import os

    from cheatdsl.scenario import run
    if not a.rb.path or not os.path.exists(a.rb.path):
        return True  # a rulebook from no file: the game itself was the interpreter's
    return run(scenario_of(w.as_json(), os.path.abspath(a.rb.path), a.rb.active_variations)).passed


def _played(pid: str, a: Analysis, look: str, before: Result, text: str) -> Result:
    """`before` unless games played by bots show a witness of `look` that replays: then refuted, with that game."""
    found = games(a, look)
    w = found.witnesses.get(look)
    if w is None or not replays(a, w):
        return before
    how = ("from a deal, steered so that every play is the fewest cards, a lie where it can, and is challenged"
           if look in found.drained else "played by bots from a deal")
    return refuted(pid, f"{text}, in a game {how}", witness=w.as_json(), found_by="games",
                   rests_on=[f"a game {how} at {a.n} players, replayed by the interpreter"],
                   **({"cti": before.details["cti"]} if "cti" in before.details else {}))


# -- the invariant properties ------------------------------------------------------------------------

_WORDS = {
    "card-conservation": "hands, pile, stock, cards aside, cards gone and discarded sets always make up the deck",
    "turn-order": "the turn always falls to a seat still in the game, another seat is there to answer, and "
                  "every seat rule names a seat",
    "no-deadlock": "the seat to play always has a legal action",
    "challenge-resolution": "the loser of every challenge picks up cards",
}


def _how(inv: Invariants) -> str:
    return "base case and 1-induction" + (", steps from seat 0 (the rules treat every seat alike)"
                                          if inv.symmetric else "")


def _violated(prop: str, a: Analysis, groups: tuple[str, ...], check: Any, expect: Any,
              budget: Budget) -> Result:
    """A group failed induction: search for a play breaking it, replay it, or say how far we looked."""
    sp = a.spec
    assert sp is not None
    cx = next(a.inv.dropped[g] for g in groups if g in a.inv.dropped)
    words = cti_words(sp, cx)
    key = (f"search:{prop}:{cx.group}", sp)
    if key not in a.caches.analyses and not budget.take(prop):
        return unknown(prop, f"the induction step fails ({words}); not searched at this player count (see "
                       "fewer players, or verify with more --searches)", cti=words)

    def run() -> Outcome:
        goal = group_goal(cx.group)
        return search(sp, a.game, prop, goal, check, expect, search_depth(a.settings.effort), budget.seconds_left(),
                      effort=a.settings.effort)
    out: Outcome = a.cached(f"search:{prop}:{cx.group}", run)
    if out.witness is not None:
        return refuted(prop, f"{out.witness.summary}: " + "; ".join(out.witness.words[-2:]),
                       witness=out.witness.as_json(), cti=words)
    if out.reason:
        return unknown(prop, f"the induction step fails ({words}); the search for a play stopped: {out.reason}",
                       cti=words, depth=out.depth)
    return bounded(prop, out.depth, f"the induction step fails ({words}), and no play of up to {out.depth} "
                   "turns from a deal does it", cti=words)


def conservation_at(a: Analysis, budget: Budget) -> Result:
    pid = "card-conservation"
    if a.inv.unknown:
        return unknown(pid, a.inv.unknown)
    sp = a.spec
    assert sp is not None
    if pid in a.inv.proved:
        return proved(pid, f"{_WORDS[pid]} of {sp.total} cards ({_how(a.inv)})", deck=sp.total)
    return _violated(pid, a, (pid,), lambda st: False, {}, budget)


def turn_order_at(a: Analysis, budget: Budget) -> Result:
    pid = "turn-order"
    if a.inv.unknown:
        return unknown(pid, a.inv.unknown)
    if {"typing", pid} <= a.inv.proved:
        out = "seats that are out are skipped" if a.spec and a.spec.seats_leave else "nobody is out before the end"
        return proved(pid, f"{_WORDS[pid]}; {out} ({_how(a.inv)})")
    return _violated(pid, a, ("typing", pid), lambda st: False, {}, budget)


def winner_at(a: Analysis, budget: Budget) -> Result:
    pid = "winner"
    if a.inv.unknown:
        return unknown(pid, a.inv.unknown)
    sp = a.spec
    assert sp is not None
    needed = {"winner", "winner-step"} | ({"outs"} if sp.seats_leave else set())
    if needed <= a.inv.proved:
        if sp.rules.first_out:
            text = "the first seat out is the one winner and the game ends there, so it never gets cards back"
        else:
            holds = ("holds nothing while the game goes on (one going out at the start of its turn as the game "
                     "ends keeps its cards)" if out_keeps_cards_at_end(sp) else "holds nothing")
            text = (f"the first seat out wins and stays the winner; a seat that is out {holds} and never "
                    "gets cards back; a game over by the rules has exactly one loser, the one seat left")
        return proved(pid, f"{text} ({_how(a.inv)})")
    return _violated(pid, a, tuple(sorted(needed)), lambda st: False, {}, budget)


def _stuck(st: State) -> bool:
    r = st.result()
    return st.phase is Phase.TERMINAL and r is not None and r.ending is Ending.NO_LEGAL_ACTION


def no_deadlock_at(a: Analysis, budget: Budget) -> Result:
    pid = "no-deadlock"
    if a.inv.unknown:
        return unknown(pid, a.inv.unknown)
    if pid in a.inv.proved:
        lemma = " with the lemma that every seat in holds a card" if "hands" in a.inv.proved else ""
        return proved(pid, f"{_WORDS[pid]} ({_how(a.inv)}{lemma})")
    out = _violated(pid, a, (pid,), _stuck, {"over": True, "capped": True, "winner": None}, budget)
    if out.verdict is Verdict.REFUTED:
        return out
    return _played(pid, a, "stuck", out, "a seat can be left with no legal action")


def _void(st: State) -> bool:
    rev = st.reveals()
    return bool(rev) and rev[-1].taken == 0 and rev[-1].paid


def _void_expect(st: State) -> dict[str, Any]:
    r = st.reveals()[-1]
    return {"picked_up": r.loser, "stock": 0, "hand_sizes": {s: st.hand_size(s) for s in range(st.game.players)}}


def resolution_at(a: Analysis, budget: Budget) -> Result:
    pid = "challenge-resolution"
    sp = a.spec
    assert sp is not None
    if not sp.rules.kinds:
        return not_applicable(pid, "no challenge may be made at this player count")
    if a.inv.unknown:
        return unknown(pid, a.inv.unknown)
    kinds = ", ".join(f"`{kind.name}` ({'a card of the claim shown from hand' if by_hand else 'the cards played'})"
                      for kind, by_hand in zip(sp.rules.kinds, sp.by_hand))
    wild = ""
    if a.rb.deck.jokers:
        wild = ("; a joker passes as any claim (wild)" if sp.rules.wild
                else "; a joker never passes as a claim (not wild)")
    pays = ("a caught claimant picks up cards and a wrong call costs its challenger nothing (`failed_call: free`)"
            if sp.rules.failed_call_free else "the loser is the claimant or the challenger and picks up cards")
    if pid in a.inv.proved:
        return proved(pid, f"each challenge ({kinds}) has one verdict, found from the revealed cards; {pays}{wild} "
                      f"({_how(a.inv)})")
    out = _violated(pid, a, (pid,), _void, _void_expect, budget)
    if out.verdict is Verdict.REFUTED:
        return out
    return _played(pid, a, "void", out, "the loser of a challenge can pick up nothing")


# -- discards ------------------------------------------------------------------------------------------

def whole_sets(sp: Spec, answers: dict[tuple[Any, ...], bool | str]) -> bool | str:
    """Whatever a hand holds, a discard takes whole sets: each set `size` cards of one rank, none it lacks.

    `answers` keeps them by the facts of a spec the query reads: the deck, its ranks and the set rule. The
    player count is not among them, so the tables of one game at every count share one answer."""
    r = sp.rules
    key = (sp.live, r.values, r.rank_count, sp.set_ranks, sp.deck, r.set_size, r.sets_forced, r.sets_naturals_only,
           sp.merged)
    if key not in answers:
        answers[key] = _whole_sets(sp)
    return answers[key]


def _whole_sets(sp: Spec) -> bool | str:
    from ..solving.terms import add, and_, eq, ge, int_var, le, not_, plus, times
    b = Builder(sp)
    row = [int_var(f"held{i}") for i in range(sp.width)]
    chosen = [int_var(f"chosen{r}") for r in range(len(sp.set_ranks))]
    t = fresh_sets(sp)
    guard: list[Any] = []
    left = b.discard_sets(t, row, chosen, guard)
    size = sp.rules.set_size
    assert size is not None

    def sets_of(k: Any) -> Any:  # `size * k`, the numeral made after `k`, as z3's operator makes it
        return times(z3.IntVal(size), k)

    def sum_of(terms: list[Any]) -> Any:
        return add(terms) if terms else z3.Sum(terms)
    facts = [ge(x, 0) for x in left]
    j = sp.joker_index
    jokers = t.sets[j] if j is not None else z3.IntVal(0)
    naturals = [add([t.sets[i] for i in values] or [z3.IntVal(0)]) for values in b.rank_values]
    facts.append(eq(plus(sum_of(naturals), jokers), sets_of(sum_of(t.nsets))))
    facts += [le(nat, sets_of(k)) for nat, k in zip(naturals, t.nsets)]
    facts += [ge(plus(nat, jokers), sets_of(k)) for nat, k in zip(naturals, t.nsets)]
    s = new_solver()
    s.add(*[and_(ge(x, 0), le(x, d)) for x, d in zip(row, sp.deck)], *guard, *b.defs)
    s.add(not_(and_(facts)))
    answer = ask(s)
    return answer.reason if answer.unknown else answer.unsat


def fresh_sets(sp: Spec) -> Any:
    from ..encoding.state import fresh
    t = fresh(sp, "discard")
    t.sets = [z3.IntVal(0)] * sp.width
    t.nsets = [z3.IntVal(0)] * len(sp.set_ranks)
    return t


def discards_at(a: Analysis, budget: Budget) -> Result:
    pid = "discards"
    sp = a.spec
    assert sp is not None
    if a.rb.sets is None or sp.rules.set_size is None:
        return not_applicable(pid, "no sets leave the game (no `sets` rule)")
    size = sp.rules.set_size
    whole = a.cached("whole-sets", lambda: whole_sets(sp, a.caches.whole_sets))
    if whole is not True:
        return unknown(pid, whole) if isinstance(whole, str) else refuted(
            pid, f"a discard can take cards that do not make whole sets of {size}")
    naturals = [sp.deck[i] for i in range(sp.width) if i != sp.joker_index]
    copies = min(naturals) if naturals else 0
    public = "shown to all (each discard names its seat, rank and cards)"
    why = ""
    jokers = sp.rules.deck_counts[sp.rules.joker]
    if sp.rules.wild:
        why = "a wild joker still passes as a discarded rank"
    elif size < copies:
        why = f"a set of {size} leaves {copies - size} natural cards of its rank in play"
    elif jokers and not sp.rules.sets_naturals_only:
        why = "a set may hold jokers (`sets.naturals_only: false`), leaving natural cards of its rank in play"
    if not why:
        return proved(pid, f"each set discarded is {size} cards of one rank, {public}; a set is every natural card "
                      "of its rank and no card is wild, so once it is out a claim of that rank is a certain lie",
                      size=size, copies=copies)

    def goal(s: Any, t: Any, act: Any, b: Builder, i: int) -> Any:
        r = b.resolution
        if not r:
            return z3.BoolVal(False)
        dead = []
        for c, v in enumerate(sp.claims):
            rank = v % sp.rules.rank_count
            if rank in sp.set_ranks:
                dead.append(z3.And(act.claim == c, s.nsets[sp.set_ranks.index(rank)] >= 1))
        return z3.And(act.kind == CHALLENGE, z3.Not(r["caught"]), z3.Or(dead) if dead else z3.BoolVal(False))

    def check(st: State) -> bool:
        rev = st.reveals()
        if not rev or rev[-1].caught:
            return False
        g = st.game
        rank = rev[-1].claim % g.rules.rank_count
        return any(r == rank for _, r, _ in st.discarded_sets())

    dead = f"sets leave whole and {public}, but {why}: a claim of a discarded rank can be true"
    if ("search:discards", sp) not in a.caches.analyses and not budget.take(pid):
        return _played(pid, a, "dead-claim", unknown(
            pid, f"sets leave whole and {public}, but {why}; not searched at this player count (see fewer "
            "players, or verify with more --searches) and no game played by bots shows it"), dead)
    def expect(st: State) -> dict[str, Any]:
        from cheatdsl.words.notation import claim_text, rank_words
        g = st.game
        return {"discarded": [rank_words(g, r) for _, r, _ in st.discarded_sets()],
                "previous": claim_text(g, st.previous), "caught": False}

    out: Outcome = a.cached("search:discards", lambda: search(
        sp, a.game, pid, goal, check, expect, search_depth(a.settings.effort), budget.seconds_left(),
        merged_first=False, effort=a.settings.effort))
    if out.witness is not None:
        return refuted(pid, f"sets leave whole and {public}, but {why}: a claim of a discarded rank can be true "
                       f"({out.witness.summary}: {'; '.join(out.witness.words[-1:])})", witness=out.witness.as_json())
    return _played(pid, a, "dead-claim", unknown(
        pid, f"sets leave whole and {public}, but {why}; no play showing a true claim of a discarded rank was found "
        f"({out.reason or f'up to {out.depth} turns'}, nor in games played by bots)"), dead)


# -- termination ---------------------------------------------------------------------------------------

_PLAY = Phase.PLAY  # read once: an enum member read from its class costs more than the test


def _key(st: State) -> tuple[Any, ...]:
    """The state at the start of a turn, as the lassos compare it: the whole position (`State.position`, as the
    exhaustive judge keys it), so that two states alike in hands, pile and claims but not in the passes, the
    open window or the cards gone are never taken for one (the loop played by bots read so once: generated
    rulebook 2937). Who was dealt each card is kept: it never changes within a game."""
    return st.position(turns=False, holders=True)


def _expect_now(st: State) -> dict[str, Any]:
    g = st.game
    from cheatdsl.words.notation import claim_text
    return {"hand_sizes": {s: st.hand_size(s) for s in range(g.players)}, "to_play": st.current_player(),
            "pile": st.pile_size(), "previous": claim_text(g, st.previous)}


def lasso(a: Analysis) -> Witness | str:
    """A dealt game in the recurrent set, and the caught lie played until the whole state repeats."""
    sp = a.spec
    assert sp is not None
    game = a.game
    test = next(kind.name for kind, by_hand in zip(sp.rules.kinds, sp.by_hand) if not by_hand)
    order = {v: i for i, v in enumerate(sp.claims)}
    first: dict[tuple[int, ...], int] = {}  # the claim to lie about, by the claims allowed
    limit = 4 * max(len(sp.claims), 1) * sp.n + 8
    for seed in range(SEEDS):
        st = dealt(game, seed, 0)
        if st.phase is not _PLAY or not recurrence.concrete_in_set(sp, read(sp, st)):
            continue
        table = Table(game, st)
        seen: dict[tuple[Any, ...], int] = {}
        marks: list[int] = []
        for turn in range(limit):
            k = _key(st)
            if k in seen:
                start = seen[k]
                mark = marks[start]
                steps = steps_text(game, table.moves[:mark] + [{"expect": _expect_now(st)}] + table.moves[mark:])
                loop = turn - start
                w = Witness("termination", sp.n, {"seed": seed, "dealer": 0}, steps, _expect_now(st),
                            words_text(game, table.said[start:start + 4])
                            + ([f"... {loop} turns in all, then the same state again"] if loop > 4 else []),
                            f"a caught lie repeated: after {loop} turns every hand, the pile and the seat to play "
                            "are as they were")
                return w
            seen[k] = turn
            marks.append(len(table.moves))
            seat = st.to_act
            required = st.required
            if not required:
                break
            claim = first.get(required)
            if claim is None:
                claim = first[required] = min(required, key=lambda c: order.get(c, 0))
            lie = next((v for v, held in enumerate(st.hand(seat)) if held and v != claim and v != game.rules.joker), None)
            if lie is None:
                break
            table.turn(CHALLENGE, (lie,), claim, 1, st.left_of(seat), test)
            if st.phase is not _PLAY:
                break
    return "no dealt game was found in the recurrent set"


def _round_key(st: State) -> tuple[Any, ...]:
    """The whole state at the start of a round, as far as the rest of the game can read it."""
    return (*_key(st), st.passes, st.last_player, st.gone(), st.aside(), st.discarded_sets(), st.order_out())


ROUND_MOVE = "rounds led by a caught lie, every seat then passing"


def round_lasso(a: Analysis) -> Witness | str:
    """A dealt game played by rounds (the seat leading tells a lie, the next seat catches it, every seat
    passes) until the whole state at the start of a round repeats, that state being in the round set Q.
    From a deal the rounds first empty the stock, each caught lie drawing from it."""
    from cheatdsl.words.notation import card_text
    sp = a.spec
    assert sp is not None
    game = a.game
    test = next(kind.name for kind, by_hand in zip(sp.rules.kinds, sp.by_hand) if not by_hand)
    order = {v: i for i, v in enumerate(sp.claims)}
    # Enough rounds to empty the stock, then for the lead to go round the table twice.
    limit = (sp.rules.stock_count // max(sp.rules.draw, 1) + 2 * sp.n + 4) * (sp.n + 1) + 8
    for seed in range(SEEDS):
        st = dealt(game, seed, 0)
        if st.phase is not _PLAY:
            continue
        table = Table(game, st)
        seen: dict[tuple[Any, ...], tuple[int, int]] = {}
        for turn in range(limit):
            if st.leading:
                k = _round_key(st)
                if k in seen:
                    start, mark = seen[k]
                    if not recurrence.concrete_in_round_set(sp, read(sp, st)):
                        break
                    hands = {s: [card_text(game, c) for c in st.hand_cards(s)] for s in range(game.players)}
                    now = {**_expect_now(st), "hands": hands, "stock": len(st.stock()), "leading": True}
                    steps = steps_text(game, table.moves[:mark] + [{"expect": now}] + table.moves[mark:])
                    loop = turn - start
                    stem = f" ({start} turns from the deal empty the stock first)" if start else ""
                    return Witness("termination", sp.n, {"seed": seed, "dealer": 0}, steps, now,
                                   words_text(game, table.said[-loop:]),
                                   f"{ROUND_MOVE}: after {loop} turns every hand, the pile, the stock and "
                                   f"the seat to lead are as they were{stem}")
                seen[k] = (turn, len(table.moves))
            seat = st.current_player()
            if st.leading:
                required = st.required_claims()
                if not required:
                    break
                claim = min(required, key=lambda c: order.get(c, 0))
                lie = next((v for v, held in enumerate(st.hand(seat)) if held and v != claim and v != game.rules.joker),
                           None)
                if lie is None:
                    break
                table.turn(CHALLENGE, (lie,), claim, 1, st.left_of(seat), test)
            elif st.can_pass():
                table.turn(PASS, (), 0, 0, None, None)
            else:
                break
            if st.phase is not _PLAY:
                break
    return "no dealt game played by such rounds comes back to the same state"


def termination_at(a: Analysis, budget: Budget) -> Result:
    pid = "termination"
    sp = a.spec
    assert sp is not None
    if sp.rules.turn_cap is not None:
        capped = a.cached("cap", lambda: ranking.capped(sp))
        if capped is True:
            return proved(pid, f"the turn cap stops every play: each turn counts one, and the turn that reaches "
                          f"{sp.rules.turn_cap} ends the game (checked on every step)")
    # Z3 checks once, at the smallest player count, that the set of states with every seat holding two
    # different cards and an empty pile is closed under a caught lie; at every count the interpreter then
    # deals a game in that set and plays the lie until the whole state comes back.
    rec = budget.recurrence(a.rb, a.spec if a.n == budget.smallest else None)
    if not any(not by_hand for by_hand in sp.by_hand):
        # The recurrent set is made at the smallest count; its move, a lie caught by a call that turns the play
        # over, cannot be made at a count where no such call is allowed.
        rec = None
    if rec is not None and rec.holds and rec.kind == "round":
        # The set of round starts with an empty stock is closed under a round led by a caught lie and
        # ended by every seat passing; the interpreter plays such rounds from a deal until one repeats.
        found = a.cached("round-lasso", lambda: round_lasso(a))
        if isinstance(found, Witness):
            closed = ("; every state where each seat holds two different cards, the pile and the stock are empty "
                      "and a new round is led goes on so for ever (a recurrent set, checked by Z3)"
                      ) if budget.first else ""
            return refuted(pid, f"a play that never ends: {found.summary}{closed}", witness=found.as_json(),
                           recurrent_set=budget.first,
                           move="a round led by a caught lie and ended by all passing, repeated for ever,",
                           rests_on=[f"a game from a deal at {a.n} players that comes back to a whole position "
                                     "(a round led by a caught lie, all passing), replayed by the interpreter"])
        return _played(pid, a, "loop", unknown(
            pid, f"a recurrent set exists (a round led by a caught lie and ended by all passing returns every "
            f"hand), but {found}"), "a play that never ends")
    if rec is not None and rec.holds:
        found = a.cached("lasso", lambda: lasso(a))
        if isinstance(found, Witness):
            closed = ("; every state where each seat holds two different cards and the pile is empty goes on so "
                      "for ever (a recurrent set, checked by Z3)") if budget.first else ""
            return refuted(pid, f"a play that never ends: {found.summary}{closed}", witness=found.as_json(),
                           recurrent_set=budget.first,
                           rests_on=[f"a game from a deal at {a.n} players that comes back to a whole position "
                                     "(a caught lie repeated), replayed by the interpreter"])
        return _played(pid, a, "loop", unknown(
            pid, f"a recurrent set exists (a caught lie returns every hand), but {found}"), "a play that never ends")
    if not sp.rules.may_pass or "passes" in a.inv.proved:
        shrink = a.cached("shrink", lambda: ranking.hands_only_shrink(sp))
        if shrink is True:
            return proved(pid, "every play ends: cards only leave the hands and the stock (every play makes them "
                          "fewer, nothing else adds to them) and passes cannot go round for ever (checked on every "
                          "step)")
    chain = ranking.claim_chain(sp)
    if chain is not None:
        return proved(pid, f"every play ends: no round ends and passing is not allowed, so each play claims further "
                      f"along claims that never come back (no cycle): at most {chain} plays in a game", plays=chain)
    why = rec.why if rec is not None else "not checked"
    return _played(pid, a, "loop", unknown(
        pid, f"no recurrent set ({why}), no measure that shows every play ends, and no game played by bots comes "
        "back to a position"), "a play that never ends")


# -- winnability -----------------------------------------------------------------------------------------

def winnability_at(a: Analysis, budget: Budget) -> Result:
    """Every seat wins a replayed game (see `winnability.py`)."""
    from .winnability import winnability_at as at
    return at(a, budget)


__all__ = ["Analysis", "conservation_at", "turn_order_at", "winner_at", "no_deadlock_at", "resolution_at",
           "discards_at", "termination_at", "winnability_at", "Table", "PASS", "bmc", "constant", "read"]
