"""The site: a FastAPI application with the HTTP API, the table WebSocket and the
lifecycle (migrations, database, bus, hub, worker pool).

:func:`create_app` builds it from a :class:`ServeConfig`; ``stich serve`` runs it on
uvicorn.  Every refusal is ``{"error": {"code", "text"}}`` over HTTP and an ``error``
message on the WebSocket, in the request's language (``?lang=de|en``, else the
browser's ``Accept-Language``, German by default).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from stich import __version__, web
from stich.messages import PLAIN, GameName, Position, StichError, render
from stich.server import auth, history, lobby
from stich.server.bus import Bus, LocalBus, RedisBus
from stich.server.hub import Conn, Hub, HubConfig, TableActor, new_worker_id
from stich.server.protocol import Act, EndList, Pause, Ping, Resume, Sync, client_adapter
from stich.server.protocol import websocket_schema as _schema
from stich.server.sitting import Event, Sitting
from stich.server.store.db import Store, migrate
from stich.server.wire import SPECTATOR, message_text
from stich.server.workers import Workers

__all__ = ["MAX_MESSAGE", "ServeConfig", "create_app"]

log = logging.getLogger("stich.server")

MAX_MESSAGE = 4096  # bytes of one client message
LANGS = ("de", "en")


@dataclass
class ServeConfig:
    db: str
    redis: str | None = None
    bot_delay: float = 0.5
    bot_processes: int = 2
    bot_time: float = 5.0
    presence_check: float = 10.0
    migrate: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


def request_lang(query: str | None, accept: str | None) -> str:
    """``de`` or ``en``: the query's ``lang``, else the first of Accept-Language.

    >>> request_lang(None, "en-GB,en;q=0.9"), request_lang("de", "en"), request_lang(None, None)
    ('en', 'de', 'de')
    """
    if query in LANGS:
        return query
    for part in (accept or "").split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LANGS:
            return tag
    return "de"


STATUS = {"auth.not_logged_in": 401, "auth.registered_only": 403, "auth.bad_login": 401,
          "server.not_seated": 403, "server.seat_taken": 409, "auth.name_taken": 409,
          "server.started": 409, "server.stale": 409, "server.already_seated": 409,
          "server.no_free_seat": 409}


def status_of(code: str) -> int:
    if code in STATUS:
        return STATUS[code]
    return 404 if ".no_such_" in code else 400


def error_body(e: StichError, lang: str) -> dict[str, Any]:
    return {"error": {"code": e.code, "text": e.text(lang)}}


class TableNamer:
    """Seats by the players' names (positions of the running Skat game mapped to the
    table's seats); everything else as :data:`stich.messages.PLAIN`."""

    def __init__(self, sitting: Sitting) -> None:
        self.sitting = sitting

    def cards(self, c: Any, lang: str) -> str:
        return PLAIN.cards(c, lang)

    def suit(self, s: Any, lang: str) -> str:
        return PLAIN.suit(s, lang)

    def game(self, g: GameName, lang: str) -> str:
        return PLAIN.game(g, lang)

    def position(self, p: Position, lang: str) -> str:
        s = self.sitting
        if p.players == s.n_seats and 0 <= p.seat < s.n_seats and s.started:
            name = s.names()[s.seat_at(p.seat)]
            if name:
                return name
        return PLAIN.position(p, lang)


def ws_error(e: StichError, conn: Conn, actor: TableActor | None) -> dict[str, Any]:
    you = None
    if actor is not None and conn.receiver != SPECTATOR and actor.sitting.state is not None:
        you = actor.sitting.position_of(conn.receiver)
    namer = TableNamer(actor.sitting) if actor is not None else None
    text = render(e.code, e.params, conn.lang, namer, you=you)
    return {"type": "error", "code": e.code, "text": text,
            "seq": actor.sitting.seq if actor is not None else None}


def create_app(config: ServeConfig) -> FastAPI:
    """The whole site for one worker process."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if config.migrate:
            await asyncio.to_thread(migrate, config.db)
        store = Store(config.db)
        worker = new_worker_id()
        bus: Bus = RedisBus(config.redis, worker) if config.redis else LocalBus(worker)
        workers = Workers(config.bot_processes, bot_time=config.bot_time)
        hub = Hub(store, bus, workers, HubConfig(bot_delay=config.bot_delay,
                                                 presence_check=config.presence_check,
                                                 multi=config.redis is not None))
        app.state.store, app.state.hub, app.state.workers = store, hub, workers
        await hub.start()
        asyncio.get_running_loop().create_task(workers.start())  # no wait: ready at once
        gc.freeze()  # what the start made (modules, classes: most objects) is never
        # collected: the collector's full passes, pauses of the whole site, stay short
        try:
            yield
        finally:
            await hub.stop()
            workers.close()
            await store.close()

    app = FastAPI(title="stich", version=__version__, lifespan=lifespan,
                  description="Skat and Baptistenskat online: the HTTP API. The table "
                              "itself speaks over the WebSocket /ws/tables/{id}; its "
                              "messages are in /api/schema.")
    app.include_router(auth.router)
    app.include_router(lobby.router)
    app.include_router(history.router)

    @app.exception_handler(StichError)
    async def stich_error(request: Request, e: StichError) -> JSONResponse:
        lang = request_lang(request.query_params.get("lang"),
                            request.headers.get("accept-language"))
        return JSONResponse(error_body(e, lang), status_code=status_of(e.code))

    @app.exception_handler(StarletteHTTPException)
    async def no_such_path(request: Request, e: StarletteHTTPException) -> Response:
        """An unknown path or method: the same error shape as every refusal."""
        if e.status_code not in (404, 405):
            return await http_exception_handler(request, e)
        lang = request_lang(request.query_params.get("lang"),
                            request.headers.get("accept-language"))
        err = StichError("server.no_such_path", method=request.method,
                         path=request.url.path[:100])
        return JSONResponse(error_body(err, lang), status_code=e.status_code,
                            headers=e.headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, e: RequestValidationError) -> JSONResponse:
        lang = request_lang(request.query_params.get("lang"),
                            request.headers.get("accept-language"))
        errors = list(e.errors())
        if errors and errors[0].get("type") == "json_invalid":  # not JSON at all
            reason = str((errors[0].get("ctx") or {}).get("error", ""))[:200]
            err = StichError("server.bad_json", reason=reason)
        else:
            err = StichError("server.bad_message", reason=_first_problem(errors))
        return JSONResponse(error_body(err, lang), status_code=422)

    @app.get("/api/schema")
    async def schema() -> dict[str, Any]:
        """The JSON schema of every WebSocket message (client and server)."""
        return _schema()

    @app.get("/api/health")
    async def health(request: Request) -> dict[str, Any]:
        hub: Hub = request.app.state.hub
        return {"ok": True, "worker": hub.worker_id, "tables": len(hub.actors),
                "db": request.app.state.store.dialect,
                "bot_timeouts": request.app.state.workers.timeouts}

    web.mount(app)  # the pages and /static

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await serve_socket(websocket, table_id)

    return app


def _first_problem(errors: Any) -> str:
    try:
        first = next(iter(errors))
        where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
        return f"{where}: {first.get('msg', '')}" if where else str(first.get("msg", ""))
    except (StopIteration, TypeError, AttributeError):
        return "?"


async def serve_socket(websocket: WebSocket, table_id: str) -> None:
    """One connection to a table: welcome, catch-up, then messages both ways."""
    q = websocket.query_params
    lang = request_lang(q.get("lang"), websocket.headers.get("accept-language"))
    hub: Hub = websocket.app.state.hub
    user = await auth.current_user(websocket)  # type: ignore[arg-type]
    await websocket.accept()
    since = _int(q.get("since"))
    try:
        actor, _ = await lobby.visible_actor(websocket, table_id, q.get("invite"),  # type: ignore[arg-type]
                                             user)
    except StichError as e:
        await websocket.send_text(json.dumps(ws_error(e, Conn(SPECTATOR, lang, None), None)))
        await websocket.close(code=4404)
        return
    seat = actor.seat_of(user.id) if user is not None else None
    conn = Conn(SPECTATOR if seat is None else seat, lang, user.id if user else None)
    writer = asyncio.create_task(_write(websocket, conn))
    try:
        await actor.connect(conn, since)
        await _read(websocket, hub, actor, conn)
    except WebSocketDisconnect:
        pass
    finally:
        await actor.disconnect(conn)
        with contextlib.suppress(asyncio.QueueFull):
            conn.outbox.put_nowait(None)
        with contextlib.suppress(Exception):
            await writer


def _int(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return max(0, int(text))
    except ValueError:
        return None


async def _write(websocket: WebSocket, conn: Conn) -> None:
    while True:
        msg = await conn.outbox.get()
        if msg is None:
            break
        try:
            await websocket.send_text(msg if isinstance(msg, str) else message_text(msg))
        except Exception:  # the socket is gone: the reader ends the connection
            break
    with contextlib.suppress(Exception):
        await websocket.close()


async def _read(websocket: WebSocket, hub: Hub, actor: TableActor, conn: Conn) -> None:
    while not conn.closed:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000))
        text = frame.get("text")
        if text is None:
            conn.send(ws_error(StichError("server.bad_message", reason="binary frame"),
                               conn, actor))
            continue
        try:
            await handle(text, actor, conn)
        except StichError as e:
            conn.send(ws_error(e, conn, actor))


async def handle(text: str, actor: TableActor, conn: Conn) -> None:
    """One client message: parse, validate, do."""
    size = len(text.encode())
    if size > MAX_MESSAGE:
        raise StichError("server.too_large", size=size, limit=MAX_MESSAGE)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise StichError("server.bad_json", reason=str(e)[:200]) from None
    try:
        msg = client_adapter.validate_python(data, strict=True)  # JSON types, not "3"/true
    except ValidationError as e:
        raise StichError("server.bad_message", reason=_first_problem(e.errors())[:300]) \
            from None
    if isinstance(msg, Ping):
        conn.send({"type": "pong", "seq": actor.sitting.seq})
        return
    if isinstance(msg, Sync):
        await actor.sync(conn, msg.since)
        return
    seat = conn.receiver
    if seat == SPECTATOR:
        raise StichError("server.spectator")

    def own(s: Sitting) -> None:  # still this person's seat (not left and retaken)
        info = s.seats[seat]
        if info is None or info.bot is not None or info.user != conn.user_id:
            raise StichError("server.spectator")

    if isinstance(msg, Act):
        action, seen = msg.action, msg.seq

        def plan(s: Sitting) -> list[Event]:
            own(s)
            if seen != s.seq:
                raise StichError("server.stale", current=s.seq, seen=seen)
            return s.plan_act(seat, action)

        await actor.submit(plan)
    elif isinstance(msg, Pause | Resume):
        pause = isinstance(msg, Pause)

        def plan_pause(s: Sitting) -> list[Event]:
            own(s)
            return s.plan_pause(seat, pause)

        await actor.submit(plan_pause)
    elif isinstance(msg, EndList):

        def plan_end(s: Sitting) -> list[Event]:
            own(s)
            return s.plan_end(seat)

        await actor.submit(plan_end)
