"""Hostile inputs for the surfaces added after the readers: sweep specs, command lines, the language
server's byte stream and the practice table's HTTP requests (issue 26).

Each generator makes input `number` of a campaign the same way every time for the same seed; the
runners say what the surface made of it as (outcome, exit code or status, note). Shared by
tests/test_fuzz.py (a small sample) and benchmarks/fuzz_campaign.py (`--surface`).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.lsp_wire import INITIALIZE, INITIALIZED, Wire, frame, notification, request

ROOT = Path(__file__).resolve().parent.parent
AWKWARD = [0, -1, 1, 2, 3, 20, 2**63, -(2**63) - 1, 10**30, 0.5, -0.0, "nan", "inf", True, False, None, "", "x" * 300,
           "../../etc/passwd", "/dev/zero", "standard", "all", "each", "none", "min", [], {}, [3], [0], [2, 99],
           ["honest"], ["greedy,honest,random"], {"a": 1}, "!!python/object/apply:os.system ['true']",
           "\u202e\u0000", "9" * 50]
SPEC_KEYS = ["sweep", "rulebooks", "variations", "players", "bots", "games", "seed", "verify", "turn_cap",
             "challenge_rate", "gamez", ""]
SMALL_GAMES = [0, 1, 2, 5]  # a campaign looks for crashes and hangs, so the work each spec asks is kept small


@dataclass(frozen=True)
class SurfaceInput:
    """One input: what it is (for the report) and its bytes or arguments."""

    how: str
    data: bytes = b""
    argv: tuple[str, ...] = ()


def _yaml_value(value: Any) -> str:
    if isinstance(value, str) and value.startswith("!!"):
        return value
    return json.dumps(value, ensure_ascii=False)


def sweep_spec(number: int, seed: int = 0) -> SurfaceInput:
    """A sweep spec: a small valid one with keys dropped, repeated, renamed or given awkward values,
    or its bytes cut and spliced. Games stay at most 5 a cell and verification at one cheap property."""
    rng = random.Random(f"sweep:{seed}:{number}")
    fields: dict[str, Any] = {"sweep": "fz", "rulebooks": [rng.choice(["standard", "english-ascending", "mogeln"])],
                              "variations": rng.choice(["none", "each"]), "players": [rng.choice([2, 3, 4])],
                              "bots": ["honest"], "games": rng.choice(SMALL_GAMES[1:]), "seed": rng.randrange(100),
                              "verify": rng.choice([False, ["ranks-exist"]])}
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        key = rng.choice(SPEC_KEYS)
        action = rng.random()
        if action < 0.2:
            fields.pop(key, None)
        elif key == "games":
            fields[key] = rng.choice(SMALL_GAMES + ["x", -1, 2.5])  # null would mean the default, 100 games
        elif key == "verify":
            fields[key] = rng.choice([False, ["ranks-exist"], ["nonsense"], "yes", 3])
        elif key == "variations" and rng.random() < 0.7:
            fields[key] = rng.choice(["none", "each", [[]], [["no-such"]], "some"])
        elif key not in ("games", "verify", "variations"):
            fields[key] = rng.choice(AWKWARD)
    text = "".join(f"{k}: {_yaml_value(v)}\n" for k, v in fields.items())
    data = text.encode("utf-8", errors="surrogatepass")
    how = "spec fields"
    if rng.random() < 0.15:
        cut = rng.randrange(len(data) + 1)
        data = data[:cut] + bytes(rng.randrange(256) for _ in range(rng.randint(0, 12))) + data[cut + rng.randrange(8):]
        how = "spec bytes"
    return SurfaceInput(how, data)


COMMANDS = {
    "check": ["--format", "--json", "-V", "--variation"],
    "simulate": ["--games", "--players", "--seed", "--turn-cap", "--jobs", "--challenge-rate", "--bots", "--format",
                 "-V"],
    "compare": ["--simulate", "--players", "--seed", "--format"],
    "verify": ["--players", "--searches", "--search-effort", "--time-limit", "--property", "-V", "--format"],
    "explore": ["--players", "--jobs", "--property", "--scheduler", "--format"],
    "sweep": ["--jobs", "--scheduler", "--format"],
    "list": ["--format"],
    "fmt": ["--check"],
    "diff": ["--format"],
    "schema": [],
}
NUMBERS = ["0", "-1", "1", "2", "3", "-5", "1e3", "nan", "inf", "-inf", "0.5", "abc", "", " 7", "1_000", "٣",
           "99999999999999999999", str(2**63), str(-(2**64)), "3" * 5000]
WORDS = ["standard", "english-ascending", "no-such", "/dev/zero", "-", "honest", "greedy,honest", "json", "text",
         "md", "consistency", "not a url", "tcp://127.0.0.1:9", "tcp://", "--", "-V", "x" * 200]
WITHIN = {"--games": "3", "--simulate": "3", "--jobs": "1", "--turn-cap": "50", "--players": "3"}


def command_line(number: int, seed: int = 0) -> SurfaceInput:
    """A command line: a command, a rulebook or two, and options with awkward values. A value in range
    for an option that sets the work (games, jobs, turn cap) is kept small, so that a run is short."""
    rng = random.Random(f"cli:{seed}:{number}")
    command = rng.choice(list(COMMANDS))
    argv = [command]
    # The verifier's commands get rulebooks of at most one variation: `explore standard` is 128 cells of
    # honest work, not a hang.
    named = ["english-ascending", "verish-ne-verish", "no-such", "/dev/zero", "-", "mogeln"]
    if command not in ("verify", "compare", "explore"):
        named.append("standard")
    if command not in ("list", "schema", "sweep"):
        argv += rng.sample(named, rng.randint(0, 2))
    if command == "sweep":
        argv.append(rng.choice(["docs/examples/sweeps/no-such.yaml", "/dev/zero", "-"]))
    for _ in range(rng.randint(0, 4)):
        option = rng.choice(COMMANDS[command] or ["--help"])
        value = rng.choice(NUMBERS + WORDS) if rng.random() < 0.85 else WITHIN.get(option, "1")
        if option in WITHIN and re.fullmatch(r"[0-9]{1,18}", value.strip()) and int(value) > 5:
            value = rng.choice(NUMBERS[:9])  # no long run: out of range, or small
        if option in ("--simulate", "--games") and re.fullmatch(r"[0-9]{1,18}", value.strip()):
            value = str(min(int(value), 5))
        if option == "--jobs" and re.fullmatch(r"[0-9]{1,18}", value.strip()) and 1 < int(value) <= 1024:
            value = "1"  # a campaign worker may not start processes of its own
        argv += [option, value]
    if command in ("simulate", "compare") and "--games" not in argv and "--simulate" not in argv:
        argv += ["--games", "2"] if command == "simulate" else []
    if command == "verify" and "--property" not in argv:
        argv += ["--property", "consistency"]
    if command == "explore":
        argv += ["--property", "consistency", "--out", "explore-out"]
    if command == "compare" and "--simulate" not in argv and rng.random() < 0.8:
        argv += ["--simulate", "2"]
    if command == "sweep":
        argv += ["--out", "sweep-out"]
    return SurfaceInput("command line", argv=tuple(argv))


def classify_exit(status: object, output: str) -> tuple[str, str]:
    """A command's outcome from its exit status: 0 accepted, 1 or 2 refused, anything else (or a
    traceback, or the internal-error line) an internal error."""
    if status not in (0, 1, 2, None) or "Traceback" in output or "cheatdsl: internal error" in output \
            or "error[S900]" in output:  # not the words alone: `verify --format md` explains its exit status 3
        return "internal error", f"exit {status}: {output[-1500:]}"
    return ("accepted" if status in (0, None) else "refused"), ""


# --- the language server -------------------------------------------------------------------------------


def lsp_bytes(number: int, seed: int = 0) -> SurfaceInput:
    """A stretch of the byte stream: good and bad frames, stray bytes, requests about files never
    opened, documents opened with mutated rulebook text, positions anywhere."""
    rng = random.Random(f"lsp:{seed}:{number}")
    uri = rng.choice(["file:///tmp/h26-fuzz/a.yaml", "file:///tmp/h26-fuzz/b.cheat", "file:///dev/zero",
                      "file:///no/such.yaml", "untitled:x", "file:///etc/passwd", "nonsense", ""])
    methods = ["textDocument/hover", "textDocument/completion", "textDocument/definition",
               "textDocument/formatting", "textDocument/documentSymbol", "no/such", "initialize"]
    text = rng.choice(["deck: {", "claim:\n  count: exact\n", "ending: [", "", "\x00\x01", "use: [a, b]\n" * 3,
                       (ROOT / "rulebooks" / "standard.yaml").read_text(encoding="utf-8")[:rng.randrange(4000)]])
    pieces: list[bytes] = []
    for _ in range(rng.randint(1, 6)):
        kind = rng.random()
        position = {"line": rng.choice([0, 1, 5, -1, 10**6, 2**40]), "character": rng.choice([0, 3, 80, -2, 10**9])}
        if kind < 0.25:
            pieces.append(notification("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": rng.choice(["yaml", "cheat", ""]), "version": 1, "text": text}}))
        elif kind < 0.5:
            pieces.append(request(rng.randrange(2, 1000), rng.choice(methods),
                                  rng.choice([{"textDocument": {"uri": uri}, "position": position}, {}, None])))
        elif kind < 0.6:
            pieces.append(notification("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                                  "contentChanges": [{"text": text[::-1]}]}))
        elif kind < 0.7:
            pieces.append(rng.choice([b"Content-Length: -5\r\n\r\n", b"Content-Length: abc\r\n\r\n",
                                      b"Content-Length: 3\r\n\r\n", b"Content-Length: 99999999999\r\n\r\n",
                                      b"Content-Type: x\r\n", b"\r\n\r\n"]))
        elif kind < 0.8:
            pieces.append(frame(bytes(rng.randrange(256) for _ in range(rng.randint(0, 60)))))
        elif kind < 0.9:
            pieces.append(frame(rng.choice([b"[]", b"5", b"null", b'{"jsonrpc": "2.0"}', b'{"id": {}}',
                                            b'{"jsonrpc": "2.0", "id": 1, "method": 7}', b"[" * 5000])))
        else:
            pieces.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 80))))
    return SurfaceInput("lsp stream", b"".join(pieces))


class LspTarget:
    """A language server that stays up across inputs; each input is followed by a probe that must be
    answered. A server that died or does not answer is started again (and the input counted)."""

    def __init__(self) -> None:
        self.wire: Wire | None = None
        self.probe_id = 10_000_000
        self.peak_kb = 0

    def _start(self) -> Wire:
        wire = Wire()
        wire.send(INITIALIZE)
        wire.answer(1, timeout=60)
        wire.send(INITIALIZED)
        return wire

    def run(self, made: SurfaceInput, timeout: float) -> tuple[str, object, str]:
        if self.wire is None or self.wire.process.poll() is not None:
            self.wire = self._start()
        wire = self.wire
        self.probe_id += 2
        probe = request(self.probe_id, "textDocument/documentSymbol", {"textDocument": {"uri": "file:///p.yaml"}})
        again = request(self.probe_id + 1, "textDocument/documentSymbol", {"textDocument": {"uri": "file:///p.yaml"}})
        try:
            # The stream is separated from the probes by an empty line: a header left open by the input
            # may take the first probe as its body; the second is then served.
            wire.send(made.data + b"\r\n\r\n" + probe + again)
        except (BrokenPipeError, OSError):
            return self._died("the server closed its input")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                got = wire.answers.get(timeout=max(0.01, deadline - time.monotonic()))
            except Exception:
                break
            if got.get("id") in (self.probe_id, self.probe_id + 1) and "method" not in got:
                self._drain()
                if "error" in got:
                    return "internal error", "error", json.dumps(got)[:500]
                return "accepted", "answered", ""
            if "error" in got and (got["error"].get("data") or "Traceback" in json.dumps(got)):
                return "internal error", "error", json.dumps(got)[:500]
        if wire.process.poll() is not None:
            return self._died("the server ended")
        self.close()
        return "timeout", "no answer", f"no answer to the probe in {timeout} s"

    def _drain(self) -> None:
        assert self.wire is not None
        while not self.wire.answers.empty():
            self.wire.answers.get_nowait()
        self.peak_kb = max(self.peak_kb, _peak_kb(self.wire.process.pid))

    def _died(self, why: str) -> tuple[str, object, str]:
        assert self.wire is not None
        status, err = self.close()
        if status == 0:  # the input said shutdown and exit: the server did as asked
            return "accepted", "exit 0", ""
        return "internal error", f"exit {status}", f"{why}: {err[-1500:]}"

    def close(self) -> tuple[int, str]:
        if self.wire is None:
            return 0, ""
        self.peak_kb = max(self.peak_kb, _peak_kb(self.wire.process.pid))
        self.wire.process.kill()
        status, err = self.wire.close(timeout=10)
        self.wire = None
        if "Traceback" in err:
            return -1, err
        return (0 if status in (0, -9, 1) else status), err


def _peak_kb(pid: int) -> int:
    """The process's peak resident memory in KB (0 when it has gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


# --- the practice table ------------------------------------------------------------------------------


def serve_request(number: int, seed: int = 0) -> SurfaceInput:
    """An HTTP request to the practice table: a method, a path and a body, often malformed."""
    rng = random.Random(f"serve:{seed}:{number}")
    method = rng.choice(["GET", "POST", "GET", "POST", "PUT", "DELETE"])
    path = rng.choice(["/", "/api/tables", "/api/rules", "/api/rules?rulebook=0", "/api/rules?rulebook=x&variations=a",
                       "/api/games", "/api/games/abc", "/api/games/0/act", "/static/../../etc/passwd",
                       "/api/games/" + "9" * 300, "/%00", "/api/rules?rulebook=" + "1" * 5000])
    body_kind = rng.random()
    if body_kind < 0.4:
        body = json.dumps({rng.choice(["rulebook", "players", "seat", "variations", "lesson", "action", "seed"]):
                           rng.choice(AWKWARD) for _ in range(rng.randint(0, 4))}).encode()
    elif body_kind < 0.6:
        body = json.dumps({"rulebook": rng.randrange(3), "players": rng.choice([2, 3, 4, 99]),
                           "seat": rng.choice([0, 1, -1]), "variations": rng.choice([[], ["x"]])}).encode()
    elif body_kind < 0.8:
        body = bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))
    else:
        body = b"[" * rng.choice([1, 100, 100_000])
    return SurfaceInput(f"{method} {path[:60]}", body, (method, path))


class ServeTarget:
    """`cheatdsl serve` listening on 127.0.0.1 only (a free port), started again if it ends."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None
        self.port = 0
        self.peak_kb = 0

    def _start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen([sys.executable, "-m", "cheatdsl", "serve", "standard", "mogeln",
                                         "--host", "127.0.0.1", "--port", "0"], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if found is None:
            raise RuntimeError(f"serve did not start: {line!r}")
        self.port = int(found.group(1))

    def run(self, made: SurfaceInput, timeout: float) -> tuple[str, object, str]:
        if self.process is None or self.process.poll() is not None:
            self._start()
        method, path = made.argv
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=made.data if method in ("POST", "PUT") else None,
                               headers={"Content-Type": "application/json"})
            answer = connection.getresponse()
            text = answer.read(200_000).decode("utf-8", errors="replace")
            status = answer.status
        except TimeoutError:
            self.close()
            return "timeout", "no answer", f"no answer in {timeout} s"
        except (OSError, http.client.HTTPException) as exc:
            alive = self.process is not None and self.process.poll() is None
            if alive and isinstance(exc, http.client.InvalidURL):
                return "refused", "client", ""  # the request line could not even be sent
            self.close()
            return ("refused" if alive else "internal error"), "closed", f"{type(exc).__name__}: {exc}"
        finally:
            connection.close()
        if self.process is not None:
            self.peak_kb = max(self.peak_kb, _peak_kb(self.process.pid))
        if status >= 500 or "Traceback" in text:
            return "internal error", status, text[:500]
        return ("accepted" if status < 400 else "refused"), status, ""

    def close(self) -> None:
        if self.process is not None:
            self.peak_kb = max(self.peak_kb, _peak_kb(self.process.pid))
            self.process.kill()
            self.process.wait()
            for stream in (self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()
            self.process = None
