"""One set of command-line conventions (docs/cli.md): --format everywhere it has a choice, results on
stdout and diagnostics on stderr, `-` and folders as rulebooks, one short form per option, progress only
in a terminal, verify's text within 100 columns, and usage errors for what cannot be carried out."""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cheatdsl.cli import build_parser, main
from cheatdsl.commands.arguments import UsageError, rulebook_arguments
from cheatdsl.commands.progress import Progress

ROOT = Path(__file__).resolve().parents[1]
RULEBOOKS = ROOT / "rulebooks"
ENGLISH = str(RULEBOOKS / "english-ascending.yaml")
STANDARD = str(RULEBOOKS / "standard.yaml")
BROKEN = "rulebook: broken\nplayers: [3, 4\ndeck: {ranks: [A, 2]\n"  # unclosed brackets: no form reads it


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """`cheatdsl ARGS` in a child process, standard input given, both outputs piped."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHEATDSL_")}
    return subprocess.run([sys.executable, "-m", "cheatdsl", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


# --format, with the old spellings as aliases ----------------------------------------------------------

@pytest.mark.parametrize("command,formats", [
    ("check", {"text", "json"}), ("simulate", {"text", "json"}), ("verify", {"text", "json", "md"}),
    ("compare", {"text", "md", "html", "json"}), ("diff", {"text", "md", "json"}),
])
def test_every_command_with_several_outputs_takes_format_and_json(command: str, formats: set[str]) -> None:
    parser = subcommands()[command]
    option = next(a for a in parser._actions if "--format" in a.option_strings)
    assert set(option.choices) == formats and option.default == "text"
    alias = next(a for a in parser._actions if "--json" in a.option_strings)
    assert alias.dest == "format" and alias.const == "json"


def test_json_is_format_json_and_markdown_is_format_md(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "check", "--json", ENGLISH) == run(capsys, "check", "--format", "json", ENGLISH)
    games = ("--games", "20", "--turn-cap", "300")
    assert run(capsys, "simulate", ENGLISH, "--json", *games) == run(capsys, "simulate", ENGLISH, "--format", "json", *games)
    code, out, _ = run(capsys, "verify", ENGLISH, "-p", "deal", "--markdown")
    assert code == 0 and out.startswith("# Verifier properties")
    assert run(capsys, "verify", ENGLISH, "-p", "deal", "--format", "md")[1] == out
    code, out, _ = run(capsys, "diff", ENGLISH, STANDARD, "--json")
    assert code == 0 and json.loads(out)["same_game"] is False
    code, out, _ = run(capsys, "diff", ENGLISH, STANDARD, "--format", "md")
    assert code == 0 and out.startswith("# What `standard` changes in `english-ascending`") and "\n## " in out


# Results on stdout, diagnostics on stderr ------------------------------------------------------------

def test_check_prints_its_findings_and_tally_on_stdout(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text(BROKEN, encoding="utf-8")
    code, out, err = run(capsys, "check", str(bad), ENGLISH)
    assert code == 1 and err == ""
    assert f"{bad}:" in out and out.rstrip().splitlines()[-1].startswith("2 rulebooks checked: ")


@pytest.mark.parametrize("command", ["simulate", "verify", "compare", "fmt"])
def test_a_broken_rulebook_is_reported_on_stderr_only(command: str, capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text(BROKEN, encoding="utf-8")
    code, out, err = run(capsys, command, str(bad))
    assert code == 1 and f"{bad}:" in err and "error[" in err
    assert f"{bad}:" not in out or command == "verify"  # verify's report names the file it could not verify


def test_scenario_and_verify_tallies_are_results(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "scenario", "-q", str(ROOT / "tests" / "scenarios" / "english-ascending"))
    assert code == 0 and "passed, 0 failed" in out
    code, out, _ = run(capsys, "verify", ENGLISH, "-p", "deal")
    assert code == 0 and out.rstrip().endswith("1 rulebook verified: 0 problems")


# Rulebooks: folders, shipped names and standard input --------------------------------------------------

def test_a_folder_stands_for_its_rulebooks_sorted_and_not_recursive(tmp_path: Path) -> None:
    for name in ("b.yaml", "a.cheat", "c.yml", "notes.txt", "sub/d.yaml"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("x", encoding="utf-8")
    assert rulebook_arguments([str(tmp_path), "-"]) == [str(tmp_path / n) for n in ("a.cheat", "b.yaml", "c.yml")] + ["-"]
    with pytest.raises(UsageError, match="only once"):
        rulebook_arguments(["-", "-"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(UsageError, match="no rulebook"):
        rulebook_arguments([str(tmp_path / "empty")])


def test_check_takes_a_folder_and_a_shipped_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(RULEBOOKS))
    shipped = [p for p in RULEBOOKS.iterdir() if p.suffix in (".yaml", ".yml", ".cheat")]
    assert code == 0 and out.rstrip().endswith(f"{len(shipped)} rulebooks checked: 0 errors, 0 warnings")
    assert run(capsys, "check", "standard")[0] == 0


def test_a_folder_with_no_rulebook_and_stdin_twice_are_usage_errors(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path) -> None:
    for args in (["check", str(tmp_path)], ["verify", str(tmp_path)], ["compare", "-", "-"], ["diff", "-", "-"],
                 ["simulate", str(RULEBOOKS)], ["play", "-"]):
        code, out, err = run(capsys, *args)
        assert code == 2 and out == "" and f"cheatdsl {args[0]}: error:" in err, args


def test_a_rulebook_read_from_standard_input() -> None:
    text = Path(ENGLISH).read_text(encoding="utf-8")
    done = cli("check", "-", stdin=text)
    assert done.returncode == 0 and "1 rulebook checked: 0 errors" in done.stdout
    done = cli("check", "-", stdin=text.replace("players: 3..6", "players: 3..six"))
    assert done.returncode == 1 and "<stdin>:" in done.stdout
    dsl = cli("fmt", ENGLISH, "--to", "cheat").stdout
    done = cli("fmt", "-", stdin=dsl)
    assert done.returncode == 0 and done.stdout.startswith("rulebook: english-ascending")
    done = cli("compare", "-", STANDARD, "--format", "json", stdin=dsl)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["verdicts"]["data"][0] is not None, "the verifier's child is given the rulebook too"


# One option name and short form per meaning ----------------------------------------------------------

def test_one_short_form_per_option_across_commands() -> None:
    shorts: dict[str, set[str]] = {}
    for name, parser in subcommands().items():
        for action in parser._actions:
            longs = [o for o in action.option_strings if o.startswith("--")]
            for short in (o for o in action.option_strings if not o.startswith("--")):
                for long in longs:
                    shorts.setdefault(long, set()).add(short)
            if "--seed" in longs or "--players" in longs or "--variation" in longs or "--bots" in longs:
                assert len(action.option_strings) == 2, (name, action.option_strings)
    assert all(len(s) == 1 for s in shorts.values()), shorts
    owners: dict[str, str] = {}
    for long, (short,) in ((k, tuple(v)) for k, v in shorts.items()):
        assert owners.setdefault(short, long) == long, (short, long, owners[short])


# Progress: only in a terminal -------------------------------------------------------------------------

def test_no_progress_when_standard_error_is_piped() -> None:
    done = cli("verify", str(RULEBOOKS / "canadian-bluff.yaml"), "-p", "termination")
    assert done.returncode == 0 and done.stderr == ""
    done = cli("compare", ENGLISH, STANDARD, "--simulate", "300", "--no-verify")
    assert done.returncode == 0 and done.stderr == ""


def test_progress_is_drawn_on_a_terminal_after_its_delay() -> None:
    stream = io.StringIO()
    with Progress("verifying", 4, stream=stream, delay=0.0, force=True) as bar:
        bar.update(2, label="standard: deal")
    assert "verifying" in stream.getvalue() and "2/4" in stream.getvalue()
    quiet = io.StringIO()
    with Progress("verifying", 4, stream=quiet, delay=60.0, force=True) as bar:
        bar.update(2)
    assert quiet.getvalue() == "", "nothing drawn before the work has run its delay"
    with Progress("verifying", 4, stream=io.StringIO()) as bar:
        assert not bar.enabled, "a stream that is no terminal gets no bar"


def test_long_work_off_a_terminal_says_how_far_it_has_gone() -> None:
    """Issue 41, point 6: `rate` and `compare --rate` printed nothing for minutes when standard error was not a
    terminal. Off a terminal a one-line note comes once the work has run `note_after` seconds (10 by default),
    then at most every `note_every` seconds; none before."""
    stream = io.StringIO()
    with Progress("rating", 240, stream=stream, note_after=0.0, note_every=0.0) as bar:
        bar.update(60)
        bar.update(120, label="strong table")
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("rating: 60 of 240 (25%), ") and lines[0].endswith(" s so far")
    assert lines[1].startswith("rating: 120 of 240 (50%)") and lines[1].endswith("strong table")
    quiet = io.StringIO()
    with Progress("rating", 240, stream=quiet) as bar:
        bar.update(60)
    assert quiet.getvalue() == "", "no note before ten seconds"


def test_rate_counts_its_games_for_the_progress(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The ladder says each game done as one more; the progress is told the games done so far (it was told 1
    every time)."""
    from cheatdsl.commands import progress

    seen: list[int] = []
    real = progress.Progress.update

    def spy(self: progress.Progress, done: int, total: int | None = None, label: str = "") -> None:
        seen.append(done)
        real(self, done, total, label)

    monkeypatch.setattr(progress.Progress, "update", spy)
    assert main(["rate", "standard-one-card-only", "-n", "2", "--games", "8", "--engine", "python"]) == 0
    capsys.readouterr()
    assert seen == list(range(1, len(seen) + 1)) and len(seen) >= 8


# Verify's text fits 100 columns ----------------------------------------------------------------------

def test_verify_text_fits_100_columns(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", str(RULEBOOKS / "canadian-bluff.yaml"), "-p", "card-conservation",
                       "-p", "termination", "-p", "deal")
    assert code == 0
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 100
    head = next(i for i, line in enumerate(lines) if line.split() and line.split()[0] == "card-conservation")
    assert lines[head].split() == ["card-conservation", "proved"]
    assert lines[head + 1].startswith("      ") and lines[head + 2].startswith("      "), "summary wrapped under it"


# Usage errors -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["check", "simulate", "verify", "compare", "diff", "play"])
def test_an_unknown_variation_is_a_usage_error_naming_those_offered(command: str,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    args = [command, STANDARD] + ([STANDARD] if command == "diff" else []) + ["-V", "no-such-variation"]
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and "no-such-variation" in err and "big-table" in err


def test_scenario_given_a_rulebook_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "scenario", STANDARD)
    assert code == 1 and "this is a rulebook, not a scenario" in out and f"cheatdsl check {STANDARD}" in out
    assert "unknown key" not in out


def test_every_command_plays_the_same_table_by_default() -> None:
    """Issue 41 point 3: simulate played the fewest seats (2 for anything on `standard`), compare, rate and serve
    4. Every command now plays four where the rulebook allows it, else its fewest, and its help says so."""
    import argparse

    from cheatdsl.cli import build_parser
    from cheatdsl.compare.statistics import table_size
    from cheatdsl.load import load_rulebook
    from cheatdsl.profiles import shipped_path
    standard = load_rulebook(str(shipped_path("standard")))
    fujian = load_rulebook(str(shipped_path("fujian")))
    assert standard.players.default == 4 and fujian.players.default == 4
    assert table_size([standard]) == [4] and table_size([standard, fujian]) == [4, 4]
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for command in ("simulate", "play", "rate"):
        helps = [a.help or "" for a in sub.choices[command]._actions if "--players" in a.option_strings]
        assert helps and "4 where the rulebook allows it, else its fewest" in helps[0], command


def _ranges_table() -> list[tuple[str, list[str], str]]:
    """docs/cli.md's table of numeric options: (option, commands, default) a row."""
    rows = []
    for line in (ROOT / "docs" / "cli.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `--") and len(cells) == 4:
            rows.append((cells[0].strip("`").split()[0], [c.strip() for c in cells[1].split(",")], cells[3]))
    return rows


def _said_default(default: str, command: str) -> str:
    """The default docs/cli.md gives for `command`: its own where the row names it (`(play: a fresh seed)`), else
    the row's, without the commas of a number or what follows a bracket or a semicolon."""
    own = re.search(rf"\b{command}: ([^);]*)", default)
    if own is not None and not own.group(1).startswith("or "):
        default = own.group(1)
    main = re.split(r" \(|;", default)[0].strip()
    return re.sub(r"(?<=\d),(?=\d{3})", "", main).replace("`", "")


@pytest.mark.parametrize(("option", "commands", "default"), _ranges_table(), ids=lambda v: str(v))
def test_every_default_in_help_is_the_one_docs_cli_gives(option: str, commands: list[str], default: str) -> None:
    """Issue 41, point 9: each command's `--help` says the default docs/cli.md's table gives for that option."""
    import argparse

    from cheatdsl.cli import build_parser

    for command in commands:
        sub = next(a for a in build_parser(command)._actions if isinstance(a, argparse._SubParsersAction))
        action = next(a for a in sub.choices[command]._actions if option in a.option_strings)
        said = re.sub(r"(?<=\d),(?=\d{3})", "", " ".join((action.help or "").split()))
        expected = _said_default(default, command)
        assert "default" in said and expected in said, (command, option, expected, said)
