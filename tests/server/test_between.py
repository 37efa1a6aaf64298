"""After a Skat game or a Baptistenskat round the table waits (``next_after``): every
person present says ``ready`` (or the time runs out), then the next deal / ``next``.
Meanwhile actions are refused and bots do not move; bots alone never wait; a restarted
server continues the wait with a fresh timer.  Over real sockets."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import DB_KINDS
from tests.server.harness import Client, Server, TableSocket, database
from tests.server.proto_helpers import (
    barrier,
    events_of,
    guest,
    kind,
    next_error,
    plain_clients,
    play_random,
    table,
    uid,
)


@pytest.fixture
def clients(server: Server) -> Iterator[Callable[..., Client]]:
    yield from plain_clients(server)




def _timers(ws: TableSocket) -> list[dict[str, Any]]:
    return [m for m in ws.messages if m["type"] == "timer"]


async def _to_game_over(ws: TableSocket, seed: int = 1) -> dict[str, Any]:
    return await play_random(ws, random.Random(seed), kind("game_over"), timeout=60)


def test_skat_waits_for_ready_then_deals(clients: Callable[..., Client],
                                         run: Callable[..., Any]) -> None:
    c = guest(clients, "W")
    tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                   next_after=120)["table"]["id"]

    async def go() -> None:
        ws = await c.connect(tid)
        over = await _to_game_over(ws)
        assert over["data"]["wait"] is True
        assert over["view"]["phase"] == "OVER" and over["view"]["deal"] is not None
        msgs = await barrier(ws)  # the timer of the wait comes right after
        await asyncio.sleep(0.5)
        msgs += await barrier(ws)
        assert not [m for m in msgs if m["type"] == "event" and m["kind"] == "deal"]
        timer = _timers(ws)[-1]
        assert timer["kind"] == "next" and 100_000 < timer["left"] <= 120_000, timer
        info = table(c, tid)
        assert info["between"] is True and info["ready"] == [] and info["next_after"] == 120
        await ws.act("18")  # nothing to do now
        err = await next_error(ws)
        assert err["code"] == "server.between", err
        await ws.send({"type": "ready"})
        ready = await ws.until(kind("ready"))
        assert ready["seat"] == ws.you
        deal = await ws.until(kind("deal"))
        assert deal["data"]["number"] == 2 and deal["seq"] == ready["seq"] + 1
        await barrier(ws)
        assert _timers(ws)[-1]["kind"] is None
        assert table(c, tid)["between"] is False
        await ws.send({"type": "ready"})  # not between any more
        assert (await next_error(ws))["code"] == "server.not_between"
        await ws.close()

    run(go())


def test_the_wait_ends_when_its_time_is_up(clients: Callable[..., Client],
                                           run: Callable[..., Any]) -> None:
    c = guest(clients, "W")
    tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                   next_after=1)["table"]["id"]

    async def go() -> None:
        ws = await c.connect(tid)
        over = await _to_game_over(ws)
        assert over["data"]["wait"] is True
        deal = await ws.until(kind("deal"), timeout=5)
        assert deal["seq"] == over["seq"] + 1  # nobody said ready: the timer went on
        await ws.close()

    run(go())


def test_last_game_never_waits(clients: Callable[..., Client],
                               run: Callable[..., Any]) -> None:
    """The end of the list comes at once; an away person is not waited for either."""
    c = guest(clients, "W")
    tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                   next_after=120)["table"]["id"]

    async def go() -> None:
        ws = await c.connect(tid)
        for n in range(3):
            over = await _to_game_over(ws, seed=n)
            if n < 2:
                assert over["data"]["wait"] is True
                await ws.send({"type": "ready"})
        end = await ws.until(kind("end"))
        assert over["data"]["wait"] is False and end["seq"] == over["seq"] + 1
        await ws.close()

    run(go())


def test_bots_alone_never_wait(clients: Callable[..., Client],
                               run: Callable[..., Any]) -> None:
    c = guest(clients, "W")
    tid = c.create(game="skat", games=3, seats=["bot:easy", "bot:random", "bot:easy"],
                   next_after=120)["table"]["id"]

    async def go() -> None:
        ws = await c.connect(tid)
        await ws.until(kind("end"), timeout=60)
        overs = events_of(ws, "game_over")
        assert overs and all(not o["data"]["wait"] for o in overs)
        await ws.close()

    run(go())


def test_going_away_ends_the_wait(clients: Callable[..., Client],
                                  run: Callable[..., Any]) -> None:
    """Nobody present is left to say ready: the table goes on at once."""
    c = guest(clients, "W")
    tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                   next_after=120)["table"]["id"]

    async def go() -> None:
        ws = await c.connect(tid)
        await _to_game_over(ws)
        await ws.send({"type": "away"})
        away = await ws.until(kind("away"))
        assert away["seat"] == ws.you
        deal = await ws.until(kind("deal"))
        assert deal["seq"] == away["seq"] + 1
        await ws.close()

    run(go())


def test_ready_is_refused_to_a_stranger(clients: Callable[..., Client],
                                        run: Callable[..., Any]) -> None:
    c = guest(clients, "W")
    tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                   next_after=120)["table"]["id"]
    watcher = guest(clients, "W")
    anonymous = clients()

    async def go() -> None:
        ws = await c.connect(tid)
        await _to_game_over(ws)
        for other in (watcher, anonymous):
            w = await other.connect(tid)
            for msg in ({"type": "ready"}, {"type": "away"}, {"type": "back"}):
                await w.send(msg)
                assert (await next_error(w))["code"] == "server.spectator"
            await w.close()
        await barrier(ws)
        assert not events_of(ws, "ready") and table(c, tid)["between"] is True
        await ws.close()

    run(go())


def test_baptisten_round_shows_its_last_trick_and_waits(clients: Callable[..., Client],
                                                       run: Callable[..., Any]) -> None:
    c = guest(clients, "W")
    tid = c.create(game="baptisten", seats=["me", "bot:easy", "bot:easy"],
                   next_after=120)["table"]["id"]

    async def go() -> None:
        ws = await c.connect(tid)
        over = await play_random(ws, random.Random(3), kind("round_over"), timeout=60)
        data = over["data"]
        assert data["wait"] is True and data["sheet_row"]["round"] == data["round"]
        leader, cards, winner = data["trick"]
        assert len(cards) == 3 and 0 <= leader < 3 and 0 <= winner < 3
        # every card of the last trick was played openly: the act events named them
        acts = [e["data"]["text"] for e in events_of(ws, "act")]
        assert set(cards) <= set(acts)
        took = {e["player"]: e["tricks"] for e in data["sheet_row"]["entries"]}
        assert took[winner] >= 1
        assert over["view"]["legal"] == []  # the next round's view, nothing to do yet
        msgs = await barrier(ws)
        await asyncio.sleep(0.6)  # the bots do not move while the table waits
        msgs += await barrier(ws)
        assert not [m for m in msgs if m["type"] == "event" and m["kind"] == "act"]
        await ws.act("bid 0 stake 1")
        assert (await next_error(ws))["code"] == "server.between"
        await ws.send({"type": "ready"})
        await ws.until(kind("ready"))
        nxt = await ws.until(kind("next"))
        assert nxt["data"] == {} and table(c, tid)["between"] is False
        await ws.close()

    run(go())


@pytest.mark.parametrize("db_kind", DB_KINDS)
def test_a_restarted_server_continues_the_wait(db_kind: str, tmp_path: Path,
                                               run: Callable[..., Any]) -> None:
    """The wait is in the event log: after a restart the table still waits (a fresh
    timer), and the welcome says so."""
    with database(db_kind, tmp_path) as url:
        srv = Server(url)
        srv.start()
        c = Client(srv)
        try:
            c.guest(uid("R"))
            tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                           next_after=60)["table"]["id"]

            async def first() -> int:
                ws = await c.connect(tid)
                over = await _to_game_over(ws)
                await barrier(ws)
                srv.kill()  # with the socket open: the person did not go away
                return int(over["seq"])

            seq = run(first())
            srv.start()

            async def second() -> None:
                ws = await c.connect(tid, since=seq)
                welcome = await ws.recv()
                assert welcome["table"]["between"] is True, welcome["table"]
                assert welcome["timer"]["kind"] == "next"
                assert 30_000 < welcome["timer"]["left"] <= 60_000
                await barrier(ws)
                assert not events_of(ws, "deal")
                await ws.send({"type": "ready"})
                deal = await ws.until(kind("deal"))
                assert deal["data"]["number"] == 2
                await ws.close()

            run(second())
        finally:
            c.close()
            srv.stop()
