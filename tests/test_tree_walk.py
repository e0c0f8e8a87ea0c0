"""Issue 27 point 6, "one tree-walking helper": the node tree's one walk (`syntax.tree.fold`) and what is
built on it (to_plain, entries, the writer's `same_tree`) keep what the separate walks did."""

from __future__ import annotations

from cheatdsl.diagnostics import Diagnostics
from cheatdsl.source import SourceFile
from cheatdsl.syntax.emit import same_tree
from cheatdsl.syntax.tree import MapNode, Node, entries, fold, to_plain
from cheatdsl.syntax.yaml_reader import read_yaml

TEXT = """\
rulebook: walk
challenge:
  kinds:
    - name: cheat
      allowed_when: players == 2
    - name: force
  reveal: play
players: 3..6
"""


def _tree(text: str) -> Node:
    d = Diagnostics()
    tree = read_yaml(SourceFile("walk.yaml", text), d)
    assert tree is not None and not d.items, d.render()
    return tree


def test_fold_sees_every_node_once_leaves_first() -> None:
    """A fold that counts nodes counts each scalar, list and mapping once."""
    counted = fold(_tree(TEXT), lambda _: 1, lambda _, items: 1 + sum(items), lambda _, values: 1 + sum(values))
    # the document, rulebook, challenge, kinds (a list), two kinds, cheat, players == 2, force, reveal, players
    assert counted == 11


def test_entries_lists_each_rule_with_its_path_outermost_first() -> None:
    """The paths a house rule's problems are blamed by (syntax/blame.py): a list's items take the list's path."""
    paths = [path for path, _ in entries(_tree(TEXT))]
    assert paths == [("rulebook",), ("challenge",), ("challenge", "kinds"), ("challenge", "kinds", "name"),
                     ("challenge", "kinds", "allowed_when"), ("challenge", "kinds", "name"),
                     ("challenge", "reveal"), ("players",)]


def test_to_plain_and_same_tree_keep_types_and_order() -> None:
    """`same_tree` tells 1 from true and one key order from another; to_plain gives plain values."""
    tree = _tree(TEXT)
    assert to_plain(tree) == {"rulebook": "walk", "challenge": {"kinds": [
        {"name": "cheat", "allowed_when": "players == 2"}, {"name": "force"}], "reveal": "play"}, "players": "3..6"}
    assert same_tree(tree, _tree(TEXT))
    assert not same_tree(_tree("a: 1\n"), _tree("a: true\n"))
    assert not same_tree(_tree("a: 1\nb: 2\n"), _tree("b: 2\na: 1\n"))
    assert isinstance(tree, MapNode)
