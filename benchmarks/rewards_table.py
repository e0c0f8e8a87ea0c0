"""What every shipped profile rewards, from the gallery's stored ratings: docs/ratings.md's table of them.

The gallery stores `cheatdsl rate`'s figures for each shipped profile (`python -m cheatdsl.docs.gallery
--rate`, 120 ladder games a profile, seed 0, at the profile's table size); this prints them as one markdown
table (skill edge, luck share, lie value, skill index, each with its 95% interval), then, for each headline
figure, the profiles a house rule of the standard sheet moves beyond chance from the sheet itself, every
other pair of profiles whose figures differ beyond chance, and the smallest difference the budget can detect.

Beyond chance: as `compare` and `sweep` mark a difference (`cheatdsl.compare.chance`): the difference of two
figures, taken as independent, has a 95% interval that leaves out 0. The smallest difference the budget can
detect is the median over every pair of the half-width of that interval.

Run: python benchmarks/rewards_table.py [--ratings FILE]     (default docs/gallery/ratings.json)
Nothing is written; the markdown goes to standard output.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cheatdsl.compare import chance  # noqa: E402  (after the path is set)
from cheatdsl.load import load_rulebook  # noqa: E402
from cheatdsl.profiles import read_ratings, shipped_path  # noqa: E402

HEADLINE = (("skill_edge", "skill edge (points)", 100.0, "{:+.1f}"), ("luck_share", "luck share", 1.0, "{:.2f}"),
            ("lie_value", "lie value (points)", 100.0, "{:+.1f}"))
UNITS = {"skill_edge": " points", "luck_share": "", "lie_value": " points"}
OTHERS = (("skill_index", "skill index", 1.0, "{:.3f}"),)


def _cell(entry: dict[str, Any], key: str, scale: float, form: str) -> str:
    f = entry.get(key)
    if not isinstance(f, dict):
        return "-"
    if any(f.get(k) is None for k in ("value", "low", "high")):
        return "undefined (too few games ended)"
    return (f"{form.format(f['value'] * scale)} ({form.format(f['low'] * scale)} to "
            f"{form.format(f['high'] * scale)})")


def _figure(f: dict[str, float]) -> chance.Figure:
    return chance.from_interval(f["value"], f["low"], f["high"])


def beyond_chance(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether figures a and b differ beyond chance (see the module's docstring)."""
    return chance.apart(_figure(a), _figure(b))


def base_of(name: str) -> str | None:
    """The shipped profile `name` extends, if any (a house rule's sheet)."""
    path = shipped_path(name)
    if path is None:
        return None
    rulebook = load_rulebook(str(path))
    parents = [c for c in rulebook.chain if Path(c).resolve() != Path(rulebook.path).resolve()]
    return Path(parents[0]).stem if parents else None


def table(stored: dict[str, dict[str, Any]]) -> str:
    rated = {n: e for n, e in sorted(stored.items()) if "not_rated" not in e and isinstance(e.get("skill_edge"), dict)}
    lines = ["| profile | seats | " + " | ".join(title for _, title, _, _ in HEADLINE + OTHERS) + " |",
             "|---|---|" + "---|" * (len(HEADLINE) + len(OTHERS))]
    for name, e in rated.items():
        lines.append(f"| {name} | {e.get('players', '-')} | "
                     + " | ".join(_cell(e, k, s, f) for k, _, s, f in HEADLINE + OTHERS) + " |")
    for name, e in sorted(stored.items()):
        if name not in rated:
            why = f"not rated: {e['not_rated']}" if "not_rated" in e else "headline figures not measured yet"
            lines.append(f"| {name} | {e.get('players', '-')} | {why} |" + " |" * (len(HEADLINE) + len(OTHERS) - 1))
    out = "\n".join(lines) + "\n"
    bases = {n: base_of(n) for n in rated}
    for key, title, scale, form in HEADLINE:
        out += f"\n**{title.split(' (')[0].capitalize()}.**"
        measured = [n for n in rated if rated[n][key].get("value") is not None and rated[n][key].get("low") is not None]
        moved = [(n, b) for n, b in bases.items() if b in measured and n in measured
                 and beyond_chance(rated[n][key], rated[b][key])]
        if moved:
            out += " Moved beyond chance from the sheet it extends: " + "; ".join(
                f"{n} {form.format(rated[n][key]['value'] * scale)} against {b}'s "
                f"{form.format(rated[b][key]['value'] * scale)}" for n, b in moved) + "."
        else:
            out += " No house rule moves it beyond chance from the sheet it extends."
        higher: dict[str, list[str]] = {}
        bounds = []
        for a, b in itertools.combinations(measured, 2):
            fa, fb = rated[a][key], rated[b][key]
            bounds.append(chance.Z95 * math.hypot(_figure(fa).error, _figure(fb).error))
            if beyond_chance(fa, fb):
                hi, lo = (a, b) if fa["value"] > fb["value"] else (b, a)
                higher.setdefault(hi, []).append(lo)
        pairs = sum(len(v) for v in higher.values())
        if bounds:
            out += (f" The smallest difference these budgets detect: about "
                    f"{form.format(statistics.median(bounds) * scale).lstrip('+')}{UNITS[key]}.")
        out += f" {pairs} of {len(bounds)} pairs of profiles differ beyond chance" + (":\n\n" if higher else ".\n")
        out += "".join(f"- {hi} above {', '.join(sorted(lo))}\n" for hi, lo in sorted(higher.items()))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ratings", type=Path, default=ROOT / "docs" / "gallery" / "ratings.json")
    args = p.parse_args(argv)
    stored = read_ratings(args.ratings)
    if not stored:
        print(f"no stored ratings in {args.ratings}", file=sys.stderr)
        return 1
    print(table(stored), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
