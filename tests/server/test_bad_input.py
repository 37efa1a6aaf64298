"""Bad input over real sockets: every malformed, mistyped, oversized or hostile message
on the table socket and every bad HTTP body gets a clear refusal (a code and a text),
and the connection, the table and the database go on working.  The message schema is
fuzzed with hypothesis over one live connection."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote

import pytest
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stich.server.app import MAX_MESSAGE
from tests.server.harness import Client, Server, TableSocket
from tests.server.proto_helpers import (
    barrier,
    error_of,
    kind,
    next_error,
    plain_clients,
    table,
    uid,
    wait_my_turn,
)

SQL_NAME = "x'); DROP TABLE users;--"
HTML_NAME = "<script>alert(1)</script>"

@pytest.fixture
def clients(server: Server) -> Iterator[Callable[..., Client]]:
    """The conftest's ``clients``, as :class:`PlainClient` s (no CA bundle per client)."""
    yield from plain_clients(server)


def _guest(clients: Callable[..., Client], prefix: str = "G") -> Client:
    c = clients()
    c.guest(uid(prefix))
    return c


def _padded(prefix: str, size: int) -> str:
    """``{"type":"ping","pad":"xxx…"}`` of exactly ``size`` bytes."""
    base = json.dumps({**json.loads(prefix), "pad": ""}, separators=(",", ":"))
    text = base[:-2] + "x" * (size - len(base.encode())) + '"}'
    assert len(text.encode()) == size
    return text


def _cases(n: int, legal: str) -> list[tuple[str, str | bytes, str]]:
    """(what, frame, the refusal's code) with ``n`` the table's event number now."""
    def m(**kw: Any) -> str:
        return json.dumps(kw)

    return [
        ("malformed JSON", "{bad", "server.bad_json"),
        ("an empty frame", "", "server.bad_json"),
        ("JSON and more", '{"type": "ping"} x', "server.bad_json"),
        ("NaN as a number", f'{{"type": "act", "seq": NaN, "action": "{legal}"}}',
         "server.bad_message"),
        ("nested too deep", "[" * 2000 + "]" * 2000, "server.bad_json"),
        ("a JSON array", "[1, 2]", "server.bad_message"),
        ("a JSON number", "3", "server.bad_message"),
        ("a JSON string", '"act"', "server.bad_message"),
        ("JSON null", "null", "server.bad_message"),
        ("JSON true", "true", "server.bad_message"),
        ("an empty object", "{}", "server.bad_message"),
        ("an unknown type", m(type="nope"), "server.bad_message"),
        ("a type in capitals", m(type="ACT", seq=n, action=legal), "server.bad_message"),
        ("a type that is a number", m(type=5), "server.bad_message"),
        ("a missing action", m(type="act", seq=n), "server.bad_message"),
        ("a missing seq", m(type="act", action=legal), "server.bad_message"),
        ("a missing since", m(type="sync"), "server.bad_message"),
        ("an extra field", m(type="act", seq=n, action=legal, extra=1), "server.bad_message"),
        ("an extra field on ping", m(type="ping", x=None), "server.bad_message"),
        ("seq as a string", m(type="act", seq=str(n), action=legal), "server.bad_message"),
        ("seq as a boolean", m(type="act", seq=True, action=legal), "server.bad_message"),
        ("seq as a float", m(type="act", seq=float(n), action=legal), "server.bad_message"),
        ("action as a list", m(type="act", seq=n, action=[legal]), "server.bad_message"),
        ("a negative seq", m(type="act", seq=-1, action=legal), "server.bad_message"),
        ("a negative since", m(type="sync", since=-5), "server.bad_message"),
        ("a huge seq", m(type="act", seq=10**30, action=legal), "server.stale"),
        ("a seq of 4000 digits", m(type="act", seq=10**3999, action=legal), "server.stale"),
        ("a message of 4097 bytes", _padded('{"type": "ping"}', MAX_MESSAGE + 1),
         "server.too_large"),
        ("4096 bytes is not too large", _padded('{"type": "ping"}', MAX_MESSAGE),
         "server.bad_message"),
        ("over 4096 bytes in few characters",
         m(type="act", seq=n, action="€" * 1400), "server.too_large"),
        ("a binary frame", b'{"type": "ping"}', "server.bad_message"),
        ("an empty binary frame", b"", "server.bad_message"),
        ("an action of 201 characters", m(type="act", seq=n, action="S" * 201),
         "server.bad_message"),
        ("an empty action", m(type="act", seq=n, action=""), "server.bad_message"),
        ("an action of 200 characters", m(type="act", seq=n, action="S" * 200),
         "game.unreadable_action"),
        ("a blank action", m(type="act", seq=n, action="   "), "game.empty_action"),
        ("control characters", m(type="act", seq=n, action="\x00\x01\x1b[2J"),
         "game.unreadable_action"),
        ("HTML as an action", m(type="act", seq=n, action=HTML_NAME),
         "game.unreadable_action"),
        ("a lone surrogate", f'{{"type": "act", "seq": {n}, "action": "\\ud800"}}',
         "server.bad_message"),
        ("a lone surrogate as the type", '{"type": "\\udfff"}', "server.bad_message"),
    ]


def test_bad_messages_on_the_table_socket(clients: Callable[..., Client],
                                          run: Callable[..., Any]) -> None:
    a = _guest(clients, "A")
    tid = a.create(game="skat", games=3, seats=["me", "bot:easy", "bot:random"],
                   grace=3600)["table"]["id"]

    async def story() -> None:
        ws = await a.connect(tid)
        view = await wait_my_turn(ws)
        await ws.drain(0.1)
        n = ws.seq
        legal = view["legal"][0]
        for what, frame, code in _cases(n, legal):
            await ws.ws.send(frame)  # as it is: text or binary
            got = await barrier(ws)
            assert len(got) == 1, (what, got)
            err = got[0]
            assert err["type"] == "error" and err["code"] == code, (what, err)
            assert isinstance(err["text"], str) and len(err["text"]) > 10, (what, err)
            assert err["seq"] == n, what
            assert ws.messages[-1] == {"type": "pong", "seq": n}, what
        assert table(a, tid)["seq"] == n
        # The connection and the table survived: the action goes through now.
        await ws.act(legal)
        ev = await ws.until(lambda m: m["type"] in ("event", "error"))
        assert ev["type"] == "event" and ev["seq"] == n + 1 and ev["kind"] == "act", ev
        assert ev["seat"] == 0
        await ws.close()

    run(story())


def test_refusals_on_the_socket_speak_the_connection_language(
        clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    a = _guest(clients, "A")
    tid = a.create(game="skat", seats=["me", "person", "person"])["table"]["id"]

    async def story() -> None:
        a.lang = "de"
        ws = await a.connect(tid)
        for frame, text in (
                ("x" * 5000, "Die Nachricht ist zu lang (5000 Bytes, höchstens 4096)"),
                ('{"type": "pause"}', "Der Tisch läuft nicht")):
            await ws.send(frame)
            assert (await next_error(ws))["text"] == text
        await ws.send("{bad")
        assert (await next_error(ws))["text"].startswith("Die Nachricht ist kein JSON: ")
        await ws.close()

    run(story())


def test_bad_http_bodies(clients: Callable[..., Client], server: Server) -> None:
    c = _guest(clients, "Http")
    tid = c.create(game="skat", seats=["me", "person", "person"])["table"]["id"]
    paths = ["/api/register", "/api/login", "/api/guest", "/api/tables",
             f"/api/tables/{tid}/join", f"/api/tables/{tid}/seats/1/bot"]
    for path in paths:
        for raw in (b"{bad", b'{"name": "x",}', b"\xff\xfe", b'{"name": "x"'):
            r = c.http.post(path, content=raw, headers={"content-type": "application/json"})
            status, code, text = error_of(r)
            assert (status, code) == (422, "server.bad_json"), (path, raw, r.text)
            assert text.startswith("The message is not JSON: ") or \
                text.startswith("Die Nachricht ist kein JSON: ")
        for body in ([1, 2], "name", 3, None):
            if body is None and "/api/tables/" in path:
                continue  # joining or seating a bot needs no body
            r = c.post(path, body) if body is not None else c.http.post(path)
            assert error_of(r)[:2] == (422, "server.bad_message"), (path, body, r.text)

    wrong = [
        ("/api/register", {"name": 5, "password": "geheim123"}, "name"),
        ("/api/register", {"name": uid(), "password": None}, "password"),
        ("/api/register", {"name": uid(), "password": "geheim123", "admin": True}, "admin"),
        ("/api/login", {"name": ["a"], "password": "geheim123"}, "name"),
        ("/api/guest", {"name": {"first": "a"}}, "name"),
        ("/api/guest", {"name": "x" * 101}, "name"),
        ("/api/tables", {"games": "x"}, "games"),
        ("/api/tables", {"seats": "me"}, "seats"),
        ("/api/tables", {"variants": ["a"]}, "variants"),
        ("/api/tables", {"max_cards": 1.5}, "max_cards"),
        ("/api/tables", {"show_hands": "maybe"}, "show_hands"),
        ("/api/tables", {"rules": "x" * 201}, "rules"),
        (f"/api/tables/{tid}/join", {"seat": "x"}, "seat"),
        (f"/api/tables/{tid}/join", {"seat": -1}, "seat"),
        (f"/api/tables/{tid}/join", {"seat": 15}, "seat"),
        (f"/api/tables/{tid}/join", {"invite": 7}, "invite"),
    ]
    for path, body, field in wrong:
        r = c.post(path, body)
        status, code, text = error_of(r)
        assert (status, code) == (422, "server.bad_message"), (path, body, r.text)
        assert field in text, (path, body, text)
    for path in ("/api/users/x?limit=many", f"/api/tables/{tid}/seats/x/bot"):
        r = c.get(path) if "seats" not in path else c.post(path, {})
        assert error_of(r)[:2] == (422, "server.bad_message"), path
    # Unknown paths and methods answer in the same shape.
    r = c.get("/api/nothing/here?lang=en")
    assert error_of(r) == (404, "server.no_such_path", "There is no GET /api/nothing/here here")
    r = c.http.delete("/api/me", headers={"Accept-Language": "de"})
    assert error_of(r) == (405, "server.no_such_path", "DELETE /api/me gibt es hier nicht")
    assert table(c, tid)["seq"] == 1  # nothing happened to the table
    assert c.get("/api/health").json()["ok"] is True


HOSTILE = [SQL_NAME, HTML_NAME, "a\x00b", "Robert'); --", "1 OR 1=1", "%00", "a\\b", 'x"y',
           "admin'--", "\u202eevil"]


def test_hostile_names_break_nothing(clients: Callable[..., Client], server: Server,
                                     run: Callable[..., Any]) -> None:
    before = uid("Before")
    clients().register(before)
    c = clients()
    for name in HOSTILE:
        r = c.post("/api/register", {"name": name, "password": "geheim123"})
        assert error_of(r)[:2] == (400, "auth.name_invalid"), (name, r.text)
        r = c.post("/api/guest", {"name": name})
        assert error_of(r)[:2] == (400, "auth.name_invalid"), name
        r = c.post("/api/login", {"name": name, "password": "geheim123"})
        assert error_of(r)[:2] == (401, "auth.bad_login"), name
        for path, code in ((f"/api/users/{quote(name, safe='')}", "server.no_such_player"),
                           (f"/api/tables/{quote(name, safe='')}", "server.no_such_table")):
            if "/" in name:  # the path has a slash more: no such path at all
                code = "server.no_such_path"
            r = c.get(path)
            assert r.headers["content-type"] == "application/json", (path, r.text)
            assert error_of(r)[:2] == (404, code), (path, r.text)
        r = c.get("/api/bestenliste", params={"preset": name})
        assert error_of(r)[:2] == (400, "server.bad_preset"), name
        assert r.headers["content-type"] == "application/json"
    assert c.get("/api/me").json() == {"user": None}
    assert "<script>" not in c.get("/api/tables").text

    async def sockets() -> None:
        for name in HOSTILE:
            url = f"{server.ws}/ws/tables/{quote(name, safe='')}"
            if "/" in name:  # not the table socket's path
                with pytest.raises(websockets.InvalidStatus):
                    await websockets.connect(url)
                continue
            ws = await websockets.connect(url)
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert msg["type"] == "error" and msg["code"] == "server.no_such_table", msg
            await ws.close()

    run(sockets())
    # The users table still works: the account from before logs in, a new one is made.
    d = clients()
    assert d.post("/api/login", {"name": before, "password": "geheim123"}).status_code == 200
    assert d.get("/api/me").json()["user"]["name"] == before
    good = uid("After")
    assert clients().register(good)["name"] == good
    assert d.get("/api/bestenliste").status_code == 200
    assert server.proc is not None and server.proc.poll() is None


def test_values_no_row_can_have_are_not_found(clients: Callable[..., Client],
                                             run: Callable[..., Any],
                                             server: Server) -> None:
    c = _guest(clients)
    made = c.create(game="skat", seats=["me", "person", "person"], public=False)
    tid, invite = made["table"]["id"], made["invite"]
    other = clients()
    for path, code in (("/api/games/0", "server.no_such_game"),
                       ("/api/games/abc", "server.no_such_game"),
                       (f"/api/games/{'x' * 300}", "server.no_such_game"),
                       ("/api/games/a%00b", "server.no_such_game"),
                       (f"/api/games/{2**31}", "server.no_such_game"),
                       (f"/api/games/{10**23}", "server.no_such_game"),
                       ("/api/users/a%00b", "server.no_such_player"),
                       ("/api/tables/a%00b", "server.no_such_table"),
                       (f"/api/tables/{tid}?invite=%C3%A4", "server.no_such_table"),
                       (f"/api/tables/{tid}?invite=%00", "server.no_such_table"),
                       (f"/api/tables/{'x' * 300}", "server.no_such_table")):
        assert error_of(other.get(path))[:2] == (404, code), path
    r = other.post(f"/api/tables/{tid}/join", {"invite": "ä" * 20})
    assert error_of(r)[:2] == (401, "auth.not_logged_in")
    other.guest(uid("O"))
    r = other.post(f"/api/tables/{tid}/join", {"invite": "ä" * 20})
    assert error_of(r)[:2] == (404, "server.no_such_table")
    r = other.http.post(f"/api/tables/{tid}/join", content=b'{"invite": "\\ud800\\ud800"}',
                        headers={"content-type": "application/json"})  # lone surrogates
    assert error_of(r)[:2] == (422, "server.bad_message")
    reg = clients()
    name = reg.register(uid("R"))["name"]
    for q in ("offset=100000000000000000000", "limit=100000000000000000000",
              f"offset={2**31}&limit={2**40}"):
        r = reg.get(f"/api/users/{name}?{q}")
        assert r.status_code == 200 and r.json()["games"] == [], (q, r.text)
    r = other.post("/api/login", {"name": "a\x00b", "password": "x\x00"})
    assert error_of(r)[:2] == (401, "auth.bad_login")

    async def sockets() -> None:
        for q in ("invite=%C3%A4", "invite=%00"):
            ws = await websockets.connect(f"{server.ws}/ws/tables/{tid}?{q}")
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert msg["code"] == "server.no_such_table", (q, msg)
            await ws.close()
        ws = await websockets.connect(f"{server.ws}/ws/tables/a%00b")
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert msg["code"] == "server.no_such_table"
        await ws.close()

    run(sockets())
    assert table(other, tid, invite=invite)["seq"] == 1


def test_odd_query_parameters_on_the_socket(clients: Callable[..., Client],
                                            run: Callable[..., Any], server: Server) -> None:
    a = _guest(clients, "Q")
    tid = a.create(game="skat", seats=["me", "person", "person"])["table"]["id"]

    async def story() -> None:
        for query in ("since=abc", "since=-5", "since=1e9", "since=" + "9" * 5000,
                      "lang=xx", "lang=" + "e" * 3000, "invite=" + "x" * 3000, "x=1&x=2",
                      "lang=en"):
            raw = await websockets.connect(f"{server.ws}/ws/tables/{tid}?{query}",
                                           additional_headers={"Cookie": a.cookie_header()})
            ws = TableSocket(raw)
            welcome = await ws.recv()
            assert welcome["type"] == "welcome" and welcome["you"] == 0, (query, welcome)
            snap = await ws.recv()  # none of these asks for events it can be sent
            assert snap["type"] == "snapshot" and snap["seq"] == welcome["seq"], (query, snap)
            await ws.send({"type": "pause"})
            err = await next_error(ws)
            assert err["code"] == "server.not_running", (query, err)
            # Without a language it knows (and no Accept-Language), the site speaks German.
            want = "The table is not running" if query == "lang=en" else \
                "Der Tisch läuft nicht"
            assert err["text"] == want, (query, err)
            await ws.close()

    run(story())


# --- fuzzing the message schema over one live connection ------------------------------

TYPES = ["act", "pause", "resume", "end", "sync", "ping", "ACT", "Ping", "", "pong",
         "error", "event", "act ", "acts"]
_odd_text = st.text(st.characters(categories=["Cs", "Cc", "Cf", "Po", "Nd", "Lu"]),
                   max_size=12)  # lone surrogates, control and format characters
_scalars = (st.none() | st.booleans() | st.integers() | st.floats()
            | st.text(max_size=20) | _odd_text)
JSON = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
FIELD = st.one_of(st.integers(-3, 12), st.integers(), st.sampled_from(TYPES),
                  st.sampled_from(["18", "pass", "hand", "SA", "CJ", "discard CJ HA",
                                   "declare grand", "bid 2 stake 5", ""]),
                  st.text(max_size=220), _odd_text, JSON)
NEAR = st.fixed_dictionaries({"type": st.sampled_from(TYPES) | FIELD},
                             optional={"seq": FIELD, "since": FIELD, "action": FIELD,
                                       "extra": FIELD})
_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=80)
FRAME = st.one_of(
    NEAR.map(json.dumps),
    JSON.map(json.dumps),
    _text,
    st.binary(max_size=40),
    st.tuples(NEAR, st.integers(4000, 4200)).map(
        lambda t: json.dumps({**t[0], "pad": "x" * t[1]})),
)

REFUSALS = {"server.bad_json", "server.bad_message", "server.too_large", "server.stale",
            "server.not_started", "server.not_running", "server.not_open_ended"}


def _parsed(frame: str | bytes) -> Any:
    """The message as the server would read it, or None when it cannot be one."""
    if isinstance(frame, bytes) or len(frame.encode()) > MAX_MESSAGE:
        return None
    try:
        return json.loads(frame)
    except (ValueError, RecursionError):
        return None


def _is_ping(data: Any) -> bool:
    return data == {"type": "ping"}


def _is_sync(data: Any) -> bool:
    return (isinstance(data, dict) and set(data) == {"type", "since"}
            and data["type"] == "sync" and type(data["since"]) is int
            and data["since"] >= 0)


def test_fuzzed_messages_never_hurt_the_connection_or_the_table(
        clients: Callable[..., Client]) -> None:
    """A seated player at a table that has not started: every message is answered
    (a refusal, a pong, or for ``sync`` the events again), none changes the table, and
    the connection stays.  Then the table fills, starts, and an action works."""
    a, b, c = _guest(clients, "F"), _guest(clients, "B"), _guest(clients, "C")
    tid = a.create(game="skat", games=3, seats=["me", "person", "person"])["table"]["id"]
    n0 = table(a, tid)["seq"]
    counts = {"refused": 0, "ping": 0, "sync": 0}
    loop = asyncio.new_event_loop()
    try:
        ws: TableSocket = loop.run_until_complete(a.connect(tid))
        loop.run_until_complete(ws.drain(0.2))

        async def one(frame: str | bytes) -> None:
            data = _parsed(frame)
            await ws.ws.send(frame)  # as it is: text or binary
            got = await barrier(ws, pongs=2 if _is_ping(data) else 1)
            assert ws.messages[-1] == {"type": "pong", "seq": n0}
            if _is_ping(data):
                assert got == []
                counts["ping"] += 1
            elif _is_sync(data):
                assert all(m["type"] in ("event", "snapshot") and m["seq"] <= n0
                           for m in got), got
                counts["sync"] += 1
            else:
                assert len(got) == 1, (frame, got)
                err = got[0]
                assert err["type"] == "error" and err["code"] in REFUSALS, (frame, err)
                assert isinstance(err["text"], str) and err["text"], err
                assert err["seq"] == n0
                counts["refused"] += 1

        @settings(max_examples=150, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow])
        @given(FRAME)
        def fuzz(frame: str | bytes) -> None:
            loop.run_until_complete(asyncio.wait_for(one(frame), 30))

        fuzz()
        assert counts["refused"] > 50
        assert table(a, tid)["seq"] == n0

        # Still connected, and the table still works: it fills and starts.
        assert b.post(f"/api/tables/{tid}/join", {}).status_code == 200
        assert c.post(f"/api/tables/{tid}/join", {}).status_code == 200

        async def after() -> None:
            start = await ws.until(kind("deal"))
            assert start["seq"] == n0 + 4
            evs = [m for m in ws.messages if m["type"] == "event" and m["seq"] > n0]
            assert [e["kind"] for e in evs] == ["seat", "seat", "start", "deal"]
            await ws.close()

        loop.run_until_complete(asyncio.wait_for(after(), 30))
    finally:
        loop.close()
