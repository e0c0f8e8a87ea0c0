"""Checking a scenario's expectations against a state: each mismatch says expected and actual."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine import Phase, RevealRecord, RuleGap, State
from ..words.notation import (
    NotationError,
    cards_text,
    claim_text,
    claims_text,
    parse_action,
    parse_cards,
    parse_claim,
    rank_words,
    why_illegal,
)


@dataclass(frozen=True)
class Mismatch:
    """One expectation that does not hold: its dotted key, what was expected and what was found."""

    key: str
    expected: str
    actual: str


class BadExpectation(ValueError):
    """An expectation written so that it cannot be read (a diagnostic, not a failed check)."""

    def __init__(self, key: str, message: str) -> None:
        self.key = key
        super().__init__(message)


def check(state: State, expect: dict[str, Any], prefix: str = "expect") -> list[Mismatch]:
    """Every mismatch between `expect` and `state` (`refused` is checked by the runner)."""
    out: list[Mismatch] = []
    for name, value in expect.items():
        if name == "refused":
            continue
        checker = CHECKS[name]
        out.extend(checker(state, value, f"{prefix}.{name}"))
    return out


def _seat(value: Any, key: str) -> int | None:
    if value is None or (isinstance(value, str) and value.lower() in ("none", "nobody")):
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadExpectation(key, f"a seat is a number or `none`, found {value!r}")
    return value


def _seat_text(seat: int | None) -> str:
    return "none" if seat is None else f"seat {seat}"


def _cards(state: State, value: Any, key: str) -> tuple[int, ...]:
    try:
        if isinstance(value, (list, str)):
            return parse_cards(state.game, [str(v) for v in value] if isinstance(value, list) else value)
    except NotationError as exc:
        raise BadExpectation(key, str(exc)) from None
    raise BadExpectation(key, f"expected a list of cards such as [7C, KD], found {value!r}")


def _claim(state: State, value: Any, key: str) -> int | None:
    if value is None or (isinstance(value, str) and value.lower() == "none"):
        return None
    try:
        return parse_claim(state.game, str(value))[0]
    except NotationError as exc:
        raise BadExpectation(key, str(exc)) from None


def _bool(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise BadExpectation(key, f"expected true or false, found {value!r}")
    return value


def _number(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadExpectation(key, f"expected a number, found {value!r}")
    return value


def _same(key: str, expected: object, actual: object, show: Callable[[Any], str] = str) -> list[Mismatch]:
    return [] if expected == actual else [Mismatch(key, show(expected), show(actual))]


def _multiset(state: State, key: str, value: Any, actual: tuple[int, ...]) -> list[Mismatch]:
    if isinstance(value, int) and not isinstance(value, bool):
        return _same(key, value, len(actual), lambda n: f"{n} cards")
    want = _cards(state, value, key)
    show = lambda cards: cards_text(state.game, sorted(cards))  # noqa: E731
    return [] if Counter(want) == Counter(actual) else [Mismatch(key, show(want), show(actual))]


def _per_seat(value: Any, key: str, players: int) -> dict[int, Any]:
    if isinstance(value, list):
        value = dict(enumerate(value))
    if not isinstance(value, dict):
        raise BadExpectation(key, f"expected a mapping from seats, such as {{0: ...}}, found {value!r}")
    for seat in value:
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise BadExpectation(f"{key}.{seat}", f"there is no seat {seat!r} at a table of {players}")
    return value


def hand_sizes(state: State, value: Any, key: str) -> list[Mismatch]:
    out = []
    for seat, n in _per_seat(value, key, state.game.players).items():
        out += _same(f"{key}.{seat}", _number(n, f"{key}.{seat}"), state.hand_size(seat))
    return out


def hands(state: State, value: Any, key: str) -> list[Mismatch]:
    out = []
    for seat, cards in _per_seat(value, key, state.game.players).items():
        out += _multiset(state, f"{key}.{seat}", cards, state.hand_cards(seat))
    return out


def holds(state: State, value: Any, key: str) -> list[Mismatch]:
    """Each seat holds at least these cards (and maybe others)."""
    out = []
    for seat, cards in _per_seat(value, key, state.game.players).items():
        want = Counter(_cards(state, cards, f"{key}.{seat}"))
        have = Counter(state.hand_cards(seat))
        missing = want - have
        if missing:
            wanted = cards_text(state.game, sorted(want.elements()))
            out.append(Mismatch(f"{key}.{seat}", f"seat {seat} holding {wanted}",
                                f"seat {seat} holds {cards_text(state.game, state.hand_cards(seat))}"))
    return out


def pile(state: State, value: Any, key: str) -> list[Mismatch]:
    return _multiset(state, key, value, state.pile_cards())


def stock(state: State, value: Any, key: str) -> list[Mismatch]:
    if isinstance(value, list):
        want = tuple(_cards(state, [v], key)[0] for v in value)
        return _same(key, want, state.stock(), lambda c: cards_text(state.game, c))
    return _multiset(state, key, value, state.stock())


def aside(state: State, value: Any, key: str) -> list[Mismatch]:
    return _multiset(state, key, value, state.aside())


def gone(state: State, value: Any, key: str) -> list[Mismatch]:
    return _multiset(state, key, value, state.gone())


def _actor(state: State) -> str:
    from ..words.notation import phase_text
    return phase_text(state)


def to_play(state: State, value: Any, key: str) -> list[Mismatch]:
    want = _seat(value, key)
    seat = state.current_player() if state.phase is Phase.PLAY else None
    if want == seat:
        return []
    return [Mismatch(key, f"seat {want} to play" if want is not None else "nobody to play", _actor(state))]


def to_act(state: State, value: Any, key: str) -> list[Mismatch]:
    want = _seat(value, key)
    seat = state.current_player() if state.phase in (Phase.PLAY, Phase.RESPOND, Phase.DISCARD) else None
    if want == seat:
        return []
    return [Mismatch(key, f"seat {want} to act" if want is not None else "nobody to act", _actor(state))]


_PHASES = {"play": Phase.PLAY, "respond": Phase.RESPOND, "discard": Phase.DISCARD, "over": Phase.TERMINAL,
           "terminal": Phase.TERMINAL, "chance": Phase.CHANCE}


def phase(state: State, value: Any, key: str) -> list[Mismatch]:
    want = _PHASES.get(str(value).lower())
    if want is None:
        raise BadExpectation(key, f"a phase is one of {', '.join(_PHASES)}, found {value!r}")
    return _same(key, want.value, state.phase.value)


def required(state: State, value: Any, key: str) -> list[Mismatch]:
    g = state.game
    if isinstance(value, str) and value.lower() in ("any", "any claim"):
        want = frozenset(g.rules.claim_order)
    else:
        items = value if isinstance(value, list) else [value]
        want = frozenset(c for i, v in enumerate(items) if (c := _claim(state, v, f"{key}.{i}")) is not None)
    got = frozenset(state.required_claims())
    show = lambda s: claims_text(g, sorted(s))  # noqa: E731
    return [] if want == got else [Mismatch(key, show(want), show(got))]


def previous(state: State, value: Any, key: str) -> list[Mismatch]:
    return _same(key, _claim(state, value, key), state.previous, lambda c: claim_text(state.game, c))


def leading(state: State, value: Any, key: str) -> list[Mismatch]:
    return _same(key, _bool(value, key), state.leading)


def _result_seat(state: State, key: str, value: Any, pick: str) -> list[Mismatch]:
    result = state.result()
    actual = getattr(result, pick) if result else None
    return _same(key, _seat(value, key), actual, _seat_text)


def winner(state: State, value: Any, key: str) -> list[Mismatch]:
    return _result_seat(state, key, value, "winner")


def loser(state: State, value: Any, key: str) -> list[Mismatch]:
    return _result_seat(state, key, value, "loser")


def out(state: State, value: Any, key: str) -> list[Mismatch]:
    if not isinstance(value, list):
        raise BadExpectation(key, "`out` lists seats in the order they went out, such as [2, 0]")
    want = tuple(_seat(v, f"{key}.{i}") for i, v in enumerate(value))
    return _same(key, want, state.order_out(), lambda s: "[" + ", ".join(map(str, s)) + "]")


def over(state: State, value: Any, key: str) -> list[Mismatch]:
    return _same(key, _bool(value, key), state.is_terminal(), lambda b: "over" if b else "still going")


def capped(state: State, value: Any, key: str) -> list[Mismatch]:
    result = state.result()
    return _same(key, _bool(value, key), bool(result and result.capped))


def _last_reveal(state: State, key: str) -> Any:
    reveals = state.reveals()
    if not reveals:
        raise _NoReveal(key)
    return reveals[-1]


class _NoReveal(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def revealed(state: State, value: Any, key: str) -> list[Mismatch]:
    try:
        record = _last_reveal(state, key)
    except _NoReveal:
        return [Mismatch(key, str(value), "no challenge so far")]
    return _multiset(state, key, value, record.revealed)


def pile_shown(state: State, value: Any, key: str) -> list[Mismatch]:
    """The cards the last challenge turned face up from the whole pile (`show_pile`), or `none`."""
    try:
        record = _last_reveal(state, key)
    except _NoReveal:
        return [Mismatch(key, str(value), "no challenge so far")]
    if value is None or value == "none":
        return _same(key, None, record.pile, lambda p: "no pile shown" if p is None else cards_text(state.game, p))
    if record.pile is None:
        return [Mismatch(key, str(value), "the pile was not shown")]
    return _multiset(state, key, value, record.pile)


def caught(state: State, value: Any, key: str) -> list[Mismatch]:
    try:
        record = _last_reveal(state, key)
    except _NoReveal:
        return [Mismatch(key, str(value), "no challenge so far")]
    show = lambda b: "caught (a lie)" if b else "not caught (true)"  # noqa: E731
    return _same(key, _bool(value, key), record.caught, show)


def _reveal_seat(state: State, value: Any, key: str, seat_of: Callable[[RevealRecord], int | None]
                 ) -> list[Mismatch]:
    """Compare a seat named by the last challenge's record (`seat_of` picks which) with `value`."""
    try:
        record = _last_reveal(state, key)
    except _NoReveal:
        return [Mismatch(key, str(value), "no challenge so far")]
    return _same(key, _seat(value, key), seat_of(record), _seat_text)


def picked_up(state: State, value: Any, key: str) -> list[Mismatch]:
    """The seat that lost the last challenge and paid for it (none: a wrong call that cost nothing)."""
    return _reveal_seat(state, value, key, lambda record: record.loser if record.paid else None)


def challenger(state: State, value: Any, key: str) -> list[Mismatch]:
    """The seat whose challenge was heard last (of several calls, the one `challenge.priority` picks)."""
    return _reveal_seat(state, value, key, lambda record: record.challenger)


def callers(state: State, value: Any, key: str) -> list[Mismatch]:
    """The seats whose calls, made at once, wait for the lot of who called first (`priority: first_caller`)."""
    items = value if isinstance(value, list) else [value]
    want = tuple(sorted(s for i, v in enumerate(items) if (s := _seat(v, f"{key}.{i}")) is not None))
    show = lambda seats: ", ".join(f"seat {s}" for s in seats) or "no calls waiting for the lot"  # noqa: E731
    return _same(key, want, tuple(sorted(state.callers())), show)


def discarded(state: State, value: Any, key: str) -> list[Mismatch]:
    if not isinstance(value, list):
        raise BadExpectation(key, "`discarded` lists the ranks of the sets put out, such as [sevens]")
    want = tuple(_claim_rank(state, v, f"{key}.{i}") for i, v in enumerate(value))
    got = tuple(rank for _, rank, _ in state.discarded_sets())
    show = lambda ranks: ", ".join(rank_words(state.game, r) for r in ranks) or "none"  # noqa: E731
    return _same(key, want, got, show)


def _claim_rank(state: State, value: Any, key: str) -> int:
    g = state.game
    word = str(value).lower()
    for r in range(g.rules.rank_count):
        if word in (g.rules.rank_names[r], g.rules.rank_plurals[r], g.rules.rank_symbols[r].lower()):
            return r
    raise BadExpectation(key, f"`{value}` is not a rank of this game")


def _action(state: State, text: Any, key: str) -> Any:
    body = str(text)
    head, sep, rest = body.partition(":")
    if sep and head.strip().isdigit():
        body = rest
    try:
        return parse_action(state.game, body)
    except NotationError as exc:
        raise BadExpectation(key, str(exc)) from None


def legal(state: State, value: Any, key: str) -> list[Mismatch]:
    items = value if isinstance(value, list) else [value]
    out = []
    for i, text in enumerate(items):
        why = why_illegal(state, _action(state, text, f"{key}.{i}"))
        if why is not None:
            out.append(Mismatch(f"{key}.{i}", f"`{text}` to be legal", f"refused: {why}"))
    return out


def illegal(state: State, value: Any, key: str) -> list[Mismatch]:
    items = value if isinstance(value, list) else [value]
    out = []
    for i, text in enumerate(items):
        if why_illegal(state, _action(state, text, f"{key}.{i}")) is None:
            out.append(Mismatch(f"{key}.{i}", f"`{text}` to be refused", "it is legal"))
    return out


_GAPS = {g.value: g for g in RuleGap}


def rule_gaps(state: State, value: Any, key: str) -> list[Mismatch]:
    """The gaps in the rules the game has met, each filled by the interpreter (`next_player`,
    `all_pass_leader`, `lead`): a list, [] for none."""
    if not isinstance(value, list) or not all(isinstance(v, str) and v in _GAPS for v in value):
        raise BadExpectation(key, f"`rule_gaps` lists gaps among {', '.join(sorted(_GAPS))}, such as [lead], or []")
    show = lambda gaps: "[" + ", ".join(sorted(g.value for g in gaps)) + "]"  # noqa: E731
    return _same(key, frozenset(_GAPS[v] for v in value), state.rule_gaps, show)


def last_cards(state: State, value: Any, key: str) -> list[Mismatch]:
    claims = state.observation(0).claims
    actual = bool(claims and claims[-1].last_cards)
    return _same(key, _bool(value, key), actual, lambda b: "last cards" if b else "not the last cards")


CHECKS: dict[str, Callable[[State, Any, str], list[Mismatch]]] = {
    "hand_sizes": hand_sizes, "hands": hands, "holds": holds, "pile": pile, "pile_shown": pile_shown,
    "stock": stock, "aside": aside, "gone": gone,
    "to_play": to_play, "to_act": to_act, "phase": phase, "required": required, "previous": previous,
    "leading": leading, "winner": winner, "loser": loser, "out": out, "over": over, "capped": capped,
    "revealed": revealed, "caught": caught, "picked_up": picked_up, "challenger": challenger, "callers": callers,
    "discarded": discarded, "legal": legal,
    "illegal": illegal, "last_cards": last_cards, "rule_gaps": rule_gaps,
}


