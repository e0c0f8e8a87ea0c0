"""Which tables the compiled kernel plays: the rules it is declared to play (`played_by`) and its bots."""

from __future__ import annotations

from collections.abc import Sequence

from ..derived import TableRules
from ..played_by import Engine, unplayed

KERNEL_BOTS = ("counter", "greedy", "honest", "random")  # the bots the kernel plays, deciding by the Python bots' rules


def refusal(rules: TableRules, bots: Sequence[str]) -> str | None:
    """Why the kernel cannot play this table with these bots (naming the field it does not play), or None when it
    can."""
    reason = unplayed(rules, Engine.KERNEL)
    if reason is not None:
        return f"the compiled engine does not play {reason}: use --engine python"
    for name in bots:
        if name not in KERNEL_BOTS:
            return f"the compiled engine does not play the `{name}` bot yet: use --engine python"
    return None
