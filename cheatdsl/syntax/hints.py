"""Did-you-mean hints for a word that is not one of the words allowed there."""

from __future__ import annotations

import difflib


def suggest(word: str, choices: list[str]) -> str:
    """A did-you-mean hint, or ''."""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else ""
