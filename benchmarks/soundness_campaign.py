"""Proof against play: every `proved` verdict held against long seeded games, every `refuted` witness replayed.

Run: python benchmarks/soundness_campaign.py [--count N] [--workers W] [--timeout T] [--games G] [--turns K]

Rulebook i is a mutant of a shipped rulebook when i % 4 == 3 (one section of shipped rulebook
i // 4 % S replaced by the same section of generated rulebook i, kept only when `check` accepts it),
else generated rulebook i (`tests/rulebook_strategies.generate(i)`); the same on every run. Each is
verified at every player count of its range in a process of its own, killed after --timeout seconds. Then,
at each count:

- every property verify *proved* is held against G seeded games of K turns by each of the bots
  random, greedy and honest; a game contradicts it when (per property):
    card-conservation     a card is lost or copied (the cards everywhere differ from the deck)
    turn-order            a seat that is out is asked to play
    winner                a seat out gets cards back, or the winner is not the first seat out
    no-deadlock           a game ends because the seat to act has no legal action
    challenge-resolution  a challenge's loser picks up no card
    termination           a game comes back to a position it was in (a loop the rules allow forever)
  and the table facts verify states at that count are held against the same games:
    claim-threshold       a call judges true a claim larger than the threshold proved
    challenge-priority    (proved) two seats call at once and only the lot says who is heard;
  the other proved properties (rank-cycle, ranks-exist, deal, consistency: about the tables, not a game)
  are counted as proved and not played;
- where a verdict is *refuted*, every witness of the rulebook (those games, and winnability's) is written
  as a scenario and run by `cheatdsl scenario`: each must replay (exit 0) from its deal, or it is a
  witness failure.

It ends with one JSON line: {"rulebooks", "proved", "contradicted", "witnesses_replayed",
"witness_failures", "unknown", ...}, where proved, contradicted and unknown count verdicts (a property
at one rulebook) and unknown counts `unknown` and `bounded`. Contradictions and witness failures are
listed above it, with the rulebook number (regenerate it with --start I --count 1 --keep DIR). With
--lines FILE, each rulebook's line also holds `why`: the summary of each unknown or bounded verdict.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

BOTS = ("random", "greedy", "honest")
SECTIONS = ("players", "deck", "deal", "claim", "passing", "challenge", "ending")
PLAYED = ("card-conservation", "turn-order", "winner", "no-deadlock", "challenge-resolution", "termination")


def shipped() -> list[Path]:
    return sorted((ROOT / "rulebooks").glob("*.yaml"))


def rulebook_data(i: int) -> tuple[str, dict[str, Any]]:
    """Rulebook number i of the campaign: (how it was made, its YAML data)."""
    from rulebook_strategies import generate, valid
    gen = generate(i)
    if i % 4 != 3:
        return f"generated {i}", gen
    books = shipped()
    base_path = books[(i // 4) % len(books)]
    rng = random.Random(f"mutant/{i}")
    sections = list(SECTIONS)
    rng.shuffle(sections)
    base = yaml.safe_load(base_path.read_text())
    for section in sections:
        if section not in gen:
            continue
        data = dict(base)
        data[section] = gen[section]
        data.pop("expect", None)  # the shipped expectations are about the shipped rules
        data["rulebook"] = f"mutant-{i}"
        if valid(data):
            return f"mutant {i}: {base_path.name} with the {section} of generated {i}", data
    return f"generated {i} (no valid mutant of {base_path.name})", gen


def position(st: Any) -> str:
    """The whole state but its turn count and history, as text: a game that comes back to it can go round
    the same way for ever. (Anything printed with its address only makes two positions differ.)"""
    return repr(tuple(getattr(st, name) for name in type(st).__slots__
                      if name not in ("game", "_turns", "_history", "_reveals")))


def contradictions(game: Any, seed: int, bots: str, proved: set[str], turns: int,
                   facts: dict[str, Any] | None = None) -> list[str]:
    """One seeded game by `bots`, checked against the proved properties after every action, and against the
    table facts verify stated at this count (`facts`): the largest claim a call can judge true
    (`threshold`), and that two seats never wait for the lot of who called first (`no_lot`)."""
    from rulebook_strategies import play_checked
    facts = facts or {}
    out = play_checked(game, seed, bots, proved & {"card-conservation", "turn-order", "winner", "no-deadlock"},
                       turns)
    if out or not ({"challenge-resolution", "termination"} & proved or facts):
        return out
    # The same game again (same seeds, same bots), watching challenges, positions and calls.
    from cheatdsl.bots import make_bot
    from cheatdsl.engine import Phase
    from cheatdsl.engine.game import NO_CAP
    from verifier.properties.witness import dealt
    n = game.players
    st = dealt(game, seed, seed % n if game.rules.dealer_by_lot else 0)
    players = [make_bot(bots, s, random.Random(f"{seed}/{bots}/{s}")) for s in range(n)]
    seen: set[str] = set()
    reveals = 0
    capped = game.turn_limit != NO_CAP
    threshold = facts.get("threshold")
    while st.phase is not Phase.TERMINAL and (st.turns < turns or capped and st.turns <= game.turn_limit):
        if "termination" in proved:
            if capped and st.turns > game.turn_limit:
                return [f"termination proved, but game {seed} ({bots}) goes on past its turn cap {game.turn_limit}"]
            key = "" if capped else position(st)  # with a cap the turn count is part of the position
            if key in seen:
                return [f"termination proved, but game {seed} ({bots}) comes back to a position at turn {st.turns}"]
            if key:
                seen.add(key)
        if st.is_chance_node():
            if facts.get("no_lot") and len(st.callers()) > 1:
                return [f"challenge-priority proved, but in game {seed} ({bots}) seats {st.callers()} call at once "
                        "and the lot says who is heard"]
            st.apply_action(st.chance_outcome(random.Random(f"{seed}/{bots}/{st.turns}")))
            continue
        st.apply_action(players[st.current_player()].act(st.view(st.current_player())))
        rev = st.reveals()
        if len(rev) > reveals:
            last = rev[-1]
            if "challenge-resolution" in proved and last.taken == 0 and last.paid:
                return [f"challenge-resolution proved, but in game {seed} ({bots}) the loser of challenge "
                        f"{len(rev)} picks up no card"]
            if threshold is not None and not last.caught and last.count > threshold:
                return [f"claim-threshold {threshold} proved, but in game {seed} ({bots}) a call judges a claim of "
                        f"{last.count} true"]
        reveals = len(rev)
    return []


def replay(report_entry: Any, folder: Path) -> tuple[int, list[str]]:
    """Write the refuted verdicts' witnesses as scenarios and run each: (replayed, failures in words)."""
    from cheatdsl.cli import main
    from verifier.report import Report, save_witnesses
    report = Report()
    report.rulebooks.append(report_entry)
    files = save_witnesses(report, str(folder / "witnesses"), (), True)
    ok, bad = 0, []
    for f in files:
        sink = io.StringIO()
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            code = main(["scenario", f])
        if code == 0:
            ok += 1
        else:
            bad.append(f"{Path(f).name}: scenario exit {code}: {sink.getvalue().strip()[-300:]}")
    return ok, bad


def examine(i: int, games: int, turns: int, verify_seconds: float) -> dict[str, Any]:
    from cheatdsl.engine import Game
    from cheatdsl.load import compile_rulebook
    from rulebook_strategies import text_of
    from verifier.exhaustive.merge import by_count
    from verifier.report import RulebookReport
    from verifier.runner import verify
    from verifier.properties.verdict import Verdict

    made, data = rulebook_data(i)
    out: dict[str, Any] = {"number": i, "made": made, "verdicts": {}, "contradictions": [], "replayed": 0,
                           "witness_failures": []}
    with tempfile.TemporaryDirectory(prefix="soundness-") as tmp:
        path = Path(tmp) / f"{data['rulebook']}.yaml"
        path.write_text(text_of(data))
        rb, d = compile_rulebook(str(path))
        if rb is None:
            out["error"] = d.render()
            return out
        counts = tuple(rb.players.counts())
        out["players"] = list(counts)
        timed = verify(rb, None, counts, heavy_seconds=verify_seconds)
        out["verdicts"] = {t.result.id: t.result.verdict.value for t in timed}
        out["why"] = {t.result.id: t.result.summary for t in timed if t.result.verdict.value in ("unknown", "bounded")}
        out["internal"] = [f"{t.result.id}: {t.result.summary}" for t in timed if t.result.verdict is Verdict.ERROR]
        per = {t.result.id: by_count(t.result, counts) for t in timed}
        out["facts_held"] = 0
        for n in counts:
            proved = {pid for pid, by in per.items() if by[n].verdict is Verdict.PROVED}
            facts: dict[str, Any] = {}
            if "claim-threshold" in proved:
                facts["threshold"] = per["claim-threshold"][n].details.get("threshold")
            if "challenge-priority" in proved:
                facts["no_lot"] = True
            out["facts_held"] += len(facts)
            game = Game(rb, n)
            for seed in range(games):
                for bots in BOTS:
                    found = contradictions(game, seed, bots, proved & set(PLAYED), turns, facts)
                    out["contradictions"] += [f"{n} players: {c}" for c in found]
        if any(v == "refuted" for v in out["verdicts"].values()):
            entry = RulebookReport(str(path), rb, timed)
            out["replayed"], out["witness_failures"] = replay(entry, Path(tmp))
    return out


def _child(i: int, games: int, turns: int, verify_seconds: float, conn: Any) -> None:
    import signal
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        conn.send(examine(i, games, turns, verify_seconds))
    except BaseException as exc:  # noqa: BLE001 - a crash of the campaign's own steps is a finding too
        conn.send({"number": i, "error": f"{type(exc).__name__}: {exc}", "verdicts": {}})
    finally:
        conn.close()


class Stop(Exception):
    """SIGTERM: stop the campaign and report what is done."""


def campaign(start: int, count: int, workers: int, timeout: float, games: int, turns: int,
             verify_seconds: float, log: Any = sys.stderr, lines: Any = None) -> list[dict[str, Any]]:
    """Examine rulebooks start..start+count-1, `workers` at a time, each in a process of its own; each result
    is also written to `lines` (a file, one JSON line each) as it comes. Stopped early (SIGTERM or ^C), the
    workers are killed and the results so far are returned."""
    ctx = multiprocessing.get_context("fork")
    todo = list(range(start, start + count))
    running: list[tuple[int, Any, Any, float]] = []
    out: list[dict[str, Any]] = []
    try:
        while todo or running:
            while todo and len(running) < workers:
                i = todo.pop(0)
                parent, child = ctx.Pipe(duplex=False)
                proc = ctx.Process(target=_child, args=(i, games, turns, verify_seconds, child))
                proc.start()
                child.close()
                running.append((i, proc, parent, time.perf_counter()))
            for item in list(running):
                i, proc, parent, began = item
                if parent.poll(0):
                    try:
                        out.append(parent.recv())
                    except EOFError:
                        out.append({"number": i, "error": f"exit status {proc.exitcode}", "verdicts": {}})
                elif time.perf_counter() - began > timeout:
                    proc.kill()
                    out.append({"number": i, "timeout": True, "verdicts": {}})
                elif proc.is_alive():
                    continue
                else:
                    out.append({"number": i, "error": f"exit status {proc.exitcode}", "verdicts": {}})
                proc.join()
                parent.close()
                running.remove(item)
                if lines is not None:
                    lines.write(json.dumps(out[-1]) + "\n")
                    lines.flush()
                if len(out) % 50 == 0:
                    print(f"{len(out)} of {count} rulebooks", file=log, flush=True)
            time.sleep(0.02)
    except (Stop, KeyboardInterrupt):
        for _, proc, _, _ in running:
            proc.kill()
            proc.join()
    return sorted(out, key=lambda r: r["number"])


def totals(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The campaign's figures: the final JSON line."""
    verdicts = [v for r in results for v in r.get("verdicts", {}).values()]
    return {
        "rulebooks": len(results),
        "mutants": sum(1 for r in results if str(r.get("made", "")).startswith("mutant")),
        "verdicts": len(verdicts),
        "proved": verdicts.count("proved"),
        "contradicted": sum(len(r.get("contradictions", [])) for r in results),
        "witnesses_replayed": sum(r.get("replayed", 0) for r in results),
        "witness_failures": sum(len(r.get("witness_failures", [])) for r in results),
        "unknown": verdicts.count("unknown") + verdicts.count("bounded"),
        "refuted": verdicts.count("refuted"),
        "internal_errors": sum(len(r.get("internal", [])) for r in results),
        "table_facts_held": sum(r.get("facts_held", 0) for r in results),
        "timeouts": sum(1 for r in results if r.get("timeout")),
        "crashes": sum(1 for r in results if r.get("error")),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds for one rulebook, all steps")
    ap.add_argument("--verify-seconds", type=float, default=45.0, help="the kill timer of verify's heavy checks")
    ap.add_argument("--games", type=int, default=3, help="seeded games per bot and rulebook")
    ap.add_argument("--turns", type=int, default=1500, help="turns per game at most")
    ap.add_argument("--json", metavar="FILE", help="write every rulebook's result as JSON")
    ap.add_argument("--lines", metavar="FILE", help="append each rulebook's result to FILE as it comes (JSON lines)")
    args = ap.parse_args()
    import signal

    def stop(signum: int, frame: Any) -> None:
        raise Stop()
    signal.signal(signal.SIGTERM, stop)
    t = time.perf_counter()
    with contextlib.ExitStack() as stack:
        lines = stack.enter_context(open(args.lines, "a", encoding="utf-8")) if args.lines else None
        results = campaign(args.start, args.count, args.workers, args.timeout, args.games, args.turns,
                           args.verify_seconds, lines=lines)
    wall = time.perf_counter() - t
    for r in results:
        for c in r.get("contradictions", []):
            print(f"CONTRADICTION rulebook {r['number']} ({r.get('made')}), {r.get('players')} players: {c}")
        for w in r.get("witness_failures", []):
            print(f"WITNESS FAILURE rulebook {r['number']} ({r.get('made')}): {w}")
        for e in r.get("internal", []):
            print(f"INTERNAL ERROR rulebook {r['number']} ({r.get('made')}): {e}")
        if r.get("error"):
            print(f"CRASH rulebook {r['number']}: {str(r['error'])[:300]}")
        if r.get("timeout"):
            print(f"TIMEOUT rulebook {r['number']}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    print(f"{len(results)} rulebooks in {wall:.0f} s", file=sys.stderr)
    print(json.dumps(totals(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
