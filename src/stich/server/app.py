"""The site: a FastAPI application with the HTTP API, the table WebSocket and the
lifecycle (migrations, database, bus, hub, worker pool, limits).

:func:`create_app` builds it from a :class:`ServeConfig`; ``stich serve`` runs it on
uvicorn.  Every request passes :class:`stich.server.guard.Guard` first (bodies bounded
by :data:`stich.server.guard.MAX_BODY`, Origin, security headers).  Every refusal
is ``{"error": {"code", "text"}}`` over HTTP and an ``error`` message on the WebSocket,
in the request's language (``?lang=de|en``, else the browser's ``Accept-Language``,
German by default).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import time
import unicodedata
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
from stich.messages import PLAIN, GameName, Seat, StichError, render
from stich.present.languages import choose_lang
from stich.present.styles import StyleNamer, card_style
from stich.server import (
    auth,
    daily_api,
    history,
    lobby,
    metrics,
    rule_sets,
    tournament_routes,
)
from stich.server.bus import Bus, LocalBus, RedisBus
from stich.server.events import PresenceKind
from stich.server.guard import (
    MAX_BODY,
    Guard,
    Site,
    capitalised,
    error_body,
    status_of,
)
from stich.server.health import DATABASE, REDIS, Services
from stich.server.hub import Conn, Hub, HubConfig, TableActor, new_worker_id
from stich.server.limits import (
    Bucket,
    Limiter,
    Limits,
    MemoryLimiter,
    RateLimited,
    RedisLimiter,
)
from stich.server.problems import json_problem, validation_problem
from stich.server.protocol import (
    Act,
    Away,
    Back,
    Chat,
    EndList,
    Pause,
    Ping,
    Ready,
    Resume,
    Sync,
    client_adapter,
)
from stich.server.protocol import websocket_schema as _schema
from stich.server.sitting import Event, Sitting
from stich.server.store.db import Store, migrate
from stich.server.wire import SPECTATOR, message_text, with_timer
from stich.server.workers import Workers
from stich.server_settings import DEFAULTS

__all__ = ["MAX_MESSAGE", "ServeConfig", "create_app", "error_body",
           "status_of"]

log = logging.getLogger("stich.server")

MAX_MESSAGE = 4096  # bytes of one client message
CHAT_MOST = 200  # characters of a chat line (after trimming)
# never in a chat line: control characters, line and paragraph separators, and the
# bidirectional overrides and isolates (they would turn the lines around them)
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# control, line and paragraph separators, format (zero widths, BOM, word joiner, tags),
# lone surrogates, private use, unassigned: never in a chat line, but for the joiners
# that emoji sequences and some scripts need
_CHAT_NEVER = frozenset({"Cc", "Zl", "Zp", "Cf", "Cs", "Co", "Cn"})
_JOINERS = frozenset("\u200c\u200d")
# letters and symbols that show nothing: a line of only these (and spaces) is blank
_BLANK = frozenset("\u3164\u115f\u1160\uffa0\u2800\u180e")
CHAT_MARKS = 4  # combining marks on one character (Vietnamese needs two or three)


@dataclass
class ServeConfig:
    """What one worker process's site is made with (the defaults:
    :data:`stich.server_settings.DEFAULTS`)."""

    db: str
    redis: str | None = None
    bot_delay: float = DEFAULTS.bot_delay
    bot_processes: int = DEFAULTS.bot_processes
    bot_time: float = DEFAULTS.bot_time
    presence_check: float = DEFAULTS.presence_check
    migrate: bool = True
    public_url: str | None = None  # the origin of the site (WebSocket check, cookies)
    limits: Limits = field(default_factory=Limits)
    metrics_token: str | None = None  # /metrics answers only with this bearer token
    housekeeping: float = DEFAULTS.housekeeping  # seconds between idle checks and purges


class TableNamer:
    """Seats by the players' names (positions of the running Skat game mapped to the
    table's seats); cards, suits and games in words in the connection's card style
    (:class:`stich.present.styles.StyleNamer`)."""

    def __init__(self, sitting: Sitting, style: str = "german") -> None:
        self.sitting = sitting
        skat = sitting.skat  # (None at a table of another game)
        game = skat.game if skat is not None else None
        self.words = StyleNamer(style, None if game is None else game.value)

    def cards(self, c: Any, lang: str) -> str:
        return self.words.cards(c, lang)

    def suit(self, s: Any, lang: str) -> str:
        return self.words.suit(s, lang)

    def game(self, g: GameName, lang: str) -> str:
        return self.words.game(g, lang)

    def seat(self, p: Seat, lang: str) -> str:
        s = self.sitting
        players = 3 if s.skat is not None else s.n_seats  # (Skat: the game's positions)
        if p.players == players and 0 <= p.seat < players and s.started:
            name = s.names()[s.seat_at(p.seat)]
            if name:
                return name
        return PLAIN.seat(p, lang)


def ws_error(e: StichError, conn: Conn, actor: TableActor | None) -> dict[str, Any]:
    you = None
    if actor is not None and conn.receiver != SPECTATOR and actor.sitting.state is not None:
        you = actor.sitting.position_of(conn.receiver)
        if you < 0:  # the dealer who sits out at a Skat table of four
            you = None
    namer = TableNamer(actor.sitting, conn.style) if actor is not None else \
        StyleNamer(conn.style)
    text = capitalised(render(e.code, e.params, conn.lang, namer, you=you))
    return {"type": "error", "code": e.code, "text": text,
            "seq": actor.sitting.seq if actor is not None else None}


class _NotUtf8(logging.Filter):
    """uvicorn logs a WebSocket text frame that is not UTF-8 as an ERROR with its
    traceback (and closes the socket with 1007, as RFC 6455 says: such a frame cannot be
    read, so no ``error`` message can answer it).  Any client can send one: the log gets
    one line instead, counted with the refusals."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith("Invalid UTF-8 sequence received from client"):
            metrics.REFUSALS.labels("server.not_utf8").inc()
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg, record.args = "a table socket sent a text frame that is not UTF-8: " \
                "closed (1007)", ()
            record.exc_info = record.exc_text = None
        return True


logging.getLogger("uvicorn.error").addFilter(_NotUtf8())

GC_THRESHOLDS = (20_000, 10, 10)
"""The collector's thresholds while serving (``gc.set_threshold``; Python's are 700, 10,
10): a young pass after 20,000 new tracked objects instead of 700.  Every action makes
hundreds of short-lived objects (views, messages, frames, futures): with 700 the young
passes ran dozens of times a second, each looking at every young object (about 0.6 µs
apiece), and the middle and full passes (the full ones 80 ms, the whole site paused)
came as often.  Measured with ``bench/speed/server_load.py`` at 800 actions/s offered, a run
of 45 s: the collector's time 2.1 -> 0.4 s, p99 36 -> 10 ms (docs/speed.md, "Third
round")."""


def create_app(config: ServeConfig) -> FastAPI:
    """The whole site for one worker process."""

    site = Site(config.public_url)
    limits = config.limits

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if config.migrate:
            await asyncio.to_thread(migrate, config.db)
        store = Store(config.db)
        worker = new_worker_id()
        services = Services((DATABASE, REDIS) if config.redis else (DATABASE,))
        bus: Bus = RedisBus(config.redis, worker, services) if config.redis \
            else LocalBus(worker)
        limiter: Limiter = RedisLimiter(config.redis, services) if config.redis \
            else MemoryLimiter()
        workers = Workers(config.bot_processes, bot_time=config.bot_time)
        hub = Hub(store, bus, workers, HubConfig(bot_delay=config.bot_delay,
                                                 presence_check=config.presence_check,
                                                 multi=config.redis is not None,
                                                 limits=limits,
                                                 housekeeping=config.housekeeping),
                  services=services)
        hashing = auth.Hashing(limits.hashes_at_once, limits.hashes_waiting)
        app.state.store, app.state.hub, app.state.workers = store, hub, workers
        app.state.limiter, app.state.hashing = limiter, hashing
        hub.limiter = limiter
        await hub.start()
        asyncio.get_running_loop().create_task(workers.start())  # no wait: ready at once
        gc.freeze()  # what the start made (modules, classes: most objects) is never
        # collected: the collector's full passes, pauses of the whole site, stay short
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            yield
        finally:
            await hub.stop()
            workers.close()
            hashing.close()
            await limiter.close()
            await store.close()
            if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):  # this worker's gauges end
                from prometheus_client import multiprocess

                multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]

    # no /docs: Swagger UI would load its scripts from another site (the API is
    # /openapi.json and docs/server.md)
    app = FastAPI(title="stich", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,
                  description="Skat and Baptistenskat online: the HTTP API. The table "
                              "itself speaks over the WebSocket /ws/tables/{id}; its "
                              "messages are in /api/schema.")
    app.state.site, app.state.limits = site, limits
    app.state.metrics_token = config.metrics_token
    app.state.analysing = {}  # game id → the one analysis under way
    app.add_middleware(Guard, site=site)
    app.include_router(auth.router)
    app.include_router(lobby.router)
    app.include_router(history.router)
    app.include_router(rule_sets.router)
    app.include_router(tournament_routes.router)
    app.include_router(daily_api.router)
    app.include_router(metrics.router)

    @app.exception_handler(StichError)
    async def stich_error(request: Request, e: StichError) -> JSONResponse:
        lang = choose_lang(request.query_params.get("lang"),
                           accept=request.headers.get("accept-language"))
        headers = None
        if isinstance(e, RateLimited):
            headers = {"retry-after": str(e.retry_after)}
            metrics.REFUSALS.labels(e.code).inc()
        return JSONResponse(error_body(e, lang), status_code=status_of(e.code),
                            headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_refusal(request: Request, e: StarletteHTTPException) -> Response:
        """An unknown path or method, a body too large or not readable: the same error
        shape as every refusal."""
        lang = choose_lang(request.query_params.get("lang"),
                           accept=request.headers.get("accept-language"))
        if e.status_code in (404, 405):
            err = StichError("server.no_such_path", method=request.method,
                             path=request.url.path[:100])
        elif e.status_code == 413:
            metrics.REFUSALS.labels("server.too_large").inc()
            size = request.headers.get("content-length", "")
            err = StichError("server.too_large", size=size if size.isdigit() else
                             f"> {MAX_BODY}", limit=MAX_BODY)
        elif e.status_code == 400:  # invalid UTF-8, JSON nested too deep, a broken body
            cause = e.__cause__  # (FastAPI's parser error: RecursionError, UnicodeError…)
            err = StichError("server.bad_json", reason=json_problem(
                cause if isinstance(cause, RecursionError | UnicodeError) else ValueError()))
        else:
            return await http_exception_handler(request, e)
        return JSONResponse(error_body(err, lang), status_code=e.status_code,
                            headers=e.headers)

    async def outage(request: Request, e: Exception) -> Response:
        """The database or Redis went away under a request: 503 in the error shape,
        to try again in a few seconds (anything else is a mistake of ours: raised on)."""
        hub: Hub = request.app.state.hub
        if hub.services.saw(e) is None:
            raise e
        hub.services.trouble.note(f"{request.method} {request.url.path[:60]}", "-", e, True)
        if request.method == "GET" and not request.url.path.startswith("/api/") \
                and "text/html" in request.headers.get("accept", ""):
            from stich.web.pages import trouble_page

            return await trouble_page(request)  # a person at a page
        lang = choose_lang(request.query_params.get("lang"),
                           accept=request.headers.get("accept-language"))
        return JSONResponse(error_body(StichError("server.unavailable"), lang),
                            status_code=503, headers={"retry-after": "5"})

    for kind in _outage_errors():
        app.add_exception_handler(kind, outage)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, e: RequestValidationError) -> JSONResponse:
        lang = choose_lang(request.query_params.get("lang"),
                           accept=request.headers.get("accept-language"))
        errors = list(e.errors())
        if errors and errors[0].get("type") == "json_invalid":  # not JSON at all
            loc = list(errors[0].get("loc") or ())
            at = loc[1] if len(loc) > 1 and isinstance(loc[1], int) else None
            cause = (errors[0].get("ctx") or {}).get("error")
            err = StichError("server.bad_json", reason=json_problem(
                RecursionError() if "recursion" in str(cause) else ValueError(), at))
        else:
            err = StichError("server.bad_message", reason=validation_problem(errors))
        return JSONResponse(error_body(err, lang), status_code=422)

    @app.get("/api/schema")
    async def schema() -> dict[str, Any]:
        """The JSON schema of every WebSocket message (client and server)."""
        return _schema()

    @app.get("/api/health")
    async def health(request: Request) -> JSONResponse:
        """Whether this worker can serve: ``ok`` while its database answered within the
        last seconds (else 503: a load balancer takes it out); ``degraded`` while Redis
        (several workers) does not answer: the site plays on (docs/deploy.md).  Per
        service ``ok``, ``last_ok`` (seconds since it last answered) and ``down_for``
        (seconds since it stopped, or null)."""
        hub: Hub = request.app.state.hub
        report = hub.services.report()
        ok = bool(report[DATABASE]["ok"])
        return JSONResponse({"ok": ok, "degraded": not all(r["ok"] for r in report.values()),
                             "worker": hub.worker_id, "tables": len(hub.actors),
                             "db": request.app.state.store.dialect, "services": report,
                             "bot_timeouts": request.app.state.workers.timeouts},
                            status_code=200 if ok else 503)

    web.mount(app)  # the pages and /static

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await serve_socket(websocket, table_id)

    return app


async def serve_socket(websocket: WebSocket, table_id: str) -> None:
    """One connection to a table: welcome, catch-up, then messages both ways.  (The
    Origin was checked by the guard before.)"""
    q = websocket.query_params
    lang = choose_lang(q.get("lang"), accept=websocket.headers.get("accept-language"))
    hub: Hub = websocket.app.state.hub
    limits: Limits = websocket.app.state.limits
    try:
        found = await auth.current_session(websocket)
    except Exception as e:
        await _refuse_outage(websocket, hub, lang, e, accepted=False)
        return
    user, session = found if found is not None else (None, None)
    address = auth.address_of(websocket)
    await websocket.accept()
    if limits.sockets_per_address and \
            hub.sockets_of(address) >= limits.sockets_per_address:
        err = RateLimited("server.rate_limited", 30)
        await websocket.send_text(json.dumps(ws_error(err, Conn(SPECTATOR, lang, None), None)))
        await websocket.close(code=1013)  # try again later
        return
    since = _int(q.get("since"))
    try:
        actor, _ = await lobby.visible_actor(websocket, table_id, q.get("invite"),  # type: ignore[arg-type]
                                             user)
    except StichError as e:
        await websocket.send_text(json.dumps(ws_error(e, Conn(SPECTATOR, lang, None), None)))
        await websocket.close(code=4404)
        return
    except Exception as e:
        await _refuse_outage(websocket, hub, lang, e, accepted=True)
        return
    seat = actor.seat_of(user.id) if user is not None else None
    conn = Conn(SPECTATOR if seat is None else seat, lang, user.id if user else None,
                session=session, address=address, name=user.name if user else None,
                style=card_style(q.get("style")))
    writer = asyncio.create_task(_write(websocket, conn))
    try:
        try:
            await actor.connect(conn, since)
        except Exception as e:  # the database is away (several workers: the catch-up)
            if hub.services.saw(e) is None:
                raise
            hub.services.trouble.note("connecting", actor.id, e, True)
            conn.send(ws_error(StichError("server.unavailable"), conn, actor))
            conn.close(1013)  # try again later
            return
        await _read(websocket, actor, conn, Pace(limits), limits.socket_silence)
    except WebSocketDisconnect:
        pass
    finally:
        await actor.disconnect(conn)
        with contextlib.suppress(asyncio.QueueFull):
            conn.outbox.put_nowait(None)
        with contextlib.suppress(Exception):
            await writer


class Pace:
    """How fast one connection may talk: messages, and (each answered by a snapshot
    or a run of events) ``sync`` requests; too many refusals close the connection."""

    def __init__(self, limits: Limits) -> None:
        rules = (limits.rule("messages_per_10s", 10.0), limits.rule("syncs_per_10s", 10.0))
        self.messages, self.syncs = (Bucket(r) if r is not None else None for r in rules)
        self.most = limits.refusals_before_close
        self.refused = 0

    def check(self, bucket: Bucket | None) -> None:
        too_fast(bucket.take() if bucket is not None else 0.0, self)

    @property
    def over(self) -> bool:
        return bool(self.most) and self.refused > self.most


def too_fast(wait: float, pace: Pace | None) -> None:
    """Refuse a message a limit says is ``wait`` seconds too early (nothing when it is
    not), counted with the connection's refusals (``pace``) and in the metrics."""
    if wait <= 0:
        return
    if pace is not None:
        pace.refused += 1
    metrics.REFUSALS.labels("server.rate_limited").inc()
    raise RateLimited("server.rate_limited", wait)


def _int(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        n = int(text)
    except ValueError:
        return None
    return n if n >= 0 else None


async def _write(websocket: WebSocket, conn: Conn) -> None:
    """Send the connection's outbox in order.  A ``timer`` message queued right behind
    an event goes in the event's frame (its ``timer`` field, taken by the clients as the
    message after it): after an action the table's timer changes too, and each frame
    costs the server a write to the socket (docs/speed.md)."""
    outbox = conn.outbox
    held: list[dict[str, Any] | str | None] = []  # taken from the outbox, not yet sent
    while True:
        msg = held.pop() if held else await outbox.get()
        if msg is None:
            break
        if isinstance(msg, str):
            text = msg
            if not outbox.empty():
                after = outbox.get_nowait()
                both = with_timer(msg, after) if isinstance(after, dict) else None
                if both is not None:
                    text = both
                else:
                    held.append(after)
        else:
            text = message_text(msg)
        try:
            await websocket.send_text(text)
        except Exception:  # the socket is gone: the reader ends the connection
            break
    with contextlib.suppress(Exception):
        await websocket.close(code=conn.close_code)


async def _refuse_outage(websocket: WebSocket, hub: Hub, lang: str, e: Exception,
                         accepted: bool) -> None:
    """A connection that cannot be served because the database (or Redis) went away:
    the refusal ``server.unavailable``, then closed with 1013 (try again later).
    Anything else is a mistake of ours: raised on."""
    if hub.services.saw(e) is None:
        raise e
    hub.services.trouble.note("connecting", "-", e, True)
    if not accepted:
        await websocket.accept()
    err = StichError("server.unavailable")
    await websocket.send_text(json.dumps(ws_error(err, Conn(SPECTATOR, lang, None), None)))
    await websocket.close(code=1013)


def _outage_errors() -> tuple[type[Exception], ...]:
    """The exceptions a service that went away raises (those that are one are told
    by :func:`stich.server.health.service_of`)."""
    import sqlite3

    import redis.exceptions
    import sqlalchemy.exc

    kinds: list[type[Exception]] = [sqlalchemy.exc.SQLAlchemyError,
                                    redis.exceptions.RedisError, sqlite3.Error]
    with contextlib.suppress(ImportError):
        import psycopg

        kinds.append(psycopg.Error)
    return tuple(kinds)


async def _read(websocket: WebSocket, actor: TableActor, conn: Conn, pace: Pace,
                silence: float = 0.0) -> None:
    """Read the client's messages until it goes; one silent for ``silence`` seconds (no
    message at all: a client pings every 10 s) is let go (4408), so that the others
    see its seat away."""
    while not conn.closed:
        try:
            # (asyncio.timeout, not wait_for: no task of its own for every message)
            async with asyncio.timeout(silence if silence > 0 else None):
                frame = await websocket.receive()
        except TimeoutError:
            conn.close(4408)
            return
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000))
        try:
            pace.check(pace.messages)
            text = frame.get("text")
            if text is None:
                raise StichError("server.bad_message", reason="binary frame")
            await handle(text, actor, conn, pace)
        except StichError as e:
            conn.send(ws_error(e, conn, actor))
            if pace.over:  # a client that does not slow down is let go (after what
                conn.close(1008)  # it was sent so far, the reasons included)
                return
        except Exception as e:  # the database went away under it: told, the socket
            services = actor.hub.services  # stays open
            if services.saw(e) is None:
                raise
            services.trouble.note("message", actor.id, e, True)
            conn.send(ws_error(StichError("server.not_saved"), conn, actor))


async def handle(text: str, actor: TableActor, conn: Conn, pace: Pace | None = None) -> None:
    """One client message: parse, validate, do."""
    if conn.closed:  # let go (its session ended): nothing more from it counts
        return
    size = len(text.encode())
    if size > MAX_MESSAGE:
        raise StichError("server.too_large", size=size, limit=MAX_MESSAGE)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise StichError("server.bad_json", reason=json_problem(e)) from None
    try:
        msg = client_adapter.validate_python(data, strict=True)  # JSON types, not "3"/true
    except ValidationError as e:
        raise StichError("server.bad_message", reason=validation_problem(e.errors())) \
            from None
    if isinstance(msg, Ping):
        conn.send({"type": "pong", "seq": actor.sitting.seq})
        return
    if isinstance(msg, Sync):
        if pace is not None:
            pace.check(pace.syncs)
        await actor.sync(conn, msg.since)
        return
    if isinstance(msg, Chat):
        await chat(actor, conn, msg.text, pace)
        return
    seat = conn.receiver
    if seat == SPECTATOR:
        raise StichError("server.spectator")
    if not isinstance(msg, Act):  # an event that does not change the game: budgeted
        await spend(actor, seat, pace)

    def own(s: Sitting) -> None:  # still this person's seat (not left and retaken)
        info = s.seats[seat]
        if info is None or info.bot is not None or info.user != conn.user_id:
            raise StichError("server.spectator")

    if isinstance(msg, Act):
        action, seen = msg.action, msg.seq
        t0 = time.perf_counter()

        def plan(s: Sitting) -> list[Event]:
            own(s)
            if s.changed_since(seen):
                raise StichError("server.stale", current=s.seq, seen=seen)
            return s.plan_act(seat, action)

        await actor.submit(plan)
        metrics.ACTION_SECONDS.observe(time.perf_counter() - t0)
    elif isinstance(msg, Pause | Resume):
        pause = isinstance(msg, Pause)

        most = actor.hub.config.limits.pauses_per_game

        def plan_pause(s: Sitting) -> list[Event]:
            own(s)
            return s.plan_pause(seat, pause, most)

        await actor.submit(plan_pause)
    elif isinstance(msg, EndList):

        def plan_end(s: Sitting) -> list[Event]:
            own(s)
            return s.plan_end(seat)

        await actor.submit(plan_end)
    elif isinstance(msg, Ready):

        def plan_ready(s: Sitting) -> list[Event]:
            own(s)
            return s.plan_ready(seat)

        await actor.submit(plan_ready)
    elif isinstance(msg, Away | Back):
        kind: PresenceKind = "away" if isinstance(msg, Away) else "back"

        def plan_presence(s: Sitting) -> list[Event]:
            own(s)
            if not s.started or s.over:
                raise StichError("server.not_running")
            return s.plan_presence(seat, kind, asked=kind == "away")

        await actor.submit(plan_presence)
        if kind == "back":  # somebody at the table again: the site's pause ends
            await actor.resume_if_watched()


def chat_text(text: str) -> str:
    """A chat line as the table keeps it (trimmed), or the refusal: 1 to
    :data:`CHAT_MOST` characters with something to see; no control, format or private
    characters and no lone surrogates (the joiners of emoji and scripts excepted), at
    most :data:`CHAT_MARKS` combining marks on one character.  Never interpreted: the
    clients show it as text.

    >>> chat_text("  gut gespielt! 👍🏽 ")
    'gut gespielt! 👍🏽'
    >>> chat_text("\\u3164 \\u2800")
    Traceback (most recent call last):
    ...
    stich.messages.StichError: a chat line needs something to read
    """
    line = text.strip()
    if not 1 <= len(line) <= CHAT_MOST:
        raise StichError("server.chat_length", given=len(line), most=CHAT_MOST)
    marks = 0
    for ch in line:
        cat = unicodedata.category(ch)
        if (cat in _CHAT_NEVER and ch not in _JOINERS) or ch in _BIDI:
            raise StichError("server.chat_control")
        marks = marks + 1 if cat in ("Mn", "Me") else 0
        if marks > CHAT_MARKS:
            raise StichError("server.chat_marks", most=CHAT_MARKS)
    if not any(unicodedata.category(ch)[0] in "LNPS" and ch not in _BLANK for ch in line):
        raise StichError("server.chat_blank")
    return line


async def spend(actor: TableActor, seat: int | None, pace: Pace | None) -> None:
    """Count a message that adds an event which does not change the game against the
    seat's budget, or a watcher's chat line against the table's budget for watchers
    (:meth:`TableActor.spend`); refused beyond it."""
    too_fast(await actor.spend(seat), pace)


async def chat(actor: TableActor, conn: Conn, text: str, pace: Pace | None = None) -> None:
    """A chat line from a player (signed with the seat) or a watcher with an account
    (no seat); anonymous watchers only read.  At most ``chats_per_20s`` lines of one
    account at one table (however many connections it has); watchers' lines also within
    the table's ``watcher_chats_per_min``."""
    if conn.user_id is None or not conn.name:
        raise StichError("server.chat_anonymous")
    line = chat_text(text)
    seat = conn.receiver
    limiter = actor.hub.limiter
    rule = actor.hub.config.limits.rule("chats_per_20s", 20.0)
    if limiter is not None and rule is not None:
        too_fast(await limiter.hit(f"chat:{actor.id}:{conn.user_id}", rule), pace)
    if seat == SPECTATOR:  # a watcher's line: within the table's budget for watchers
        await spend(actor, None, pace)

    def plan(s: Sitting) -> list[Event]:
        info = s.seats[seat] if seat != SPECTATOR else None
        mine = info is not None and info.user == conn.user_id and info.bot is None
        return s.plan_chat(seat if mine else None, conn.name or "", line, conn.user_id)

    await actor.submit(plan)
