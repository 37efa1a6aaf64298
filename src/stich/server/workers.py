"""Bots and analyses off the event loop: a pool of worker processes with time limits.

A bot gets the seat's view (never the state) and a seed, in another process; when it
does not answer within the per-move limit, the table does not wait: a random legal action
(drawn from the same seed) is played instead.  Analyses of finished Skat games run in the
same pool with their own limit.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import heapq
import itertools
import multiprocessing
import os
import random
import sys
import time
from multiprocessing.connection import Connection
from typing import Any

from stich.bots import (
    BAPTISTEN_BOTS,
    BOTS,
    BaptistenRandomBot,
    RandomBot,
)
from stich.games import GAMES
from stich.games import get as game_named
from stich.record import bock_factor, replay_skat
from stich.skat.analysis import analyze

__all__ = ["Workers", "analyse_record", "choose_action"]

_BOTS: dict[tuple[str, str], Any] = {}

SLOW_BOT = "STICH_TEST_SLOW_BOT"
"""For the tests of the per-move time limit only: with this environment variable
(seconds) the bot level ``slow`` is there (:func:`register_slow_bot`)."""


class SlowBot:
    """The test level ``slow``: thinks ``seconds`` before each move, then plays as the
    random bot it wraps (of either game)."""

    name = "slow"

    def __init__(self, bot: Any, seconds: float) -> None:
        self.bot, self.seconds = bot, seconds

    def choose(self, view: Any, rng: random.Random) -> Any:
        time.sleep(self.seconds)
        return self.bot.choose(view, rng)


def register_slow_bot() -> None:
    """With :data:`SLOW_BOT` in the environment: ``slow`` joins both games' bots, so that
    a table's seat may ask for it.  The one place that reads the variable; run when this
    module loads, in the server (the app imports it) and in each bot process."""
    text = os.environ.get(SLOW_BOT)
    if not text:
        return
    seconds = float(text)
    BOTS["slow"] = lambda: SlowBot(RandomBot(), seconds)
    BAPTISTEN_BOTS["slow"] = lambda: SlowBot(BaptistenRandomBot(), seconds)


register_slow_bot()


def choose_action(game: str, level: str, view: Any, seed: int) -> str:
    """A bot's action text for a view (runs in a worker process)."""
    key = (game, level)
    bot = _BOTS.get(key)
    if bot is None:
        bot = game_named(game).make_bot(level)
        _BOTS[key] = bot
    return str(bot.choose(view, random.Random(seed)))


def warm_up() -> int:
    """Run once in each new worker process: the bots are imported and ready."""
    for game in GAMES.values():  # (the learned bot reads its network here)
        for level in game.bot_levels:
            game.make_bot(level)
    return os.getpid()


def fallback_action(view: Any, seed: int) -> str:
    """A random legal action: what plays when a bot runs out of time."""
    return str(random.Random(seed).choice(list(view.legal_actions)))


def analyse_record(record: dict[str, Any]) -> dict[str, Any]:
    """The open-card analysis of a finished Skat game (as ``stich analyze --json``),
    counted with the Bock factor the record names."""
    state = replay_skat(record)
    result = analyze(state, bock=bock_factor(record))
    return {"players": list(record.get("players", [])), **result.to_dict()}


def _serve(conn: Connection) -> None:
    """A worker process: import the bots, say ready, then run one task at a time.  It
    runs at a lower priority (nice 10) than the server, so that bots thinking (or an
    analysis) never take the cores from the tables' own work."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    warm_up()
    conn.send(("ready", None))
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("ok", fn(*args)))
        except Exception as e:  # the error goes back to the caller
            conn.send(("error", e))


class _Worker:
    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child,), daemon=True)
        self.proc.start()
        child.close()

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.proc.kill()
        with contextlib.suppress(Exception):
            self.conn.close()


class Pool:
    """``size`` worker processes, one task each at a time.  A task's time limit runs
    from the moment a worker takes it (not while it waits for a free worker); a task over
    its limit is stopped by killing its worker, which is replaced in the background, so
    the other workers and their tables go on.  Waiting tasks get a free worker by their
    priority (lower first), then in order of arrival.  ``size`` 0: a thread in this
    process (no isolation, for tests)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.timeouts = 0
        self._idle: list[_Worker] | None = None
        self._waiting: list[tuple[int, int, asyncio.Future[_Worker]]] = []
        self._order = itertools.count()
        self._all: set[_Worker] = set()
        self._threads: concurrent.futures.ThreadPoolExecutor | None = None
        self.closed = False

    def _free(self) -> list[_Worker]:
        if self._idle is None:
            self._idle = []
            for _ in range(self.size):
                self._spawn()
        return self._idle

    @property
    def waiting(self) -> int:
        """Tasks waiting for a free worker."""
        return sum(1 for *_, fut in self._waiting if not fut.done())

    async def _acquire(self, priority: int) -> _Worker:
        free = self._free()
        if free and not self._waiting:
            return free.pop()
        fut: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), fut))
        self._hand_out()
        try:
            return await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # given a worker in the meantime
                self._release(fut.result())
            raise

    def _release(self, w: _Worker) -> None:
        self._free().append(w)
        self._hand_out()

    def _hand_out(self) -> None:
        free = self._free()
        while free and self._waiting:
            _, _, fut = heapq.heappop(self._waiting)
            if not fut.done():
                fut.set_result(free.pop())

    def _spawn(self) -> None:
        if self.closed:  # shutting down: no new processes
            return
        loop = asyncio.get_running_loop()

        async def start() -> None:
            w = await loop.run_in_executor(None, _Worker)
            self._all.add(w)
            if self.closed:
                self._retire(w)
                return
            try:
                kind, _ = await self._reply(w)
            except Exception:
                kind = "broken"
            if kind == "ready":
                self._release(w)
            else:
                self._retire(w)
                await asyncio.sleep(1.0)
                self._spawn()

        task = loop.create_task(start())
        _KEEP.add(task)
        task.add_done_callback(_KEEP.discard)

    async def _reply(self, w: _Worker) -> tuple[str, Any]:
        """The worker's next message, read without blocking the event loop."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[tuple[str, Any]] = loop.create_future()
        fd = w.conn.fileno()

        def readable() -> None:
            loop.remove_reader(fd)
            if fut.done():
                return
            try:
                fut.set_result(w.conn.recv())
            except Exception as e:
                fut.set_exception(e)

        loop.add_reader(fd, readable)
        try:
            return await fut
        finally:
            with contextlib.suppress(Exception):
                loop.remove_reader(fd)

    def _retire(self, w: _Worker) -> None:
        self._all.discard(w)
        w.kill()

    async def run(self, timeout: float, fn: Any, *args: Any, priority: int = 1) -> Any:
        """``fn(*args)`` in a worker within ``timeout`` seconds (TimeoutError after);
        ``priority`` orders the tasks waiting for a worker (lower first)."""
        if self.size <= 0:
            if self._threads is None:
                self._threads = concurrent.futures.ThreadPoolExecutor(1)
            loop = asyncio.get_running_loop()
            return await asyncio.wait_for(loop.run_in_executor(self._threads, fn, *args),
                                          timeout)
        w = await self._acquire(priority)
        try:
            w.conn.send((fn, args))
            kind, value = await asyncio.wait_for(self._reply(w), timeout)
        except BaseException:
            # over time, cancelled or broken: the worker may still be busy; replace it
            if isinstance(sys.exc_info()[1], TimeoutError):
                self.timeouts += 1
            self._retire(w)
            self._spawn()
            raise
        self._release(w)
        if kind == "error":
            raise value
        return value

    async def start(self) -> None:
        self._free()

    def close(self) -> None:
        self.closed = True
        for w in list(self._all):
            self._retire(w)
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)


_KEEP: set[asyncio.Task[None]] = set()


class Workers:
    """Bots and analyses, each in their own pool of processes (``processes`` = 0: a
    thread in this process, for tests that need no isolation), so that a long analysis
    never holds up a bot."""

    def __init__(self, processes: int = 2, bot_time: float = 5.0,
                 analysis_time: float = 120.0) -> None:
        self.bot_time = bot_time
        self.analysis_time = analysis_time
        self.bots = Pool(processes)
        self.analyses = Pool(min(processes, 1))

    @property
    def timeouts(self) -> int:
        """Bot moves cut off at their time limit so far."""
        return self.bots.timeouts

    async def start(self) -> None:
        """Start the bots' processes now rather than at the first bot move."""
        await self.bots.start()

    async def bot_action(self, game: str, level: str, view: Any, seed: int,
                         urgent: bool = False) -> str:
        """The bot's action text, or a random legal one when it is out of time.  An
        ``urgent`` move (a person is waiting for it) goes before the others."""
        from stich.server.metrics import BOT_SECONDS

        t0 = time.perf_counter()
        try:
            text: str = await self.bots.run(self.bot_time, choose_action, game, level,
                                            view, seed, priority=0 if urgent else 1)
            return text
        except (TimeoutError, EOFError, OSError):
            return fallback_action(view, seed)
        finally:
            BOT_SECONDS.observe(time.perf_counter() - t0)

    async def analysis(self, record: dict[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = await self.analyses.run(self.analysis_time, analyse_record,
                                                         record)
        return result

    def close(self) -> None:
        self.bots.close()
        self.analyses.close()
