"""MkDocs hooks for the documentation site (`mkdocs.yml`): the shipped rulebooks are served with it.

Pages in `docs/` link to rulebook files as the repository lays them out (`../../rulebooks/NAME.yaml`
from the gallery), which works when reading the Markdown on disk; on the site those files are copied
to `rulebooks/` and the links that climb out of `docs/` to reach them are pointed there.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

RULEBOOK_SUFFIXES = (".yaml", ".yml", ".cheat")  # as cheatdsl.profiles (a hook file is loaded on its own)
ROOT = Path(__file__).resolve().parents[2]
FOLDER = "rulebooks"
_LINK = re.compile(r"\]\(((?:\.\./)+)" + FOLDER + "/")


def on_files(files: Any, config: Any) -> Any:
    """Add every shipped rulebook file to the site, under rulebooks/."""
    from mkdocs.structure.files import File

    for path in sorted((ROOT / FOLDER).iterdir()):
        if path.suffix in RULEBOOK_SUFFIXES and path.is_file():
            files.append(File(f"{FOLDER}/{path.name}", str(ROOT), config["site_dir"], config["use_directory_urls"]))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Links that leave docs/ for the repository's rulebooks/ point at the site's copy instead."""
    depth = page.file.src_uri.count("/")

    def inside(match: re.Match[str]) -> str:
        ups = len(match.group(1)) // 3
        return f"]({'../' * min(ups, depth)}{FOLDER}/" if ups == depth + 1 else match.group(0)

    return _LINK.sub(inside, markdown)
