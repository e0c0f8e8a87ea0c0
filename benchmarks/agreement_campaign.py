"""A campaign holding the interpreter and the verifier to one game, at scale (tests/test_agreement.py is the small
run in the suite).

Run: python benchmarks/agreement_campaign.py --out DIR [--seeds N] [--generated N] [--start S] [--workers W]
     [--cap C] [--long L] [--sample-every K] [--samples M] [--moves M] [--timeout T] [--generated-only]

Every shipped rulebook and fixture at every player count it allows, and `--generated` rulebooks drawn by
`tests/rulebook_strategies.generate` (numbers `--start` on, at their fewest seats and one more; written under
--out, the only place the campaign writes), each table playing `--seeds` seeded games by a mix of bots:
the second of every three games stopped by the small turn cap `--cap`, the others played to their end (or
`--long` turns).
Each deal must be an initial state of the encoding, each turn a step of the encoding giving exactly the
interpreter's next state, and from sampled states every step the encoding allows a turn the interpreter
allows (see tests/agreement.py). Printed: games by ending, steps, deals, states sampled, encoding moves
replayed, the findings (also in DIR/findings.txt; DIR/summary.json has the figures), and the process CPU
time of the games. A table that runs past --timeout seconds is a finding too. Exit status 1 on any finding.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


class Late(Exception):
    """A table ran past its time."""


def _ring(signum: int, frame: Any) -> None:
    raise Late


def _table(task: tuple[str, str, int, dict[str, Any]]) -> dict[str, Any]:
    """Play and check one table's games: (label, rulebook path, seats, options) to the tally as a dict."""
    from agreement import Tally, play_game

    from cheatdsl.load import load_rulebook
    from verifier.encoding.spec import SpecError
    label, path, n, opt = task
    tally = Tally()
    skipped = ""
    signal.signal(signal.SIGALRM, _ring)
    signal.setitimer(signal.ITIMER_REAL, opt["timeout"])
    try:
        rb = load_rulebook(path)
        for seed in range(opt["seeds"]):
            cap = opt["cap"] if seed % 3 == 1 else opt["long"]
            tally.add(play_game(rb, n, seed, cap=cap, sample_every=opt["sample_every"], max_samples=opt["samples"],
                                moves_per_state=opt["moves"]))
    except Late:
        tally.findings.append(f"{label} at {n} seats: still running after {opt['timeout']:g} s")
    except (SpecError, ValueError) as exc:  # a table the verifier cannot tabulate, or one that cannot be dealt
        skipped = f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # noqa: BLE001 - a crash of either back end is a finding
        tally.findings.append(f"{label} at {n} seats: {type(exc).__name__}: {exc}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return {"label": label, "seats": n, "skipped": skipped, "games": tally.games, "steps": tally.steps,
            "deals": tally.deals, "states": tally.states, "moves": tally.moves, "endings": dict(tally.endings),
            "findings": tally.findings, "seconds": tally.seconds}


def tasks(out: Path, generated: int, start: int, opt: dict[str, Any],
          shipped: bool = True) -> list[tuple[str, str, int, dict[str, Any]]]:
    """Every table of the campaign (`shipped`: with the shipped rulebooks' and the fixtures')."""
    from agreement import rulebook_files, seat_counts
    from rulebook_strategies import generate, text_of

    from cheatdsl.load import load_rulebook
    todo = []
    for path in rulebook_files() if shipped else []:
        rb = load_rulebook(str(path))
        todo += [(str(path.relative_to(ROOT)), str(path), n, opt) for n in rb.players.counts()]
    folder = out / "generated"
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(start, start + generated):
        data = generate(i, safe=True)
        path = folder / f"{data['rulebook']}.yaml"
        path.write_text(text_of(data))
        rb = load_rulebook(str(path))
        todo += [(f"generated-{i}", str(path), n, opt) for n in seat_counts(rb)]
    return todo


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, type=Path, help="a folder for the generated rulebooks and the results")
    ap.add_argument("--seeds", type=int, default=6, help="games per table")
    ap.add_argument("--generated", type=int, default=200, help="generated rulebooks")
    ap.add_argument("--start", type=int, default=0, help="the first generated rulebook's number")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--cap", type=int, default=12, help="the turn cap of the second of every three games")
    ap.add_argument("--long", type=int, default=5000, help="the turn cap of the other games (their safety net)")
    ap.add_argument("--sample-every", type=int, default=6, help="sample a state every K turns")
    ap.add_argument("--samples", type=int, default=6, help="states sampled per game at most")
    ap.add_argument("--moves", type=int, default=16, help="encoding moves replayed per sampled state at most")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds for one table's games")
    ap.add_argument("--generated-only", action="store_true", help="leave out the shipped rulebooks and fixtures")
    args = ap.parse_args()
    opt = {"seeds": args.seeds, "cap": args.cap, "long": args.long, "sample_every": args.sample_every,
           "samples": args.samples, "moves": args.moves, "timeout": args.timeout}
    began = time.perf_counter()
    todo = tasks(args.out, args.generated, args.start, opt, shipped=not args.generated_only)
    results = []
    with multiprocessing.get_context("fork").Pool(args.workers, maxtasksperchild=20) as pool:
        for i, r in enumerate(pool.imap_unordered(_table, todo), 1):
            results.append(r)
            if i % 50 == 0:
                print(f"{i} of {len(todo)} tables", file=sys.stderr, flush=True)
    wall = time.perf_counter() - began
    endings: Counter[str] = Counter()
    for r in results:
        endings.update(r["endings"])
    findings = [f for r in results for f in r["findings"]]
    skipped = [f"{r['label']} at {r['seats']}: {r['skipped']}" for r in results if r["skipped"]]
    summary = {k: sum(r[k] for r in results) for k in ("games", "steps", "deals", "states", "moves", "seconds")}
    summary |= {"tables": len(results), "endings": dict(endings), "findings": len(findings),
                "skipped": skipped, "wall": wall}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    (args.out / "findings.txt").write_text("".join(f + "\n" for f in findings))
    print(f"{len(results)} tables ({args.generated} generated rulebooks), {summary['games']} games ("
          + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())) + f"), {summary['steps']} steps, "
          f"{summary['deals']} deals, {summary['states']} states sampled, {summary['moves']} encoding moves "
          f"replayed; {len(findings)} findings; {len(skipped)} tables skipped; games {summary['seconds']:.0f} s "
          f"process CPU time, {wall:.0f} s wall")
    for f in findings[:20]:
        print("  " + f)
    for s in skipped[:10]:
        print("  skipped: " + s)
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
