"""Test harness for the server: a real `stich serve` process on a free port, and clients
that talk to it over real sockets (httpx for HTTP, websockets for the table).  PostgreSQL
and Redis come from ``tests/services.py``."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import websockets

from tests import services

# The site's limits are for strangers on the internet; the tests play far more games
# from one address and one account than a person would.  They run with these limits
# (the tests of the limits themselves start servers with the defaults: env={"STICH_LIMITS": ""}).
ROOMY = ",".join(f"{name}=1000000" for name in (
    "guests_per_hour", "registrations_per_hour", "logins_per_5min", "tables_per_hour",
    "analyses_per_hour", "sockets_per_address", "account_tables_per_hour",
    "account_open_tables", "address_open_tables", "bot_tables_per_hour", "bot_open_tables",
    "account_analyses_per_hour", "messages_per_10s",
    "syncs_per_10s", "chats_per_20s", "hashes_waiting", "analyses_waiting",
    "seat_events_per_min", "watcher_chats_per_min", "pauses_per_game",
    "socket_silence"))  # the test sockets do not ping; the test of silence sets its own
# seconds after a table starts (or is loaded) until its seated persons not connected are
# marked away (the site's default is 10): long enough for a page or a test client that
# just sat down to open its socket on a busy machine, short enough to wait for
PRESENCE_CHECK = 3.0


class Server:
    """A `stich serve` child process.  ``kill()`` is kill -9; ``start()`` again reuses
    the same database and port."""

    def __init__(self, db: str, *, redis: str | None = None, workers: int = 1,
                 bot_delay: float = 0.0, port: int = 0,
                 env: dict[str, str] | None = None, args: list[str] | None = None) -> None:
        self.db, self.redis, self.workers, self.bot_delay = db, redis, workers, bot_delay
        self.port = port
        self.env = env or {}
        self.args = args or []  # more options of `stich serve`
        self.proc: subprocess.Popen[str] | None = None
        self.module = "stich"  # what `python -m` runs (the golden test runs its own)
        # what the server wrote to stderr (its log: warnings and errors), over restarts
        self.stderr: list[str] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> float:
        """Start and wait until /api/health answers; returns the seconds it took."""
        args = [sys.executable, "-m", self.module, "serve", "--port", str(self.port),
                "--db", self.db, "--bot-delay", str(self.bot_delay),
                "--workers", str(self.workers)]
        if self.redis:
            args += ["--redis", self.redis]
        args += self.args
        env = {**os.environ, "STICH_PRESENCE_CHECK": str(PRESENCE_CHECK),
               "STICH_LIMITS": ROOMY, **self.env}
        t0 = time.monotonic()
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=env, start_new_session=True)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        line = self.proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not m:
            err = self.proc.stderr.read()
            raise RuntimeError(f"server did not start: {line!r} {err}")
        # keep reading what the server prints, or a full pipe would stop it
        self.log: list[str] = []
        threading.Thread(target=self._drain, args=(self.proc.stdout,), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.proc.stderr, self.stderr),
                         daemon=True).start()
        self.port = int(m.group(1))
        while time.monotonic() - t0 < timeout:
            try:
                if httpx.get(self.url + "/api/health", timeout=1,
                             verify=False).status_code == 200:
                    return time.monotonic() - t0
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("server did not answer")

    def _drain(self, stream: Any, keep: list[str] | None = None) -> None:
        for line in stream:
            self.log.append(line)
            del self.log[:-500]
            if keep is not None and len(keep) < 10_000:
                keep.append(line)

    def __enter__(self) -> Server:
        """``with Server(url) as srv:``: started, and stopped at the end."""
        self.start(60)
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def kill(self) -> None:
        """kill -9 (the whole process group: every worker)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None


def pg_database() -> tuple[str, str]:
    """A new, empty PostgreSQL database: (its URL, its name)."""
    import psycopg

    admin = services.postgresql()
    name = f"stich_t_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base = admin.rsplit("/", 1)[0]
    return f"{base}/{name}", name


def drop_pg_database(name: str) -> None:
    import psycopg

    with psycopg.connect(services.postgresql(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def database(kind: str, tmp: Path) -> Iterator[str]:
    """A fresh database URL of a kind (``sqlite`` or ``postgresql``)."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp / f'stich-{uuid.uuid4().hex[:6]}.db'}"
        return
    url, name = pg_database()
    try:
        yield url
    finally:
        drop_pg_database(name)


class Client:
    """A person in a browser: a cookie jar for HTTP, and table sockets."""

    def __init__(self, server: Server, lang: str = "en") -> None:
        self.server = server
        # plain http on loopback: no certificate bundle to load for every client
        self.http = httpx.Client(base_url=server.url, timeout=30, verify=False)
        self.lang = lang

    def post(self, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        return self.http.post(path, json=body, **kw)

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self.http.get(path, **kw)

    def register(self, name: str, password: str = "geheim123") -> dict[str, Any]:
        r = self.post("/api/register", {"name": name, "password": password})
        assert r.status_code == 200, r.text
        return dict(r.json()["user"])

    def guest(self, name: str) -> dict[str, Any]:
        r = self.post("/api/guest", {"name": name})
        assert r.status_code == 200, r.text
        return dict(r.json()["user"])

    def create(self, **body: Any) -> dict[str, Any]:
        """A new table.  Without ``next_after`` / ``clock`` in ``body`` it goes on at once
        after a game and has no turn clock (the flow the older tests were written for);
        the tests of the wait and of the clock give them."""
        body.setdefault("next_after", 0)
        body.setdefault("clock", 0)
        r = self.post("/api/tables", body)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())

    async def connect(self, table_id: str, since: int | None = None,
                      invite: str | None = None, server: Server | None = None) -> TableSocket:
        srv = server or self.server
        q = [f"lang={self.lang}"]
        if since is not None:
            q.append(f"since={since}")
        if invite:
            q.append(f"invite={invite}")
        ws = await websockets.connect(f"{srv.ws}/ws/tables/{table_id}?{'&'.join(q)}",
                                      additional_headers={"Cookie": self.cookie_header()},
                                      max_size=2**22)
        return TableSocket(ws)

    def close(self) -> None:
        self.http.close()


class TableSocket:
    """One table connection: every message received is kept in ``messages``."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.you: int | None = None
        self.frames = 0  # WebSocket frames received
        self._after: list[dict[str, Any]] = []  # a message received, not yet taken

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message.  An event whose frame carries the ``timer`` that followed
        it is two messages, as the browser takes it: the event, then that timer (the
        frames themselves are counted in ``frames``)."""
        if self._after:
            msg = self._after.pop()
        else:
            raw = await asyncio.wait_for(self.ws.recv(), timeout)
            self.frames += 1
            msg = json.loads(raw)
            if msg.get("type") == "event" and msg.get("timer"):
                self._after.append(msg.pop("timer"))
        self.messages.append(msg)
        if msg["type"] in ("event", "snapshot"):
            self.seq = max(self.seq, msg["seq"])
            self.view = msg.get("view")
        elif msg["type"] == "welcome":
            self.you = msg["you"]
            self.seq = msg["seq"] if msg["seq"] == 0 else self.seq
        return msg

    async def send(self, msg: dict[str, Any] | str) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def until(self, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
        """Read until a message satisfies ``pred``."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such message")
            msg = await self.recv(left)
            if pred(msg):
                return msg

    async def drain(self, quiet: float = 0.2) -> None:
        """Read until nothing comes for ``quiet`` seconds."""
        while True:
            try:
                await self.recv(quiet)
            except TimeoutError:
                return

    async def act(self, action: str, seq: int | None = None) -> None:
        await self.send({"type": "act", "seq": self.seq if seq is None else seq,
                         "action": action})

    async def close(self) -> None:
        await self.ws.close()
