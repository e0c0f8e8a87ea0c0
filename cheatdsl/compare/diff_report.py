"""`cheatdsl diff` output: the changes as sentences grouped by rule dimension, in text, Markdown or JSON."""

from __future__ import annotations

import textwrap
from typing import Any

from ..model import Rulebook
from ..profiles import shown_path
from .diff import Diff

WIDTH = 100


def _name(rb: Rulebook) -> str:
    used = rb.active_variations
    path = "<stdin>" if rb.path == "-" else shown_path(rb.path)
    return (path or rb.name) + (f" (with {', '.join(used)})" if used else "")


def _bullets(items: list[str], width: int) -> list[str]:
    out = []
    for item in items:
        out += textwrap.wrap(item, width, initial_indent="  - ", subsequent_indent="    ",
                             break_long_words=True, break_on_hyphens=False)
    return out


def render_text(d: Diff, width: int = WIDTH) -> str:
    """The diff for a terminal, every line at most `width` columns."""
    base, variant = _name(d.base), _name(d.variant)
    out: list[str] = []
    if d.same_game:
        out += textwrap.wrap(f"same game: {variant} plays exactly as {base}", width, break_long_words=True,
                             break_on_hyphens=False)
    else:
        n = len(d.changes)
        out += textwrap.wrap(f"{variant} changes {n} rule{'s' if n != 1 else ''} of {base}:", width,
                             break_long_words=True, break_on_hyphens=False)
        label = None
        for c in d.changes:
            if c.label != label:
                label = c.label
                out += ["", label]
            out += textwrap.wrap(c.sentence, width, initial_indent="  - ", subsequent_indent="    ",
                                 break_long_words=True, break_on_hyphens=False)
            out += textwrap.wrap(f"(before: {c.before})", width, initial_indent="      ",
                                 subsequent_indent="      ", break_long_words=True, break_on_hyphens=False)
    if d.idle:
        out += ["", "Written differently, no difference in play"]
        out += _bullets([f"{i.field}: {i.after} (before: {i.before}), but {i.reason}" for i in d.idle], width)
    if d.wording:
        out += ["", "Wording only"] + _bullets(d.wording, width)
    if d.expectations:
        out += ["", "Verdicts the rulebook expects"] + _bullets(d.expectations, width)
    if d.verdicts is not None:
        out += ["", "Verifier verdicts that change"]
        out += _bullets(d.verdicts, width) if d.verdicts else ["  none"]
    if d.game is not None:
        out += ["", "A game that tells them apart"] + _bullets([d.game], width)
        out += _bullets([f"written to {path}" for path in d.game_files], width)
    return "\n".join(out) + "\n"


def render_markdown(d: Diff) -> str:
    """The diff as Markdown: a heading per rule dimension, a bullet per change, the extra lists after."""
    base, variant = f"`{_name(d.base)}`", f"`{_name(d.variant)}`"
    if d.same_game:
        out = [f"# {variant} plays exactly as {base}"]
    else:
        n = len(d.changes)
        out = [f"# What {variant} changes in {base}", "", f"{n} rule{'s' if n != 1 else ''} changed."]
        label = None
        for c in d.changes:
            if c.label != label:
                label = c.label
                out += ["", f"## {label}", ""]
            out.append(f"- {c.sentence} (before: {c.before})")
    extra = [("Written differently, no difference in play",
              [f"`{i.field}`: {i.after} (before: {i.before}), but {i.reason}" for i in d.idle]),
             ("Wording only", d.wording), ("Verdicts the rulebook expects", d.expectations)]
    if d.verdicts is not None:
        extra.append(("Verifier verdicts that change", d.verdicts or ["none"]))
    if d.game is not None:
        extra.append(("A game that tells them apart", [d.game] + [f"written to `{p}`" for p in d.game_files]))
    for title, items in extra:
        if items:
            out += ["", f"## {title}", ""] + [f"- {item}" for item in items]
    return "\n".join(out) + "\n"


def as_json(d: Diff) -> dict[str, Any]:
    """The diff as plain data."""
    data: dict[str, Any] = {
        "base": _name(d.base),
        "variant": _name(d.variant),
        "same_game": d.same_game,
        "changes": [{"dimension": c.dimension, "label": c.label, "field": c.field, "sentence": c.sentence,
                     "before": c.before} for c in d.changes],
        "no_difference_in_play": [{"field": i.field, "before": i.before, "after": i.after, "reason": i.reason}
                                  for i in d.idle],
        "wording": d.wording,
        "expectations": d.expectations,
    }
    if d.verdicts is not None:
        data["verdicts"] = d.verdicts
    if d.game is not None:
        data["game"] = {"sentence": d.game, "scenarios": d.game_files}
    return data
