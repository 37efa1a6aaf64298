"""The turn clock over real sockets: the settings and their defaults, the ``timer``
message, a bot's move for the seat when the clock and the bank ran out (``by: clock``),
or the seat marked away with a stand-in; the stand-in marks of the list; and an action
is stale only after an event that changed the game."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.server.harness import Client, Server, TableSocket
from tests.server.proto_helpers import (
    barrier,
    error_of,
    guest,
    kind,
    my_turn,
    next_error,
    plain_clients,
    play_random,
    table,
    wait_my_turn,
)


@pytest.fixture
def clients(server: Server) -> Iterator[Callable[..., Client]]:
    yield from plain_clients(server)



def _timers(ws: TableSocket) -> list[dict[str, Any]]:
    """The timers the socket was told of: the welcome's, then the ``timer`` messages."""
    return [m["timer"] if m["type"] == "welcome" else m for m in ws.messages
            if m["type"] == "timer" or (m["type"] == "welcome" and m.get("timer"))]


def test_clock_defaults_and_bounds(clients: Callable[..., Client]) -> None:
    c = guest(clients, "C")
    seats = ["me", "bot:easy", "bot:easy"]
    r = c.post("/api/tables", {"seats": seats})  # the API's own defaults
    assert r.status_code == 200, r.text
    info = r.json()["table"]
    assert (info["clock"], info["bank"], info["on_timeout"], info["next_after"]) == \
        (30, 60, "bot", 10)
    c.post(f"/api/tables/{info['id']}/close")
    r = c.post("/api/tables", {"seats": seats, "public": False})
    assert r.status_code == 200, r.text
    assert r.json()["table"]["clock"] == 0  # friends' tables: no clock unless asked
    c.post(f"/api/tables/{r.json()['table']['id']}/close")
    de = guest(clients, "C", "de")
    for body, code, word in (({"clock": 301}, "server.clock", "Bedenkzeit"),
                             ({"clock": -1}, "server.clock", "Bedenkzeit"),
                             ({"bank": 601}, "server.bank", "Zeitkonto"),
                             ({"next_after": 121}, "server.next_after", "Wartezeit"),
                             ({"next_after": -1}, "server.next_after", "Wartezeit"),
                             ({"on_timeout": "kick"}, "server.on_timeout", "Bedenkzeit")):
        for who, text_word in ((c, None), (de, word)):
            r = who.post("/api/tables", {"seats": seats, **body}, params={"lang": who.lang})
            status, got, text = error_of(r)
            assert (status, got) == (400, code), (body, r.text)
            if text_word:
                assert text_word in text, text


def test_the_clock_plays_a_move_when_time_is_up(clients: Callable[..., Client],
                                               run: Callable[..., Any]) -> None:
    c = guest(clients, "C")
    tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                   clock=1, bank=1)["table"]["id"]

    async def go() -> None:
        ws = await c.connect(tid)
        welcome = ws.messages[0] if ws.messages else await ws.recv()
        assert welcome["type"] == "welcome" and "timer" in welcome
        await wait_my_turn(ws)
        await barrier(ws)
        timer = _timers(ws)[-1]
        assert timer["kind"] == "move" and timer["seat"] == ws.you
        assert timer["total"] == 2000 and 500 <= timer["left"] <= 2000, timer
        assert 500 <= timer["bank"] <= 1000, timer
        act = await ws.until(lambda m: m["type"] == "event" and m["kind"] == "act"
                             and m["seat"] == ws.you, timeout=6)
        assert act["data"]["by"] == "clock"
        # the bank is used up in this game: the next turn has the clock alone
        after_act = ws.messages.index(act) + 1
        if not my_turn(ws.view) and ws.view and ws.view["phase"] != "OVER":
            await ws.until(lambda m: (m["type"] == "timer" and m["seat"] == ws.you)
                           or (m["type"] == "event" and m["kind"] == "game_over"), 20)
        # only timers of this game: after its game_over the next game has a fresh bank
        this_game = list(itertools.takewhile(
            lambda m: not (m["type"] == "event" and m["kind"] == "game_over"),
            ws.messages[after_act:]))
        mine = [m for m in this_game if m["type"] == "timer" and m["seat"] == ws.you
                and m["kind"] == "move"]
        if mine:
            assert mine[-1]["total"] == 1000 and mine[-1]["bank"] == 0, mine[-1]
        over = await ws.until(kind("game_over"), timeout=60)
        assert ws.you in over["data"]["line"]["standin"]
        lst = c.get(f"/api/tables/{tid}/list").json()["list"]
        assert ws.you in lst["games"][0]["standin"]
        await ws.close()

    run(go())


def test_no_clock_no_timer(clients: Callable[..., Client],
                           run: Callable[..., Any]) -> None:
    c = guest(clients, "C")
    tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                   clock=0)["table"]["id"]

    async def go() -> None:
        ws = await c.connect(tid)
        await wait_my_turn(ws)
        await asyncio.sleep(1.2)
        await barrier(ws)
        assert all(t["kind"] is None for t in _timers(ws))
        assert not [m for m in ws.messages if m["type"] == "event" and m["kind"] == "act"
                    and m["seat"] == ws.you]
        over = await play_random(ws, random.Random(2), kind("game_over"), timeout=60)
        assert over["data"]["line"]["standin"] == []
        await ws.close()

    run(go())


def test_clock_away_puts_in_a_standin(clients: Callable[..., Client],
                                      run: Callable[..., Any]) -> None:
    c = guest(clients, "C")
    tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                   clock=1, bank=0, on_timeout="away")["table"]["id"]

    async def go() -> None:
        ws = await c.connect(tid)
        await wait_my_turn(ws)
        away = await ws.until(kind("away"), timeout=5)
        standin = await ws.until(kind("standin"), timeout=2)
        assert away["seat"] == standin["seat"] == ws.you
        assert standin["seq"] == away["seq"] + 1
        act = await ws.until(lambda m: m["type"] == "event" and m["kind"] == "act"
                             and m["seat"] == ws.you, timeout=10)
        assert act["data"]["by"] == "standin"
        seat = table(c, tid)["seats"][ws.you]
        assert seat["away"] and seat["standin"]
        await ws.send({"type": "back"})
        back = await ws.until(kind("back"))
        assert back["seat"] == ws.you
        seat = table(c, tid)["seats"][ws.you]
        assert not seat["away"] and not seat["standin"]
        await ws.close()

    run(go())


def test_loose_events_do_not_make_an_act_stale(clients: Callable[..., Client],
                                               run: Callable[..., Any]) -> None:
    c = guest(clients, "C")
    tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                   )["table"]["id"]
    watcher = guest(clients, "C")

    async def go() -> None:
        ws = await c.connect(tid)
        view = await wait_my_turn(ws)
        seen = ws.seq
        w = await watcher.connect(tid)
        await w.send({"type": "chat", "text": "viel Glück"})
        chat = await ws.until(kind("chat"))
        assert chat["seq"] == seen + 1
        await ws.act(view["legal"][0], seq=seen)  # sent before the chat line came
        act = await ws.until(lambda m: m["type"] in ("event", "error"))
        assert act["type"] == "event" and act["kind"] == "act", act
        # an event that changed the game does make it stale; the seat may move again
        # before anybody else does (it won the auction: Hand or pick-up, the discard)
        moved = False
        while not moved:
            if my_turn(ws.view):
                assert ws.view is not None
                await ws.act(ws.view["legal"][0])
            m = await ws.until(lambda m: m["type"] == "event" and m["kind"] == "act")
            moved = m["seat"] != ws.you
        await wait_my_turn(ws)
        await ws.act(ws.view["legal"][0] if ws.view else "pass", seq=act["seq"])
        err = await next_error(ws)
        assert err["code"] == "server.stale"
        await w.close()
        await ws.close()

    run(go())


def test_an_actions_timer_comes_in_its_events_frame(clients: Callable[..., Client],
                                                   run: Callable[..., Any]) -> None:
    """After an action the table's timer changes too: it rides in the action's event
    frame (``timer``), one frame instead of two, and the clients take it as the message
    after the event."""
    c = guest(clients, "C")
    tid = c.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"],
                   clock=30)["table"]["id"]

    async def go() -> None:
        ws = await c.connect(tid)
        # to a trick that C leads: after C's card a bot is to move, whatever the deal
        # (after a bid, or a won bidding, it may be C's turn again: a new clock of C's)
        while True:
            v = await wait_my_turn(ws)
            if v["phase"] == "PLAY" and not v["trick"]:
                break
            await ws.act(v["legal"][0])
            await ws.until(lambda m: m["type"] == "event" and m["kind"] == "act"
                           and m["seat"] == ws.you)
        await barrier(ws)
        timer = _timers(ws)[-1]
        assert timer["kind"] == "move" and timer["seat"] == ws.you
        assert ws.view is not None
        await ws.act(ws.view["legal"][0])
        mine = await ws.until(lambda m: m["type"] == "event" and m["kind"] == "act"
                              and m["seat"] == ws.you)
        frames = ws.frames
        after = await ws.recv()  # a bot is to move now: the clock stopped
        assert after == {"type": "timer", "kind": None, "seat": None, "left": 0,
                         "total": 0, "bank": 0}, after
        assert ws.frames == frames, "the timer came in a frame of its own"
        assert "timer" not in mine  # (taken out by the harness, as the browser does)
        await ws.close()

    run(go())
