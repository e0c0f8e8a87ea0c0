"""The JSON Schema (draft 2020-12) of the YAML form, generated from the compiler's field table.

The schema helps editors complete and flag rules as they are typed; `cheatdsl check` stays the
authority (formulas, ranges of values that depend on the deck, rules that clash are its job).
`python -m cheatdsl.schema` rewrites the copies shipped in the package and in docs/schema/.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

from ..compiler.scopes import PLACES
from ..syntax.loader import INHERIT
from ..syntax.table import META, SECTIONS, VERDICTS, Field, Kind

DRAFT = "https://json-schema.org/draft/2020-12/schema"
FILE_NAME = "rulebook.schema.json"
RANGE_PATTERN = r"^\s*\d+\s*(\.\.\s*\d*\s*)?$"

Schema = dict[str, Any]


def def_name(path: str) -> str:
    """The `$defs` name of the section at a table path."""
    return {"": "rules", "challenge.kinds[]": "challenge.kind", "variations.*": "variation"}.get(path, path)


def _ref(path: str) -> Schema:
    return {"$ref": f"#/$defs/{def_name(path)}"}


def _words(field: Field) -> list[str | int]:
    """A WORDS or CHOICE field's allowed values as YAML reads them (`2` is a number there)."""
    return [*field.choices, *(int(c) for c in field.choices if c.isdigit())]


def describe(field: Field) -> str:
    """The field's reference text, with the facts a formula may name there."""
    if field.kind is Kind.FORMULA:
        facts = ", ".join(PLACES[field.place])
        return f"{field.doc}. A formula; it may name: {facts}"
    return field.doc


def plain(markdown: str) -> str:
    """Reference text without its Markdown marks, for editors that show `description` as it is."""
    return re.sub(r"\*\*(.+?)\*\*", r"\1", markdown).replace("`", "")


def described(markdown: str) -> Schema:
    """`description` in plain text and `markdownDescription` (read by the YAML language server) as written."""
    return {"description": plain(markdown), "markdownDescription": markdown}


def field_schema(path: str, field: Field) -> Schema:
    """The schema of one field's value."""
    kind = field.kind
    out: Schema
    if kind is Kind.TEXT:
        out = {"type": ["string", "number"]}
    elif kind is Kind.NAME:
        out = {"type": "string"}
    elif kind is Kind.INTEGER:
        out = {"type": "integer", "minimum": field.low, "maximum": field.high}
    elif kind is Kind.BOOLEAN:
        out = {"type": "boolean"}
    elif kind is Kind.CHOICE:
        out = {"enum": list(field.choices)}
    elif kind is Kind.WORDS:
        item: Schema = {"enum": _words(field)} if field.choices else {"type": "string"}
        out = {"anyOf": [item, {"type": "array", "items": item}]}
    elif kind is Kind.RANGE:
        out = {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string", "pattern": RANGE_PATTERN}]}
    elif kind is Kind.FORMULA:
        out = {"type": ["string", "integer"]}
    elif kind is Kind.SECTION:
        out = _ref("" if field.name == "changes" else f"{path}.{field.name}".lstrip("."))
    elif kind is Kind.SECTIONS:
        out = {"type": "array", "minItems": 1, "items": _ref(f"{path}.{field.name}[]")}
    elif kind is Kind.VERDICTS:
        # a section of verdicts, or the one word `inherit` (`pattern` applies to text only)
        out = {"type": ["object", "string"], "additionalProperties": False,
               "properties": {name: {"enum": list(VERDICTS)} for name in field.words},
               "pattern": f"^{INHERIT}$"}
    else:  # Kind.VARIATIONS
        out = {"type": "object", "additionalProperties": _ref("variations.*")}
    return {**described(describe(field)), **out}


def section_schema(path: str, fields: tuple[Field, ...], required: bool) -> Schema:
    """A section as a closed object; `required` lists its always-required fields."""
    out: Schema = {"type": "object", "additionalProperties": False,
                   "properties": {f.name: field_schema(path, f) for f in fields}}
    names = [f.name for f in fields if f.required]
    if required and names:
        out["required"] = names
    return out


def _complete_rulebook() -> Schema:
    """What a rulebook that extends nothing must hold: every required field of every section it has."""
    out: Schema = {"required": [f.name for f in SECTIONS[""] if f.required], "properties": {}}
    for path in SECTIONS:
        if path in ("", "challenge.kinds[]", "variations.*"):
            continue
        names = [f.name for f in SECTIONS[path] if f.required]
        if not names:
            continue
        place = out
        for part in path.split("."):
            place = place["properties"].setdefault(part, {"properties": {}})
        place["required"] = names
    _prune(out)
    return out


def _prune(schema: Schema) -> None:
    """Remove empty `properties` left by building nested requirements."""
    for sub in schema.get("properties", {}).values():
        _prune(sub)
    if not schema.get("properties"):
        schema.pop("properties", None)


def rulebook_schema() -> Schema:
    """The whole schema: a rulebook file in the YAML form."""
    defs: Schema = {}
    for path, fields in SECTIONS.items():
        if path == "":
            defs[def_name(path)] = section_schema(path, fields, required=False)
        else:
            defs[def_name(path)] = section_schema(path, fields, required=path == "challenge.kinds[]")
    defs["rules"].update(described("Rules of a rulebook, as laid over it by a variation's `changes`."))
    root = section_schema("", (*SECTIONS[""], *META), required=False)
    return {
        "$schema": DRAFT,
        "title": "cheatdsl rulebook",
        **described("A rulebook of the Cheat card-game family in the YAML form (docs/language.md). "
                    "Generated from the compiler's field table; `cheatdsl check` stays the authority."),
        **root,
        "dependentRequired": {"drop": ["extends"]},
        "if": {"required": ["extends"]},
        "then": {},
        "else": _complete_rulebook(),
        "$defs": defs,
    }


def schema_text() -> str:
    """The schema as the text written to files and printed by `cheatdsl schema`."""
    return json.dumps(rulebook_schema(), indent=2, ensure_ascii=False) + "\n"


def shipped_schema_text() -> str:
    """The copy shipped inside the package."""
    return resources.files(__package__).joinpath(FILE_NAME).read_text(encoding="utf-8")
