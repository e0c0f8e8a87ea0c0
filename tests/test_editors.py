"""docs/editors.md's Neovim set-ups, tried as written in a headless Neovim (issue 25: "docs/editors.md's
Neovim set-up needs 0.10+; Debian stable ships 0.7.2, where `.cheat` files open as `conf` and the
documented calls do not exist").

Each set-up marked `<!-- neovim X.Y -->` is run by the `nvim` on the PATH (and by the one named in
CHEATDSL_TEST_NVIM, if set) when that Neovim is X.Y or later: a house rule on mogeln opened in both
forms must get the file type, one attached client and the missing-rule diagnostic on its own line.
Without a Neovim the tests are skipped; the check that every documented call exists in the version
it is written for runs whenever one is found.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EDITORS = ROOT / "docs" / "editors.md"
SETUP = re.compile(r"<!-- neovim (\d+)\.(\d+) -->\n```lua\n(.*?)```", re.S)

PROBE = """
vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = 0 }) or vim.lsp.buf_get_clients(0)
local out = { vim.bo.filetype, tostring(#vim.tbl_values(clients)) }
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out, (d.lnum + 1) .. " " .. d.message:gsub("\\n.*", ""))
end
vim.fn.writefile(out, vim.env.PROBE_OUT)
vim.cmd("qall!")
"""

HOUSE = {
    "house.cheat": ('rulebook house\nsource "our table"\nextends mogeln\npassing { allowed true }\n', 4),
    "house.yaml": ("rulebook: house\nsource: our table\nextends: mogeln\npassing:\n  allowed: true\n", 5),
}


def setups() -> list[tuple[tuple[int, int], str]]:
    return [((int(a), int(b)), body) for a, b, body in SETUP.findall(EDITORS.read_text(encoding="utf-8"))]


def neovims() -> list[tuple[str, tuple[int, int]]]:
    found = []
    for program in (shutil.which("nvim"), os.environ.get("CHEATDSL_TEST_NVIM")):
        if not program:
            continue
        try:
            done = subprocess.run([program, "--version"], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue
        version = re.search(r"NVIM v(\d+)\.(\d+)", done.stdout)
        if version:
            found.append((program, (int(version.group(1)), int(version.group(2)))))
    return found


def test_the_page_has_a_set_up_for_debian_stable_and_for_current_neovim() -> None:
    assert {version for version, _ in setups()} >= {(0, 7), (0, 10), (0, 11)}


def cheatdsl_on_path(folder: Path) -> dict[str, str]:
    """An environment whose PATH has a `cheatdsl` that runs this checkout."""
    script = folder / "bin" / "cheatdsl"
    script.parent.mkdir()
    script.write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m cheatdsl "$@"\n', encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return {**os.environ, "PATH": f"{script.parent}{os.pathsep}{os.environ.get('PATH', '')}",
            "XDG_STATE_HOME": str(folder / "state"), "XDG_DATA_HOME": str(folder / "data"),
            "XDG_CONFIG_HOME": str(folder / "config"), "XDG_CACHE_HOME": str(folder / "cache")}


@pytest.mark.parametrize("index", range(3), ids=["first", "second", "third"])
def test_each_set_up_attaches_the_server_in_every_neovim_new_enough(tmp_path: Path, index: int) -> None:
    editors = neovims()
    if not editors:
        pytest.skip("no Neovim here (apt-get install neovim gives Debian's 0.7)")
    version, body = setups()[index]
    tried = [program for program, have in editors if have >= version]
    if not tried:
        pytest.skip(f"the set-up is for Neovim {version[0]}.{version[1]} or later")
    env = cheatdsl_on_path(tmp_path)
    (tmp_path / "init.lua").write_text(body, encoding="utf-8")
    (tmp_path / "probe.lua").write_text(PROBE, encoding="utf-8")
    rules = tmp_path / "rules"
    rules.mkdir()
    for program in tried:
        for name, (text, line) in HOUSE.items():
            (rules / name).write_text(text, encoding="utf-8")
            out = tmp_path / "out.txt"
            out.unlink(missing_ok=True)
            subprocess.run([program, "--headless", "-u", str(tmp_path / "init.lua"), name,
                            "-c", f"luafile {tmp_path / 'probe.lua'}"],
                           cwd=rules, env={**env, "PROBE_OUT": str(out)}, capture_output=True, timeout=120)
            shown = out.read_text(encoding="utf-8").splitlines()
            assert shown[0] == ("cheat" if name.endswith(".cheat") else "yaml"), (program, shown)
            assert shown[1] == "1", (program, shown)
            assert f"{line} `passing.all_pass_leader` is missing: the rules must say who leads when everyone " \
                   "passes, such as last_player" in shown[2:], (program, shown)
