"""The judge's verdicts at one table, read off the exploration (`explore.py`).

Every verdict says what it rests on: "decided over all 14,085 states from 7 deals" where the search was
complete; a refutation met before the budget ran out stands too (its game is real), while a property
that needs every state seen gets no verdict from an incomplete search (None: the symbolic verifier's
stands). Table facts about the claim and deck rules (rank-cycle, ranks-exist, deal, consistency) are not
the judge's. Round-rank is read off the gaps the interpreter filled (`State.rule_gap`): a seat formula that
named no seat to lead, or a new round with no claim to lead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cheatdsl.engine import Action, Game

from ..encoding.graph import ClaimGraph, claim_graph
from ..encoding.subject import Subject
from ..properties.gaps import gap_text
from ..properties.verdict import Result, not_applicable, proved, refuted
from .deals import Deal
from .explore import Exploration, Step
from .rotation import turned_move
from .witness import witness

# The properties the judge decides from play.
JUDGED = ("seat-fairness", "claim-threshold", "card-conservation", "discards", "no-deadlock", "turn-order",
          "termination", "winner", "winnability", "challenge-priority", "challenge-resolution", "round-rank")


def evidence(x: Exploration) -> str:
    """What a verdict of a complete search rests on, in words."""
    turned = " (each state once for every turn of the table)" if x.turns else ""
    return f"decided over all {x.states:,} states{turned} from {x.deals:,} deals"


def _details(x: Exploration) -> dict[str, Any]:
    turned = ", each once for every turn of the table" if x.turns else ""
    rests = (f"every state reachable from every deal ({x.states:,} states{turned}, {x.deals:,} deals), stepped by "
             "the interpreter" if x.complete else
             f"the {x.states:,} states met before the search stopped ({x.stopped})")
    return {"judge": {"states": x.states, "deals": x.deals, "edges": x.edges, "complete": x.complete,
                      "seconds": round(x.seconds, 3), **({"stopped": x.stopped} if x.stopped else {})},
            "rests_on": [rests]}


class Judge:
    """The verdicts of one exploration, each with its witness where one is a game."""

    def __init__(self, subject: Subject, n: int, x: Exploration) -> None:
        self.subject = subject
        self.n = n
        self.x = x
        self.game: Game = x.game
        self.rules = x.game.rules

    # -- helpers ---------------------------------------------------------------------------------

    def _decided(self, text: str) -> str:
        return f"{text} ({evidence(self.x)})"

    def _shown(self, pid: str, step: Step, summary: str, expect: dict[str, Any],
               extra: tuple[int, Action] | None = None, **details: Any) -> dict[str, Any]:
        """Details holding the witness game of `step` (or why there is none)."""
        deal, moves = self.x.path(step)
        if extra is not None:
            moves.append(extra)
        return self._game_details(pid, deal, moves, expect, summary, **details)

    def _game_details(self, pid: str, deal: Deal, moves: list[tuple[int, Action]], expect: dict[str, Any],
                      summary: str, **details: Any) -> dict[str, Any]:
        """Details holding the witness game of `moves` from `deal` (or why there is none)."""
        w = witness(pid, self.game, deal, moves, expect, summary)
        out = {**_details(self.x), **details}
        if isinstance(w, str):
            out["no_play"] = w
        else:
            out["witness"] = w.as_json()
        return out

    def _refuted(self, pid: str, step: Step, summary: str, expect: dict[str, Any], **details: Any) -> Result:
        return refuted(pid, f"{summary} (a game from a deal, found by the exhaustive judge)",
                       **self._shown(pid, step, summary, expect, **details))

    def _safety(self, pid: str, step: Step | None, bad: str, good: str, expect: dict[str, Any]) -> Result | None:
        if step is not None:
            return self._refuted(pid, step, bad, expect)
        if not self.x.complete:
            return None
        return proved(pid, self._decided(good), **_details(self.x))

    # -- the properties --------------------------------------------------------------------------

    def decide(self, pid: str) -> Result | None:
        check: Callable[[], Result | None] = getattr(self, "_" + pid.replace("-", "_"))
        return check()

    def _card_conservation(self) -> Result | None:
        return self._safety("card-conservation", self.x.facts.lost_card, "a card is lost or copied",
                            f"hands, pile, stock, cards aside, cards gone and sets always make up the deck of "
                            f"{len(self.rules.deck_values)} cards", {})

    def _turn_order(self) -> Result | None:
        return self._safety("turn-order", self.x.facts.out_plays, "a seat that is out is asked to play",
                            "the seat to play is always a seat still in", {})

    def _no_deadlock(self) -> Result | None:
        return self._safety("no-deadlock", self.x.facts.stuck, "a seat is left with no legal action",
                            "the seat to act always has a legal action", {"over": True})

    def _winner(self) -> Result | None:
        f = self.x.facts
        if f.out_regains is not None:
            return self._refuted("winner", f.out_regains, "a seat that is out gets cards back", {})
        return self._safety("winner", f.wrong_winner, "a finished game has no single winner or loser",
                            "the first seat out is the winner and a seat out never gets cards back"
                            + ("" if self.rules.first_out else "; a finished game has exactly one loser"), {})

    def _challenge_resolution(self) -> Result | None:
        if not self.rules.kinds:
            return not_applicable("challenge-resolution", "no challenge may be made at this player count")
        held = "every challenge has one verdict and its loser picks up cards"
        if self.rules.failed_call_free:
            held = "every challenge has one verdict and a caught claimant picks up cards (a wrong call costs nothing)"
        return self._safety("challenge-resolution", self.x.facts.void, "the loser of a challenge picks up nothing",
                            held, {})

    def _discards(self) -> Result | None:
        if self.rules.set_size is None:
            return not_applicable("discards", "no sets leave the game (no `sets` rule)")
        return self._safety("discards", self.x.facts.dead_rank_true,
                            "a claim of a rank whose set is out is judged true",
                            "once a rank's set is out, every call on a claim of that rank wins", {})

    def _termination(self) -> Result | None:
        x = self.x
        pid = "termination"
        if x.cycle is not None:
            back_to, node, action = x.cycle
            _, lead = x.path((back_to, None))
            deal, moves = x.path((node, action))
            moves += _rounds_to_come_back(moves[len(lead):], self.n, x.cycle_turn)
            summary = (f"a play that never ends: after {len(lead)} actions from the deal, {len(moves) - len(lead)} "
                       "more bring back the same position, and can be made again for ever")
            details = self._game_details(pid, deal, moves, {}, summary, loop_from=len(lead),
                                         loop_length=len(moves) - len(lead))
            return refuted(pid, f"{summary} (found by the exhaustive judge)", **details)
        if not x.complete:
            return None
        return proved(pid, self._decided("every game from every deal ends: no position can come back"),
                      **_details(x))

    def _winnability(self) -> Result | None:
        x = self.x
        pid = "winnability"
        wins = x.seat_games()
        never = [s for s in range(self.n) if s not in wins]
        if not never:
            first = min(wins)
            text = f"every seat wins some game from a deal ({', '.join(f'seat {s}' for s in sorted(wins))})"
            summary = text if not x.complete else self._decided(text)
            deal, moves, order = wins[first]
            expect = {"winner": first, "over": True} if self.rules.first_out else {"out": list(order)}
            return proved(pid, summary, **self._game_details(pid, deal, moves, expect, f"seat {first} wins",
                                                             seats=sorted(wins)))
        if not x.complete:
            return None
        who = ", ".join(f"seat {s}" for s in never)
        return refuted(pid, self._decided(f"{who} never win{'s' if len(never) == 1 else ''} in any game from any "
                                          "deal"), never_wins=never, **_details(x))

    def _round_rank(self) -> Result | None:
        pid = "round-rank"
        rb = self.game.rulebook
        if not rb.claim.round_ends:
            return not_applicable(pid, "rounds never end: the claim sequence runs on through every challenge")
        f = self.x.facts
        if f.round_gap is not None:
            gap = f.round_gap_kind
            assert gap is not None
            return self._refuted(pid, f.round_gap, gap_text(rb, gap),
                                 {"rule_gaps": sorted(g.value for g in f.round_gaps_met)},
                                 rule_gap=gap.value)
        if not self.x.complete:
            return None
        return proved(pid, self._decided("after every round's end met, the rules name a seat to lead and allow a "
                                         "claim to lead"), **_details(self.x))

    def _challenge_priority(self) -> Result | None:
        x = self.x
        pid = "challenge-priority"
        if not self.rules.kinds:
            return not_applicable(pid, "no challenge may be made at this player count")
        f = x.facts
        if f.lot is not None:
            return self._refuted(pid, f.lot, "two seats call at once and the rules leave whose call is heard to "
                                 "the lot (`priority: first_caller`)",
                                 {"phase": "chance", "callers": list(x.facts.lot_callers)})
        if not x.complete:
            return None
        if f.calls_offered is None:
            return proved(pid, self._decided("no call is ever offered, so none has to be resolved"),
                          calls_offered=False, **_details(x))
        at_once = "two or more seats may call on one play" if f.calls_at_once is not None else \
            "never more than one seat may call on a play"
        return proved(pid, self._decided(f"exactly one call is heard, never the claimant's ({at_once})"),
                      calls_at_once=f.calls_at_once is not None, **_details(x))

    def _claim_threshold(self) -> Result | None:
        x = self.x
        pid = "claim-threshold"
        if not self.rules.kinds:
            return not_applicable(pid, "no challenge may be made at this player count, so no claim is ever judged")
        if not x.complete:
            return None
        f = x.facts
        if not f.judged_true:
            return refuted(pid, self._decided("no call ever judges a claim true"), **_details(x))
        top_kind = max(f.judged_true, key=lambda k: f.judged_true[k][0])
        top, step = f.judged_true[top_kind]
        cards = f.truly_played[0] if f.truly_played is not None else 0
        by_kind = {k: v[0] for k, v in sorted(f.judged_true.items())}
        unsure = [k for k, v in by_kind.items() if v > cards]
        text = f"{top} is the largest claim a call can judge true; a call on {top + 1} always wins"
        if unsure:
            text += (f" only for calls that see the whole play: `{'`, `'.join(unsure)}` can judge true a claim of "
                     f"{max(by_kind[k] for k in unsure)} though no play holds more than {cards} matching cards, "
                     "so a call on it is not sure to win")
        expect = {"caught": False}
        return proved(pid, self._decided(text), **self._shown(
            pid, step, f"a claim of {top} judged true", expect, threshold=top, certain_lie_from=top + 1,
            judged_true=by_kind, most_matching_cards=cards))

    def _seat_fairness(self) -> Result | None:
        x = self.x
        pid = "seat-fairness"
        g = claim_graph(self.subject, self.n)
        if isinstance(g, str):
            return None
        if g.free:
            return not_applicable(pid, "the claim is free: any claim may follow any claim")
        if not g.deterministic:
            return not_applicable(pid, "no fixed sequence of claims")
        seq, loop = g.sequence()
        if loop < 0:
            return not_applicable(pid, "the sequence of claims stops (see rank-cycle)")
        cycle = [g.order[i] for i in seq[loop:]]
        missing = [(o, c) for o in range(self.n) for c in cycle if (o, c) not in x.facts.asked]
        if not missing:
            text = f"every seat is asked for every one of the {len(cycle)} claims of the cycle in some game"
            return proved(pid, self._decided(text) if x.complete else text + " (games found by the exhaustive judge)",
                          **_details(x))
        if not x.complete:
            return None
        offset, claim = missing[0]
        seat = "the first player" if offset == 0 else f"the seat {offset} after the first player"
        return refuted(pid, self._decided(f"{seat} is never asked for {_claim(self.subject, g, claim)} in any game "
                                          f"from any deal ({len(missing)} seat and claim pairs never met)"),
                       never_asked=[[o, c] for o, c in missing], **_details(x))


def _rounds_to_come_back(loop: list[tuple[int, Action]], players: int, turn: int) -> list[tuple[int, Action]]:
    """Where a loop comes back to its position turned `turn` places round the table, the loop made again, turned
    each time as far as the table is by then, until the position comes back exactly (none where `turn` is 0)."""
    out: list[tuple[int, Action]] = []
    r = turn % players
    while r:
        out += [turned_move(seat, action, players, r) for seat, action in loop]
        r = (r + turn) % players
    return out


def _claim(subject: Subject, g: ClaimGraph, value: int) -> str:
    return subject.claim_name(value)


def fairness_applies(subject: Subject, n: int) -> bool:
    """Whether seat fairness is about a fixed claim sequence at `n` players (then the judge counts seats from
    each deal's first player)."""
    g = claim_graph(subject, n)
    return not isinstance(g, str) and g.deterministic and not g.free
