"""What one person could do to a table, and what stops it (issue 38), over real sockets on
SQLite and PostgreSQL:

- a pause gives nobody time: the turn clock stands still and goes on where it stood;
  one pause per seat and game; a pause ends by itself after ``pause_most``;
- events that do not change the game (away, back, pause, resume, chat …) are budgeted
  per seat and per table, whatever the number of sockets: a flood from many sockets, or
  sockets that come and go, writes no more than the budget;
- a person who is away is not somebody at the table: a table where nobody plays pauses;
- a table that never started expires an hour after its seats changed, however often
  somebody chats or reconnects there.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import DB_KINDS
from tests.server.harness import ROOMY, Client, Server, TableSocket, database
from tests.server.proto_helpers import barrier, kind, next_error, uid, wait_my_turn


@pytest.fixture(params=DB_KINDS)
def kind_of_db(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@contextmanager
def _serve(db: str, tmp: Path, limits: str, bot_delay: float = 0.0) -> Iterator[Server]:
    """A server of its own with these limits (a housekeeping round every 0.3 s)."""
    with database(db, tmp) as url, \
            Server(url, bot_delay=bot_delay,
                   env={"STICH_LIMITS": limits, "STICH_HOUSEKEEPING": "0.3"}) as srv:
        yield srv


def _guest(srv: Server) -> Client:
    c = Client(srv)
    c.guest(uid("P"))
    return c


def _timer(ws: TableSocket) -> dict[str, Any]:
    """The timer the socket was told of last (the welcome's, or a ``timer`` message)."""
    return [m["timer"] if m["type"] == "welcome" else m for m in ws.messages
            if m["type"] == "timer" or (m["type"] == "welcome" and m.get("timer"))][-1]


def test_a_pause_gives_no_time(kind_of_db: str, tmp_path: Path,
                               run: Callable[..., Any]) -> None:
    with _serve(kind_of_db, tmp_path, f"{ROOMY},pause_most=300,pauses_per_game=1") as srv:
        c = _guest(srv)
        tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                       clock=3, bank=0)["table"]["id"]

        async def story() -> None:
            ws = await c.connect(tid)
            await wait_my_turn(ws)
            await barrier(ws)
            assert _timer(ws)["kind"] == "move"
            started = time.monotonic()
            await asyncio.sleep(1.0)
            await ws.send({"type": "pause"})
            await ws.until(kind("pause"))
            await barrier(ws)
            assert _timer(ws)["kind"] == "pause" and _timer(ws)["left"] > 290_000
            await asyncio.sleep(1.5)  # the pause: the clock stands still
            await ws.send({"type": "resume"})
            await ws.until(kind("resume"))
            await barrier(ws)
            resumed = _timer(ws)
            assert resumed["kind"] == "move" and resumed["total"] == 3000
            assert resumed["left"] <= 2100, resumed  # what was left, not a new clock
            # a second pause in this game is refused; the clock runs out as it would have
            await ws.send({"type": "pause"})
            assert (await next_error(ws))["code"] == "server.pause_used"
            act = await ws.until(lambda m: m["type"] == "event" and m["kind"] == "act"
                                 and m["seat"] == ws.you, timeout=10)
            assert act["data"]["by"] == "clock"
            ran = time.monotonic() - started - 1.5
            assert ran < 3.0 + 1.5, ran  # 3 s of clock, the paused 1.5 s not given
            await ws.close()

        run(story())
        c.close()


def test_a_pause_ends_by_itself(kind_of_db: str, tmp_path: Path,
                                run: Callable[..., Any]) -> None:
    with _serve(kind_of_db, tmp_path, f"{ROOMY},pause_most=1") as srv:
        c, other = _guest(srv), _guest(srv)
        made = c.create(game="skat", games=3, seats=["me", "person", "bot:easy"])
        tid = made["table"]["id"]
        assert other.post(f"/api/tables/{tid}/join",
                          {"invite": made["invite"]}).status_code == 200

        async def story() -> None:
            ws, ws2 = await c.connect(tid), await other.connect(tid)
            await barrier(ws)
            await ws.send({"type": "pause"})
            pause = await ws.until(kind("pause"))
            resume = await ws.until(kind("resume"), timeout=10)
            assert resume["seat"] == pause["seat"] == ws.you
            assert resume["data"]["reason"] == "timeout"
            await ws2.until(kind("resume"))
            info = c.get(f"/api/tables/{tid}").json()["table"]
            assert info["paused_by"] is None
            await ws.close()
            await ws2.close()

        run(story())
        c.close()
        other.close()


def _stored(c: Client, tid: str) -> int:
    return int(c.get(f"/api/tables/{tid}").json()["table"]["seq"])


def test_a_flood_of_loose_events_is_budgeted(kind_of_db: str, tmp_path: Path,
                                             run: Callable[..., Any]) -> None:
    budget = "seat_events_per_min=10"
    with _serve(kind_of_db, tmp_path, f"{ROOMY},{budget}") as srv:
        c = _guest(srv)
        made = c.create(game="skat", games=3, seats=["me", "person", "bot:easy"])
        tid = made["table"]["id"]
        other = _guest(srv)
        assert other.post(f"/api/tables/{tid}/join",
                          {"invite": made["invite"]}).status_code == 200

        async def story() -> None:
            keep = await other.connect(tid)  # the other player stays connected
            sockets = [await c.connect(tid) for _ in range(8)]
            for ws in sockets:
                await barrier(ws)
            before = _stored(c, tid)
            refused = 0
            for i in range(200):  # away / back / pause / resume from eight sockets
                ws = sockets[i % len(sockets)]
                await ws.send({"type": ("away", "back", "pause", "resume")[i % 4]})
            for ws in sockets:
                got = await barrier(ws)
                refused += sum(1 for m in got if m["type"] == "error"
                               and m["code"] == "server.rate_limited")
            flood = _stored(c, tid) - before
            assert flood <= 10 + 1, flood  # the seat's budget (a burst of 10)
            assert refused >= 150
            # sockets that come and go: no more than the budget either
            before = _stored(c, tid)
            for ws in sockets:
                await ws.close()
            for _ in range(30):
                ws = await c.connect(tid)
                await ws.close()
            await asyncio.sleep(0.5)
            assert _stored(c, tid) - before <= 2, "the seat's budget is spent"
            # the other seat still has its own budget, and the table goes on
            await keep.send({"type": "away"})
            await keep.until(lambda m: m["type"] == "event" and m["kind"] == "away"
                             and m["seat"] == keep.you)
            await keep.close()

        run(story())
        c.close()
        other.close()


def test_chat_is_budgeted_per_account_not_per_socket(kind_of_db: str, tmp_path: Path,
                                                     run: Callable[..., Any]) -> None:
    with _serve(kind_of_db, tmp_path, f"{ROOMY},chats_per_20s=5") as srv:
        c = _guest(srv)
        tid = c.create(game="skat", games=3, seats=["me", "person", "person"])["table"]["id"]
        watcher = _guest(srv)

        async def story() -> None:
            sockets = [await watcher.connect(tid) for _ in range(6)]
            for i in range(30):
                await sockets[i % 6].send({"type": "chat", "text": f"line {i}"})
            for ws in sockets:
                await barrier(ws)
            me = await c.connect(tid)
            welcome = me.messages[0] if me.messages else await me.recv()
            assert len(welcome["chat"]) == 5, welcome["chat"]
            for ws in (*sockets, me):
                await ws.close()

        run(story())
        c.close()
        watcher.close()


@pytest.mark.parametrize("text", ["\u200b", "\u2060\u2060", "\ufeff", "\u3164", "\u2800 \u2800",
                                  "\U000e0041\U000e0042", "a" + "\u0301" * 5, "\u200e",
                                  "\ud800"])
def test_invisible_or_piled_up_chat_is_refused(server: Server, run: Callable[..., Any],
                                               text: str) -> None:
    c = _guest(server)
    tid = c.create(game="skat", games=3, seats=["me", "person", "person"])["table"]["id"]

    async def story() -> None:
        ws = await c.connect(tid)
        await barrier(ws)
        await ws.send({"type": "chat", "text": text})  # (JSON: \ud800 escaped)
        err = await next_error(ws)
        assert err["code"] in ("server.chat_control", "server.chat_blank",
                               "server.chat_marks", "server.bad_message"), err
        await ws.send({"type": "chat", "text": "Gut gespielt! 👍🏽 Tiến"})
        line = await ws.until(kind("chat"))
        assert line["data"]["text"] == "Gut gespielt! 👍🏽 Tiến" and "user" not in line["data"]
        await ws.close()

    run(story())
    c.close()


def test_a_person_who_is_away_is_not_at_the_table(kind_of_db: str, tmp_path: Path,
                                                  run: Callable[..., Any]) -> None:
    with _serve(kind_of_db, tmp_path, f"{ROOMY},idle_pause=1", bot_delay=0.1) as srv:
        c = _guest(srv)
        tid = c.create(game="skat", games=0, seats=["me", "bot:easy", "bot:easy"])["table"]["id"]

        async def story() -> None:
            ws = await c.connect(tid)
            await barrier(ws)
            await ws.send({"type": "away"})
            await ws.until(kind("away"))
            # the stand-in and the bots play on: for a while, not for ever
            pause = await ws.until(lambda m: m["type"] == "event" and m["kind"] == "pause",
                                   timeout=90)
            assert pause["seat"] is None and pause["data"]["reason"] == "idle"
            await ws.send({"type": "back"})
            await ws.until(kind("back"))
            resume = await ws.until(kind("resume"), timeout=10)
            assert resume["seat"] is None and resume["data"]["reason"] == "idle"
            await ws.close()

        run(story())
        c.close()


def test_chat_and_reconnects_do_not_keep_a_waiting_table(kind_of_db: str, tmp_path: Path,
                                                         run: Callable[..., Any]) -> None:
    with _serve(kind_of_db, tmp_path, f"{ROOMY},waiting_expire=2") as srv:
        c = _guest(srv)
        tid = c.create(game="skat", games=3, seats=["me", "person", "person"])["table"]["id"]

        async def story() -> None:
            start = time.monotonic()
            while time.monotonic() - start < 12:
                ws = await c.connect(tid)
                await barrier(ws)
                if any(m.get("kind") == "end" for m in ws.messages) or \
                        c.get(f"/api/tables/{tid}").json()["table"]["status"] == "over":
                    await ws.close()
                    break
                await ws.send({"type": "chat", "text": "noch da"})
                await barrier(ws)
                await ws.close()
                await asyncio.sleep(0.4)
            info = c.get(f"/api/tables/{tid}").json()["table"]
            assert info["status"] == "over" and info["end_reason"] == "expired"
            assert time.monotonic() - start < 8

        run(story())
        c.close()


def test_watchers_and_chat_never_spend_a_seats_budget(kind_of_db: str, tmp_path: Path,
                                                      run: Callable[..., Any]) -> None:
    limits = "seat_events_per_min=2,watcher_chats_per_min=3,chats_per_20s=5"
    with _serve(kind_of_db, tmp_path, f"{ROOMY},{limits}") as srv:
        c = _guest(srv)
        tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"])["table"]["id"]
        watchers = [_guest(srv), _guest(srv)]

        async def story() -> None:
            me = await c.connect(tid)
            eyes = [await w.connect(tid) for w in watchers]
            for i in range(10):
                await eyes[i % 2].send({"type": "chat", "text": f"Zuschauer {i}"})
            for i in range(4):
                await me.send({"type": "chat", "text": f"Spieler {i}"})
            for ws in (*eyes, me):
                await barrier(ws)
            lines = [m["data"]["text"] for m in me.messages
                     if m["type"] == "event" and m["kind"] == "chat"]
            assert sum(t.startswith("Zuschauer") for t in lines) == 3, lines
            assert sum(t.startswith("Spieler") for t in lines) == 4, lines
            # the seat's own budget is whole: two of its events go through
            await me.send({"type": "away"})
            await me.until(lambda m: m["type"] == "event" and m["kind"] == "away")
            await me.send({"type": "back"})
            await me.until(lambda m: m["type"] == "event" and m["kind"] == "back")
            for ws in (*eyes, me):
                await ws.close()

        run(story())
        c.close()
        for w in watchers:
            w.close()
