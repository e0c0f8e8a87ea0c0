"""`cheatdsl compare`'s progress bar moves with the work (issue 25: "progress that moves with the work (per
game batch and per property)"; the old bar had one step a rulebook and stood still while the games ran)."""

from __future__ import annotations

from typing import Any

import pytest

from cheatdsl.cli import main
from cheatdsl.commands import progress as progress_module


class Recorder:
    """Stands in for the bar: keeps every update (done, total, label)."""

    made: list[Recorder] = []

    def __init__(self, what: str, total: int, *args: Any, **kwargs: Any) -> None:
        self.total = total
        self.updates: list[tuple[int, str]] = []
        self.enabled = True
        Recorder.made.append(self)

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def update(self, done: int, total: int | None = None, label: str = "") -> None:
        self.updates.append((done, label))


def test_the_bar_counts_games_batch_by_batch(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Two rulebooks, 80 games each simulated: the bar's total is the 160 games, it moves several times
    within each rulebook (a batch of games at a time), never backwards, and ends at its total."""
    Recorder.made.clear()
    monkeypatch.setattr(progress_module, "Progress", Recorder)
    assert main(["compare", "english-ascending", "standard", "--simulate", "80", "--no-verify",
                 "--format", "json"]) == 0
    capsys.readouterr()
    bar = Recorder.made[-1]
    assert bar.total == 160
    done = [d for d, _ in bar.updates]
    assert done == sorted(done), "the bar went backwards"
    assert done[-1] == 160
    for name, low, high in (("english-ascending", 0, 80), ("standard", 80, 160)):
        inside = {d for d, label in bar.updates if label == f"simulating {name}" and low < d < high}
        assert len(inside) >= 3, f"the bar stood still while {name}'s games ran: {bar.updates}"


def test_the_bar_counts_the_verifiers_properties(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The verifier's part of the bar is its properties, counted as they finish (per property), before the
    games; the bar never goes backwards and ends at its total."""
    from cheatdsl.properties import PROPERTY_IDS

    Recorder.made.clear()
    monkeypatch.setattr(progress_module, "Progress", Recorder)
    assert main(["compare", "english-ascending", "standard", "--simulate", "40", "--format", "json"]) == 0
    capsys.readouterr()
    bar = Recorder.made[-1]
    checks = 2 * len(PROPERTY_IDS)
    assert bar.total == checks + 80
    done = [d for d, _ in bar.updates]
    assert done == sorted(done), "the bar went backwards"
    verifying = {d for d, label in bar.updates if label.startswith("verifying")}
    assert len(verifying) >= 5 and max(verifying) <= checks, bar.updates
    assert all(d >= checks for d, label in bar.updates if label.startswith("simulating"))
    assert done[-1] == bar.total
