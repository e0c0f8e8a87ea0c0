"""Which rules the compiled kernel plays, and the refusal, in general terms, for the rest."""

from __future__ import annotations

from collections.abc import Sequence

from ..derived import TableRules
from ..model import ChallengeTest

KERNEL_BOTS = ("counter", "greedy", "honest", "random")  # the bots the kernel plays, deciding by the Python bots' rules


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
        (not r.by_rank, "claims of exact cards"),
        (rb.deck.jokers > 0, "jokers"),
        (r.min_cards > 1, "a minimum play above one card"),
        (r.set_size is not None, "sets"),
        (r.may_pass, "passing"),
        (bool(rb.claim.round_ends), "rounds that end (leads)"),
        (_dead_end(r), "a claim after which no claim is allowed"),
        (len(r.kinds) != 1 or r.kinds[0].test is not ChallengeTest.PLAYED,
         "challenge kinds other than one that turns the play over"),
        (not r.reveal_all, "a challenge that turns over only the top card"),
        (not r.take_pile or r.pile_after_discarded, "a penalty other than taking the pile"),
        (not r.first_out or r.at_once, "an ending other than the first out after the challenge window"),
        (r.stock_count > 0, "a stock"),
        (r.turn_start_win is not None, "a win at the start of a turn"),
    )
    for failed, what in checks:
        if failed:
            return what
    return None


def _dead_end(r: TableRules) -> bool:
    """Whether a claim the game can reach allows no claim after it (or no claim may open the game)."""
    seen: set[int] = set()
    todo = list(r.first_claims)
    if not todo:
        return True
    while todo:
        claim = todo.pop()
        if claim in seen:
            continue
        seen.add(claim)
        after = r.follow_claims[claim]
        if not after:
            return True
        todo.extend(after)
    return False
