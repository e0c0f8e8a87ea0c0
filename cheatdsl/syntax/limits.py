"""Limits on untrusted rulebook input, so that no file can exhaust the tool."""

MAX_FILE_BYTES = 1_000_000
MAX_NODES = 50_000
MAX_DEPTH = 64
MAX_EXPRESSION_CHARS = 2_000
MAX_EXPRESSION_DEPTH = 40
MAX_DECK_CARDS = 2_000
