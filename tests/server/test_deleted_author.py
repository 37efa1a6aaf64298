"""A deleted account's chat lines and seats carry no name any more (issue 38, 10): the
table's welcome, its snapshot and its log say "(gelöscht)", also after a restart and
after somebody else registered the name, so nobody new appears as their author."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import DB_KINDS
from tests.server.harness import ROOMY, Client, Server, database
from tests.server.proto_helpers import barrier, kind, uid

GONE = "(gelöscht)"


@pytest.mark.parametrize("db", DB_KINDS)
def test_a_deleted_accounts_chat_lines_lose_its_name(db: str, tmp_path: Path,
                                                     run: Callable[..., Any]) -> None:
    with database(db, tmp_path) as url:
        srv = Server(url, env={"STICH_LIMITS": ROOMY, "STICH_HOUSEKEEPING": "0.3"})
        srv.start()
        try:
            host, author = Client(srv), Client(srv)
            host.register(uid("Host"))
            name = uid("Autor")
            author.register(name)
            tid = host.create(game="skat", games=3,
                              seats=["me", "bot:easy", "bot:easy"])["table"]["id"]

            async def chat() -> None:
                ws = await author.connect(tid)  # a watcher who chats
                await barrier(ws)
                await ws.send({"type": "chat", "text": "Grüße vom Zuschauer"})
                await ws.until(kind("chat"))
                await ws.close()

            run(chat())

            async def lines() -> list[str]:
                ws = await host.connect(tid)
                welcome = ws.messages[0] if ws.messages else await ws.recv()
                await ws.close()
                return [c["name"] for c in welcome["chat"]]

            assert run(lines()) == [name]
            r = author.post("/api/me/delete", {"password": "geheim123"})
            assert r.status_code == 200, r.text
            assert run(lines()) == [GONE]
            Client(srv).register(name)  # somebody else takes the name
            assert run(lines()) == [GONE]
            srv.stop()
            srv.start()  # read from the database again (its snapshot is gone)
            assert run(lines()) == [GONE]
            host.close()
            author.close()
        finally:
            srv.stop()
