"""Fuzzing the command line: no input gives a traceback, every refusal is located.

A small run of what benchmarks/fuzz_campaign.py does at length: structural and byte-level mutations of
the shipped rulebooks and scenarios (tests/fuzzing.py), garbage bytes and text drawn by hypothesis, each
read by `check` and `fmt` (a rulebook) or `scenario` in this process with CHEATDSL_DEBUG=1, so a bug is an
exception here. The brief's rule: "Bad input gets a clear error and loses nothing: no Python traceback
reaches a user". Files are written only under pytest's temporary folder.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import random
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cheatdsl.cli import main
from tests.fuzzing import FuzzInput, Seed, bytewise, classify, seeds, structural

FUZZ = settings(max_examples=25, deadline=None, database=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
_numbers = itertools.count()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def outcomes(folder: Path, made: FuzzInput) -> list[tuple[str, str]]:
    """Each command's outcome on the input, read from a file of its own in `folder`."""
    path = folder / f"input-{next(_numbers)}{made.suffix}"
    path.write_bytes(made.data)
    commands = [["check", str(path)], ["fmt", str(path)]] if made.command == "check" else [["scenario", str(path)]]
    found = []
    for argv in commands:
        out = io.StringIO()
        with mock.patch.dict(os.environ, {"CHEATDSL_DEBUG": "1"}), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            status = main(argv)
        found.append(classify(argv[0], status, out.getvalue()))
    path.unlink()
    return found


def assert_handled(folder: Path, made: FuzzInput) -> None:
    for outcome, note in outcomes(folder, made):
        assert outcome in ("accepted", "located errors"), f"{made.how}: {outcome}\n{note}"


RULEBOOK_SEEDS = [s for s in seeds() if s.command == "check"]
SCENARIO_SEEDS = [s for s in seeds() if s.command == "scenario"]


@FUZZ
@given(seed=st.sampled_from(RULEBOOK_SEEDS), rng=st.randoms(use_true_random=False))
def test_structural_mutations_of_rulebooks(folder: Path, seed: Seed, rng: random.Random) -> None:
    """Shipped rulebooks with values deleted, swapped and replaced, as YAML or DSL: checked or refused, located."""
    assert_handled(folder, structural(seed, rng))


@FUZZ
@given(seed=st.sampled_from(SCENARIO_SEEDS), rng=st.randoms(use_true_random=False))
def test_structural_mutations_of_scenarios(folder: Path, seed: Seed, rng: random.Random) -> None:
    """Scenario files mutated the same way: run, or refused with located errors."""
    assert_handled(folder, structural(seed, rng))


@FUZZ
@given(seed=st.sampled_from(seeds()), rng=st.randoms(use_true_random=False))
def test_byte_mutations(folder: Path, seed: Seed, rng: random.Random) -> None:
    """Shipped files with bytes flipped, inserted, deleted, repeated and cut."""
    assert_handled(folder, bytewise(seed, rng))


@FUZZ
@given(data=st.binary(max_size=3000), form=st.sampled_from([(".yaml", "check"), (".cheat", "check"),
                                                            (".yaml", "scenario")]))
def test_garbage_bytes(folder: Path, data: bytes, form: tuple[str, str]) -> None:
    """Any bytes at all, as a rulebook of either form or as a scenario."""
    assert_handled(folder, FuzzInput("garbage", form[0], form[1], data))


@FUZZ
@given(text=st.text(alphabet=st.sampled_from(list("{}[]:,;`\"'#&*!?-|>\n \t.0123456789aAzZ_\\")), max_size=400),
       form=st.sampled_from([(".yaml", "check"), (".cheat", "check"), (".yaml", "scenario")]))
def test_garbage_punctuation(folder: Path, text: str, form: tuple[str, str]) -> None:
    """Text made of the characters both forms give meaning to: brackets, quotes, anchors, tags, separators."""
    assert_handled(folder, FuzzInput("punctuation", form[0], form[1], text.encode("utf-8")))


# --- the surfaces of issue 26: a small sample of each campaign of benchmarks/fuzz_campaign.py --surface ----

SAMPLE = settings(max_examples=8, deadline=None, database=None, derandomize=True,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def run_main(argv: list[str]) -> tuple[object, str]:
    out = io.StringIO()
    with mock.patch.dict(os.environ, {"CHEATDSL_DEBUG": "1"}), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            status: object = main(argv)
        except SystemExit as exc:  # argparse's usage errors
            status = exc.code
    return status, out.getvalue()


@SAMPLE
@given(number=st.integers(min_value=0, max_value=10**6))
def test_sweep_specs_sample(folder: Path, number: int) -> None:
    """Issue 26, surface sweep: a mutated spec runs (exit 0), or is refused (1 or 2), never exit 3."""
    from tests.surfaces import classify_exit, sweep_spec
    spec = folder / f"spec-{number}.yaml"
    spec.write_bytes(sweep_spec(number).data)
    status, output = run_main(["sweep", str(spec), "--out", str(folder / f"out-{number}")])
    assert classify_exit(status, output)[0] in ("accepted", "refused"), output[-2000:]


@SAMPLE
@given(number=st.integers(min_value=0, max_value=10**6))
def test_command_lines_sample(folder: Path, number: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26, surface cli: awkward option values end in a usage error or a result, never a traceback."""
    from tests.surfaces import classify_exit, command_line
    monkeypatch.chdir(folder)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    status, output = run_main(list(command_line(number).argv))
    assert classify_exit(status, output)[0] in ("accepted", "refused"), output[-2000:]


@pytest.fixture(scope="module")
def lsp_target():  # type: ignore[no-untyped-def]
    from tests.surfaces import LspTarget
    target = LspTarget()
    yield target
    target.close()


@SAMPLE
@given(number=st.integers(min_value=0, max_value=10**6))
def test_language_server_streams_sample(lsp_target, number: int) -> None:  # type: ignore[no-untyped-def]
    """Issue 26, surface lsp: after any stretch of bytes the server still answers a probe."""
    from tests.surfaces import lsp_bytes
    outcome, _, note = lsp_target.run(lsp_bytes(number), 30)
    assert outcome == "accepted", note


@pytest.fixture(scope="module")
def serve_target():  # type: ignore[no-untyped-def]
    pytest.importorskip("uvicorn")
    from tests.surfaces import ServeTarget
    target = ServeTarget()
    yield target
    target.close()


@SAMPLE
@given(number=st.integers(min_value=0, max_value=10**6))
def test_practice_table_requests_sample(serve_target, number: int) -> None:  # type: ignore[no-untyped-def]
    """Issue 26, surface serve (127.0.0.1 only): a malformed request gets a 4xx, never a 5xx or no answer."""
    from tests.surfaces import serve_request
    outcome, status, note = serve_target.run(serve_request(number), 30)
    assert outcome in ("accepted", "refused"), f"{status}: {note}"
