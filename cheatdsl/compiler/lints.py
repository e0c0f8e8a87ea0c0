"""Author's warnings (W5xx): rules that are legal but almost surely not what the author meant.

Each warning is located at the rule it is about and carries a hint. They run only on a rulebook
without errors, at every player count it allows.
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import Table
from ..derived import allowed_kinds
from ..diagnostics import Diagnostics
from ..expr import TableFacts
from ..model import ClaimKind, DealStyle, PenaltyKind, Rulebook
from ..syntax.tree import MapNode

# W503 builds the rules again for each variation; past this many it looks no further (bounded cost).
LINTED_VARIATIONS = 200


def _counts(counts: list[int]) -> str:
    runs: list[list[int]] = []
    for n in counts:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}..{b}" for a, b in runs) + " players"


def lint_rulebook(rb: Rulebook, d: Diagnostics) -> None:
    """Record every author's warning of a rulebook that compiled without errors."""
    if d.has_errors():
        return
    counts = list(rb.players.counts())
    tables = {n: Table(rb, n) for n in counts}
    for check in (_challenges, _true_claims, _unused, _undefined_first):
        check(rb, d, counts, tables)
    _variations(rb, d)


def _allowed(rb: Rulebook, n: int, t: Table) -> list[str]:
    return [k.name for k in allowed_kinds(rb, n)]


def _challenges(rb: Rulebook, d: Diagnostics, counts: list[int], tables: dict[int, Table]) -> None:
    none = [n for n in counts if not _allowed(rb, n, tables[n])]
    if none:
        kinds = rb.challenge.kinds
        span = kinds[0].span_of("allowed_when") if len(kinds) == 1 else rb.challenge.span_of("kinds")
        d.warning(span, "W501", f"with {_counts(none)} no challenge may be made: every play stands, so a lie is "
                  "never caught", "widen `allowed_when`, or add a kind of challenge allowed at those counts")
    if none == counts and len(rb.challenge.kinds) == 1:
        return  # W501 says it all
    for k in rb.challenge.kinds:
        if k.allowed_when is not None and not any(k.allowed_when.code(TableFacts(n)) for n in counts):
            d.warning(k.span_of("allowed_when"), "W504", f"the challenge `{k.name}` is allowed at no player count "
                      f"this rulebook allows ({_counts(counts)}): `allowed_when: {k.allowed_when.text}`",
                      "change `allowed_when`, or drop this kind of challenge")


def _true_claims(rb: Rulebook, d: Diagnostics, counts: list[int], tables: dict[int, Table]) -> None:
    claim, deck = rb.claim, rb.deck
    wild = deck.jokers if deck.jokers_wild else 0
    never = []
    for n in counts:
        t = tables[n]
        copies = t.packs if claim.kind is ClaimKind.CARD else t.copies
        if claim.min_cards > copies + wild:
            never.append((n, copies + wild))
    if never:
        most = max(m for _, m in never)
        d.warning(claim.span_of("cards"), "W502", f"with {_counts([n for n, _ in never])} a play holds at least "
                  f"{claim.min_cards} cards, but at most {most} can match a claim: every claim is a certain lie",
                  "allow smaller plays, or add packs or wild jokers")


def _written(section: object, name: str) -> bool:
    return name in dict(getattr(section, "field_spans", ()))


def _unused(rb: Rulebook, d: Diagnostics, counts: list[int], tables: dict[int, Table]) -> None:
    p = rb.passing
    if not p.allowed:
        for name in ("when", "leader_may_pass", "all_pass_pile", "all_pass_leader"):
            if _written(p, name):
                d.warning(p.span_of(name), "W504", f"`passing.{name}` is used by no player count: passing is not "
                          "allowed", "drop this rule, or allow passing")
    deal = rb.deal
    if deal.style is DealStyle.ALL and _written(deal, "hand_size"):
        d.warning(deal.span_of("hand_size"), "W504", "`deal.hand_size` is used by no player count: every card "
                  "is dealt (`style: all`)", "drop this rule, or deal `equal` or `fixed` hands")
    if deal.style is not DealStyle.EQUAL and _written(deal, "minimum_hand"):
        d.warning(deal.span_of("minimum_hand"), "W504", "`deal.minimum_hand` is used by no player count: it "
                  "applies to `style: equal` only", "drop this rule")
    pen = rb.challenge.penalty
    if pen.kind is PenaltyKind.TAKE_PILE and _written(pen, "draw"):
        d.warning(pen.span_of("draw"), "W504", "`challenge.penalty.draw` is used by no player count: the loser "
                  "takes the pile", "drop this rule, or set `challenge.penalty.kind: draw`")
    if rb.sets is not None and deck_has_no_jokers(rb) and _written(rb.sets, "naturals_only"):
        d.warning(rb.sets.span_of("naturals_only"), "W504", "`sets.naturals_only` is used by no player count: "
                  "the deck has no jokers", "drop this rule")


def deck_has_no_jokers(rb: Rulebook) -> bool:
    return rb.deck.jokers == 0


def _undefined_first(rb: Rulebook, d: Diagnostics, counts: list[int], tables: dict[int, Table]) -> None:
    first = rb.setup.first_player
    text = first.canonical
    if "holder(" not in text or "dealt(" in text:
        return
    short = []
    for n in counts:
        sizes = tables[n].hand_sizes()
        if isinstance(sizes, str):
            continue
        if tables[n].set_aside > 0 or sizes[1] > 0:
            short.append(n)
    if short:
        d.warning(rb.setup.span_of("first_player"), "W505", f"with {_counts(short)} the card `first_player` "
                  f"names may not reach a hand (cards are set aside or left over), and then "
                  f"`{first.text}` names no seat", "say who leads then: `if dealt(CARD) then holder(CARD) else "
                  "left(dealer)`")


def _variations(rb: Rulebook, d: Diagnostics) -> None:
    """A variation whose changes leave every rule as it was (W503), for the first LINTED_VARIATIONS.

    The rulebook's tree is read once (from the text already read, so an editor's unsaved copy counts);
    each variation is laid over it and only the rules are built again, so the cost grows with the
    number of variations, not with its square.
    """
    waiting = [v for v in rb.variations if not v.active][:LINTED_VARIATIONS]
    if not waiting or not rb.path:
        return
    from ..source import Span
    from ..syntax.reading import display_name
    from .build import Builder
    from ..syntax.loader import apply_variations, load_tree
    source = d.sources.get(display_name(rb.path))
    quiet = Diagnostics()
    nowhere = Span("<lint>", 0, 0)
    loaded = load_tree(rb.path, quiet, [(name, nowhere) for name in rb.active_variations],
                       text=source.text if source is not None else None)
    if loaded is None or quiet.has_errors():
        return
    base = _rules(rb)
    for v in waiting:
        tried = Diagnostics()
        tree = apply_variations(loaded.tree, [(v.name, nowhere)], list(loaded.active), tried)
        rules = MapNode(tuple(e for e in tree.entries if e.key != "variations"), tree.span)
        other = Builder(rules, rb.path, loaded.chain, [*loaded.active, v.name], tried).build()
        if other is not None and not tried.has_errors() and _rules(other) == base:
            d.warning(v.span, "W503", f"the variation `{v.name}` changes nothing: every rule is as it was "
                      "without it", "change a rule in `changes`, or drop the variation")


_SECTIONS: tuple[Callable[[Rulebook], object], ...] = (
    lambda r: r.players, lambda r: r.deck, lambda r: r.deal, lambda r: r.setup, lambda r: r.claim,
    lambda r: r.passing, lambda r: r.challenge, lambda r: r.sets, lambda r: r.ending)


def _rules(rb: Rulebook) -> tuple[object, ...]:
    return tuple(f(rb) for f in _SECTIONS)


BREAKING = ("W501", "W502")  # warnings that take the bluff out of the game: `verify` counts them as problems


def breaking(rb: Rulebook) -> list[str]:
    """The author's warnings of `rb` that break the game (no challenge possible, no claim ever true), in words."""
    d = Diagnostics()
    counts = list(rb.players.counts())
    tables = {n: Table(rb, n) for n in counts}
    _challenges(rb, d, counts, tables)
    _true_claims(rb, d, counts, tables)
    return [f"{item.message} ({item.code}, {item.span})" for item in d.items if item.code in BREAKING]
