"""What a refusal of bad input says, and what bad input leaves in the log (issue 38):

- the reason of ``server.bad_json`` / ``server.bad_message`` is in the request's
  language, never a parser's English nor Python's internals ("maximum recursion depth
  exceeded while decoding …"), over HTTP and on the table socket;
- a lone surrogate anywhere (``seats``) is a refusal, never a 500 with a traceback;
- a WebSocket text frame that is not UTF-8 closes the socket with 1007 (RFC 6455) and
  leaves one line in the log, no traceback;
- a lobby filter that does not exist is refused (400), like the other bad filters.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import websockets
from websockets.frames import Frame, Opcode

from tests.server.harness import Client, Server
from tests.server.proto_helpers import error_of, next_error, plain_clients, uid

# a parser's or pydantic's own English, or Python's
ENGLISH_INSIDE = re.compile(r"recursion|decoding|Expecting|Input should|Field required|"
                            r"JSON decode|line \d+ column|char \d+|Extra inputs|valid")


@pytest.fixture
def clients(server: Server) -> Iterator[Callable[..., Client]]:
    yield from plain_clients(server)


BODIES: list[tuple[bytes, int, str, str]] = [
    (b"{bad", 422, "server.bad_json", "Die Nachricht ist kein JSON: ungültig bei Zeichen 2"),
    (b"[" * 3000 + b"]" * 3000, 400, "server.bad_json",
     "Die Nachricht ist kein JSON: zu tief verschachtelt"),
    (b'{"name": 5}', 422, "server.bad_message",
     "Die Nachricht passt nicht zum Protokoll: name: muss ein Text sein"),
    (b"{}", 422, "server.bad_message", "Die Nachricht passt nicht zum Protokoll: name: fehlt"),
    (b'{"name": "x", "admin": true}', 422, "server.bad_message",
     "Die Nachricht passt nicht zum Protokoll: admin: gehört nicht zu dieser Nachricht"),
    (b'{"name": "' + b"x" * 101 + b'"}', 422, "server.bad_message",
     "Die Nachricht passt nicht zum Protokoll: name: zu lang (höchstens 100)"),
]


@pytest.mark.parametrize(("body", "status", "code", "text"), BODIES)
def test_http_refusals_of_bad_bodies_speak_german(clients: Callable[..., Client], body: bytes,
                                                  status: int, code: str, text: str) -> None:
    c = clients("de")
    r = c.http.post("/api/guest?lang=de", content=body,
                    headers={"content-type": "application/json"})
    assert error_of(r) == (status, code, text)


def test_socket_refusals_of_bad_messages_speak_german(clients: Callable[..., Client],
                                                      run: Callable[..., Any]) -> None:
    c = clients("de")
    c.guest(uid("Wort"))
    tid = c.create(game="skat", seats=["me", "person", "person"])["table"]["id"]

    async def story() -> None:
        ws = await c.connect(tid)
        for frame, text in (
                ("{bad", "Die Nachricht ist kein JSON: ungültig bei Zeichen 2"),
                ("[" * 2000 + "]" * 2000, "Die Nachricht ist kein JSON: zu tief verschachtelt"),
                ('{"type": "act", "seq": 1}',
                 "Die Nachricht passt nicht zum Protokoll: act.action: fehlt"),
                ('{"type": "sync", "since": "3"}',
                 "Die Nachricht passt nicht zum Protokoll: sync.since: muss eine ganze Zahl "
                 "sein"),
                ('{"type": "nope"}', "Die Nachricht passt nicht zum Protokoll: "
                                     "type: unbekannter Wert")):
            await ws.send(frame)
            err = await next_error(ws)
            assert err["text"] == text, (frame[:40], err)
            assert not ENGLISH_INSIDE.search(err["text"]), err
        await ws.close()

    run(story())


@pytest.mark.parametrize("seats", [["me", "\ud800x", "bot:easy"], ["me", "bot:\udfff", "person"],
                                   ["\ud83d", "person", "person"]])
def test_a_lone_surrogate_is_refused_not_an_error(clients: Callable[..., Client],
                                                  server: Server, seats: list[str]) -> None:
    c = clients()
    c.guest(uid("Sur"))
    before = len(server.stderr)
    body = json.dumps({"game": "skat", "seats": seats})  # (ASCII: \\ud800 escapes)
    r = c.http.post("/api/tables", content=body.encode(),
                    headers={"content-type": "application/json"})
    status, code, text = error_of(r)
    assert status in (400, 422), r.text
    assert code in ("server.bad_seat_spec", "server.bad_message"), r.text
    assert "\ufffd" in text or code == "server.bad_message"
    assert not any("Traceback" in line for line in server.stderr[before:])


def test_a_text_frame_that_is_not_utf8_closes_the_socket_quietly(
        clients: Callable[..., Client], server: Server, run: Callable[..., Any]) -> None:
    c = clients()
    c.guest(uid("Bytes"))
    tid = c.create(game="skat", seats=["me", "person", "person"])["table"]["id"]

    async def story() -> None:
        before = len(server.stderr)
        for _ in range(3):  # whoever sends one: 1007, and one line each
            ws = await websockets.connect(f"{server.ws}/ws/tables/{tid}",
                                          additional_headers={"Cookie": c.cookie_header()})
            await ws.recv()
            ws.protocol.send_frame(Frame(Opcode.TEXT, b"\xff\xfe{"))
            ws.send_data()
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            assert ws.close_code == 1007
        await asyncio.sleep(0.5)
        log = server.stderr[before:]
        assert not any("Traceback" in line or "ERROR" in line for line in log), log
        assert sum("not UTF-8: closed (1007)" in line for line in log) == 3, log
        assert c.get("/api/health").json()["ok"] is True

    run(story())


def test_an_unknown_lobby_filter_is_refused(clients: Callable[..., Client]) -> None:
    c = clients()
    for status in ("open", "waiting", "running", "over"):
        assert c.get(f"/api/tables?status={status}").status_code == 200
    r = c.get("/api/tables?status=foo&lang=de")
    assert error_of(r) == (400, "server.bad_status",
                           "Aufgelistet werden open, waiting, running oder over, nicht „foo“")


def test_me_twice_is_refused_not_a_free_seat(clients: Callable[..., Client]) -> None:
    c = clients()
    c.guest(uid("Twice"))
    r = c.post("/api/tables?lang=de", {"game": "skat", "seats": ["me", "me", "bot:easy"]})
    assert error_of(r) == (400, "server.me_twice",
                           "Du kannst an einem Tisch nur einen Platz haben: „me“ einmal")
