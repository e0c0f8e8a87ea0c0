"""Which rules the compiled kernel plays, and the refusal, in general terms, for the rest."""

from __future__ import annotations

from collections.abc import Sequence

from ..derived import TableRules
from ..model import ChallengeTest

KERNEL_BOTS = ("counter", "greedy", "honest", "random")  # the bots the kernel plays, deciding by the Python bots' rules
LEAVING_SEATS = 8  # where seats leave, the next player is worked out for every seating: 2**8 of them at most


def refusal(rules: TableRules, bots: Sequence[str]) -> str | None:
    """Why the kernel cannot play this table with these bots, or None when it can."""
    reason = _rule_refusal(rules)
    if reason is not None:
        return f"the compiled engine does not play {reason}: use --engine python"
    for name in bots:
        if name not in KERNEL_BOTS:
            return f"the compiled engine does not play the `{name}` bot yet: use --engine python"
    return None


def _rule_refusal(r: TableRules) -> str | None:
    rb = r.rulebook
    checks: tuple[tuple[bool, str], ...] = (
        (r.set_size is not None and not r.sets_naturals_only, "sets that jokers may complete"),
        (r.min_cards > 1, "a minimum play above one card"),
        (r.emptied_stays_in, "a hand emptied by its sets that stays in"),
        (_dead_end(r), "a claim after which no claim is allowed"),
        (len(r.kinds) != 1 or r.kinds[0].test is not ChallengeTest.PLAYED,
         "challenge kinds other than one that turns the play over"),
        (not r.take_pile or r.pile_after_discarded, "a penalty other than taking the pile"),
        (r.at_once, "an empty hand that counts before the challenge window closes"),
        (not r.first_out and r.players > LEAVING_SEATS, f"seats that leave at a table of more than {LEAVING_SEATS}"),
        (r.stock_count > 0, "a stock"),
        (r.turn_start_win is not None and not r.first_out, "a win at the start of a turn where seats leave"),
    )
    for failed, what in checks:
        if failed:
            return what
    return None


def _dead_end(r: TableRules) -> bool:
    """Whether a claim the game can reach allows no claim after it, to follow it or (where a challenge ends
    the round) to lead after it; or no claim may open the game."""
    seen: set[int] = set()
    todo = list(r.first_claims)
    if not todo:
        return True
    while todo:
        claim = todo.pop()
        if claim in seen:
            continue
        seen.add(claim)
        rows = (r.follow_claims, r.lead_claims) if r.round_ends_on_challenge or r.round_ends_on_all_pass \
            else (r.follow_claims,)
        for row in rows:
            after = row[claim] if claim < len(row) else ()
            if not after:
                return True
            todo.extend(after)
    return False
