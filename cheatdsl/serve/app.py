"""The JSON API and the page: Starlette routes over a catalog of rulebooks and a store of games."""

from __future__ import annotations

import functools
import json
import secrets
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..bots import BOTS
from ..engine import Game
from .actions import read_action
from .cards import card, stored_ratings
from .catalog import Catalog
from .guard import Guard, Verdict
from .lessons import LessonError, catalogue, load_lesson
from .limits import Limits, NewGameCap
from .present import rules, seat_view
from .session import Refused, Session
from .store import Store

STATIC = Path(__file__).resolve().parent / "static"
MOST_BODY = 16_384
SEED_BITS = 64  # a server-chosen seed: too many to try them all against one's own hand
MOST_SEED = 2**SEED_BITS - 1
MOST_ENTRY_DIGITS = 6
SECURITY = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                                       "base-uri 'none'; frame-ancestors 'none'"}


def _error(status: int, message: str) -> JSONResponse:
    # A message may quote the request (an unknown action type): what cannot be written as UTF-8 is escaped.
    message = message.encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"error": message}, status_code=status, headers=SECURITY)


def read_seed(value: object) -> int:
    """A seed the player typed: a whole number from 0 to MOST_SEED, as a JSON number or a string of digits
    (a page's numbers lose digits past 2**53)."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= len(str(MOST_SEED)):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MOST_SEED:
        raise Refused(f"`seed` must be a whole number from 0 to {MOST_SEED}", 400)
    return value


def read_entry(text: str) -> int:
    """The `entry` query parameter: the index of a rulebook, in ASCII digits."""
    if not (text.isascii() and text.isdigit() and len(text) <= MOST_ENTRY_DIGITS):
        raise Refused("`entry` must be the index of a rulebook this server offers", 400)
    return int(text)


def _ok(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={**SECURITY, "Cache-Control": "no-store"})


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object; Refused (4xx) when it is too large or not a JSON object."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MOST_BODY):
        raise Refused("the request body is too large", 413)
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MOST_BODY:
            raise Refused("the request body is too large", 413)
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise Refused("the request body is not JSON", 400) from None
    if not isinstance(data, dict):
        raise Refused("the request body must be a JSON object", 400)
    return data


def _guarded(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """The handler, answering a refusal with its 4xx and any fault of ours with a plain 500, never a traceback."""
    @functools.wraps(handler)
    async def guarded(request: Request) -> Response:
        try:
            return await handler(request)
        except Refused as exc:
            return _error(exc.status, str(exc))
        except Exception as exc:  # a bug of ours: said plainly, and the server goes on
            return _error(500, f"internal error ({exc.__class__.__name__}); please report it")
    return guarded


def create_app(catalog: Catalog, limits: Limits | None = None, bound: str = "127.0.0.1",
               ratings: Mapping[str, Mapping[str, Any]] | None = None) -> Starlette:
    """The practice table's web app for the rulebooks of `catalog`, answering only requests addressed to
    `bound` (the address it listens on) or localhost, within `limits`; the profile cards read `ratings`
    (the stored ratings by profile name: by default the shipped profiles', `cards.stored_ratings`)."""
    limits = limits or Limits()
    store = Store(limits.idle, limits.most_games)
    cap = NewGameCap(limits.new_games_per_minute, limits.most_clients)
    guard = Guard(bound)
    for item in catalog.entries:
        item.most_variants = limits.most_variants
    lessons = [dict(item, entry=i) for item in catalogue() for i in catalog.usable()
               if catalog.entries[i].rulebook.name == item["rulebook"]  # type: ignore[union-attr]
               and item["players"] in catalog.entries[i].rulebook.players.counts()]  # type: ignore[union-attr]
    unique: dict[str, dict[str, Any]] = {}
    for lesson in lessons:
        unique.setdefault(lesson["name"], lesson)  # each lesson on the first table that plays it
    lessons = list(unique.values())
    stored = stored_ratings() if ratings is None else ratings
    cards = [card(e.path, e.rulebook, stored) for e in catalog.entries]  # what each shipped profile rewards

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=SECURITY)

    async def tables(request: Request) -> Response:
        rulebooks = []
        for i, e in enumerate(catalog.entries):
            rb = e.rulebook
            rulebooks.append({"index": i, "label": e.label, "name": rb.name if rb else "", "usable": rb is not None,
                              "diagnostics": e.diagnostics, "players": list(rb.players.counts())[:20] if rb else [],
                              "variations": [{"name": v.name, "summary": v.summary, "conflicts": list(v.conflicts)}
                                             for v in rb.variations]
                              if rb else [], "card": cards[i]})
        return _ok({"rulebooks": rulebooks, "bots": list(BOTS), "default_bot": "honest", "lessons": lessons})

    def _rulebook(entry_index: object, variations: object) -> tuple[int, Any, tuple[str, ...]]:
        entry = catalog.get(entry_index)
        if entry is None:
            raise Refused("`entry` must be the index of a rulebook this server offers", 400)
        if entry.rulebook is None:
            raise Refused(f"{entry.label} has errors and cannot be played:\n{entry.diagnostics}", 422)
        names = catalog.check_variations(entry, variations)
        if isinstance(names, str):
            raise Refused(names, 400)
        rulebook, problems = entry.variant(names)
        if rulebook is None:
            raise Refused(f"{' and '.join(names)} cannot be played together: the rulebook's checker says\n"
                          f"{problems}", 422)
        return int(entry_index), rulebook, names  # type: ignore[call-overload]

    async def rules_of(request: Request) -> Response:
        entry = read_entry(request.query_params.get("entry", ""))
        wanted = request.query_params.get("variations", "")
        _, rulebook, _ = _rulebook(entry, [v for v in wanted.split(",") if v])
        return _ok(rules(rulebook))

    async def new_game(request: Request) -> Response:
        data = await _body(request)
        client = request.client.host if request.client else "unknown"
        if not cap.allow(client):
            raise Refused(f"too many new games: at most {limits.new_games_per_minute} a minute", 429)
        lesson_name = data.get("lesson")
        if lesson_name is not None:
            found = next((x for x in lessons if x["name"] == lesson_name), None)
            if found is None:
                raise Refused("there is no such lesson", 404)
            index, rulebook, names = _rulebook(found["entry"], None)
            game = Game(rulebook, found["players"], turn_cap=limits.turn_cap)
            try:
                lesson = load_lesson(found["name"], game)
            except LessonError as exc:
                raise Refused(f"the lesson cannot be played: {exc}", 422) from None
            session = Session(game, 0, ["honest"], index, names, lesson)
        else:
            index, rulebook, names = _rulebook(data.get("entry", catalog.usable()[0] if catalog.usable() else -1),
                                               data.get("variations"))
            players = data.get("players", rulebook.players.default)
            if isinstance(players, bool) or not isinstance(players, int) or players not in rulebook.players.counts():
                raise Refused(f"{rulebook.title} is for {rulebook.players.min} to {rulebook.players.max} players", 400)
            typed = data.get("seed")
            seed = secrets.randbits(SEED_BITS) if typed is None else read_seed(typed)
            bots = data.get("bots", ["honest"])
            if not isinstance(bots, list) or not 1 <= len(bots) <= max(players - 1, 1) or \
                    not all(isinstance(b, str) and b in BOTS for b in bots):
                raise Refused("`bots` must list bot names, one for all or one per computer seat: "
                              + ", ".join(BOTS), 400)
            try:
                game = Game(rulebook, players, turn_cap=limits.turn_cap)
            except ValueError as exc:
                raise Refused(str(exc), 400) from None
            session = Session(game, seed, bots, index, names, seed_known=typed is not None)
        store.add(session)
        return _ok(seat_view(session), 201)

    def _session(request: Request) -> Session:
        session = store.get(request.path_params["id"])
        if session is None:
            raise Refused("there is no game with that id here (it may have been dropped after a long idle time)", 404)
        return session

    async def show(request: Request) -> Response:
        return _ok(seat_view(_session(request)))

    async def act(request: Request) -> Response:
        session = _session(request)
        data = await _body(request)
        step = data.get("step")
        if isinstance(step, bool) or not isinstance(step, int):
            raise Refused("`step` must be the step number of the view the action answers", 400)
        action = read_action(session.game, data.get("action"))
        if step != session.step:
            raise Refused(f"stale action: the game is at step {session.step}, not {step}; reload the view")
        session.act(action)
        return _ok(seat_view(session))

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        return _error(exc.status, str(exc))

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(exc.status_code, str(exc.detail))

    async def internal(request: Request, exc: Exception) -> Response:
        return _error(500, f"internal error ({exc.__class__.__name__}); the game was not changed by it")

    routes = [
        Route("/", _guarded(page)),
        Route("/api/tables", _guarded(tables)),
        Route("/api/rules", _guarded(rules_of)),
        Route("/api/games", _guarded(new_game), methods=["POST"]),
        Route("/api/games/{id}", _guarded(show)),
        Route("/api/games/{id}/act", _guarded(act), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={Refused: refused, HTTPException: http_error,
                                                       Exception: internal},
                    middleware=[Middleware(Guarded, guard=guard)])
    app.state.store = store
    app.state.catalog = catalog
    app.state.limits = limits
    return app


class Guarded:
    """ASGI middleware: the routes behind the guard; a foreign Host gets 421, a foreign page's change 403."""

    def __init__(self, app: Any, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
            verdict = self.guard.check(scope.get("method", "GET"), headers.get("host"), headers.get("origin"),
                                       headers.get("content-type"))
            if verdict is Verdict.FOREIGN_HOST:
                await _error(421, "this server answers only to its own address (or localhost) in the Host "
                                  "header")(scope, receive, send)
                return
            if verdict is Verdict.FOREIGN_ORIGIN:
                await _error(403, "only this server's own page may change a game: the request came from "
                                  "another origin, or without a JSON content type")(scope, receive, send)
                return
        await self.app(scope, receive, send)
