"""The language server over stdio (pygls): each request answered by cheatdsl.lsp.features."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, TypeVar
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcInternalError
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import ServerTextPosition

from .. import __version__
from . import features
from .frames import BadFrame, Frames

server = LanguageServer("cheatdsl", __version__)
Params = TypeVar("Params")
Answer = TypeVar("Answer")


def _guarded(handler: Callable[[Params], Answer]) -> Callable[[Params], Answer]:
    """The handler, with any failure answered as a one-line internal error (no traceback is sent)."""
    @functools.wraps(handler)
    def guarded(params: Params) -> Answer:
        try:
            return handler(params)
        except Exception as exc:
            raise JsonRpcInternalError(f"cheatdsl could not answer: {type(exc).__name__}") from None
    return guarded


def _path(document: TextDocument) -> str:
    """The document's file path; an unsaved buffer gets a name with its language's suffix."""
    path = to_fs_path(document.uri)
    if path:
        return path
    return "untitled.cheat" if document.language_id == "cheat" else "untitled.yaml"


def _here(document: TextDocument, position: types.Position) -> tuple[int, int]:
    """The client's position as a line and a code-point column."""
    if position.line >= len(document.lines):  # the empty last line after a final newline
        return position.line, position.character
    at = document.position_from_client_units(position)
    return at.line, at.character


def _client_position(document: TextDocument, position: types.Position) -> types.Position:
    return document.position_to_client_units(ServerTextPosition(position.line, position.character))


def _client_range(document: TextDocument, span: types.Range) -> types.Range:
    return types.Range(start=_client_position(document, span.start), end=_client_position(document, span.end))


def _opened(uri: str) -> TextDocument | None:
    """The document the client opened at `uri`; None for any other (its file is never read)."""
    return server.workspace.text_documents.get(unquote(uri))


def _publish(uri: str) -> None:
    document = _opened(uri)
    if document is None:
        return
    path, text = _path(document), document.source
    found = features.diagnostics(path, text) if features.is_rulebook(path, text) else []
    for item in found:
        item.range = _client_range(document, item.range)
    server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=found))


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
@_guarded
def did_open(params: types.DidOpenTextDocumentParams) -> None:
    _publish(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
@_guarded
def did_change(params: types.DidChangeTextDocumentParams) -> None:
    _publish(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
@_guarded
def did_save(params: types.DidSaveTextDocumentParams) -> None:
    _publish(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
@_guarded
def did_close(params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(types.TEXT_DOCUMENT_HOVER)
@_guarded
def hover(params: types.HoverParams) -> types.Hover | None:
    document = _opened(params.text_document.uri)
    if document is None:
        return None
    answer = features.hover(_path(document), document.source, *_here(document, params.position))
    if answer is not None and answer.range is not None:
        answer.range = _client_range(document, answer.range)
    return answer


@server.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=[":", " ", "[", ","]))
@_guarded
def completion(params: types.CompletionParams) -> types.CompletionList:
    document = _opened(params.text_document.uri)
    if document is None:
        return types.CompletionList(is_incomplete=False, items=[])
    items = features.completion(_path(document), document.source, *_here(document, params.position))
    return types.CompletionList(is_incomplete=False, items=items)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
@_guarded
def definition(params: types.DefinitionParams) -> types.Location | None:
    document = _opened(params.text_document.uri)
    if document is None:
        return None
    path = _path(document)
    found = features.definition(path, document.source, *_here(document, params.position))
    if found is not None and found.uri == params.text_document.uri:
        found.range = _client_range(document, found.range)
    return found


@server.feature(types.TEXT_DOCUMENT_FORMATTING)
@_guarded
def formatting(params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
    document = _opened(params.text_document.uri)
    if document is None:
        return None
    path, text = _path(document), document.source
    if not path.endswith(".cheat"):
        return None
    out = features.formatted(path, text)
    if out is None:
        reason = ("it has comments, which the printer does not keep" if features.has_comment(text)
                  else "it does not read cleanly; see its problems")
        server.window_show_message(types.ShowMessageParams(
            type=types.MessageType.Warning, message=f"cheatdsl: not formatted: {reason}"))
        return None
    if out == text:
        return []
    lines = document.lines
    end = types.Position(line=len(lines), character=0)
    whole = types.Range(start=types.Position(line=0, character=0), end=end)
    return [types.TextEdit(range=whole, new_text=out)]


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@_guarded
def document_symbols(params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    document = _opened(params.text_document.uri)
    if document is None:
        return []
    found = features.symbols(_path(document), document.source)
    _to_client(document, found)
    return found


def _to_client(document: TextDocument, found: Sequence[types.DocumentSymbol]) -> None:
    for symbol in found:
        symbol.range = _client_range(document, symbol.range)
        symbol.selection_range = _client_range(document, symbol.selection_range)
        _to_client(document, symbol.children or [])


class _OneLine(logging.Formatter):
    """A log record as one line on standard error: the message's first line, never a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        first = record.getMessage().splitlines()[:1] or [""]
        return f"cheatdsl lsp: {record.levelname.lower()}: {first[0][:300]}"


def _quiet_logs() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    for name in ("pygls", "cheatdsl"):
        log = logging.getLogger(name)
        log.handlers[:] = [handler]
        log.setLevel(logging.WARNING)
        log.propagate = False


PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INTERNAL_ERROR = -32603
NOT_INITIALIZED = -32002
READ_BYTES = 65_536


def _answer_error(msg_id: Any, code: int, message: str) -> None:
    """Send a JSON-RPC error response (id null when the message had none that could be read)."""
    server.protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})


@dataclass
class _Session:
    """What the reading loop knows of the conversation: whether `initialize` has been asked."""

    initialized: bool = False


def _handle(body: bytes, session: _Session) -> None:
    """Hand one frame's JSON to pygls; whatever it cannot take is answered with an error, not raised."""
    protocol = server.protocol
    try:
        message = json.loads(body, object_hook=protocol.structure_message)
    except Exception:
        _answer_error(None, PARSE_ERROR, "the message could not be read")
        return
    if not hasattr(message, "jsonrpc"):
        msg_id = message.get("id") if isinstance(message, dict) else None
        _answer_error(msg_id if isinstance(msg_id, (int, str)) else None, INVALID_REQUEST,
                      "not a JSON-RPC 2.0 request, notification or response")
        return
    method = getattr(message, "method", None)
    if method == types.INITIALIZE:
        session.initialized = True
    elif not session.initialized and method not in (None, types.EXIT):
        msg_id = getattr(message, "id", None)
        if msg_id is not None:
            _answer_error(msg_id, NOT_INITIALIZED, f"`{method}` before `initialize`: send `initialize` first")
        return  # a notification before initialize is dropped, as the protocol says
    try:
        protocol.handle_message(message)
    except (SystemExit, KeyboardInterrupt):
        raise
    except Exception as exc:
        msg_id = getattr(message, "id", None)
        _answer_error(msg_id if isinstance(msg_id, (int, str)) else None, INTERNAL_ERROR,
                      f"cheatdsl could not answer: {type(exc).__name__}")


async def _read_loop(stdin: BinaryIO) -> None:
    """Read frames from `stdin` until it ends or the client says exit; every frame is answered or skipped."""
    loop = asyncio.get_running_loop()
    read = getattr(stdin, "read1", stdin.read)
    frames = Frames()
    session = _Session()
    while True:
        data = await loop.run_in_executor(None, read, READ_BYTES)
        if not data:
            return
        frames.feed(data)
        for item in frames.take():
            if isinstance(item, BadFrame):
                _answer_error(None, PARSE_ERROR, f"bad frame skipped: {item.reason}")
            else:
                _handle(item.body, session)
            await asyncio.sleep(0)  # let an answer a handler scheduled go out before the next message


def serve(stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
    """Answer an editor over standard input and output until it shuts the server down or input ends.

    Any byte stream is survived: a bad frame is answered with a parse error and skipped, and the next
    message is served; a problem is logged as one line on standard error, never as a traceback."""
    _quiet_logs()
    server.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
    try:
        asyncio.run(_read_loop(stdin or sys.stdin.buffer))
    except (BrokenPipeError, KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
