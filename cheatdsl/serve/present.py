"""What the page is sent: one seat's observation and the public log, and the rules in plain words.

Nothing here reads another seat's hand or a face-down card: every card comes from the seat's own
`Observation` (its hand) or from a challenge's public record (the cards turned up).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..compare.describe import DIMENSIONS, describe
from ..engine import DiscardSet, Phase
from ..words.notation import card_text, claim_text, rank_words
from ..model import ChallengeTest, Rulebook
from ..play.screen import cards_rule, count_rule, evidence_line, required_lines
from ..play.words import choices_words, display_order, matches, result_lines, reveal_lines, said

if TYPE_CHECKING:
    from ..engine import Game, Observation
    from .session import Session

LOG_LINES = 300
MOST_SAID = 60  # claims spelt out for each count up to this  # the newest lines of the log sent with each view


def a_claim(game: Game, claim: int) -> str:
    """`an ace`, `a seven`, `the seven of hearts`."""
    if claim == game.rules.joker:
        return "a joker"
    if not game.rules.by_rank:
        return said(game, claim, 1)
    name = rank_words(game, claim, 1)
    return ("an " if name[:1] in "aeiou" else "a ") + name


def seat_view(s: Session) -> dict[str, Any]:
    """Everything the page shows to the seat at the table, and nothing more."""
    g, state, v = s.game, s.state, s.voices
    obs = state.observation(s.you)
    hand = display_order(g, obs.hand)
    seats = [{"seat": seat, "name": v.name(seat), "you": seat == s.you, "cards": obs.hand_sizes[seat],
              "out": seat in obs.out, "bot": "" if s.lesson else s.bots.get(seat, ""),
              "to_act": not state.is_terminal() and obs.to_act == seat} for seat in s.turn_order()]
    view: dict[str, Any] = {
        "id": s.id, "step": s.step, "entry": s.entry, "variations": list(s.variations),
        # The seed decides the deal and the bots' choices: sent only when the player typed it or the game is over.
        "seed": str(s.seed) if s.seed_known or s.state.is_terminal() else None,
        "title": g.rulebook.title, "players": g.players, "seats": seats, "pile": obs.pile_size,
        "stock": obs.stock_size if g.rulebook.deal.surplus.value == "stock" else None,
        "aside": obs.aside_size, "hand": [{"value": c, "text": card_text(g, c), "name": a_claim(g, c)} for c in hand],
        "sets": [{"name": v.name(seat), "rank": rank_words(g, rank)} for seat, rank, _ in obs.discarded_sets],
        "claim": _newest_claim(g, obs, v), "log": s.log[-LOG_LINES:], "turn": None, "reveal": None,
        "result": None, "replay": None, "lesson": _lesson(s),
    }
    if s.reveal is not None:
        r = s.reveal
        view["phase"] = "reveal"
        view["reveal"] = {"cards": [card_text(g, c) for c in r.revealed], "caught": r.caught,
                          "claim": said(g, r.claim, r.count), "claimant": v.name(r.claimant),
                          "challenger": v.name(r.challenger), "loser": v.name(r.loser), "taken": r.taken,
                          "lines": reveal_lines(g, r, v)}
    elif state.is_terminal():
        result = state.result()
        view["phase"] = "end"
        # The last line of result_lines lists the hand counts, which the page shows as a list of its own.
        view["result"] = {"lines": result_lines(g, result, v, state.hand_sizes(), s.turn_order())[:-1] if result else [],
                          "winner": None if result is None or result.winner is None else v.name(result.winner),
                          "you_won": result is not None and result.winner == s.you and not result.capped,
                          "capped": result is not None and result.capped, "turn_cap": g.turn_limit,
                          "rulebook": g.rulebook.name}
        view["replay"] = None if s.lesson else replay_command(s)
    elif s.lesson is not None and s.lesson_done():
        view["phase"] = "lesson-done"
    elif s.waiting_for_you():
        view["phase"] = obs.phase.value
        view["turn"] = _turn(s, obs, hand)
    elif s.lesson is not None:
        view["phase"] = "lesson-next"
    else:
        view["phase"] = "wait"
    return view


def replay_command(s: Session) -> str:
    """The terminal command that deals this game again (`cheatdsl play`, same seed, players and bots)."""
    g = s.game
    bots = ",".join(s.bots[seat] for seat in s.turn_order()[1:])
    parts = ["cheatdsl", "play", g.rulebook.name, "--players", str(g.players), "--seed", str(s.seed),
             "--bots", bots] + [x for name in s.variations for x in ("--variation", name)]
    return " ".join(parts)


def _newest_claim(g: Game, obs: Observation, v: Any) -> dict[str, Any] | None:
    for c in reversed(obs.claims):
        if c.seat is not None and c.claim is not None:
            return {"name": v.name(c.seat), "said": said(g, c.claim, c.count), "played": c.played,
                    "last": c.last_cards}
    return None


def _turn(s: Session, obs: Observation, hand: list[int]) -> dict[str, Any]:
    g, state = s.game, s.state
    if obs.phase is Phase.RESPOND:
        newest = obs.claims[-1]
        options: list[dict[str, Any]] = [{"type": "accept", "label": "Accept"}]
        for k in g.rulebook.challenge.kinds:
            if k.name in g.rules.kind_by_name:
                note = (f"{s.voices.name(newest.seat)} must show {a_claim(g, newest.claim)} from hand"
                        if k.test is ChallengeTest.HAND and newest.claim is not None else "")
                options.append({"type": "challenge", "kind": k.name, "label": k.call, "note": note})
        evidence = evidence_line(g, obs.hand, newest.claim, newest.count) if newest.claim is not None else ""
        return {"kind": "respond", "claimant": s.voices.name(newest.seat), "played": newest.played,
                "said": said(g, newest.claim, newest.count), "last": newest.last_cards,
                "evidence": evidence, "options": options}
    if obs.phase is Phase.DISCARD:
        ranks = sorted({a.rank for a in state.legal_actions() if isinstance(a, DiscardSet)})
        return {"kind": "discard", "sets": [{"rank": r, "text": rank_words(g, r)} for r in ranks]}
    claims = obs.required
    top = len(hand) if g.rules.max_cards is None else min(g.rules.max_cards, len(hand))
    counting = "exact" if g.rules.exact else "any" if g.rules.any_count else "extra"
    return {
        "kind": "play", "head": required_lines(state)[0], "rule": f"Play {cards_rule(g)} face down; "
        f"{count_rule(g)}.", "leading": obs.leading, "choices": choices_words(g, claims),
        "claims": [{"value": c, "text": claim_text(g, c), "one": a_claim(g, c),
                    "said": [said(g, c, n) for n in range(min(g.rules.count_cap or top, MOST_SAID) + 1)],
                    "matches": sorted({x for x in hand if matches(g, x, c)})} for c in claims],
        "min": g.rules.min_cards, "max": top, "counting": counting, "count_cap": g.rules.count_cap or top,
        "judged": g.rules.count_judged, "pass": state.can_pass(),
    }


def _lesson(s: Session) -> dict[str, Any] | None:
    if s.lesson is None:
        return None
    steps = s.lesson.steps
    i = min(s.lesson_step, len(steps) - 1)
    return {"name": s.lesson.name, "title": s.lesson.title, "step": i + 1, "steps": len(steps),
            "say": steps[i].say, "done": s.lesson_done(), "needs_move": bool(steps[i].expect) and not s.acted}


def rules(rulebook: Rulebook) -> dict[str, Any]:
    """The rules panel and quick reference: each rule dimension in the plain words of `compare`."""
    words = describe(rulebook)
    return {"title": rulebook.title, "source": rulebook.source,
            "rows": [{"key": d.key, "label": d.label, "text": words[d.key]} for d in DIMENSIONS],
            "variations": [{"name": x.name, "summary": x.summary, "conflicts": list(x.conflicts)}
                           for x in rulebook.variations],
            "players": list(rulebook.players.counts())[:20]}
