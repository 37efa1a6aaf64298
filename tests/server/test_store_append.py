"""The store's hot path, :meth:`Store.append`, on SQLite and PostgreSQL (issue 27).

On SQLite the events and the table's row are written by the sqlite3 connection itself
(two prepared statements), not through SQLAlchemy's statement path: what they store must
read back through SQLAlchemy exactly as before (the times in SQLAlchemy's format, the
JSON columns, the creator's address dropped when the table is over), and a lost race
must still be told as ``False`` with nothing of the loser stored."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import DateTime, select, text
from sqlalchemy.dialects import sqlite

from stich.server.sitting import Event
from stich.server.store.db import NewGame, Store, _sqlite_time, migrate
from stich.server.store.models import EventRow, GamePlayer, GameRow, TableRow
from tests.server.harness import database
from tests.server.test_crash import db_session


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as u:
        migrate(u)
        yield u


def _table(table_id: str) -> TableRow:
    return TableRow(id=table_id, game="skat", rules="skat(preset=lothar)", settings={},
                    invite="x", public=True, status="running", created_at=datetime.now(UTC),
                    seq=0, summary={}, creator_addr="192.0.2.7")


def _events(first: int, n: int) -> list[Event]:
    return [Event(seq=first + i, kind="act", seat=i % 3,
                  data={"text": "CA", "card": "CA", "by": "player", "name": "Jörg ♣"})
            for i in range(n)]


def test_sqlite_times_are_stored_as_sqlalchemy_stores_them() -> None:
    d = sqlite.dialect()
    proc = DateTime(timezone=True).dialect_impl(d).bind_processor(d)
    assert proc is not None
    for t in (datetime.now(UTC), datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
              datetime(999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)):
        assert _sqlite_time(t) == proc(t)


def test_appended_events_and_the_table_row_read_back(url: str) -> None:
    summary = {"seats": [{"name": "Ängste", "kind": "person"}, None], "n": 3}

    async def go() -> tuple[list[Event], TableRow | None, TableRow | None]:
        store = Store(url)
        try:
            await store.create_table(_table("rb"), [])
            before = datetime.now(UTC) - timedelta(seconds=1)
            assert await store.append("rb", _events(1, 3), status="running", summary=summary)
            running = await store.table("rb")
            assert running is not None and running.updated_at is not None
            assert before <= running.updated_at.replace(tzinfo=UTC) <= datetime.now(UTC)
            game = NewGame(number=1, game="skat", rules="skat(preset=lothar)",
                           preset="lothar", record={"moves": ["CA"]},
                           players=[{"seat": s, "user_id": None, "name": f"P{s}", "bot": None,
                                     "score": 10 * s, "bilanz": s, "declarer": s == 0,
                                     "won": True if s == 0 else None} for s in range(3)])
            assert await store.append("rb", _events(4, 1), status="over", summary={},
                                      games=[game])
            return await store.events("rb"), running, await store.table("rb")
        finally:
            await store.close()

    events, running, over = asyncio.run(go())
    assert events == _events(1, 4)
    assert running is not None and running.seq == 3 and running.status == "running"
    assert running.summary == summary and running.creator_addr == "192.0.2.7"
    assert over is not None and over.seq == 4 and over.status == "over"
    assert over.summary == {} and over.creator_addr is None  # kept only while open
    with db_session(url) as s:
        g = s.scalars(select(GameRow).where(GameRow.table_id == "rb")).one()
        assert g.record == {"moves": ["CA"]}
        players = s.scalars(select(GamePlayer).where(GamePlayer.game_id == g.id)
                            .order_by(GamePlayer.seat)).all()
        assert [(p.seat, p.score, p.declarer, p.won) for p in players] == \
            [(0, 0, True, True), (1, 10, False, None), (2, 20, False, None)]


def test_appends_close_together_share_a_commit_and_a_lone_one_goes_at_once(
        url: str) -> None:
    """While appends keep coming, a batch waits until ``gather`` seconds after the last
    one was taken, and what arrives meanwhile commits with it; an append after a quiet
    spell goes at once.  Each append still returns only after its own commit."""

    async def go() -> tuple[list[list[str]], float, list[bool]]:
        store = Store(url, gather=1.0)
        commits: list[list[str]] = []
        real = store._commit

        async def counting(batch: list[Any]) -> list[bool]:
            commits.append([a.table_id for a in batch])
            return await real(batch)

        store._commit = counting
        try:
            for t in "abcd":
                await store.create_table(_table(t), [])
            loop = asyncio.get_running_loop()
            t0 = loop.time()
            assert await store.append("a", _events(1, 1), status="running", summary={})
            first = loop.time() - t0

            async def later(t: str, delay: float) -> bool:
                await asyncio.sleep(delay)
                return await store.append(t, _events(1, 1), status="running", summary={})

            done = await asyncio.gather(
                store.append("a", _events(2, 1), status="running", summary={}),
                later("b", 0.05), later("c", 0.1), later("d", 0.15))
            return commits, first, done
        finally:
            await store.close()

    commits, first, done = asyncio.run(go())
    assert done == [True] * 4
    assert commits == [["a"], ["a", "b", "c", "d"]]
    assert first < 0.8  # not held back by the gathering (nothing came before it)


def test_a_writer_cancelled_while_gathering_cancels_its_appends(url: str) -> None:
    """The writer task cancelled while a batch gathers: the appends waiting for it are
    cancelled too (none waits for ever), nothing of them is stored, and a later append
    starts a new writer."""

    async def go() -> tuple[list[Event], TableRow | None]:
        store = Store(url, gather=5.0)
        try:
            await store.create_table(_table("g"), [])
            assert await store.append("g", _events(1, 1), status="running", summary={})
            waiting = asyncio.ensure_future(
                store.append("g", _events(2, 1), status="running", summary={}))
            await asyncio.sleep(0.1)
            assert not waiting.done() and store._writer is not None
            store._writer.cancel()
            with pytest.raises(asyncio.CancelledError):
                await asyncio.wait_for(waiting, 2.0)
            store.gather = 0.0
            assert await store.append("g", _events(2, 1), status="running",
                                      summary={"n": 2})
            return await store.events("g"), await store.table("g")
        finally:
            await store.close()

    events, row = asyncio.run(go())
    assert [e.seq for e in events] == [1, 2]
    assert row is not None and row.seq == 2 and row.summary == {"n": 2}


def test_two_appends_of_one_table_in_one_batch_leave_the_later_row(url: str) -> None:
    """Appends queued together share a commit; two of them for one table (a bot's move
    right after a person's) leave the table's row as the later one wrote it."""

    async def go() -> tuple[list[bool], TableRow | None, list[Event]]:
        store = Store(url)
        try:
            await store.create_table(_table("two"), [])
            await store.create_table(_table("one"), [])
            done = await asyncio.gather(
                store.append("two", _events(1, 2), status="running", summary={"n": 1}),
                store.append("one", _events(1, 1), status="running", summary={"n": 9}),
                store.append("two", _events(3, 1), status="running", summary={"n": 2}),
                store.append("two", _events(4, 2), status="running", summary={"n": 3}))
            return done, await store.table("two"), await store.events("two")
        finally:
            await store.close()

    done, row, events = asyncio.run(go())
    assert done == [True] * 4
    assert events == _events(1, 2) + _events(3, 1) + _events(4, 2)
    assert row is not None and row.seq == 5 and row.summary == {"n": 3}


def test_a_lost_race_is_false_and_stores_nothing_of_the_loser(url: str) -> None:
    """Two stores (two processes' worth) append the same numbers at once: one wins each
    time; a batch holding the loser's append and another table's still stores the
    other."""

    async def go() -> tuple[list[bool], list[bool]]:
        one, two = Store(url), Store(url)
        try:
            await one.create_table(_table("race"), [])
            await one.create_table(_table("calm"), [])
            results = []
            for n in range(4):
                evs = _events(2 * n + 1, 2)
                results += await asyncio.gather(
                    one.append("race", evs, status="running", summary={"by": 1}),
                    two.append("race", evs, status="running", summary={"by": 2}))
            # one batch of two appends (queued together), one of them lost already
            batch = await asyncio.gather(
                one.append("race", _events(1, 1), status="running", summary={}),
                one.append("calm", _events(1, 2), status="running", summary={}))
            return results, batch
        finally:
            await one.close()
            await two.close()

    results, batch = asyncio.run(go())
    assert sorted(results) == [False] * 4 + [True] * 4
    assert batch == [False, True]
    with db_session(url) as s:
        def seqs(t: str) -> list[int]:
            return list(s.scalars(select(EventRow.seq).where(EventRow.table_id == t)
                                  .order_by(EventRow.seq)))
        assert seqs("race") == list(range(1, 9))
        assert seqs("calm") == [1, 2]
        race = s.get(TableRow, "race")
        assert race is not None and race.seq == 8


def test_sqlite_writer_keeps_its_connection_and_replaces_a_broken_one(tmp_path: Path) -> None:
    """SQLite's writer thread keeps one connection between transactions: a lost race
    (rolled back) goes on with it; a connection that broke under it (closed by something
    else) fails that append only, and the next append opens a new one."""
    with database("sqlite", tmp_path) as url:
        migrate(url)

        async def go() -> None:
            one, two = Store(url), Store(url)
            try:
                await one.create_table(_table("w"), [])
                assert await one.append("w", _events(1, 1), status="running", summary={})
                assert one._sync is not None
                kept = one._sync.conn
                assert kept is not None
                assert await two.append("w", _events(2, 1), status="running", summary={})
                assert not await one.append("w", _events(2, 1), status="running", summary={})
                assert one._sync.conn is kept  # the lost race left it usable
                assert await one.append("w", _events(3, 1), status="running", summary={})
                assert one._sync.conn is kept
                kept.connection.driver_connection.close()  # type: ignore[union-attr]
                with pytest.raises(Exception, match="closed"):
                    await one.append("w", _events(4, 1), status="running", summary={})
                assert one._sync.conn is None
                assert await one.append("w", _events(4, 2), status="running", summary={})
                assert one._sync.conn is not None and one._sync.conn is not kept
            finally:
                await one.close()
                await two.close()

        asyncio.run(go())
        with db_session(url) as s:
            assert list(s.scalars(select(EventRow.seq).where(EventRow.table_id == "w")
                                  .order_by(EventRow.seq))) == [1, 2, 3, 4, 5]


@pytest.mark.needs("postgresql")
def test_postgresql_writer_keeps_its_connection_and_replaces_a_broken_one(
        tmp_path: Path) -> None:
    """PostgreSQL's writer keeps a connection of its own (a batch is one statement on
    it): a lost race goes on with it; a connection the server ended while it was kept (a
    restart, an administrator) is replaced and the append tried once more on the new one
    (issue 39: the first action after a restart was refused), stored once.  A batch that
    finishes a game takes the transaction path and leaves the connection alone."""
    with database("postgresql", tmp_path) as url:
        migrate(url)

        async def go() -> None:
            one, two = Store(url), Store(url)
            try:
                await one.create_table(_table("p"), [])
                assert await one.append("p", _events(1, 1), status="running", summary={})
                assert one._pg is not None
                kept = one._pg.conn
                assert kept is not None and kept.autocommit
                assert await two.append("p", _events(2, 1), status="running", summary={})
                assert not await one.append("p", _events(2, 1), status="running", summary={})
                assert one._pg.conn is kept  # the lost race left it usable
                assert await one.append("p", _events(3, 1), status="running",
                                        summary={"a": 1})
                assert one._pg.conn is kept
                async with two.engine.connect() as admin:
                    await admin.execute(text("SELECT pg_terminate_backend(:pid)"),
                                        {"pid": kept.info.backend_pid})
                assert await one.append("p", _events(4, 2), status="running",
                                        summary={"b": 2})
                fresh = one._pg.conn
                assert fresh is not None and fresh is not kept and kept.closed
                game = NewGame(number=1, game="skat", rules="skat(preset=lothar)",
                               preset="lothar", record={}, players=[])
                assert await one.append("p", _events(6, 1), status="over", summary={},
                                        games=[game])
                assert one._pg.conn is fresh
            finally:
                await one.close()
                await two.close()

        asyncio.run(go())
        with db_session(url) as s:
            assert list(s.scalars(select(EventRow.seq).where(EventRow.table_id == "p")
                                  .order_by(EventRow.seq))) == [1, 2, 3, 4, 5, 6]
            row = s.get(TableRow, "p")
            assert row is not None and row.seq == 6 and row.status == "over"
            assert row.creator_addr is None


@pytest.mark.needs("postgresql")
def test_postgresql_writer_cancelled_mid_statement_leaves_no_stuck_connection(
        tmp_path: Path) -> None:
    """The writer task cancelled while its statement waits (here for a row another
    transaction locked; at the end of the process, for instance): the append is
    cancelled, its events are not stored, and the next append of the same numbers
    commits (no connection left in the middle of a statement)."""
    with database("postgresql", tmp_path) as url:
        migrate(url)

        async def go() -> None:
            store, other = Store(url), Store(url)
            try:
                await store.create_table(_table("c"), [])
                assert await store.append("c", _events(1, 1), status="running", summary={})
                async with other.engine.connect() as locker:
                    await locker.execute(text("BEGIN"))
                    await locker.execute(text("SELECT id FROM tables WHERE id = 'c' FOR UPDATE"))
                    waiting = asyncio.ensure_future(
                        store.append("c", _events(2, 1), status="running", summary={}))
                    await asyncio.sleep(0.3)  # the statement waits for the row
                    assert not waiting.done()
                    assert store._writer is not None
                    store._writer.cancel()
                    with pytest.raises(asyncio.CancelledError):
                        await waiting
                    await locker.execute(text("ROLLBACK"))
                assert await store.append("c", _events(2, 1), status="running",
                                          summary={"n": 2})
            finally:
                await store.close()
                await other.close()

        asyncio.run(go())
        with db_session(url) as s:
            assert list(s.scalars(select(EventRow.seq).where(EventRow.table_id == "c")
                                  .order_by(EventRow.seq))) == [1, 2]
            row = s.get(TableRow, "c")
            assert row is not None and row.seq == 2 and row.summary == {"n": 2}
