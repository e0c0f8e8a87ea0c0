"""Properties of the claim sequence: rank-cycle, ranks-exist, seat-fairness.

The claim graph is tabulated from the compiled formulas (graph.py); Z3 then reasons about sets of claims
closed under the graph's edges, and about seats and claim indices as arithmetic modulo the table size.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from math import gcd

import z3

from cheatdsl.derived import turn_step
from cheatdsl.model import EndStyle

from ..encoding.facts import NotConcrete, holder_cards, seats_after_any_deal
from ..encoding.graph import ClaimGraph, claim_graph
from ..encoding.subject import Subject
from ..solving.solver import Answer, ask, new_solver, num, truth
from ..solving.terms import all_of, bool_var, eq, ge, implies, int_var, lt, minus, mod, ne, not_, or_
from .registry import register
from .settings import DEFAULT
from .verdict import Result, combine, not_applicable, proved, refuted, unknown

CYCLE = "rank-cycle"
EXIST = "ranks-exist"
FAIR = "seat-fairness"


def _closed(g: ClaimGraph, name: str, backward: bool = False, s: z3.Solver | None = None
            ) -> tuple[z3.Solver, list[z3.BoolRef]]:
    """A solver whose models are sets of claims closed under the graph's edges (or against them): a new
    one, or `s` with the sets' clauses added."""
    s = new_solver() if s is None else s
    member = [bool_var(f"{name}_{i}") for i in range(g.size)]
    if backward:
        into: list[list[int]] = [[] for _ in range(g.size)]
        for i in range(g.size):
            for j in g.successors(i):
                into[j].append(i)
        # A claim in the set has every claim that may come before it in the set.
        s.add(*[implies(member[j], all_of([member[i] for i in sorted(into[j])])) for j in range(g.size) if into[j]])
    else:
        # A claim in the set has every claim that may come after it in the set (one clause per claim: with
        # any claim allowed to lead, a pair per edge would be thousands).
        s.add(*[implies(member[i], all_of([member[j] for j in sorted(g.successors(i))]))
              for i in range(g.size) if g.successors(i)])
    return s, member


def _cycle_at(subject: Subject, g: ClaimGraph) -> Result:
    names = [subject.claim_name(v) for v in g.order]

    def listed(indices: Iterable[int]) -> str:
        return subject.claim_list([g.order[i] for i in sorted(indices)])

    if not g.start:
        return refuted(CYCLE, "the first claim names no claim in the deck", breaks_at=None)
    # 1. Never undefined: some set of claims closed under the rules holds the first claims and no dead end.
    # Steps 1 and 2 read no model, nor does 3 unless it finds a set: they ask one solver, each question
    # in a scope of its own.
    s, member = _closed(g, "safe")
    s.push()
    s.add(*[member[i] for i in g.start], *[not_(member[d]) for d in g.dead_ends])
    a = ask(s)
    s.pop()
    if a.unknown:
        return unknown(CYCLE, a.reason)
    if a.unsat:
        path = g.path_to(g.dead_ends)
        last = names[path[-1]]
        why = f"the follow rule gives nothing after {last}"
        if g.outside["follow"]:
            why += f" in the deck (it names {subject.claim_list(sorted(g.outside['follow']))}, which the deck lacks)"
        return refuted(CYCLE, f"after {', '.join(names[i] for i in path)} no claim is allowed: {why}", breaks_at=last,
                       sequence=[names[i] for i in path])
    # 2. Every claim is reached: no closed set holds the first claim and misses another claim.
    s0 = min(g.start)
    s.push()
    s.add(member[s0], or_([not_(m) for m in member]))
    a = ask(s)
    s.pop()
    if a.unknown:
        return unknown(CYCLE, a.reason)
    if a.sat:
        seen = g.reachable_from(s0)
        never = [i for i in range(g.size) if i not in seen]
        if g.deterministic:
            seq, loop = g.sequence()
            text = f"{', '.join(names[i] for i in seq)}, then {names[seq[loop]]} again"
        else:
            text = f"from {names[s0]} the claims reach only {listed(seen)}"
        return refuted(CYCLE, f"{text}: {listed(never)} never asked", breaks_at=names[never[0]],
                       never_asked=[names[i] for i in never], reached=[names[i] for i in sorted(seen)])
    # 3. The sequence can always come back: no set closed against the edges holds the start and misses a claim.
    s.push()
    _, member = _closed(g, "back", backward=True, s=s)
    s.add(member[s0], or_([not_(m) for m in member]))
    a = ask(s)
    s.pop()
    if a.unknown:
        return unknown(CYCLE, a.reason)
    if a.sat:
        # The set shown is the one a solver of these sets alone finds.
        s, member = _closed(g, "back", backward=True)
        s.add(member[s0], or_([not_(m) for m in member]))
        a = ask(s)
        if not a.sat:
            return unknown(CYCLE, a.reason or "the claims' return was found and then not")
        stuck = [i for i in range(g.size) if not truth(a.model, member[i])]
        return refuted(CYCLE, f"once at {names[stuck[0]]} the claims never return to {names[s0]}",
                       breaks_at=names[stuck[0]], never_return=[names[i] for i in stuck])
    return proved(CYCLE, _cycle_summary(subject, g), claims=g.size, **_cycle_details(subject, g))


def _cycle_summary(subject: Subject, g: ClaimGraph) -> str:
    word = "card" if subject.cards else "rank"
    names = [subject.claim_name(v) for v in g.order]
    closers = sorted(g.round_closers)
    tail = ""
    if closers:
        tail = (f"; after {subject.claim_list([g.order[i] for i in closers])} no claim follows, so the round "
                "ends when everyone passes and a new claim is led")
    if g.deterministic:
        seq, _ = g.sequence()
        return (f"{subject.claim_list([g.order[i] for i in seq])}, then {names[seq[0]]} again: every {word} "
                f"of {g.size}, never undefined{tail}")
    if g.free:
        return f"any claim may follow any claim: every {word} is open, never undefined{tail}"
    if g.lead is not None and all(f <= {i} for i, f in enumerate(g.follow)):
        return (f"a round keeps its {word}; each new round may lead {'any' if len(g.lead[0]) == g.size else 'a'} "
                f"{word}: every {word} reachable, never undefined{tail}")
    return (f"from {names[min(g.start)]} every {word} can be reached and the claims can always "
            f"return; never undefined{tail}")


def _cycle_details(subject: Subject, g: ClaimGraph) -> dict[str, object]:
    if g.deterministic:
        seq, _ = g.sequence()
        return {"sequence": [subject.claim_name(g.order[i]) for i in seq]}
    return {"round_closers": [subject.claim_name(g.order[i]) for i in sorted(g.round_closers)]}


def _per_count(subject: Subject, pid: str, at: Callable[[Subject, ClaimGraph, int], Result]) -> Result:
    by: dict[int, Result] = {}
    for n in subject.counts:
        g = claim_graph(subject, n)
        if isinstance(g, str):
            by[n] = unknown(pid, g)
            continue
        key: tuple[object, ...] = (pid, g.order, g.start, g.follow, g.lead, g.passing_ends_round)
        if pid == FAIR:
            key = (pid, n, *key[1:])
        if key not in subject.cache:
            subject.cache[key] = at(subject, g, n)
        by[n] = subject.cache[key]
    return combine(pid, by)


@register(CYCLE, "from the first claim the required claim is never undefined, returns to the start and visits every claim")
def rank_cycle(subject: Subject) -> Result:
    return _per_count(subject, CYCLE, lambda s, g, n: _cycle_at(s, g))


def _exist_at(subject: Subject, n: int) -> Result:
    g = claim_graph(subject, n)
    if isinstance(g, str):
        return unknown(EXIST, g)
    rules = {"first": subject.rb.claim.first, "follow": subject.rb.claim.follow, "lead": subject.rb.claim.lead}
    required: dict[int, str] = {}
    for i in g.start:
        required.setdefault(g.order[i], "first")
    for rule, values in g.outside.items():
        for v in values:
            required.setdefault(v, rule)
    for i in range(g.size):
        for j in g.follow[i] | (g.lead[i] if g.lead is not None else frozenset()):
            required.setdefault(g.order[j], "follow")
    present = tuple(v for v in required if subject.copies_of_claim(n, v) > 0)
    a, v = _required_missing(subject, tuple(required), present)
    if a.unknown:
        return unknown(EXIST, a.reason)
    if a.sat:
        missing = sorted(v for v in required if subject.copies_of_claim(n, v) == 0)
        rule = required[v]
        named = subject.card_name(v) if subject.cards else _rank_words(subject, v)
        return refuted(EXIST, f"`{rule}: {rules[rule].text}` can require {named}, and the deck has none",
                       claim=named, rule=f"claim.{rule}", at=str(rules[rule].span),
                       missing=[subject.card_name(m) if subject.cards else _rank_words(subject, m) for m in missing])
    t = subject.table(n)
    return proved(EXIST, "every claim the rules can require is in the deck", required=len(required),
                  claims_in_deck=len(g.order), copies_each=t.packs if subject.cards else t.copies)


def _required_missing(subject: Subject, required: tuple[int, ...], present: tuple[int, ...]) -> tuple[Answer, int]:
    """Ask for a claim among `required` that is not `present`: the answer, and the claim when sat.

    Counts that ask the same question (most do) share the answer, kept in the subject's cache: the
    question is made of these two tuples alone."""
    key = (EXIST, required, present)
    if key not in subject.cache:
        c = int_var("claim")
        s = new_solver()
        s.add(or_([eq(c, v) for v in required]) if required else z3.BoolVal(False))
        s.add(*[ne(c, v) for v in present])
        a = ask(s)
        subject.cache[key] = (Answer(a.status, a.reason), num(a.model, c) if a.sat else -1)
    got: tuple[Answer, int] = subject.cache[key]
    return got


def _rank_words(subject: Subject, v: int) -> str:
    ranks = subject.rb.deck.ranks
    return ranks[v].plural if 0 <= v < len(ranks) else f"rank {v}"


@register(EXIST, "every claim the rules can require exists in the deck at every player count")
def ranks_exist(subject: Subject) -> Result:
    by = {n: _exist_at(subject, n) for n in subject.counts}
    return combine(EXIST, by)


def _seat_word(offset: int) -> str:
    if offset == 0:
        return "the first player"
    k = offset + 1
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"the {k}{suffix} player"


def _drifts(subject: Subject, n: int) -> list[int] | str:
    """How far a challenge or a pass moves the turn off the claim sequence, as seat offsets mod n."""
    rb = subject.rb
    step = turn_step(rb)
    table = subject.table(n)
    asked = holder_cards(rb.challenge.next_player, rb)
    out: set[int] = set()
    for claimant in range(n):
        for challenger in range(n):
            if challenger == claimant:
                continue
            for caught in (False, True):
                winner, loser = (challenger, claimant) if caught else (claimant, challenger)
                try:
                    named = seats_after_any_deal(rb.challenge.next_player, rb, table, step=step, asked=asked,
                                                 claimant=claimant, challenger=challenger, caught=caught,
                                                 winner=winner, loser=loser)
                except NotConcrete as exc:
                    return f"who plays after a challenge depends on {exc}"
                for nxt in named:
                    if nxt is None:
                        return "who plays after a challenge is not always a seat (see round-rank)"
                    out.add(((nxt - claimant) * step - 1) % n)
    # A pass under a condition shifts the turn only if the condition can hold in play (issue 21, point 2):
    # `_fair_at` counts that shift once a game from a legal deal shows such a pass.
    if rb.passing.allowed and rb.passing.when is None:
        out.add(1)
    # A seat its sets left with no cards stays in and its turns pass it by (`emptied_by_sets: stays_in`): a
    # shift of one. Counted whether or not play empties a hand so: a proof still needs every pair met in play.
    if subject.rules(n).emptied_stays_in:
        out.add(1)
    return sorted(out - {0})


def _conditional_pass(subject: Subject) -> bool:
    """Whether passing is allowed only under a condition (`passing.when`)."""
    return subject.rb.passing.allowed and subject.rb.passing.when is not None


def _pass_can_happen(subject: Subject, n: int) -> bool:
    """Whether a seat may pass at some turn of a game from a legal deal at `n` seats (seeded bot games)."""
    from .games import pass_met
    return pass_met(subject.game(n))


class _Meets:
    """Whether some seat is never asked for some cycle claim: one solver for every player count of a
    rulebook, each count's question in a scope of its own (a seat found is the first player whenever
    there is one, so no count's answer depends on the others')."""

    def __init__(self) -> None:
        self._solver: tuple[z3.Solver, z3.ArithRef, z3.ArithRef] | None = None

    def ask(self, n: int, length: int, loop: int, step: int) -> tuple[Answer, int, int]:
        """The answer, and a seat offset and a cycle index never met when sat."""
        if self._solver is None:
            self._solver = (new_solver(), int_var("seat"), int_var("claim"))
        s, seat, idx = self._solver
        s.push()
        s.add(ge(seat, 0), lt(seat, n), ge(idx, 0), lt(idx, length), ne(mod(minus(minus(seat, loop), idx), step), 0))
        a = ask(s, eq(seat, 0))
        if a.unsat:
            a = ask(s)
        found = (num(a.model, seat), num(a.model, idx)) if a.sat else (-1, -1)
        s.pop()
        return a, *found


def _fair_at(subject: Subject, g: ClaimGraph, n: int, meets: _Meets) -> Result:
    if g.free:
        return not_applicable(FAIR, "the claim is free: any claim may follow any claim")
    if not g.deterministic:
        why = "a new round may lead a new claim" if g.lead is not None else "the rules offer a choice of claims"
        return not_applicable(FAIR, f"no fixed sequence: {why}")
    seq, loop = g.sequence()
    if loop < 0:
        return not_applicable(FAIR, "the sequence of claims stops (see rank-cycle)")
    drifts = _drifts(subject, n)
    if isinstance(drifts, str):
        return unknown(FAIR, drifts)
    cycle = seq[loop:]
    length = len(cycle)
    step = gcd(n, length, *drifts)
    if step != 1 and _conditional_pass(subject) and _pass_can_happen(subject, n):
        drifts = sorted({*drifts, 1})
        step = 1
    # Seat offset s (from the first player) is asked for cycle claim i at play t when t = s (mod n) and
    # t - loop = i (mod L), up to drifts; by the Chinese remainder theorem that has a solution exactly
    # when s - loop - i is a multiple of gcd(n, L, drifts).
    a, sv, iv = meets.ask(n, length, loop, step)
    if a.unknown:
        return unknown(FAIR, a.reason)
    details = {"seats": n, "cycle": length, "gcd": step, "drifts": drifts}
    pairs = {(o, g.order[cycle[i]]) for o in range(n) for i in range(length)}
    if a.unsat:
        # The closed form counts turns that games may never reach (a game over in a few turns): each pair is
        # shown in play, or the verdict is unknown.
        met = _asked(subject, n, pairs)
        missing = sorted(pairs - met)
        if missing:
            o, c = missing[0]
            return unknown(FAIR, f"the cycle of {length} claims and the seats share no factor, but no game from a "
                           f"deal played shows {_seat_word(o)} asked for {subject.claim_name(c)} "
                           f"({len(missing)} seat and claim pairs not met)", **details)
        return proved(FAIR, f"the cycle of {length} claims and the seats share no factor: every seat meets every "
                      "claim, each pair met in a game from a deal", **details,
                      rests_on=[f"each of the {len(pairs)} seat and claim pairs met in seeded games from a deal"])
    confirm = _never_meets(n, length, loop, drifts, sv, iv)
    if confirm is not None:
        return unknown(FAIR, confirm)
    never_pairs = {(o, g.order[cycle[i]]) for o in range(n) for i in range(length) if (o - loop - i) % step != 0}
    shown_asked = sorted(_asked(subject, n, None, never_pairs) & never_pairs)
    if shown_asked:
        o, c = shown_asked[0]
        return unknown(FAIR, f"{n} seats and a cycle of {length} claims share the factor {step}, but a game from a "
                       f"deal shows {_seat_word(o)} asked for {subject.claim_name(c)}: a shift of the turn the "
                       "closed form does not count", **details)
    never = {_seat_word(o): [subject.claim_name(g.order[cycle[i]]) for i in range(length)
                             if (o - loop - i) % step != 0] for o in range(n)}
    first = never[_seat_word(sv)]
    while_in = f" while all {n} seats are in" if subject.rb.ending.style is EndStyle.LAST_HOLDER_LOSES else ""
    if _conditional_pass(subject) and not _no_pass_possible(subject, n):
        # "Never asked" is about every game: that no seeded game met a pass under `passing.when` does not show
        # that no game does, and one pass shifts the turn; only a proof that no turn allows one (W506) does.
        return unknown(FAIR, f"{n} seats and a cycle of {length} claims share the factor {step} unless a pass "
                       "under `passing.when` shifts the turn: no game played met one, but none is shown impossible "
                       "(the exhaustive judge decides small tables: `verify --exhaustive`)", **details)
    shown = _fair_game(subject, n, sv, first, loop + length * n // step)
    return refuted(FAIR, f"{n} seats and a cycle of {length} claims share the factor {step}: "
                   f"{_seat_word(sv)} is never asked for {', '.join(first[:12])}{' ...' if len(first) > 12 else ''}"
                   f"{while_in}", seat=_seat_word(sv), never_asked=never, **details, **shown,
                   rests_on=[f"the turn's shifts ({', '.join(map(str, drifts)) or 'none'}) every rule can make, "
                             f"and {n} seats and the claim cycle sharing the factor {step} (Z3)",
                             "no pass under `passing.when` that would shift the turn: none is allowed, or none can "
                             "happen in any game (the proof behind W506)" if _conditional_pass(subject) else
                             "no pass that shifts the turn by other than the drifts counted",
                             "no game from a deal played shows a pair the closed form says is never met"])


def _no_pass_possible(subject: Subject, n: int) -> bool:
    """Whether the invariants proved of every reachable state leave no turn at which `passing.when` lets the seat
    to play pass (the proof behind warning W506), at `n` players."""
    from .analysis import Analysis
    from .firing import never_passes
    from .settings import Caches
    try:
        return never_passes(Analysis(subject.rb, n, DEFAULT, Caches()))
    except Exception:  # noqa: BLE001 - no proof is no proof: the verdict is then unknown
        return False


def _asked(subject: Subject, n: int, want: set[tuple[int, int]] | None,
           any_of: set[tuple[int, int]] | None = None) -> set[tuple[int, int]]:
    """The seat and claim pairs met in seeded games from a deal at `n` players (`games.asked_pairs`): until every
    pair of `want` is met, or (eight games at most) one of `any_of`."""
    from .games import asked_pairs
    if any_of is not None:
        return asked_pairs(subject.game(n), games=8, any_of=any_of)
    return asked_pairs(subject.game(n), want)


def _fair_game(subject: Subject, n: int, offset: int, never: list[str], turns: int) -> dict[str, object]:
    """The finding shown in a game with no challenge (a witness to replay or save), where one can be played."""
    from .games import fairness_game
    w = fairness_game(subject.game(n), offset, never, turns)
    return {"witness": w.as_json()} if w is not None else {}


def _never_meets(n: int, length: int, loop: int, drifts: list[int], seat: int, idx: int) -> str | None:
    """Confirm with plain integer arithmetic that `seat` is never asked for cycle claim `idx`."""
    t, a, b = z3.Ints("t a b")
    ks = [z3.Int(f"k{j}") for j in range(len(drifts))]
    s = new_solver()
    s.add(t >= loop, *[k >= 0 for k in ks])
    s.add(t + z3.Sum([k * d for k, d in zip(ks, drifts)] or [z3.IntVal(0)]) == seat + a * n)
    s.add(t - loop == idx + b * length)
    answer = ask(s)
    if answer.unsat:
        return None
    return answer.reason if answer.unknown else "the closed form and the direct check disagree"


@register(FAIR, "with a fixed claim sequence every seat is asked for every claim")
def seat_fairness(subject: Subject) -> Result:
    meets = _Meets()
    return _per_count(subject, FAIR, lambda s, g, n: _fair_at(s, g, n, meets))
