"""Issue 26, reproducers 3 and 4 and the one file reader: every file a command reads goes through
cheatdsl.files, which refuses what is no regular file, or is over the limit, with a located error."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from cheatdsl.diagnostics import Diagnostics
from cheatdsl.files import FileRefused, Refusal, read_bytes, read_text
from cheatdsl.limits import MAX_FILE_BYTES
from cheatdsl.scenario.reader import read_scenario
from cheatdsl.sweep.spec import read_spec

ROOT = Path(__file__).resolve().parent.parent
ONE_GB = 1 << 30


def _bounded() -> None:
    """Run the child in at most 1 GB of address space, so an unbounded read fails instead of swapping."""
    resource.setrlimit(resource.RLIMIT_AS, (ONE_GB, ONE_GB))


def cheatdsl(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "cheatdsl", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, preexec_fn=_bounded, stdin=subprocess.DEVNULL)


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.yaml"
    os.mkfifo(path)
    return path


def test_scenario_on_a_named_pipe_is_refused_at_once(fifo: Path) -> None:
    """Issue 26 point 3: `cheatdsl scenario` on a named pipe hung for ever (`check` refused it at once)."""
    done = cheatdsl("scenario", str(fifo))
    assert done.returncode == 1, done.stderr
    assert f"{fifo}:1:1: error[S001]" in done.stdout and "not a regular file" in done.stdout


def test_scenario_on_dev_zero_is_refused_without_reading_it() -> None:
    """Issue 26 point 4: `cheatdsl scenario /dev/zero` read the device whole (9 GB in 8 s)."""
    done = cheatdsl("scenario", "/dev/zero")
    assert done.returncode == 1, done.stderr[-2000:]
    assert "/dev/zero:1:1: error[S001]" in done.stdout and "Traceback" not in done.stderr


def test_the_reader_refuses_with_the_reason(tmp_path: Path, fifo: Path) -> None:
    """The one reader: a pipe, a device, a folder, a missing file and a file over the limit are refused."""
    big = tmp_path / "big.yaml"
    with open(big, "wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)
    small = tmp_path / "small.yaml"
    small.write_bytes(b"\xef\xbb\xbfscenario: x\n")
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"a: 1\nb: caf\xe9\n")
    cases = {str(fifo): Refusal.NOT_REGULAR, "/dev/zero": Refusal.NOT_REGULAR, str(tmp_path): Refusal.FOLDER,
             str(tmp_path / "none"): Refusal.MISSING, str(big): Refusal.TOO_LARGE}
    for path, refusal in cases.items():
        with pytest.raises(FileRefused) as caught:
            read_bytes(path)
        assert caught.value.refusal is refusal, path
    assert read_text(str(small)) == "scenario: x\n"
    with pytest.raises(FileRefused) as caught:
        read_text(str(latin))
    assert caught.value.refusal is Refusal.NOT_TEXT and caught.value.line == 2
    with pytest.raises(FileRefused):
        read_bytes(str(small), limit=3)


def test_scenario_and_spec_readers_locate_the_refusal(tmp_path: Path, fifo: Path) -> None:
    """Scenario files and sweep specs are read by the one reader: each refusal is an error at line 1
    (or at the line where the text stops being UTF-8)."""
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"scenario: x\nrulebook: caf\xe9\n")
    for reader, code in ((read_scenario, "S"), (read_spec, "W")):
        for path, line in ((str(fifo), 1), ("/dev/zero", 1), (str(latin), 2)):
            d = Diagnostics()
            assert reader(path, d) is None
            (error,) = d.errors
            assert error.code.startswith(code) and (error.span.file, error.span.line) == (path, line)


def test_a_lesson_file_that_is_a_pipe_is_refused(fifo: Path) -> None:
    """Lesson files go through the one reader too (a pipe among the lessons is a clear LessonError)."""
    from cheatdsl.serve.lessons import LessonError, read_lesson
    with pytest.raises(LessonError, match="not a regular file"):
        read_lesson(fifo)
