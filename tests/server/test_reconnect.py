"""Leaving a table and coming back, over real sockets.

- A connection that drops and comes back with ``?since=N`` gets exactly the events it
  missed, the same as a second connection of the same player that stayed (or, when it
  missed too many, a snapshot of its view); ``{"type": "sync"}`` does the same on a live
  connection.
- A player away for longer than the table's grace time gets a stand-in bot, so the
  table never stalls; when they come back, they play again and the bot stops.
- Players pause and resume a table: nothing happens while it is paused.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import DB_KINDS
from tests.server.harness import Client, Server, TableSocket, database

CATCH_UP_LIMIT = 48  # actor.CATCH_UP_LIMIT: more missed events than this give a snapshot
QUIET = 1.5  # seconds a table must stay silent to count as waiting


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def my_turn(ws: TableSocket) -> bool:
    v = ws.view
    return bool(v and v["legal"] and v["to_move"] == v["seat"])


def events(ws: TableSocket, after: int = 0) -> list[dict[str, Any]]:
    return [m for m in ws.messages if m["type"] == "event" and m["seq"] > after]


async def wait_turn(ws: TableSocket) -> None:
    """Read until the table waits for this seat (its turn) or the table is over."""
    while not my_turn(ws) and not any(m.get("kind") == "end" for m in ws.messages):
        msg = await ws.recv(20)
        assert msg["type"] != "error", msg


async def step(ws: TableSocket, rng: random.Random) -> None:
    """Play a random legal action, and read until it is this seat's turn again."""
    assert my_turn(ws)
    assert ws.view is not None
    seq = ws.seq
    await ws.act(rng.choice(ws.view["legal"]))
    while True:
        msg = await ws.recv(20)
        assert msg["type"] != "error", msg
        if msg["type"] == "event" and msg["seq"] > seq and (my_turn(ws) or msg["kind"] == "end"):
            return


async def catch_up(ws: TableSocket, seq: int) -> None:
    while ws.seq < seq:
        await ws.recv(20)


async def quiet(ws: TableSocket, seconds: float = QUIET) -> list[dict[str, Any]]:
    """What arrives within ``seconds`` of silence."""
    before = len(ws.messages)
    await ws.drain(seconds)
    return ws.messages[before:]


async def next_event(ws: TableSocket, after: int) -> dict[str, Any]:
    return await ws.until(lambda m: m["type"] == "event" and m["seq"] > after)


async def barrier(ws: TableSocket) -> list[dict[str, Any]]:
    """Everything the server sent before it answers a ping (the outbox is in order)."""
    before = len(ws.messages)
    await ws.send({"type": "ping"})
    await ws.until(lambda m: m["type"] == "pong")
    return ws.messages[before:-1]


def test_a_dropped_connection_gets_exactly_what_it_missed(
        clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    c = clients()
    c.register(unique("Rita"))
    tid = c.create(game="skat", games=6, seats=["me", "bot:easy", "bot:random"])["table"]["id"]
    rng = random.Random(11)

    async def story() -> None:
        stays = await c.connect(tid)
        drops = await c.connect(tid)
        await wait_turn(stays)
        await catch_up(drops, stays.seq)

        # a short absence: the missed events, one by one
        await drops.close()
        seen = drops.seq
        while stays.seq - seen < 10:
            await step(stays, rng)
        missed = stays.seq - seen
        assert missed <= CATCH_UP_LIMIT
        back = await c.connect(tid, since=seen)
        await catch_up(back, stays.seq)
        assert back.messages[0]["type"] == "welcome" and back.messages[0]["you"] == 0
        assert back.messages[1:] == events(stays, seen)
        assert [m["seq"] for m in back.messages[1:]] == list(range(seen + 1, stays.seq + 1))
        assert not [m for m in events(stays) if m["kind"] in ("away", "back")]
        assert await barrier(back) == []  # nothing twice, nothing more

        # both connections go on together
        mark = stays.seq
        await step(stays, rng)
        await catch_up(back, stays.seq)
        assert events(back, mark) == events(stays, mark)

        # sync on a live connection: the same events again, or nothing, or a snapshot
        now = stays.seq
        await back.send({"type": "sync", "since": now - 3})
        again = await barrier(back)
        assert again == events(stays, now - 3)
        await back.send({"type": "sync", "since": now})
        assert await barrier(back) == []

        # a long absence: more than the catch-up limit missed, so a snapshot
        await back.close()
        seen = back.seq
        while stays.seq - seen <= CATCH_UP_LIMIT:
            await step(stays, rng)
        assert not any(m["kind"] == "end" for m in events(stays))
        late = await c.connect(tid, since=seen)
        snap = await late.until(lambda m: m["type"] == "snapshot")
        assert [m["type"] for m in late.messages] == ["welcome", "snapshot"]
        assert snap["seq"] == stays.seq
        assert snap["view"] == stays.view
        assert snap["list"] == c.get(f"/api/tables/{tid}/list").json()["list"]
        assert snap["sheet"] is None
        assert snap["table"]["seq"] == stays.seq
        assert await barrier(late) == []

        await late.send({"type": "sync", "since": 1})  # far back: a snapshot again
        resent = await barrier(late)
        assert [m["type"] for m in resent] == ["snapshot"]
        assert resent[0]["view"] == stays.view and resent[0]["seq"] == stays.seq

        mark = stays.seq
        await step(stays, rng)
        await catch_up(late, stays.seq)
        assert events(late, mark) == events(stays, mark)

        # coming back with the number one has: only the welcome
        current = await c.connect(tid, since=stays.seq)
        assert [m["type"] for m in await barrier(current)] == ["welcome"]

        # a connection without a number gets a snapshot
        fresh = await c.connect(tid)
        assert [m["type"] for m in await barrier(fresh)] == ["welcome", "snapshot"]

        # park the table: paused, it waits for nobody
        await stays.send({"type": "pause"})
        await stays.until(lambda m: m.get("kind") == "pause")
        for ws in (stays, late, current, fresh):
            await ws.close()

    run(story())


def test_an_absent_player_gets_a_standin_and_plays_again_on_return(
        clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    ann, ben = clients(), clients()
    ann.register(unique("Ann"))
    ben.register(unique("Ben"))
    t = ann.create(game="skat", games=3, grace=5, seats=["me", "person", "bot:easy"])
    tid = t["table"]["id"]
    assert t["table"]["grace"] == 5
    assert ben.post(f"/api/tables/{tid}/join", {}).json()["you"] == 1
    rng = random.Random(5)

    acted: set[int] = set()

    async def ben_plays_until(ws: TableSocket, pred: Callable[[dict[str, Any]], bool],
                              timeout: float = 30) -> None:
        """Ben plays his turns until a message satisfies ``pred`` (a stale move is
        refused: he moves again on the newer event)."""
        while not (ws.messages and pred(ws.messages[-1])):
            if my_turn(ws) and ws.seq not in acted:
                assert ws.view is not None
                acted.add(ws.seq)
                await ws.act(rng.choice(ws.view["legal"]))
            msg = await ws.recv(timeout)
            if msg["type"] == "error":
                assert msg["code"] == "server.stale", msg

    async def story() -> None:
        a = await ann.connect(tid)
        b = await ben.connect(tid)
        await barrier(a)
        await barrier(b)  # both are at the table (their connections counted)
        await a.close()
        left = a.seq

        # away at once, a stand-in after the grace time; the table goes on without Ann
        await ben_plays_until(b, lambda m: m.get("kind") == "away")
        await ben_plays_until(b, lambda m: m.get("kind") == "standin", timeout=30)
        info = ben.get(f"/api/tables/{tid}").json()["table"]
        assert info["seats"][0]["away"] and info["seats"][0]["standin"]
        assert not info["seats"][1]["away"]
        standin_acts = lambda: [m for m in events(b) if m["kind"] == "act"  # noqa: E731
                                and m["seat"] == 0]
        await ben_plays_until(b, lambda m: len(standin_acts()) >= 3)
        kinds = [(m["kind"], m["seat"]) for m in events(b) if m["seat"] == 0
                 and m["kind"] in ("away", "standin", "act", "back")]
        assert kinds[:2] == [("away", 0), ("standin", 0)]  # nothing for Ann before
        assert {m["data"]["by"] for m in standin_acts()} == {"standin"}
        assert all(m["data"]["by"] == "bot" for m in events(b)
                   if m["kind"] == "act" and m["seat"] == 2)
        await ben_plays_until(b, lambda m: my_turn(b))  # Ben holds the table still

        # Ann comes back: what she missed (events or a snapshot), then `back`
        a = await ann.connect(tid, since=left)
        await a.until(lambda m: m.get("kind") == "back")
        after_welcome = a.messages[1:-1]
        if after_welcome and after_welcome[0]["type"] == "snapshot":
            assert len(after_welcome) == 1
        else:
            assert [m["seq"] for m in after_welcome] == list(range(left + 1, a.seq))
        assert a.messages[-1]["seat"] == 0
        info = ann.get(f"/api/tables/{tid}").json()["table"]
        assert not info["seats"][0]["away"] and not info["seats"][0]["standin"]
        back_seq = a.seq

        # from now on Ann plays her own turns: when it is hers, the table waits for her
        for _ in range(3):
            while not my_turn(a):
                await catch_up(b, a.seq)
                if my_turn(b) and b.seq == a.seq:  # Ben's turn: he plays
                    assert b.view is not None
                    await b.act(rng.choice(b.view["legal"]))
                msg = await a.recv(20)
                assert msg["type"] != "error", msg
            await catch_up(b, a.seq)
            assert await quiet(b) == []  # no stand-in plays for her
            mark = a.seq
            assert a.view is not None
            await a.act(rng.choice(a.view["legal"]))
            own = await next_event(a, mark)
            assert own["kind"] == "act" and own["seat"] == 0
            assert own["data"]["by"] == "player"
            await catch_up(b, a.seq)
        assert all(m["data"]["by"] == "player" for m in events(a, back_seq)
                   if m["kind"] == "act" and m["seat"] == 0)
        await a.send({"type": "pause"})
        await a.until(lambda m: m.get("kind") == "pause")
        await a.close()
        await b.close()

    run(story(), timeout=90)


@pytest.fixture(scope="module", params=DB_KINDS)
def slow_bots(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
              ) -> Iterator[Server]:
    """A server whose bots wait half a second before each move at a table with people
    (so a test can act between a person's move and the bots')."""
    tmp: Path = tmp_path_factory.mktemp("slow")
    with database(request.param, tmp) as url:
        srv = Server(url, bot_delay=0.5)
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()


def test_a_paused_table_waits_until_it_is_resumed(slow_bots: Server,
                                                  run: Callable[..., Any]) -> None:
    c = Client(slow_bots)
    watcher = Client(slow_bots)
    try:
        c.register(unique("Paula"))
        tid = c.create(game="skat", games=3,
                       seats=["me", "bot:easy", "bot:random"])["table"]["id"]
        rng = random.Random(2)

        async def story() -> None:
            ws = await c.connect(tid)
            spectator = await watcher.connect(tid)
            await barrier(spectator)
            while True:  # a move that hands the turn to a bot, and pause at once
                await wait_turn(ws)
                assert ws.view is not None
                mark = ws.seq
                await ws.act(rng.choice(ws.view["legal"]))
                await ws.send({"type": "pause"})
                pause = await ws.until(lambda m: m.get("kind") == "pause")
                moves = [m for m in events(ws, mark) if m["kind"] == "act"]
                assert [m["seat"] for m in moves] == [0]  # before any bot moved
                if not my_turn(ws):
                    break
                await ws.send({"type": "resume"})
                await ws.until(lambda m: m.get("kind") == "resume")
            assert pause["seat"] == 0
            info = c.get(f"/api/tables/{tid}").json()["table"]
            assert info["paused_by"] == 0

            # nothing happens while paused (but the pause's own timer: it goes on by
            # itself after 5 minutes), and nobody can move
            got = await quiet(ws, 2.0)  # four times the bots' delay
            assert [m for m in got if m["type"] != "timer"] == []
            timer = [m for m in ws.messages if m["type"] == "timer"][-1]
            assert timer["kind"] == "pause" and timer["seat"] == 0
            assert 295_000 < timer["left"] <= 300_000 and timer["total"] == 300_000
            await ws.act("pass")
            err = await ws.until(lambda m: m["type"] == "error")
            assert err["code"] == "server.paused"
            await ws.send({"type": "pause"})
            err = await ws.until(lambda m: m["type"] == "error")
            assert err["code"] == "server.already_paused"
            await spectator.send({"type": "resume"})
            err = await spectator.until(lambda m: m["type"] == "error")
            assert err["code"] == "server.spectator"
            await catch_up(spectator, ws.seq)
            assert spectator.view is not None and spectator.view["legal"] == []

            # resumed: the bots go on where they stopped
            paused_at = ws.seq
            await ws.send({"type": "resume"})
            resume = await ws.until(lambda m: m.get("kind") == "resume")
            assert resume["seq"] == paused_at + 1 and resume["seat"] == 0
            nxt = await next_event(ws, resume["seq"])
            assert nxt["kind"] == "act" and nxt["data"]["by"] == "bot"
            await ws.send({"type": "resume"})
            err = await ws.until(lambda m: m["type"] == "error")
            assert err["code"] == "server.not_paused"
            assert c.get(f"/api/tables/{tid}").json()["table"]["paused_by"] is None
            kinds = [m["kind"] for m in events(ws, paused_at - 1)]
            assert kinds[:3] == ["pause", "resume", "act"]
            await wait_turn(ws)
            await catch_up(spectator, ws.seq)
            assert events(spectator, paused_at - 1)[0]["kind"] == "pause"
            await ws.send({"type": "pause"})  # (refused when it is the same game)
            await ws.until(lambda m: m.get("kind") == "pause" or m["type"] == "error")
            await ws.close()
            await spectator.close()

        run(story())
    finally:
        c.close()
        watcher.close()
