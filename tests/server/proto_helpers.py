"""Small helpers of the protocol tests (accounts, lobby, play, bad input): unique names,
reading a table over HTTP, a ping barrier on a table socket, and random legal play."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx

from tests.server.harness import Client, Server, TableSocket


class PlainClient(Client):
    """The harness's client, for plain http: its HTTP client loads no CA certificates
    (httpx loads certifi's bundle for every client, a fifth of a second each on a busy
    machine, and these tests make dozens of clients)."""

    def __init__(self, server: Server, lang: str = "en") -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, timeout=30, verify=False)
        self.lang = lang


def plain_clients(server: Server) -> Iterator[Callable[..., Client]]:
    """The body of a ``clients`` fixture making :class:`PlainClient` s (closed after)."""
    made: list[Client] = []

    def make(lang: str = "en") -> Client:
        c = PlainClient(server, lang)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


def uid(prefix: str = "P") -> str:
    """A fresh, valid player name (the module's server is shared by its tests)."""
    return f"{prefix}{uuid.uuid4().hex[:10]}"


def table(c: Client, tid: str, invite: str | None = None) -> dict[str, Any]:
    """The table as ``c`` sees it over HTTP (``GET /api/tables/{id}``)."""
    r = c.get(f"/api/tables/{tid}", params={"invite": invite} if invite else None)
    assert r.status_code == 200, r.text
    return dict(r.json()["table"])


def error_of(r: Any) -> tuple[int, str, str]:
    """(status, code, text) of an HTTP refusal; the body must be the error shape."""
    body = r.json()
    assert set(body) == {"error"}, body
    err = body["error"]
    assert isinstance(err["code"], str) and err["code"], body
    assert isinstance(err["text"], str) and err["text"].strip(), body
    return r.status_code, err["code"], err["text"]


def my_turn(view: dict[str, Any] | None) -> bool:
    return bool(view and view["legal"] and view["to_move"] == view["seat"])


async def barrier(ws: TableSocket, pongs: int = 1, timeout: float = 10.0
                  ) -> list[dict[str, Any]]:
    """Send a ping and read until ``pongs`` pongs came (a ping sent just before counts
    one more): the messages before the last pong, without the pongs."""
    await ws.send({"type": "ping"})
    got: list[dict[str, Any]] = []
    seen = 0
    while seen < pongs:
        msg = await ws.recv(timeout)
        if msg["type"] == "pong":
            seen += 1
        else:
            got.append(msg)
    return got


async def next_error(ws: TableSocket, timeout: float = 10.0) -> dict[str, Any]:
    """Read until an ``error`` message (events on the way are kept in ws.messages)."""
    return await ws.until(lambda m: m["type"] == "error", timeout)


async def wait_my_turn(ws: TableSocket, timeout: float = 30.0) -> dict[str, Any]:
    """Read until the latest view says it is this seat's turn (bots move meanwhile)."""
    if my_turn(ws.view):
        assert ws.view is not None
        return ws.view
    await ws.until(lambda m: m["type"] in ("event", "snapshot") and my_turn(m.get("view")),
                   timeout)
    assert ws.view is not None
    return ws.view


async def play_random(ws: TableSocket, rng: random.Random,
                      stop: Callable[[dict[str, Any]], bool],
                      timeout: float = 90.0) -> dict[str, Any]:
    """Play random legal actions whenever it is this seat's turn, until a message
    satisfies ``stop`` (returned).  Any error message fails the test."""
    import time

    end = time.monotonic() + timeout
    if my_turn(ws.view):  # the turn came with a message read before (nothing moves now)
        assert ws.view is not None
        await ws.act(rng.choice(ws.view["legal"]))
    while True:
        msg = await ws.recv(max(0.1, end - time.monotonic()))
        assert msg["type"] != "error", msg
        if stop(msg):
            return msg
        if msg["type"] in ("event", "snapshot") and my_turn(msg.get("view")):
            await ws.act(rng.choice(msg["view"]["legal"]))


def guest(clients: Callable[..., Client], prefix: str, lang: str = "en") -> Client:
    """A new client logged in as a guest with a fresh name starting with ``prefix``."""
    c = clients(lang)
    c.guest(uid(prefix))
    return c


def events_of(ws: TableSocket, k: str) -> list[dict[str, Any]]:
    """The events of kind ``k`` the socket received so far."""
    return [m for m in ws.messages if m["type"] == "event" and m["kind"] == k]


def kind(k: str) -> Callable[[dict[str, Any]], bool]:
    """A predicate: an event of kind ``k``."""
    return lambda m: m["type"] == "event" and m["kind"] == k


async def catch_up(ws: TableSocket, seq: int, timeout: float = 20.0) -> None:
    """Read until the socket has seen event ``seq`` (its view is then the one after it,
    when nothing else happened since)."""
    if ws.seq < seq:
        await ws.until(lambda _: ws.seq >= seq, timeout)
