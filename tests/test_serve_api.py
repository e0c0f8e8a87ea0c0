"""`cheatdsl serve`'s JSON API played whole through httpx (Starlette's TestClient), and its refusals.

The project's rule for the browser table: what the server sends for a seat is that seat's observation
and nothing more, never another hand, a face-down pile card, an unchallenged play, or anything that
reveals the deal while the game runs. Every response of whole games on several profiles is checked two
ways: the cards it names are the seat's own hand and the cards a challenge turned up; and the response
is unchanged when every card the seat cannot see (the other hands, the pile's face-down cards, the
stock, the cards set aside) is dealt out again at random, which only holds if nothing hidden reaches it.
"""

from __future__ import annotations

import random
from pathlib import Path
import warnings
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette 1.x suggests httpx2 for its test client; httpx is what we have
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cheatdsl.engine import Phase
from cheatdsl.words.notation import card_text
from cheatdsl.serve import build_catalog, create_app
from cheatdsl.serve.limits import Limits
from cheatdsl.serve.present import seat_view

PROFILES = ["practice-table", "english-ascending", "verish-ne-verish", "one-rank-a-round", "mogeln",
            "canadian-bluff-one-pack", "standard-show-the-pile", "bluffstopp", "fujian"]


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app(build_catalog(PROFILES))


@pytest.fixture()
def client(app: Any) -> TestClient:
    return TestClient(app, base_url="http://127.0.0.1")


def _reshuffled(state: Any, you: int, rng: random.Random) -> Any:
    """A copy of `state` with every card `you` cannot see dealt out again, every size kept."""
    seats = [s for s in range(state.game.players) if s != you]
    hidden: list[int] = []
    for s in seats:
        hidden += state.hand_cards(s)
    plays = [entry[1] for entry in state.pile_plays()]
    hidden += [c for cards in plays for c in cards] + list(state.stock()) + list(state.aside())
    rng.shuffle(hidden)
    hands = {s: [hidden.pop() for _ in range(state.hand_size(s))] for s in seats}
    pile = [sorted(hidden.pop() for _ in cards) for cards in plays]
    stock = [hidden.pop() for _ in state.stock()]
    aside = [hidden.pop() for _ in state.aside()]
    assert not hidden
    return state.rearranged(hands, pile, stock, aside)


def _check_sees_only_its_own(app: Any, view: dict[str, Any], rng: random.Random) -> None:
    session = app.state.store.games[view["id"]]
    state, you, g = session.state, session.you, session.game
    assert sorted(c["value"] for c in view["hand"]) == list(state.hand_cards(you))
    if view["reveal"] is not None:
        r = session.reveal
        assert view["reveal"]["cards"] == [card_text(g, c) for c in r.revealed]
    if view["turn"] and view["turn"]["kind"] == "play":
        for claim in view["turn"]["claims"]:
            assert set(claim["matches"]) <= set(state.hand_cards(you))
    for line in view["log"]:
        if line["kind"] == "own":
            assert line["seat"] == you
    # The same response from a table where every hidden card lies elsewhere.
    real = session.state
    try:
        for _ in range(1):
            session.state = _reshuffled(real, you, rng)
            assert seat_view(session) == view
    finally:
        session.state = real


def _my_move(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A move for the seat from its view alone: random cards under a random allowed claim, or an answer."""
    turn = view["turn"]
    if view["phase"] == "reveal":
        return {"type": "continue"}
    if turn["kind"] == "respond":
        options = turn["options"]
        pick = options[0] if rng.random() < 0.7 else rng.choice(options)
        return {"type": pick["type"], **({"kind": pick["kind"]} if pick["type"] == "challenge" else {})}
    if turn["kind"] == "discard":
        if turn["sets"] and rng.random() < 0.8:
            return {"type": "discard", "rank": turn["sets"][0]["rank"]}
        return {"type": "keep"}
    if not turn["claims"] or (turn["pass"] and rng.random() < 0.2):
        return {"type": "pass"}
    hand = [c["value"] for c in view["hand"]]
    n = rng.randint(turn["min"], max(turn["min"], turn["max"]))
    cards = rng.sample(hand, min(n, len(hand)))
    claim = rng.choice(turn["claims"])
    return {"type": "play", "cards": cards, "claim": claim["value"], "count": len(cards)}


@pytest.mark.parametrize("profile", PROFILES)
def test_whole_games_send_a_seat_only_what_it_may_see(app: Any, client: TestClient, profile: str) -> None:
    """The server sends a seat its observation and nothing more, on every response of a game."""
    entry = next(i for i, e in enumerate(app.state.catalog.entries) if e.rulebook.name == profile)
    rng = random.Random(profile)
    for seed in range(1 if profile == "mogeln" else 2):
        r = client.post("/api/games", json={"entry": entry, "seed": seed, "bots": ["honest", "counter", "greedy"][:1]})
        assert r.status_code == 201, r.text
        view = r.json()
        for _ in range(3000):
            _check_sees_only_its_own(app, view, rng)
            if view["phase"] == "end":
                break
            assert view["phase"] in ("play", "respond", "discard", "reveal"), view["phase"]
            r = client.post(f"/api/games/{view['id']}/act", json={"step": view["step"], "action": _my_move(view, rng)})
            if r.status_code == 409:  # a random selection the rules refuse: nothing changed, try again
                assert client.get(f"/api/games/{view['id']}").json() == view
                continue
            assert r.status_code == 200, r.text
            view = r.json()
        assert view["phase"] == "end"
        assert len(view["seats"]) == app.state.catalog.entries[entry].rulebook.players.default
        assert view["result"]["lines"]


def _new(client: TestClient, **fields: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"entry": 0, "seed": 5, **fields})
    assert r.status_code == 201, r.text
    return r.json()


def test_another_games_id_a_stale_or_illegal_action_and_malformed_requests_are_refused(client: TestClient) -> None:
    """Another game's id, a stale or illegal action, or a malformed request gets a 4xx with a clear
    message and changes nothing."""
    view = _new(client)
    url = f"/api/games/{view['id']}/act"
    assert view["phase"] == "play"
    hand = [c["value"] for c in view["hand"]]
    claim = view["turn"]["claims"][0]["value"]
    cases = [
        ("/api/games/not-a-game/act", {"step": 0, "action": {"type": "accept"}}, 404, "no game"),
        (url, {"step": view["step"] + 3, "action": {"type": "accept"}}, 409, "stale"),
        (url, {"step": view["step"], "action": {"type": "accept"}}, 409, "rules"),
        (url, {"step": view["step"], "action": {"type": "pass"}}, 409, "pass"),
        (url, {"step": view["step"], "action": {"type": "play", "cards": hand[:5], "claim": claim}}, 409, "rules"),
        (url, {"step": view["step"], "action": {"type": "play", "cards": [99], "claim": claim}}, 400, "card"),
        (url, {"step": view["step"], "action": {"type": "play", "cards": "A A", "claim": claim}}, 400, "cards"),
        (url, {"step": view["step"], "action": {"type": "challenge", "kind": "x"}}, 400, "kind"),
        (url, {"step": view["step"], "action": {"type": "continue"}}, 409, "challenge"),
        (url, {"step": "0", "action": {"type": "accept"}}, 400, "step"),
        (url, {"step": view["step"], "action": {"type": "__import__"}}, 400, "unknown"),
        (url, {"step": view["step"], "action": []}, 400, "action"),
    ]
    for path, body, status, word in cases:
        r = client.post(path, json=body)
        assert r.status_code == status, (body, r.text)
        assert word in r.json()["error"], r.json()
    for raw in (b"{", b"[]", b"\xff\xfe", b"1e999999", b"[" * 5000 + b"]" * 5000, b"x" * 100_000):
        r = client.post(url, content=raw, headers={"content-type": "application/json"})
        assert 400 <= r.status_code < 500, raw[:20]
        assert "error" in r.json()
    assert client.get(f"/api/games/{view['id']}").json() == view
    assert client.get("/api/games/../../etc/passwd").status_code == 404
    assert client.get("/static/../app.py").status_code == 404
    assert client.get("/api/rules?entry=99").status_code == 400
    assert client.get("/api/rules?entry=../../x").status_code == 400


def test_new_game_options_are_checked(client: TestClient) -> None:
    """The page chooses among the server's rulebooks by index, never a path; bots by name."""
    for body, word in [({"entry": "rulebooks/mogeln.yaml"}, "index"), ({"entry": 99}, "index"),
                       ({"entry": 0, "players": 7}, "players"), ({"entry": 0, "bots": ["nobody"]}, "bots"),
                       ({"entry": 0, "seed": -1}, "seed"), ({"entry": 0, "variations": ["../x"]}, "variations"),
                       ({"entry": 1, "variations": ["no-such"]}, "variation"), ({"lesson": "nope"}, "lesson")]:
        r = client.post("/api/games", json=body)
        assert 400 <= r.status_code < 500 and word in r.json()["error"], (body, r.text)


def test_same_seed_deals_the_same_cards_and_every_bot_can_be_chosen(client: TestClient) -> None:
    """Same seed again; any bot can be chosen per seat; ids are unguessable and distinct."""
    a, b = _new(client, seed=11, bots=["random", "counter"]), _new(client, seed=11, bots=["random", "counter"])
    assert a["hand"] == b["hand"] and a["id"] != b["id"] and len(a["id"]) >= 22
    assert [s["bot"] for s in a["seats"] if not s["you"]] == ["random", "counter"]


def test_idle_games_are_dropped() -> None:
    """Idle games are dropped after a while."""
    app = create_app(build_catalog(["practice-table"]), Limits(idle=0.0))
    client = TestClient(app, base_url="http://127.0.0.1")
    view = client.post("/api/games", json={"entry": 0, "seed": 1}).json()
    assert client.get(f"/api/games/{view['id']}").status_code == 404


def test_a_rulebook_with_errors_is_refused_with_the_checkers_diagnostics(tmp_path: Any) -> None:
    """A rulebook with errors is refused with the checker's diagnostics, on the page."""
    bad = tmp_path / "house.yaml"
    bad.write_text("rulebook: house\ntitle: House\nextends: practice-table\nclaim:\n  cards: 0..4\n")
    app = create_app(build_catalog(["practice-table", str(bad)]))
    client = TestClient(app, base_url="http://127.0.0.1")
    books = client.get("/api/tables").json()["rulebooks"]
    assert books[0]["usable"] and not books[1]["usable"]
    assert "house.yaml" in books[1]["diagnostics"] and "error" in books[1]["diagnostics"].lower()
    r = client.post("/api/games", json={"entry": 1})
    assert r.status_code == 422 and "house.yaml" in r.json()["error"]


def test_the_page_and_its_files_come_from_the_package(client: TestClient) -> None:
    """Everything the page needs is served from the installed package: no CDN, no network."""
    page = client.get("/").text
    assert "http://" not in page and "https://" not in page
    for name in ("table.js", "table.css"):
        text = client.get(f"/static/{name}").text
        assert "http://" not in text and "https://" not in text and len(text) > 1000


def test_rules_panel_uses_compares_words(client: TestClient) -> None:
    """A rules panel generated from the rulebook in the same plain words as `compare`."""
    from cheatdsl.compare.describe import describe
    rules = client.get("/api/rules?entry=0").json()
    catalog = client.app.state.catalog  # type: ignore[attr-defined]
    assert {r["key"]: r["text"] for r in rules["rows"]} == describe(catalog.entries[0].rulebook)


def test_the_phase_names_are_the_engines() -> None:
    assert {p.value for p in Phase} >= {"play", "respond", "discard"}


def test_a_fault_of_ours_is_a_plain_500_without_a_traceback(app: Any, client: TestClient,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Brief: no Python traceback reaches a user; no request can crash the server."""
    import cheatdsl.serve.app as served
    view = _new(client)

    def broken(session: Any) -> dict[str, Any]:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(served, "seat_view", broken)
    r = client.get(f"/api/games/{view['id']}")
    assert r.status_code == 500 and r.json() == {"error": "internal error (ZeroDivisionError); please report it"}
    monkeypatch.undo()
    assert client.get(f"/api/games/{view['id']}").status_code == 200


def test_serve_refuses_a_rulebook_with_errors_on_the_command_line(tmp_path: Any,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A user's rulebook with errors is refused with the checker's diagnostics on the command line."""
    from cheatdsl.cli import main
    bad = tmp_path / "house.yaml"
    bad.write_text("rulebook: house\ntitle: House\nextends: practice-table\nclaim:\n  cards: 0..4\n")
    assert main(["serve", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "house.yaml" in err and "refused" in err and "Traceback" not in err
    with pytest.raises(SystemExit) as stop:  # a port out of range is a usage error, as docs/cli.md says
        main(["serve", "practice-table", "--port", "70000"])
    assert stop.value.code == 2


def test_serve_prints_its_url_and_serves_the_page() -> None:
    """`cheatdsl serve` starts a local web server on 127.0.0.1 and prints its URL."""
    import signal
    import subprocess
    import sys

    import httpx
    proc = subprocess.Popen([sys.executable, "-m", "cheatdsl", "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.startswith("The practice table is at http://127.0.0.1:"), line
        url = line.split()[5]
        with httpx.Client(trust_env=False) as http:
            assert "Cheat practice table" in http.get(url).text
            books = http.get(url + "api/tables").json()["rulebooks"]
        assert books[0]["name"] == "practice-table" and len(books) > 20
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=10)
    assert "Traceback" not in err


@pytest.mark.parametrize("profile", ["mogeln", "one-rank-a-round"])
def test_the_response_window_uses_the_rulebooks_own_calls_in_its_order(app: Any, client: TestClient,
                                                                       profile: str) -> None:
    """The response window with Accept and the rulebook's own calls allowed at the table ("Cheat!",
    "Gemogelt!", ...) in the order the rules give."""
    entry = next(i for i, e in enumerate(app.state.catalog.entries) if e.rulebook.name == profile)
    rulebook = app.state.catalog.entries[entry].rulebook
    view = client.post("/api/games", json={"entry": entry, "seed": 2}).json()
    rng = random.Random(2)
    while view["phase"] != "respond":
        assert view["phase"] != "end"
        r = client.post(f"/api/games/{view['id']}/act", json={"step": view["step"], "action": _my_move(view, rng)})
        view = r.json() if r.status_code == 200 else view
    labels = [o["label"] for o in view["turn"]["options"]]
    from cheatdsl.derived import allowed_kinds
    assert labels == ["Accept", *(k.call for k in allowed_kinds(rulebook, len(view["seats"])))]


def test_calls_at_once_are_unseen_and_the_lot_is_drawn_like_the_deal(app: Any, client: TestClient) -> None:
    """`challenge.priority: first_caller` (the standard sheet's project choice, "whoever called first"):
    when you are asked about a claim, no other answer to it is in the log yet; when you and a bot both
    call, the server draws who called first from the game's seeded chance, says so, and plays on."""
    entry = next(i for i, e in enumerate(app.state.catalog.entries) if e.rulebook.name == "standard-show-the-pile")
    rng = random.Random(7)
    lots = 0
    for seed in range(6):
        r = client.post("/api/games", json={"entry": entry, "seed": seed, "bots": ["random"], "players": 4})
        assert r.status_code == 201, r.text
        view = r.json()
        for _ in range(400):
            if view["phase"] == "end":
                break
            if view["turn"] and view["turn"]["kind"] == "respond":
                since = view["log"][::-1]
                before_play = since[:next(i for i, line in enumerate(since) if line["kind"] == "play")]
                assert not [line for line in before_play if line["kind"] in ("accept", "challenge")], before_play
                move: dict[str, Any] = {"type": "challenge", "kind": view["turn"]["options"][-1].get("kind")}
            else:
                move = _my_move(view, rng)
            r = client.post(f"/api/games/{view['id']}/act", json={"step": view["step"], "action": move})
            if r.status_code == 409:
                continue
            assert r.status_code == 200, r.text
            view = r.json()
        lots += sum("called first" in line["text"] for line in view["log"])
    assert lots


def test_the_practice_table_says_a_gap_in_the_rules() -> None:
    """Where the rules name nobody to lead (tests/fixtures/judge-round-gap-met.yaml: the four of spades set
    aside at two seats), the log says the gap and how the game goes on, as `cheatdsl play` does."""
    fixture = str(Path(__file__).resolve().parent / "fixtures" / "judge-round-gap-met.yaml")
    app = create_app(build_catalog([fixture]))
    client = TestClient(app, base_url="http://127.0.0.1")
    said = False
    for seed in range(12):
        rng = random.Random(seed)
        r = client.post("/api/games", json={"entry": 0, "seed": seed, "bots": ["honest"]})
        assert r.status_code == 201, r.text
        view = r.json()
        for _ in range(400):
            if view["phase"] == "end":
                break
            r = client.post(f"/api/games/{view['id']}/act", json={"step": view["step"], "action": _my_move(view, rng)})
            if r.status_code == 409:
                continue
            view = r.json()
        said = said or any("The rules leave a gap here: `challenge.next_player` names nobody" in line["text"]
                           for line in view["log"])
        if said:
            break
    assert said
