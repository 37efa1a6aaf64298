"""``GET /metrics``: off unless configured, only for the bearer of the token, and what it
counts is what happened (one process on SQLite; two workers on PostgreSQL + Redis,
whose figures a scrape of either sums)."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import httpx
import pytest

from tests import services
from tests.server.harness import ROOMY, Client, Server, database
from tests.server.proto_helpers import error_of, kind, play_random, uid

TOKEN = "metrics-" + "x" * 24


def _value(text: str, name: str) -> float:
    """The sum of a metric's samples in Prometheus' text format: over its labels, or
    the one sample named with its labels (``name{by="bot"}``)."""
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name + " ") or ("{" not in name and line.startswith(name + "{")):
            total += float(line.rsplit(" ", 1)[1])
    return total


def _scrape(server: Server) -> str:
    r = httpx.get(server.url + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return r.text


def test_metrics_are_off_unless_configured(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as url, Server(url) as srv:
        r = httpx.get(srv.url + "/metrics", headers={"Authorization": "Bearer x"})
        assert error_of(r)[:2] == (404, "server.no_such_path")


def test_metrics_for_the_bearer_of_the_token(tmp_path: Path) -> None:
    env = {"STICH_METRICS_TOKEN": TOKEN, "STICH_HOUSEKEEPING": "0.3", "STICH_LIMITS": ROOMY}
    with database("sqlite", tmp_path) as url, Server(url, env=env) as srv:
        for headers in ({}, {"Authorization": "Bearer wrong"},
                        {"Authorization": TOKEN}):
            r = httpx.get(srv.url + "/metrics", headers=headers)
            assert error_of(r)[:2] == (401, "server.metrics_token"), headers
        before = _scrape(srv)
        c = Client(srv)
        c.guest(uid("Met"))
        tid = c.create(game="skat", games=3, seats=["me", "bot:random", "bot:random"]
                       )["table"]["id"]

        async def play() -> int:
            ws = await c.connect(tid)
            await play_random(ws, random.Random(2), kind("game_over"))
            mine = sum(1 for m in ws.messages if m.get("kind") == "act"
                       and m["data"].get("by") == "player")
            bots = sum(1 for m in ws.messages if m.get("kind") == "act"
                       and m["data"].get("by") == "bot")
            text = await asyncio.to_thread(_scrape, srv)
            assert _value(text, "stich_connections") == 1
            await ws.close()
            return mine * 1000 + bots
        both = asyncio.run(asyncio.wait_for(play(), 120))
        mine, bots = divmod(both, 1000)
        time.sleep(0.8)  # a housekeeping round
        after = _scrape(srv)
        assert _value(after, 'stich_actions_total{by="player"}') >= mine >= 1
        assert _value(after, 'stich_actions_total{by="bot"}') >= bots >= 1
        assert _value(after, "stich_action_seconds_count") >= mine
        assert _value(after, "stich_bot_decision_seconds_count") >= bots
        assert _value(after, "stich_connections") == 0
        assert _value(after, "stich_tables_live") == 1
        assert _value(before, "stich_database_errors_total") == 0
        assert "stich_refusals_total" in after
        c.close()


@pytest.mark.needs("postgresql", "redis")
def test_two_workers_sum_their_metrics(tmp_path: Path) -> None:
    env = {"STICH_METRICS_TOKEN": TOKEN, "STICH_LIMITS": ROOMY}
    with database("postgresql", tmp_path) as url, \
            Server(url, redis=services.redis(), workers=2, env=env) as srv:
        clients = [Client(srv) for _ in range(6)]
        for c in clients:
            c.guest(uid("W"))
        tables = [c.create(game="skat", seats=["me", "bot:random", "bot:random"]
                           )["table"]["id"] for c in clients]

        async def sit() -> float:
            sockets = [await c.connect(t) for c, t in zip(clients, tables, strict=True)]
            for ws in sockets:
                await ws.until(lambda m: m["type"] == "welcome")
            # every scrape (whichever worker answers) counts all six sockets
            seen = {_value(await asyncio.to_thread(_scrape, srv), "stich_connections")
                    for _ in range(8)}
            for ws in sockets:
                await ws.close()
            assert seen == {6.0}, seen
            return 6.0
        asyncio.run(asyncio.wait_for(sit(), 60))
        for c in clients:
            c.close()
