"""The command reference (docs/reference/) is made from the parsers and kept fresh (issue 25: "a reference
page per command generated from its parser (every option, default and exit status), checked for staleness
like the other generated pages"), and the built site asks nothing of the network ("no network request from
any page (fonts and scripts local)")."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cheatdsl.cli import build_parser
from cheatdsl.docs import reference

ROOT = Path(__file__).resolve().parent.parent


def test_the_committed_reference_is_what_the_parsers_make() -> None:
    folder = ROOT / reference.FOLDER
    committed = {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.md")}
    assert committed == reference.pages(), "run `python -m cheatdsl.docs.reference`"


def test_every_option_of_every_command_has_its_row() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    built = reference.pages()
    for name, command in sub.choices.items():
        page = built[f"{name}.md"]
        assert "## Exit status" in page
        for action in command._actions:
            for spelling in action.option_strings:
                if spelling not in ("-h", "--help"):
                    assert f"`{spelling}`" in page, (name, spelling)


def test_the_reference_does_not_depend_on_the_terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "37")
    narrow = reference.pages()
    monkeypatch.setenv("COLUMNS", "250")
    assert reference.pages() == narrow


LOADS = re.compile(r"""<(?:script|img|iframe|source|audio|video)\b[^>]*\bsrc=["']([^"']+)|"""
                   r"""<link\b[^>]*\bhref=["']([^"']+)["'][^>]*>|url\(\s*["']?([^"')]+)|@import\s+["']([^"']+)""",
                   re.I)


@pytest.mark.skipif(not (ROOT / "mkdocs.yml").exists(), reason="needs the checkout's docs")
def test_no_page_of_the_site_loads_anything_from_the_network(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "--site-dir", str(site)], cwd=ROOT,
                   check=True, capture_output=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, timeout=300)
    remote = []
    for path in list(site.rglob("*.html")) + list(site.rglob("*.css")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in LOADS.finditer(text):
            if match.group(0).lower().startswith("<link") and re.search(r"rel=[\"'](?:canonical|alternate)",
                                                                         match.group(0)):
                continue  # names a page, loads nothing
            target = next(g for g in match.groups() if g)
            if re.match(r"(?:https?:)?//", target):
                remote.append(f"{path.relative_to(site)}: {target}")
    assert not remote, remote[:10]
