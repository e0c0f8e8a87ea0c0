"""The package as people install it: sdist, then a wheel built from it, installed outside the repository.

Issue "A tool people install": a wheel installed in a fresh virtual environment must carry the shipped
profiles, so every command takes them by name, and a house-rule file that extends one compiles. The
build and the environment live under pytest's tmp_path; the commands run from a folder that holds
nothing but the house rule, so nothing can be read from the checkout by accident.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(p.name for p in (ROOT / "rulebooks").iterdir() if p.suffix in (".yaml", ".cheat"))


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(the sdist, the wheel, the environment's bin folder), built and installed once for this module."""
    base = tmp_path_factory.mktemp("package")
    source = base / "source"
    # Build from a copy of the tracked files only, as a clean clone would.
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    dist = base / "dist"
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)],
                   check=True, capture_output=True)
    sdist = next(dist.glob("cheatdsl-*.tar.gz"))
    wheel = next(dist.glob("cheatdsl-*.whl"))
    env = base / "env"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    subprocess.run([str(env / "bin" / "pip"), "install", "-q", str(wheel)], check=True, capture_output=True)
    return sdist, wheel, env / "bin"


def cheatdsl(bin_dir: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CHEATDSL_", "PYTHON"))}
    return subprocess.run([str(bin_dir / "cheatdsl"), *args], cwd=cwd, capture_output=True, text=True,
                          env=env, stdin=subprocess.DEVNULL, timeout=600)


def test_the_wheel_and_the_sdist_carry_every_shipped_profile_and_the_licence(
        installed: tuple[Path, Path, Path]) -> None:
    """rulebooks/ is the one copy; the build puts it inside the package, and the licence beside it."""
    import tarfile
    sdist, wheel, _ = installed
    with zipfile.ZipFile(wheel) as zipped:
        names = zipped.namelist()
    assert sorted(n.rsplit("/", 1)[1] for n in names if n.startswith("cheatdsl/rulebooks/")) == SHIPPED
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert any(n.endswith("cheatdsl/syntax/cheat.lark") for n in names)
    for packaged in ("cheatdsl/serve/static/index.html", "cheatdsl/serve/static/table.js",
                     "cheatdsl/serve/lessons/1-make-a-claim.yaml", "cheatdsl/schema/rulebook.schema.json",
                     "cheatdsl/ratings.json"):  # the profile cards' figures (docs/gallery/ratings.json)
        assert packaged in names, packaged
    with tarfile.open(sdist) as tar:
        members = tar.getnames()
    assert sum(1 for m in members if "/rulebooks/" in m) == len(SHIPPED)


def test_every_command_takes_a_shipped_profile_by_name_outside_the_repository(
        installed: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """check, list, simulate, verify, compare and play, by name, from a folder with no rulebooks in it."""
    _, _, bin_dir = installed
    names = [p.rsplit(".", 1)[0] for p in SHIPPED]
    done = cheatdsl(bin_dir, tmp_path, "check", *sorted(set(names)))
    assert done.returncode == 0, done.stdout + done.stderr
    listed = json.loads(cheatdsl(bin_dir, tmp_path, "list", "--format", "json").stdout)
    assert sorted(e["name"] for e in listed) == sorted(set(names))
    done = cheatdsl(bin_dir, tmp_path, "simulate", "mogeln", "--games", "3", "--seed", "1")
    assert done.returncode == 0, done.stderr
    done = cheatdsl(bin_dir, tmp_path, "verify", "english-ascending", "-p", "rank-cycle", "-p", "termination")
    assert done.returncode == 0, done.stdout + done.stderr
    done = cheatdsl(bin_dir, tmp_path, "compare", "english-ascending", "mogeln")
    assert done.returncode == 0 and "mogeln" in done.stdout.lower(), done.stderr
    done = cheatdsl(bin_dir, tmp_path, "play", "practice-table", "--seed", "3")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


def test_a_house_rule_extending_a_shipped_profile(installed: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """The author's guide's house-rule file (`extends: english-ascending`) checks, simulates and verifies."""
    _, _, bin_dir = installed
    shutil.copy(ROOT / "docs" / "examples" / "friday.yaml", tmp_path / "friday.yaml")
    for args in (("check", "friday.yaml"), ("simulate", "friday.yaml", "--games", "3"),
                 ("verify", "friday.yaml", "-p", "rank-cycle"), ("diff", "english-ascending", "friday.yaml")):
        done = cheatdsl(bin_dir, tmp_path, *args)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        assert "internal error" not in done.stderr


def test_the_installed_practice_table_serves_its_page(installed: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """`cheatdsl serve` from the wheel serves the page and the shipped profiles (loopback only)."""
    import socket
    import time
    import urllib.request
    _, _, bin_dir = installed
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CHEATDSL_", "PYTHON"))}
    server = subprocess.Popen([str(bin_dir / "cheatdsl"), "serve", "--port", str(port)], cwd=tmp_path, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                    page = answer.read().decode()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.2)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=5) as answer:
            tables = json.loads(answer.read())
        assert "<html" in page.lower()
        assert "practice-table" in json.dumps(tables)
        # The profile cards read the stored ratings the wheel carries (a test keeps them current).
        assert any(rb["card"] for rb in tables["rulebooks"]), tables["rulebooks"][0]
    finally:
        server.terminate()
        server.wait(timeout=30)
