"""Whether the services a worker needs answer: the database, and Redis with several
workers (issue 39).

A :class:`Services` per worker keeps, for each service, whether it answers, since when
it does not, and when it last did.  It learns from two sides: every failure a request,
a bot's move or a timer meets (:meth:`Services.failed`, for the exceptions
:func:`service_of` recognizes as a service that went away), and a probe every
``PROBE_EVERY`` seconds (``SELECT 1``, ``PING``) that also notices a service come back
while nothing else tries.  ``GET /api/health`` and ``/metrics`` read it; the hub is told
when a service goes and comes back (to tell the tables' connections, and to wake every
table at once instead of waiting for its next retry).

Logs (:class:`Trouble`): a line when a service goes and when it comes back (with how
long it was away and how many failures it caused); a failure of one kind at one table
is logged once, with the exception's one-line text and no traceback when a service is
away, and the repeats are counted into one line when the service is back (or at most
once a minute).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DATABASE", "PROBE_EVERY", "REDIS", "SQLITE_AWAY", "Backoff", "ServiceState", "Services",
           "Trouble", "service_of"]

log = logging.getLogger("stich.server")

DATABASE = "database"
REDIS = "redis"
PROBE_EVERY = 1.0
"""Seconds between two probes of each service (each bounded by ``PROBE_TIMEOUT``)."""
PROBE_TIMEOUT = 3.0
STALE_AFTER = 5.0
"""A service that has not answered for this long counts as down in the health check,
even before a failure was seen (a probe that hangs)."""


def service_of(exc: BaseException) -> str | None:
    """Which service ``exc`` says went away (``database``, ``redis``), or None: a
    refusal, a lost race or a mistake of ours (a missing table, bad SQL) is no outage."""
    import redis.exceptions as redis_errors
    import sqlalchemy.exc as sa

    for e in _chain(exc):
        if isinstance(e, redis_errors.ConnectionError | redis_errors.TimeoutError
                      | redis_errors.BusyLoadingError | redis_errors.ReadOnlyError):
            return REDIS
        if isinstance(e, sa.IntegrityError):
            return None  # a lost race on the unique key
        if isinstance(e, sa.DBAPIError):
            if e.connection_invalidated:
                return DATABASE
            said = _driver_says(e.orig)
            if said is not None:
                return DATABASE if said else None
            if isinstance(e, sa.OperationalError | sa.InterfaceError):
                return DATABASE
        if isinstance(e, sa.DisconnectionError | sa.TimeoutError):
            return DATABASE
        if _driver_says(e):
            return DATABASE
    return None


SQLITE_AWAY = ("disk", "full", "locked", "busy", "unable to open", "i/o", "readonly",
               "read-only")
"""Words of SQLite's operational errors that say the file cannot be used now (its disk is
full or failing, another process holds it); its other operational errors (no such
table, a syntax error) are mistakes."""


def _chain(exc: BaseException) -> list[BaseException]:
    out: list[BaseException] = []
    e: BaseException | None = exc
    while e is not None and len(out) < 8:
        out.append(e)
        e = e.__cause__ or e.__context__
    return out


def _driver_says(e: BaseException | None) -> bool | None:
    """Whether a database driver's own error says the database cannot be used now
    (psycopg's operational errors: the server shut down, the connection broke; sqlite3's
    of :data:`SQLITE_AWAY`); None when it is no driver's error."""
    if e is None:
        return None
    if isinstance(e, sqlite3.Error):
        return isinstance(e, sqlite3.OperationalError) \
            and any(w in str(e).lower() for w in SQLITE_AWAY)
    try:
        import psycopg
    except ImportError:  # (PostgreSQL's driver is optional)
        return None
    if isinstance(e, psycopg.Error):
        return isinstance(e, psycopg.OperationalError | psycopg.InterfaceError)
    return None


@dataclass
class ServiceState:
    """One service as this worker sees it."""

    name: str
    up: bool = True
    last_ok: float = field(default_factory=time.monotonic)  # when it last answered
    down_since: float | None = None  # (monotonic) since when it does not
    back_since: float = 0.0  # (monotonic) since when it answers again
    failures: int = 0  # failures seen since it went down
    error: str = ""  # the last failure's one line

    def report(self, now: float) -> dict[str, Any]:
        """For ``/api/health``: whether it answers, seconds since it last did, and
        since when it does not."""
        ok = self.up and now - self.last_ok < STALE_AFTER
        return {"ok": ok, "last_ok": round(now - self.last_ok, 1),
                "down_for": None if self.down_since is None
                else round(now - self.down_since, 1)}


Listener = Callable[[str, bool], Coroutine[Any, Any, None]]


class Services:
    """The services of one worker (see the module's text)."""

    def __init__(self, names: tuple[str, ...] = (DATABASE,)) -> None:
        self.states = {n: ServiceState(n) for n in names}
        self.listeners: list[Listener] = []
        self.trouble = Trouble()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def ok(self) -> bool:
        now = time.monotonic()
        return all(s.report(now)["ok"] for s in self.states.values())

    def up(self, name: str) -> bool:
        s = self.states.get(name)
        return s is None or s.up

    def settled(self, name: str, after: float) -> bool:
        """Up, and for at least ``after`` seconds (or never down)."""
        s = self.states.get(name)
        return s is None or (s.up and time.monotonic() - s.back_since >= after)

    def report(self) -> dict[str, Any]:
        now = time.monotonic()
        return {n: s.report(now) for n, s in self.states.items()}

    def answered(self, name: str) -> None:
        """The service answered: it is up (a line in the log if it was down)."""
        s = self.states.get(name)
        if s is None:
            return
        s.last_ok = time.monotonic()
        if s.up:
            return
        away = s.last_ok - (s.down_since or s.last_ok)
        log.warning("%s is back after %.1f s (%d failures while it was away)",
                    name, away, s.failures)
        s.up, s.down_since, s.failures, s.error = True, None, 0, ""
        s.back_since = s.last_ok
        self.trouble.flush()
        self._tell(name, True)

    def failed(self, name: str, exc: BaseException | None = None) -> None:
        """The service failed a request: it is down (a line in the log if it was up)."""
        s = self.states.get(name)
        if s is None:
            return
        s.failures += 1
        if exc is not None:
            s.error = one_line(exc)
        if not s.up:
            return
        s.up, s.down_since = False, time.monotonic()
        log.error("%s does not answer: %s", name, s.error or "?")
        self._tell(name, False)

    def saw(self, exc: BaseException) -> str | None:
        """Note the service ``exc`` says went away (its name), None when it says none."""
        name = service_of(exc)
        if name is not None:
            self.failed(name, exc)
        return name

    def _tell(self, name: str, up: bool) -> None:
        for listener in self.listeners:
            task = asyncio.get_running_loop().create_task(listener(name, up))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def probe(self, name: str, check: Callable[[], Awaitable[Any]]) -> None:
        """Ask the service once (bounded by ``PROBE_TIMEOUT``)."""
        try:
            async with asyncio.timeout(PROBE_TIMEOUT):
                await check()
        except Exception as e:
            self.failed(name, e)
        else:
            self.answered(name)

    async def watch(self, checks: Mapping[str, Callable[[], Awaitable[Any]]],
                    every: float = PROBE_EVERY) -> None:
        """Probe every service every ``every`` seconds, for ever (and keep the
        metrics)."""
        from stich.server import metrics

        while True:
            for name, check in checks.items():
                await self.probe(name, check)
            now = time.monotonic()
            for name, state in self.states.items():
                metrics.SERVICE_UP.labels(name).set(1 if state.up else 0)
                metrics.SERVICE_SILENT.labels(name).set(round(now - state.last_ok, 1))
            self.trouble.tick()
            await asyncio.sleep(every)

    async def close(self) -> None:
        for t in list(self._tasks):
            t.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t


def one_line(exc: BaseException) -> str:
    """An exception as one short line: its class and the first line of its text."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:200]}" if text else type(exc).__name__


class Trouble:
    """Failures logged once per kind and table; the repeats counted (see the module's
    text)."""

    EVERY = 60.0  # seconds between two lines of counts while failures go on

    def __init__(self) -> None:
        self.seen: Counter[tuple[str, str]] = Counter()
        self.last: dict[tuple[str, str], str] = {}
        self._flushed = time.monotonic()

    def note(self, what: str, where: str, exc: BaseException, outage: bool) -> None:
        """``what`` failed at ``where`` (a table's id, or ``-``): the first time a line
        (with the traceback only when no service is away: then it is a mistake of ours),
        later only a count."""
        key = (what, where)
        self.seen[key] += 1
        self.last[key] = one_line(exc)
        if self.seen[key] > 1:
            return
        if outage:
            log.warning("table %s: %s failed: %s (retrying)", where, what, one_line(exc))
        else:
            log.error("table %s: %s failed", where, what, exc_info=exc)

    def tick(self) -> None:
        if time.monotonic() - self._flushed >= self.EVERY:
            self.flush()

    def flush(self) -> None:
        """One line per kind and table that failed again since its first line."""
        self._flushed = time.monotonic()
        for (what, where), n in sorted(self.seen.items()):
            if n > 1:
                log.warning("table %s: %s failed %d more times (last: %s)",
                            where, what, n - 1, self.last[(what, where)])
        self.seen.clear()
        self.last.clear()


class Backoff:
    """Waits between retries: ``first`` seconds, doubling up to ``most``; :meth:`sleep`
    ends early when ``wake`` is set (a service came back)."""

    def __init__(self, first: float = 0.25, most: float = 2.0) -> None:
        self.first, self.most = first, most
        self.next = first

    def reset(self) -> None:
        self.next = self.first

    async def sleep(self, wake: asyncio.Event | None = None) -> None:
        wait, self.next = self.next, min(self.most, self.next * 2)
        if wake is None:
            await asyncio.sleep(wait)
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(wait):
                await wake.wait()
