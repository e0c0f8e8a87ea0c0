"""The tidy table: one row per cell, a column per setting, statistic (with its 95% interval), rating and verdict.

Shares carry Wilson intervals (`_low`, `_high`); the mean turns a normal interval from the games'
turns. Written as CSV always and as Parquet when pyarrow is installed.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from typing import Any

from ..rate.headline import figure_in
from ..simulate import Statistics
from ..simulate.stats import Share
from ..simulate.summary import Z95, shares, wilson
from .cells import Cell

# (column, kind): kinds are "str", "int" and "float".
CELL_COLUMNS = (("key", "str"), ("rulebook", "str"), ("name", "str"), ("variations", "str"), ("players", "int"),
                ("bots", "str"), ("games", "int"), ("seed", "int"), ("cell_seed", "int"), ("status", "str"),
                ("reason", "str"))
SIM_COLUMNS = (
    ("games_played", "int"), ("finished", "int"), ("stuck", "int"), ("capped", "int"), ("unfinished", "int"),
    ("capped_share", "float"), ("capped_low", "float"), ("capped_high", "float"), ("decided", "int"),
    ("actions", "int"), ("actions_per_game", "float"), ("plays", "int"),
    ("turns_mean", "float"), ("turns_mean_low", "float"), ("turns_mean_high", "float"), ("turns_median", "float"),
    ("turns_q1", "float"), ("turns_q3", "float"), ("turns_p95", "float"), ("turns_min", "int"), ("turns_max", "int"),
    ("challenges", "int"), ("challenges_per_game", "float"), ("caught", "int"), ("challenges_failed", "int"),
    ("caught_share", "float"), ("caught_low", "float"), ("caught_high", "float"),
    ("forced_bluffs", "int"), ("forced_per_game", "float"), ("forced_share", "float"), ("forced_low", "float"),
    ("forced_high", "float"),
    ("pickups", "int"), ("pickup_mean", "float"), ("pickup_median", "float"), ("pickup_q1", "float"),
    ("pickup_q3", "float"), ("pickup_p95", "float"), ("pickup_min", "int"), ("pickup_max", "int"),
    ("first_wins", "int"), ("first_share", "float"), ("first_low", "float"), ("first_high", "float"),
    ("first_fair", "float"), ("first_advantage", "float"),
)
# Per seat S: wins (and the Wilson interval of the share), wins counted from the first player, losses.
SEAT_COLUMNS = (("win_count_seat", "int"), ("win_share_seat", "float"), ("win_low_seat", "float"),
                ("win_high_seat", "float"), ("win_count_position", "int"), ("win_share_position", "float"),
                ("win_low_position", "float"), ("win_high_position", "float"), ("lose_count_seat", "int"),
                ("lose_share_seat", "float"), ("lose_low_seat", "float"), ("lose_high_seat", "float"))
# The rating ladder's figures (`rate:` in the spec), each with its 95% bootstrap interval.
RATE_FIGURES = ("skill_index", "first_player_advantage", "skill_edge", "luck_share", "lie_value")
RATE_COLUMNS = (("rate_games", "int"), *((f"{name}{end}", "float") for name in RATE_FIGURES
                                         for end in ("", "_low", "_high")))
Row = dict[str, Any]


def mean_interval(histogram: Sequence[tuple[int, int]]) -> tuple[float, float, float]:
    """The mean of a histogram ((value, times), ...) and its 95% normal interval."""
    n = sum(times for _, times in histogram)
    if not n:
        return 0.0, 0.0, 0.0
    mean = sum(v * times for v, times in histogram) / n
    if n < 2:
        return mean, mean, mean
    variance = sum(times * (v - mean) ** 2 for v, times in histogram) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def _simulation(s: Statistics) -> Row:
    games = s.games
    capped = wilson(s.capped, games)
    c, f = s.challenges, s.forced_bluffs
    caught = wilson(c.caught, c.total)
    forced = wilson(f.total, s.plays)
    mean, low, high = mean_interval(s.turns_histogram)
    t, p, first = s.turns, s.pickups, s.first_player
    row: Row = {
        "games_played": games, "finished": s.finished, "stuck": s.stuck, "capped": s.capped,
        "unfinished": s.unfinished, "capped_share": s.capped / games if games else 0.0,
        "capped_low": capped[0], "capped_high": capped[1], "decided": s.decided, "actions": s.actions,
        "actions_per_game": s.actions_per_game, "plays": s.plays,
        "turns_mean": mean, "turns_mean_low": low, "turns_mean_high": high,
        "challenges": c.total, "challenges_per_game": c.per_game, "caught": c.caught,
        "challenges_failed": c.failed, "caught_share": c.caught_share, "caught_low": caught[0],
        "caught_high": caught[1], "forced_bluffs": f.total, "forced_per_game": f.per_game,
        "forced_share": f.share_of_plays, "forced_low": forced[0], "forced_high": forced[1],
        "pickups": p.count, "first_wins": first.wins, "first_share": first.share, "first_low": first.low,
        "first_high": first.high, "first_fair": first.fair, "first_advantage": first.advantage,
    }
    for name, spread in (("turns", t), ("pickup", p.cards)):
        row.update({f"{name}_median": float(spread.median), f"{name}_q1": float(spread.q1),
                    f"{name}_q3": float(spread.q3), f"{name}_p95": float(spread.p95)})
    row.update(turns_min=t.least, turns_max=t.most, pickup_mean=float(p.cards.mean), pickup_min=p.cards.least,
               pickup_max=p.cards.most)
    _seats(row, "win", "seat", s.win_shares)
    _seats(row, "win", "position", shares(s.wins_by_position, s.decided))
    _seats(row, "lose", "seat", s.losers.shares if s.losers is not None else ())
    return row


def _seats(row: Row, what: str, by: str, seats: Sequence[Share]) -> None:
    for w in seats:
        key = f"{by}{w.seat}"
        row.update({f"{what}_count_{key}": w.count, f"{what}_share_{key}": w.share, f"{what}_low_{key}": w.low,
                    f"{what}_high_{key}": w.high})


def _rating(rating: dict[str, Any]) -> Row:
    """The ladder's figures with their intervals (None where undefined, or where the ladder played no headline
    tables)."""
    row: Row = {"rate_games": rating["games"]}
    for name in RATE_FIGURES:
        figure = figure_in(rating, name) or {}
        row.update({name: figure.get("value"), f"{name}_low": figure.get("low"), f"{name}_high": figure.get("high")})
    return row


def rows(cells: Sequence[Cell], results: dict[str, dict[str, Any]]) -> list[Row]:
    """A row per cell, in spec order; a cell with no result has status `missing` (its reason, if failed)."""
    out = []
    for cell in cells:
        result = results.get(cell.key) or {}
        row: Row = {"key": cell.key, "rulebook": cell.rulebook, "name": cell.name,
                    "variations": "+".join(cell.variations), "players": cell.players, "bots": cell.bots,
                    "games": cell.games, "seed": cell.seed, "cell_seed": cell.cell_seed,
                    "status": result.get("status", "missing"), "reason": result.get("reason", "")}
        if "simulate" in result:
            row.update(_simulation(Statistics.from_json(result["simulate"])))
        if "rate" in result:
            row.update(_rating(result["rate"]))
        for verdict in result.get("verify", []):
            row[f"verdict_{verdict['id']}"] = verdict["verdict"]
        out.append(row)
    return out


def columns(table: list[Row]) -> list[tuple[str, str]]:
    """The table's columns with their kinds: the cell's, the statistics', each seat's, then the verdicts."""
    from ..properties import PROPERTY_IDS
    present = {k for row in table for k in row}
    out = list(CELL_COLUMNS)
    if "games_played" in present:
        out += SIM_COLUMNS
    seats = max((int(k.removeprefix("win_count_seat")) + 1 for k in present if k.startswith("win_count_seat")),
                default=0)
    for seat in range(seats):
        out += [(f"{name}{seat}", kind) for name, kind in SEAT_COLUMNS if f"{name}{seat}" in present]
    if "skill_index" in present:
        out += RATE_COLUMNS
    out += [(f"verdict_{p}", "str") for p in PROPERTY_IDS if f"verdict_{p}" in present]
    return out


def csv_text(table: list[Row]) -> str:
    """The table as CSV (empty fields where a cell has no value)."""
    cols = [name for name, _ in columns(table)]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(cols)
    for row in table:
        writer.writerow(["" if row.get(c) is None else _plain(row[c]) for c in cols])
    return buffer.getvalue()


def _plain(value: Any) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def parquet_bytes(table: list[Row]) -> bytes | None:
    """The table as Parquet, or None when pyarrow is not installed."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        return None
    kinds = {"str": pa.string(), "int": pa.int64(), "float": pa.float64()}
    cols = columns(table)
    arrays = [pa.array([row.get(name) for row in table], type=kinds[kind]) for name, kind in cols]
    frame = pa.Table.from_arrays(arrays, schema=pa.schema([(name, kinds[kind]) for name, kind in cols]))
    sink = pa.BufferOutputStream()
    pq.write_table(frame, sink)
    return bytes(sink.getvalue().to_pybytes())
