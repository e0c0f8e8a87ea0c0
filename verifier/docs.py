"""docs/properties.md: every property in plain words, and the verdicts on every shipped rulebook.

Run `python -m verifier.docs > docs/properties.md` (or `cheatdsl verify --markdown rulebooks/*`);
a test fails when the committed file is not what this prints.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from cheatdsl.properties import PROPERTY_IDS

from .report import Report, RulebookReport

ROOT = Path(__file__).resolve().parent.parent

# For each property: what it says, why a rule author cares, how the verifier decides it.
PROPERTIES: dict[str, tuple[str, str, str]] = {
    "rank-cycle": (
        "From the first claim, the claim asked for is never undefined, comes back to the start and visits "
        "every claim.",
        "A sequence that stops, or skips ranks, leaves players with nothing they may say.",
        "The claim rules are tabulated into a graph; Z3 looks for a set of claims closed under the rules that "
        "contains a dead end or misses a claim."),
    "ranks-exist": (
        "Every claim the rules can ask for exists in the deck at every player count.",
        "A rule written for 13 ranks breaks when the table drops some.",
        "Z3 searches the claims the rules can require for one with no card in the deck."),
    "seat-fairness": (
        "With a fixed claim sequence every seat is asked for every claim.",
        "When the number of seats and the length of the cycle share a factor, a seat only ever claims some ranks.",
        "A closed form (the gcd of seats, cycle and drifts) found by Z3 and confirmed by a direct check; a pass "
        "allowed only under `passing.when` counts as a drift once a seeded game meets a turn where a seat may pass, "
        "and a refutation resting on no pass needs a game from a deal that shows it (otherwise unknown). The closed "
        "form counts turns games may never reach, so a proof stands only where seeded games from a deal meet every "
        "seat and claim pair, and a refutation only where none of them meets a pair it says is never met; otherwise "
        "unknown. On small tables the exhaustive judge collects the pairs met in every game from every deal."),
    "claim-threshold": (
        "The largest count of one claim that a call allowed at the table can judge true; one more is a certain lie.",
        "Players call bluffs by counting: the threshold says when a call is sure to win.",
        "Not applicable at a player count where no challenge may be made (no claim is ever judged). Where every call "
        "turns the whole play over, Z3 finds the largest true claim over copies, wild cards, the cap per play, forced "
        "discards and the most cards one hand can hold (asking for a larger one until none is left); the claim one "
        "higher is shown impossible, and leaving out each rule in turn names the rules that bind. The verdict stands "
        "only where the interpreter plays, at that player count, a game from a deal in which the largest claim is "
        "made and a call judges it true (`--save-witnesses` writes it as a scenario); otherwise it is unknown. Where "
        "a call sees less than the play (`reveal: top_card`, or a Force call that asks for one card from the hand "
        "and passes it to the loser), a call can judge true more than the cards allow: the symbolic verifier says "
        "unknown, and the exhaustive judge reports both figures, the largest claim a call judges true and the most "
        "matching cards a play holds, with a warning that a call on a claim between them is not sure to win."),
    "deal": (
        "Every player count deals as the rules say, and the first player is always dealt in.",
        "A deal that cannot be made, or a first player holding a card nobody was dealt, stops the game.",
        "Hand sizes are integers constrained by each deal rule; Z3 checks the deal is possible and determined."),
    "card-conservation": (
        "Hands, pile, stock, cards set aside, cards gone out of play and discarded sets always make up the deck.",
        "A rule that loses or copies a card (a pile taken twice, a discard that vanishes) makes every count wrong.",
        "The game is a transition system over counts of cards per place, generated from the rulebook; the "
        "invariant holds after every deal (base case) and is kept by every turn (1-induction), proved by Z3."),
    "discards": (
        "Sets leaving the game are whole and shown to all; once a rank's set is out, a claim of that rank is a "
        "certain lie.",
        "Players rely on discarded ranks to catch bluffs; wild cards or sets smaller than the rank break that.",
        "Z3 checks that every discard takes whole sets from any hand; when wild cards or copies left over let a "
        "dead rank be claimed truly, a play showing it is searched for (bounded model checking, then games "
        "played by bots) and replayed. Not applicable without `sets`."),
    "no-deadlock": (
        "The seat to move always has a legal action: a play, or a pass where passing is allowed.",
        "A seat with no cards that must lead, or a claim nobody may make, leaves the game stuck.",
        "Induction with lemmas (every seat still in holds a card); when the step fails, plays from a deal are "
        "searched (bounded model checking, then seeded games played by bots, `random` among them, to their "
        "end; where those show none, 5,000 more a line-up on the compiled engine) and what is found is replayed "
        "by the interpreter."),
    "turn-order": (
        "The next seat is always defined, is still in the game, and another seat is there to answer.",
        "After a challenge or when everyone passes the rules must name who plays, skipping seats that are out.",
        "Induction: the seat to act is always a seat still in, and every seat rule named a seat."),
    "termination": (
        "Every play ends, or a turn cap or anti-loop rule stops it.",
        "A game that can go round for ever needs a table agreement (or a turn cap) to end.",
        "A recurrent set: Z3 shows that when every seat holds two different cards and the pile is empty, a lie "
        "that is caught at once returns every hand to where it was; the interpreter deals such a game and plays "
        "the lie until the whole state repeats (the witness). Where rounds end only when everyone passes and a "
        "caught lie stays the claim to beat, the set is the start of a round with the stock empty as well, and "
        "the move a round: the leader's lie caught at once, then every seat passing; the interpreter plays such "
        "rounds from a deal (they empty the stock first) until a round starts as one did before. Failing "
        "those, seeded games played by bots are searched for a whole position met twice (the moves between "
        "can be made for ever). A turn cap, cards that only leave the hands, or claims that never come back "
        "(no round ends, no passing, no cycle in the claims allowed) prove termination instead."),
    "winner": (
        "At most one winner, and a winner never gets cards back; with `last_holder_loses`, exactly one loser.",
        "A game that can name two winners, or give cards to a seat that is out, is not decided by its rules.",
        "Induction over the transition system, with card conservation among the lemmas."),
    "winnability": (
        "Every seat can win in some play.",
        "A seat that can never win (by its position or the deal) makes the game unfair.",
        "A game the seat wins is the proof that it can: for each seat, a game from a seeded deal played by the "
        "interpreter and replayed (saved with `--save-witnesses` as a scenario per seat). First a scripted "
        "greedy play from the deal of seed 0: the seat plays as many cards as it may, the others pass (or play "
        "the fewest cards); where the rules treat every seat alike and the dealer is drawn by lot, one such "
        "play turned round the table serves every seat. A seat no such play wins takes a game won by it among "
        "the seeded games played by bots (where those show none, among 5,000 games a line-up the same bots play "
        "on the compiled engine, replayed by the interpreter from the kernel's deal). Only for a seat no game "
        "has won does Z3 search: bounded model "
        "checking of up to 24 turns (plays and passes) from the deal of seed 0, replayed by the interpreter. "
        "The summary says which way each seat's win was shown; the details name each game (seed, dealer, "
        "what each seat's player did, turns)."),
    "challenge-priority": (
        "Simultaneous challengers always resolve to exactly one seat, never the claimant.",
        "\"Whoever called first\" does not say who that is when two call at once.",
        "Seats counted from the claimant; Z3 looks for callers the rule resolves to none, two, or the claimant."),
    "challenge-resolution": (
        "Every challenged play has exactly one verdict and one player picks up; wild cards' meaning is defined.",
        "A penalty that gives nothing (an empty stock to draw from) makes a lie free.",
        "Induction over every challenge step: the loser is the claimant or the challenger and picks up cards "
        "(where `challenge.penalty.failed_call: free`, a wrong call costs nothing by the rules: then the step "
        "checked is a caught claimant's)."),
    "consistency": (
        "The rules and variations switched on admit a legal deal and a first move.",
        "Two variations fine alone can clash; the unsat core names the clashing lines.",
        "Each rule is a tracked constraint; an unsat core names the rules that contradict each other."),
    "round-rank": (
        "In games whose rounds end, the round's claim and the next leader are defined after every outcome.",
        "A round with no leader or no claim to lead stops the game.",
        "Every outcome is tabulated; Z3 looks for one naming no seat or allowing no claim. A gap found so is "
        "refuted only by a game from a deal that meets it (the interpreter says each gap it fills), else unknown; "
        "the exhaustive judge decides small tables from every gap play meets."),
}

SHORT = {"proved": "proved", "refuted": "**refuted**", "bounded": "bounded", "unknown": "unknown",
         "not_applicable": "n/a", "error": "**internal error**"}


def shipped() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulebooks").iterdir()
                  if p.suffix in (".yaml", ".cheat"))


def markdown(report: Report) -> str:
    """The page: the properties, then one row of verdicts per rulebook and a note per finding."""
    lines = [
        "# Verifier properties",
        "",
        "<!-- Generated by `python -m verifier.docs > docs/properties.md`; do not edit by hand. -->",
        "",
        "`cheatdsl verify RULEBOOK` gives each property one verdict: **proved**, **refuted** (with a witness",
        "the interpreter replays; `--save-witnesses DIR` writes it as a scenario), **bounded** (no",
        "counterexample up to a depth, and no more is claimed), **unknown** (the solver or the search stopped;",
        "never a pass) or **not applicable**. A rulebook verified at several player counts gets the worst",
        "verdict of its counts, with the counts named. An exception inside a check is none of these: it is",
        "shown as an **internal error** of the tool (`error`) and `verify` exits with status 3.",
        "",
        "## What a verdict means",
        "",
        "A property about play is a statement about every game that can happen under the rulebook from a",
        "legal deal (a deal its `deal` and `setup` can produce, then actions the interpreter accepts).",
        "",
        "- **proved**: it holds in all of them: a proof over the reachable states, or a closed form whose",
        "  assumptions about play are themselves shown of reachable play. A closed form never counts on a",
        "  rule firing unless play shows it can: seat-fairness counts the shift a pass makes under",
        "  `passing.when` only once a seeded game from a deal meets a turn where a seat may pass, and",
        "  claim-threshold bounds a true claim by what one hand can hold (its dealt size where no card can",
        "  ever enter a hand: no pile is taken and the stock is empty) and stands only on a game from a deal",
        "  in which a call judges that claim true; on small tables the exhaustive judge's verdict is read off",
        "  every state of every game from every deal.",
        "- **refuted**: a game from a deal, replayed by the interpreter, shows it false (the witness).",
        "- **bounded** / **unknown**: anything else: no counterexample up to a depth, or a search or an",
        "  assumption that could not be settled. Neither is a guess in either direction.",
        "",
        "*Rules that never fire.* Where the invariants proved of every reachable state leave no turn at",
        "which `passing.when` holds (e.g. `hand == 0`: a seat still in always holds a card), nobody ever",
        "passes. `verify` says so as warning W506, located on the formula, with a hint. It is shown by the",
        "solver (no state meets the invariants and the condition), never read from the formula's text, and",
        "it is a warning about the rulebook, not a verdict.",
        "",
        "*Calls that do not see the whole play.* Where a call turns over only the top card",
        "(`challenge.reveal: top_card`) or asks for one card of the claim from the hand (a Force call,",
        "`test: hand`), a call can judge true a claim larger than the cards allow, so a call on a claim past",
        "the cards is not sure to win. `verify` says so as warning W507, located on that rule, with the two",
        "figures where the exhaustive judge gave them (the largest claim a call judged true, the most matching",
        "cards a play held).",
        "",
        "*Table-level facts.* `rank-cycle`, `ranks-exist` and `deal` are about the rule and deck tables (the",
        "claim graph, the deck, the hands dealt), not about play. `claim-threshold` is about play: the largest",
        "claim a call allowed at that table size can judge true in a game from a deal. Its witness game starts",
        "from a seeded deal in which the first player is dealt the cards of the claim, where a few hundred",
        "deals are likely to hold one (a hand of four aces); where they are not (eleven aces and jokers from",
        "two packs), from a deck laid in an order a shuffle can give so that the rules deal the first player",
        "those cards (a scenario's `deck:` start, dealt by the interpreter: the first player, forced sets and",
        "turn-start rules are its own), and its summary says so; where no such game is found the verdict is",
        "unknown and says why.",
        "",
        "*Witnesses are games from a deal.* Every witness starts from a shuffle seed or from a deck in a given",
        "order dealt by the rules, never from a table set by hand: a play the model checker finds is played",
        "again from a deck the rules deal into its hands, and a game of the compiled engine from a deck the",
        "rules deal into the kernel's hands, or it is no witness.",
        "",
        "## The exhaustive judge",
        "",
        "Where a table is small enough, `verify` decides the properties of play by visiting every state",
        "reachable from every deal, under every legal action of every seat (each choice of cards, claim and",
        "count, each answer, call, pass and set discard, and each seat the lot can pick), each step made by",
        "the interpreter itself: there is no second model of the rules. Every distinct deal is enumerated",
        "(cards no rule tells apart are one kind: card values, or exact cards where a formula asks who was",
        "dealt a card; every dealer where the dealer is drawn by lot) and dealt by the interpreter's dealing.",
        "Two states with the same position (what the rules read from then on: not the history, nor the",
        "record of challenges) are explored once; a position met again on the search's own path is a play",
        "that can go round for ever. The verdict says what it rests on: \"decided over all 14,085 states",
        "from 7 deals\" (tests/fixtures/judge-top-card.yaml at two players). The judge runs unasked where",
        "the deck has at most 16 cards and the deals are few,",
        "within 100,000 states a player count; `verify --exhaustive` runs it at every count within",
        "`--exhaustive-budget` states (1,000,000 by default; about 2 KB of memory a state); `--no-exhaustive`",
        "leaves the symbolic verifier alone. A search stopped by its budget decides only what it met (a game",
        "that refutes a property stands), and the symbolic verdicts stand for the rest. The judge's",
        "witnesses are paths from a deal, started from a seed that deals the same table or from the deck",
        "order itself. `benchmarks/differential_campaign.py` holds the symbolic verdicts against the judge's",
        "on generated rulebooks (docs/soundness.md).",
        "",
        "## How the transition system is built",
        "",
        "The properties from card-conservation on are about play, not only the tables. The verifier",
        "tabulates every rule of the compiled rulebook at each player count (formulas such as",
        "`next_player` or `turn_start_win` are run on every case they can tell apart) and generates a Z3",
        "transition relation: the state is counts of cards of each value per seat and per place (pile,",
        "stock, aside, gone, sets), the seat to act, the last claim and what follows it, passes in a row,",
        "seats still in, winner and loser; a step is one turn (a play answered by every seat, a play",
        "challenged by one seat with one kind of challenge, or a pass), and every fact a step does not",
        "change is stated equal. Invariants are proved together (Houdini: a candidate that fails is",
        "dropped) on the merged game, where card values are merged and a challenge's verdict is left open,",
        "so that a proof there holds of the real game; a failed induction step leads to a search of the",
        "full game for a play from a deal, which the interpreter must replay before anything is refuted.",
        "Beside the solver, seeded games played to their end by the interpreter's bots (several line-ups,",
        "`random` among them, up to 1,500 turns each) are a search strategy of their own: a game stuck with",
        "no legal action refutes no-deadlock, a position met twice refutes termination, a true claim of a",
        "discarded rank refutes discards, and a game won by a seat (these, or a scripted greedy play) proves",
        "that seat can win, so Z3 searches only for seats no game has won; the game is the witness. Seeds",
        "and line-ups are fixed, so verdicts do not depend on the machine. Where those games show no stuck",
        "game, or no win for some seat, the same line-ups play 5,000 games each on the compiled engine (where",
        "numba is installed and the kernel plays the rules; `--engine python` turns this off), and a game",
        "that shows one is replayed by the interpreter from the kernel's deal: that replay is the witness.",
        "",
        "## The properties",
        "",
    ]
    for pid in PROPERTY_IDS:
        what, why, how = PROPERTIES[pid]
        lines += [f"### `{pid}`", "", what, "", f"*Why it matters.* {why}", "", f"*How it is checked.* {how}", ""]
    lines += ["## Verdicts on the shipped rulebooks", ""]
    header = "| rulebook | " + " | ".join(f"`{p}`" for p in PROPERTY_IDS) + " |"
    lines += [header, "|" + "---|" * (len(PROPERTY_IDS) + 1)]
    notes: list[str] = []
    for r in report.rulebooks:
        if r.rulebook is None:
            lines.append(f"| `{r.path}` | " + " | ".join("—" for _ in PROPERTY_IDS) + " |")
            continue
        by = {t.result.id: t.result for t in r.timed}
        cells = []
        for pid in PROPERTY_IDS:
            res = by.get(pid)
            cells.append(SHORT[res.verdict.value] if res is not None else "—")
            if res is not None and res.verdict.value in ("refuted", "unknown", "bounded"):
                notes.append(f"- `{Path(r.path).name}`, `{pid}` ({res.verdict.value}): {_first_sentence(res.summary)}")
        lines.append(f"| `{Path(r.path).name}` | " + " | ".join(cells) + " |")
    lines += ["", "## Findings", ""] + notes + [""]
    return "\n".join(lines)


def _first_sentence(text: str, limit: int = 400) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " ..."


def build() -> str:
    """Verify every shipped rulebook and render the page."""
    from cheatdsl.load import compile_rulebook

    from .runner import verify_all
    report = Report()
    jobs: list[tuple[RulebookReport, Any]] = []
    for path in shipped():
        rb, _ = compile_rulebook(str(ROOT / path))
        entry = RulebookReport(path, rb, error="" if rb is not None else "does not compile")
        report.rulebooks.append(entry)
        if rb is not None:
            jobs.append((entry, (rb, None, None)))
    for (entry, _), timed in zip(jobs, verify_all([job for _, job in jobs])):
        entry.timed = timed
    return markdown(report)


if __name__ == "__main__":
    sys.stdout.write(build())
