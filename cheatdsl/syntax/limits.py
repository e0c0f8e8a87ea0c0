"""Limits on untrusted rulebook and scenario input, so that no file can exhaust the tool.

Each reader enforces them as it reads, so a file past a limit costs no more than the limit
(benchmarks/input_cost.py measures what the worst files cost).
"""

MAX_FILE_BYTES = 1_000_000
MAX_NODES = 10_000
MAX_DEPTH = 64
MAX_EXPRESSION_CHARS = 2_000
MAX_EXPRESSION_DEPTH = 40
MAX_DECK_CARDS = 2_000

TOO_MANY_VALUES_HINT = "a rulebook or scenario is a page of rules, not a data set: check that this is the right file"
