"""What a person who has just come to the table is shown holds: once it is their turn,
nothing moves until they act, no "back" of their own coming after the table was shown
(a CI run saw it: the person was marked away by the housekeeping round before they
connected, their connection was shown the table and wrote "back" after it, and their move,
made on what they had been shown, was refused as stale) and no "away" from a
housekeeping round that read who is present before they came.  A real server on SQLite
and PostgreSQL with a housekeeping round every 10 ms, so that rounds and connections meet
often: each table's person connects once, for the first time."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import DB_KINDS
from tests.server.harness import ROOMY, Client, Server, database
from tests.server.proto_helpers import uid, wait_my_turn

TABLES = 12


@pytest.mark.parametrize("db", DB_KINDS)
def test_a_person_who_just_came_is_not_marked_away(db: str, tmp_path: Path,
                                                  run: Callable[..., Any]) -> None:
    env = {"STICH_HOUSEKEEPING": "0.01", "STICH_LIMITS": ROOMY}
    with database(db, tmp_path) as url, Server(url, bot_delay=0.05, env=env) as srv:
        host = Client(srv)
        host.register(uid("Here"))
        try:
            async def one() -> list[dict[str, Any]]:
                tid = host.create(game="skat", games=3,
                                  seats=["me", "bot:easy", "bot:easy"])["table"]["id"]
                ws = await host.connect(tid)
                await wait_my_turn(ws)
                turn = len(ws.messages)
                await asyncio.sleep(0.3)  # rounds go by while it is the person's turn
                await ws.send({"type": "ping"})
                await ws.until(lambda m: m["type"] == "pong")
                await ws.close()
                return [m for m in ws.messages[turn:] if m["type"] == "event"]

            async def all_tables() -> list[list[dict[str, Any]]]:
                out = []
                for _ in range(TABLES):
                    out.append(await one())
                    host.post("/api/tables/close-mine") if False else None
                return out

            moved = run(all_tables())
            assert not any(moved), moved
        finally:
            host.close()
