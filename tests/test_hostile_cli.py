"""Issue 26, argument ranges: every numeric option has a documented range, checked when the command line
is read (exit status 2 with the range), and the verifier's time limit is an option."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cheatdsl.cli import main

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


def test_serve_port_out_of_range_gives_the_range(capsys: pytest.CaptureFixture[str]) -> None:
    """`serve --port` checks its range itself (exit 2), as docs/cli.md's table says."""
    assert main(["serve", "standard", "--port", "70000"]) == 2
    assert "0 to 65535" in capsys.readouterr().err
    assert "| `--port N` | serve | 0 to 65535" in CLI_DOC


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
