"""A table with a long history costs a load what happened since its newest snapshot, not
its history, and nobody but who may see a table makes the server load it.

The long log is written into the database directly (as if a table had been played and
flooded for weeks): 50,000 pause and resume events before its end.  The server reads it
the first time in slices and writes a snapshot; every load after that reads a few
hundred events (``stich_events_loaded_total``); a stranger asking for a private table
loads nothing; a watcher's ``sync`` with an old ``since`` replays nothing.  (The time
these take is measured in ``bench/soak/server_abuse.py``, the big-log attack.)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, insert, select, update

from stich.server.actor import RECENT, SNAPSHOT_EVERY
from stich.server.store.db import sync_url
from stich.server.store.models import EventRow, SnapshotRow, TableRow
from tests.server.conftest import DB_KINDS
from tests.server.harness import ROOMY, Client, Server, database
from tests.server.proto_helpers import barrier, error_of, uid

TOKEN = "metrics-" + "y" * 24
LONG = 50_000


def loaded(srv: Server) -> float:
    """Events the server read to load tables so far."""
    r = httpx.get(srv.url + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200, r.text
    return sum(float(line.rsplit(" ", 1)[1]) for line in r.text.splitlines()
               if line.startswith("stich_events_loaded_total "))


def tables_in_memory(srv: Server) -> int:
    return int(httpx.get(srv.url + "/api/health").json()["tables"])


def lengthen(url: str, table_id: str, n: int) -> int:
    """Put ``n`` pause and resume events of seat 0, then the end, after the table's
    last event (the server is stopped meanwhile); the new last event's number."""
    engine = create_engine(sync_url(url))
    with engine.begin() as conn:
        seq = conn.execute(select(TableRow.seq).where(TableRow.id == table_id)).scalar_one()
        at = datetime.now(UTC)
        rows = [{"table_id": table_id, "seq": seq + i + 1,
                 "kind": "pause" if i % 2 == 0 else "resume", "seat": 0, "data": {},
                 "created_at": at} for i in range(n)]
        rows.append({"table_id": table_id, "seq": seq + n + 1, "kind": "end", "seat": None,
                     "data": {"reason": "closed"}, "created_at": at})
        for i in range(0, len(rows), 5000):
            conn.execute(insert(EventRow), rows[i:i + 5000])
        conn.execute(update(TableRow).where(TableRow.id == table_id)
                     .values(seq=seq + n + 1, status="over"))
    engine.dispose()
    return int(seq + n + 1)


def snapshots(url: str, table_id: str) -> list[int]:
    engine = create_engine(sync_url(url))
    with engine.connect() as conn:
        out = list(conn.execute(select(SnapshotRow.seq).where(SnapshotRow.table_id == table_id)
                                .order_by(SnapshotRow.seq)).scalars())
    engine.dispose()
    return out


@pytest.mark.parametrize("db", DB_KINDS)
def test_a_long_log_loads_from_its_snapshot(db: str, tmp_path: Path,
                                            run: Callable[..., Any]) -> None:
    env = {"STICH_METRICS_TOKEN": TOKEN, "STICH_HOUSEKEEPING": "0.3", "STICH_LIMITS": ROOMY}
    with database(db, tmp_path) as url:
        srv = Server(url, env=env)
        srv.start()
        try:
            owner = Client(srv)
            owner.register(uid("Owner"))
            public = owner.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"])
            private = owner.create(game="skat", games=3, public=False,
                                   seats=["me", "bot:easy", "bot:easy"])
            pub, priv = public["table"]["id"], private["table"]["id"]
            srv.stop()
            last = lengthen(url, pub, LONG)
            lengthen(url, priv, LONG)
            srv.start()
            stranger = Client(srv)
            assert loaded(srv) == 0 and tables_in_memory(srv) == 0

            # the right to see a table is checked before it is loaded
            for who in (stranger, ):
                r = who.get(f"/api/tables/{priv}")
                assert error_of(r)[:2] == (404, "server.no_such_table")
                r = who.get(f"/api/tables/{priv}?invite=wrong")
                assert error_of(r)[:2] == (404, "server.no_such_table")
            assert loaded(srv) == 0 and tables_in_memory(srv) == 0

            # the first load of a table stored without a snapshot reads the whole log
            # (in slices) and writes one
            r = stranger.get(f"/api/tables/{pub}")
            assert r.status_code == 200, r.text
            assert r.json()["table"]["seq"] == last
            assert loaded(srv) == last
            assert snapshots(url, pub) == [last - RECENT]

            # the finished table leaves memory; loaded again, it reads no more than the
            # events after its snapshot (none here), also after a restart
            for restart in (False, True):
                if restart:
                    srv.stop()
                    srv.start()
                deadline = time.monotonic() + 10
                while tables_in_memory(srv) and time.monotonic() < deadline:
                    time.sleep(0.1)
                assert tables_in_memory(srv) == 0
                before = loaded(srv)
                r = stranger.get(f"/api/tables/{pub}")
                assert r.status_code == 200 and r.json()["table"]["seq"] == last
                assert loaded(srv) - before <= SNAPSHOT_EVERY + RECENT

            # a watcher's syncs, far back or near: events rendered already, or a
            # snapshot of now; nothing is replayed
            async def watch() -> None:
                ws = await stranger.connect(pub, since=last - 10)
                got = await barrier(ws)
                assert [m["type"] for m in got] == ["welcome"] + ["event"] * 10
                before = loaded(srv)
                for since in (1, 100, last - 40, last - 1000, 0):
                    await ws.send({"type": "sync", "since": since})
                got = await barrier(ws)
                kinds = [m["type"] for m in got]
                assert kinds.count("snapshot") == 4 and kinds.count("event") == 40, kinds
                assert loaded(srv) == before
                await ws.close()

            run(watch())
            owner.close()
            stranger.close()
        finally:
            srv.stop()


def test_the_load_reads_slices_and_answers_meanwhile(tmp_path: Path,
                                                      run: Callable[..., Any]) -> None:
    """While a long log without a snapshot is read, the server answers others."""
    env = {"STICH_METRICS_TOKEN": TOKEN, "STICH_LIMITS": ROOMY}
    with database("sqlite", tmp_path) as url:
        srv = Server(url, env=env)
        srv.start()
        try:
            owner = Client(srv)
            owner.register(uid("Owner"))
            tid = owner.create(game="skat", games=3,
                               seats=["me", "bot:easy", "bot:easy"])["table"]["id"]
            srv.stop()
            lengthen(url, tid, 4 * LONG)
            srv.start()

            async def both() -> int:
                async with httpx.AsyncClient(base_url=srv.url, timeout=60) as http:
                    load = asyncio.create_task(http.get(f"/api/tables/{tid}"))
                    answered = 0
                    while not load.done():
                        r = await http.get("/api/health")
                        assert r.status_code == 200
                        answered += 1
                    assert (await load).status_code == 200
                    return answered

            # the health checks got answers while the load went on, not only after it
            assert run(both()) > 3
            owner.close()
        finally:
            srv.stop()
