"""Every property the verifier knows, by its stable id, with the check that decides it."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from cheatdsl.properties import PROPERTY_IDS

from ..encoding.subject import Subject
from .settings import DEFAULT, Caches, Settings
from .verdict import Result, unknown

# A light check reads the subject alone; a heavy one also the run's settings and the caches it reads and fills.
Check = Callable[..., Result]

# Modules that register properties, one per family.
FAMILIES = ("verifier.properties.claims", "verifier.properties.threshold", "verifier.properties.dealing", "verifier.properties.challenges", "verifier.properties.transition")


@dataclass(frozen=True)
class Property:
    """A property: its id, what it states, the check deciding it (None: not implemented yet), and whether that
    check is heavy (then called with the run's settings and caches too)."""

    id: str
    statement: str
    check: Check | None
    heavy: bool = False

    @property
    def implemented(self) -> bool:
        return self.check is not None

    def run(self, subject: Subject, settings: Settings = DEFAULT, caches: Caches | None = None) -> Result:
        if self.check is None:
            return unknown(self.id, "not yet implemented", implemented=False)
        if self.heavy:
            return self.check(subject, settings, Caches() if caches is None else caches)
        return self.check(subject)


_REGISTERED: dict[str, Property] = {}

# Properties registered by no family answer unknown, "not yet implemented" (none at present).
PENDING: dict[str, str] = {}


def register(pid: str, statement: str, heavy: bool = False) -> Callable[[Check], Check]:
    """Register the decorated function as the check for property `pid`."""
    if pid not in PROPERTY_IDS:
        raise ValueError(f"unknown property id {pid!r}")

    def wrap(fn: Check) -> Check:
        _REGISTERED[pid] = Property(pid, statement, fn, heavy)
        return fn

    return wrap


def properties() -> dict[str, Property]:
    """Every property id in the project's order, implemented or pending."""
    for module in FAMILIES:
        importlib.import_module(module)
    out = {}
    for pid in PROPERTY_IDS:
        out[pid] = _REGISTERED.get(pid) or Property(pid, PENDING.get(pid, ""), None)
    return out
