"""The gallery of shipped profiles cannot rot: `docs/gallery/` is what the rulebooks, the verifier and the
simulator give now.

The whole gallery is rebuilt once per run (about ten seconds: every rulebook verified, its heavy checks in
worker processes, while each one plays 100 seeded games) and compared with the committed pages. When it
differs, regenerate it with `python -m cheatdsl.docs.gallery` (or `pytest --regenerate`) and read
the diff before committing.
"""

from __future__ import annotations

import difflib
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cheatdsl.compare.describe import DIMENSIONS
from cheatdsl.docs import gallery
from cheatdsl.docs.shell import ROOT

FOLDER = ROOT / gallery.TARGET
CHARTS = ("Turns per game", "Wins by turn order", "Challenge outcomes")
NAMES = sorted({p.stem for p in (ROOT / "rulebooks").iterdir() if p.suffix in (".yaml", ".cheat")})


@pytest.fixture(scope="module")
def built() -> dict[str, str]:
    return gallery.build(ROOT)


def test_gallery_is_up_to_date(built: dict[str, str], regenerate: bool) -> None:
    """Every committed page is the generated one; no page is missing and none is left over."""
    if regenerate:
        gallery.write(built, ROOT)
    stale = gallery.differences(built, ROOT)
    if stale:
        first = next((line.split(":")[0] for line in stale if line.endswith("stale")), None)
        shown = ""
        if first is not None:
            old = (FOLDER / first).read_text(encoding="utf-8").splitlines()
            shown = "\n".join(list(difflib.unified_diff(old, built[first].splitlines(), f"{first} (committed)",
                                                        f"{first} (generated now)", lineterm="", n=1))[:60])
        pytest.fail("docs/gallery is stale: run `python -m cheatdsl.docs.gallery` and commit it\n"
                    + "\n".join(stale) + "\n" + shown)


def test_a_page_per_shipped_rulebook_and_an_index(built: dict[str, str]) -> None:
    """One page per rulebook name (the YAML and text forms of one rulebook share a page), and README.md."""
    assert sorted(n for n in built if n.endswith(".md")) == sorted([f"{n}.md" for n in NAMES] + ["README.md"])
    index = built["README.md"]
    for name in NAMES:
        assert f"[{name}]({name}.md)" in index, name


def test_every_page_has_rules_verdicts_and_statistics(built: dict[str, str]) -> None:
    """Rules in plain words (a row per dimension), the verifier's verdicts and the simulation's statistics."""
    for name in NAMES:
        text = built[f"{name}.md"]
        rules = text.split("## Rules in plain words", 1)[1].split("\n## ", 1)[0]
        assert [line.split(" | ")[0][2:] for line in rules.splitlines() if line.startswith("| ")][1:] == \
            [d.label for d in DIMENSIONS], name
        assert "## Verifier verdicts" in text and "| rank-cycle |" in text, name
        assert "## Simulation" in text, name
        assert "| turns per game | mean " in text or "| turns per game | no game finished" in text, name
        assert f"--games {gallery.GAMES} --seed {gallery.SEED}" in text, name


def test_every_page_shows_the_compare_pages_charts(built: dict[str, str]) -> None:
    """Each page shows turns per game, wins by seat (where a game was won) and challenge outcomes (where one
    finished), drawn as compare's HTML page draws them, as SVG files under charts/ that the page links; no chart
    is left over."""
    linked = set()
    for name in NAMES:
        found = re.findall(r"!\[([^]]+)\]\((charts/[^)]+\.svg)\)", built[f"{name}.md"])
        titles = [title for title, _ in found]
        assert titles[0] == "Turns per game" and titles == [t for t in CHARTS if t in titles], name
        for _, chart in found:
            assert built[chart].startswith("<svg ") and built[chart].rstrip().endswith("</svg>"), chart
            ET.fromstring(built[chart])
            linked.add(chart)
    assert linked == {n for n in built if n.endswith(".svg")}


def test_house_rules_say_what_they_change(built: dict[str, str]) -> None:
    """A rulebook that extends another links to its base's page and lists what it changes, as diff says it."""
    based = [p for p in gallery.profiles(ROOT) if len(p.rulebook.chain) > 1]
    assert based
    for profile in based:
        text = built[f"{profile.name}.md"]
        base = gallery.base_of(profile, ROOT)
        assert base is not None
        assert f"## What it changes from {base[0]}" in text and f"({base[0]}.md)" in text, profile.name


def test_both_surface_forms_share_a_page(built: dict[str, str]) -> None:
    """A rulebook shipped as YAML and as text is one profile: its page lists both files."""
    for profile in gallery.profiles(ROOT):
        for form in profile.forms:
            assert f"(../../{form})" in built[f"{profile.name}.md"]


def test_generators_name_no_profile() -> None:
    """The gallery is whatever `rulebooks/` holds: no profile's name is written into the generators."""
    for module in sorted((ROOT / "cheatdsl" / "docs").glob("*.py")):
        text = module.read_text(encoding="utf-8")
        for name in NAMES:
            assert not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])(?! (output|error))", text), (module, name)


def test_stale_missing_and_left_over_pages_are_told_apart(tmp_path: Path) -> None:
    """The staleness check names each page that differs, is missing, or no rulebook makes any more."""
    folder = tmp_path / gallery.TARGET
    folder.mkdir(parents=True)
    (folder / "kept.md").write_text("same\n", encoding="utf-8")
    (folder / "changed.md").write_text("old\n", encoding="utf-8")
    (folder / "gone.md").write_text("x\n", encoding="utf-8")
    files = {"kept.md": "same\n", "changed.md": "new\n", "new.md": "y\n"}
    assert gallery.differences(files, tmp_path) == ["new.md: missing", "gone.md: no rulebook makes it any more",
                                                    "changed.md: stale"]
    gallery.write(files, tmp_path)
    assert gallery.differences(files, tmp_path) == []
    assert sorted(p.name for p in folder.iterdir()) == ["changed.md", "kept.md", "new.md"]
    charts = {**files, "charts/new-turns.svg": "<svg/>\n"}
    assert gallery.differences(charts, tmp_path) == ["charts/new-turns.svg: missing"]
    gallery.write(charts, tmp_path)
    assert gallery.differences(files, tmp_path) == ["charts/new-turns.svg: no rulebook makes it any more"]
    gallery.write(files, tmp_path)
    assert not (folder / "charts" / "new-turns.svg").exists()


def test_unfinished_games_are_stated_with_why_not_as_results(built: dict[str, str]) -> None:
    """A page whose games hit the turn cap says how many and why, beside the verifier's refutation.

    Mogeln's honest games never finish: its page states it, names the command that replays the loop, and
    shows no turn count or challenge rate of those games; the index shows no median turns for it.
    """
    mogeln = built["mogeln.md"]
    finding = next(line for line in mogeln.splitlines() if line.startswith("> **Finding.** mogeln:"))
    assert "did not finish, 100% (95% interval " in finding and "so they have no result" in finding and "turn cap of 2000" in finding
    assert "refutes termination, as the rulebook expects" in finding
    assert "`cheatdsl verify mogeln -p termination --save-witnesses DIR`" in finding
    assert "| turns per game | no game finished" in mogeln and "| challenges per game | no game finished |" in mogeln
    row = next(line for line in built["README.md"].splitlines() if line.startswith("| [mogeln]"))
    assert "| no game finished |" in row and "at the turn cap" in row and "2000" not in row
    for name in NAMES:  # every page with unfinished games says so beside its numbers
        text = built[f"{name}.md"]
        left = re.search(r"\| unfinished games \| (\d+) ", text)
        assert left is not None, name
        assert (int(left.group(1)) > 0) == (f"> **Finding.** {name}:" in text), name


def test_verdicts_sit_beside_expectations(built: dict[str, str]) -> None:
    """An expected refutation reads "as expected"; the index says the refutations are expected."""
    standard = built["standard.md"]
    assert "| termination | refuted, as expected | refuted |" in standard
    assert "known property of the game" in standard
    row = next(line for line in built["README.md"].splitlines() if line.startswith("| [standard]"))
    assert "2 refuted (as expected)" in row


def test_house_rules_that_play_alike_are_flagged(built: dict[str, str]) -> None:
    """A house rule whose games are identical to its base's says so, and why its rules do not matter here."""
    big = built["standard-big-table.md"]
    assert "> **Finding.** standard-big-table and standard played identical games here" in big
    assert "`deck.packs` differs only at other player counts" in big
    assert "played identical games" not in built["standard-one-card-only.md"]


def test_win_share_charts_draw_and_state_each_seats_interval(built: dict[str, str]) -> None:
    """Issue 25: 'gallery ... win-share bars have no intervals': every wins chart draws each place's share as a
    dot on its 95% Wilson interval and writes both beside it; 'seats numbered the same way everywhere': the
    places in turn order are named in words (first to play first), never as a seat number."""
    svg = "{http://www.w3.org/2000/svg}"
    charts = [n for n in built if n.endswith("-wins.svg")]
    assert charts
    for name in charts:
        tree = ET.fromstring(built[name])
        words = " ".join(t.text or "" for t in tree.iter(f"{svg}text"))
        shown = re.findall(r"(\d+)% \((\d+)%–(\d+)%\)", words)
        assert shown and all(int(low) <= int(share) <= int(high) for share, low, high in shown), name
        assert len(list(tree.iter(f"{svg}circle"))) == len(shown), name
        assert "95% Wilson interval" in words and "first" in words and "seat " not in words, name


def test_facts_table_has_a_header_row_and_every_share_its_interval(built: dict[str, str]) -> None:
    """Issue 25: the facts table rendered an empty header row, and 'intervals on every share': no table of any
    page has an empty header cell (the facts table is headed `fact | value`), and the index writes the
    unfinished share with its 95% Wilson interval."""
    for name in [f"{n}.md" for n in NAMES] + ["README.md"]:
        lines = built[name].splitlines()
        heads = [lines[i - 1] for i, line in enumerate(lines) if i and line.startswith("|---")]
        assert heads, name
        for head in heads:
            assert all(cell.strip() for cell in head.strip().strip("|").split("|")), (name, head)
        if name != "README.md":
            first = next(i for i, line in enumerate(lines) if line.startswith("|"))
            assert lines[first] == "| fact | value |" and lines[first + 2].startswith("| rulebook | "), name
    row = next(line for line in built["README.md"].splitlines() if line.startswith("| [mogeln]"))
    assert re.search(r"\*\*100% \(\d+%–100%\)\*\* \(", row), row


def test_stored_ratings_fit_the_rulebooks_as_they_are_now() -> None:
    """Issue 23 point 3: every page shows its profile's skill index and first-player advantage from
    docs/gallery/ratings.json; each entry was made from the rulebook files as they are now (their hash), or
    this fails naming the profiles and the command that rates them again."""
    from cheatdsl.docs import ratings
    current = {p.name: p.rulebook for p in gallery.profiles(ROOT)}
    stale = ratings.stale(current, ratings.load(ROOT))
    assert not stale, ("docs/gallery/ratings.json is stale: run `" + ratings.REFRESH + " --only "
                       + " ".join(line.split(":")[0] for line in stale) + "` and commit it\n" + "\n".join(stale))


def test_a_changed_rulebook_makes_its_rating_stale(tmp_path: Path) -> None:
    """The staleness check can fail: a rating made from other files than the profile's is named stale."""
    from cheatdsl.docs import ratings
    (profile,) = [p for p in gallery.profiles(ROOT) if p.name == "english-ascending"]
    entry = {"profile": profile.name, "files": ratings.files_digest(profile.rulebook)}
    assert ratings.stale({profile.name: profile.rulebook}, {profile.name: entry}) == []
    entry = {**entry, "files": "0" * 32}
    assert ratings.stale({profile.name: profile.rulebook}, {profile.name: entry}) == \
        ["english-ascending: its rulebook files changed since it was rated"]
    assert ratings.stale({profile.name: profile.rulebook}, {}) == ["english-ascending: no rating stored"]


def test_every_page_says_what_its_rulebook_rewards(built: dict[str, str]) -> None:
    """Each page has the skill index and the first-player advantage with their intervals, or why it is not
    rated; the index has both columns."""
    interval = re.compile(r"-?\+?\d+\.?\d*%? \(-?\+?\d+\.?\d*%? to -?\+?\d+\.?\d*%?\)")
    for name in NAMES:
        section = built[f"{name}.md"].split("## What it rewards", 1)[1]
        if "Not rated:" in section:
            continue
        skill = next(line for line in section.splitlines() if line.startswith("| skill index"))
        first = next(line for line in section.splitlines() if line.startswith("| first-player advantage"))
        assert interval.search(skill) and interval.search(first), name
    assert "| skill index (95%) | first-player advantage (95%) |" in built["README.md"]
