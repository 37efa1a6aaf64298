"""Rate limits, back-off and quotas: how much one address, one account or one connection
may ask of the site.

A :class:`Rule` allows ``count`` requests per ``per`` seconds, as a generic cell rate
(GCRA): a burst of ``count`` at once, then one every ``per / count`` seconds.  A
:class:`Backoff` counts failures (wrong passwords) and, from the third on, locks the key
for a time that doubles with each further failure.  Both live in memory for one process
(:class:`MemoryLimiter`) or in Redis for several workers (:class:`RedisLimiter`), so that
a limit is the site's, not each worker's.

The site's numbers are a :class:`Limits`; ``stich serve --limits name=value,…`` (or
``STICH_LIMITS``) changes them.  Refusals are :class:`RateLimited` (HTTP 429 with
``Retry-After``).
"""

from __future__ import annotations

import abc
import contextlib
import dataclasses
import math
import time
from dataclasses import dataclass
from typing import Any

from stich.messages import StichError

__all__ = ["Backoff", "Bucket", "Limiter", "Limits", "MemoryLimiter", "RateLimited", "RedisLimiter",
           "Rule", "parse_limits"]


@dataclass(frozen=True)
class Rule:
    """``count`` requests per ``per`` seconds (a burst of ``count``, then evenly)."""

    count: int
    per: float

    @property
    def interval(self) -> float:
        return self.per / self.count


@dataclass(frozen=True)
class Backoff:
    """Free failures, then a lock of ``first`` seconds doubling per failure up to
    ``most``; failures are forgotten ``forget`` seconds after the last one."""

    free: int = 3
    first: float = 2.0
    most: float = 900.0
    forget: float = 3600.0

    def lock(self, failures: int) -> float:
        """Seconds locked after ``failures`` failures.

        >>> [Backoff().lock(n) for n in (1, 3, 4, 5, 20)]
        [0.0, 0.0, 2.0, 4.0, 900.0]
        """
        if failures <= self.free:
            return 0.0
        return float(min(self.most, self.first * 2.0 ** min(failures - self.free - 1, 30)))


class RateLimited(StichError):
    """A refusal for asking too often; ``retry_after`` seconds until it would pass."""

    def __init__(self, code: str, retry_after: float, **params: Any) -> None:
        seconds = max(1, math.ceil(retry_after))
        super().__init__(code, seconds=seconds, **params)
        self.retry_after = seconds


@dataclass(frozen=True)
class Limits:
    """Every number of the site's limits (the defaults are for a site of friends open to
    the internet; ``0`` in a count field switches that limit off)."""

    # per address (an IPv4 address or an IPv6 /64)
    guests_per_hour: int = 10
    registrations_per_hour: int = 5
    logins_per_5min: int = 30
    tables_per_hour: int = 30  # created, per address
    analyses_per_hour: int = 30  # started (not cached), per address
    sockets_per_address: int = 40  # open WebSockets at once (per worker)
    # per account
    account_tables_per_hour: int = 20
    account_open_tables: int = 5  # not over: waiting or running
    address_open_tables: int = 10
    bot_tables_per_hour: int = 6  # tables of bots alone, per account and per address
    bot_open_tables: int = 1  # of bots alone, per account, at once
    bot_table_games: int = 36  # the most games of a Skat list of bots alone
    account_analyses_per_hour: int = 10
    account_rule_sets: int = 30  # named rule sets one account keeps
    rule_set_changes_per_hour: int = 60  # rule sets saved, changed or deleted, per account
    tournaments_per_hour: int = 5  # tournaments created, per account and per address
    account_open_tournaments: int = 3  # an organiser's tournaments not over, at once
    tournament_actions_per_min: int = 30  # register, withdraw, organiser's actions, per account
    # per connection
    messages_per_10s: int = 40
    syncs_per_10s: int = 6
    chats_per_20s: int = 5  # chat lines of one account at one table
    socket_silence: float = 35.0  # a socket silent this long is closed (0: never)
    refusals_before_close: int = 60  # messages refused for their rate, then 1008
    # per table, whatever the number of connections: the events that do not change the
    # game (away, back, pause, resume, ready, end) of one seat, and watchers' chat lines
    seat_events_per_min: int = 10
    watcher_chats_per_min: int = 30
    # the password hashes
    hashes_at_once: int = 1  # the other core stays with the tables
    hashes_waiting: int = 16
    # analyses waiting for the one analysis process
    analyses_waiting: int = 4
    # tables without people
    idle_pause: float = 600.0  # no player connected: pause after this many seconds
    idle_close: float = 7 * 86400.0  # paused / abandoned that long: closed
    waiting_expire: float = 3600.0  # a table not started, unchanged that long: closed
    pause_most: float = 300.0  # a player's pause ends by itself after this (0: never)
    pauses_per_game: int = 1  # pauses one seat may begin in a game or round (0: any)

    def rule(self, field: str, per: float) -> Rule | None:
        count = int(getattr(self, field))
        return Rule(count, per) if count > 0 else None


def parse_limits(text: str | None, base: Limits | None = None) -> Limits:
    """``name=value,…`` over the defaults.

    >>> parse_limits("guests_per_hour=3, idle_pause=60").guests_per_hour
    3
    >>> parse_limits("nonsense=1")
    Traceback (most recent call last):
    ...
    ValueError: unknown limit 'nonsense' (known: guests_per_hour, ...)
    """
    limits = base or Limits()
    if not text:
        return limits
    fields = {f.name: f for f in dataclasses.fields(Limits)}
    changes: dict[str, Any] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        name, _, value = part.partition("=")
        name = name.strip()
        if name not in fields:
            known = ", ".join(list(fields)[:1]) + ", ..."
            raise ValueError(f"unknown limit {name!r} (known: {known})")
        kind = float if fields[name].type in ("float", float) else int
        try:
            changes[name] = kind(value.strip())
        except ValueError:
            raise ValueError(f"limit {name} needs a number, not {value.strip()!r}") from None
        if changes[name] < 0:
            raise ValueError(f"limit {name} cannot be negative")
    return dataclasses.replace(limits, **changes)


class Bucket:
    """One counter in memory (a connection's messages): ``take`` answers 0 and counts,
    or the seconds until the next would pass.

    >>> t = [0.0]; b = Bucket(Rule(2, 10.0), lambda: t[0])
    >>> b.take(), b.take(), b.take() > 0
    (0.0, 0.0, True)
    >>> t[0] = 5.0; b.take()
    0.0
    """

    def __init__(self, rule: Rule, clock: Any = time.monotonic) -> None:
        self.rule = rule
        self.clock = clock
        self.tat = 0.0

    def take(self) -> float:
        now = float(self.clock())
        new = max(self.tat, now) + self.rule.interval
        if new - now > self.rule.per + 1e-9:
            return new - self.rule.per - now
        self.tat = new
        return 0.0


class Limiter(abc.ABC):
    """Counts per key.  ``hit`` counts a request and answers 0, or the seconds until it
    would pass (and counts nothing); ``failed`` / ``locked`` / ``clear`` are the back-off."""

    @abc.abstractmethod
    async def hit(self, key: str, rule: Rule) -> float: ...

    @abc.abstractmethod
    async def failed(self, key: str, backoff: Backoff) -> float:
        """Count a failure; the seconds the key is now locked."""

    @abc.abstractmethod
    async def locked(self, key: str, backoff: Backoff) -> float: ...

    @abc.abstractmethod
    async def clear(self, key: str) -> None: ...

    async def close(self) -> None:
        return None


class MemoryLimiter(Limiter):
    """One process: dictionaries, pruned of what has run out when they grow."""

    PRUNE_AT = 50_000

    def __init__(self, clock: Any = time.monotonic) -> None:
        self.clock = clock
        self._tat: dict[str, float] = {}
        self._fails: dict[str, tuple[int, float]] = {}  # failures, time of the last

    def _prune(self, now: float) -> None:
        if len(self._tat) > self.PRUNE_AT:
            self._tat = {k: t for k, t in self._tat.items() if t > now}
        if len(self._fails) > self.PRUNE_AT:
            self._fails = {k: v for k, v in self._fails.items() if now - v[1] < 3600 * 24}

    async def hit(self, key: str, rule: Rule) -> float:
        now = float(self.clock())
        self._prune(now)
        tat = max(self._tat.get(key, now), now)
        new = tat + rule.interval
        if new - now > rule.per + 1e-9:
            return new - rule.per - now
        self._tat[key] = new
        return 0.0

    async def failed(self, key: str, backoff: Backoff) -> float:
        now = float(self.clock())
        self._prune(now)
        n, last = self._fails.get(key, (0, now))
        if now - last > backoff.forget:
            n = 0
        self._fails[key] = (n + 1, now)
        return backoff.lock(n + 1)

    async def locked(self, key: str, backoff: Backoff) -> float:
        n, last = self._fails.get(key, (0, 0.0))
        if not n:
            return 0.0
        now = float(self.clock())
        if now - last > backoff.forget:
            return 0.0
        return max(0.0, last + backoff.lock(n) - now)

    async def clear(self, key: str) -> None:
        self._fails.pop(key, None)


_GCRA = """
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local per = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local new = tat + interval
if new - now > per + 1e-9 then return tostring(new - per - now) end
redis.call('SET', KEYS[1], tostring(new), 'PX', math.ceil((new - now) * 1000) + 1)
return '0'
"""

_FAIL = """
local now = tonumber(ARGV[1])
local forget = tonumber(ARGV[2])
local n = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
local last = tonumber(redis.call('HGET', KEYS[1], 'last') or '0')
if now - last > forget then n = 0 end
redis.call('HSET', KEYS[1], 'n', n + 1, 'last', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(forget * 1000))
return n + 1
"""


class RedisLimiter(Limiter):
    """Several workers: the same counts in Redis (one script call per request).  While
    Redis does not answer, each worker counts on its own (a :class:`MemoryLimiter`):
    the limits still hold, per worker, and nothing is refused for Redis being away."""

    PREFIX = "stich:limit:"

    def __init__(self, url: str, services: Any = None) -> None:
        import redis.asyncio as redis

        self.redis: Any = redis.from_url(url, decode_responses=True,
                                         socket_connect_timeout=2.0, socket_timeout=5.0)
        self._gcra = self.redis.register_script(_GCRA)
        self._fail = self.redis.register_script(_FAIL)
        self.local = MemoryLimiter()
        self.services = services  # (a health.Services: told when Redis fails)

    def _away(self, e: Exception) -> None:
        from redis.exceptions import RedisError

        if not isinstance(e, RedisError | OSError):
            raise e
        if self.services is not None:
            from stich.server.health import REDIS

            self.services.failed(REDIS, e)

    async def hit(self, key: str, rule: Rule) -> float:
        try:
            wait = await self._gcra(keys=[self.PREFIX + key], args=[
                repr(time.time()), repr(rule.interval), repr(rule.per)])
        except Exception as e:
            self._away(e)
            return await self.local.hit(key, rule)
        return float(wait)

    async def failed(self, key: str, backoff: Backoff) -> float:
        try:
            n = await self._fail(keys=[self.PREFIX + "fail:" + key],
                                 args=[repr(time.time()), repr(backoff.forget)])
        except Exception as e:
            self._away(e)
            return await self.local.failed(key, backoff)
        return backoff.lock(int(n))

    async def locked(self, key: str, backoff: Backoff) -> float:
        try:
            got = await self.redis.hmget(self.PREFIX + "fail:" + key, ["n", "last"])
        except Exception as e:
            self._away(e)
            return await self.local.locked(key, backoff)
        if not got or got[0] is None:
            return await self.local.locked(key, backoff)  # (counted here while away)
        n, last = int(got[0]), float(got[1])
        now = time.time()
        if now - last > backoff.forget:
            return 0.0
        return max(0.0, last + backoff.lock(n) - now)

    async def clear(self, key: str) -> None:
        await self.local.clear(key)
        try:
            await self.redis.delete(self.PREFIX + "fail:" + key)
        except Exception as e:
            self._away(e)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.redis.aclose()
