"""Issue 26, argument ranges: every numeric option has a documented range, checked when the command line
is read (exit status 2 with the range), and the verifier's time limit is an option."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cheatdsl.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
CLI_DOC = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")

# (command line without the value, the value, the range the error must give)
OUT_OF_RANGE = [
    (["simulate", "standard", "--games"], "1000000000001", "from 1 to 1,000,000,000,000"),  # past reproducer 1: 10^12 is played in chunks
    (["simulate", "standard", "--games"], str(10**30), "from 1 to 1,000,000,000,000"),
    (["simulate", "standard", "--games"], "0", "from 1 to 1,000,000,000,000"),
    (["simulate", "standard", "--players"], "100000", "from 1 to 1,000"),
    (["simulate", "standard", "--turn-cap"], "0", "from 1 to 10,000,000"),
    (["simulate", "standard", "--jobs"], "5000", "from 1 to 1,024"),
    (["simulate", "standard", "--jobs"], "\u0663", "from 1 to 1,024"),  # an Arabic-Indic 3: ASCII digits only
    (["simulate", "standard", "--games"], "1_000", "from 1 to 1,000,000,000,000"),
    (["simulate", "standard", "--challenge-rate"], "nan", "from 0 to 1"),
    (["simulate", "standard", "--seed"], "1.5", "expected a seed (a whole number)"),
    (["compare", "standard", "standard", "--simulate"], "-3", "from 1 to 100,000,000"),
    (["play", "standard", "--seat"], "-1", "from 0 to 999"),
    (["verify", "standard", "--searches"], "1001", "from 0 to 1,000"),
    (["verify", "standard", "--search-effort"], "inf", "from 0.01 to 1,000"),
    (["verify", "standard", "--time-limit"], "0.5", "from 1 to 86,400"),
    (["sweep", "spec.yaml", "--jobs"], "0", "from 1 to 1,024"),
    (["explore", "standard", "--jobs"], "0", "from 1 to 1,024"),
]


@pytest.mark.parametrize("args, value, words", OUT_OF_RANGE,
                         ids=[f"{a[0]} {a[-1]} {v[:12]}" for a, v, _ in OUT_OF_RANGE])
def test_a_value_out_of_range_is_a_usage_error_giving_the_range(args: list[str], value: str, words: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 26: every numeric option is checked at parse time; exit 2 with the range, before any work
    (`simulate --games 1000000000000` grew past 1.3 GB before playing a game)."""
    with pytest.raises(SystemExit) as stop:
        main([*args, value])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert words in err and f"argument {args[-1]}" in err and "Traceback" not in err


@pytest.mark.parametrize("value", ["70000", "-1", "\u0663", "1_000", "abc"])
def test_serve_port_is_checked_when_the_command_line_is_read(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`serve --port` has its range checked at parse time like every numeric option (it was read by `int()`,
    which took `٣` and `1_000`, and `abc` was refused without the range)."""
    with pytest.raises(SystemExit) as stop:
        main(["serve", "standard", "--port", value])
    assert stop.value.code == 2
    assert "argument --port: expected a port from 0 to 65,535" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["\u0663", "3,1_000", "3,x", "0", "3,1001"])
def test_explore_player_counts_are_ascii_whole_numbers_in_range(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`explore --players N,M` reads its counts as every other whole number is read: ASCII digits only (an
    Arabic-Indic `٣` was read as 3 by `int()`), each from 1 to 1,000, the range in the error."""
    with pytest.raises(SystemExit) as stop:
        main(["explore", "standard", "--players", value])
    assert stop.value.code == 2
    assert "expected player counts from 1 to 1,000" in capsys.readouterr().err


def _numeric_options() -> Iterator[tuple[str, argparse.Action]]:
    """Every option of every command that takes a number: its value is read by int or float, or by a type
    that refuses a 30-digit number with a range, or takes it (a seed)."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for command, sub in commands.choices.items():
        for action in sub._actions:
            if not action.option_strings or action.type in (None, str) or action.choices:
                continue
            if action.type in (int, float):
                yield command, action
                continue
            try:
                taken = action.type("9" * 30)  # type: ignore[misc, operator]
            except argparse.ArgumentTypeError as refusal:
                if " from " in str(refusal):
                    yield command, action
                continue
            if isinstance(taken, int):
                yield command, action


def _ranges_rows() -> list[list[str]]:
    table = CLI_DOC.split("## Ranges", 1)[1].split("\n## ", 1)[0]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()
            if line.startswith("| `")]


NUMERIC = sorted(((c, a) for c, a in _numeric_options()), key=lambda ca: (ca[0], ca[1].option_strings[0]))


@pytest.mark.parametrize("command, action", NUMERIC, ids=[f"{c} {a.option_strings[0]}" for c, a in NUMERIC])
def test_every_numeric_option_of_every_command_has_its_range_documented(command: str, action: argparse.Action) -> None:
    """Issue 26: "every numeric option has a documented range, checked at parse time (exit 2 with the range)".
    Walks every command's parser: the option refuses a value that is not a number and a value past its range
    with the range in the error, and docs/cli.md "Ranges" has a row for it naming the command, with that
    range and its default (old code: `serve --port` was read by `int()`; `rate`'s options, `compare --rate`
    and `serve --new-games-per-minute` had no row)."""
    option = action.option_strings[0]
    with pytest.raises(argparse.ArgumentTypeError):
        action.type("abc")  # type: ignore[misc, operator]
    rows = [r for r in _ranges_rows() if r[0].startswith(f"`{option} ") and command in r[1].replace(",", " ").split()]
    assert len(rows) == 1, f"docs/cli.md Ranges: no single row for {command} {option}"
    _, _, documented, default = rows[0]
    try:
        action.type("9" * 30)  # type: ignore[misc, operator]
        assert "any whole number" in documented  # a seed, reduced modulo 2^63
    except argparse.ArgumentTypeError as refusal:
        low, high = re.search(r"from (\S+) to ([0-9](?:[0-9,.]*[0-9])?)", str(refusal)).groups()  # type: ignore[union-attr]
        assert f"{low} to {high}" in documented, (command, option, documented)
    if isinstance(action.default, (int, float)) and not isinstance(action.default, bool):
        shown = {f"{action.default:,}", str(action.default)} if isinstance(action.default, int) else {f"{action.default:g}"}
        assert any(s in default for s in shown), (command, option, default)


def test_every_ranged_option_is_in_the_docs_table() -> None:
    """docs/cli.md "Ranges" lists each option the tests above range, with that range."""
    table = CLI_DOC.split("## Ranges", 1)[1].split("\n## ", 1)[0]
    for args, _, words in OUT_OF_RANGE:
        option = "--simulate" if args[-1] == "--simulate" else args[-1]
        if option in ("--simulate", "--seed"):
            continue  # --simulate G is --games' range; the seed's row says "any whole number"
        row = next((line for line in table.splitlines() if line.startswith(f"| `{option} ")), None)
        assert row is not None, option
        low, high = re.search(r"from (\S+) to (\S+)", words).groups()  # type: ignore[union-attr]
        assert f"{low} to {high}" in row, (option, row)


def test_the_time_limit_default_in_the_docs_is_the_verifiers() -> None:
    """The verifier's time limit (its kill timer) is `verify --time-limit`, default as docs/cli.md says."""
    from cheatdsl.commands.verify import TIME_LIMIT_DEFAULT
    from verifier.runner import HEAVY_SECONDS
    assert TIME_LIMIT_DEFAULT == HEAVY_SECONDS
    assert f"| `--time-limit SECONDS` | verify | 1 to 86,400 | {HEAVY_SECONDS:g} |" in CLI_DOC


def test_time_limit_reaches_the_verifier(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from verifier import api
    seen: dict[str, Any] = {}

    def fake(jobs: Any, settings: Any, caches: Any = None, **options: Any) -> list[list[Any]]:
        seen["settings"] = settings
        return [[] for _ in jobs]
    monkeypatch.setattr(api, "verify_all", fake)
    main(["verify", "standard", "--time-limit", "7.5", "-p", "consistency"])
    assert seen["settings"].time_limit == 7.5


def test_a_property_cut_short_by_the_time_limit_says_so(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 26: a heavy check still running when `verify --time-limit` (and its 5 s of grace) has passed is
    stopped and reported `unknown`, with the reason, in the text and the JSON alike; never a pass, never a hang."""
    import json
    import time

    from verifier.properties import registry
    from verifier.properties.verdict import proved

    def endless(subject: Any, settings: Any, caches: Any) -> Any:
        time.sleep(600)
        return proved("termination", "never reached")

    registry.properties()  # every family registered, so that the stand-in is not overwritten
    monkeypatch.setitem(registry._REGISTERED, "termination",
                        registry.Property("termination", "stands in for a check that never ends", endless, heavy=True))
    start = time.monotonic()
    main(["verify", "english-ascending", "--time-limit", "1", "-p", "termination", "--json"])
    assert time.monotonic() - start < 60
    result = json.loads(capsys.readouterr().out)["rulebooks"][0]["results"][0]
    assert (result["id"], result["verdict"]) == ("termination", "unknown")
    assert result["summary"] == "killed after 6 s"
    main(["verify", "english-ascending", "--time-limit", "1", "-p", "termination"])
    out = capsys.readouterr().out
    assert re.search(r"termination\s+unknown", out) and "killed after 6 s" in out, out
