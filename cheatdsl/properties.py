"""The verifier's property ids, known to the checker without importing the solver."""

PROPERTY_IDS: tuple[str, ...] = (
    "rank-cycle", "ranks-exist", "seat-fairness", "claim-threshold", "deal", "card-conservation",
    "discards", "no-deadlock", "turn-order", "termination", "winner", "winnability",
    "challenge-priority", "challenge-resolution", "consistency", "round-rank",
)
