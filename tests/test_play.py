"""`cheatdsl play`: the practice table of seed 003 in the terminal, driven through stdin.

Whole games run through `cheatdsl.cli.main` with stdin replaced; single rulings run the `Table` core
from a position (cheatdsl.engine.Position) with `honest` bots, whose choices those positions pin down
(a claim its own cards prove false is always challenged; it plays the claim it holds most of).
Seed 003 is the practice table's screen.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from cheatdsl.cli import main
from cheatdsl.engine import Game, Position, State
from cheatdsl.load import load_rulebook
from cheatdsl.play import Console, Table
from cheatdsl.play.console import Quit

RULEBOOKS = Path(__file__).resolve().parents[1] / "rulebooks"
PRACTICE = str(RULEBOOKS / "practice-table.yaml")
# Answers that every prompt eventually takes: a card by position, yes to a bluff, accept, a claim by
# number, keep, Enter for the count, a card by name, pass.
CYCLE = ["#1", "y", "a", "1", "keep", "", "AH", "pass"]


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str],
            stdin: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["play", *args])
    out, err = capsys.readouterr()
    return code, out, err


def game(name: str, players: int) -> Game:
    return Game(load_rulebook(str(RULEBOOKS / f"{name}.yaml")), players, turn_cap=500)


def table(g: Game, position: Position, answers: Callable[[str, State], str], seat: int = 0,
          seed: int = 1) -> tuple[Table, list[str]]:
    """A Table from `position` with `honest` bots; `answers(prompt, state)` plays your seat."""
    lines: list[str] = []
    holder: list[Table] = []

    def ask(prompt: str) -> str:
        lines.append(prompt)
        answer = answers(prompt, holder[0].state)
        lines.append(answer)
        return answer

    t = Table(g, Console(ask, lines.append), seed, seat, ["honest"], start=g.state_from_position(position))
    holder.append(t)
    return t, lines


def scripted(*replies: str) -> Callable[[str, State], str]:
    """Answers given in order; past the end, the input closes."""
    queue = list(replies)

    def answer(prompt: str, state: State) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)
    return answer


# -- whole games through the command line ------------------------------------------------------

def test_a_whole_practice_game_shows_every_screen(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 003: your hand, the required claim, the bluff warning, both responses, the reveal, the end."""
    code, out, err = run_cli(monkeypatch, capsys, [PRACTICE, "--players", "3", "--seed", "7"],
                             "\n".join(CYCLE * 400) + "\n")
    assert code == 0 and "Traceback" not in out + err
    assert "Seats in turn order: You (18) → Robin (17) → Alex (17)." in out   # seed 003 section 01
    assert "THE REQUIRED CLAIM: ACES" in out and "Play 1 to 4 cards face down" in out
    assert "YOUR HAND · 18 CARDS · SELECT UP TO 4" in out
    hand = out.split("YOUR HAND · 18 CARDS · SELECT UP TO 4\n", 1)[1].splitlines()[0].split()
    order = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    assert [order.index(c) for c in hand] == sorted(order.index(c) for c in hand)   # sorted as held
    assert re.search(r"Careful: “one \w+” would be a BLUFF: \w+ is not an? \w+\.", out)  # section 02
    assert "Accept or challenge" in out                                                # section 03
    assert re.search(r"Robin (accepts\.|: “Cheat!”)", out) and re.search(r"Alex (accepts\.|: “Cheat!”)", out)
    assert "THE NEWEST PLAY, REVEALED:" in out and re.search(r"collects? the pile: \d+ cards?\.", out)  # 04
    assert "── THE END" in out and re.search(r"(wins?: .* last claim survived|stopped)", out)         # 05
    assert "Cards left in hand: You" in out


def test_the_bots_option_names_each_computer_seat(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """`--bots NAME,NAME` seats a bot per opponent in turn order; without it every opponent is `honest`."""
    code, out, _ = run_cli(monkeypatch, capsys, [PRACTICE, "--seed", "3", "--bots", "greedy,counter"], "quit\n")
    assert code == 0 and "Robin plays greedy, Alex plays counter." in out
    code, out, _ = run_cli(monkeypatch, capsys, [PRACTICE, "--seed", "3"], "quit\n")
    assert code == 0 and "Robin plays honest, Alex plays honest." in out


def test_quit_leaves_the_table_cleanly(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(monkeypatch, capsys, [PRACTICE, "--seed", "7"], "quit\n")
    assert code == 0 and err == ""
    assert "You leave the table. (Replay this deal with --seed 7.)" in out


def test_end_of_input_leaves_the_table_cleanly(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(monkeypatch, capsys, [PRACTICE, "--seed", "7"], "")
    assert code == 0 and err == "" and "You leave the table." in out


def test_bad_answers_are_asked_again(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Nonsense, a position past the hand, too many cards and cards not held each get a plain answer."""
    code, out, err = run_cli(monkeypatch, capsys, [PRACTICE, "--seed", "7"],
                             "zz\n#99\n#1 #2 #3 #4 #5\nK K K K\npass\nhelp\nquit\n")
    assert code == 0 and "Traceback" not in out + err
    assert "`zz` is not a card" in out
    assert "`#99` is not a position in your hand: they run from #1 to #18." in out
    assert "Select at least one and at most four cards; you chose five." in out
    assert "You hold only two kings." in out   # counts read as a player says them
    assert "You cannot pass: passing is not allowed" in out   # seed 003: no passing on your play turn
    assert "positions      #4 #5 #8" in out
    assert out.count("Your play> ") == 7


@pytest.mark.parametrize("args, message", [
    (["--players", "4"], "practice-table is for 3 to 3 players, not 4"),
    (["--seat", "3"], "--seat must be from 0 to 2"),
    (["--bots", "clever"], "there is no bot `clever`"),
])
def test_usage_errors_exit_2(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                             args: list[str], message: str) -> None:
    code, _, err = run_cli(monkeypatch, capsys, [PRACTICE, *args], "")
    assert code == 2 and message in err


def test_a_rulebook_with_errors_exits_1(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    """A rulebook that does not compile is reported like `cheatdsl check` does, and nothing is dealt."""
    bad = tmp_path / "broken.yaml"
    bad.write_text((RULEBOOKS / "practice-table.yaml").read_text().replace("kind: rank", "kind: colour"))
    code, out, err = run_cli(monkeypatch, capsys, [str(bad)], "")
    assert code == 1 and "error[" in err and "colour" in err and out == ""


@pytest.mark.parametrize("name", ["bluffstopp", "one-rank-a-round", "canadian-bluff", "verish-ne-verish-skip",
                                  "full-rules-bigger-claims", "mogeln"])
def test_other_rulebooks_play_to_the_end(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                         name: str) -> None:
    """Exact-card claims, passing, Force, forced and optional sets, free counts: the same screens work."""
    code, out, err = run_cli(monkeypatch, capsys, [str(RULEBOOKS / f"{name}.yaml"), "--seed", "5"],
                             "\n".join(CYCLE * 1500) + "\n")
    assert code == 0 and "Traceback" not in out + err and "rules refuse" not in out
    assert "── THE END" in out or "You leave the table" in out


# -- single rulings from a position --------------------------------------------------------------

def test_a_bluff_is_warned_and_can_be_taken_back() -> None:
    """Seed 003 section 02: the interface says when your own selection would be a bluff, before it is played."""
    g = game("practice-table", 3)
    # You hold A 9 K; aces are required. Robin holds every other ace, so "one ace" from you is impossible.
    hands = ((0, 8, 12), (0, 0, 0, 5, 6), (1, 2, 3, 4))
    t, lines = table(g, Position(hands, to_play=0, previous=None), scripted("9", "n", "A", "quit"))
    assert t.run() == 0
    text = "\n".join(lines)
    assert "Careful: “one ace” would be a BLUFF: 9 is not an ace." in text
    assert "Choose again." in text
    assert "You play 1 card: “one ace”." in text and "(face down: A)" in text


def test_a_caught_bluff_is_revealed_and_the_pile_collected() -> None:
    """Seed 003 section 04: only the newest cards are checked; the bluffer takes the whole pile."""
    g = game("practice-table", 3)
    # Robin holds all four aces and answers first: your "one ace" (really a 9) is impossible for Robin.
    hands = ((8, 12), (0, 0, 0, 0, 5), (1, 2, 3, 4))
    t, lines = table(g, Position(hands, to_play=0, pile=(6, 7), previous=12), scripted("9", "y", "quit"))
    assert t.run() == 0
    text = "\n".join(lines)
    assert "Robin: “Cheat!”" in text
    assert "THE NEWEST PLAY, REVEALED: 9  (claimed “one ace”)" in text
    assert "A bluff: 9 is not an ace." in text
    assert "You collect the pile: 3 cards." in text
    answers = text.split("You play 1 card")[1].split("REVEALED")[0]
    assert "Alex" not in answers   # the first challenge settles the claim: Alex is not asked


def test_a_last_claim_that_survives_wins() -> None:
    """Seed 003 section 05: an empty hand wins once the last claim is accepted by both opponents."""
    g = game("practice-table", 3)
    hands = ((0,), (5, 6, 7), (8, 9, 10))
    t, lines = table(g, Position(hands, to_play=0), scripted("A"))
    assert t.run() == 0
    text = "\n".join(lines)
    assert "You play 1 card: “one ace” — your last card!" in text
    assert "You win: your last claim survived and your hand is empty." in text


def test_you_answer_a_claim_with_evidence_from_your_hand() -> None:
    """Seed 003 section 03: holding three aces makes a two-ace claim impossible with one deck."""
    g = game("practice-table", 3)
    # Alex (seat 2) plays first with one ace; you hold the other three and answer first, before Robin.
    hands = ((0, 0, 0, 9), (5, 6, 7), (0, 4))
    t, lines = table(g, Position(hands, to_play=2),
                     lambda prompt, state: "c" if prompt.startswith("Accept") else "quit")
    assert t.run() == 0
    text = "\n".join(lines)
    assert "Alex plays 1 card: “one ace”." in text
    assert "You hold three aces; the deck has 4." in text
    assert "[a] accept   [c] call “Cheat!”" in text
    assert "You: “Cheat!”" in text and "Every card matches: the claim was true." in text
    assert "You collect the pile: 1 card." in text


def test_passing_and_force_where_the_rulebook_has_them() -> None:
    """One rank a round (seed 004): with two players a Force makes the claimant show the rank from hand;
    a follower may pass."""
    g = game("one-rank-a-round", 2)
    # Robin (seat 1) leads; the bot claims the rank it holds most of: sevens, honestly.
    hands = ((0, 3, 9), (6, 6, 6, 2))

    def answer(prompt: str, state: State) -> str:
        if prompt.startswith("Accept"):
            return "f" if state.turns == 1 else "a"
        return "pass" if prompt.startswith("Your play") and state.can_pass() else "quit"

    t, lines = table(g, Position(hands, to_play=1, leading=True), answer)
    assert t.run() == 0
    text = "\n".join(lines)
    assert "call “Doubt”" in text and "call “Force” (they must show a seven from hand)" in text
    assert "Robin shows 7 from hand and passes it to you: the claim holds." in text
    assert "You pass." in text


def test_a_complete_set_may_be_discarded_after_a_pickup() -> None:
    """Verish' ne verish' (seed 004): after a pickup the player may show and discard four of a rank."""
    g = game("verish-ne-verish", 2)
    # Robin leads with its one seven; you hold the other three, challenge, and collect the fourth.
    hands = ((1, 1, 1, 3), (1, 4))

    def answer(prompt: str, state: State) -> str:
        if prompt.startswith("Accept"):
            return "c"
        return "sevens" if prompt.startswith("Discard") else "quit"

    t, lines = table(g, Position(hands, to_play=1, leading=True), answer)
    assert t.run() == 0
    text = "\n".join(lines)
    assert "You hold a complete set of sevens. Discard a set, or keep your cards:" in text
    assert "You discard a set of sevens: 7 7 7 7." in text


def test_the_end_names_the_order_out_and_the_loser() -> None:
    """Canadian Bluff (seed 004): players go out until one loser holds cards."""
    g = game("canadian-bluff", 3)
    hands = ((0,), (0, 1), (2, 3, 4))   # five ranks at three seats: A K Q J 10
    t, lines = table(g, Position(hands, to_play=0, leading=True), scripted("A as one ace", "quit"))
    assert t.run() == 0
    text = "\n".join(lines)
    assert "You play 1 card: “one ace” — your last card!" in text
    assert "You are out of cards and out of the game!" in text   # the bots play on without you
    assert "Order out: You, " in text and re.search(r"\n(Robin|Alex) is the last one holding cards and loses\.", text)


def test_quit_raises_from_the_console_only_on_quit_words() -> None:
    said: list[str] = []
    console = Console(lambda prompt: "  Quit ", said.append)
    with pytest.raises(Quit):
        console.ask("> ")


def test_a_variation_changes_the_deal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`--variation` is the same switch as `cheatdsl check -V`: Canadian Bluff's one-pack table deals differently."""
    canadian = str(RULEBOOKS / "canadian-bluff.yaml")
    _, two_packs, _ = run_cli(monkeypatch, capsys, [canadian, "--seed", "2"], "quit\n")
    code, one_pack, _ = run_cli(monkeypatch, capsys, [canadian, "--seed", "2", "--variation", "one-pack"], "quit\n")
    assert code == 0
    seats = [line for text in (two_packs, one_pack) for line in text.splitlines() if line.startswith("Seats")]
    assert len(seats) == 2 and seats[0] != seats[1]
    code, _, err = run_cli(monkeypatch, capsys, [canadian, "--variation", "nope"], "")
    assert code == 2 and "no variation `nope`" in err and "one-pack" in err  # a usage error, with the names


def test_the_header_names_the_rulebook_and_how_to_replay_the_deal(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The header says which rulebook is played and that --seed replays the deal; the rule sheet's source
    is not printed where it could be read as the seed."""
    code, out, _ = run_cli(monkeypatch, capsys, [PRACTICE, "--seed", "42"], "quit\n")
    assert code == 0
    assert "Rulebook: practice-table." in out
    assert "Deal number 42: replay this deal with --seed 42." in out
    assert "Seed 003" not in out.split("You play first.")[0]


@pytest.mark.parametrize("name, hint", [("english-ascending", "write its rank, such as A, 7, K"),
                                        ("mogeln", "write the rank and the suit letter")])
def test_a_word_that_is_no_card_gets_a_hint_in_the_tables_own_notation(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str, hint: str) -> None:
    """Rank games take a rank alone (`7`), exact-card games a rank and a suit letter (`7C`): the hint says
    which, with examples from the table's own deck."""
    code, out, _ = run_cli(monkeypatch, capsys, [str(RULEBOOKS / f"{name}.yaml"), "--seed", "4"], "banana\nquit\n")
    assert code == 0 and f"`banana` is not a card: {hint}" in out


def test_help_at_the_answer_prompt_explains_each_choice_and_shows_the_hand() -> None:
    """Issue 25: "`help` in `play` explains the options at every prompt and shows the hand"."""
    g = game("practice-table", 3)
    hands = ((0, 0, 0, 9), (5, 6, 7), (0, 4))
    answers = iter(["help", "a"])
    t, lines = table(g, Position(hands, to_play=2),
                     lambda prompt, state: next(answers, "quit") if prompt.startswith("Accept") else "quit")
    assert t.run() == 0
    text = "\n".join(lines)
    assert "Alex put down 1 card face down and said “one ace”. Your choices:" in text
    assert "[a] accept: the claim stands unseen and play goes on." in text
    assert "[c] call “Cheat!”: the cards are turned up" in text
    answered = text[text.index("Your choices:"):text.index("Other answers: hand (show your hand)")]
    shown = text[text.index("Other answers: hand (show your hand)"):]
    assert "[a] accept" in answered
    assert re.search(r"^Other answers[^\n]*\nYOUR HAND[^\n]*\n +A  A  A", shown), shown


def test_a_gap_in_the_rules_is_said_at_the_table(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Where the rules name nobody to lead after a challenge (the four of spades set aside,
    tests/fixtures/judge-round-gap-met.yaml), the game goes on as the engine fills the gap, and the table
    is told so rather than left to wonder why the claimant plays again."""
    fixture = str(Path(__file__).resolve().parent / "fixtures" / "judge-round-gap-met.yaml")
    code, out, _ = run_cli(monkeypatch, capsys, [fixture, "--seed", "2"], "\n".join(CYCLE * 50) + "\n")
    assert code == 0
    assert "(The rules leave a gap here: `challenge.next_player` names nobody to play next, so the claimant " \
           "plays next.)" in out
