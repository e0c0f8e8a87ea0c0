"""Each place a formula stands may use only the built-ins its contexts can answer (`scopes.PLACE_FACTS`).

Project's choice: a formula that reads a fact its place cannot give (a seat in a deck size, a hand when
the next leader is chosen) is a located checker error, E415, naming what the place allows; it never
reaches a back end to end in an internal error. The allowed set is one table, so these tests walk
every place and every built-in on a real table and check that the checker accepts exactly what the
back ends evaluating that place (the derived tables, the interpreter, the verifier) answer without
`FactUnavailable`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cheatdsl.compiler.fields import make_formula
from cheatdsl.compiler.scopes import PLACE_FACTS, PLACES, place_fields, scope_for
from cheatdsl.derived import TableRules
from cheatdsl.diagnostics import Diagnostics
from cheatdsl.engine import ACCEPT, PASS, Game, Phase
from cheatdsl.expr import FactUnavailable, Type
from cheatdsl.expr.context import Fact
from cheatdsl.expr.types import CONSTANT_READS, FUNCTIONS, builtins_answered
from cheatdsl.load import compile_rulebook
from cheatdsl.model import Formula, Rulebook
from cheatdsl.source import NOWHERE
from cheatdsl.syntax.table import SECTIONS
from verifier.properties.challenges import _outcomes
from verifier.properties.claims import _drifts
from verifier.properties.dealing import _leaders
from verifier.encoding.facts import holder_cards
from verifier.encoding.subject import Subject
from verifier.encoding.spec import build_spec

PLAYERS = 4
# Every place holds a formula, every card is dealt (so `holder(ace of hearts)` names a seat), passing
# and challenges end rounds, and sets leave the game: each place is read while the game is played.
EVERY_PLACE = """\
rulebook: every-place
source: "test: a formula at every place"
players: 3..4
deck:
  packs: max(1, players - 3)
  ranks_used: min(13, players + 10)
deal:
  style: equal
  hand_size: min(20, cards)
  set_aside: min(0, players)
setup:
  first_player: left(dealer)
claim:
  cards: 1..4
  first: any
  follow: "{previous, next(previous)}"
  lead: any
  after_last: wrap
  round_ends: [challenge, all_pass]
passing:
  allowed: true
  when: hand >= 0
  all_pass_leader: last_player
challenge:
  kinds:
    - name: cheat
      test: played
      allowed_when: players >= 2
  reveal: play
  penalty:
    kind: take_pile
  next_player: if caught then loser else winner
sets:
  size: copies
  mode: optional
ending:
  style: first_out
  turn_start_win: hand == 0 and leading
  turn_cap: 400
"""

# Where the back ends do not yet give what the checker accepts (none: `holder` and `dealt` read the
# deal wherever a seat is chosen, in the interpreter and in every check of the verifier).
KNOWN_GAPS: set[tuple[str, str]] = set()

# What a built-in that reads the deal must give for the ace of hearts, which is always dealt here
# (52 cards, equal hands at four seats).
TRUTH: dict[str, Callable[[Any], bool]] = {
    "holder": lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v < PLAYERS,
    "dealt": lambda v: v is True,
}


def _rulebook(tmp_path: Path, text: str = EVERY_PLACE) -> Rulebook:
    path = tmp_path / "every-place.yaml"
    path.write_text(text, encoding="utf-8")
    rb, d = compile_rulebook(str(path))
    assert rb is not None, d.render()
    return rb


def _read(obj: Any, names: list[str]) -> Any:
    """The formula at dotted `names` (`kinds[]` is the first challenge kind)."""
    for name in names:
        obj = getattr(obj, name.removesuffix("[]"))
        if name.endswith("[]"):
            obj = obj[0]
    return obj


def _install(obj: Any, names: list[str], formula: Formula) -> Any:
    """A copy of `obj` with `formula` at the dotted `names`."""
    head, rest = names[0], names[1:]
    key = head.removesuffix("[]")
    inner = getattr(obj, key)
    if head.endswith("[]"):
        return replace(obj, **{key: (_install(inner[0], rest, formula), *inner[1:])})
    return replace(obj, **{key: formula if not rest else _install(inner, rest, formula)})


def _call(place: str, builtin: str, scope_variables: dict[str, Type]) -> str:
    """A call of `builtin` whose arguments this place can give (the place's own seat, when it has one)."""
    seats = [name for name, kind in scope_variables.items() if kind is Type.SEAT]
    seat = seats[0] if seats else "seat(0)"
    args = {Type.CLAIM: "aces", Type.CLAIMS: "{aces}", Type.SEAT: seat, Type.NUMBER: "1", Type.CARD: "ace of hearts"}
    if builtin in CONSTANT_READS:
        return builtin
    return f"{builtin}({', '.join(args[t] for t in FUNCTIONS[builtin].args)})"


def _wanted(place: str) -> Type:
    """The kind of value a formula at `place` gives (`table.SECTIONS`)."""
    return next(f.value for fs in SECTIONS.values() for f in fs if f.place == place and f.value is not None)


def _probe(rb: Rulebook, place: str, builtin: str, seen: list[Any]) -> Rulebook:
    """`rb` with every formula at `place` asking for `builtin` on the way to its own value; each
    answer it gets is added to `seen`."""
    for field in place_fields(place):
        names = field.split(".")
        own: Formula = _read(rb, names)
        call = _call(place, builtin, PLACES[place])
        text = f"if {call} == {call} then ({own.text}) else ({own.text})"
        scope = replace(scope_for(place, rb.deck.ranks, rb.deck.suits, False), facts=frozenset(Fact))
        d = Diagnostics()
        formula = make_formula(text, NOWHERE, _wanted(place), scope, d, field)
        asked = make_formula(call, NOWHERE, FUNCTIONS[builtin].result if builtin in FUNCTIONS else Type.CLAIMS,
                             scope, d, field)
        assert formula is not None and asked is not None, d.render()

        def counted(context: Any, code: Callable[[Any], Any] = formula.code,
                    ask: Callable[[Any], Any] = asked.code) -> Any:
            seen.append(ask(context))
            return code(context)

        rb = _install(rb, names, replace(formula, code=counted))
    return rb


def _engine(rb: Rulebook, seed: int = 7) -> None:
    """A seeded game with random actions (a pass, when allowed, two turns in three; a challenge one
    answer in eight), played until it ends or hits its turn cap."""
    rng = random.Random(seed)
    state = Game(rb, PLAYERS).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcome(rng))
        elif state.phase is Phase.PLAY:
            passing = state.can_pass() and (rng.random() < 0.67 or not state.count_play_actions())
            state.apply_action(PASS if passing else state.sample_play(rng))
        else:
            actions = state.legal_actions()
            state.apply_action(ACCEPT if ACCEPT in actions and rng.random() < 0.875 else rng.choice(actions))


def _verifier(rb: Rulebook) -> list[str]:
    """What the verifier's checks that read seat formulas say they could not work out."""
    subject = Subject(rb, (PLAYERS,))
    build_spec(rb, PLAYERS)
    cards = holder_cards(rb.setup.first_player, rb)
    said: list[object] = [_drifts(subject, PLAYERS), _outcomes(subject, PLAYERS),
                          _leaders(subject, PLAYERS, cards, [list(range(PLAYERS))] * len(cards))]
    return [s for s in said if isinstance(s, str) and "depends on" in s]


def _derived(rb: Rulebook) -> list[str]:
    """The tables every back end reads, worked out before play."""
    TableRules(rb, PLAYERS)
    return []


def _interpreter(rb: Rulebook) -> list[str]:
    _engine(rb)
    return []


# The back ends that evaluate formulas, each as a function of the rulebook: it raises
# `FactUnavailable` or returns what it could not work out.
BACK_ENDS: dict[str, Callable[[Rulebook], list[str]]] = {
    "derived tables": _derived,
    "interpreter": _interpreter,
    "verifier": _verifier,
}


def _answers(rb: Rulebook, place: str, builtin: str) -> tuple[bool, dict[str, int]]:
    """Whether every back end answers `builtin` at `place` (and, for the deal, truly), and how many
    times each back end read the place."""
    seen: list[Any] = []
    probe = _probe(rb, place, builtin, seen)
    reads: dict[str, int] = {}
    for name, run in BACK_ENDS.items():
        before = len(seen)
        try:
            unknown = run(probe)
        except FactUnavailable:
            return False, reads
        reads[name] = len(seen) - before
        if unknown:
            return False, reads
    true = TRUTH.get(builtin, lambda v: True)
    return all(true(v) for v in seen), reads


BUILTINS = [*FUNCTIONS, *CONSTANT_READS]


@pytest.mark.parametrize("place", list(PLACES))
def test_the_checker_allows_at_each_place_exactly_what_its_back_ends_answer(tmp_path: Path, place: str) -> None:
    """Every built-in the checker accepts at `place` is answered there by the derived tables, the
    interpreter and the verifier, and every one it refuses is one some back end cannot answer."""
    rb = _rulebook(tmp_path)
    answered = {builtin for builtin in BUILTINS if _answers(rb, place, builtin)[0]}
    accepted = {builtin for builtin in BUILTINS if _accepted(rb, place, builtin)}
    gaps = {b for p, b in KNOWN_GAPS if p == place}
    assert accepted == set(builtins_answered(PLACE_FACTS[place]))
    assert answered == accepted - gaps
    assert gaps <= accepted


def _accepted(rb: Rulebook, place: str, builtin: str) -> bool:
    """Whether the checker accepts `builtin` in a formula at `place`; a refusal is E415 alone."""
    call = _call(place, builtin, PLACES[place])
    field = place_fields(place)[0]
    d = Diagnostics()
    own = _read(rb, field.split(".")).text
    ok = make_formula(f"if {call} == {call} then ({own}) else ({own})", NOWHERE, _wanted(place),
                      scope_for(place, rb.deck.ranks, rb.deck.suits, False), d, field) is not None
    assert ok or {e.code for e in d.items} == {"E415"}, d.render()
    return ok


def test_every_place_is_read_by_the_interpreter_and_the_verifier(tmp_path: Path) -> None:
    """The walk is not vacuous: the rulebook it uses has a formula at every place, and the interpreter's
    game and the verifier both read each one (the derived tables read those fixed before play)."""
    rb = _rulebook(tmp_path)
    assert set(PLACES) == set(PLACE_FACTS)
    for place in PLACES:
        for field in place_fields(place):
            assert isinstance(_read(rb, field.split(".")), Formula), field
        ok, reads = _answers(rb, place, "min")
        assert ok and reads["interpreter"] > 0 and reads["verifier"] > 0, (place, reads)
        before_play = not PLACE_FACTS[place] - {Fact.CLAIM_ORDER}
        assert (reads["derived tables"] > 0) == before_play, (place, reads)


def test_the_language_reference_lists_each_places_built_ins() -> None:
    """docs/language.md's table of places gives, for each rule, the built-ins the checker allows there."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "language.md").read_text(encoding="utf-8")
    listed: dict[str, list[str]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`") and "." in cells[0]:
            for rule in cells[0].split(", "):
                listed[rule.strip("`")] = [b.strip("`") for b in cells[2].split(", ")]
    wanted = {field: builtins_answered(PLACE_FACTS[place]) for place in PLACES for field in place_fields(place)}
    assert listed == wanted


def test_a_seat_in_a_deck_size_is_a_located_error(tmp_path: Path) -> None:
    """The checker refuses `left` and `seat` in `deck.packs` (E415, at each call, naming what it allows),
    where the interpreter would otherwise stop at the deal."""
    text = EVERY_PLACE.replace("packs: max(1, players - 3)", "packs: if left(seat(0)) == seat(1) then 1 else 2")
    path = tmp_path / "seats-in-deck.yaml"
    path.write_text(text, encoding="utf-8")
    rb, d = compile_rulebook(str(path))
    assert rb is None
    found = [(x.code, x.span.line, x.span.column, x.hint) for x in d.items]
    assert found == [("E415", 5, 13, "allowed here: `min`, `max`"), ("E415", 5, 30, "allowed here: `min`, `max`")]
    assert "the function `left` reads the seats, which a formula at `deck.packs` cannot know" in d.render()
