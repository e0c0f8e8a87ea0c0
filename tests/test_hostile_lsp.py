"""Issue 26, reproducers 5, 6 and 8: the language server survives any byte stream on stdin, answers only
for documents the client opened, and never prints a traceback.

Each test talks to `cheatdsl lsp` over stdio with tests/lsp_wire.py, which can send malformed frames.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cheatdsl.lsp import features
from cheatdsl.lsp.frames import BadFrame, Frames, Message
from tests.lsp_wire import INITIALIZE, INITIALIZED, Wire, frame, notification, request


def hover(msg_id: int, uri: str, line: int = 0, character: int = 0) -> bytes:
    return request(msg_id, "textDocument/hover",
                   {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})


def did_open(uri: str, text: str) -> bytes:
    return notification("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": text}})


@pytest.fixture(scope="module")
def wire() -> Iterator[Wire]:
    """One server for the module: each test leaves it serving, which is what the tests check."""
    client = Wire()
    client.send(INITIALIZE)
    assert "capabilities" in client.answer(1)["result"]
    client.send(INITIALIZED)
    yield client
    status, err = client.close()
    assert status == 0, err
    assert "Traceback" not in err


@pytest.mark.parametrize("bad", [
    pytest.param(b"Content-Length: -5\r\n\r\n{}", id="negative length"),
    pytest.param(b"Content-Length: abc\r\n\r\n", id="length abc"),
    pytest.param(b"Content-Length: 5\r\n\r\n" + b'{"jsonrpc": "2.0", "id": 77, "method": "shutdown"}',
                 id="short length"),
    pytest.param(b"\x00\xff stray bytes \r\n\r\n", id="stray bytes"),
    pytest.param(b"Content-Length: 99999999999\r\n\r\n", id="huge length"),
    pytest.param(frame(b"[1, 2"), id="body not json"),
    pytest.param(frame(b"[]"), id="not a request"),
    pytest.param(frame(b'{"jsonrpc": "2.0", "id": 8, "method": 5}'), id="method not text"),
])
def test_a_bad_frame_is_skipped_and_the_next_message_served(wire: Wire, bad: bytes) -> None:
    """Issue 26 point 6: `Content-Length: -5`, `abc`, a short length or stray bytes stopped the server
    answering for good; now the bad frame is answered with an error and the next request is served."""
    wire.send(bad + request(40, "textDocument/documentSymbol", {"textDocument": {"uri": "file:///x.yaml"}}))
    assert wire.answer(40, timeout=30) == {"jsonrpc": "2.0", "id": 40, "result": []}


def test_a_document_not_opened_is_not_read(wire: Wire) -> None:
    """Issue 26 point 5: hover on file:///dev/zero grew without bound and a missing file gave a traceback;
    the server answers only for documents the client opened."""
    wire.send(hover(50, "file:///dev/zero") + hover(51, "file:///no/such/file.yaml"))
    assert wire.answer(50) == {"jsonrpc": "2.0", "id": 50, "result": None}
    assert wire.answer(51) == {"jsonrpc": "2.0", "id": 51, "result": None}


def test_hover_past_the_end_of_a_line_that_does_not_parse(wire: Wire) -> None:
    """Issue 26 point 8: hover past the end of a line in a document that does not parse raised IndexError."""
    uri = "file:///tmp/h26-never-written/typing.yaml"
    wire.send(did_open(uri, "claim:\n  count: exact\n  round_ends: [\n") + hover(60, uri, 1, 500)
              + hover(61, uri, 90, 3))
    assert "error" not in wire.answer(60)
    assert "error" not in wire.answer(61)


def test_features_take_any_place() -> None:
    """Issue 26 point 8, in process: a place past a line's end or past the last line is moved inside."""
    text = "deck: {"
    for line, column in ((0, 50), (3, 0), (-1, -1), (10**9, 10**9)):
        features.hover("f.yaml", text, line, column)
        features.completion("f.cheat", text, line, column)
        features.definition("f.yaml", text, line, column)


def test_a_request_before_initialize_gets_an_error_not_a_traceback() -> None:
    """Issue 26 point 6: a request before `initialize` gave a traceback; it gets ServerNotInitialized."""
    client = Wire()
    client.send(hover(5, "file:///dev/zero") + INITIALIZE)
    answer = client.answer(5)
    assert answer["error"]["code"] == -32002 and "data" not in answer["error"]
    assert "capabilities" in client.answer(1)["result"]
    status, err = client.close()
    assert status == 0 and "Traceback" not in err


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.binary(max_size=40), st.sampled_from([
    b"Content-Length: ", b"\r\n", b"\r\n\r\n", b"-5", b"abc", b"{}", b'{"jsonrpc":"2.0"}', b"Content-Type: x\r\n",
])), max_size=12), st.integers(min_value=1, max_value=9))
def test_frames_after_any_bytes_find_the_next_message(noise: list[bytes], chunk: int) -> None:
    """Issue 26 point 6, the framing alone: whatever bytes come first, fed in any chunks, a well-formed
    message after them is found (a noise that ends inside a header may take it as its body at worst
    when it declares a length; then the one after is found)."""
    good = frame(b'{"jsonrpc": "2.0", "id": 1, "method": "x"}')
    data = b"".join(noise) + b"\r\n\r\n" + good + good
    frames = Frames(max_body=1_000)
    got: list[Message | BadFrame] = []
    for at in range(0, len(data), chunk):
        frames.feed(data[at:at + chunk])
        got.extend(frames.take())
    assert any(isinstance(x, Message) and b'"id": 1' in x.body for x in got)
