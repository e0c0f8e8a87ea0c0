"""Games as a search strategy: seeded games played by the interpreter's bots, read for what they show.

Beside the solver's searches, games dealt from fixed seeds are played to their end (or a cap of turns)
by line-ups of bots, `random` among them. What a game meets is a witness the interpreter has already
played: a seat with no legal action refutes no-deadlock; a whole position met twice refutes termination
(the moves between can be made again and again); a game won by a seat shows that seat can win; a true
claim of a rank whose set is out refutes discards. Seeds, line-ups and caps are fixed, so the same
rulebook always plays the same games, whatever the machine.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cheatdsl.bots import BOTS, make_bot
from cheatdsl.engine import (
    ACCEPT, CHANCE, PASS, Action, DiscardSet, Ending, Game, IllegalAction, Pass, Phase, Play, State,
)
from cheatdsl.engine.game import NO_CAP
from cheatdsl.simulate.engine import Engine
from cheatdsl.words.notation import card_text, claim_text, rank_words

from .gaps import gap_text, round_gaps
from .witness import ACCEPTED, Said, Witness, choose, dealt, steps_text, win_expected, words_text

_PLAY, _RESPOND, _TERMINAL = Phase.PLAY, Phase.RESPOND, Phase.TERMINAL

# Line-ups, each for every seat (a name) or seat by seat (cycled round the table), with a challenge rate.
LINEUPS: tuple[tuple[tuple[str, ...], float], ...] = (
    (("random",), 0.0), (("greedy",), 0.15), (("random", "greedy"), 0.3), (("honest",), 0.15),
    (("greedy",), 0.0), (("random", "counter", "honest"), 0.15), (("greedy",), 0.6), (("counter",), 0.15),
)
# A true claim of a dead rank needs sets out and wild cards claimed as that rank, which greedy and honest seats
# seldom choose: one challenge-hungry greedy table, then tables where a seat plays at random.
LINEUPS_FOR: dict[str, tuple[tuple[tuple[str, ...], float], ...]] = {
    "dead-claim": ((("greedy",), 0.6), (("random", "counter", "honest"), 0.9), (("random", "honest"), 0.3),
                   (("random", "greedy"), 0.3)),
}
GAMES = 48  # games per table at most (line-ups in turn, seed by seed)
TURNS = 1500  # plays and passes per game at most
ACTIONS = 120_000  # every decision of every game at one table at most
LOOK = ("stuck", "loop", "wins", "dead-claim", "void")
DRAINED = {"stuck", "void", "loop"}  # what games steered to run the stock dry are played for too (`play_games`)
DRAIN = -1  # the target of a game steered towards no seat's win, to run the stock dry (`_Steered`)
DRAIN_GAMES = 6  # such games played where bots' games have not shown what is looked for
DRAIN_ACTIONS = 30_000  # every decision of those games at one table at most
STEERED_GAMES = 16  # games steered towards one seat's win at most
STEERED_RATES = (0.0, 0.1, 0.25, 0.5)  # how often a steered seat acts at random instead, game by game
STEERED_ACTIONS = 60_000  # every decision of the steered games for one seat at most


@dataclass
class Found:
    """What the games at one table met: the first witness of each kind looked for, the seats that won where
    wins are looked for (each with the game it won: seed, dealer, bots seat by seat, challenge rate, turns
    and actions), the games."""

    witnesses: dict[str, Witness] = field(default_factory=dict)
    wins: dict[int, Witness] = field(default_factory=dict)
    played: dict[int, dict[str, Any]] = field(default_factory=dict)
    drained: set[str] = field(default_factory=set)  # the witnesses found in games steered to run the stock dry
    games: int = 0
    actions: int = 0
    stuck: int = 0
    ended: int = 0


def _key(st: State) -> tuple[Any, ...]:
    """The whole position at the start of a turn, everything the rest of the game can read (`State.position`, as
    the exhaustive judge keys it): whether the last play may still be challenged too, and who answers it. Who
    was dealt each card is kept: it never changes within a game, so it hides no loop. (A key without the open
    window took a position where a pass lets the last play be challenged for one where it no longer may, and
    refuted termination where every game ends: found by the differential campaign, generated rulebook 2937.)"""
    return st.position(turns=False, holders=True)


def _now(st: State) -> dict[str, Any]:
    g = st.game
    return {"hand_sizes": {s: st.hand_size(s) for s in range(g.players)}, "to_play": st.current_player(),
            "pile": st.pile_size(), "previous": claim_text(g, st.previous),
            "hands": {s: [card_text(g, c) for c in st.hand_cards(s)] for s in range(g.players)},
            "stock": len(st.stock())}


class Run:
    """One game being played: the actions (seat by seat) and the play in words, kept as it goes and written
    out as scenario steps and sentences only for a witness (`steps`, `words`)."""

    def __init__(self, game: Game, seed: int, dealer: int, names: tuple[str, ...], rate: float,
                 steer: int | None = None, start: tuple[dict[str, Any], State] | None = None) -> None:
        self.game = game
        # A seeded deal, or (with `start`) a position already entered and its description for a witness.
        self.start, self.state = ({"seed": seed, "dealer": dealer}, dealt(game, seed, dealer)) if start is None \
            else start
        n = game.players
        self.names = [names[s % len(names)] for s in range(n)]
        self.rate = rate
        # How the game was played, in words for a witness.
        self.by = ("played by bots" if steer is None else "steered so that every play is a lie and challenged"
                   if steer == DRAIN else f"steered towards seat {steer}'s win")
        self.bots: list[Any] = [make_bot(names[s % len(names)], s, random.Random(f"verify/{seed}/{names}/{rate}/{s}"),
                              **({"challenge_rate": rate} if "challenge_rate" in BOTS[names[s % len(names)]].options
                                 else {}))
                     for s in range(n)] if steer is None else [
            _Steered(self.state, s, steer, random.Random(f"steer/{seed}/{steer}/{rate}/{s}"), rate) for s in range(n)]
        self.views = [self.state.view(s) for s in range(n)]
        self.records = self.state.records
        self.chance = random.Random(f"verify/{seed}/{names}/{rate}/chance")
        self.moves: list[Any] = []  # (seat, action), or a checkpoint (a dict)
        self.said: list[Said] = []
        self._said: tuple[int, Play, None] | None = None  # the play last made, until its answer is heard
        self.heard = False

    @property
    def steps(self) -> list[Any]:
        return steps_text(self.game, self.moves)

    @property
    def words(self) -> list[str]:
        return words_text(self.game, self.said)

    def act(self) -> Any:
        """The bot to act chooses (or chance draws who of several callers called first), and the action is
        applied and written down; `heard` tells whether it settled a challenge."""
        st = self.state
        seat = st.to_act
        action = st.chance_outcome(self.chance) if seat == CHANCE else self.bots[seat].act(self.views[seat])
        return self.apply(seat, action)

    def apply(self, seat: int, action: Any) -> Any:
        """`action` of `seat` (CHANCE: who of several callers called first) applied and written down."""
        st = self.state
        self.moves.append((seat, action))
        records = self.records
        reveals = len(records)
        st.apply_action(action)
        kind = action.__class__  # every action class is final: `is` as isinstance
        if kind is Play:
            self._said = (seat, action, None)
            if st.phase is not _RESPOND:
                self.said.append(self._said)
        elif kind is Pass:
            self.said.append((seat, None, None))
        elif kind is DiscardSet:
            self.said.append(f"seat {seat} discards a set of {rank_words(self.game, action.rank)}")
        if len(records) > reveals:
            self.heard = True
            last = self._said
            self.said.append((None, None, records[-1]) if last is None else (last[0], last[1], records[-1]))
            self._said = None
        else:
            self.heard = False
            if self._said is not None and kind is not Play and st.phase is not _RESPOND and not st.callers():
                self.said.append((self._said[0], self._said[1], ACCEPTED))
                self._said = None
        if st.phase is _TERMINAL:
            res = st.result()
            if res is not None:
                self.said.append(f"the game ends: {res.reason}")
        return action

    def witness(self, prop: str, expect: dict[str, Any], summary: str, last: int = 3) -> Witness:
        return Witness(prop, self.game.players, dict(self.start), self.steps, expect,
                       words_text(self.game, self.said[-last:]), summary)


def _stuck(st: State) -> bool:
    r = st.result()
    return st.phase is Phase.TERMINAL and r is not None and r.ending is Ending.NO_LEGAL_ACTION


def _winner(st: State) -> int | None:
    r = st.result()
    if r is not None and r.winner is not None and not r.capped:
        return r.winner
    order = st.order_out()
    return order[0] if order and not st.game.rules.first_out else None


def play_games(game: Game, look: Iterable[str] = LOOK, games: int = GAMES, turns: int = TURNS,
               actions: int = ACTIONS, engine: Engine = Engine.AUTO) -> Found:
    """Seeded games at one table, stopped once every kind of witness in `look` is found (each seat's win
    for "wins"), or the games, turns or actions allowed are spent. Unless `engine` is PYTHON, a stuck game
    or a seat's win these games did not show is then looked for in games on the compiled kernel
    (`compiled_games`)."""
    wanted = set(look)
    found = Found()
    n = game.players
    lineups = LINEUPS_FOR.get(next(iter(wanted)), LINEUPS) if len(wanted) == 1 else LINEUPS
    for i in range(games):
        if not _wanting(wanted, found, n) or found.actions >= actions:
            break
        names, rate = lineups[i % len(lineups)]
        seed = i // len(lineups)
        run = Run(game, seed, seed % n if game.rules.dealer_by_lot else 0, names, rate)
        found.games += 1
        _play(run, wanted, found, turns, actions)
    if wanted & DRAINED:
        cap = found.actions + DRAIN_ACTIONS
        for seed in range(DRAIN_GAMES):
            if not _wanting(wanted, found, n) or found.actions >= cap:
                break
            run = Run(game, seed, seed % n if game.rules.dealer_by_lot else 0, ("drain",),
                       STEERED_RATES[seed % len(STEERED_RATES)], steer=DRAIN)
            found.games += 1
            before = set(found.witnesses)
            _play(run, wanted, found, turns, cap)
            found.drained |= set(found.witnesses) - before
    if engine is not Engine.PYTHON and _wanting(wanted, found, n):
        from .compiled_games import kernel_games
        kernel_games(game, wanted, found)
    return found


def _wanting(wanted: set[str], found: Found, n: int) -> bool:
    return any(w not in found.witnesses for w in wanted - {"wins"}) or ("wins" in wanted and len(found.wins) < n)


def _play(run: Run, wanted: set[str], found: Found, turns: int, actions: int) -> None:
    st, g = run.state, run.game
    seen: dict[tuple[Any, ...], tuple[int, int]] = {}
    # With a turn cap the count of turns is part of the position: nothing comes back.
    loop = "loop" in wanted and "loop" not in found.witnesses and g.turn_limit >= NO_CAP
    dead_claim = "dead-claim" in wanted and "dead-claim" not in found.witnesses
    void = "void" in wanted and "void" not in found.witnesses
    gaps = round_gaps(g.rules) if "gap" in wanted and "gap" not in found.witnesses else frozenset()
    act = run.act
    done = found.actions
    while done < actions and st.phase is not _TERMINAL and st.turns < turns:
        if gaps:
            act()
            done += 1
            if st.rule_gaps & gaps:
                met = min(st.rule_gaps & gaps, key=lambda gap: gap.value)
                found.witnesses["gap"] = run.witness(
                    "round-rank", {"rule_gaps": sorted(gap.value for gap in st.rule_gaps)},
                    f"{st.turns} turns from a deal, {run.by}: {gap_text(g.rulebook, met)}", last=2)
                break
            continue
        if void and run.heard and run.records[-1].taken == 0 and run.records[-1].paid:
            r = run.records[-1]
            found.witnesses["void"] = run.witness(
                "challenge-resolution", {"picked_up": r.loser, "stock": len(st.stock()),
                                         "hand_sizes": {s: st.hand_size(s) for s in range(g.players)}},
                f"{st.turns} turns from a deal, {run.by}: seat {r.loser} "
                "loses a challenge and picks up nothing", last=2)
            void = False
        if loop and st.phase is _PLAY:
            k = _key(st)
            if k in seen:
                _looped(run, found, *seen[k])
                loop = False
            else:
                seen[k] = (len(run.moves), len(run.said))
        if not dead_claim:
            act()
            done += 1
            continue
        # The sets out before a challenge is answered (sets are only ever added: the first `sets` of them).
        sets = st.set_count()
        act()
        done += 1
        if sets and run.heard:
            r = run.records[-1]
            if not r.caught and r.claim % g.rules.rank_count in {st.discarded_set(i)[1] for i in range(sets)}:
                expect = {"discarded": [rank_words(g, x) for _, x, _ in st.discarded_sets()],
                          "previous": claim_text(g, st.previous), "caught": False}
                found.witnesses["dead-claim"] = run.witness(
                    "discards", expect, f"{st.turns} turns from a deal, {run.by}", last=1)
                dead_claim = False
    found.actions = done
    ended(run, wanted, found)


def ended(run: Run, wanted: set[str], found: Found) -> None:
    """What `run`'s game shows once over, kept in `found`: a stuck game, a seat's win (the first of each)."""
    st, g = run.state, run.game
    if st.phase is not Phase.TERMINAL:
        return
    found.ended += 1
    if _stuck(st):
        found.stuck += 1
        if "stuck" in wanted and "stuck" not in found.witnesses:
            reason = st.result().reason  # type: ignore[union-attr]
            found.witnesses["stuck"] = run.witness(
                "no-deadlock", {"over": True, "capped": True, "winner": None},
                f"{st.turns} turns from a deal, {run.by}: {reason}", last=2)
    seat = _winner(st)
    if seat is not None and "wins" in wanted and seat not in found.wins:
        how = (f"played by bots ({', '.join(run.names)}; seed {run.start['seed']})" if "seed" in run.start
               else run.by)
        found.wins[seat] = run.witness("winnability", win_expected(st, seat),
                                       f"seat {seat} {'wins' if g.rules.first_out else 'goes out first'} after "
                                       f"{st.turns} turns, {how}")
        found.played[seat] = {**{k: v for k, v in run.start.items() if k != "position"}, "bots": list(run.names),
                              "challenge_rate": run.rate, "turns": st.turns, "actions": len(run.moves)}


class _Steered:
    """A seat's player in a game steered towards `target`'s win. It sees the whole table (it is the search's
    hand, not a bot): the target plays as many cards as it may, truly where it can; the others pass where
    they may, or play the fewest cards, a lie where they can; a seat challenges exactly when the challenge
    would make a seat other than the target pick up cards (tried on a copy of the game). With `rate`, it
    acts at random instead (a legal action), which finds the detours a plain steer misses, such as the
    target picking up a pile to make its hand fit the play sizes.

    With no target (`DRAIN`), every seat plays the fewest cards, a lie where it can, and every play is
    challenged: the game runs long, the stock runs dry and hands change, which is where a challenge that
    costs nothing or a seat with no legal action is met."""

    def __init__(self, state: State, seat: int, target: int, rng: random.Random, rate: float) -> None:
        self.state = state
        self.seat = seat
        self.target = target
        self.rng = rng
        self.rate = rate

    def act(self, view: Any) -> Action:
        st = self.state
        phase = st.phase
        wander = self.rate > 0 and self.rng.random() < self.rate
        if phase is _PLAY:
            return (self._any_play() if wander else self._play()) or self._any_play() or PASS
        if phase is _RESPOND and not wander:
            return self._respond()
        legal = [a for a in st.legal_actions() if phase is not _RESPOND or st.is_legal(a)]
        return self.rng.choice(legal) if legal else ACCEPT

    def _legal(self, action: Action) -> Action | None:
        return action if self.state.is_legal(action) else None

    def _play(self) -> Action | None:
        st, g = self.state, self.state.game
        rules = g.rules
        held = st.hand_size(self.seat)
        if self.seat != self.target:
            if st.can_pass() and self.target != DRAIN:
                return PASS
            sizes = range(rules.min_cards, held + 1)
        else:
            top = held if rules.max_cards is None else min(rules.max_cards, held)
            sizes = range(top, rules.min_cards - 1, -1)
        for k in sizes:
            for truth in ((True, None) if self.seat == self.target else (False, None)):
                picked = choose(g, st, k, 0, truth)
                if picked is not None:
                    play = self._legal(Play(picked[0], picked[1], k))
                    if play is not None:
                        return play
        return None

    def _any_play(self) -> Action | None:
        st = self.state
        if st.can_pass() and self.rng.random() < 0.3:
            return PASS
        try:
            return st.sample_play(self.rng)
        except IllegalAction:
            return PASS if st.can_pass() else None

    def _respond(self) -> Action:
        st = self.state
        seen = st.reveal_count()
        for call in st.game.responses[1:]:
            trial = st.clone()
            try:
                trial.apply_action(call)
            except IllegalAction:
                continue
            if self.target == DRAIN:
                return call
            if trial.reveal_count() > seen:
                r = trial.reveal(seen)
                if r.loser != self.target and r.taken > 0:
                    return call
        return ACCEPT


def steered_wins(game: Game, seats: Iterable[int], games: int = STEERED_GAMES, turns: int = TURNS,
                 actions: int = STEERED_ACTIONS) -> dict[int, tuple[Witness, dict[str, Any]]]:
    """Seeded games steered towards each of `seats`' win (`_Steered`), played by the interpreter: for each seat
    some such game wins, its witness and how it was played (seed, dealer, random rate, turns, actions). A
    game steered for one seat and won by another counts for that one too."""
    n = game.players
    out: dict[int, tuple[Witness, dict[str, Any]]] = {}
    for target in seats:
        done = 0
        for i in range(games):
            if target in out or done >= actions:
                break
            rate = STEERED_RATES[i % len(STEERED_RATES)]
            seed = i // len(STEERED_RATES)
            run = Run(game, seed, seed % n if game.rules.dealer_by_lot else 0, ("steered",), rate, steer=target)
            st = run.state
            act = run.act
            first_out = game.rules.first_out
            # Played until the winner is known: the game's end, or (where the last holder loses) the first seat out.
            while (done < actions and st.phase is not _TERMINAL and st.turns < turns
                   and (first_out or not st.order_out())):
                act()
                done += 1
            seat = _winner(st)
            if seat is None or seat in out:
                continue
            out[seat] = (run.witness("winnability", win_expected(st, seat),
                                     f"seat {seat} {'wins' if game.rules.first_out else 'goes out first'} after "
                                     f"{st.turns} turns of a game steered towards seat {target}'s win (seed {seed})"),
                         {**run.start, "steered": target, "random_rate": rate, "turns": st.turns,
                          "actions": len(run.moves)})
    return out


def _looped(run: Run, found: Found, mark: int, said: int) -> None:
    """The position now was met before, `mark` steps in: a checkpoint there and here makes the witness."""
    st = run.state
    now = _now(st)
    steps = steps_text(run.game, run.moves[:mark] + [{"expect": now}] + run.moves[mark:])
    loop = words_text(run.game, run.said[said:])
    words = loop[:4] + ([f"... {len(loop)} moves in all, then the same position again"] if len(loop) > 4 else [])
    w = Witness("termination", run.game.players, dict(run.start), steps, now, words,
                f"a position met twice in a game {run.by}: the moves between can be made again and again "
                f"({len(run.moves) - mark} actions in the loop)")
    found.witnesses["loop"] = w


def fairness_game(game: Game, offset: int, never: list[str], turns: int, seed: int = 0) -> Witness | None:
    """A dealt game played with no challenge (greedy bots that never call) for `turns` turns: at each turn of
    the seat `offset` places after the first player, a checkpoint names the claim it is asked for. None when
    the game cannot be played so (a challenge or a pass moves the turn, or it ends before that seat plays)."""
    run = Run(game, seed, 0, ("greedy",), 0.0)
    st, g = run.state, game
    asked: list[str] = []
    seat = None
    for t in range(turns):
        if st.phase is not Phase.PLAY:
            break
        if t % g.players == offset:
            seat = st.current_player() if seat is None else seat
            if st.current_player() != seat or len(st.required_claims()) != 1:
                return None
            said = claim_text(g, st.required_claims()[0])
            run.moves.append({"expect": {"to_play": seat, "required": said}})
            asked.append(said)
        before = st.reveal_count()
        if isinstance(run.act(), Pass):
            return None
        while st.phase is not Phase.PLAY and st.phase is not Phase.TERMINAL:
            run.act()
        if st.reveal_count() != before:
            return None
    if seat is None or not asked:
        return None
    shown = ", ".join(never[:6]) + (" ..." if len(never) > 6 else "")
    return Witness("seat-fairness", g.players, dict(run.start), run.steps, {"over": st.phase is Phase.TERMINAL}, [f"seat {seat} is asked for {', '.join(asked[:13])}"
                                                       f"{' ...' if len(asked) > 13 else ''}",
                                                       f"and never for {shown}"],
                   f"a game with no challenge: seat {seat} plays {len(asked)} turns and is never asked for {shown}")


def pass_met(game: Game, games: int = 8, turns: int = 400) -> bool:
    """Whether a seat may pass at some turn of a few seeded games played by bots (a play fact that
    shortcuts about passing rely on). False says only that no such turn was met, not that none exists."""
    for i in range(games):
        names, rate = LINEUPS[i % len(LINEUPS)]
        seed = i // len(LINEUPS)
        run = Run(game, seed, seed % game.players if game.rules.dealer_by_lot else 0, names, rate)
        st = run.state
        while st.phase is not _TERMINAL and st.turns < turns:
            if st.phase is _PLAY and st.can_pass():
                return True
            run.act()
    return False


def asked_pairs(game: Game, want: set[tuple[int, int]] | None = None, games: int = 24, turns: int = 400,
                any_of: set[tuple[int, int]] | None = None) -> set[tuple[int, int]]:
    """The (seat counted from the first player in turn order, claim) pairs met in a few seeded games played by
    bots: a seat to play asked for that one claim while every seat is still in (a play fact seat fairness
    rests on); the games stop once every pair of `want` is met, or any pair of `any_of`. A pair missing says
    only that no such turn was met, not that none exists."""
    rules = game.rules
    n = game.players
    out: set[tuple[int, int]] = set()
    for i in range(games):
        names, rate = LINEUPS[i % len(LINEUPS)]
        seed = i // len(LINEUPS)
        run = Run(game, seed, seed % n if rules.dealer_by_lot else 0, names, rate)
        st = run.state
        first = st.current_player() if st.phase is _PLAY else -1
        while first >= 0 and st.phase is not _TERMINAL and st.turns < turns:
            if st.phase is _PLAY and st.players_in == n and len(st.required) == 1:
                pair = (((st.current_player() - first) * rules.step) % n, st.required[0])
                out.add(pair)
                if (want is not None and want <= out) or (any_of is not None and pair in any_of):
                    return out
            run.act()
    return out
