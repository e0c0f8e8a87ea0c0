"""The pre-commit hooks (.pre-commit-hooks.yaml), tried with `pre-commit try-repo` on a repository of rule
sheets holding one good and one broken rulebook.

try-repo builds the hooks' environment by pip-installing this checkout's committed HEAD (so the test
takes about half a minute; uncommitted work is left out).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / ".pre-commit-hooks.yaml"

pytestmark = pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                                reason="needs git and this project's git checkout")


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def test_the_manifest_is_valid_and_verify_is_opt_in() -> None:
    done = subprocess.run([sys.executable, "-m", "pre_commit", "validate-manifest", str(MANIFEST)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    hooks = {h["id"]: h for h in yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))}
    assert hooks["cheatdsl-check"]["entry"] == "cheatdsl check" and "stages" not in hooks["cheatdsl-check"]
    assert hooks["cheatdsl-verify"]["entry"] == "cheatdsl verify" and hooks["cheatdsl-verify"]["stages"] == ["manual"]


def test_try_repo_passes_the_good_rulebook_and_fails_the_broken_one(tmp_path: Path) -> None:
    """One try-repo run (each builds its own environment), both hooks, the manual stage included."""
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    env.pop("GIT_DIR", None)
    repo = tmp_path / "rules"
    repo.mkdir()
    good = (ROOT / "rulebooks" / "english-ascending.yaml").read_text(encoding="utf-8")
    (repo / "good.yaml").write_text(good, encoding="utf-8")
    (repo / "broken.yaml").write_text(good.replace("players:", "player:", 1), encoding="utf-8")
    (repo / "notes.txt").write_text("not a rulebook\n", encoding="utf-8")
    # issue 25: a scenario file is checked as a scenario; a house rule's error is on its own line, with
    # the shipped base named by name (the hook's environment is an installed wheel, not this checkout)
    scenario = ROOT / "tests" / "scenarios" / "standard" / "001-r1-count-of-three-plays-the-same.yaml"
    (repo / "slow-table.yaml").write_text(scenario.read_text(encoding="utf-8"), encoding="utf-8")
    (repo / "house.yaml").write_text("rulebook: house\nsource: our table\nextends: mogeln\npassing:\n"
                                     "  allowed: true\n", encoding="utf-8")
    run(["git", "init", "-q", "."], repo, env)
    run(["git", "add", "."], repo, env)
    assert run(["git", "commit", "-q", "-m", "rules"], repo, env).returncode == 0
    head = run(["git", "rev-parse", "HEAD"], ROOT, env).stdout.strip()

    done = run([sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "--ref", head, "--hook-stage", "manual",
                "--all-files"], repo, env)
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    check, verify = out.split("cheatdsl verify", 1)
    assert "Failed" in check and "broken.yaml:6:1: error[E200]: unknown rule `player`" in check
    assert "good.yaml" not in check and "notes.txt" not in check
    assert "3 rulebooks and 1 scenario checked: 3 errors, 0 warnings" in check
    assert "slow-table.yaml" not in check
    assert "house.yaml:5:3: error[E201]: `passing.all_pass_leader` is missing" in check
    assert "note: `passing` comes from the base rulebook mogeln, line 34" in check
    assert "site-packages" not in out and "mogeln.yaml" not in out
    assert "Failed" in verify and "broken.yaml:2:1: error[E201]" in verify
    assert "good.yaml: English ascending" in verify and "internal error" not in verify
    assert "slow-table.yaml: a scenario, not a rulebook: skipped" in verify
