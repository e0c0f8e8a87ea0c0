"""A ladder's report as text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..words.seats import place
from .ladder import Estimate, Rating


def figure_text(figure: Mapping[str, Any] | None, form: str, label: str = "") -> str:
    """A figure as `Estimate.as_json` stores it ({value, low, high}), with its interval after `label`
    ("95% " or ""): `0.98 (0.97 to 0.99)`; "undefined" where the ladder gave none (no game ended)."""
    if not figure or figure.get("value") is None:
        return "undefined"
    if figure.get("low") is None or figure.get("high") is None:
        return form.format(figure["value"])
    return f"{form.format(figure['value'])} ({label}{form.format(figure['low'])} to {form.format(figure['high'])})"


def _pct(e: Estimate, signed: bool = False) -> str:
    if e.value != e.value:
        return "undefined"
    f = "{:+.1f}" if signed else "{:.1f}"
    return f"{f.format(100 * e.value)}% (95% {f.format(100 * e.low)}% to {f.format(100 * e.high)}%)"


def _num(e: Estimate, digits: int = 2) -> str:
    if e.value != e.value:
        return "undefined"
    return f"{e.value:.{digits}f} (95% {e.low:.{digits}f} to {e.high:.{digits}f})"


def render(r: Rating) -> str:
    """The report: ratings, skill index, seats and the strong table's figures."""
    fair = 1.0 / r.players
    lines = [f"{r.rulebook}: ladder of {len(r.entrants)} bots, {r.games} games at {r.players} players "
             f"({r.strong_games} at the strong table: {', '.join(r.strong)})"]
    h = r.headline
    if h is None:
        lines.append("what the rules reward: too few games for the skill, luck and lie tables (try --games 60)")
    else:
        lines += [f"what the rules reward ({h.strong} against the rest; {h.games['skill']} + {h.games['equal']} + "
                  f"{h.games['lie']} games of duplicate deals)",
                  f"  skill edge        {_pct(h.skill_edge, signed=True)}   {h.strong} among honest bots, over its "
                  "fair share",
                  f"  luck share        {_num(h.luck_share)}   of a seat's result that the deal and seat decide",
                  f"  lies              {_pct(h.lie_share)} of plays; {_pct(h.lies_caught)} of them caught",
                  f"  calls won         {_pct(h.calls_won)} of challenges",
                  f"  lie value         {_pct(h.lie_value, signed=True)}   " + (
                      h.lie_value_note or f"{h.strong} among copies that never lie when they can tell the truth")]
    lines.append("the ladder's ends: ratings (Plackett-Luce, Elo scale, 95% bootstrap)")
    width = max(len(b) for b in r.entrants)
    for bot, e in sorted(zip(r.entrants, r.ratings), key=lambda be: -be[1].value):
        lines.append(f"  {bot:<{width}}  {e.value:+7.0f}  ({e.low:+.0f} to {e.high:+.0f})")
    lines.append(f"skill index         {_num(r.skill_index)}   0 a coin flip, 1 the stronger always wins")
    lines.append(f"rating spread       {_num(r.spread, 0)} Elo points, strongest less weakest")
    lines.append(f"first player        {_pct(r.first_player_advantage, signed=True)} against a fair "
                 f"{100 * fair:.1f}%")
    for p, s in enumerate(r.shares):
        lines.append(f"  {place(p) + ' to play':<18}{_pct(Estimate(s.value - fair, s.low - fair, s.high - fair), True)}")
    lines.append(f"completion          {_pct(r.completion)}")
    lines.append(f"duration            {_num(r.duration, 1)} turns")
    lines.append(f"balance             {_num(r.balance)}")
    lines.append(f"decisiveness        {_num(r.decisiveness)}")
    return "\n".join(lines)
