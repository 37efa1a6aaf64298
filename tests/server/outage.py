"""Outages under a real `stich serve` (issue 39), for ``tests/server/test_outage.py`` and
``bench/soak/server_outage.py``: a service of the test's own (PostgreSQL, Redis, or SQLite on
a small disk) goes away while a person plays against two bots and tables of bots alone
play with somebody watching, and comes back.

What :func:`run` measures and :class:`Report` holds:

- every message each of those sockets received, with its time; how each socket ended
  (none may be closed by the server: no 1006, no close at all);
- what the person was told when she acted during the outage, and whether her socket
  still answered a ping;
- ``GET /api/tables/{id}``, ``/api/health`` and a new connection during the outage;
- for every table, the seconds from the service's return to its next event, with nobody
  doing anything (the person does not act until then), and to the health check's 200;
- every event the sockets received compared with the database afterwards: none lost
  (each socket's events follow one another without a gap, or a snapshot fills it), none
  twice, each the one stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from tests import services
from tests.server.harness import Client, Server, TableSocket, database
from tests.server.proto_helpers import my_turn, uid

KINDS = ("pg-stop", "pg-kill", "redis-stop", "sqlite-full")
BOT_TABLES = 2


@dataclass
class Seen:
    """One socket's messages (arrival time, message) and how it ended."""

    name: str
    table: str
    ws: TableSocket
    got: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    closed: int | None = None  # the close code, if the server closed it
    play: bool = False  # act whenever it is this seat's turn
    rng: random.Random = field(default_factory=lambda: random.Random(7))

    def events(self) -> list[dict[str, Any]]:
        return [m for _, m in self.got if m["type"] == "event"]

    def errors(self) -> list[dict[str, Any]]:
        return [m for _, m in self.got if m["type"] == "error"]

    def first_event_after(self, t: float) -> float | None:
        for at, m in self.got:
            if at >= t and m["type"] in ("event", "snapshot"):
                return at
        return None


@dataclass
class Report:
    kind: str
    outage: float  # seconds the service was away
    acted: list[dict[str, Any]] = field(default_factory=list)  # answers to acting then
    ping_answered: bool = False
    table_answer: tuple[int, Any] | None = None  # GET /api/tables/{id}: status, body
    page_answer: tuple[int, str] | None = None  # GET / by the person's browser
    health_down: tuple[int, Any] | None = None  # /api/health during the outage
    connect_answer: list[Any] = field(default_factory=list)  # a new socket: its messages
    connect_close: int | None = None
    recovery: dict[str, float | None] = field(default_factory=dict)  # table -> seconds
    health_back: float | None = None  # seconds until /api/health said 200 again
    problems: list[str] = field(default_factory=list)  # lost, twice, not as stored
    closed: dict[str, int | None] = field(default_factory=dict)
    ann_away: int = 0  # "away" events of the person's seat (she never left)
    statuses: list[int] = field(default_factory=list)  # every HTTP status seen
    log: list[str] = field(default_factory=list)  # the server's stderr


async def _reader(s: Seen) -> None:
    while True:
        try:
            msg = await s.ws.recv(3600)
        except websockets.ConnectionClosed as e:
            s.closed = e.rcvd.code if e.rcvd is not None else 1006
            return
        s.got.append((time.monotonic(), msg))
        if s.play and msg["type"] in ("event", "snapshot") and my_turn(msg.get("view")):
            with contextlib.suppress(websockets.ConnectionClosed):
                await s.ws.act(s.rng.choice(msg["view"]["legal"]), msg["seq"])


@contextlib.contextmanager
def _services(kind: str, tmp: Path) -> Iterator[tuple[str, str | None, Any]]:
    """The database URL, the Redis URL (None: one worker) and the thing to stop."""
    if kind.startswith("pg-"):
        with services.OwnPostgres() as pg:
            yield pg.url, services.redis(), pg
    elif kind == "redis-stop":
        with services.OwnRedis() as rd, database("postgresql", tmp) as url:
            yield url, rd.url, rd
    elif kind == "sqlite-full":
        with services.small_disk(24) as disk:
            yield f"sqlite:///{disk / 'stich.db'}", None, disk
    else:
        raise ValueError(kind)


def _go_away(kind: str, what: Any) -> Any:
    if kind == "pg-stop":
        what.stop("fast")
    elif kind == "pg-kill":
        what.kill()
    elif kind == "redis-stop":
        what.stop()
    else:
        return services.fill(what)
    return None


def _come_back(kind: str, what: Any, filler: Any) -> None:
    if kind == "sqlite-full":
        filler.unlink()
    else:
        what.start()


def _stored(url: str, table_id: str) -> dict[int, tuple[str, int | None, Any]]:
    from sqlalchemy import create_engine, text

    from stich.server.store.db import sync_url

    engine = create_engine(sync_url(url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT seq, kind, seat, data FROM events "
                                     "WHERE table_id = :t ORDER BY seq"), {"t": table_id})
            return {int(r[0]): (str(r[1]), r[2], r[3] if isinstance(r[3], dict)
                                else json.loads(r[3])) for r in rows}
    finally:
        engine.dispose()


def _check_log(seen: Seen, stored: dict[int, tuple[str, int | None, Any]]) -> list[str]:
    """Lost (a gap no snapshot fills), twice, or not as stored."""
    out = []
    last: int | None = None
    for _, m in seen.got:
        if m["type"] == "snapshot":
            last = m["seq"]
        elif m["type"] == "event":
            n = m["seq"]
            if last is not None and n != last + 1:
                out.append(f"{seen.name}: event {n} after {last}")
            last = n
            if n not in stored:
                out.append(f"{seen.name}: event {n} is not stored")
            elif (stored[n][0], stored[n][1]) != (m["kind"], m["seat"]):
                out.append(f"{seen.name}: event {n} is {m['kind']}, stored {stored[n][0]}")
    return out


def run(kind: str, tmp: Path, outage: float = 5.0, settle: float = 2.0,
        watch: float = 10.0) -> Report:
    """One outage of ``kind`` (see :data:`KINDS`) for ``outage`` seconds (see the
    module's text)."""
    with _services(kind, tmp) as (db, redis, what):
        workers = 2 if redis else 1
        srv = Server(db, redis=redis, workers=workers, bot_delay=0.05,
                     env={"STICH_HOUSEKEEPING": "1"})
        srv.start(60)
        try:
            return asyncio.run(_story(kind, srv, db, what, outage, settle, watch))
        finally:
            srv.stop()


async def _story(kind: str, srv: Server, db: str, what: Any, outage: float, settle: float,
                 watch: float) -> Report:
    rep = Report(kind, outage)
    ann, eye = Client(srv), Client(srv)
    http = httpx.AsyncClient(base_url=srv.url, timeout=10, headers={"accept-language": "en"})
    try:
        ann.guest(uid("Ann"))
        eye.guest(uid("Eye"))
        people = ann.create(game="skat", games=36, seats=["me", "bot:easy", "bot:easy"],
                            grace=3600)["table"]["id"]
        bots = [eye.create(game="skat", games=36, seats=["bot:easy"] * 3)["table"]["id"]
                for _ in range(BOT_TABLES)]
        sockets = [Seen("Ann", people, await ann.connect(people), play=True)]
        sockets += [Seen(f"watcher {i}", t, await eye.connect(t)) for i, t in enumerate(bots)]
        readers = [asyncio.create_task(_reader(s)) for s in sockets]
        await asyncio.sleep(settle)  # the tables play
        sockets[0].play = False  # Ann waits for her turn, then acts by hand
        await _my_turn(sockets[0])

        gone = time.monotonic()
        filler = await asyncio.to_thread(_go_away, kind, what)
        await asyncio.sleep(min(2.0, outage / 2))  # the site notices
        await _act_now(sockets[0], rep)
        r = await http.get(f"/api/tables/{people}")
        rep.table_answer = (r.status_code, _json(r))
        r = await http.get("/", headers={"accept": "text/html", "cookie": ann.cookie_header()})
        rep.page_answer = (r.status_code, r.text)
        r = await http.get("/api/health")
        rep.health_down = (r.status_code, _json(r))
        await _connect_now(eye, bots[0], rep)
        await asyncio.sleep(max(0.0, gone + outage - time.monotonic()))

        await asyncio.to_thread(_come_back, kind, what, filler)
        back = time.monotonic()
        end = back + watch
        tried = 0.0
        while time.monotonic() < end:
            if sockets[0].first_event_after(back) is None and time.monotonic() - tried > 0.5:
                tried = time.monotonic()  # Ann tries again, as a person would
                await _act_now(sockets[0], rep, after=True)
            if rep.health_back is None:
                with contextlib.suppress(httpx.HTTPError):
                    r = await http.get("/api/health")
                    rep.statuses.append(r.status_code)
                    if r.status_code == 200:
                        rep.health_back = time.monotonic() - back
            moved = {s.table: s.first_event_after(back) for s in sockets}
            if rep.health_back is not None and all(t is not None for t in moved.values()):
                break
            await asyncio.sleep(0.1)
        for s in sockets:
            at = s.first_event_after(back)
            rep.recovery[s.table] = None if at is None else round(at - back, 2)
        sockets[0].play = True  # Ann plays on: her moves are taken again
        await _act_now(sockets[0], rep, after=True)
        await asyncio.sleep(2.0)
        rep.ann_away = sum(1 for m in sockets[0].events()
                           if m["kind"] == "away" and m["seat"] == 0)
        for s in sockets:
            rep.closed[s.name] = s.closed
            await s.ws.close()
        for t in readers:
            t.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await t
        for s in sockets:
            rep.problems += _check_log(s, await asyncio.to_thread(_stored, db, s.table))
        rep.log = list(srv.stderr)
        return rep
    finally:
        await http.aclose()
        ann.close()
        eye.close()


def _view(s: Seen) -> dict[str, Any] | None:
    for _, m in reversed(s.got):
        if m["type"] in ("event", "snapshot"):
            return m.get("view")
    return None


async def _my_turn(s: Seen, timeout: float = 20.0) -> None:
    """Until it is her turn and the table stands still (no message for 0.5 s: a move
    the reader made just before is in)."""
    end = time.monotonic() + timeout
    while not (my_turn(_view(s)) and s.got and time.monotonic() - s.got[-1][0] > 0.5):
        if time.monotonic() > end:
            raise TimeoutError(f"{s.name}: never her turn")
        await asyncio.sleep(0.05)


async def _act_now(s: Seen, rep: Report, after: bool = False) -> None:
    """Ann acts once on her turn (waiting for it while the bots move), and pings: the
    answers go to ``rep.acted`` (during the outage) and she must get a pong."""
    view = _view(s)
    if not my_turn(view) or view is None:
        if not after:  # (for the report: the table moved on without her)
            rep.acted = [{"type": "not her turn", "last": [m for _, m in s.got[-3:]]}]
        return
    mark = len(s.got)
    await s.ws.act(s.rng.choice(view["legal"]), s.ws.seq)
    await s.ws.send({"type": "ping"})
    for _ in range(100):
        if any(m["type"] == "pong" for _, m in s.got[mark:]):
            break
        await asyncio.sleep(0.05)
    answers = [m for _, m in s.got[mark:] if m["type"] in ("error", "event", "pong")]
    if not after:
        rep.acted = answers
        rep.ping_answered = any(m["type"] == "pong" for m in answers)


async def _connect_now(c: Client, table_id: str, rep: Report) -> None:
    """A new connection during the outage: what it gets, and how it is closed."""
    try:
        ws = await c.connect(table_id)
    except websockets.InvalidStatus as e:
        rep.connect_answer = [f"HTTP {e.response.status_code}"]
        return
    try:
        for _ in range(4):  # (welcome, a snapshot, the timer; or the refusal, closed)
            msg = await ws.recv(5)
            rep.connect_answer.append(msg)
            if msg["type"] in ("error", "snapshot"):
                break
        if rep.connect_answer[-1]["type"] == "error":
            await ws.recv(5)  # the close
    except websockets.ConnectionClosed as e:
        rep.connect_close = e.rcvd.code if e.rcvd is not None else 1006
    except TimeoutError:
        pass
    await ws.close()


def _json(r: httpx.Response) -> Any:
    try:
        return r.json()
    except ValueError:
        return r.text[:200]
