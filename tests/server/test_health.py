"""The outage bookkeeping of :mod:`stich.server.health` (issue 39), without services:
which exceptions say a service went away, the log lines of a service going and coming
back, failures counted instead of repeated, and the back-off that ends when a service is
back.  (The outages themselves: tests/server/test_outage.py.)"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time

import psycopg
import pytest
import redis.exceptions
import sqlalchemy.exc as sa

from stich.core import ArgumentError
from stich.server.health import DATABASE, REDIS, Backoff, Services, Trouble, service_of


def _wrapped(orig: Exception, kind: type[sa.DBAPIError] = sa.OperationalError) -> Exception:
    return kind("SELECT 1", None, orig)


def _refused_from(inner: Exception) -> ArgumentError:
    """As the hub refuses an action: ``raise ArgumentError(...) from None`` inside the
    handler of ``inner``."""
    try:
        try:
            raise inner
        except Exception:
            raise ArgumentError("server.not_saved") from None
    except ArgumentError as e:
        return e


@pytest.mark.parametrize(("exc", "service"), [
    (_wrapped(sqlite3.OperationalError("database or disk is full")), DATABASE),
    (_wrapped(sqlite3.OperationalError("database is locked")), DATABASE),
    (_wrapped(sqlite3.OperationalError("disk I/O error")), DATABASE),
    (_wrapped(sqlite3.OperationalError("no such table: events")), None),  # ours
    (_wrapped(sqlite3.IntegrityError("UNIQUE constraint failed"), sa.IntegrityError), None),
    (_wrapped(psycopg.OperationalError("the database system is shutting down")), DATABASE),
    (_wrapped(psycopg.errors.UndefinedTable("relation does not exist"),
              sa.ProgrammingError), None),
    (psycopg.OperationalError("connection failed"), DATABASE),
    (redis.exceptions.ConnectionError("Error 111 connecting"), REDIS),
    (redis.exceptions.TimeoutError("Timeout reading"), REDIS),
    (redis.exceptions.ResponseError("WRONGTYPE"), None),  # ours
    (_refused_from(_wrapped(psycopg.OperationalError("server closed the connection"))),
     DATABASE),
    (ArgumentError("server.stale", current=3, seen=2), None),
    (ValueError("a mistake"), None),
])
def test_which_exceptions_say_a_service_went_away(exc: Exception, service: str | None) -> None:
    assert service_of(exc) == service


def test_a_service_going_and_coming_back_is_one_line_each_and_told(
        caplog: pytest.LogCaptureFixture) -> None:
    told: list[tuple[str, bool]] = []

    async def story() -> None:
        services = Services((DATABASE, REDIS))

        async def listen(name: str, up: bool) -> None:
            told.append((name, up))

        services.listeners.append(listen)
        assert services.ok and services.up(REDIS)
        for _ in range(5):
            services.failed(REDIS, redis.exceptions.ConnectionError("refused"))
        assert not services.up(REDIS) and services.up(DATABASE)
        report = services.report()
        assert report[REDIS]["ok"] is False and report[REDIS]["down_for"] is not None
        assert report[DATABASE]["ok"] is True and report[DATABASE]["down_for"] is None
        assert not services.settled(REDIS, 0.0)
        services.answered(REDIS)
        assert services.up(REDIS) and not services.settled(REDIS, 60.0)
        assert services.settled(REDIS, 0.0) and services.settled(DATABASE, 60.0)
        await asyncio.sleep(0)  # the listeners run
        await services.close()

    with caplog.at_level(logging.WARNING, logger="stich.server"):
        asyncio.run(story())
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["redis does not answer: ConnectionError: refused",
                     "redis is back after 0.0 s (5 failures while it was away)"]
    assert told == [(REDIS, False), (REDIS, True)]


def test_a_service_silent_too_long_counts_as_down_in_the_report() -> None:
    services = Services((DATABASE,))
    services.states[DATABASE].last_ok = time.monotonic() - 6.0  # no probe answered
    assert services.up(DATABASE)  # no failure seen yet, but:
    assert services.report()[DATABASE]["ok"] is False and not services.ok


def test_failures_are_logged_once_per_kind_and_table_then_counted(
        caplog: pytest.LogCaptureFixture) -> None:
    trouble = Trouble()
    away = psycopg.OperationalError("connection refused")
    with caplog.at_level(logging.WARNING, logger="stich.server"):
        for _ in range(40):
            trouble.note("bot move", "T1", away, outage=True)
        trouble.note("bot move", "T2", away, outage=True)
        trouble.note("clock", "T1", ValueError("a mistake"), outage=False)
        trouble.flush()
    records = caplog.records
    assert [r.getMessage() for r in records] == [
        "table T1: bot move failed: OperationalError: connection refused (retrying)",
        "table T2: bot move failed: OperationalError: connection refused (retrying)",
        "table T1: clock failed",
        "table T1: bot move failed 39 more times (last: OperationalError: connection "
        "refused)"]
    assert [r.exc_info is not None for r in records] == [False, False, True, False]


def test_the_back_off_doubles_up_to_its_most_and_ends_when_the_service_is_back() -> None:
    async def story() -> tuple[list[float], float]:
        b = Backoff(0.01, 0.04)
        waits = []
        for _ in range(4):
            waits.append(b.next)
            await b.sleep()
        back = asyncio.Event()
        long = Backoff(30.0, 30.0)
        asyncio.get_running_loop().call_later(0.05, back.set)
        t0 = time.monotonic()
        await long.sleep(back)
        return waits, time.monotonic() - t0

    waits, woke = asyncio.run(story())
    assert waits == [0.01, 0.02, 0.04, 0.04]
    assert woke < 5.0  # not the 30 s: woken by the service's return
