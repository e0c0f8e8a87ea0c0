"""Importing numba with its disk cache under the user's cache folder, never beside the installed package.

numba reads NUMBA_CACHE_DIR once, when it is first imported, so this is the one place that sets it: the
first `load_numba(folder)` call sets it (unless the user already did) and imports numba. Later calls get
the same module; the folder is then fixed for the life of the process.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

INSTALL_HINT = "the compiled engine needs numba: pip install cheatdsl[compiled], or use --engine python"


class NumbaMissing(RuntimeError):
    """numba cannot be imported; the message says how to install it or to use the Python engine."""


def default_folder() -> Path:
    """The compiled kernel's cache folder: $XDG_CACHE_HOME/cheatdsl/numba, or ~/.cache/cheatdsl/numba."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cheatdsl" / "numba"


def load_numba(folder: Path | None = None) -> ModuleType:
    """numba, imported with its cache in `folder` (default: `default_folder()`); raises NumbaMissing."""
    if "NUMBA_CACHE_DIR" not in os.environ:
        target = folder or default_folder()
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass  # numba then compiles without a disk cache
        os.environ["NUMBA_CACHE_DIR"] = str(target)
    try:
        import numba
    except ImportError as exc:
        raise NumbaMissing(INSTALL_HINT) from exc
    return numba


def numba_available() -> bool:
    """Whether numba can be imported (without importing it)."""
    import importlib.util
    return importlib.util.find_spec("numba") is not None
