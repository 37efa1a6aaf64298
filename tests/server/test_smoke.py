"""The smallest whole story over real sockets: register, open a Skat table with two bots,
play a list of three games by random legal actions, read the list."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from typing import Any

from tests.server.harness import Client
from tests.server.test_schema import validate_all


def test_a_person_plays_a_short_list_against_two_bots(clients: Callable[..., Client],
                                                      run: Callable[..., Any]) -> None:
    c = clients()
    c.register(f"Ann{uuid.uuid4().hex[:6]}")
    t = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:random"])
    assert t["table"]["status"] == "running"
    tid = t["table"]["id"]

    async def play() -> list[dict[str, Any]]:
        ws = await c.connect(tid)
        rng = random.Random(1)
        while True:
            msg = await ws.recv()
            assert msg["type"] != "error", msg
            if msg["type"] == "event" and msg["kind"] == "end":
                break
            v = ws.view
            if msg["type"] in ("event", "snapshot") and v and v["legal"] \
                    and v["to_move"] == v["seat"]:
                await ws.act(rng.choice(v["legal"]))
        await ws.close()
        return ws.messages

    messages = run(play())
    validate_all(messages)  # every message fits the published schema
    overs = [m for m in messages if m.get("kind") == "game_over"]
    assert len(overs) == 3
    seqs = [m["seq"] for m in messages if m["type"] == "event"]
    assert seqs == sorted(seqs) and len(seqs) == len(set(seqs))
    lst = c.get(f"/api/tables/{tid}/list").json()["list"]
    assert len(lst["games"]) == 3
    assert lst["punktestand"] == list(overs[-1]["data"]["line"]["totals"])
    assert sum(lst["bilanz"]) == 0
