"""Limits on untrusted rulebook and scenario input, so that no file can exhaust the tool.

The readers enforce them as they read, so a file past a limit costs no more than the limit
(benchmarks/input_cost.py measures what the worst files cost).
"""

MAX_FILE_BYTES = 1_000_000
MAX_NODES = 10_000
MAX_DEPTH = 64
MAX_SCALAR_CHARS = 4_000  # below Python's 4,300 digits for int(), so no number read from text is refused there
MAX_TEXT_CHARS = 50_000  # names, values and formulas together: what bounds the formulas' parsing
MAX_EXPRESSION_CHARS = 2_000
MAX_EXPRESSION_DEPTH = 40
MAX_DECK_CARDS = 2_000

TOO_MANY_VALUES_HINT = "a rulebook or scenario is a page of rules, not a data set: check that this is the right file"
TOO_LONG_HINT = f"a name, text or formula is at most {MAX_SCALAR_CHARS:,} characters"
TOO_MUCH_TEXT = f"the file's names, values and formulas hold more than {MAX_TEXT_CHARS:,} characters"
