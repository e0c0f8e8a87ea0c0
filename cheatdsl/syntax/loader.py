"""Loading a rulebook file: its surface form, the chain of bases it extends, and its variations, merged on
node trees; the compiler is given the merged tree."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Diagnostics
from ..profiles import RULEBOOK_SUFFIXES, shipped_names
from ..reach import Refused, Unknown, real_path, resolve_reference
from ..source import Span
from .hints import suggest
from .reading import STDIN, file_problem, looks_like_dsl, read_source
from .tree import Entry, ListNode, MapNode, Node, ScalarNode, drop_path, kind_of, merge

META_KEYS = ("extends", "drop", "use")
MAX_CHAIN = 16


def read_tree(path: str, d: Diagnostics, text: str | None = None) -> Node | None:
    """One file's node tree (or that of `text` standing for the file), read by its surface form."""
    source = read_source(path, d, text)
    if source is None:
        return None
    if path.endswith(".cheat") or (path == STDIN and looks_like_dsl(source.text)):
        from .dsl_reader import read_dsl

        return read_dsl(source, d)
    from .yaml_reader import read_yaml

    return read_yaml(source, d)


def _folder_of(path: str) -> Path:
    """The folder a rulebook's references start from (the working folder for standard input)."""
    return Path.cwd() if path == STDIN else Path(path).parent


def _key_of(path: str) -> str:
    """A file's identity for finding cycles: its real path."""
    if path == STDIN:
        return STDIN
    real = real_path(Path(path))
    return str(real) if real is not None else path


@dataclass
class Loaded:
    """A rulebook's merged tree, the files it was built from, and the variations switched on.

    `own` is the file's own tree and `extends` its `extends:` entry, for putting a problem a house rule
    causes in a base rulebook on the house rule's line. `dropped_expect` holds the base's `expect:`
    section when the house rule does not take it over. `base_failed` says the base could not be read:
    the tree is then the file's own fields alone.
    """

    tree: MapNode
    chain: tuple[str, ...]
    active: list[str]
    own: MapNode | None = None
    extends: Entry | None = None
    dropped_expect: MapNode | None = None
    base_failed: bool = False
    # Where a variation the file switches on sets a rule the file sets itself (W306): the file's own lines, and
    # the tree with those rules as the file wrote them (no variation of `use:` applied), for checking them.
    overridden: tuple[Span, ...] = ()
    as_written: MapNode | None = None


INHERIT = "inherit"


def _own_rules(tree: MapNode) -> MapNode:
    """The file's rules without the words that say how it is built (`extends`, `drop`, `use`)."""
    return MapNode(tuple(e for e in tree.entries if e.key not in META_KEYS), tree.span)


def _without_inherit(own: MapNode) -> MapNode:
    """The file's rules without `expect: inherit` (which names no verdict of its own)."""
    said = own.get("expect")
    if isinstance(said, ScalarNode) and said.value == INHERIT:
        return MapNode(tuple(e for e in own.entries if e.key != "expect"), own.span)
    return own


def _take_expectations(base: MapNode, own: MapNode) -> tuple[MapNode, MapNode, MapNode | None]:
    """Base and own trees with the base's `expect:` left out unless the house rule says `expect: inherit`;
    the third value is the base's section left out (None when nothing was)."""
    said = own.get("expect")
    base_expect = base.get("expect")
    if isinstance(said, ScalarNode) and said.value == INHERIT:
        return base, _without_inherit(own), None
    if base_expect is None:
        return base, own, None
    base = MapNode(tuple(e for e in base.entries if e.key != "expect"), base.span)
    return base, own, base_expect if isinstance(base_expect, MapNode) else None


def _base_of(tree: MapNode, path: str, d: Diagnostics, stack: tuple[str, ...]) -> Loaded | None:
    """The loaded base rulebook `tree` extends, or None after recording why it cannot be read."""
    base_node = tree.get("extends")
    assert base_node is not None
    if not isinstance(base_node, ScalarNode) or not isinstance(base_node.value, str):
        d.error(base_node.span, "E203", f"`extends` must name a rulebook, found {kind_of(base_node)}")
        return None
    reached = resolve_reference(base_node.value, _folder_of(path))
    if isinstance(reached, Refused):
        d.error(base_node.span, reached.code, reached.message, reached.hint)
        return None
    if isinstance(reached, Unknown):
        d.error(base_node.span, "E302", f"unknown base rulebook '{reached.name}'",
                suggest(reached.name, shipped_names())
                or "name a shipped profile (`cheatdsl list`) or a .yaml/.cheat file beside this one")
        return None
    base_path = reached.path
    key = str(base_path)
    if key in stack or key == _key_of(path):
        d.error(base_node.span, "E301", "rulebooks extend each other in a cycle: "
                + " -> ".join(Path(p).name for p in (*stack, key)))
        return None
    if len(stack) >= MAX_CHAIN:
        d.error(base_node.span, "E301", f"more than {MAX_CHAIN} rulebooks extend one another")
        return None
    if base_path.suffix not in RULEBOOK_SUFFIXES:
        d.error(base_node.span, "E302", f"'{base_node.value}' is not a rulebook file",
                "a base rulebook is a shipped profile's name or a .yaml/.cheat file")
        return None
    problem = file_problem(base_path)
    if problem is not None:
        d.error(base_node.span, "E302", f"no base rulebook at '{base_node.value}': it {problem}")
        return None
    inner = Diagnostics()
    inner.sources = d.sources
    base = load_tree(str(base_path), inner, None, (*stack, _key_of(path)))
    d.extend(inner.items)
    if base is not None and base.base_failed:
        return None
    return base


def load_tree(path: str, d: Diagnostics, requested: list[tuple[str, Span]] | None = None,
              stack: tuple[str, ...] = (), text: str | None = None) -> Loaded | None:
    """The merged tree of `path` and every base below it, with variations applied; `text`, when
    given, stands for the file at `path` (an editor's unsaved copy), and bases are read from disk.

    When the base cannot be read the problem is recorded and the file's own fields are returned alone
    (`base_failed`), so that they are still checked; None only when the file itself cannot be read."""
    tree = read_tree(path, d, text)
    if tree is None:
        return None
    if not isinstance(tree, MapNode):
        d.error(tree.span, "E020", f"a rulebook must be a set of named sections, found {kind_of(tree)}",
                "start the file with `rulebook: my-table`")
        return None
    own = _own_rules(tree)
    extends = tree.entry("extends")
    if extends is not None:
        base = _base_of(tree, path, d, stack)
        if base is None:
            own = _without_inherit(own)
            return Loaded(own, (path,), [], tree, extends, None, base_failed=True)
        base_tree, own, dropped = _take_expectations(apply_drops(base.tree, tree.get("drop"), d), own)
        merged = merge(base_tree, own)
        chain: tuple[str, ...] = (path, *base.chain)
        active = list(base.active)
    else:
        drop = tree.entry("drop")
        if drop is not None:
            d.error(drop.key_span, "E303", "`drop` removes rules of a base rulebook, and this one extends none",
                    "add `extends: NAME`, or delete the rules themselves")
        said = own.get("expect")
        if isinstance(said, ScalarNode) and said.value == INHERIT:
            d.error(said.span, "E303", "`expect: inherit` takes over a base rulebook's expectations, and this "
                    "one extends none", "add `extends: NAME`, or list the verdicts expected")
            own = _without_inherit(own)
        merged, chain, active, dropped = own, (path,), [], None
    uses = words_of(tree.get("use"), "use", d) + list(requested or [])
    overridden = _overridden(own, merged, words_of(tree.get("use"), "use", Diagnostics()), active, d)
    as_written = merged if overridden else None
    merged = apply_variations(merged, uses, active, d)  # type: ignore[arg-type]
    return Loaded(merged, chain, active, tree, extends, dropped, overridden=overridden, as_written=as_written)


def _leaves(node: MapNode, prefix: str = "") -> dict[str, Entry]:
    """Each rule a section sets, by its dotted name (a list is one rule)."""
    out: dict[str, Entry] = {}
    for entry in node.entries:
        name = f"{prefix}{entry.key}"
        if isinstance(entry.value, MapNode):
            out.update(_leaves(entry.value, name + "."))
        else:
            out[name] = entry
    return out


def _overridden(own: MapNode, merged: MapNode, uses: list[tuple[str, Span]], active: list[str],
                d: Diagnostics) -> tuple[Span, ...]:
    """W306: a rule the file sets itself and a variation it switches on with `use:` sets again. The variation's
    value is the one played, so the file's own line does nothing; both lines are named. The file's lines."""
    defined = merged.get("variations")
    if not isinstance(defined, MapNode):
        return ()
    lines: list[Span] = []
    mine = _leaves(MapNode(tuple(e for e in own.entries if e.key not in ("variations", "expect")), own.span))
    for name, span in uses:
        body = defined.get(name)
        changes = body.get("changes") if isinstance(body, MapNode) and name not in active else None
        if not isinstance(changes, MapNode):
            continue
        for rule, change in _leaves(changes).items():
            written = mine.get(rule)
            if written is not None:
                lines.append(written.key_span)
                d.warning(written.key_span, "W306", f"`{rule}` is set here and again by the variation `{name}` "
                          f"this file switches on (at {change.key_span}): the variation's value is the one played",
                          f"drop this line, or the rule from `{name}`, or stop using `{name}` (used at {span})")
    return tuple(lines)


def words_of(node: Node | None, what: str, d: Diagnostics) -> list[tuple[str, Span]]:
    """A list of words with spans; a single word is a list of one."""
    if node is None:
        return []
    items = node.items if isinstance(node, ListNode) else (node,)
    out = []
    for item in items:
        if isinstance(item, ScalarNode) and isinstance(item.value, str):
            out.append((item.value, item.span))
        else:
            d.error(item.span, "E203", f"each entry of `{what}` must be a name, found {kind_of(item)}")
    return out


def apply_drops(tree: MapNode, node: Node | None, d: Diagnostics) -> MapNode:
    """The tree without the rules a house rule drops (`drop: [passing.all_pass_leader]`)."""
    for word, span in words_of(node, "drop", d):
        tree, found = drop_path(tree, word.split("."))  # type: ignore[assignment]
        if not found:
            d.error(span, "E303", f"`drop` names `{word}`, but the base rulebook has no such rule")
    return tree


def apply_variations(tree: MapNode, uses: list[tuple[str, Span]], active: list[str], d: Diagnostics) -> MapNode:
    """The tree with each named variation's changes laid over it, conflicts reported."""
    defined = tree.get("variations")
    table = {e.key: e.value for e in defined.entries} if isinstance(defined, MapNode) else {}
    for name, span in uses:
        if name in active:
            continue
        body = table.get(name)
        if body is None:
            d.error(span, "E304", f"unknown variation `{name}`",
                    suggest(name, list(table)) or ("variations here: " + ", ".join(table) if table else
                                                   "this rulebook defines no variations"))
            continue
        if not isinstance(body, MapNode):
            d.error(body.span, "E202", f"variation `{name}` must be a section, found {kind_of(body)}")
            continue
        conflicts = body.get("conflicts")
        for other, other_span in words_of(conflicts, f"variations.{name}.conflicts", d):
            if other in active:
                d.error(span, "E305", f"variation `{name}` cannot be played with `{other}`",
                        f"the rulebook says they clash at {other_span}")
        for key in body.keys():
            if key not in ("summary", "conflicts", "changes"):
                entry = body.entry(key)
                d.error(entry.key_span if entry else body.span, "E200", f"unknown rule `variations.{name}.{key}`",
                        suggest(key, ["summary", "conflicts", "changes"]))
        changes = body.get("changes")
        if changes is not None and not isinstance(changes, MapNode):
            d.error(changes.span, "E202", f"`variations.{name}.changes` must be a section, found {kind_of(changes)}")
        elif changes is not None:
            tree = merge(tree, changes)  # type: ignore[assignment]
        active.append(name)
    return tree
