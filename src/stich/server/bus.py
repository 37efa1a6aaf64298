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
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["Bus", "LocalBus", "RedisBus"]

OnEvent = Callable[[str, int], Awaitable[None]]
OnControl = Callable[[str, str], Awaitable[None]]


class Bus(abc.ABC):
    """What the hub needs from a bus."""

    worker: str

    @abc.abstractmethod
    async def start(self, on_event: OnEvent, on_control: OnControl | None = None) -> None: ...

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

    async def start(self, on_event: OnEvent, on_control: OnControl | None = None) -> None:
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
    """Several workers: Redis pub/sub for the fan-out, hashes for presence."""

    CHANNEL = "stich:events"
    CONTROL = "stich:control"
    HEARTBEAT = 10.0  # seconds; a worker's key lives 3 heartbeats

    def __init__(self, url: str, worker: str) -> None:
        import redis.asyncio as redis

        self.worker = worker
        self.redis: Any = redis.from_url(url, decode_responses=True)
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self, on_event: OnEvent, on_control: OnControl | None = None) -> None:
        await self.redis.ping()
        await self._beat()
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(self.CHANNEL, self.CONTROL)
        self._tasks.append(asyncio.create_task(self._listen(pubsub, on_event, on_control)))
        self._tasks.append(asyncio.create_task(self._heartbeat()))

    async def _listen(self, pubsub: Any, on_event: OnEvent,
                      on_control: OnControl | None) -> None:
        async for msg in pubsub.listen():
            if msg.get("type") != "message":
                continue
            worker, first, rest = str(msg["data"]).split(":", 2)
            if worker == self.worker:
                continue
            with contextlib.suppress(Exception):  # one bad table never stops the fan-out
                if msg.get("channel") == self.CONTROL:
                    if on_control is not None:
                        await on_control(first, rest)
                else:
                    await on_event(first, int(rest))

    async def _beat(self) -> None:
        await self.redis.set(f"stich:worker:{self.worker}", "1", ex=int(self.HEARTBEAT * 3))

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.HEARTBEAT)
            with contextlib.suppress(Exception):
                await self._beat()

    async def publish(self, table_id: str, seq: int) -> None:
        await self.redis.publish(self.CHANNEL, f"{self.worker}:{table_id}:{seq}")

    async def control(self, kind: str, data: str) -> None:
        await self.redis.publish(self.CONTROL, f"{self.worker}:{kind}:{data}")

    async def presence(self, table_id: str, seat: int, delta: int) -> None:
        key = f"stich:presence:{table_id}"
        n = await self.redis.hincrby(key, f"{self.worker}:{seat}", delta)
        if n <= 0:
            await self.redis.hdel(key, f"{self.worker}:{seat}")

    async def present(self, table_id: str) -> set[int]:
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
        await self.redis.aclose()
