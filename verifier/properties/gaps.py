"""The gaps in the rules that round-rank is about, as play meets them (`State.rule_gaps`): a round's end with
no seat named to lead, or no claim the lead rule allows."""

from __future__ import annotations

from cheatdsl.derived import TableRules
from cheatdsl.engine import RuleGap
from cheatdsl.model import Rulebook


def round_gaps(rules: TableRules) -> frozenset[RuleGap]:
    """The gaps that leave a round's end without a leader or a claim to lead: a `next_player` naming no seat
    counts only where a challenge ends the round."""
    gaps = {RuleGap.LEAD, RuleGap.ALL_PASS_LEADER}
    if rules.round_ends_on_challenge:
        gaps.add(RuleGap.NEXT_PLAYER)
    return frozenset(gaps)


def gap_text(rb: Rulebook, gap: RuleGap) -> str:
    """A round-rank gap met in play, in words."""
    if gap is RuleGap.NEXT_PLAYER:
        return f"after a challenge, `next_player: {rb.challenge.next_player.text}` names no seat to lead the next round"
    if gap is RuleGap.ALL_PASS_LEADER:
        leader = rb.passing.all_pass_leader
        return f"when everyone passes, `all_pass_leader: {leader.text if leader else ''}` names no seat to lead"
    return f"a round ends after a claim that `lead: {rb.claim.lead.text}` allows no claim to follow"
