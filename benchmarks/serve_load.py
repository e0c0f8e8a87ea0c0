"""A bounded load check of `cheatdsl serve`: many games at once over loopback, to the end.

Starts `cheatdsl serve practice-table` on a free port of 127.0.0.1, then an async httpx client plays
GAMES games at once (one task each: the first cards and the required claim, accepting every claim),
every request timed. Checks that every game reaches its end screen, that every response belongs to the
game that asked (its id) and comes at the step after the previous one, and reports requests per second
and latency percentiles. Traffic goes only to 127.0.0.1; games, requests per game and the whole run are
bounded.

    python benchmarks/serve_load.py [--games 200] [--profile practice-table]
    python benchmarks/serve_load.py --hostile [--profile standard]

With --hostile it measures what clients can make the server hold instead: one client asking for 10,000
new games as fast as it can (the per-client cap answers most with 429), then, with the cap lifted,
10,000 games created and 20,000 orderings of the rulebook's variations asked for; the server's resident
memory (RSS, and its peak) is read from /proc after each.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
MOST_REQUESTS_PER_GAME = 3000
MOST_SECONDS = 600


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def move(view: dict, rng: random.Random) -> dict:
    """The client's move from the seat's view alone."""
    if view["phase"] == "reveal":
        return {"type": "continue"}
    turn = view["turn"]
    if turn["kind"] == "respond":
        return {"type": "accept"}
    if turn["kind"] == "discard":
        return {"type": "discard", "rank": turn["sets"][0]["rank"]} if turn["sets"] else {"type": "keep"}
    if not turn["claims"]:
        return {"type": "pass"}
    hand = [c["value"] for c in view["hand"]]
    n = rng.randint(turn["min"], max(turn["min"], turn["max"]))
    cards = hand[:n]
    return {"type": "play", "cards": cards, "claim": turn["claims"][0]["value"], "count": len(cards)}


async def play(client: httpx.AsyncClient, seed: int, latencies: list[float], problems: list[str],
               opening: list[float]) -> bool:
    """One game to the end; False (and a problem noted) if anything is lost or mixed up."""
    rng = random.Random(seed)
    t = time.perf_counter()
    r = await client.post("/api/games", json={"seed": seed})
    opening.append(time.perf_counter() - t)
    if r.status_code != 201:
        problems.append(f"game {seed}: new game answered {r.status_code}")
        return False
    view = r.json()
    key = view["id"]
    for _ in range(MOST_REQUESTS_PER_GAME):
        if view["phase"] == "end":
            return True
        body = {"step": view["step"], "action": move(view, rng)}
        t = time.perf_counter()
        r = await client.post(f"/api/games/{key}/act", json=body)
        latencies.append(time.perf_counter() - t)
        if r.status_code != 200:
            problems.append(f"game {seed}: {r.status_code} {r.text[:200]}")
            return False
        new = r.json()
        if new["id"] != key or new["step"] != view["step"] + 1 or new["seed"] != str(seed):
            problems.append(f"game {seed}: a response of another game or step ({new['id']} step {new['step']})")
            return False
        view = new
    problems.append(f"game {seed}: no end after {MOST_REQUESTS_PER_GAME} requests")
    return False


async def run(games: int, base: str) -> tuple[int, list[float], list[float], list[str], float]:
    latencies: list[float] = []
    opening: list[float] = []
    problems: list[str] = []

    async def one(seed: int) -> bool:
        # One client and connection per game, as one browser tab: httpx's pool grows slow when shared by hundreds.
        # TCP_NODELAY: a request written as headers then body must not wait out a delayed ACK; plain HTTP on
        # loopback, so no certificate store is loaded for each client.
        transport = httpx.AsyncHTTPTransport(verify=False,
                                             socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)])
        async with httpx.AsyncClient(base_url=base, transport=transport, timeout=60, trust_env=False) as client:
            return await play(client, seed, latencies, problems, opening)

    start = time.perf_counter()
    done = await asyncio.wait_for(asyncio.gather(*(one(s) for s in range(games))), MOST_SECONDS)
    return sum(done), latencies, opening, problems, time.perf_counter() - start


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (Linux /proc), or 0 where it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


@contextlib.contextmanager
def serving(profile: str, port: int, *options: str) -> Iterator[subprocess.Popen | None]:
    """`cheatdsl serve PROFILE` on 127.0.0.1:PORT while the caller runs; None when it did not start."""
    server = subprocess.Popen([sys.executable, "-m", "cheatdsl", "serve", profile, "--host", "127.0.0.1",
                               "--port", str(port), *options], stdout=subprocess.PIPE, text=True, cwd=ROOT,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = server.stdout.readline() if server.stdout else ""
        if "http://127.0.0.1" not in line:
            print(f"the server did not start: {line}", file=sys.stderr)
            yield None
        else:
            yield server
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def memory_mib(pid: int) -> tuple[float, float]:
    """A process's resident memory now and at its peak, in MiB (Linux /proc), or zeros."""
    try:
        fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
        return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024
    except (OSError, ValueError, KeyError):
        return 0.0, 0.0


async def hostile(base: str, pid: int, capped: bool) -> list[str]:
    """One client's flood: 10,000 new games, then (uncapped) 20,000 orderings of the variations."""
    import itertools
    rows = []
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False) as client:
        tables = (await client.get("/api/tables")).json()["rulebooks"][0]
        names = [v["name"] for v in tables["variations"]]
        codes: dict[int, int] = {}
        start = time.perf_counter()
        for i in range(10_000):
            r = await client.post("/api/games", json={"entry": 0, "seed": i})
            codes[r.status_code] = codes.get(r.status_code, 0) + 1
        rss, peak = memory_mib(pid)
        rows.append(f"10,000 new games from one client ({'capped at 60 a minute' if capped else 'cap lifted'}): "
                    f"answers {dict(sorted(codes.items()))} in {time.perf_counter() - start:.1f} s; "
                    f"server RSS {rss:.0f} MiB, peak {peak:.0f} MiB")
        if capped or not names:
            return rows
        orderings = itertools.islice((p for k in range(1, len(names) + 1)
                                      for p in itertools.permutations(names, k)), 20_000)
        codes = {}
        start = time.perf_counter()
        asked = 0
        for ordering in orderings:
            r = await client.get("/api/rules", params={"entry": "0", "variations": ",".join(ordering)})
            codes[r.status_code] = codes.get(r.status_code, 0) + 1
            asked += 1
        rss, peak = memory_mib(pid)
        rows.append(f"{asked:,} variation orderings ({len(names)} variations): answers {dict(sorted(codes.items()))} "
                    f"in {time.perf_counter() - start:.1f} s; server RSS {rss:.0f} MiB, peak {peak:.0f} MiB")
    return rows


def run_hostile(profile: str) -> int:
    """Two servers: one with the default cap, one with it lifted; each flooded by one client."""
    for capped in (True, False):
        port = free_port()
        with serving(profile, port, *([] if capped else ["--new-games-per-minute", "1000000"])) as server:
            if server is None:
                return 1
            rss, _ = memory_mib(server.pid)
            print(f"server started: RSS {rss:.0f} MiB")
            for row in asyncio.run(asyncio.wait_for(hostile(f"http://127.0.0.1:{port}", server.pid, capped),
                                                    MOST_SECONDS)):
                print(row)
    return 0


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games played at once (at most 1000)")
    parser.add_argument("--profile", default=None, help="the shipped profile served (default practice-table, "
                                                        "standard with --hostile)")
    parser.add_argument("--hostile", action="store_true", help="measure memory under one flooding client")
    args = parser.parse_args()
    if args.hostile:
        return run_hostile(args.profile or "standard")
    args.profile = args.profile or "practice-table"
    games = max(1, min(args.games, 1000))
    port = free_port()
    with serving(args.profile, port, "--new-games-per-minute", "1000000") as server:
        if server is None:
            return 1
        server_cpu = cpu_seconds(server.pid)
        client_cpu = time.process_time()
        finished, latencies, opening, problems, elapsed = asyncio.run(run(games, f"http://127.0.0.1:{port}"))
        server_cpu = cpu_seconds(server.pid) - server_cpu
        client_cpu = time.process_time() - client_cpu
    print(f"{games} games at once over loopback ({args.profile}), one uvicorn worker")
    print(f"finished: {finished}/{games}; problems: {len(problems)}")
    for p in problems[:10]:
        print("  " + p)
    total = len(latencies) + len(opening)
    print(f"requests: {total} in {elapsed:.2f} s = {total / elapsed:,.0f} requests/s")
    for what, values in (("moves", latencies), ("new games (each opens its connection)", opening),
                         ("all requests", latencies + opening)):
        print(f"latency of {what}: p50 {percentile(values, 50) * 1000:.1f} ms, "
              f"p95 {percentile(values, 95) * 1000:.1f} ms, p99 {percentile(values, 99) * 1000:.1f} ms, "
              f"max {max(values) * 1000:.1f} ms")
    print(f"CPU: server {server_cpu:.1f} s ({server_cpu / total * 1000:.2f} ms a request), "
          f"client {client_cpu:.1f} s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0 if finished == games and not problems else 1


if __name__ == "__main__":
    sys.exit(main())
