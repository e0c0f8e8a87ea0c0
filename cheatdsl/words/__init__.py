"""Text for people: card, claim and action notation, and the sentences that explain a refusal.

This package sits above the engine: it imports `cheatdsl.engine`, and no engine module imports it.
"""
