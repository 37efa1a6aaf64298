"""Leaving a running table ("Tisch verlassen": ``quit``, a bot plays the seat), "kurz
weg" (``away``) and ``back``, the running tables of a person (``GET /api/me/seats``),
the table chat, a silent socket closed by the server, and where ``stich serve`` keeps
its database.  Over real sockets."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from tests.server.conftest import DB_KINDS
from tests.server.harness import ROOMY, Client, Server, database, pg_database
from tests.server.harness import drop_pg_database as drop_pg
from tests.server.proto_helpers import (
    barrier,
    error_of,
    events_of,
    guest,
    kind,
    next_error,
    plain_clients,
    play_random,
    table,
    uid,
    wait_my_turn,
)


@pytest.fixture
def clients(server: Server) -> Iterator[Callable[..., Client]]:
    yield from plain_clients(server)




def test_quit_a_running_table(clients: Callable[..., Client],
                              run: Callable[..., Any]) -> None:
    c = guest(clients, "L")
    name = c.get("/api/me").json()["user"]["name"]
    tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"])["table"]["id"]
    stranger = guest(clients, "L")
    assert error_of(stranger.post(f"/api/tables/{tid}/leave"))[1] == "server.not_seated"
    assert error_of(clients().post(f"/api/tables/{tid}/leave"))[:2] == \
        (401, "auth.not_logged_in")
    seats = c.get("/api/me/seats").json()["seats"]
    assert [s["id"] for s in seats] == [tid] and seats[0]["game"] == "skat"
    assert isinstance(seats[0]["to_move"], bool) and seats[0]["title"]
    assert stranger.get("/api/me/seats").json()["seats"] == []
    assert error_of(clients().get("/api/me/seats"))[:2] == (401, "auth.not_logged_in")

    async def go() -> None:
        ws = await c.connect(tid)
        await wait_my_turn(ws)
        me = ws.you
        r = c.post(f"/api/tables/{tid}/leave")
        assert r.status_code == 200, r.text
        quit_ev = await ws.until(kind("quit"))
        assert quit_ev["seat"] == me
        welcome = await ws.until(lambda m: m["type"] == "welcome")
        assert welcome["you"] is None  # watching from now on
        act = await ws.until(lambda m: m["type"] == "event" and m["kind"] == "act"
                             and m["seat"] == me, timeout=10)
        assert act["data"]["by"] == "standin"
        info = table(c, tid)
        assert info["seats"][me]["quit"] is True and info["seats"][me]["name"] == name
        assert info["seats"][me]["kind"] == "person"
        assert c.get("/api/me/seats").json()["seats"] == []
        assert error_of(c.post(f"/api/tables/{tid}/leave"))[1] == "server.not_seated"
        await ws.act("pass")
        assert (await next_error(ws))["code"] == "server.spectator"
        over = await ws.until(kind("game_over"), timeout=60)
        assert me in over["data"]["line"]["standin"]
        await ws.close()

    run(go())


def test_leave_before_the_start_stands_up(clients: Callable[..., Client]) -> None:
    c = guest(clients, "L")
    tid = c.create(game="skat", seats=["me", "person", "bot:easy"])["table"]["id"]
    r = c.post(f"/api/tables/{tid}/leave")
    assert r.status_code == 200, r.text
    assert r.json()["table"]["seats"][0]["kind"] == "free"


def test_away_and_back_over_the_socket(clients: Callable[..., Client],
                                       run: Callable[..., Any]) -> None:
    c = guest(clients, "L")
    tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                   grace=5)["table"]["id"]

    async def go() -> None:
        ws = await c.connect(tid)
        await ws.until(lambda m: m["type"] in ("event", "snapshot") or m.get("seq"))
        await ws.send({"type": "away"})
        away = await ws.until(kind("away"))
        assert away["seat"] == ws.you
        # still connected, yet the stand-in comes after the grace time
        standin = await ws.until(kind("standin"), timeout=10)
        assert standin["seat"] == ws.you
        await ws.send({"type": "back"})
        back = await ws.until(kind("back"))
        assert back["seat"] == ws.you
        info = table(c, tid)["seats"][ws.you]
        assert not info["away"] and not info["standin"]
        await ws.close()

    run(go())


def test_a_silent_socket_is_closed(tmp_path: Path, run: Callable[..., Any]) -> None:
    with database("sqlite", tmp_path) as url, \
            Server(url, env={"STICH_LIMITS": f"{ROOMY},socket_silence=2"}) as srv:
        c, other = Client(srv), Client(srv)
        try:
            c.guest(uid("S"))
            other.guest(uid("S"))
            tid = c.create(game="skat", seats=["me", "person", "bot:easy"])["table"]["id"]
            assert other.post(f"/api/tables/{tid}/join", {}).status_code == 200

            async def go() -> None:
                silent = await c.connect(tid)
                talking = await other.connect(tid)
                t0 = time.monotonic()
                while time.monotonic() - t0 < 4:
                    await talking.send({"type": "ping"})
                    await asyncio.sleep(0.5)
                await talking.drain(0.3)
                away = [e for e in events_of(talking, "away") if e["seat"] == 0]  # c's seat
                assert away, "the silent socket's seat is away"
                assert not [e for e in events_of(talking, "away") if e["seat"] == talking.you]
                with pytest.raises(websockets.ConnectionClosed):  # closed by the server
                    while True:
                        await silent.recv(1)
                assert silent.ws.close_code == 4408
                await talking.close()

            run(go())
        finally:
            c.close()
            other.close()


def test_serve_says_where_its_database_is(tmp_path: Path) -> None:
    db = tmp_path / "wo.db"
    with Server(f"sqlite:///{db}") as srv:
        lines = _printed(srv)
        assert "http://127.0.0.1:" in lines[0]
        assert str(db) in lines[1], lines


@pytest.mark.needs("postgresql")
def test_serve_never_prints_the_database_password() -> None:
    url, name = pg_database()
    secret = "nIcHtZeIgEn42"
    user, rest = url.split("://", 1)[1].split("@", 1)
    with_password = f"postgresql://{user}:{secret}@{rest}"
    try:
        with Server(with_password) as srv:
            lines = _printed(srv)
            assert rest.split("/")[-1] in lines[1], lines
            assert secret not in "".join(srv.log) and "***" in lines[1]
    finally:
        drop_pg(name)


def _printed(srv: Server) -> list[str]:
    """The lines the server printed (the first one the harness read itself)."""
    for _ in range(50):
        if any("database" in line or "Datenbank" in line for line in srv.log):
            break
        time.sleep(0.1)
    first = f"http://127.0.0.1:{srv.port}"
    return [first, *[line for line in srv.log if "database" in line or "Datenbank" in line]]


# --- the chat ----------------------------------------------------------------------------


def test_chat_lines_reach_everyone_and_stay(clients: Callable[..., Client],
                                            run: Callable[..., Any]) -> None:
    c = guest(clients, "L")
    tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"])["table"]["id"]
    watcher = guest(clients, "L")
    anonymous = clients()

    async def go() -> None:
        ws = await c.connect(tid)
        w = await watcher.connect(tid)
        a = await anonymous.connect(tid)
        for s in (ws, w, a):
            await s.until(lambda m: m["type"] == "welcome")
        await ws.send({"type": "chat", "text": "  <b>gut</b> gespielt & \"so\"  "})
        line = await a.until(kind("chat"))
        assert line["seat"] == ws.you and line["data"]["text"] == '<b>gut</b> gespielt & "so"'
        assert line["data"]["name"] == c.get("/api/me").json()["user"]["name"]
        await w.send({"type": "chat", "text": "Glück gehabt"})
        line = await ws.until(lambda m: m["type"] == "event" and m["kind"] == "chat"
                              and m["data"]["text"] == "Glück gehabt")
        assert line["seat"] is None
        await a.send({"type": "chat", "text": "hallo"})
        assert (await next_error(a))["code"] == "server.chat_anonymous"
        for text, code in (("", "server.chat_length"), ("   ", "server.chat_length"),
                           ("x" * 201, "server.bad_message"),  # (the schema's 200)
                           (" " * 150 + "x" * 51, "server.bad_message"),
                           ("zwei\nZeilen", "server.chat_control"),
                           ("bell\x07", "server.chat_control"),
                           ("um\u202edreh", "server.chat_control")):
            await w.send({"type": "chat", "text": text})
            assert (await next_error(w))["code"] == code, text
        assert len([e for e in events_of(ws, "chat")]) == 2
        late = await anonymous.connect(tid)
        welcome = await late.recv()
        assert [x["text"] for x in welcome["chat"]] == ['<b>gut</b> gespielt & "so"',
                                                        "Glück gehabt"]
        snap = await anonymous.connect(tid, since=0)
        await snap.recv()
        first = await snap.until(lambda m: m["type"] in ("snapshot", "event"))
        if first["type"] == "snapshot":
            assert len(first["chat"]) == 2
        for s in (ws, w, a, late, snap):
            await s.close()

    run(go())


def test_chat_is_rate_limited(tmp_path: Path, run: Callable[..., Any]) -> None:
    limits = ROOMY.replace("chats_per_20s=1000000", "chats_per_20s=5")
    with database("sqlite", tmp_path) as url, Server(url, env={"STICH_LIMITS": limits}) as srv:
        c = Client(srv)
        try:
            c.guest(uid("R"))
            tid = c.create(game="skat", seats=["me", "person", "bot:easy"])["table"]["id"]

            async def go() -> None:
                ws = await c.connect(tid)
                for i in range(6):
                    await ws.send({"type": "chat", "text": f"Zeile {i}"})
                err = await next_error(ws)
                assert err["code"] == "server.rate_limited"
                await barrier(ws)
                assert len(events_of(ws, "chat")) == 5
                await ws.close()

            run(go())
        finally:
            c.close()


@pytest.mark.parametrize("db_kind", DB_KINDS)
def test_quit_and_chat_survive_a_restart(db_kind: str, tmp_path: Path,
                                         run: Callable[..., Any]) -> None:
    """From the event log: the quit seat stays a bot's, the chat lines stay, the marks of
    the Anschreibezettel stay."""
    with database(db_kind, tmp_path) as url:
        srv = Server(url)
        srv.start()
        c = Client(srv)
        try:
            c.guest(uid("Q"))
            tid = c.create(game="baptisten", seats=["me", "bot:easy", "bot:easy"]
                           )["table"]["id"]

            async def first() -> int:
                ws = await c.connect(tid)
                await ws.send({"type": "chat", "text": "bis gleich"})
                await ws.until(kind("chat"))
                await play_random(ws, random.Random(5), kind("round_over"))
                assert c.post(f"/api/tables/{tid}/leave").status_code == 200
                await ws.until(kind("round_over"), timeout=60)
                await ws.close()
                return ws.you or 0

            me = run(first())
            srv.kill()
            srv.start()

            async def second() -> None:
                ws = await c.connect(tid)
                welcome = await ws.recv()
                assert welcome["you"] is None
                assert welcome["table"]["seats"][me]["quit"] is True
                assert [x["text"] for x in welcome["chat"]] == ["bis gleich"]
                sheet = c.get(f"/api/tables/{tid}/sheet").json()["sheet"]
                marks = [next(e["standin"] for e in r["entries"] if e["player"] == me)
                         for r in sheet["rounds"]]
                assert marks[0] is False and marks[-1] is True, marks
                assert not any(e["standin"] for r in sheet["rounds"] for e in r["entries"]
                               if e["player"] != me)
                await ws.close()

            run(second())
        finally:
            c.close()
            srv.stop()
