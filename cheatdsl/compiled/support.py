"""Which rules the compiled kernel plays, and the refusal, in general terms, for the rest."""

from __future__ import annotations

from collections.abc import Sequence

from ..derived import TableRules

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
    checks: tuple[tuple[bool, str], ...] = (
        (r.set_size is not None and not r.sets_naturals_only, "sets that jokers may complete"),
        (r.min_cards > 1, "a minimum play above one card"),
        (r.emptied_stays_in, "a hand emptied by its sets that stays in"),
        (not r.take_pile and r.pile_after_discarded, "a pile that leaves the game after a challenge"),
        (r.at_once, "an empty hand that counts before the challenge window closes"),
        (not r.first_out and r.players > LEAVING_SEATS, f"seats that leave at a table of more than {LEAVING_SEATS}"),
        (r.turn_start_win is not None and not r.first_out, "a win at the start of a turn where seats leave"),
    )
    for failed, what in checks:
        if failed:
            return what
    return None
