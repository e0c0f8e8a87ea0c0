"""Which back ends play each rule: an allow-list, declared once for every field of the rulebook language.

Every leaf field of the rulebook (as the JSON Schema names it: `challenge.penalty.kind`, a challenge kind's
fields as `challenge.kinds[].test`) has its kinds of value (`Case`), tried in order: the first that applies to a
table decides which back ends play it. A back end plays a table only where every field's case names it, and
refuses with the field's name otherwise (`unplayed`). Formulas are declared by the built-in functions each place
may read (`FUNCTIONS_AT`): a function a back end does not read at that place is refused the same way.

The back ends: the interpreter (the reference: it plays every rule), the compiled engine (its kernel), and the
verifier's symbolic encoding (its exhaustive judge steps with the interpreter, so plays what the interpreter
plays). tests/test_played_by.py walks every field, every enum word and every function of every formula place of
the schema and fails where one has no declaration.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from .derived import TableRules
from .expr.ast import Call, Expr, children
from .expr.types import FUNCTIONS, builtins_answered
from .model import Formula

LEAVING_SEATS = 8  # where seats leave, the kernel works out the next player for every seating: 2**8 of them at most


class Engine(Enum):
    """A back end that plays rulebooks, as its refusals name it."""

    INTERPRETER = "the interpreter"
    KERNEL = "the compiled engine"
    VERIFIER = "the verifier"


ALL = frozenset(Engine)
NO_KERNEL = frozenset({Engine.INTERPRETER, Engine.VERIFIER})


def _always(rules: TableRules) -> bool:
    return True


@dataclass(frozen=True)
class Case:
    """One kind of value of a field: what it is in words, the back ends that play it, the schema's words it covers
    (enum words and true/false; empty for numbers and formulas) and whether it applies to a table."""

    what: str
    engines: frozenset[Engine]
    words: tuple[object, ...] = ()
    applies: Callable[[TableRules], bool] = _always


def _every(*words: object) -> tuple[Case, ...]:
    """A field every back end plays with every value (`words`: its enum words or true/false, if any)."""
    return (Case("every value", ALL, words),)


_BOOL = (True, False)

FIELDS: Mapping[str, tuple[Case, ...]] = MappingProxyType({
    "players": _every(),
    "deck.ranks": _every(),
    "deck.suits": _every(),
    "deck.packs": _every(),
    "deck.jokers": _every(),
    "deck.jokers_wild": _every(*_BOOL),
    "deck.ranks_used": _every(),
    "deal.style": _every("all", "equal", "fixed"),
    "deal.hand_size": _every(),
    "deal.minimum_hand": _every(),
    "deal.set_aside": _every(),
    "deal.surplus": _every("aside", "stock"),
    "setup.dealer": _every("lot", "seat_zero"),
    "setup.first_player": _every(),
    "setup.direction": _every("clockwise", "anticlockwise"),
    "claim.kind": _every("rank", "card"),
    "claim.cards": (
        Case("a smallest play of more than one card", NO_KERNEL, applies=lambda r: r.min_cards > 1),
        Case("plays of one card or more", ALL),
    ),
    "claim.count": _every("exact", "extra_allowed", "any"),
    "claim.first": _every(),
    "claim.follow": _every(),
    "claim.lead": _every(),
    "claim.after_last": _every("wrap", "nothing"),
    "claim.round_ends": _every("challenge", "all_pass"),
    "passing.allowed": _every(*_BOOL),
    "passing.when": _every(),
    "passing.leader_may_pass": _every(*_BOOL),
    "passing.all_pass_pile": _every("stays", "discarded"),
    "passing.all_pass_leader": _every(),
    "challenge.kinds[].name": _every(),
    "challenge.kinds[].call": _every(),
    "challenge.kinds[].test": _every("played", "hand"),
    "challenge.kinds[].allowed_when": _every(),
    "challenge.window": _every("before_next_play", "count_of_three"),
    "challenge.priority": _every("first_clockwise", "offered_in_turn", "first_caller"),
    "challenge.reveal": _every("play", "top_card"),
    "challenge.show_pile": _every(*_BOOL),
    "challenge.penalty.kind": _every("take_pile", "draw"),
    "challenge.penalty.draw": _every(),
    "challenge.penalty.pile_after": (
        Case("a pile that leaves the game after a challenge whose loser draws", NO_KERNEL, ("discarded",),
             lambda r: not r.take_pile and r.pile_after_discarded),
        Case("every other value", ALL, ("stays", "discarded")),
    ),
    "challenge.penalty.short_stock": _every("nothing", "take_pile"),
    "challenge.penalty.failed_call": (
        Case("a wrong call that costs nothing, where the pile nobody takes leaves the game", NO_KERNEL, ("free",),
             lambda r: r.failed_call_free and r.pile_after_discarded),
        Case("every other value", ALL, ("pays", "free")),
    ),
    "challenge.next_player": _every(),
    "sets.size": _every(),
    "sets.mode": _every("optional", "forced"),
    "sets.naturals_only": (
        Case("sets that jokers may complete", NO_KERNEL, (False,),
             lambda r: r.set_size is not None and not r.sets_naturals_only),
        Case("sets of natural cards only", ALL, _BOOL),
    ),
    "ending.style": (
        Case(f"seats that leave, at a table of more than {LEAVING_SEATS}", NO_KERNEL, ("last_holder_loses",),
             lambda r: not r.first_out and r.players > LEAVING_SEATS),
        Case("every other value", ALL, ("first_out", "last_holder_loses")),
    ),
    "ending.out_check": (
        Case("an empty hand that counts before the challenge window closes", NO_KERNEL, ("at_once",),
             lambda r: r.at_once),
        Case("an empty hand that counts once the window closes", ALL, ("after_window",)),
    ),
    "ending.turn_start_win": (
        Case("a win at the start of a turn where seats leave", NO_KERNEL,
             applies=lambda r: r.turn_start_win is not None and not r.first_out),
        Case("every other value", ALL),
    ),
    "ending.emptied_by_sets": (
        Case("a hand emptied by its sets that stays in", NO_KERNEL, ("stays_in",), lambda r: r.emptied_stays_in),
        Case("every other value", ALL, ("out", "stays_in")),
    ),
    "ending.turn_cap": _every(),
})


def _functions(place: str, kernel_reads: frozenset[str]) -> Mapping[str, frozenset[Engine]]:
    """Every built-in a formula at `place` may use (`compiler.scopes.PLACE_FACTS`), played by the kernel where it
    is among `kernel_reads` (or computes nothing from the game) and by the other back ends everywhere."""
    from .compiler.scopes import PLACE_FACTS
    out = {}
    for name in builtins_answered(PLACE_FACTS[place]):
        fn = FUNCTIONS.get(name)
        own = fn is not None and fn.reads is None
        out[name] = ALL if own or name in kernel_reads or name == "any" else NO_KERNEL
    return MappingProxyType(out)


_CLAIM_ORDER = frozenset({"next", "prev", "above", "below"})
_SEATS = frozenset({"left", "right", "seat"})

# The kernel reads the table's formulas once, into its arrays: a claim rule for every previous claim, a seat
# formula for every seat it can name (`holder` and `dealt` of one card of the deal, for the first player only),
# and a turn formula (`passing.when`, `ending.turn_start_win`) for every hand size, whether the turn leads and
# `holds` of the claims required; it refuses what those arrays cannot hold.
FUNCTIONS_AT: Mapping[str, Mapping[str, frozenset[Engine]]] = MappingProxyType({
    "deck": _functions("deck", frozenset()),
    "deal": _functions("deal", frozenset()),
    "challenge_allowed": _functions("challenge_allowed", frozenset()),
    "sets": _functions("sets", frozenset()),
    "first_claim": _functions("first_claim", _CLAIM_ORDER),
    "follow": _functions("follow", _CLAIM_ORDER),
    "lead": _functions("lead", _CLAIM_ORDER),
    "first_player": _functions("first_player", _SEATS | {"holder", "dealt"}),
    "all_pass_leader": _functions("all_pass_leader", _SEATS),
    "next_player": _functions("next_player", _SEATS),
    "passing": _functions("passing", _CLAIM_ORDER | {"holds"}),
    "turn_start_win": _functions("turn_start_win", _CLAIM_ORDER | {"holds"}),
})


def _calls(expr: Expr) -> Iterator[str]:
    if isinstance(expr, Call):
        yield expr.function
    for child in children(expr):
        yield from _calls(child)


def _formulas(rules: TableRules) -> Iterator[tuple[str, str, Formula]]:
    """The formulas a table reads once play is under way, with their field and place."""
    rb = rules.rulebook
    places: tuple[tuple[str, str, object], ...] = (
        ("setup.first_player", "first_player", rb.setup.first_player),
        ("passing.when", "passing", rules.pass_when),
        ("passing.all_pass_leader", "all_pass_leader", rules.all_pass_leader),
        ("challenge.next_player", "next_player", rules.next_player),
        ("ending.turn_start_win", "turn_start_win", rules.turn_start_win),
    )
    for field, place, formula in places:
        if isinstance(formula, Formula):
            yield field, place, formula


def unplayed(rules: TableRules, engine: Engine) -> str | None:
    """Why `engine` does not play this table, naming the field (None where it plays every rule of it)."""
    for field, cases in FIELDS.items():
        case = next(c for c in cases if c.applies(rules))
        if engine not in case.engines:
            return f"`{field}`: {case.what}"
    for field, place, formula in _formulas(rules):
        for name in _calls(formula.expr):
            if engine not in FUNCTIONS_AT[place].get(name, ALL):
                return f"`{field}`: a formula that reads `{name}`"
    return None
