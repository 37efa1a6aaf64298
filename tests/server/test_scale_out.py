"""Several workers on one PostgreSQL database, fanned out through Redis (both real).

- Two `stich serve` processes on different ports: a table created on A and joined
  through B; three registered players, each on their own socket, spread over both
  workers, play a whole Skat list by random legal actions; spectators on both watch.
  Every socket sees every event in order without gaps; the messages are the ones the
  stored log renders; the list is the same through both workers and recomputes from
  the records.
- Two players on different workers press pause (and resume) at the same moment: one
  commit loses on the unique (table, seq) key, and that worker's sockets still get the
  winner's event.
- A person plays through the worker without the lease and leaves right after each move
  while the other worker moves the bots: the seat is marked away and back every time.
- ``--workers 2`` (one port, uvicorn's worker processes): a bots-only table and a table
  with a person, both to their end.
- The worker that holds a bots-only table's lease is killed (kill -9): the other one
  takes the table over once the lease has run out and finishes it.
- People who sit down through either worker and never connect get stand-ins from the
  lease holder; a client that reconnects to the other worker with ``since=N`` gets
  exactly the events it missed (issue 24).
- Two writers losing the race on the unique (table, seq) key with several events at
  once: nothing logged (psycopg's pipeline mode used to log "pipeline aborted"); and
  after all of the above, neither worker logged a warning or an error.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from stich.server.sitting import Event
from stich.server.store.db import Store, migrate
from stich.server.store.models import EventRow, TableRow
from tests import services
from tests.server.harness import PRESENCE_CHECK, Client, Server, TableSocket, database
from tests.server.proto_helpers import barrier, my_turn
from tests.server.test_crash import (
    START,
    Follower,
    check_games,
    check_received,
    db_session,
    shut_down,
    table_row,
)

pytestmark = pytest.mark.needs("postgresql", "redis")


@pytest.fixture
def pg(tmp_path: Path) -> Iterator[str]:
    with database("postgresql", tmp_path) as url:
        yield url


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server, str]]:
    """Two `stich serve` processes (A, B) on one fresh PostgreSQL database and Redis."""
    with database("postgresql", tmp_path_factory.mktemp("pair")) as url:
        redis = services.redis()
        a, b = Server(url, redis=redis), Server(url, redis=redis)
        try:
            a.start(START)
            b.start(START)
            yield a, b, url
        finally:
            shut_down(a)
            shut_down(b)


def worker_of(server: Server) -> str:
    return str(httpx.get(server.url + "/api/health").json()["worker"])


def _name(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def _finished_cleanly(url: str, client: Client, followers: list[Follower],
                      games: int) -> int:
    """Every follower saw the end without a gap or a foreign error, every message it got
    is what the stored log renders, the records replay and the list recomputes.
    Returns the messages checked."""
    checked = 0
    for f in followers:
        assert f.done and f.problems == [], (f.table_id, f.problems)
        assert f.events and f.events[-1]["kind"] == "end"
        n, problems = check_received(url, f.table_id, [(f.receiver, m) for m in f.events])
        assert problems == []
        checked += n
    for tid in {f.table_id for f in followers}:
        n, problems = check_games(client, url, tid)
        assert problems == []
        assert n == games
    return checked


def test_three_players_on_two_servers_play_a_whole_list(
        pair: tuple[Server, Server, str]) -> None:
    a, b, pg = pair
    ann, ben, cid = Client(a), Client(b), Client(b)
    try:
        assert worker_of(a) != worker_of(b)
        ann.register(_name("Ann"))
        ben.register(_name("Ben"))
        cid.register(_name("Cid"))
        t = ann.create(game="skat", games=3, seats=["me", "person", "person"], grace=60)
        tid = t["table"]["id"]

        async def play() -> list[Follower]:
            up = asyncio.Event()
            up.set()
            rng = random.Random(7)
            # Ann plays on A, Ben on B, Cid (who joined through B) on A; a spectator on each
            ann_f = Follower(ann, tid, up=up, play=True, rng=random.Random(rng.random()))
            spec_a = Follower(Client(a), tid, up=up)
            spec_b = Follower(Client(b), tid, up=up)
            first = (ann_f, spec_a, spec_b)
            tasks = [asyncio.create_task(f.run(30)) for f in first]
            while not all(f.seq for f in first):  # each has its snapshot of the table
                await asyncio.sleep(0.01)
            for c in (ben, cid):
                r = await asyncio.to_thread(c.post, f"/api/tables/{tid}/join", {})
                assert r.status_code == 200, r.text
            ben_f = Follower(ben, tid, up=up, play=True, rng=random.Random(rng.random()))
            cid_f = Follower(cid, tid, up=up, play=True, rng=random.Random(rng.random()),
                             server=a)
            tasks += [asyncio.create_task(f.run(30)) for f in (ben_f, cid_f)]
            await asyncio.wait_for(asyncio.gather(*tasks), 90)
            for c in (spec_a.client, spec_b.client):
                c.close()
            return [ann_f, ben_f, cid_f, spec_a, spec_b]

        followers: list[Follower] = asyncio.run(play())
        ann_f, ben_f, cid_f, spec_a, spec_b = followers
        assert (ann_f.receiver, ben_f.receiver, cid_f.receiver) == (0, 1, 2)
        assert all(f.connections == 1 for f in followers)
        # the spectators of both workers got the very same messages, from the first join
        kinds = [m["kind"] for m in spec_a.events]
        assert kinds.count("seat") == 2 and kinds.count("game_over") == 3
        joined = next(m["seq"] for m in spec_a.events if m["kind"] == "seat")
        assert [m for m in spec_a.events if m["seq"] >= joined] == \
            [m for m in spec_b.events if m["seq"] >= joined]
        # the players saw the same events (each with its own view) since all sat
        last = spec_a.events[-1]["seq"]
        since = max(f.events[0]["seq"] for f in followers)
        for f in followers:
            assert f.seq == last
            assert [(m["seq"], m["kind"], m["seat"]) for m in f.events if m["seq"] >= since] \
                == [(m["seq"], m["kind"], m["seat"]) for m in spec_a.events
                    if m["seq"] >= since]
        # every message each of the five got was checked: at least every event since all
        # sat, each (a fixed bound such as 300 failed for a short list of three games)
        assert _finished_cleanly(pg, ann, followers, 3) >= len(followers) * (last - since + 1)
        # three whole games meanwhile: each a deal, three bids or passes at least, its end
        assert last - since + 1 >= 3 * 5
        lists = [c.get(f"/api/tables/{tid}/list").json()["list"] for c in (ann, ben)]
        assert lists[0] == lists[1] and len(lists[0]["games"]) == 3
        assert table_row(pg, tid)["status"] == "over"
    finally:
        for c in (ann, ben, cid):
            c.close()


def _gaps(ws: TableSocket) -> list[tuple[int, int]]:
    """Events that did not follow the one before (a connection starts at its snapshot)."""
    seqs = [m["seq"] for m in ws.messages if m["type"] in ("snapshot", "event")]
    return [(x, y) for x, y in itertools.pairwise(seqs) if y != x + 1]


def test_two_players_pausing_at_once_on_two_servers_both_see_every_event(
        pair: tuple[Server, Server, str]) -> None:
    """Both press pause (then resume) at the same moment on different workers: one
    commit wins, the other worker loses on the (table, seq) key, and its sockets still
    get the winner's event."""
    a, b, pg = pair
    ann, ben = Client(a), Client(b)
    ann.register(_name("Ann"))
    ben.register(_name("Ben"))
    tid = ann.create(game="skat", games=3, seats=["me", "person", "bot:easy"],
                     grace=60)["table"]["id"]
    assert ben.post(f"/api/tables/{tid}/join", {}).status_code == 200
    rounds = 15

    async def race() -> tuple[TableSocket, TableSocket]:
        wa, wb = await ann.connect(tid), await ben.connect(tid)
        await wa.drain()
        await wb.drain()
        for _ in range(rounds):
            for kind in ("pause", "resume"):
                await asyncio.gather(wa.send({"type": kind}), wb.send({"type": kind}))
                for ws in (wa, wb):
                    await ws.until(lambda m, k=kind: m.get("kind") == k)  # type: ignore[misc]
        for ws in (wa, wb):  # a connection's messages are answered in order
            await ws.send({"type": "ping"})
            await ws.until(lambda m: m["type"] == "pong")
        await wa.close()
        await wb.close()
        return wa, wb

    try:
        wa, wb = asyncio.run(race())
        errors = [m["code"] for ws in (wa, wb) for m in ws.messages if m["type"] == "error"]
        assert set(errors) <= {"server.stale", "server.already_paused", "server.not_paused"}
        assert errors.count("server.stale") >= 1  # a commit lost on the key at least once
        assert len(errors) == 2 * rounds  # one of each pair lost
        for ws in (wa, wb):
            assert _gaps(ws) == []
            kinds = [m["kind"] for m in ws.messages if m["type"] == "event"]
            assert kinds.count("pause") == kinds.count("resume") == rounds
            _, problems = check_received(pg, tid, [(ws.you, m) for m in ws.messages
                                                   if m["type"] == "event"])
            assert problems == []
    finally:
        ann.close()
        ben.close()


def test_leaving_and_coming_back_through_the_worker_that_does_not_move_the_bots(
        pair: tuple[Server, Server, str]) -> None:
    """A person plays through the worker that does not hold the table's lease and leaves
    right after each of their moves, while the other worker moves the bots: every time
    the seat is marked away, and back when they return."""
    a, b, pg = pair
    workers = {worker_of(a): a, worker_of(b): b}
    host = Client(a)
    host.register(_name("Ann"))
    tid = host.create(game="skat", games=3, seats=["me", "bot:easy", "bot:random"],
                      grace=60)["table"]["id"]
    owner = workers[table_row(pg, tid)["lease_owner"]]
    other = b if owner is a else a
    cycles = 8

    async def my_move(ws: TableSocket, rng: random.Random) -> None:
        while True:
            m = await ws.recv(30)
            v = ws.view
            if m["type"] in ("snapshot", "event", "error") and v and v["legal"] \
                    and v["to_move"] == v["seat"]:
                await ws.act(rng.choice(v["legal"]))  # (again after a stale refusal)
            if m["type"] == "event" and m["kind"] == "act" and m["seat"] == ws.you:
                return

    async def come_and_go() -> TableSocket:
        rng = random.Random(5)
        spec = await Client(owner).connect(tid)
        ws = await host.connect(tid, server=other)
        await spec.until(lambda m: m["type"] == "snapshot")
        await asyncio.sleep(PRESENCE_CHECK + 0.5)  # the new table's first presence check
        for _ in range(cycles):
            await my_move(ws, rng)
            await ws.close()
            await spec.until(lambda m: m.get("kind") == "away" and m["seat"] == 0, 30)
            ws = await host.connect(tid, server=other)
            await spec.until(lambda m: m.get("kind") == "back" and m["seat"] == 0, 30)
        await ws.close()
        await spec.close()
        return spec

    try:
        spec = asyncio.run(come_and_go())
        assert _gaps(spec) == []
        kinds = [m["kind"] for m in spec.messages if m["type"] == "event"]
        assert kinds.count("away") == kinds.count("back") == cycles
        assert kinds.count("act") > cycles
    finally:
        host.close()


def test_two_uvicorn_workers_on_one_port(pg: str) -> None:
    srv = Server(pg, redis=services.redis(), workers=2)
    srv.start(START)
    try:
        seen: set[str] = set()
        for _ in range(200):  # new connections land on either worker
            seen.add(httpx.get(srv.url + "/api/health").json()["worker"])
            if len(seen) == 2:
                break
        assert len(seen) == 2
        host, guest = Client(srv), Client(srv)
        host.register(_name("Host"))
        guest.register(_name("Gast"))
        bots = host.create(game="skat", games=3, seats=["bot:easy", "bot:random", "bot:easy"])
        people = guest.create(game="skat", games=3, seats=["me", "bot:easy", "bot:random"],
                              grace=60)

        async def watch() -> list[Follower]:
            up = asyncio.Event()
            up.set()
            fs = [Follower(host, bots["table"]["id"], up=up),
                  Follower(Client(srv), people["table"]["id"], up=up),
                  Follower(guest, people["table"]["id"], up=up, play=True,
                           rng=random.Random(3))]
            await asyncio.wait_for(asyncio.gather(*(f.run(30) for f in fs)), 90)
            fs[1].client.close()
            return fs

        followers = asyncio.run(watch())
        assert [f.receiver for f in followers] == [-1, -1, 0]
        _finished_cleanly(pg, host, followers, 3)
        for t in (bots, people):
            assert table_row(pg, t["table"]["id"])["status"] == "over"
        host.close()
        guest.close()
    finally:
        shut_down(srv)
    assert "".join(srv.stderr).strip() == "", srv.stderr[-20:]  # no warning, no error


def test_the_other_worker_takes_over_a_bots_table_whose_worker_was_killed(
        pair: tuple[Server, Server, str]) -> None:
    a, b, pg = pair
    workers = {worker_of(s): s for s in (a, b)}
    creator = Client(a)
    owner = a
    try:
        creator.register(_name("Wirt"))
        t = creator.create(game="skat", games=3, seats=["bot:easy", "bot:random", "bot:easy"])
        tid = t["table"]["id"]
        owner = workers[table_row(pg, tid)["lease_owner"]]
        survivor = b if owner is a else a

        async def watch() -> tuple[Follower, dict[str, Any]]:
            up = asyncio.Event()
            up.set()
            f = Follower(Client(survivor), tid, up=up)
            task = asyncio.create_task(f.run(60))
            while f.seq < 12:  # the owner's bots play; the survivor relays their moves
                await asyncio.sleep(0.01)
            owner.kill()
            at_kill = table_row(pg, tid)
            await asyncio.wait_for(task, 90)
            f.client.close()
            return f, at_kill

        f, at_kill = asyncio.run(watch())
        assert at_kill["status"] == "running"
        assert workers[at_kill["lease_owner"]] is owner
        after = table_row(pg, tid)
        assert after["status"] == "over"
        assert workers[after["lease_owner"]] is survivor
        assert f.connections == 1  # the survivor's socket never broke
        assert f.seq > at_kill["seq"]  # and the table went on there
        reader = Client(survivor)
        _finished_cleanly(pg, reader, [f], 3)
        reader.close()
    finally:
        creator.close()
        if owner.proc is None:  # the pair is whole again for whatever comes next
            owner.start(START)


def test_people_who_never_connect_get_stand_ins_from_the_lease_holder(
        pair: tuple[Server, Server, str]) -> None:
    """The table is made on A (which takes its lease); Ben sits down through A, Cid
    through B (his join starts the table on B); neither ever connects.  A learns of
    the start through Redis, marks both away and lets stand-ins play; a watcher on B
    sees it."""
    a, b, pg = pair
    host, ben, cid = Client(a), Client(a), Client(b)
    try:
        for c, name in ((host, "Wirt"), (ben, "Ben"), (cid, "Cid")):
            c.register(_name(name))
        tid = host.create(game="skat", games=3, seats=["person", "person", "bot:easy"],
                          grace=5)["table"]["id"]
        time.sleep(PRESENCE_CHECK + 0.5)  # A's check of the new table found nobody seated
        assert ben.post(f"/api/tables/{tid}/join", {}).status_code == 200
        assert cid.post(f"/api/tables/{tid}/join", {}).status_code == 200
        assert table_row(pg, tid)["lease_owner"] == worker_of(a)

        async def watch() -> TableSocket:
            ws = await Client(b).connect(tid)
            await ws.until(lambda m: all(
                any(e.get("kind") == "act" and e["seat"] == s
                    and e["data"]["by"] == "standin" for e in ws.messages
                    if e["type"] == "event") for s in (0, 1)), timeout=60)
            await ws.close()
            return ws

        ws = asyncio.run(watch())
        for s in (0, 1):
            marks = [m["kind"] for m in ws.messages if m["type"] == "event"
                     and m["seat"] == s and m["kind"] in ("away", "standin", "act")]
            assert marks[:3] == ["away", "standin", "act"], marks
    finally:
        for c in (host, ben, cid):
            c.close()


def test_since_on_the_other_worker_gives_the_missed_events(
        pair: tuple[Server, Server, str]) -> None:
    """Ann plays on A against two bots; a socket of hers on A keeps every event.  On B,
    which never had a socket at the table, ``since=N`` gives exactly the events after
    N for 1, 14 and 48 missed (not a snapshot), the very messages A sent."""
    a, b, _ = pair
    ann = Client(a)
    try:
        ann.register(_name("Ann"))
        tid = ann.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                         grace=3600)["table"]["id"]
        rng = random.Random(5)

        async def story() -> None:
            stays = await ann.connect(tid, since=0)
            while stays.seq < 60 or not my_turn(stays.view):
                if my_turn(stays.view) and stays.view is not None:
                    await stays.act(rng.choice(stays.view["legal"]), stays.seq)
                msg = await stays.recv(20)
                assert msg["type"] != "error", msg
            top = stays.seq
            live = {m["seq"]: m for m in stays.messages if m["type"] == "event"}
            for missed in (1, 14, 48):
                ws = await ann.connect(tid, since=top - missed, server=b)
                assert (await ws.recv())["type"] == "welcome"
                got = [m for m in await barrier(ws) if m["type"] in ("event", "snapshot")]
                await ws.close()
                assert [(m["type"], m["seq"]) for m in got] == \
                    [("event", n) for n in range(top - missed + 1, top + 1)], missed
                assert got == [live[n] for n in range(top - missed + 1, top + 1)]
            await stays.close()

        asyncio.run(asyncio.wait_for(story(), 120))
    finally:
        ann.close()


def test_a_lost_race_with_several_events_logs_nothing(
        pg: str, caplog: pytest.LogCaptureFixture) -> None:
    """Two writers append the same numbers (three events each) at once: one commits,
    the other is told it lost (False) and nothing of it is stored; no log line at all
    (psycopg ran the INSERT of several rows in pipeline mode, and the failed pipeline
    logged "error ignored terminating <AsyncPipeline [INERROR]>: pipeline aborted")."""
    migrate(pg)

    async def race() -> list[bool]:
        one, two = Store(pg), Store(pg)
        try:
            await one.create_table(TableRow(
                id="race", game="skat", rules="skat(preset=lothar)", settings={},
                invite="x", public=True, status="running", created_at=datetime.now(UTC),
                seq=0, summary={}), [])
            results = []
            for n in range(5):
                base = 3 * n
                events = [Event(seq=base + i, kind="chat", seat=None,
                                data={"name": "A", "text": f"{base + i}"})
                          for i in (1, 2, 3)]
                results += await asyncio.gather(
                    one.append("race", events, status="running", summary={}),
                    two.append("race", events, status="running", summary={}))
            return results
        finally:
            await one.close()
            await two.close()

    with caplog.at_level(logging.DEBUG, logger="psycopg"):
        results = asyncio.run(race())
    assert sorted(results) == [False] * 5 + [True] * 5
    assert [r.getMessage() for r in caplog.records if r.name.startswith("psycopg")
            and r.levelno >= logging.WARNING] == []
    assert stored_seqs(pg, "race") == list(range(1, 16))


def stored_seqs(url: str, table_id: str) -> list[int]:
    with db_session(url) as s:
        return list(s.scalars(select(EventRow.seq).where(EventRow.table_id == table_id)
                              .order_by(EventRow.seq)))


def test_the_workers_logged_no_warning_and_no_error(
        pair: tuple[Server, Server, str]) -> None:
    """After every test of the pair above (races, failover, kill -9 included), neither
    worker wrote a warning, an error or a traceback."""
    a, b, _ = pair
    for srv in (a, b):
        assert "".join(srv.stderr).strip() == "", srv.stderr[-20:]
