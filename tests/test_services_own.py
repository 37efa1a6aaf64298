"""The servers and the disk of a test's own (``tests/services.py``), for the tests of
outages: a PostgreSQL and a Redis to stop, kill and start again, and a small tmpfs to
fill.  Each test is skipped (or fails under ``STICH_TEST_REQUIRE_ALL=1``) when what it
needs cannot be had."""

from __future__ import annotations

import contextlib
import errno
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

import psycopg
import pytest
import redis

from tests import services

T = TypeVar("T")


def _entered(cm: contextlib.AbstractContextManager[T]) -> Iterator[T]:
    """For fixtures: ``cm`` entered, and left after the test; a skip if it is missing."""
    with contextlib.ExitStack() as stack:
        try:
            got = stack.enter_context(cm)
        except services.ServiceMissing as exc:
            services.missing(exc)
        yield got


@pytest.fixture
def own_pg() -> Iterator[services.OwnPostgres]:
    yield from _entered(services.OwnPostgres())


@pytest.fixture
def own_redis() -> Iterator[services.OwnRedis]:
    yield from _entered(services.OwnRedis())


@pytest.fixture
def disk() -> Iterator[Path]:
    yield from _entered(services.small_disk(4))


def _rows(url: str) -> list[tuple[int, str]]:
    with psycopg.connect(url, connect_timeout=3) as conn:
        return [(int(n), str(s)) for n, s in conn.execute("SELECT n, s FROM t ORDER BY n")]


def test_own_postgres_stops_and_starts_again(own_pg: services.OwnPostgres) -> None:
    port = own_pg.port
    assert own_pg.url == f"postgresql://postgres@127.0.0.1:{port}/test"
    assert own_pg.running
    conn = psycopg.connect(own_pg.url, autocommit=True)
    conn.execute("CREATE TABLE t (n int PRIMARY KEY, s text)")
    conn.execute("INSERT INTO t VALUES (1, 'eins'), (2, 'zwei')")

    own_pg.stop()
    assert not own_pg.running
    with pytest.raises(psycopg.OperationalError) as refused:
        psycopg.connect(own_pg.url, connect_timeout=3)
    assert "refused" in str(refused.value).lower()
    with pytest.raises(psycopg.OperationalError):  # the open connection is gone too
        conn.execute("SELECT 1")
    conn.close()

    own_pg.start()
    assert own_pg.running and own_pg.port == port
    assert _rows(own_pg.url) == [(1, "eins"), (2, "zwei")]


def test_own_postgres_is_killed_and_recovers(own_pg: services.OwnPostgres) -> None:
    port = own_pg.port
    with psycopg.connect(own_pg.url, autocommit=True) as conn:
        conn.execute("CREATE TABLE t (n int PRIMARY KEY, s text)")
        conn.execute("INSERT INTO t VALUES (1, 'eins')")
    held = psycopg.connect(own_pg.url, autocommit=True)  # a backend that must go too
    held.execute("INSERT INTO t VALUES (2, 'zwei')")

    own_pg.kill()
    assert not own_pg.running
    assert not services._port_answers(port)
    assert services._pids_in(own_pg.dir / "data") == []  # the children are gone
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(own_pg.url, connect_timeout=3)
    with pytest.raises(psycopg.OperationalError):
        held.execute("SELECT 1")
    held.close()

    own_pg.start()  # with crash recovery
    assert own_pg.running and own_pg.port == port
    assert _rows(own_pg.url) == [(1, "eins"), (2, "zwei")]

    own_pg.kill()  # and once more, straight after a restart
    own_pg.start()
    assert _rows(own_pg.url) == [(1, "eins"), (2, "zwei")]
    own_pg.stop(mode="immediate")
    assert not own_pg.running
    own_pg.start()
    assert _rows(own_pg.url) == [(1, "eins"), (2, "zwei")]


def test_own_postgres_cleans_up() -> None:
    stops = list(services._stops)
    try:
        with services.OwnPostgres() as pg:
            where = pg.dir
            assert (where / "data" / "PG_VERSION").is_file()
            pg.kill()
    except services.ServiceMissing as exc:
        services.missing(exc)
    assert not where.exists()
    assert services._pids_in(where / "data") == []
    assert services._stops == stops  # nothing left for the end of the session


def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)


def test_own_redis_stops_kills_and_starts_again(own_redis: services.OwnRedis) -> None:
    port = own_redis.port
    assert own_redis.url == f"redis://127.0.0.1:{port}/0"
    client = _client(own_redis.url)
    client.set("stich", "skat")
    assert client.get("stich") == b"skat"

    own_redis.stop()
    assert not own_redis.running
    with pytest.raises(redis.ConnectionError):
        _client(own_redis.url).ping()

    own_redis.start()
    assert own_redis.running and own_redis.port == port
    assert _client(own_redis.url).ping()
    assert _client(own_redis.url).get("stich") is None  # no persistence

    own_redis.kill()
    assert not own_redis.running
    with pytest.raises(redis.ConnectionError):
        _client(own_redis.url).ping()
    own_redis.start()
    assert _client(own_redis.url).ping()
    client.close()


def test_small_disk_fills_up(disk: Path) -> None:
    assert disk.is_dir() and disk.stat().st_mode & 0o7777 == 0o1777
    filler = services.fill(disk)
    assert filler.parent == disk and filler.stat().st_size > 3 * 1024 * 1024
    with pytest.raises(OSError) as full:
        (disk / "more").write_bytes(b"x" * 65536)
    assert full.value.errno == errno.ENOSPC

    filler.unlink()
    (disk / "more").write_bytes(b"x" * 65536)
    assert (disk / "more").stat().st_size == 65536


def test_small_disk_goes_away() -> None:
    try:
        with services.small_disk(1) as where:
            (where / "file").write_text("x")
            assert where.is_mount()
    except services.ServiceMissing as exc:
        services.missing(exc)
    assert not where.exists()
