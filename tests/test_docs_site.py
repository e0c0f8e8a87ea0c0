"""The documentation site: `mkdocs build --strict` builds docs/ with the Material theme, every page in it.

Strict mode turns every warning (a broken link, a page the nav names that is not there) into a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cheatdsl.docs import gallery
from cheatdsl.docs.shell import ROOT

PAGES = ("index.html", "guide/index.html", "language/index.html", "cli/index.html", "properties/index.html",
         "gallery/index.html")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    folder = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    return folder


def test_site_builds_strictly_with_the_reference_guide_properties_and_cli_pages(site: Path) -> None:
    for page in PAGES:
        assert (site / page).is_file(), page
    assert "Material for MkDocs" in (site / "index.html").read_text(encoding="utf-8")


def test_every_gallery_page_is_on_the_site_with_its_charts(site: Path) -> None:
    for profile in gallery.profiles(ROOT):
        html = (site / "gallery" / profile.name / "index.html").read_text(encoding="utf-8")
        assert "Turns per game" in html and f"charts/{profile.name}-turns.svg" in html, profile.name
        assert (site / "gallery" / "charts" / f"{profile.name}-turns.svg").is_file(), profile.name


def test_the_rulebooks_the_pages_link_are_served_with_the_site(site: Path) -> None:
    for path in sorted((ROOT / "rulebooks").iterdir()):
        if path.suffix in (".yaml", ".cheat"):
            assert (site / "rulebooks" / path.name).read_bytes() == path.read_bytes(), path.name


def test_the_generators_source_is_left_out_of_the_site(site: Path) -> None:
    assert not (site / "guide.src").exists() and not any(site.rglob("guide.src*"))


def test_ci_builds_the_site() -> None:
    assert "mkdocs build --strict" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
