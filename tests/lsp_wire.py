"""A bare client for `cheatdsl lsp` over stdio that can send any bytes, for the hostile-input tests and
the fuzz campaign: frames are written as given and answers are read back by id, with a time limit."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def frame(message: dict[str, Any] | bytes) -> bytes:
    """A well-formed frame around a message (a dict is written as JSON)."""
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(msg_id: int, method: str, params: dict[str, Any] | None = None) -> bytes:
    return frame({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params or {}})


def notification(method: str, params: dict[str, Any] | None = None) -> bytes:
    return frame({"jsonrpc": "2.0", "method": method, "params": params or {}})


INITIALIZE = request(1, "initialize", {"processId": None, "rootUri": None, "capabilities": {}})
INITIALIZED = notification("initialized")


class Wire:
    """A running `cheatdsl lsp` with its answers collected as they come."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen([sys.executable, "-m", "cheatdsl", "lsp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
        self.answers: queue.Queue[dict[str, Any]] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        out = self.process.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
                if line in (b"\r\n", b"\n"):
                    break
            if length is None:
                continue
            self.answers.put(json.loads(out.read(length)))

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def answer(self, msg_id: int, timeout: float = 30.0) -> dict[str, Any]:
        """The response to request `msg_id` (other messages on the way are kept in `seen`)."""
        while True:
            got = self.answers.get(timeout=timeout)
            if got.get("id") == msg_id and "method" not in got:
                return got

    def close(self, timeout: float = 30.0) -> tuple[int, str]:
        """Shut the server down politely (or kill it) and return its exit status and standard error."""
        try:
            self.send(request(999_999, "shutdown") + notification("exit"))
        except (BrokenPipeError, OSError):
            pass  # the server is gone already (killed, or it exited)
        try:
            self.process.stdin.close()  # type: ignore[union-attr]  # closed even where the write failed
        except (BrokenPipeError, OSError):
            pass
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        err = self.process.stderr.read().decode("utf-8", errors="replace")  # type: ignore[union-attr]
        self._reader.join(timeout=timeout)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
        return self.process.returncode, err
