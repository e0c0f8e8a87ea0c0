"""A gap in the rules, as the table is told of it when the engine fills it in (`State.rule_gaps`)."""

from __future__ import annotations

from ..engine import RuleGap

GAP_WORDS = {
    RuleGap.NEXT_PLAYER: "`challenge.next_player` names nobody to play next, so the claimant plays next",
    RuleGap.ALL_PASS_LEADER: "`passing.all_pass_leader` names nobody to lead, so the last seat to play leads",
    RuleGap.LEAD: "`claim.lead` allows no claim to lead this round, so the round cannot be led",
}


def new_gaps(before: frozenset[RuleGap], after: frozenset[RuleGap]) -> list[str]:
    """A sentence for each gap met by the step from `before` to `after`."""
    return [f"(The rules leave a gap here: {GAP_WORDS[gap]}.)"
            for gap in sorted(after - before, key=lambda gap: gap.value)]
