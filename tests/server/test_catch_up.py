"""A connection that comes back with ``?since=N`` having missed at most 48 events gets
those events, never a snapshot, whoever it is: a watcher who was the only one (nobody
else's connection had the spectators' view rendered meanwhile), the person whose joining
started the table (its first events were the spectators' then), after a restart of the
server, and at a finished table loaded anew.  Each event as that receiver sees it: the
last one's view is the view a fresh snapshot gives."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import DB_KINDS
from tests.server.harness import Client, Server, TableSocket, database
from tests.server.proto_helpers import barrier, catch_up, play_random, uid, wait_my_turn

CATCH_UP_LIMIT = 48  # actor.CATCH_UP_LIMIT


def _events(msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in msgs if m["type"] == "event"]


async def _now(ws: TableSocket) -> tuple[dict[str, Any], dict[str, Any]]:
    """On the same socket, a snapshot of now (a ``sync`` beyond the table's last event):
    the last event it received before the snapshot, and the snapshot.  (A socket's
    messages come in order: the snapshot shows the table right after that event.)"""
    await ws.send({"type": "sync", "since": 10**9})
    snap = await ws.until(lambda m: m["type"] == "snapshot")
    before = [m for m in ws.messages[:ws.messages.index(snap)] if m["type"] == "event"]
    return before[-1], snap


async def _missed(c: Client, tid: str, since: int) -> tuple[TableSocket, list[dict[str, Any]]]:
    """Connect with ``since``: the messages before the first pong (welcome, then what
    was missed)."""
    ws = await c.connect(tid, since=since)
    got = await barrier(ws)
    assert got[0]["type"] == "welcome", got[0]
    return ws, got[1:]


def _only_events(got: list[dict[str, Any]], since: int, seq: int) -> None:
    kinds = [m["type"] for m in got]
    assert "snapshot" not in kinds, kinds
    evs = _events(got)
    assert [m["seq"] for m in evs] == list(range(since + 1, seq + 1))


async def _play(ws: TableSocket, rng: random.Random, events: int) -> None:
    """Play random actions until at least ``events`` more events happened, and on until
    it is this seat's turn (the table waits for it then: nothing moves)."""
    await wait_my_turn(ws)
    start = ws.seq
    await play_random(ws, rng, lambda m: m["type"] == "event" and m["seq"] >= start + events)
    await wait_my_turn(ws)


def test_a_lone_watcher_gets_the_events_it_missed(clients: Callable[..., Client],
                                                   run: Callable[..., Any]) -> None:
    host, watcher = clients(), clients()
    host.register(uid("Host"))
    tid = host.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"])["table"]["id"]
    rng = random.Random(3)

    async def story() -> None:
        me = await host.connect(tid)
        await wait_my_turn(me)
        eye = await watcher.connect(tid)  # anonymous, and the only watcher
        await catch_up(eye, me.seq)
        await eye.close()
        seen = eye.seq
        await _play(me, rng, 12)
        assert me.seq - seen <= CATCH_UP_LIMIT
        back, got = await _missed(watcher, tid, seen)
        _only_events(got, seen, me.seq)
        assert all(m["view"] is None or m["view"].get("hand") == [] for m in _events(got))
        last, snap = await _now(back)
        assert snap["seq"] == me.seq == last["seq"] and last["view"] == snap["view"]
        await back.close()
        await me.close()

    run(story())


def test_the_person_whose_joining_started_the_table_gets_its_events(
        clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    host, late = clients(), clients()
    host.register(uid("Host"))
    late.register(uid("Late"))
    made = host.create(game="skat", games=3, seats=["me", "person", "bot:easy"])
    tid = made["table"]["id"]

    async def story() -> None:
        # as the page does: it watches the waiting table, then its person sits down
        # (whose joining starts it), and the page connects again from the start
        watching = await late.connect(tid, invite=made["invite"])
        await barrier(watching)
        me = await host.connect(tid)  # the host says something while they wait
        await me.send({"type": "chat", "text": "Wer spielt mit?"})
        await watching.until(lambda m: m["type"] == "event" and m["kind"] == "chat")
        r = late.post(f"/api/tables/{tid}/join", {"invite": made["invite"]})
        assert r.status_code == 200, r.text
        await watching.until(lambda m: m["type"] == "event" and m["kind"] == "deal")
        await watching.close()
        ws, got = await _missed(late, tid, 0)
        _only_events(got, 0, max(m["seq"] for m in _events(got)))
        seat_event = next(m for m in _events(got) if m["kind"] == "seat" and m["seat"] == 1)
        for m in _events(got):  # before its seat: as the spectators saw it
            if m["seq"] < seat_event["seq"] and m["view"] is not None:
                assert m["view"]["hand"] == []
        last, snap = await _now(ws)
        assert last["seq"] == snap["seq"] and last["view"] == snap["view"]
        assert snap["view"] is not None and len(snap["view"]["hand"]) == 10
        await ws.close()
        await me.close()  # (the host stays until here: its going away is an event)

    run(story())


@pytest.mark.parametrize("db", DB_KINDS)
def test_after_a_restart_and_at_a_finished_table_the_events_come_again(
        db: str, tmp_path: Path, run: Callable[..., Any]) -> None:
    rng = random.Random(5)
    with database(db, tmp_path) as url:
        srv = Server(url, env={"STICH_HOUSEKEEPING": "0.3"})
        srv.start()
        try:
            host, watcher = Client(srv), Client(srv)
            host.register(uid("Host"))
            watcher.register(uid("Eye"))
            tid = host.create(game="skat", games=3,
                              seats=["me", "bot:easy", "bot:easy"])["table"]["id"]

            async def play_some() -> int:
                me = await host.connect(tid)
                await _play(me, rng, 50)
                await me.close()
                return me.seq

            seq = run(play_some())
            srv.stop()
            srv.start()  # nothing of the table is in memory: it is loaded anew

            async def after_restart() -> None:
                for who, since in ((watcher, seq - 30), (host, seq - 40)):
                    ws, got = await _missed(who, tid, since)
                    assert ws.seq >= seq
                    _only_events(got, since, ws.seq)
                    last, snap = await _now(ws)
                    assert last["seq"] == snap["seq"] and last["view"] == snap["view"]
                    await ws.close()

            run(after_restart())
            r = host.post(f"/api/tables/{tid}/close")
            assert r.status_code == 200, r.text
            end = r.json()["table"]["seq"]

            async def finished() -> None:
                for _ in range(50):  # the housekeeping round lets the finished table go
                    if srv_tables(srv) == 0:
                        break
                    await asyncio.sleep(0.1)
                assert srv_tables(srv) == 0
                ws, got = await _missed(watcher, tid, end - 10)
                _only_events(got, end - 10, end)
                assert _events(got)[-1]["kind"] == "end"
                await ws.close()

            run(finished())
            host.close()
            watcher.close()
        finally:
            srv.stop()


def srv_tables(srv: Server) -> int:
    import httpx

    return int(httpx.get(srv.url + "/api/health").json()["tables"])
