"""Bots and analyses off the event loop: a pool of worker processes with time limits.

A bot gets the seat's view (never the state) and a seed, in another process; when it
does not answer within the per-move limit, the table does not wait: a random legal action
(drawn from the same seed) is played instead.  Analyses of finished Skat games run in the
same pool with their own limit.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import random
from typing import Any

from stich.bots import make_baptisten_bot, make_bot
from stich.record import replay_skat
from stich.server.sitting import bot_engine_name
from stich.skat.analysis import analyze

__all__ = ["Workers", "analyse_record", "choose_action"]

_BOTS: dict[tuple[str, str], Any] = {}


def choose_action(game: str, level: str, view: Any, seed: int) -> str:
    """A bot's action text for a view (runs in a worker process)."""
    key = (game, level)
    bot = _BOTS.get(key)
    if bot is None:
        name = bot_engine_name(level)
        bot = make_bot(name) if game == "skat" else make_baptisten_bot(name)
        _BOTS[key] = bot
    return str(bot.choose(view, random.Random(seed)))


def fallback_action(view: Any, seed: int) -> str:
    """A random legal action: what plays when a bot runs out of time."""
    return str(random.Random(seed).choice(list(view.legal_actions)))


def analyse_record(record: dict[str, Any]) -> dict[str, Any]:
    """The open-card analysis of a finished Skat game (as ``stich analyze --json``)."""
    state = replay_skat(record)
    return {"players": list(record.get("players", [])), **analyze(state).to_dict()}


class Workers:
    """The process pool (``processes`` = 0: a thread in this process, for tests that
    need no isolation)."""

    def __init__(self, processes: int = 1, bot_time: float = 5.0,
                 analysis_time: float = 120.0) -> None:
        self.processes = processes
        self.bot_time = bot_time
        self.analysis_time = analysis_time
        self._pool: concurrent.futures.Executor | None = None
        self.timeouts = 0

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            if self.processes > 0:
                ctx = multiprocessing.get_context("spawn")
                self._pool = concurrent.futures.ProcessPoolExecutor(self.processes,
                                                                    mp_context=ctx)
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(1)
        return self._pool

    async def _run(self, timeout: float, fn: Any, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        try:
            fut = loop.run_in_executor(self._executor(), fn, *args)
        except concurrent.futures.BrokenExecutor:
            self._pool = None
            fut = loop.run_in_executor(self._executor(), fn, *args)
        try:
            return await asyncio.wait_for(fut, timeout)
        except concurrent.futures.BrokenExecutor:
            self._pool = None
            raise

    async def bot_action(self, game: str, level: str, view: Any, seed: int) -> str:
        try:
            text: str = await self._run(self.bot_time, choose_action, game, level, view, seed)
            return text
        except (TimeoutError, concurrent.futures.BrokenExecutor):
            self.timeouts += 1
            return fallback_action(view, seed)

    async def analysis(self, record: dict[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = await self._run(self.analysis_time, analyse_record, record)
        return result

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
