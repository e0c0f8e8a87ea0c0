"""The language server over stdio (pygls): each request answered by cheatdsl.lsp.features."""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import ServerTextPosition

from .. import __version__
from . import features

server = LanguageServer("cheatdsl", __version__)


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


def _publish(uri: str) -> None:
    document = server.workspace.get_text_document(uri)
    path, text = _path(document), document.source
    found = features.diagnostics(path, text) if features.is_rulebook(path, text) else []
    for item in found:
        item.range = _client_range(document, item.range)
    server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=found))


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(params: types.DidOpenTextDocumentParams) -> None:
    _publish(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(params: types.DidChangeTextDocumentParams) -> None:
    _publish(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(params: types.DidSaveTextDocumentParams) -> None:
    _publish(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(params: types.HoverParams) -> types.Hover | None:
    document = server.workspace.get_text_document(params.text_document.uri)
    answer = features.hover(_path(document), document.source, *_here(document, params.position))
    if answer is not None and answer.range is not None:
        answer.range = _client_range(document, answer.range)
    return answer


@server.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=[":", " ", "[", ","]))
def completion(params: types.CompletionParams) -> types.CompletionList:
    document = server.workspace.get_text_document(params.text_document.uri)
    items = features.completion(_path(document), document.source, *_here(document, params.position))
    return types.CompletionList(is_incomplete=False, items=items)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(params: types.DefinitionParams) -> types.Location | None:
    document = server.workspace.get_text_document(params.text_document.uri)
    path = _path(document)
    found = features.definition(path, document.source, *_here(document, params.position))
    if found is not None and found.uri == params.text_document.uri:
        found.range = _client_range(document, found.range)
    return found


@server.feature(types.TEXT_DOCUMENT_FORMATTING)
def formatting(params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
    document = server.workspace.get_text_document(params.text_document.uri)
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
def document_symbols(params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    document = server.workspace.get_text_document(params.text_document.uri)
    found = features.symbols(_path(document), document.source)
    _to_client(document, found)
    return found


def _to_client(document: TextDocument, found: Sequence[types.DocumentSymbol]) -> None:
    for symbol in found:
        symbol.range = _client_range(document, symbol.range)
        symbol.selection_range = _client_range(document, symbol.selection_range)
        _to_client(document, symbol.children or [])


def serve() -> None:
    """Answer an editor over standard input and output until it shuts the server down."""
    server.start_io()
