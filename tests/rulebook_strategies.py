"""Generated rulebooks over every field and value of the language.

One builder, two sources of choices: a hypothesis strategy (`rulebooks()`, for the suite) and a plain
generator (`generate(seed)`, for long campaigns in benchmarks/generated_campaign.py). Each draws a
rulebook as YAML data that `cheatdsl check` accepts: fields that need others are drawn together (a
draw penalty with a stock, `after_last` with a sequence, an all-pass round end with passing), so the
draws are valid by construction; `valid()` is the judge, and the few that are not (a table too small to
deal, say) are redrawn.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml
from hypothesis import strategies as st

T = TypeVar("T")

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["clubs", "diamonds", "hearts", "spades"]
FOLLOWS = ["next(previous)", "prev(previous)", "{prev(previous), previous, next(previous)}", "previous", "any",
           "above(previous)", "{previous, next(previous)}"]
NEXT_PLAYERS = ["left(claimant)", "winner", "loser", "if caught then challenger else claimant", "left(loser)",
                "challenger", "right(claimant)"]


class Chooser:
    """Where choices come from: `pick` one of `options`, an integer in lo..hi, a coin with chance p."""

    def __init__(self, pick: Callable[[Sequence[Any]], Any], integer: Callable[[int, int], int]) -> None:
        self.pick = pick
        self.integer = integer

    def coin(self, p: float = 0.5) -> bool:
        return self.integer(0, 99) < int(p * 100)


def from_random(rng: random.Random) -> Chooser:
    return Chooser(lambda xs: xs[rng.randrange(len(xs))], rng.randint)


def from_draw(draw: st.DrawFn) -> Chooser:
    return Chooser(lambda xs: draw(st.sampled_from(list(xs))),
                   lambda lo, hi: draw(st.integers(min_value=lo, max_value=hi)))


def build(c: Chooser, name: str = "generated", safe: bool = False) -> dict[str, Any]:
    """One rulebook as YAML data, every field drawn from its values. `safe` leaves out the one combination
    that hangs the interpreter today: a sequence that stops (`after_last: nothing`) with plays of any size
    (`cards: 1..` or `1..8`); once the seat to play may claim nothing, listing its plays walks every subset
    of its hand."""
    rb: dict[str, Any] = {"rulebook": name, "title": f"Generated table {name}", "source": "tests/rulebook_strategies.py"}
    lo = c.integer(2, 5)
    hi = lo + c.integer(0, 3)
    rb["players"] = f"{lo}..{hi}" if hi > lo else lo
    ranks = RANKS if c.coin(0.7) else RANKS[:c.integer(6, 12)]
    suits = SUITS if c.coin(0.8) else SUITS[:c.integer(2, 3)]
    deck: dict[str, Any] = {}
    if ranks is not RANKS:
        deck["ranks"] = list(ranks)
    if suits is not SUITS:
        deck["suits"] = list(suits)
    deck["packs"] = c.pick([1, 1, 2, "if players >= 5 then 2 else 1"])
    jokers = c.pick([0, 0, 0, 1, 2, 4])
    if jokers:
        deck["jokers"] = jokers
        deck["jokers_wild"] = c.coin(0.7)
    if c.coin(0.1) and len(ranks) >= hi + 2:
        deck["ranks_used"] = "players + 2"
    rb["deck"] = deck
    card = c.coin(0.12)
    stock = False
    deal: dict[str, Any] = {"style": c.pick(["all", "all", "equal", "fixed"])}
    if deal["style"] == "fixed":
        deal["hand_size"] = c.integer(3, 7)
    if deal["style"] == "equal" and c.coin(0.3):
        deal["minimum_hand"] = c.integer(1, 3)
    if c.coin(0.15):
        deal["set_aside"] = c.pick([1, 2, "players"])
    if deal["style"] != "all":
        stock = c.coin(0.6)
        deal["surplus"] = "stock" if stock else "aside"
    rb["deal"] = deal
    hearts = "hearts" in suits
    first_players = ["left(dealer)", "seat(0)", "seat(1)", "right(dealer)"]
    if hearts:
        first_players.append("if dealt(ace of hearts) then holder(ace of hearts) else left(dealer)")
    rb["setup"] = {"dealer": c.pick(["lot", "seat_zero"]), "first_player": c.pick(first_players),
                   "direction": c.pick(["clockwise", "anticlockwise"])}
    claim: dict[str, Any] = {}
    if card:
        claim["kind"] = "card"
        claim["cards"] = 1
        claim["first"] = c.pick(["any", f"ace of {suits[0]}"])
        claim["follow"] = c.pick(["next(previous)", "{prev(previous), next(previous)}", "above(previous)", "any"])
    else:
        claim["cards"] = c.pick(["1..4", "1..4", "1", "1..", "1..8", "1..3"])
        counts = ["exact", "any"] + ([] if claim["cards"] == "1" else ["extra_allowed"])
        claim["count"] = c.pick(counts)
        claim["first"] = c.pick(["aces", "any", "{aces, twos}"])
        claim["follow"] = c.pick(FOLLOWS)
    if "next(" in claim["follow"] or "prev(" in claim["follow"]:
        stops = not (safe and claim.get("cards") in ("1..", "1..8"))
        claim["after_last"] = c.pick(["wrap", "wrap", "wrap"] + (["nothing"] if stops else []))
    if c.coin(0.3):
        claim["lead"] = c.pick(["any", claim["first"]])
    passing_allowed = c.coin(0.35)
    ends = []
    if c.coin(0.25):
        ends.append("challenge")
    if passing_allowed and c.coin(0.5):
        ends.append("all_pass")
    if ends:
        claim["round_ends"] = ends
    rb["claim"] = claim
    passing: dict[str, Any] = {"allowed": passing_allowed}
    if passing_allowed:
        if c.coin(0.3):
            passing["when"] = "holds(required) == 0"
        passing["leader_may_pass"] = c.coin(0.2)
        passing["all_pass_pile"] = c.pick(["discarded", "stays"])
        passing["all_pass_leader"] = c.pick(["last_player", "left(last_player)"])
    rb["passing"] = passing
    challenge: dict[str, Any] = {}
    if c.coin(0.25):
        kinds = [{"name": "cheat", "call": "Cheat!", "test": "played"}]
        if c.coin(0.6):
            kinds.append({"name": "force", "call": "Show me!", "test": "hand",
                          **({"allowed_when": f"players >= {lo + 1}"} if c.coin(0.5) else {})})
        if c.coin(0.2):
            kinds[0]["allowed_when"] = f"players <= {hi}"
        challenge["kinds"] = kinds
    challenge["window"] = c.pick(["before_next_play", "count_of_three"])
    challenge["priority"] = c.pick(["first_clockwise", "offered_in_turn", "first_caller"])
    challenge["reveal"] = c.pick(["play", "play", "top_card"])
    challenge["show_pile"] = c.coin(0.2)
    penalty: dict[str, Any] = {"kind": "draw" if stock and c.coin(0.6) else "take_pile"}
    if penalty["kind"] == "draw":
        penalty["draw"] = c.integer(1, 3)
        penalty["pile_after"] = c.pick(["stays", "discarded"])
        penalty["short_stock"] = c.pick(["nothing", "take_pile"])
    if c.coin(0.2):
        penalty["failed_call"] = "free"
    challenge["penalty"] = penalty
    challenge["next_player"] = c.pick(NEXT_PLAYERS)
    rb["challenge"] = challenge
    if not card and c.coin(0.3):
        sets: dict[str, Any] = {"size": c.pick(["copies", 4]), "mode": c.pick(["optional", "forced"])}
        if jokers:
            sets["naturals_only"] = c.coin(0.7)
        rb["sets"] = sets
    ending: dict[str, Any] = {"style": c.pick(["first_out", "first_out", "last_holder_loses"]),
                              "out_check": c.pick(["after_window", "after_window", "at_once"])}
    if c.coin(0.15):
        ending["turn_start_win"] = "hand == 1 and (leading or holds(required) == 1)"
    if c.coin(0.2):
        ending["turn_cap"] = c.pick([200, 400])
    if "sets" in rb and c.coin(0.4):
        ending["emptied_by_sets"] = c.pick(["out", "stays_in"])
    rb["ending"] = ending
    if c.coin(0.2):
        rb["variations"] = {"twisted": {"summary": "the claims run the other way",
                                        "changes": {"claim": {"follow": c.pick(["prev(previous)", "any"]),
                                                              "after_last": "wrap"}}}}
    return rb


def text_of(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def valid(data: dict[str, Any]) -> bool:
    """Whether `cheatdsl check` accepts the rulebook (no error; warnings allowed)."""
    from cheatdsl.load import compile_rulebook
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{data['rulebook']}.yaml"
        path.write_text(text_of(data))
        rb, d = compile_rulebook(str(path))
        return rb is not None and not d.has_errors()


def generate(seed: int, tries: int = 50, safe: bool = False) -> dict[str, Any]:
    """The valid rulebook of campaign number `seed` (the same on every run)."""
    rng = random.Random(f"rulebook/{seed}")
    for _ in range(tries):
        data = build(from_random(rng), f"generated-{seed}", safe)
        if valid(data):
            return data
    raise ValueError(f"no valid rulebook drawn for seed {seed} in {tries} tries")


@st.composite
def rulebooks(draw: st.DrawFn) -> dict[str, Any]:
    """A valid generated rulebook, as YAML data."""
    data = build(from_draw(draw), safe=True)
    from hypothesis import assume
    assume(valid(data))
    return data


# -- what is checked of each generated rulebook ----------------------------------------------------------

PROVED_IN_GAMES = ("card-conservation", "turn-order", "winner", "no-deadlock")


@dataclass
class Examined:
    """What became of one generated rulebook: each step's trouble, in words (empty lists: all is well)."""

    name: str
    players: int = 0
    failures: list[str] = field(default_factory=list)  # check, fmt or simulate went wrong
    internal: list[str] = field(default_factory=list)  # verify's internal errors
    contradictions: list[str] = field(default_factory=list)  # a proof that a game broke, or a game verify missed
    verdicts: dict[str, str] = field(default_factory=dict)
    slow: list[str] = field(default_factory=list)  # a step stopped by `step_seconds`
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not (self.failures or self.internal or self.contradictions)


def _sections(rb: Any) -> tuple[Any, ...]:
    return (rb.players, rb.deck, rb.deal, rb.setup, rb.claim, rb.passing, rb.challenge, rb.sets, rb.ending)


def round_trips(path: Path) -> str:
    """'' when the rulebook reads back the same through `fmt --to cheat` and `--to yaml`, else what differs."""
    from cheatdsl.syntax.loader import read_tree
    from cheatdsl.diagnostics import Diagnostics
    from cheatdsl.load import compile_rulebook
    from cheatdsl.syntax.emit import same_tree, to_dsl, to_yaml
    d = Diagnostics()
    tree = read_tree(str(path), d)
    if tree is None:
        return "the file does not read"
    base, _ = compile_rulebook(str(path))
    for suffix, text in ((".cheat", to_dsl(tree)), (".yaml", to_yaml(tree))):  # type: ignore[arg-type]
        other = path.with_name(f"{path.stem}-again{suffix}")
        other.write_text(text)
        again = read_tree(str(other), Diagnostics())
        if again is None or not same_tree(tree, again):
            return f"fmt to {suffix} reads back a different tree"
        rb, d2 = compile_rulebook(str(other))
        if rb is None or d2.has_errors() or _sections(rb) != _sections(base):
            return f"fmt to {suffix} compiles to different rules"
    return ""


def play_checked(game: Any, seed: int, bots: str, proved: set[str], turns: int = 600) -> list[str]:
    """One seeded game by `bots`, checked after every action against what verify proved."""
    from strategies import cards_everywhere, deck_of

    from cheatdsl.bots import make_bot
    from cheatdsl.engine import Ending, Phase
    from verifier.properties.witness import dealt
    n = game.players
    st_ = dealt(game, seed, seed % n if game.rules.dealer_by_lot else 0)
    rngs = [random.Random(f"{seed}/{bots}/{s}") for s in range(n)]
    players = [make_bot(bots, s, rngs[s]) for s in range(n)]
    deck = deck_of(game)
    out: list[str] = []
    out_with: dict[int, int] = {}
    while st_.phase is not Phase.TERMINAL and st_.turns < turns:
        seat = st_.current_player()
        if st_.is_chance_node():  # who of several callers called first
            st_.apply_action(st_.chance_outcome(random.Random(f"{seed}/{bots}/{st_.turns}")))
            continue
        st_.apply_action(players[seat].act(st_.view(seat)))
        if "card-conservation" in proved and cards_everywhere(st_) != deck:
            out.append(f"card-conservation proved, but game {seed} ({bots}) loses or copies a card")
        if "turn-order" in proved and st_.phase is Phase.PLAY and not st_.is_in(st_.current_player()):
            out.append(f"turn-order proved, but in game {seed} ({bots}) seat {st_.current_player()} plays while out")
        if "winner" in proved:  # a seat out never gets cards back (one may go out holding one, by turn_start_win)
            for s in st_.order_out():
                held = out_with.setdefault(s, st_.hand_size(s))
                if st_.hand_size(s) > held:
                    out.append(f"winner proved, but in game {seed} ({bots}) seat {s} gets cards back once out")
            r = st_.result()
            if r is not None and r.winner is not None and st_.order_out() and r.winner != st_.order_out()[0]:
                out.append(f"winner proved, but in game {seed} ({bots}) the winner is not the first seat out")
        if out:
            return out
    r = st_.result()
    if "no-deadlock" in proved and r is not None and r.ending is Ending.NO_LEGAL_ACTION:
        out.append(f"no-deadlock proved, but game {seed} ({bots}) ends with {r.reason}")
    return out


class Slow(Exception):
    """A step ran past its time (`examine(..., step_seconds=...)`)."""


def _alarm(seconds: float) -> Any:
    """A context that raises Slow in this (main) thread after `seconds`; 0 for none."""
    import contextlib
    import signal

    @contextlib.contextmanager
    def ctx() -> Any:
        if not seconds:
            yield
            return

        def ring(signum: int, frame: Any) -> None:
            raise Slow(f"still running after {seconds:g} s")
        old = signal.signal(signal.SIGALRM, ring)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    return ctx()


def examine(data: dict[str, Any], folder: Path, games: int = 4, verify_all_counts: bool = False,
            verify_seconds: float = 60.0, step_seconds: float = 0.0) -> Examined:
    """check, fmt, simulate and verify one rulebook, and hold verify's proofs against played games; with
    `step_seconds`, simulate and the games each stop there (a finding: `slow`)."""
    import time

    from cheatdsl.engine import Game
    from cheatdsl.load import compile_rulebook
    from cheatdsl.simulate.runner import simulate
    from verifier.runner import verify
    from verifier.properties.games import play_games
    from verifier.properties.verdict import Verdict

    out = Examined(str(data["rulebook"]))
    path = folder / f"{data['rulebook']}.yaml"
    path.write_text(text_of(data))
    t = time.perf_counter()
    rb, d = compile_rulebook(str(path))
    if rb is None or d.has_errors():
        out.failures.append("check: " + d.render())
        return out
    diff = round_trips(path)
    if diff:
        out.failures.append(f"fmt: {diff}")
    out.seconds["check+fmt"] = time.perf_counter() - t
    n = out.players = rb.players.counts()[0]
    t = time.perf_counter()
    try:
        with _alarm(step_seconds):
            simulate(rb, n, games, seed=0, bots="random", turn_cap=300)
    except Slow as exc:
        out.slow.append(f"simulate: {exc}")
    except Exception as exc:  # noqa: BLE001 - any exception is a finding
        out.failures.append(f"simulate: {type(exc).__name__}: {exc}")
    out.seconds["simulate"] = time.perf_counter() - t
    t = time.perf_counter()
    results = {x.result.id: x.result for x in verify(rb, None, None if verify_all_counts else (n,),
                                                     heavy_seconds=verify_seconds)}
    out.seconds["verify"] = time.perf_counter() - t
    out.verdicts = {pid: r.verdict.value for pid, r in results.items()}
    out.internal = [f"{pid}: {r.summary}" for pid, r in results.items() if r.verdict is Verdict.ERROR]
    proved = {pid for pid in PROVED_IN_GAMES if out.verdicts.get(pid) == "proved"}
    t = time.perf_counter()
    game = Game(rb, n)
    try:
        with _alarm(step_seconds):
            for seed in range(games):
                for bots in ("random", "greedy"):
                    out.contradictions += play_checked(game, seed, bots, proved)
            met = play_games(game, ("stuck", "loop"), games=8, actions=20_000)
    except Slow as exc:
        out.slow.append(f"games: {exc}")
        return out
    killed = [pid for pid, r in results.items() if "killed after" in r.summary]
    if killed:  # verify ran out of time before these: slow, not a contradiction
        out.slow.append(f"verify: killed after {verify_seconds:g} s before {', '.join(killed)}")
        return out
    if "stuck" in met.witnesses and out.verdicts.get("no-deadlock") != "refuted":
        out.contradictions.append(f"a game is stuck, but no-deadlock is {out.verdicts.get('no-deadlock')}")
    if "loop" in met.witnesses and out.verdicts.get("termination") != "refuted":
        out.contradictions.append(f"a game comes back to a position, but termination is {out.verdicts.get('termination')}")
    out.seconds["games"] = time.perf_counter() - t
    return out
