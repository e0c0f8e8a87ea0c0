"""Importing numba with its disk cache under the user's cache folder, never beside the installed package.

The folder is keyed by a hash of the kernel's sources (`sources_key`): numba's own check of a cache compares the
source file's time and size, which a reinstall or a checkout can leave alike while the code differs.

numba reads NUMBA_CACHE_DIR once, when it is first imported, so this is the one place that sets it: the
first `load_numba(folder)` call sets it (unless the user already did) and imports numba. Later calls get
the same module; the folder is then fixed for the life of the process.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from types import ModuleType

INSTALL_HINT = "the compiled engine needs numba: pip install cheatdsl[compiled], or use --engine python"


class NumbaMissing(RuntimeError):
    """numba cannot be imported; the message says how to install it or to use the Python engine."""


KERNEL_SOURCES = ("common.py", "bots.py", "steps.py", "kernel.py")  # the modules of this folder whose functions
# numba compiles and caches (a step inlined into `kernel.play_on` is cached within it)


def sources_key(folder: Path = Path(__file__).parent) -> str:
    """A short hash of the kernel's sources: a cache made from other sources (an older or newer cheatdsl, an edit)
    lies in another folder, so it is never read, whatever the files' times say."""
    digest = hashlib.sha256()
    for name in KERNEL_SOURCES:
        try:
            digest.update((folder / name).read_bytes())
        except OSError:
            digest.update(name.encode())
    return digest.hexdigest()[:16]


def default_folder() -> Path:
    """The compiled kernel's cache folder: $XDG_CACHE_HOME/cheatdsl/numba/<sources_key()>, or
    ~/.cache/cheatdsl/numba/<sources_key()>."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cheatdsl" / "numba" / sources_key()


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
