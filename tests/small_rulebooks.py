"""Small generated rulebooks for the differential campaign: every field of the JSON Schema, decks the judge can
walk through.

`generate(i)` draws rulebook number i (the same on every run). Every leaf field of the YAML form's JSON Schema
(`cheatdsl.schema`) is drawn from its values, starting from a plain base (`BASE`, the standard sheet on a
few cards): each enum word, integers over their range's small end, and for each formula place a pool of
formulas that together use every function and fact the place may read (`FORMULAS`). Decks stay small
(two to four ranks, one to three suits, up to two packs and two jokers) and the player range stays within
two to five seats, so that the exhaustive judge can decide most tables. `coverage(datas)` is the share of
rulebooks in which each schema field took a value other than the base's; `fields()` lists the leaves, and a
test fails when one has no draw here.
"""

from __future__ import annotations

import copy
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

RANKS = ["A", "2", "3", "4"]
SUITS = ["clubs", "diamonds", "hearts", "spades"]

# A plain Cheat on a few cards: what every draw changes from.
BASE: dict[str, Any] = {
    "rulebook": "small", "title": "A small generated table", "source": "tests/small_rulebooks.py",
    "players": "2..3",
    "deck": {"ranks": ["A", "2", "3"], "suits": ["clubs", "spades"], "packs": 1, "jokers": 0,
             "jokers_wild": False},
    "deal": {"style": "all", "surplus": "aside"},
    "setup": {"dealer": "lot", "first_player": "left(dealer)", "direction": "clockwise"},
    "claim": {"kind": "rank", "cards": "1..", "count": "exact", "first": "aces", "follow": "next(previous)",
              "after_last": "wrap", "round_ends": []},
    "passing": {"allowed": False},
    "challenge": {"kinds": [{"name": "cheat", "call": "Cheat!", "test": "played"}],
                  "window": "before_next_play", "priority": "first_clockwise", "reveal": "play",
                  "show_pile": False, "penalty": {"kind": "take_pile", "pile_after": "stays"},
                  "next_player": "left(claimant)"},
    "ending": {"style": "first_out", "out_check": "after_window"},
}

# Formulas by the field they stand in: together they use every function and fact each place may read.
FORMULAS: dict[str, list[Any]] = {
    "deck.packs": [1, 2, "if players >= 3 then 2 else 1"],
    "deck.ranks_used": ["players + 1", 2, "players"],
    "deal.hand_size": [1, 2, 3, "players", "if players == 2 then 3 else 2", "cards / players - 1"],
    "deal.set_aside": [1, 2, "players - 1"],
    "setup.first_player": ["left(dealer)", "right(dealer)", "seat(0)", "seat(1)", "dealer",
                           "if dealt(ace of clubs) then holder(ace of clubs) else left(dealer)"],
    "claim.first": ["aces", "any", "{aces, twos}", "twos"],
    "claim.follow": ["next(previous)", "prev(previous)", "{prev(previous), previous, next(previous)}", "previous",
                     "any", "above(previous)", "below(previous)", "{previous, next(previous)}", "all_claims",
                     "next(next(previous))"],
    "claim.lead": ["any", "aces", "next(previous)", "previous"],
    "passing.when": ["holds(required) == 0", "hand >= 2", "not leading", "holds(required) < 2 and hand > 1",
                     "hand == 1", "players >= 3"],
    "passing.all_pass_leader": ["last_player", "left(last_player)", "right(last_player)", "seat(0)"],
    "challenge.next_player": ["left(claimant)", "winner", "loser", "if caught then challenger else claimant",
                              "left(loser)", "challenger", "right(claimant)", "right(loser)", "claimant"],
    "allowed_when": ["players <= 2", "players >= 3", "players == 3", "players != 2"],
    "sets.size": ["copies", 2, 3, "copies - 1"],
    "ending.turn_start_win": ["hand == 1 and (leading or holds(required) == 1)", "holds(required) == 2",
                              "holds(required) >= 3", "hand <= 1", "hand == 2 and leading"],
    "ending.turn_cap": [8, 12, 20, 40],
}


def _pick(rng: random.Random, xs: list[Any]) -> Any:
    return xs[rng.randrange(len(xs))]


def build(rng: random.Random, name: str) -> dict[str, Any]:
    """One small rulebook as YAML data, each field drawn with a fair chance of leaving the base."""
    rb = copy.deepcopy(BASE)
    rb["rulebook"] = name
    p = 0.3  # the chance of each field leaving the base
    lo = rng.randint(2, 4)
    hi = lo + rng.choice([0, 0, 1, 1, 2])
    hi = min(hi, 5)
    rb["players"] = lo if hi == lo and rng.random() < 0.5 else f"{lo}..{hi}"
    deck = rb["deck"]
    deck["ranks"] = RANKS[:rng.choice([2, 3, 3, 4])]
    deck["suits"] = SUITS[:rng.choice([1, 2, 2, 3])]
    if rng.random() < p:
        deck["packs"] = _pick(rng, FORMULAS["deck.packs"])
    if rng.random() < p:
        deck["jokers"] = rng.choice([1, 2])
        deck["jokers_wild"] = rng.random() < 0.7
    if rng.random() < 0.12:
        deck["ranks"] = list(RANKS)
        deck["ranks_used"] = _pick(rng, FORMULAS["deck.ranks_used"]) if hi < len(RANKS) else 2
    deal = rb["deal"]
    if rng.random() < p * 2:
        deal["style"] = rng.choice(["equal", "fixed"])
        if deal["style"] == "fixed":
            deal["hand_size"] = _pick(rng, FORMULAS["deal.hand_size"])
        elif rng.random() < 0.4:
            deal["minimum_hand"] = rng.randint(1, 3)
        deal["surplus"] = rng.choice(["aside", "stock"])
    if rng.random() < p / 2:
        deal["set_aside"] = _pick(rng, FORMULAS["deal.set_aside"])
    setup = rb["setup"]
    if rng.random() < p:
        setup["dealer"] = "seat_zero"
    if rng.random() < p:
        setup["first_player"] = _pick(rng, FORMULAS["setup.first_player"])
    if rng.random() < p:
        setup["direction"] = "anticlockwise"
    claim = rb["claim"]
    if rng.random() < p / 2:
        claim["kind"] = "card"
        claim["cards"] = 1
        claim["first"] = rng.choice(["any", "ace of clubs"])
        claim["follow"] = rng.choice(["next(previous)", "{prev(previous), next(previous)}", "above(previous)",
                                      "any"])
    else:
        if rng.random() < p:
            claim["cards"] = rng.choice(["1..2", "1", "2", "1..3", "2..", 1])
        if rng.random() < p:
            claim["count"] = rng.choice(["extra_allowed", "any"] if claim["cards"] not in ("1", 1) else ["any"])
        if rng.random() < p:
            claim["first"] = _pick(rng, FORMULAS["claim.first"])
        if rng.random() < p:
            claim["follow"] = _pick(rng, FORMULAS["claim.follow"])
    if ("next(" in str(claim["follow"]) or "prev(" in str(claim["follow"])) and rng.random() < p / 2:
        claim["after_last"] = "nothing"
    passing = rb["passing"]
    if rng.random() < p:
        passing["allowed"] = True
        if rng.random() < 0.4:
            passing["when"] = _pick(rng, FORMULAS["passing.when"])
        passing["leader_may_pass"] = rng.random() < 0.3
        passing["all_pass_pile"] = rng.choice(["stays", "discarded"])
        passing["all_pass_leader"] = _pick(rng, FORMULAS["passing.all_pass_leader"])
    ends = []
    if rng.random() < p:
        ends.append("challenge")
    if passing["allowed"] and rng.random() < 0.5:
        ends.append("all_pass")
    claim["round_ends"] = ends
    if ends and rng.random() < 0.6:
        claim["lead"] = _pick(rng, FORMULAS["claim.lead"])
    challenge = rb["challenge"]
    kinds = challenge["kinds"]
    if rng.random() < p:
        force = {"name": "force", "call": "Show me!", "test": "hand"}
        if rng.random() < 0.4:
            kinds[:] = [force]  # a Force challenge as the only call
        else:
            kinds.append(force)
    for kind in kinds:
        if rng.random() < p / 2:
            kind["allowed_when"] = _pick(rng, FORMULAS["allowed_when"])
    if rng.random() < p:
        challenge["window"] = "count_of_three"
    if rng.random() < p:
        challenge["priority"] = rng.choice(["offered_in_turn", "first_caller"])
    if rng.random() < p:
        challenge["reveal"] = "top_card"
    if rng.random() < p / 2:
        challenge["show_pile"] = True
    penalty = challenge["penalty"]
    if deal.get("surplus") == "stock" and rng.random() < 0.6:
        penalty.clear()
        penalty.update({"kind": "draw", "draw": rng.randint(1, 3), "pile_after": rng.choice(["stays", "discarded"]),
                        "short_stock": rng.choice(["nothing", "take_pile"])})
    elif rng.random() < p / 2:
        penalty["pile_after"] = "discarded"
    if rng.random() < p:
        challenge["next_player"] = _pick(rng, FORMULAS["challenge.next_player"])
    if claim["kind"] == "rank" and rng.random() < p:
        rb["sets"] = {"size": _pick(rng, FORMULAS["sets.size"]), "mode": rng.choice(["optional", "forced"]),
                      "naturals_only": rng.random() < 0.7}
    ending = rb["ending"]
    if rng.random() < p:
        ending["style"] = "last_holder_loses"
    if rng.random() < p:
        ending["out_check"] = "at_once"
    if rng.random() < p / 2:
        ending["turn_start_win"] = _pick(rng, FORMULAS["ending.turn_start_win"])
    if rng.random() < p:
        ending["turn_cap"] = _pick(rng, FORMULAS["ending.turn_cap"])
    if "sets" in rb and rng.random() < 0.4:
        ending["emptied_by_sets"] = rng.choice(["out", "stays_in"])
    # Rules the language gained after the campaign's first runs are drawn from a stream of their own, so that a
    # rulebook's number still names the rules it named before, with the newer rules added or not.
    later = random.Random(f"{name}/later")
    if later.random() < p:
        challenge["penalty"]["failed_call"] = "free"
    return rb


def text_of(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def valid(data: dict[str, Any]) -> bool:
    """Whether `cheatdsl check` accepts the rulebook (no error; warnings allowed)."""
    from cheatdsl.load import compile_rulebook
    with tempfile.TemporaryDirectory(prefix="small-rulebook-") as tmp:
        path = Path(tmp) / f"{data['rulebook']}.yaml"
        path.write_text(text_of(data))
        rb, d = compile_rulebook(str(path))
        return rb is not None and not d.has_errors()


def generate(i: int, tries: int = 60) -> dict[str, Any]:
    """The valid small rulebook number `i` (the same on every run)."""
    rng = random.Random(f"small-rulebook/{i}")
    for _ in range(tries):
        data = build(rng, f"small-{i}")
        if valid(data):
            return data
    raise ValueError(f"no valid small rulebook drawn for number {i} in {tries} tries")


# -- coverage of the schema ------------------------------------------------------------------------------

def fields() -> list[str]:
    """Every leaf field of the YAML form's JSON Schema but the names, expectations and house-rule keys, dotted
    (`challenge.penalty.kind`; a challenge kind's fields as `challenge.kinds[].test`)."""
    from cheatdsl.schema import rulebook_schema
    schema = rulebook_schema()
    defs = schema.get("$defs", schema.get("definitions", {}))
    out: list[str] = []

    def walk(node: dict[str, Any], path: list[str]) -> None:
        if "$ref" in node:
            walk(defs[node["$ref"].split("/")[-1]], path)
            return
        if "properties" in node:
            for k, v in node["properties"].items():
                walk(v, [*path, k])
            return
        items = node.get("items")
        if isinstance(items, dict) and ("properties" in items or "$ref" in items):
            walk(items, [*path[:-1], path[-1] + "[]"])
            return
        out.append(".".join(path))

    walk(schema, [])
    skip = ("rulebook", "title", "source", "extends", "drop", "use", "variations")
    return [f for f in out if f.split(".")[0] not in skip and not f.startswith("expect.")]


def _values(data: Any, path: list[str]) -> Iterator[Any]:
    if not path:
        yield data
        return
    head, rest = path[0], path[1:]
    if head.endswith("[]"):
        items = data.get(head[:-2]) if isinstance(data, dict) else None
        for item in items or []:
            yield from _values(item, rest)
        return
    if isinstance(data, dict) and head in data:
        yield from _values(data[head], rest)


def coverage(datas: list[dict[str, Any]]) -> dict[str, float]:
    """For each schema field, the share of `datas` in which it took a value other than the base's."""
    out = {}
    for f in fields():
        path = f.split(".")
        base = list(_values(BASE, path))
        moved = sum(1 for d in datas if list(_values(d, path)) != base)
        out[f] = moved / len(datas) if datas else 0.0
    return out


# -- variants of the shipped rulebooks --------------------------------------------------------------------

# The fields a variant changes, each with the values it may take (a formula field's from FORMULAS).
VARIANT_FIELDS: dict[str, list[Any]] = {
    "deck.packs": [1, 2, "if players >= 5 then 2 else 1"],
    "deck.jokers": [0, 1, 2],
    "deck.jokers_wild": [True, False],
    "setup.dealer": ["lot", "seat_zero"],
    "setup.first_player": FORMULAS["setup.first_player"][:5],
    "setup.direction": ["clockwise", "anticlockwise"],
    "claim.count": ["exact", "extra_allowed", "any"],
    "claim.first": ["aces", "any"],
    "claim.follow": ["next(previous)", "prev(previous)", "{prev(previous), previous, next(previous)}", "any"],
    "passing.allowed": [True, False],
    "passing.when": FORMULAS["passing.when"],
    "passing.all_pass_leader": FORMULAS["passing.all_pass_leader"],
    "challenge.window": ["before_next_play", "count_of_three"],
    "challenge.priority": ["first_clockwise", "offered_in_turn", "first_caller"],
    "challenge.reveal": ["play", "top_card"],
    "challenge.show_pile": [True, False],
    "challenge.next_player": FORMULAS["challenge.next_player"],
    "ending.style": ["first_out", "last_holder_loses"],
    "ending.turn_start_win": FORMULAS["ending.turn_start_win"] + ["holds(required) >= 5"],
    "ending.turn_cap": [40, 200, 1000],
}


def variant(i: int, tries: int = 60) -> dict[str, Any]:
    """Variant number `i` (the same on every run): a shipped rulebook extended by a house rule changing one to
    five fields of VARIANT_FIELDS (the way the issue on one rule, one meaning in both engines made its 265)."""
    root = Path(__file__).resolve().parent.parent / "rulebooks"
    shipped = sorted(p.stem for p in root.glob("*.yaml"))
    rng = random.Random(f"rulebook-variant/{i}")
    for _ in range(tries):
        base = _pick(rng, shipped)
        data: dict[str, Any] = {"rulebook": f"variant-{i}", "title": "A variant", "source": "tests/small_rulebooks.py",
                                "extends": base}
        for name in rng.sample(sorted(VARIANT_FIELDS), rng.randint(1, 5)):
            section, key = name.split(".")
            data.setdefault(section, {})[key] = _pick(rng, VARIANT_FIELDS[name])
        passing = data.get("passing", {})
        if passing.get("allowed") is True:
            passing.setdefault("all_pass_leader", "last_player")
        if valid(data):
            return data
    raise ValueError(f"no valid variant drawn for number {i} in {tries} tries")
