"""What setting up a table costs the server: the lobby's requests, one kind at a time.

A real ``stich serve`` (a fresh SQLite or PostgreSQL database) and, in this process, the
load generator's own client code (``bench.speed.server_load``): ``--tables`` four-seat
Baptistenskat tables are set up as ``server_load`` sets one up when a table has ended
and its four players sit down at a new one: four guests (``POST /api/guest``), one table
(``POST /api/tables``), three joins by the invite (one after the other), four WebSocket
connections (each gets its welcome and the table's state).  Each kind runs for every
table before the next kind starts, eight requests (or tables' joins) at a time, and the
server process's CPU (user + system, ``/proc/PID/stat``) is read before and after it.

Printed: the server's CPU per request of each kind, the sum for one table, and that sum
divided by the time of the fixed reference workload of ``server_load`` measured in the
same run (so that machines compare).  The machine's load average before and after.

Run: ``python -m bench.speed.server_setup [--db sqlite|postgresql] [--tables 100]
[--repeat 3]``  (PostgreSQL: a new database on ``$STICH_TEST_PG``, or a throwaway
server; dropped afterwards, see ``tests/services.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench.measure import cpu_seconds, reference_ms
from bench.speed.server_load import Generator, Player

KINDS = ("guest", "create", "join", "connect")
PER_TABLE = {"guest": 4, "create": 1, "join": 3, "connect": 4}
AT_ONCE = 8


async def measure(server: Any, tables: int, first: int) -> dict[str, float]:
    """Set up ``tables`` tables kind by kind; the server's CPU ms per request of each."""
    pid = server.proc.pid
    gen = Generator(server.url, server.ws, ["baptisten"] * tables, seed=first)
    gen.rate = 1e-4  # nobody acts: only the set-up is measured
    gate = asyncio.Semaphore(AT_ONCE)
    cost: dict[str, float] = {}

    async def kind(name: str, jobs: list[Callable[[], Awaitable[Any]]],
                   each: int = 1) -> list[Any]:
        """Run the jobs (``each`` requests a job), eight at a time."""
        async def one(job: Callable[[], Awaitable[Any]]) -> Any:
            async with gate:
                return await job()

        c0 = cpu_seconds(pid)
        out = await asyncio.gather(*(one(j) for j in jobs))
        cost[name] = 1000 * (cpu_seconds(pid) - c0) / (each * len(jobs))
        return out

    def guest(i: int) -> Callable[[], Awaitable[str]]:
        return lambda: gen.guest(f"S{first + i}")

    tokens = await kind("guest", [guest(i) for i in range(4 * tables)])
    body = {"game": "baptisten", "seats": ["me", "person", "person", "person"],
            "grace": 3600}

    def create(i: int) -> Callable[[], Awaitable[dict[str, Any]]]:
        return lambda: gen.post(tokens[4 * i], "/api/tables", body)

    made = await kind("create", [create(i) for i in range(tables)])

    def joins(i: int) -> Callable[[], Awaitable[None]]:
        async def go() -> None:  # one after the other, as people follow an invite
            for j in (1, 2, 3):
                await gen.post(tokens[4 * i + j], f"/api/tables/{made[i]['table']['id']}/join",
                               {"invite": made[i]["invite"]})
        return go

    await kind("join", [joins(i) for i in range(tables)], each=3)
    for i, t in enumerate(gen.tables):
        t.id = made[i]["table"]["id"]
        t.players = [Player(t, tokens[4 * i + j]) for j in range(4)]

    def connect(p: Player) -> Callable[[], Awaitable[None]]:
        return lambda: gen.connect(p)

    await kind("connect", [connect(p) for t in gen.tables for p in t.players])
    await asyncio.sleep(0.5)  # the welcomes read
    for t in gen.tables:
        for p in t.players:
            await p.ws.close()
    await gen.http_client.aclose()
    return cost


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3, help="rounds of set-ups (the best kept)")
    args = ap.parse_args()
    from tests.server.harness import Server, database

    load0 = os.getloadavg()[0]
    ref0 = reference_ms()
    rounds: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp, database(args.db, Path(tmp)) as url:
        server = Server(url, bot_delay=0.0)
        server.start(timeout=60)
        try:
            asyncio.run(measure(server, 8, 0))  # warm: imports, caches, first queries
            for r in range(args.repeat):
                rounds.append(asyncio.run(measure(server, args.tables, 1000 * (r + 1))))
        finally:
            server.stop()
    ref = (ref0 + reference_ms()) / 2
    print(f"== stich serve, setting up tables: {args.db}, {args.tables} four-seat tables a "
          f"round, {AT_ONCE} requests at a time; load average {load0:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after; reference workload {ref:.2f} ms ==")
    for r, cost in enumerate(rounds, 1):
        per_table = sum(PER_TABLE[k] * cost[k] for k in KINDS)
        parts = "  ".join(f"{k} {cost[k]:.2f}" for k in KINDS)
        print(f"round {r}: server CPU ms per request: {parts}  ->  one table "
              f"{per_table:.1f} ms ({per_table / ref:.2f} reference workloads)")
    best = min(sum(PER_TABLE[k] * c[k] for k in KINDS) for c in rounds)
    print(f"best round: {best:.1f} ms of server CPU to set up one table "
          f"({best / ref:.2f} reference workloads)")


if __name__ == "__main__":
    main()
