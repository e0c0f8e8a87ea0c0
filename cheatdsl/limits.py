"""Limits on untrusted rulebook and scenario input, so that no file can exhaust the tool.

The readers enforce them as they read, so a file past a limit costs no more than the limit
(benchmarks/input_cost.py measures what the worst files cost).
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_FILE_BYTES = 1_000_000
MAX_NODES = 10_000
MAX_DEPTH = 64
MAX_SCALAR_CHARS = 4_000  # below Python's 4,300 digits for int(), so no number read from text is refused there
MAX_TEXT_CHARS = 50_000  # names, values and formulas together: what bounds the formulas' parsing
MAX_EXPRESSION_CHARS = 2_000
MAX_EXPRESSION_DEPTH = 40
MAX_DECK_CARDS = 2_000

# A scenario may be a whole recorded game (a witness of a long play runs to thousands of actions): it may
# hold more values and text than a rulebook, within the same file size.
MAX_SCENARIO_NODES = 200_000
MAX_SCENARIO_TEXT_CHARS = MAX_FILE_BYTES


@dataclass(frozen=True)
class ValueLimits:
    """How many values, and characters of text in all, one file may hold."""

    nodes: int
    text_chars: int

    def too_much_text(self) -> str:
        return f"the file's names, values and formulas hold more than {self.text_chars:,} characters"


RULEBOOK_VALUES = ValueLimits(MAX_NODES, MAX_TEXT_CHARS)
SCENARIO_VALUES = ValueLimits(MAX_SCENARIO_NODES, MAX_SCENARIO_TEXT_CHARS)

TOO_MANY_VALUES_HINT = "a rulebook or scenario is a page of rules, not a data set: check that this is the right file"
TOO_LONG_HINT = f"a name, text or formula is at most {MAX_SCALAR_CHARS:,} characters"
TOO_MUCH_TEXT = RULEBOOK_VALUES.too_much_text()
