"""Nothing runs unbounded: tables nobody is at pause and, later, close; tables that never
start expire; the creator closes their table.  A real server on SQLite and PostgreSQL
with short times (pause after 1.5 s, close 3 s after, expire after 2 s; a housekeeping
round every 0.3 s) and bots that wait 0.2 s a move, so that a table of bots alone is
still playing when it is watched or left."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.server.conftest import DB_KINDS
from tests.server.harness import ROOMY, Client, Server, database
from tests.server.proto_helpers import error_of, plain_clients, uid

SHORT = f"{ROOMY},idle_pause=1.5,idle_close=3,waiting_expire=2"


@pytest.fixture(scope="module", params=DB_KINDS)
def idle_server(request: pytest.FixtureRequest,
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {"STICH_LIMITS": SHORT, "STICH_HOUSEKEEPING": "0.3"}
    with database(request.param, tmp_path_factory.mktemp("idle")) as url, \
            Server(url, bot_delay=0.2, env=env) as srv:
        yield srv


@pytest.fixture
def clients(idle_server: Server) -> Iterator[Callable[..., Client]]:
    yield from plain_clients(idle_server)


def _table(c: Client, tid: str) -> dict[str, Any]:
    return dict(c.get(f"/api/tables/{tid}").json()["table"])


def _until(c: Client, tid: str, pred: Callable[[dict[str, Any]], bool],
           timeout: float = 20.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        t = _table(c, tid)
        if pred(t):
            return t
        time.sleep(0.1)
    raise AssertionError(f"table {tid}: {_table(c, tid)}")


def test_a_table_of_bots_alone_plays_while_watched(clients: Callable[..., Client]) -> None:
    c = clients()
    c.guest(uid("Watch"))
    tid = c.create(game="skat", games=36, seats=["bot:random"] * 3)["table"]["id"]
    paused = _until(c, tid, lambda t: t["idle"])  # nobody watches: paused
    time.sleep(1.0)
    assert _table(c, tid)["seq"] == paused["seq"]  # and nothing moves

    async def watch() -> list[dict[str, Any]]:
        ws = await c.connect(tid)
        await ws.until(lambda m: m["type"] == "event" and m["kind"] == "resume")
        await ws.until(lambda m: m["type"] == "event" and m["kind"] == "act")  # it plays
        await ws.close()
        return ws.messages

    seen = asyncio.run(asyncio.wait_for(watch(), 30))
    resume = next(m for m in seen if m["type"] == "event" and m["kind"] == "resume")
    assert resume["seat"] is None and resume["data"] == {"reason": "idle"}
    again = _until(c, tid, lambda t: t["idle"] and t["seq"] > paused["seq"])
    over = _until(c, tid, lambda t: t["status"] == "over")
    assert over["end_reason"] == "abandoned" and over["seq"] == again["seq"] + 1


def test_a_table_whose_people_left_pauses_then_closes(clients: Callable[..., Client]
                                                      ) -> None:
    c = clients()
    c.guest(uid("Left"))
    tid = c.create(game="skat", seats=["me", "bot:random", "bot:random"], grace=5
                   )["table"]["id"]

    async def sit_and_leave() -> None:
        ws = await c.connect(tid)
        await ws.until(lambda m: m["type"] == "welcome")
        await ws.drain(0.5)
        await ws.close()

    asyncio.run(asyncio.wait_for(sit_and_leave(), 30))
    first = _until(c, tid, lambda t: t["idle"])
    assert first["status"] == "running"

    async def come_back() -> dict[str, Any]:
        ws = await c.connect(tid)
        msg = await ws.until(lambda m: m["type"] == "event" and m["kind"] == "resume")
        await ws.close()
        return msg

    resume = asyncio.run(asyncio.wait_for(come_back(), 30))
    assert resume["seat"] is None and resume["seq"] > first["seq"]
    over = _until(c, tid, lambda t: t["status"] == "over")
    assert over["end_reason"] == "abandoned"


def test_a_table_that_never_starts_expires(clients: Callable[..., Client]) -> None:
    c = clients()
    c.guest(uid("Wait"))
    tid = c.create(game="skat", seats=["me", "person", "person"])["table"]["id"]
    assert tid in {t["id"] for t in c.get("/api/tables").json()["tables"]}
    over = _until(c, tid, lambda t: t["status"] == "over")
    assert over["end_reason"] == "expired"
    assert tid not in {t["id"] for t in c.get("/api/tables").json()["tables"]}
    r = clients()
    r.guest(uid("Late"))
    assert error_of(r.post(f"/api/tables/{tid}/join", {}))[:2] == (409, "server.table_over")


def test_the_creator_closes_the_table(clients: Callable[..., Client]) -> None:
    owner, friend, stranger = clients(), clients(), clients()
    owner.guest(uid("Owner"))
    friend.guest(uid("Friend"))
    stranger.guest(uid("Stranger"))
    made = owner.create(game="skat", seats=["me", "person", "bot:random"], public=False)
    tid, invite = made["table"]["id"], made["invite"]
    assert friend.post(f"/api/tables/{tid}/join", {"invite": invite}).status_code == 200
    assert error_of(stranger.post(f"/api/tables/{tid}/close"))[:2] == \
        (404, "server.no_such_table")  # a private table does not exist for a stranger
    assert error_of(friend.post(f"/api/tables/{tid}/close?lang=en"))[:2] == \
        (403, "server.not_creator")

    async def close_while_watching() -> dict[str, Any]:
        ws = await friend.connect(tid)
        await ws.until(lambda m: m["type"] == "welcome")
        r = await asyncio.to_thread(owner.post, f"/api/tables/{tid}/close")
        assert r.status_code == 200, r.text
        msg = await ws.until(lambda m: m["type"] == "event" and m["kind"] == "end")
        await ws.close()
        return msg

    end = asyncio.run(asyncio.wait_for(close_while_watching(), 30))
    assert end["data"] == {"reason": "closed"}
    t = owner.get(f"/api/tables/{tid}").json()["table"]
    assert t["status"] == "over" and t["end_reason"] == "closed"
    assert error_of(owner.post(f"/api/tables/{tid}/close"))[:2] == (409, "server.table_over")
