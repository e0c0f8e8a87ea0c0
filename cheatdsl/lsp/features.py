"""What the language server answers, worked out from a document's path and text.

Positions here are 0-based lines and code-point columns; the server converts them to the client's units.
"""

from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types

from ..diagnostics import Diagnostic, Diagnostics, Severity
from ..profiles import shipped_names
from ..properties import PROPERTY_IDS
from ..reach import Reached, resolve_reference
from ..scenario.files import is_scenario_text
from ..schema import describe
from ..source import SourceFile, Span
from ..syntax.dsl_reader import read_dsl
from ..syntax.emit import EmitError, same_tree, to_dsl
from ..syntax.table import SECTIONS, VERDICTS, Field, Kind
from ..syntax.tree import ListNode, MapNode, Node, ScalarNode
from .buffer import compile_text, merged_tree, read_text
from .places import (
    Found,
    Typing,
    contains,
    dsl_typing,
    field_for,
    fields_in,
    find,
    full_name,
    section_path,
    yaml_typing,
)

SOURCE = "cheatdsl"
_TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:", re.MULTILINE)
_WORD = re.compile(r"[\w.\-]+")
_VARIATION_LISTS = ("use", "conflicts")


def is_rulebook(path: str, text: str) -> bool:
    """Whether the document is a rulebook: a .cheat file, or YAML whose top-level keys are a rulebook's."""
    if path.endswith(".cheat"):
        return True
    keys = set(_TOP_KEY.findall(text))
    if is_scenario_text(text) or "actions" in keys:
        return False
    return bool(keys & {f.name for f in fields_in("")})


def tree_of(path: str, text: str) -> Node | None:
    """The document's own node tree, or None when it does not read."""
    try:
        return read_text(path, text, Diagnostics())
    except RecursionError:
        return None


# --- diagnostics ---------------------------------------------------------------------------------


def _position(line: int, column: int) -> types.Position:
    return types.Position(line=max(line - 1, 0), character=max(column - 1, 0))


def span_range(span: Span, lines: list[str]) -> types.Range:
    """The span as a range; a span without an end, or over several lines, covers the word it starts."""
    start = _position(span.line, span.column)
    if span.end_line == span.line and span.end_column > span.column:
        return types.Range(start=start, end=_position(span.end_line, span.end_column))
    text = lines[start.line] if start.line < len(lines) else ""
    word = _WORD.match(text, start.character)
    width = len(word.group(0)) if word else 1
    return types.Range(start=start, end=types.Position(line=start.line, character=start.character + width))


def _extends_span(tree: Node | None) -> Span | None:
    if isinstance(tree, MapNode):
        entry = tree.entry("extends")
        if entry is not None:
            return entry.value.span
    return None


def to_lsp(item: Diagnostic, path: str, lines: list[str], extends: Span | None) -> types.Diagnostic:
    """One of `check`'s diagnostics for the editor; one found in a base file is shown on `extends:`."""
    message = item.message + (f"\nhint: {item.hint}" if item.hint else "")
    message += f"\nnote: {item.note}" if item.note else ""
    span = item.span
    if span.file != path:
        message = f"{span}: {message}" if span.line else message
        span = extends or Span(path, 1, 1)
    severity = (types.DiagnosticSeverity.Error if item.severity is Severity.ERROR
                else types.DiagnosticSeverity.Warning)
    return types.Diagnostic(range=span_range(span, lines), message=message, severity=severity,
                            code=item.code, source=SOURCE)


def diagnostics(path: str, text: str) -> list[types.Diagnostic]:
    """Every problem `cheatdsl check` finds in the text, as the editor shows them."""
    _, found = compile_text(path, text)
    lines = text.splitlines()
    extends = _extends_span(tree_of(path, text))
    return [to_lsp(item, path, lines, extends) for item in found.sorted()]


# --- hover ---------------------------------------------------------------------------------------


def field_markdown(keys: tuple[str, ...], field: Field) -> str:
    """A field's reference text, headed by its full name and its allowed values."""
    head = f"**`{full_name(keys)}`**"
    if field.kind is Kind.BOOLEAN:
        head += ": `true` | `false`"
    elif field.choices and field.kind in (Kind.CHOICE, Kind.WORDS):
        head += ": " + " | ".join(f"`{c}`" for c in field.choices)
    return f"{head}\n\n{describe(field)}"


def within(text: str, line: int, column: int) -> tuple[int, int]:
    """The place moved into the text: a line past the last is the last, a column past a line's end
    is its end (a client may ask anywhere)."""
    lines = text.split("\n")
    line = min(max(line, 0), len(lines) - 1)
    return line, min(max(column, 0), len(lines[line]))


def hover(path: str, text: str, line: int, column: int) -> types.Hover | None:
    """The reference text of the field under the cursor (its key or its value)."""
    line, column = within(text, line, column)
    tree = tree_of(path, text)
    found = find(tree, line + 1, column + 1) if tree is not None else None
    if found is None:
        return _hover_while_typing(path, text, line, column) if tree is None else None
    section = section_path(found.keys[:-1])
    if section == "expect" and found.keys[-1] in PROPERTY_IDS:
        value = f"**`expect.{found.keys[-1]}`**: the verdict the verifier should give for the property " \
                f"`{found.keys[-1]}` (docs/properties.md): " + " | ".join(f"`{v}`" for v in VERDICTS)
    elif section == "variations" and found.entry is not None:
        summary = found.entry.value.get("summary") if isinstance(found.entry.value, MapNode) else None
        value = f"**variation `{found.keys[-1]}`**" + (f"\n\n{summary.value}" if isinstance(summary, ScalarNode)
                                                       else "")
    else:
        field = field_for(found.keys)
        if field is None:
            return None
        value = field_markdown(found.keys, field)
    where = found.entry.key_span if found.on_key and found.entry else None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=value),
                       range=span_range(where, text.splitlines()) if where else None)


def _typing_at(path: str, text: str, line: int, column: int) -> Typing:
    """The context at a place in text that may not read as a whole (yet)."""
    lines = text.split("\n")
    if path.endswith(".cheat"):
        return dsl_typing(text, sum(len(x) + 1 for x in lines[:line]) + column)
    return yaml_typing(lines, line, column)


def _hover_while_typing(path: str, text: str, line: int, column: int) -> types.Hover | None:
    """Hover in a file that does not read: the word under the cursor, placed by the text around it."""
    lines = text.split("\n")
    here = lines[line] if line < len(lines) else ""
    start = column
    while start > 0 and (here[start - 1].isalnum() or here[start - 1] in "_-."):
        start -= 1
    word = _WORD.match(here, start)
    if word is None:
        return None
    typing = _typing_at(path, text, line, start)
    keys = (*typing.sections, typing.key or word.group(0))
    field = field_for(keys)
    if field is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=field_markdown(keys, field)))


# --- completion ----------------------------------------------------------------------------------


def _item(label: str, kind: types.CompletionItemKind, detail: str = "", doc: str = "",
          insert: str | None = None) -> types.CompletionItem:
    documentation = types.MarkupContent(kind=types.MarkupKind.Markdown, value=doc) if doc else None
    return types.CompletionItem(label=label, kind=kind, detail=detail or None, documentation=documentation,
                                insert_text=insert)


def _variation_names(path: str, text: str) -> list[str]:
    tree = merged_tree(path, text)
    table = tree.get("variations") if isinstance(tree, MapNode) else None
    return table.keys() if isinstance(table, MapNode) else []


def completion(path: str, text: str, line: int, column: int) -> list[types.CompletionItem]:
    """Section keys and field names where a key is typed, allowed values where a value is."""
    line, column = within(text, line, column)
    dsl = path.endswith(".cheat")
    typing = _typing_at(path, text, line, column)
    section = section_path(typing.sections)
    if typing.key is None:
        if section == "expect":
            return [_item(p, types.CompletionItemKind.Property, "verifier property",
                          insert=None if dsl else f"{p}: ") for p in PROPERTY_IDS]
        out = []
        inside_changes = section == "" and bool(typing.sections)  # `variations.NAME.changes` holds rules only
        for each in fields_in(section)[:len(SECTIONS[""])] if inside_changes else fields_in(section):
            kind = (types.CompletionItemKind.Module if each.kind in (Kind.SECTION, Kind.SECTIONS)
                    else types.CompletionItemKind.Field)
            out.append(_item(each.name, kind, each.kind.value, field_markdown((each.name,), each),
                             insert=None if dsl else f"{each.name}: "))
        return out
    if section == "expect":
        return [_item(v, types.CompletionItemKind.EnumMember, "verdict") for v in VERDICTS]
    field = field_for((*typing.sections, typing.key))
    if field is None:
        return []
    value = types.CompletionItemKind.EnumMember
    if field.kind is Kind.BOOLEAN:
        return [_item(v, value, field.name) for v in ("true", "false")]
    if field.kind in (Kind.CHOICE, Kind.WORDS) and field.choices:
        return [_item(c, value, field.name, field_markdown((typing.key,), field)) for c in field.choices]
    if field.kind is Kind.NAME:
        return [_item(n, types.CompletionItemKind.File, "shipped profile") for n in shipped_names()]
    if field.name in _VARIATION_LISTS:
        return [_item(n, types.CompletionItemKind.Reference, "variation") for n in _variation_names(path, text)]
    return []


# --- go to definition ----------------------------------------------------------------------------


def _word_at(found: Found, line: int, column: int) -> ScalarNode | None:
    node = found.node
    if isinstance(node, ListNode):
        for item in node.items:
            if isinstance(item, ScalarNode) and contains(item.span, line, column):
                return item
        return None
    return node if isinstance(node, ScalarNode) else None


def _location(file: str, span: Span | None) -> types.Location:
    start = _position(span.line, span.column) if span else types.Position(line=0, character=0)
    return types.Location(uri=Path(file).resolve().as_uri(), range=types.Range(start=start, end=start))


def definition(path: str, text: str, line: int, column: int) -> types.Location | None:
    """Where the rulebook named by `extends:`, or the variation named by `use:`/`conflicts:`, is defined."""
    line, column = within(text, line, column)
    tree = tree_of(path, text)
    found = find(tree, line + 1, column + 1) if tree is not None else None
    if found is None or found.on_key:
        return None
    word = _word_at(found, line + 1, column + 1)
    if word is None or not isinstance(word.value, str):
        return None
    if found.keys == ("extends",):
        reached = resolve_reference(word.value, Path(path).parent)
        return _location(str(reached.path), None) if isinstance(reached, Reached) else None
    if found.keys[-1] not in _VARIATION_LISTS:
        return None
    merged = merged_tree(path, text)
    table = merged.get("variations") if isinstance(merged, MapNode) else None
    entry = table.entry(word.value) if isinstance(table, MapNode) else None
    if entry is None:
        return None
    file = path if entry.key_span.file == path else entry.key_span.file
    return _location(file, entry.key_span)


# --- formatting and symbols ----------------------------------------------------------------------


def has_comment(text: str) -> bool:
    """Whether DSL text holds a `#` comment (outside quoted text and formulas)."""
    quote = ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"`":
            quote = char
        elif char == "\n":
            quote = ""
        elif char == "#":
            return True
    return False


def formatted(path: str, text: str) -> str | None:
    """The .cheat text as `cheatdsl fmt --to cheat` prints it, or None when it cannot be (or has comments)."""
    if not path.endswith(".cheat") or has_comment(text):
        return None
    d = Diagnostics()
    tree = read_text(path, text, d)
    if not isinstance(tree, MapNode) or d.has_errors():
        return None
    try:
        out = to_dsl(tree)
    except EmitError:
        return None
    back = read_dsl(SourceFile(path, out), Diagnostics())
    return out if back is not None and same_tree(tree, back) else None


def symbols(path: str, text: str) -> list[types.DocumentSymbol]:
    """The document's sections and rules, nested as written."""
    tree = tree_of(path, text)
    return _symbols(tree, text.splitlines()) if isinstance(tree, MapNode) else []


def _whole(first: Span, last: Span, lines: list[str]) -> types.Range:
    """From the start of `first` to the end of `last` (or of the word `first` starts)."""
    start = span_range(first, lines)
    end = _position(last.end_line, last.end_column) if last.end_line else start.end
    return types.Range(start=start.start, end=max(end, start.end, key=lambda p: (p.line, p.character)))


def _symbols(node: MapNode, lines: list[str]) -> list[types.DocumentSymbol]:
    out = []
    for entry in node.entries:
        value = entry.value
        children: list[types.DocumentSymbol] = []
        if isinstance(value, MapNode):
            kind = types.SymbolKind.Namespace
            children = _symbols(value, lines)
        elif isinstance(value, ListNode):
            kind = types.SymbolKind.Array
            for index, item in enumerate(value.items):
                if isinstance(item, MapNode):
                    whole = _whole(item.span, item.span, lines)
                    children.append(types.DocumentSymbol(name=f"{entry.key}[{index}]", kind=types.SymbolKind.Object,
                                                         range=whole, selection_range=whole,
                                                         children=_symbols(item, lines)))
        else:
            kind = types.SymbolKind.Field
        key = span_range(entry.key_span, lines)
        whole = _whole(entry.key_span, value.span, lines)
        detail = str(value.value) if isinstance(value, ScalarNode) and value.value is not None else None
        out.append(types.DocumentSymbol(name=entry.key, kind=kind, range=whole, selection_range=key,
                                        detail=detail, children=children or None))
    return out

