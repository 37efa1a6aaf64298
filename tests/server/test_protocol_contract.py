"""What an independent client, written from docs/server.md alone, found in the table
protocol (issue 24), each over real sockets against a real `stich serve` on SQLite and
on PostgreSQL (two workers: ``test_scale_out.py``):

- A person who sits down and never opens the table's socket does not stall the table:
  after the presence check the seat is away, after the grace time a stand-in plays it
  (the creator's ``me`` seat, and seats taken with ``POST …/join``).
- A frame of 4,097 to 65,536 bytes gets ``server.too_large`` and the connection stays;
  a larger one is not read: the connection is closed with 1009.
- ``since=N`` gives exactly the events after N whenever at most 48 were missed: on a
  running table, from before its start (N = 0), on a finished table, and right after a
  restart of the server (the events are replayed from the database); more than 48, a
  number beyond the table's or none at all give a ``snapshot``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import websockets

from tests.server.conftest import DB_KINDS
from tests.server.harness import Client, Server, TableSocket, database
from tests.server.proto_helpers import barrier, guest, my_turn, table

CATCH_UP_LIMIT = 48  # actor.CATCH_UP_LIMIT
WS_MAX = 65536  # main.WS_MAX: the largest frame the server reads


def _events(ws: TableSocket, after: int = 0) -> list[dict[str, Any]]:
    return [m for m in ws.messages if m["type"] == "event" and m["seq"] > after]


# --- 1. a seat whose person never connects ------------------------------------------


def test_a_person_who_never_connects_gets_a_stand_in(
        server: Server, clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    """Ann creates a table with `me` and two bots and never connects; at a second table
    Ben and Cid sit down with ``POST …/join`` (Cid's join starts it) and never connect.
    A watcher sees each of their seats go away, get a stand-in, and be played."""
    ann = guest(clients, "Ann")
    mine = ann.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                      grace=5)["table"]["id"]
    host = guest(clients, "Host")
    joined = host.create(game="skat", games=3, seats=["person", "person", "bot:easy"],
                         grace=5)["table"]["id"]
    for who in ("Ben", "Cid"):
        r = guest(clients, who).post(f"/api/tables/{joined}/join", {})
        assert r.status_code == 200, r.text
    watcher = guest(clients, "Watch")

    async def played_by_stand_in(tid: str, seats: list[int]) -> TableSocket:
        ws = await watcher.connect(tid)
        await ws.until(lambda m: all(
            any(e["kind"] == "act" and e["seat"] == s and e["data"]["by"] == "standin"
                for e in _events(ws)) for s in seats), timeout=60)
        await ws.close()
        return ws

    async def story() -> list[TableSocket]:
        return list(await asyncio.gather(played_by_stand_in(mine, [0]),
                                         played_by_stand_in(joined, [0, 1])))

    for ws, seats in zip(run(story(), 90), ([0], [0, 1]), strict=True):
        for s in seats:
            marks = [e["kind"] for e in _events(ws) if e["seat"] == s
                     and e["kind"] in ("away", "standin", "back", "act")]
            assert marks[:3] == ["away", "standin", "act"], marks  # never played before
    for tid, seats in ((mine, [0]), (joined, [0, 1])):
        info = table(ann, tid)
        assert info["seq"] > 10  # the table went on
        for s in seats:
            seat = info["seats"][s]
            assert seat["away"] and seat["standin"] and not seat["connected"], seat


def test_a_person_who_connects_in_time_is_never_away(
        server: Server, clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    """The presence check leaves alone whom it finds at the table: Ann connects at once
    and plays; no `away` for her seat."""
    ann = guest(clients, "Ann")
    tid = ann.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                     grace=5)["table"]["id"]
    rng = random.Random(3)

    async def story() -> TableSocket:
        ws = await ann.connect(tid)
        loop = asyncio.get_running_loop()
        end = loop.time() + 8  # past the presence check and a grace time
        while loop.time() < end:
            with contextlib.suppress(TimeoutError):
                await ws.recv(0.5)
            if my_turn(ws.view) and ws.view is not None:
                await ws.act(rng.choice(ws.view["legal"]), ws.seq)
        await ws.close()
        return ws

    ws = run(story())
    assert not [e for e in _events(ws) if e["kind"] in ("away", "standin")]
    assert [e for e in _events(ws) if e["kind"] == "act" and e["seat"] == 0
            and e["data"]["by"] == "player"]


# --- 3. frames: too large, and far too large ----------------------------------------


def test_frames_over_the_limit(server: Server, clients: Callable[..., Client],
                               run: Callable[..., Any]) -> None:
    """4,097 bytes up to the largest frame read: an error, the connection stays and
    answers; one byte more: the connection is closed with 1009 (message too big)."""
    ann = guest(clients, "Big")
    tid = ann.create(game="skat", seats=["me", "person", "person"])["table"]["id"]

    async def story() -> int | None:
        ws = await ann.connect(tid)
        await barrier(ws)
        for size in (4097, 20000, WS_MAX):
            await ws.send("x" * size)
            err = await ws.until(lambda m: m["type"] == "error")
            assert err["code"] == "server.too_large", err
            assert f"({size} bytes, at most 4096)" in err["text"], err
            assert [m["type"] for m in await barrier(ws)] == []  # still open
        frame = '{"type": "chat", "text": "' + "a" * (WS_MAX - 27) + '"}'
        assert len(frame) == WS_MAX + 1
        await ws.send(frame)
        try:
            while True:
                await ws.recv(10)
        except websockets.ConnectionClosed as e:
            return e.rcvd.code if e.rcvd is not None else None

    assert run(story()) == 1009

    async def after() -> list[str]:
        ws = await ann.connect(tid, since=0)
        kinds = [m["kind"] for m in await barrier(ws) if m["type"] == "event"]
        await ws.close()
        return kinds

    assert "chat" not in run(after())  # nothing came of the frame not read


# --- 5. since=N ---------------------------------------------------------------------


async def _play_until(ws: TableSocket, rng: random.Random, seq: int) -> None:
    """Play Ann's turns at random (the bots play theirs) until the table's number is at
    least ``seq`` and it is her turn again: the table stands still then."""
    while ws.seq < seq or not my_turn(ws.view):
        if my_turn(ws.view) and ws.view is not None:
            await ws.act(rng.choice(ws.view["legal"]), ws.seq)
        msg = await ws.recv(20)
        assert msg["type"] != "error", msg


async def _since(c: Client, tid: str, since: int | None) -> list[dict[str, Any]]:
    """The events or the snapshot a connection with ``since`` gets after its welcome,
    up to a pong."""
    ws = await c.connect(tid, since=since)
    welcome = await ws.recv()
    assert welcome["type"] == "welcome", welcome
    got = [m for m in await barrier(ws) if m["type"] in ("event", "snapshot")]
    await ws.close()
    return got


def _same_events(got: list[dict[str, Any]], live: list[TableSocket], since: int,
                 top: int) -> None:
    """``got`` is every event after ``since``, one by one, and those up to ``top`` are the
    very messages Ann's sockets ``live`` received (after ``top``: her seat's `away` and
    `back` of the connections themselves)."""
    assert [(m["type"], m["seq"]) for m in got] == \
        [("event", n) for n in range(since + 1, since + 1 + len(got))], (since, got[:2])
    assert len(got) >= top - since
    sent = {m["seq"]: m for ws in live for m in _events(ws)}
    assert [m for m in got if m["seq"] <= top] == [sent[n] for n in range(since + 1, top + 1)]


@pytest.mark.parametrize("kind_", DB_KINDS)
def test_since_gives_the_missed_events_after_a_restart_and_at_the_end(
        kind_: str, tmp_path: Path, run: Callable[..., Any]) -> None:
    """Ann plays against two bots; a second socket of hers stays and keeps every event.
    Connections with ``since=N`` get exactly the events after N, from N = 0 on, while
    the table runs, after the server was restarted (nothing rendered in memory), and
    once the table is over; a snapshot only past 48 events, for a number beyond the
    table's, or without one."""
    with database(kind_, tmp_path) as url:
        srv = Server(url, bot_delay=0.0)
        srv.start()
        c = Client(srv)
        try:
            c.guest("Ann")
            tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                           grace=3600)["table"]["id"]
            rng = random.Random(24)

            async def running() -> TableSocket:
                stays = await c.connect(tid, since=0)
                await _play_until(stays, rng, 20)
                top = stays.seq
                for since in (0, 1, top - 14, top - 1):  # before the start, a few, one
                    _same_events(await _since(c, tid, since), [stays], since, top)
                await _play_until(stays, rng, 60)
                top = stays.seq
                _same_events(await _since(c, tid, top - CATCH_UP_LIMIT), [stays],
                             top - CATCH_UP_LIMIT, top)
                for since in (top - CATCH_UP_LIMIT - 1, 0, top + 1, None):
                    got = await _since(c, tid, since)
                    assert [m["type"] for m in got] == ["snapshot"], (since, got)
                    assert got[0]["view"] == stays.view and got[0]["seq"] == top
                assert await _since(c, tid, top) == []  # up to date: nothing
                await stays.close()
                return stays

            stays = run(running())
            top = stays.seq
            srv.stop()  # nothing of the table is rendered in memory after this
            srv.start()

            async def after_restart() -> None:
                for since in (top - 1, top - 14):
                    _same_events(await _since(c, tid, since), [stays], since, top)
                # each connection of hers added `back` and `away`: 48 before the last one
                # (its own `back` comes before what it is sent: the table it is shown
                # holds)
                since = table(c, tid)["seq"] + 1 - CATCH_UP_LIMIT
                _same_events(await _since(c, tid, since), [stays], since, top)

            run(after_restart())

            async def to_the_end() -> TableSocket:
                ws = await c.connect(tid, since=top)
                await _play_until_over(ws, rng)
                await ws.close()
                return ws

            last = run(to_the_end(), 240)
            end = last.seq
            assert table(c, tid)["status"] == "over"
            srv.stop()
            srv.start()

            async def finished() -> None:
                for since in (end - 1, end - 20, end - CATCH_UP_LIMIT):
                    _same_events(await _since(c, tid, since), [stays, last], since, end)
                got = await _since(c, tid, None)
                assert [m["type"] for m in got] == ["snapshot"]
                assert got[0]["table"]["status"] == "over"

            run(finished())
        finally:
            c.close()
            srv.stop()


async def _play_until_over(ws: TableSocket, rng: random.Random) -> None:
    while not any(m["kind"] == "end" for m in _events(ws)):
        if my_turn(ws.view) and ws.view is not None:
            await ws.act(rng.choice(ws.view["legal"]), ws.seq)
        msg = await ws.recv(30)
        if msg["type"] == "error":  # a move sent before the table went on: again
            assert msg["code"] == "server.stale", msg

