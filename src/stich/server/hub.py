"""The live tables of one worker: one :class:`TableActor` per table.

An actor alone changes its table.  Every request goes through :meth:`TableActor.submit`:
under the table's lock it catches up with the database, asks the :class:`Sitting` what
the request adds (or the refusal), applies the new events, renders them for every seat
and for spectators, commits them, and only then sends them.  When the commit loses
against another worker (the unique (table, seq) key), the table is rebuilt from the
database and the request is refused as stale: nothing half-done is ever seen.

The worker that holds a table's lease drives it: bot moves (in the worker pool), the
grace timers of absent players, and stand-in bots.  With one process it holds every
lease; with several, leases live in the ``tables`` row and expire when a worker dies.

Nothing runs unbounded (:meth:`Hub.housekeep`, every ``housekeeping`` seconds): a
running table with nobody at it (no seated person connected; at a table of bots alone,
nobody watching) is paused by the site after ``idle_pause`` seconds and resumes when
somebody comes back; a paused table nobody came back to is closed after ``idle_close``,
a table that never started after ``waiting_expire`` without a change.  The same round
closes the sockets of sessions that ended elsewhere (expired, or an operator's
``stich admin``), picks up events written by ``stich admin``, and once an hour deletes
expired sessions and old guests.

Outages (issue 39): nothing that drives a table dies of the database or Redis going
away.  A request during an outage is refused (``server.not_saved``) and the socket stays
open; bot moves, the clock, grace timers and the presence check retry with back-off
(:class:`~stich.server.health.Backoff`) and at once when :class:`Services` sees the
service back; the connections are told when saving stops and starts again (the
``service`` message).  While Redis is away the table's lease holder goes on playing;
the housekeeping round leaves presence and pausing alone (who is connected on other
workers is unknown then).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import Counter, deque
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

import orjson

from stich.server import metrics, snapshot
from stich.server.actor import (
    LEASE_SECONDS,
    RECENT,
    SNAPSHOT_EVERY,
    Conn,
    TableActor,
    _not_saved,
    _people_and_watchers,
)
from stich.server.bus import Bus
from stich.server.health import DATABASE, REDIS, Services
from stich.server.limits import Limiter, Limits
from stich.server.sitting import Event, Sitting, TableSettings
from stich.server.store.db import Store
from stich.server.store.models import TableRow
from stich.server.wire import (
    event_texts,
    table_info,
    welcome,
)
from stich.server_settings import DEFAULTS

__all__ = ["Conn", "Hub", "HubConfig", "TableActor"]  # (Conn, TableActor: stich.server.actor)

log = logging.getLogger("stich.server")

LOAD_SLICE = 1000
"""Events read and replayed at a time when a table is loaded; between two slices the
event loop serves the others (a table stored before snapshots existed, or whose
snapshot could not be written, is replayed from its whole log once)."""


@dataclass
class Loaded:
    """A table read from the database: the sitting at its last event, its row, the
    snapshot its in-memory events follow (None: from the first), and its last events
    rendered for every receiver (:attr:`TableActor.recent`)."""

    sitting: Sitting
    row: TableRow
    base: dict[str, Any] | None = None
    recent: list[tuple[int, dict[int, str]]] = field(default_factory=list)

    @staticmethod
    def new(row: TableRow, settings: TableSettings, events: list[Event]) -> Loaded:
        """A table just created with these events, and stored."""
        s = Sitting(settings)
        recent = []
        for ev in events:
            s.apply(ev)
            recent.append((ev.seq, event_texts(s, ev, _people_and_watchers(s))))
        return Loaded(s, row, None, recent[-RECENT:])


@dataclass
class HubConfig:
    """The hub's part of the site's settings (the defaults:
    :data:`stich.server_settings.DEFAULTS`)."""

    bot_delay: float = DEFAULTS.bot_delay  # seconds a bot waits before each move
    presence_check: float = DEFAULTS.presence_check  # then absent persons are away
    multi: bool = False  # several workers: leases in the database
    limits: Limits = field(default_factory=Limits)  # idle_pause, idle_close, …
    housekeeping: float = DEFAULTS.housekeeping  # seconds between rounds of Hub.housekeep
    guest_days: float = DEFAULTS.guest_days  # guests without a session: deleted after


class Hub:
    """The live tables of this worker."""

    def __init__(self, store: Store, bus: Bus, workers: Any,
                 config: HubConfig | None = None, services: Services | None = None) -> None:
        self.store = store
        self.bus = bus
        self.workers = workers
        self.config = config or HubConfig()
        self.services = services or Services(
            (DATABASE, REDIS) if self.config.multi else (DATABASE,))
        self.services.listeners.append(self._service_changed)
        # set (and replaced by a new one) when a service comes back: whatever waits to
        # try again goes at once
        self._recovered: asyncio.Event | None = None
        self.worker_id = bus.worker
        self.actors: dict[str, TableActor] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self.addresses: Counter[str] = Counter()  # open sockets per address
        self.limiter: Limiter | None = None  # the site's (set by the app): table budgets
        self._purged = 0.0

    @property
    def recovered(self) -> asyncio.Event:
        if self._recovered is None:
            self._recovered = asyncio.Event()
        return self._recovered

    async def start(self) -> None:
        await self.bus.start(self._on_bus, self._on_control, self._resync)
        checks = {DATABASE: self._probe_database}
        if REDIS in self.services.states:
            checks[REDIS] = self.bus.ping
        self._tasks.append(asyncio.create_task(self.services.watch(checks)))
        self._tasks.append(asyncio.create_task(self._load_live()))
        if self.config.multi:
            self._tasks.append(asyncio.create_task(self._lease_loop()))
        if self.config.housekeeping > 0:
            self._tasks.append(asyncio.create_task(self._housekeeping()))

    async def _probe_database(self) -> None:
        """The database answers (while it is down: also takes a write, see
        :meth:`Store.ping`)."""
        await self.store.ping(write=not self.services.up(DATABASE))

    def service_message(self) -> dict[str, Any]:
        """The ``service`` message: whether moves can be saved now."""
        return {"type": "service", "ok": self.services.up(DATABASE)}

    async def _service_changed(self, name: str, up: bool) -> None:
        """A service went (the connections are told that nothing can be saved now) or
        came back (told again; every table tries again at once)."""
        if name == DATABASE:
            msg = self.service_message()
            for c in self.conns():
                c.send(msg)
        if not up:
            return
        event, self._recovered = self.recovered, asyncio.Event()
        event.set()
        if name == DATABASE:
            try:
                await self.store.checkpoint()
            except Exception as e:
                log.warning("database: checkpoint after the outage failed: %s", e)
        await self._resync()

    async def _resync(self) -> None:
        """After an outage: every table catches up with what others wrote meanwhile
        (several workers), and moves on."""
        for actor in list(self.actors.values()):
            try:
                if self.config.multi:
                    await actor.catch_up()
            except Exception as e:
                actor._trouble("catching up", e)
            actor.retime()
            actor.wake()

    def live_count(self) -> int:
        """Tables loaded here that are not over."""
        return sum(1 for a in self.actors.values() if not a.sitting.over)

    def sockets_of(self, address: str) -> int:
        """Open table sockets from an address, on this worker."""
        return self.addresses.get(address, 0)

    def conns(self) -> list[Conn]:
        return [c for a in self.actors.values() for c in a.conns]

    async def drop_sessions(self, hashes: Collection[str]) -> None:
        """Close every table socket opened with one of these sessions (token hashes),
        on every worker."""
        self._drop_local(set(hashes))
        await self.bus.control("sessions", ",".join(hashes))

    def _drop_local(self, hashes: set[str]) -> None:
        for c in self.conns():
            if c.session is not None and c.session in hashes:
                c.close(4401)  # the session ended: log in again (or watch)

    async def _on_control(self, kind: str, data: str) -> None:
        if kind == "sessions":
            self._drop_local(set(data.split(",")))
        elif kind == "forget-user":
            await self._forget_user(int(data))

    async def forget_user(self, user_id: int) -> None:
        """An account was deleted: the tables it sat at (finished: deleting is refused
        while it sits at a live one) or wrote a chat line at that are in memory are read
        again from the database (where its name is gone), on every worker."""
        await self._forget_user(user_id)
        await self.bus.control("forget-user", str(user_id))

    async def _forget_user(self, user_id: int) -> None:
        for actor in list(self.actors.values()):
            s = actor.sitting
            sat = any(info is not None and info.user == user_id for info in s.seats)
            wrote = any(line.get("user") == user_id for line in s.chat)
            if (sat and s.over) or wrote:
                await actor.close(1012)  # restart: the clients reconnect and read it anew
                if self.actors.get(actor.id) is actor:
                    del self.actors[actor.id]

    async def _housekeeping(self) -> None:
        while True:
            await asyncio.sleep(self.config.housekeeping)
            try:
                await self.housekeep()
            except Exception as e:  # the database is away: next round
                metrics.DB_ERRORS.inc()
                self.services.trouble.note("housekeeping", "-", e,
                                           self.services.saw(e) is not None)

    async def housekeep(self) -> None:
        """One round: pause, close and expire tables (the lease holder of each), pick
        up events written by ``stich admin``, close sockets of ended sessions, and once
        an hour delete expired sessions and old guests."""
        await self._tend_tables()
        for actor in list(self.actors.values()):  # finished tables loaded to be read
            self.forget(actor)
        metrics.TABLES.set(self.live_count())
        await self._check_sessions()
        if time.monotonic() - self._purged > 3600:
            self._purged = time.monotonic()
            sessions, guests = await self.store.purge(self.config.guest_days)
            if sessions or guests:
                log.info("purged %d expired sessions and %d old guests", sessions, guests)

    async def _tend_tables(self) -> None:
        rows = await self.store.live_tables()
        for table_id, seq, _, updated in rows:
            actor = self.actors.get(table_id)
            if actor is None and not self.config.multi:  # one process loads every table
                actor = await self.get(table_id)
            if actor is None:
                continue
            try:
                if actor.sitting.seq < seq:  # written by another process (stich admin)
                    await actor.catch_up(force=True)
                await actor.tend(updated)
            except Exception as e:
                if not _not_saved(e):
                    actor._trouble("housekeeping", e)
        live = {row[0] for row in rows}
        for actor in list(self.actors.values()):
            if actor.id not in live and not actor.sitting.over:
                try:  # over in the database but not here: ended by ``stich admin close``
                    await actor.catch_up(force=True)
                except Exception:
                    log.exception("table %s: housekeeping failed", actor.id)

    async def _check_sessions(self) -> None:
        """Close the sockets whose session ended elsewhere (expired, or removed by the
        operator)."""
        opened = {c.session for c in self.conns() if c.session is not None}
        if opened:
            self._drop_local(opened - await self.store.live_sessions(opened))

    async def _load_live(self) -> None:
        """Load (replay) the live tables after the start, so the site answers at once
        (200 tables of 400 events took 20 s); one asked for earlier loads on demand."""
        for table_id in await self.store.live_table_ids():
            try:  # (a table once loaded checks who is there: ``get``)
                await self.get(table_id)
            except Exception:
                log.exception("table %s could not be loaded", table_id)

    def _later_presence(self, actor: TableActor) -> None:
        async def check() -> None:
            if actor.owned:
                await actor.presence.check()

        asyncio.get_running_loop().call_later(
            self.config.presence_check,
            lambda: actor._keep_trying("presence check", check))

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        await self.services.close()
        for a in list(self.actors.values()):
            await a.close()
            if self.config.multi:
                with contextlib.suppress(Exception):
                    await self.store.drop_lease(a.id, self.worker_id)
        await self.bus.close()

    def forget(self, actor: TableActor) -> None:
        """Drop a finished table nobody watches from memory (it reloads on demand)."""
        if self.actors.get(actor.id) is actor and actor.sitting.over and not actor.conns:
            del self.actors[actor.id]

    async def _load(self, table_id: str, row: TableRow | None = None) -> Loaded | None:
        """A table from the database: its newest snapshot that lies at least
        :data:`RECENT` events back (else its newest), then the events after it, the last
        :data:`RECENT` of them rendered for every receiver.  Read and replayed in slices
        of :data:`LOAD_SLICE` events (the event loop serves others between them); a long
        replay (a table without a snapshot yet) writes one, :data:`RECENT` events before
        the end."""
        row = row if row is not None else await self.store.table(table_id)
        if row is None:
            return None
        settings = TableSettings.from_dict(row.settings)
        render_after = row.seq - RECENT
        found = await self.store.snapshot(table_id, snapshot.FORMAT,
                                          at_most=max(0, render_after)) \
            or await self.store.snapshot(table_id, snapshot.FORMAT)
        base = found[1] if found is not None else None
        s = snapshot.restore(settings, base) if base is not None else Sitting(settings)
        recent: deque[tuple[int, dict[int, str]]] = deque(maxlen=RECENT)
        taken: dict[str, Any] | None = None
        while True:
            chunk = await self.store.events(table_id, after=s.seq, limit=LOAD_SLICE)
            metrics.EVENTS_LOADED.inc(len(chunk))
            for ev in chunk:
                s.apply(ev)
                if ev.seq > render_after:
                    recent.append((ev.seq, event_texts(s, ev, _people_and_watchers(s))))
                elif ev.seq == render_after and s.seq - s.base >= SNAPSHOT_EVERY:
                    taken = base = snapshot.take(s)  # the next load begins here
                    s.forget_events()
            if len(chunk) < LOAD_SLICE:
                break
            await asyncio.sleep(0)  # a long log: the others' turn between two slices
        if taken is not None:
            await self.save_snapshot(table_id, taken, int(taken["seq"]))
        return Loaded(s, row, base, list(recent))

    async def save_snapshot(self, table_id: str, snap: dict[str, Any], keep_from: int) -> None:
        """Store a table's snapshot (and forget its snapshots before event
        ``keep_from``); a failure is logged: the log is the truth, the next load reads
        more of it."""
        try:
            await self.store.save_snapshot(table_id, int(snap["seq"]), snapshot.FORMAT,
                                           orjson.dumps(snap).decode(), keep_from)
        except Exception as e:
            log.warning("table %s: snapshot at %s not stored: %s", table_id, snap["seq"], e)

    async def get(self, table_id: str, made: Loaded | None = None,
                  row: TableRow | None = None) -> TableActor | None:
        """The table's actor, loaded from the database when it is not in memory yet
        (``made``: a table just created and stored, as it is; nothing to read back;
        ``row``: its row, already read)."""
        actor = self.actors.get(table_id)
        if actor is not None:
            return actor
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            actor = self.actors.get(table_id)
            if actor is not None:
                return actor
            loaded = made if made is not None else await self._load(table_id, row)
            if loaded is None:
                return None
            sitting = loaded.sitting
            actor = TableActor(self, table_id, sitting)
            actor.creator, actor.invite = loaded.row.created_by, loaded.row.invite
            actor.base = loaded.base
            actor.recent.extend(loaded.recent)
            self.actors[table_id] = actor
        if self.config.multi and not sitting.over:
            await self._try_lease(actor)  # (once the lease is ours: the presence check)
        elif sitting.started and not sitting.over:
            self._later_presence(actor)  # absent persons are away (and get a stand-in)
        actor.retime()
        actor.wake()
        return actor

    async def _try_lease(self, actor: TableActor) -> None:
        now = time.time()
        was = actor.owned
        actor.owned = await self.store.take_lease(actor.id, self.worker_id,
                                                  now + LEASE_SECONDS, now)
        if actor.owned and not was:
            await actor.catch_up()
            actor.retime()
            actor.wake()
            self._later_presence(actor)

    async def _lease_loop(self) -> None:
        """Renew our leases; take over tables whose owner died."""
        while True:
            await asyncio.sleep(LEASE_SECONDS / 3)
            try:
                table_ids = await self.store.live_table_ids()
            except Exception as e:  # the database is away: try again next round
                self.services.trouble.note("lease round", "-", e,
                                           self.services.saw(e) is not None)
                continue
            for table_id in table_ids:
                try:  # one table's trouble never stops the others' leases
                    actor = await self.get(table_id)
                    if actor is not None and not actor.sitting.over:
                        await self._try_lease(actor)
                except Exception as e:
                    self.services.trouble.note("lease", table_id, e,
                                               self.services.saw(e) is not None)

    async def _on_bus(self, table_id: str, seq: int) -> None:
        actor = self.actors.get(table_id)
        if actor is None:
            return
        if actor.sitting.seq < seq:
            await actor.catch_up()

    def table_info(self, actor: TableActor, receiver: int) -> dict[str, Any]:
        """The table as ``receiver`` sees it (:func:`stich.server.wire.table_info`)."""
        return table_info(actor.sitting, actor.id, receiver, invite=actor.invite,
                          connected={c.receiver for c in actor.conns})

    def welcome(self, actor: TableActor, conn: Conn) -> dict[str, Any]:
        conn.told = conn.receiver
        return welcome(actor.sitting, self.table_info(actor, conn.receiver), conn.receiver,
                       creator=conn.user_id is not None and conn.user_id == actor.creator,
                       timer=actor.timer_message())


def new_worker_id() -> str:
    return uuid.uuid4().hex[:16]
