"""The practice table keeps its secrets and its bounds (issue 24).

- "The deal and the bots' choices come from an unguessable seed that no response carries while the game
  runs; the end screen shows it with 'replay this deal'. A seed the user typed is theirs to see."
- "State-changing requests need a same-origin Origin (or none from a non-browser client with a JSON content
  type); Host must be the bound address or localhost; the rest get 403/421 with a clear message."
- "Variations normalised before caching, caches bounded, the game store bounded with O(1) eviction of the
  idle, a per-client cap on new games per minute."
- "No 500 from any input": every route answers random JSON, unicode, huge numbers and odd paths with a 2xx
  or a 4xx carrying a JSON message.
"""

from __future__ import annotations

import json
import random
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():  # starlette 1.x suggests httpx2 for its test client; httpx is what we have
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cheatdsl.serve import build_catalog, create_app
from cheatdsl.serve.guard import Guard, Verdict
from cheatdsl.serve.limits import Limits, NewGameCap

LOCAL = "http://127.0.0.1"


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app(build_catalog(["practice-table", "english-ascending", "standard"]),
                      Limits(new_games_per_minute=100_000))


@pytest.fixture()
def client(app: Any) -> TestClient:
    return TestClient(app, base_url=LOCAL)


def _play_out(client: TestClient, view: dict[str, Any], rng: random.Random, seen: list[Any]) -> dict[str, Any]:
    """Play `view`'s game to its end with moves taken from the view alone; every response kept in `seen`."""
    for _ in range(3000):
        if view["phase"] == "end":
            return view
        turn = view["turn"]
        if view["phase"] == "reveal":
            move: dict[str, Any] = {"type": "continue"}
        elif turn["kind"] == "respond":
            move = {"type": "accept"} if rng.random() < 0.7 else {"type": "challenge",
                                                                 "kind": turn["options"][-1].get("kind", "")}
        elif turn["kind"] == "discard":
            move = {"type": "keep"}
        elif not turn["claims"]:
            move = {"type": "pass"}
        else:
            hand = [c["value"] for c in view["hand"]]
            cards = rng.sample(hand, max(1, min(turn["min"], len(hand))))
            move = {"type": "play", "cards": cards, "claim": turn["claims"][0]["value"], "count": len(cards)}
        r = client.post(f"/api/games/{view['id']}/act", json={"step": view["step"], "action": move})
        seen.append(r)
        if r.status_code == 409:
            continue
        assert r.status_code == 200, r.text
        view = r.json()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("entry", [0, 1])
def test_a_server_chosen_seed_is_told_only_at_the_end(app: Any, client: TestClient, entry: int) -> None:
    """Issue 24: no response carries the seed while the game runs; the end shows it and the replay command,
    and a new game with that seed deals the same hand."""
    r = client.post("/api/games", json={"entry": entry})
    assert r.status_code == 201, r.text
    first = r.json()
    seed = app.state.store.games[first["id"]].seed
    seen = [r]
    end = _play_out(client, first, random.Random(entry), seen)
    # Once the game is over (its last challenge's reveal, then the end) the seed is told, never before.
    told = [i for i, response in enumerate(seen) if str(seed) in response.text + str(response.headers)]
    assert told and told == list(range(told[0], len(seen)))
    assert all(seen[i].json()["seed"] == str(seed) for i in told)
    assert all(response.json()["seed"] is None for response in seen[:told[0]] if response.status_code < 300)
    assert seen[told[0]].json()["phase"] in ("reveal", "end")
    assert end["seed"] == str(seed)
    numbers = [line["n"] for line in end["log"]]  # each line keeps its number however long the log grows
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    assert numbers[-1] == len(app.state.store.games[end["id"]].log)
    assert f"--seed {seed}" in end["replay"] and end["replay"].startswith("cheatdsl play ")
    again = client.post("/api/games", json={"entry": entry, "seed": end["seed"]}).json()
    assert again["hand"] == first["hand"]
    assert again["seed"] == str(seed)  # typed now, so the player's to see


def test_server_seeds_have_at_least_64_bits(app: Any, client: TestClient) -> None:
    """Issue 24: 'an unguessable seed (secrets, at least 64 bits)', not one of a million."""
    seeds = [app.state.store.games[client.post("/api/games", json={"entry": 0}).json()["id"]].seed
             for _ in range(12)]
    assert len(set(seeds)) == len(seeds)
    assert max(seeds) >= 2**40 and all(0 <= s < 2**64 for s in seeds)


def test_a_typed_seed_may_be_any_64_bit_number_written_as_digits(client: TestClient) -> None:
    big = str(2**64 - 1)
    view = client.post("/api/games", json={"entry": 0, "seed": big}).json()
    assert view["seed"] == big
    for wrong in [2**64, -1, "12a", "\u0661", 1.5, True]:
        r = client.post("/api/games", json={"entry": 0, "seed": wrong})
        assert r.status_code == 400 and "seed" in r.json()["error"]


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "", "[::1",
                                  "localhost:abc"])
def test_a_foreign_host_is_refused_with_421(app: Any, host: str) -> None:
    """Issue 24: a DNS-rebinding page names its own host: the server does not answer it."""
    client = TestClient(app, base_url=LOCAL)
    r = client.get("/api/tables", headers={"Host": host})
    assert r.status_code == 421 and "Host" in r.json()["error"]


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost", "LOCALHOST:1", "[::1]:8000"])
def test_this_machines_names_are_answered(app: Any, host: str) -> None:
    r = TestClient(app, base_url=LOCAL).get("/api/tables", headers={"Host": host})
    assert r.status_code == 200


@pytest.mark.parametrize("headers, body", [
    ({"Origin": "http://evil.example", "Content-Type": "application/json"}, '{"entry": 0}'),
    ({"Origin": "null", "Content-Type": "application/json"}, '{"entry": 0}'),
    ({"Content-Type": "text/plain"}, '{"entry": 0}'),
    ({"Content-Type": "application/x-www-form-urlencoded"}, "entry=0"),
    ({"Origin": "http://127.0.0.1:9999", "Content-Type": "application/json"}, '{"entry": 0}'),
])
def test_a_change_from_another_origin_is_refused_with_403(app: Any, headers: dict[str, str], body: str) -> None:
    """Issue 24: a cross-site form or text/plain POST does not start or move a game."""
    client = TestClient(app, base_url=LOCAL)
    before = len(app.state.store.games)
    r = client.post("/api/games", content=body, headers=headers)
    assert r.status_code == 403 and "origin" in r.json()["error"]
    assert len(app.state.store.games) == before


def test_the_pages_own_origin_and_a_json_client_may_change_a_game(app: Any) -> None:
    client = TestClient(app, base_url=LOCAL)
    same = client.post("/api/games", json={"entry": 0}, headers={"Origin": LOCAL})
    plain = client.post("/api/games", json={"entry": 0})
    assert same.status_code == 201 and plain.status_code == 201


def test_bound_to_every_interface_it_answers_addresses_not_names() -> None:
    guard = Guard("0.0.0.0")
    assert guard.check("GET", "192.0.2.7:8000", None, None) is Verdict.ALLOWED
    assert guard.check("GET", "rebind.example:8000", None, None) is Verdict.FOREIGN_HOST


def test_new_games_per_client_are_capped() -> None:
    """Issue 24: 'a per-client cap on new games per minute' (answered 429, nothing created)."""
    app = create_app(build_catalog(["practice-table"]), Limits(new_games_per_minute=3))
    client = TestClient(app, base_url=LOCAL)
    codes = [client.post("/api/games", json={"entry": 0}).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    assert len(app.state.store.games) == 3
    cap = NewGameCap(1, most_clients=2)
    assert cap.allow("a", 0.0) and not cap.allow("a", 30.0) and cap.allow("a", 61.0)
    assert cap.allow("b", 61.0) and cap.allow("c", 61.0)
    assert list(cap.recent) == ["b", "c"]  # the least recently seen client forgotten


def test_the_store_drops_the_least_recently_used_game_when_full() -> None:
    app = create_app(build_catalog(["practice-table"]), Limits(most_games=3))
    client = TestClient(app, base_url=LOCAL)
    ids = [client.post("/api/games", json={"entry": 0}).json()["id"] for _ in range(3)]
    assert client.get(f"/api/games/{ids[0]}").status_code == 200  # the first is now the most recent
    client.post("/api/games", json={"entry": 0})
    assert client.get(f"/api/games/{ids[1]}").status_code == 404
    assert client.get(f"/api/games/{ids[0]}").status_code == 200
    assert len(app.state.store.games) == 3


def test_every_ordering_of_a_variation_set_is_compiled_once_and_the_cache_is_bounded() -> None:
    app = create_app(build_catalog(["standard"]), Limits(most_variants=2))
    client = TestClient(app, base_url=LOCAL)
    entry = app.state.catalog.entries[0]
    names = list(entry.variation_names())
    assert len(names) >= 3
    pairs = [[names[0], names[1]], [names[1], names[0]]]
    answers = [client.get("/api/rules", params={"entry": "0", "variations": ",".join(p)}) for p in pairs]
    assert all(a.status_code in (200, 400) for a in answers)
    assert len(entry._compiled) == 1
    for name in names[:4]:
        client.get("/api/rules", params={"entry": "0", "variations": name})
    assert len(entry._compiled) <= 2


@pytest.mark.parametrize("query", ["entry=%C2%B2", "entry=" + "9" * 5000, "entry=%D9%A1", "entry=-1", "entry=1e3"])
def test_odd_entries_are_refused_not_crashed(client: TestClient, query: str) -> None:
    """Issue 24's reproducers: a superscript two, a 5,000-digit number, an Arabic-Indic one: each a 400."""
    r = client.get("/api/rules?" + query)
    assert r.status_code == 400 and "entry" in r.json()["error"]


def test_an_action_type_of_a_lone_surrogate_is_refused(client: TestClient) -> None:
    view = client.post("/api/games", json={"entry": 0, "seed": 3}).json()
    body = '{"step": %d, "action": {"type": "\\ud800"}}' % view["step"]
    r = client.post(f"/api/games/{view['id']}/act", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "action" in r.json()["error"]


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**40), max_value=10**40) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
PATHS = st.sampled_from(["/", "/api/tables", "/api/rules", "/api/games", "/api/games/{id}", "/api/games/{id}/act",
                         "/api/games/nope/act", "/static/table.js", "/static/../app.py", "/api/games/%00",
                         "/api/%F0%9F%82%A1"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=PATHS, method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]), body=JSONISH,
       query=st.dictionaries(st.sampled_from(["entry", "variations", "x"]), st.text(max_size=12), max_size=3))
def test_no_route_answers_500_to_any_input(client: TestClient, path: str, method: str, body: Any,
                                           query: dict[str, str]) -> None:
    """Issue 24: 'a hypothesis test over every route that accepts only 2xx/4xx with a JSON message'."""
    game = client.post("/api/games", json={"entry": 0, "seed": 1}).json()["id"]
    try:
        raw = json.dumps(body)
    except ValueError:
        raw = "{}"
    r = client.request(method, path.replace("{id}", game), params=query, content=raw,
                       headers={"Content-Type": "application/json"})
    assert r.status_code < 500, (path, method, raw, r.text)
    if r.status_code >= 400 and path.startswith("/api"):
        assert isinstance(r.json().get("error"), str)


def test_a_seat_is_said_to_accept_a_claim_once() -> None:
    """Issue 24: '"Robin accepts" twice per claim in one-rank-a-round' (a pass opens the answers again)."""
    app = create_app(build_catalog(["one-rank-a-round"]))
    client = TestClient(app, base_url=LOCAL)
    view = client.post("/api/games", json={"entry": 0, "seed": 4, "players": 3}).json()
    rng = random.Random(4)
    end = _play_out(client, view, rng, [])
    log = app.state.store.games[end["id"]].log
    passes = sum(line["kind"] == "pass" for line in log)
    assert passes > 0  # the case the rule is about happened
    said: set[object] = set()
    for line in log:
        if line["kind"] == "play":
            said.clear()
        elif line["kind"] == "accept":
            assert line["seat"] not in said, line
            said.add(line["seat"])
