"""``stich serve --ws-compression``: the table sockets are compressed (permessage-deflate)
only when asked for; by default they are not (docs/speed.md: it cost CPU and memory
for small messages).  Either way a player gets the table."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.server.harness import Client, Server, database


@pytest.mark.parametrize("on", [False, True])
def test_compression_only_when_asked_for(tmp_path: Path, on: bool) -> None:
    with database("sqlite", tmp_path) as url:
        srv = Server(url, bot_delay=0.0, args=["--ws-compression"] if on else [])
        srv.start()
        c = Client(srv)
        try:
            c.guest("Zip")
            t = c.create(game="skat", games=3, seats=["me", "bot:random", "bot:random"])

            async def talk() -> tuple[str, str]:
                ws = await c.connect(t["table"]["id"])  # the client offers deflate
                try:
                    first = await ws.recv()
                    ext = ws.ws.response.headers.get("Sec-WebSocket-Extensions", "")
                    return str(first["type"]), str(ext)
                finally:
                    await ws.close()

            kind, ext = asyncio.run(talk())
            assert kind == "welcome"
            assert ("permessage-deflate" in ext) is on
        finally:
            c.close()
            srv.stop()
