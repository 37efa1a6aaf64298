"""The fan-out between workers, and who is connected where.

One process needs no fan-out: :class:`LocalBus` only counts connections.  Several
workers (several processes on PostgreSQL) use :class:`RedisBus`: after a worker commits
events it publishes ``table:seq`` on one channel; every worker that holds sockets of that
table reads the new events from the database and sends them on.  The database stays the
only source of truth; a lost message costs only a delay (the next one, or a client's
``sync``, catches up).

Presence: per table, how many connections each seat has on each worker (spectators
count as seat -1).  In Redis a
hash per table, with one field per worker and seat; a worker's fields count only while
its heartbeat key lives, so a killed worker's connections do not keep a seat present.

Redis may go away (issue 39): nothing here raises then.  A publish that fails is
dropped (the other workers catch up when Redis is back: :meth:`Bus.start`'s
``on_resync``); each worker keeps its own presence counts and writes them all again
when Redis is back (a Redis restarted without its data has lost them); while it is
away, :meth:`RedisBus.present` answers from this worker's own connections.  The
listener subscribes again by itself.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from stich.server.health import REDIS, Backoff, Services

__all__ = ["Bus", "LocalBus", "RedisBus"]

OnEvent = Callable[[str, int], Awaitable[None]]
OnControl = Callable[[str, str], Awaitable[None]]
OnResync = Callable[[], Awaitable[None]]


class Bus(abc.ABC):
    """What the hub needs from a bus."""

    worker: str

    @abc.abstractmethod
    async def start(self, on_event: OnEvent, on_control: OnControl | None = None,
                    on_resync: OnResync | None = None) -> None:
        """Listen: ``on_event`` for another worker's events, ``on_control`` for its
        requests, ``on_resync`` after messages may have been lost (Redis was away)."""

    async def ping(self) -> None:  # noqa: B027 (one process: nothing to ask)
        """Raise unless the bus's service answers."""

    @abc.abstractmethod
    async def publish(self, table_id: str, seq: int) -> None: ...

    @abc.abstractmethod
    async def control(self, kind: str, data: str) -> None:
        """Tell the other workers something (``sessions``: close the sockets of these
        ended sessions)."""

    @abc.abstractmethod
    async def presence(self, table_id: str, seat: int, delta: int) -> None: ...

    @abc.abstractmethod
    async def present(self, table_id: str) -> set[int]: ...

    @abc.abstractmethod
    async def close(self) -> None: ...


class LocalBus(Bus):
    """One process: nothing to fan out; presence counted here."""

    def __init__(self, worker: str) -> None:
        self.worker = worker
        self._counts: dict[str, Counter[int]] = {}

    async def start(self, on_event: OnEvent, on_control: OnControl | None = None,
                    on_resync: OnResync | None = None) -> None:
        return None

    async def publish(self, table_id: str, seq: int) -> None:
        return None

    async def control(self, kind: str, data: str) -> None:
        return None

    async def presence(self, table_id: str, seat: int, delta: int) -> None:
        c = self._counts.setdefault(table_id, Counter())
        c[seat] += delta
        if c[seat] <= 0:
            del c[seat]

    async def present(self, table_id: str) -> set[int]:
        return set(self._counts.get(table_id, ()))

    async def close(self) -> None:
        return None


class RedisBus(Bus):
    """Several workers: Redis pub/sub for the fan-out, hashes for presence (see the
    module's text for what happens while Redis is away)."""

    CHANNEL = "stich:events"
    CONTROL = "stich:control"
    HEARTBEAT = 10.0  # seconds; a worker's key lives 3 heartbeats

    def __init__(self, url: str, worker: str, services: Services | None = None) -> None:
        import redis.asyncio as redis

        self.worker = worker
        self.redis: Any = redis.from_url(url, decode_responses=True,
                                         socket_connect_timeout=2.0, socket_timeout=5.0)
        self.services = services or Services((REDIS,))
        self._tasks: list[asyncio.Task[None]] = []
        # this worker's connections per table and seat: the truth its fields in Redis
        # are written from again after an outage
        self._mine: dict[str, Counter[int]] = {}
        self._lost = False  # a write failed: everything is written again when back
        self._unsent: dict[str, int] = {}  # tables whose publish failed: their last seq
        self._version = 0  # counts the changes of _mine

    async def start(self, on_event: OnEvent, on_control: OnControl | None = None,
                    on_resync: OnResync | None = None) -> None:
        await self.redis.ping()
        await self._beat()
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(self.CHANNEL, self.CONTROL)
        self._tasks.append(asyncio.create_task(
            self._listen(pubsub, on_event, on_control, on_resync)))
        self._tasks.append(asyncio.create_task(self._heartbeat()))

    async def ping(self) -> None:
        """Raise unless Redis answers; once it does after an outage, write again what
        could not be written (:meth:`_restore`)."""
        try:
            await self.redis.ping()
        except Exception:
            # (the listener may never see the outage: redis-py's pub/sub connection
            # reconnects and subscribes again by itself; a Redis restarted meanwhile has
            # lost every worker's presence, written again once it answers)
            self._lost = True
            raise
        if self._lost:
            await self._restore()

    def _failed(self, e: BaseException) -> None:
        self._lost = True
        self.services.failed(REDIS, e)

    async def _listen(self, pubsub: Any, on_event: OnEvent, on_control: OnControl | None,
                      on_resync: OnResync | None) -> None:
        """Hand on the other workers' messages; when the connection breaks, subscribe
        again (with back-off) and then write this worker's presence again and let the
        hub catch up with what it may have missed."""
        backoff = Backoff(0.25, 2.0)
        while True:
            try:
                if pubsub is None:
                    pubsub = self.redis.pubsub()
                    await pubsub.subscribe(self.CHANNEL, self.CONTROL)
                    await self._restore()
                    self.services.answered(REDIS)
                    if on_resync is not None:
                        with contextlib.suppress(Exception):
                            await on_resync()
                backoff.reset()
                async for msg in pubsub.listen():
                    await self._hand_on(msg, on_event, on_control)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # Redis went away: subscribe again once it is back
                self._failed(e)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                pubsub = None
                await backoff.sleep()

    async def _hand_on(self, msg: dict[str, Any], on_event: OnEvent,
                       on_control: OnControl | None) -> None:
        if msg.get("type") != "message":
            return
        worker, first, rest = str(msg["data"]).split(":", 2)
        if worker == self.worker:
            return
        with contextlib.suppress(Exception):  # one bad table never stops the fan-out
            if msg.get("channel") == self.CONTROL:
                if on_control is not None:
                    await on_control(first, rest)
            else:
                await on_event(first, int(rest))

    async def _restore(self) -> None:
        """After an outage: the heartbeat, this worker's presence fields as its own
        counts say (the ones of seats it no longer has deleted), and the publishes that
        failed, again (the other workers' sockets of those tables catch up)."""
        await self._beat()
        if not self._lost:
            return
        for table_id, seq in list(self._unsent.items()):
            await self.redis.publish(self.CHANNEL, f"{self.worker}:{table_id}:{seq}")
            self._unsent.pop(table_id, None)
        prefix = f"{self.worker}:"
        while True:  # again if a connection came or went meanwhile (not written then)
            version = self._version
            for table_id, counts in list(self._mine.items()):
                key = f"stich:presence:{table_id}"
                fields: dict[str, str] = await self.redis.hgetall(key)
                stale = [f for f in fields if f.startswith(prefix)
                         and int(f[len(prefix):]) not in counts]
                if stale:
                    await self.redis.hdel(key, *stale)
                if counts:
                    await self.redis.hset(key, mapping={f"{prefix}{seat}": n
                                                        for seat, n in counts.items()})
                elif self._mine.get(table_id) is counts:
                    del self._mine[table_id]
            if version == self._version:
                break
        self._lost = False

    async def _beat(self) -> None:
        await self.redis.set(f"stich:worker:{self.worker}", "1", ex=int(self.HEARTBEAT * 3))

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.HEARTBEAT)
            try:
                await self._beat()
            except Exception as e:
                self._failed(e)

    async def publish(self, table_id: str, seq: int) -> None:
        if self._lost:
            self._unsent[table_id] = seq  # published when Redis is back
            return
        try:
            await self.redis.publish(self.CHANNEL, f"{self.worker}:{table_id}:{seq}")
        except Exception as e:  # the others catch up once Redis is back
            self._unsent[table_id] = seq
            self._failed(e)

    async def control(self, kind: str, data: str) -> None:
        try:
            await self.redis.publish(self.CONTROL, f"{self.worker}:{kind}:{data}")
        except Exception as e:
            self._failed(e)

    async def presence(self, table_id: str, seat: int, delta: int) -> None:
        counts = self._mine.setdefault(table_id, Counter())
        counts[seat] += delta
        self._version += 1
        if counts[seat] <= 0:
            del counts[seat]
        if self._lost:
            return  # written whole when Redis is back
        key = f"stich:presence:{table_id}"
        try:
            n = await self.redis.hincrby(key, f"{self.worker}:{seat}", delta)
            if n <= 0:
                await self.redis.hdel(key, f"{self.worker}:{seat}")
        except Exception as e:
            self._failed(e)
        if not counts and not self._lost and self._mine.get(table_id) is counts:
            del self._mine[table_id]  # (another call may have done so meanwhile)

    async def present(self, table_id: str) -> set[int]:
        """The seats connected on any worker; while Redis is away, on this one."""
        if self._lost:
            return set(self._mine.get(table_id, ()))
        try:
            return await self._present(table_id)
        except Exception as e:
            self._failed(e)
            return set(self._mine.get(table_id, ()))

    async def _present(self, table_id: str) -> set[int]:
        fields: dict[str, str] = await self.redis.hgetall(f"stich:presence:{table_id}")
        if not fields:
            return set()
        workers = sorted({f.split(":", 1)[0] for f in fields})
        alive = await self.redis.mget([f"stich:worker:{w}" for w in workers])
        live = {w for w, a in zip(workers, alive, strict=True) if a}
        out = set()
        for f, n in fields.items():
            w, seat = f.split(":", 1)
            if w in live and int(n) > 0:
                out.add(int(seat))
        return out

    async def close(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        with contextlib.suppress(Exception):
            await self.redis.delete(f"stich:worker:{self.worker}")
        with contextlib.suppress(Exception):
            await self.redis.aclose()
