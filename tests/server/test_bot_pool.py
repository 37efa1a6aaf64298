"""Bots run off the event loop with a time limit per move: a bot that thinks too long is
stopped and a random legal move is played for it, and other tables go on meanwhile."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.harness import Client, Server


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = f"sqlite:///{tmp_path_factory.mktemp('slow') / 'stich.db'}"
    srv = Server(db, env={"STICH_TEST_SLOW_BOT": "60", "STICH_BOT_TIME": "1"})
    srv.start()
    yield srv
    srv.stop()


def test_a_slow_bot_is_cut_off_and_other_tables_go_on(slow_server: Server) -> None:
    owner = Client(slow_server)
    owner.register(f"Eva{uuid.uuid4().hex[:6]}")
    slow = owner.create(game="skat", games=3, seats=["bot:slow", "bot:random", "bot:random"])
    person = Client(slow_server)
    person.register(f"Udo{uuid.uuid4().hex[:6]}")
    quick = person.create(game="skat", games=3, seats=["me", "bot:random", "bot:random"])

    async def go() -> tuple[list[dict[str, Any]], list[dict[str, Any]], float]:
        watch = await owner.connect(slow["table"]["id"])
        me = await person.connect(quick["table"]["id"])
        rng = random.Random(3)
        t0 = time.monotonic()
        ended = False
        while not ended:
            msg = await me.recv(30)
            assert msg["type"] != "error", msg
            ended = msg["type"] == "event" and msg["kind"] == "end"
            v = me.view
            if msg["type"] in ("event", "snapshot") and v and v["legal"] \
                    and v["to_move"] == v["seat"]:
                await me.act(rng.choice(v["legal"]))
        took = time.monotonic() - t0
        for _ in range(2):  # two moves of the slow bot, each cut off after 1 s
            await watch.until(lambda m: m.get("kind") == "act" and m["seat"] == 0, 30)
        return me.messages, watch.messages, took

    mine, watched, took = asyncio.run(go())
    # the person's list of three games ended although a bot elsewhere sleeps 60 s per move
    assert sum(1 for m in mine if m.get("kind") == "game_over") == 3
    assert took < 60
    # the slow bot's table moved on: its moves were cut off after 1 s and replaced
    slow_moves = [m for m in watched if m.get("kind") == "act" and m["seat"] == 0]
    assert len(slow_moves) >= 2
    health = owner.get("/api/health").json()
    assert health["bot_timeouts"] >= len(slow_moves)


def test_waiting_tasks_get_a_worker_by_priority() -> None:
    """A table where a person waits (priority 0) goes before tables of bots alone
    (priority 1) that asked earlier: the one worker is busy, three tasks of bots alone
    wait, then a person's; the person's runs first."""
    from stich.server.workers import Pool

    async def go() -> list[str]:
        pool = Pool(1)
        await pool.start()
        done: list[str] = []
        await pool.run(60, str, "warm")  # the worker is up

        async def task(name: str, priority: int) -> None:
            done.append(await pool.run(60, str, name, priority=priority))

        busy = asyncio.create_task(pool.run(60, time.sleep, 1.0))
        await asyncio.sleep(0.2)
        waiting = [asyncio.create_task(task(f"bots{i}", 1)) for i in range(3)]
        await asyncio.sleep(0.1)
        waiting.append(asyncio.create_task(task("person", 0)))
        await busy
        await asyncio.gather(*waiting)
        pool.close()
        return done

    assert asyncio.run(asyncio.wait_for(go(), 120)) == ["person", "bots0", "bots1", "bots2"]
