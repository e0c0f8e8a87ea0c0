"""The language server, driven over stdio by a real LSP client (pytest-lsp): diagnostics as `check` gives
them, hover, completion, go to definition, formatting of .cheat files and document symbols."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from cheatdsl.cli import main
from cheatdsl.commands.fmt import convert
from cheatdsl.diagnostics import Diagnostics
from cheatdsl.syntax.loader import read_tree

ROOT = Path(__file__).resolve().parents[1]
STANDARD = ROOT / "rulebooks" / "standard.yaml"
MODULE = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module",
                    config=ClientServerConfig(server_command=[sys.executable, "-m", "cheatdsl", "lsp"]))
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=pytest_lsp.client_capabilities("visual-studio-code")))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("lsp")


async def opened(client: LanguageClient, path: Path, text: str | None = None,
                 language: str = "yaml") -> list[types.Diagnostic]:
    """Open the file (with `text` as the editor's unsaved buffer) and wait for its diagnostics."""
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id=language, version=1, text=path.read_text(encoding="utf-8") if text is None else text)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[uri])


def check_json(path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    main(["check", "--format", "json", str(path)])
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def broken_standard() -> str:
    text = STANDARD.read_text(encoding="utf-8")
    return (text.replace("players:", "player:", 1).replace("style: all", "style: everyone", 1)
            .replace("reveal: play", "reveal: hand", 1))


@MODULE
async def test_diagnostics_on_open_have_checks_codes_and_places(client: LanguageClient, folder: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = folder / "broken.yaml"
    path.write_text(broken_standard(), encoding="utf-8")
    shown = await opened(client, path)
    expected = check_json(path, capsys)
    assert len(expected) >= 3
    assert sorted((d.code, d.range.start.line + 1, d.range.start.character + 1) for d in shown) == \
        sorted((e["code"], e["line"], e["column"]) for e in expected)
    unknown = next(d for d in shown if d.code == "E200")
    assert (unknown.range.end.character - unknown.range.start.character) == len("player")
    assert "did you mean `players`?" in unknown.message
    assert all(d.source == "cheatdsl" for d in shown)


@MODULE
async def test_diagnostics_of_a_cheat_file_match_check(client: LanguageClient, folder: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = folder / "broken.cheat"
    text = (ROOT / "rulebooks" / "english-ascending.cheat").read_text(encoding="utf-8")
    path.write_text(text.replace("players 3..6", "players 3..1", 1) + "\nclaim { count most }\n", encoding="utf-8")
    shown = await opened(client, path, language="cheat")
    expected = check_json(path, capsys)
    assert expected
    assert sorted((d.code, d.range.start.line + 1, d.range.start.character + 1) for d in shown) == \
        sorted((e["code"], e["line"], e["column"]) for e in expected)


@MODULE
async def test_diagnostics_follow_the_unsaved_buffer_and_nothing_is_written(client: LanguageClient,
                                                                            folder: Path) -> None:
    path = folder / "edited.yaml"
    path.write_text(broken_standard(), encoding="utf-8")
    assert await opened(client, path)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=STANDARD.read_text(encoding="utf-8"))]))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[path.as_uri()]) == []
    assert path.read_text(encoding="utf-8") == broken_standard()


@MODULE
async def test_a_problem_in_a_base_rulebook_is_shown_on_extends(client: LanguageClient, folder: Path) -> None:
    (folder / "base.yaml").write_text(broken_standard(), encoding="utf-8")
    path = folder / "house.yaml"
    shown = await opened(client, path, "rulebook: house\nextends: base.yaml\n")
    assert shown and all(d.range.start.line == 1 and d.range.start.character == 9 for d in shown)
    assert any("base.yaml" in d.message and d.code == "E200" for d in shown)


@MODULE
async def test_scenario_files_get_no_diagnostics(client: LanguageClient, folder: Path) -> None:
    path = folder / "scenario.yaml"
    assert await opened(client, path, "scenario: a ruling\nrulebook: standard\nactions: []\n") == []


@MODULE
async def test_hover_shows_the_reference_text_of_a_field(client: LanguageClient) -> None:
    text = STANDARD.read_text(encoding="utf-8")
    await opened(client, STANDARD, text)
    lines = text.splitlines()
    line = next(i for i, x in enumerate(lines) if x.strip().startswith("style: all"))
    column = lines[line].index("style") + 2
    answer = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=STANDARD.as_uri()),
        position=types.Position(line=line, character=column)))
    assert answer is not None
    assert isinstance(answer.contents, types.MarkupContent)
    assert "**`deal.style`**: `all` | `equal` | `fixed`" in answer.contents.value
    assert "every card, hands may differ by one" in answer.contents.value


@MODULE
async def test_hover_works_in_a_file_that_does_not_read_yet(client: LanguageClient, folder: Path) -> None:
    path = folder / "typing.yaml"
    await opened(client, path, "claim:\n  count: exact\n  round_ends: [\n")
    answer = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=types.Position(line=1, character=4)))
    assert answer is not None and isinstance(answer.contents, types.MarkupContent)
    assert answer.contents.value.startswith("**`claim.count`**: `exact` | `extra_allowed` | `any`")


async def complete(client: LanguageClient, path: Path, text: str, language: str = "yaml") -> list[str]:
    """The labels offered at the end of `text`."""
    await opened(client, path, text, language)
    lines = text.split("\n")
    answer = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        position=types.Position(line=len(lines) - 1, character=len(lines[-1]))))
    assert isinstance(answer, types.CompletionList)
    return [item.label for item in answer.items]


@MODULE
async def test_completion_offers_sections_fields_and_allowed_values(client: LanguageClient, folder: Path) -> None:
    top = await complete(client, folder / "c1.yaml", "rulebook: x\n")
    assert {"deck", "deal", "setup", "claim", "passing", "challenge", "sets", "ending", "extends"} <= set(top)
    assert await complete(client, folder / "c2.yaml", "deck:\n  packs: 1\n  ") == \
        ["ranks", "suits", "packs", "jokers", "jokers_wild", "ranks_used"]
    assert await complete(client, folder / "c3.yaml", "deal:\n  style: ") == ["all", "equal", "fixed"]
    assert await complete(client, folder / "c4.yaml", "challenge:\n  penalty:\n    kind: ") == ["take_pile", "draw"]
    assert await complete(client, folder / "c5.yaml", "challenge:\n  kinds:\n    - name: x\n      test: ") == \
        ["played", "hand"]
    assert "termination" in await complete(client, folder / "c6.yaml", "expect:\n  ")
    assert "standard" in await complete(client, folder / "c7.yaml", "extends: ")


@MODULE
async def test_completion_in_the_text_dsl(client: LanguageClient, folder: Path) -> None:
    path = folder / "c.cheat"
    assert await complete(client, path, "ending {\n  style ", "cheat") == ["first_out", "last_holder_loses"]
    assert "round_ends" in await complete(client, path, "claim {\n  cards 1..4\n  ", "cheat")
    assert await complete(client, path, "claim { round_ends [challenge, ", "cheat") == ["challenge", "all_pass"]


@MODULE
async def test_go_to_definition_of_extends_and_of_a_variation(client: LanguageClient, folder: Path) -> None:
    path = folder / "defs.yaml"
    text = "extends: standard\nuse: [big-table]\n"
    await opened(client, path, text)
    here = types.TextDocumentIdentifier(uri=path.as_uri())
    base = await client.text_document_definition_async(types.DefinitionParams(
        text_document=here, position=types.Position(line=0, character=11)))
    assert isinstance(base, types.Location) and Path(base.uri.removeprefix("file://")) == STANDARD.resolve()
    variation = await client.text_document_definition_async(types.DefinitionParams(
        text_document=here, position=types.Position(line=1, character=8)))
    assert isinstance(variation, types.Location)
    line = STANDARD.read_text(encoding="utf-8").splitlines()[variation.range.start.line]
    assert line.strip() == "big-table:"


async def format_text(client: LanguageClient, path: Path, text: str) -> list[types.TextEdit] | None:
    await opened(client, path, text, "cheat")
    return await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        options=types.FormattingOptions(tab_size=2, insert_spaces=True)))


@MODULE
async def test_formatting_a_cheat_file_prints_it_as_fmt_does(client: LanguageClient, folder: Path) -> None:
    tree = read_tree(str(STANDARD), Diagnostics())
    assert tree is not None
    pretty = convert(tree, "cheat")  # type: ignore[arg-type]
    squashed = "\n".join(" ".join(line.split()) for line in pretty.splitlines()) + "\n\n"
    edits = await format_text(client, folder / "squashed.cheat", squashed)
    assert edits is not None and len(edits) == 1 and edits[0].new_text == pretty
    assert not await format_text(client, folder / "pretty.cheat", pretty)


@MODULE
async def test_formatting_leaves_a_file_with_comments_alone(client: LanguageClient, folder: Path) -> None:
    text = (ROOT / "rulebooks" / "english-ascending.cheat").read_text(encoding="utf-8")
    assert "#" in text
    assert await format_text(client, folder / "commented.cheat", text) is None
    assert any("comments" in m.message for m in client.messages)


@MODULE
async def test_document_symbols_list_the_sections(client: LanguageClient) -> None:
    await opened(client, STANDARD)
    found = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=STANDARD.as_uri())))
    assert found is not None
    names = [s.name for s in found]
    assert ["deck", "deal", "setup", "claim", "passing", "challenge", "ending"] == \
        [n for n in names if n in ("deck", "deal", "setup", "claim", "passing", "challenge", "ending")]
    challenge = next(s for s in found if s.name == "challenge")
    assert isinstance(challenge, types.DocumentSymbol) and challenge.kind == types.SymbolKind.Namespace
    assert "penalty" in [c.name for c in challenge.children or []]


def test_lsp_without_pygls_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "pygls", None)
    assert main(["lsp"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'cheatdsl[lsp]'" in err and "Traceback" not in err


def test_every_feature_answers_any_text_without_failing() -> None:
    """Half-typed and garbled files (as an editor sends them) never make a feature raise."""
    from cheatdsl.lsp import features

    rng = random.Random(10)
    sources = {"f.yaml": STANDARD.read_text(encoding="utf-8"),
               "f.cheat": (ROOT / "rulebooks" / "english-ascending.cheat").read_text(encoding="utf-8")}
    alphabet = "ab:{}[]-#`\"\n  ,;.\t12xé"
    for index in range(150):
        name = "f.yaml" if index % 2 else "f.cheat"
        source, path = sources[name], str(ROOT / "rulebooks" / name)
        cut = rng.randrange(len(source))
        noise = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 6)))
        text = source[:cut] + noise + source[cut + rng.randrange(0, 30):] if index % 7 else noise * 5
        lines = text.split("\n")
        line = rng.randrange(len(lines))
        column = rng.randrange(len(lines[line]) + 1)
        features.diagnostics(path, text)
        features.hover(path, text, line, column)
        features.completion(path, text, line, column)
        features.definition(path, text, line, column)
        features.symbols(path, text)
        features.formatted(path, text)
