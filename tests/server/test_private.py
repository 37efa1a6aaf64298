"""Private means private: every route of the app, walked by strangers.

A registered player opens three private tables (Skat of bots alone, Skat where she
plays herself, Baptistenskat of bots alone) and finishes games there.  Then every HTTP
route and page of the app (enumerated from the app itself, so that a new route cannot
be forgotten) and the table WebSocket are asked, with the private tables' ids, the
games' keys and her name filled in, by an anonymous visitor, a guest and a registered
stranger, with no invite and with a wrong one.  No answer may hold a private table's id,
its invite or a game's key (but what it was asked with), every request naming one is
refused (the table page is a shell whose socket is refused), nothing may change at
the tables, and no analysis of her games may be started.  The same requests
from her, or with the invite, do see the games (so the walk reaches real data).
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import websockets
from fastapi.routing import APIWebSocketRoute
from starlette.routing import Mount

from stich.server.app import ServeConfig, create_app
from tests.server.harness import Client, Server
from tests.server.proto_helpers import kind, plain_clients, play_random, uid


@pytest.fixture
def clients(server: Server) -> Iterator[Callable[..., Client]]:
    yield from plain_clients(server)


def _wait_over(c: Client, tid: str, invite: str, timeout: float = 90.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        t = c.get(f"/api/tables/{tid}", params={"invite": invite}).json()["table"]
        if t["status"] == "over":
            return
        time.sleep(0.2)
    raise AssertionError(f"table {tid} did not finish")


def _games(c: Client, tid: str, invite: str) -> list[str]:
    r = c.get(f"/api/tables/{tid}/games", params={"invite": invite})
    assert r.status_code == 200, r.text
    return [g["id"] for g in r.json()["games"]]


def _routes() -> list[tuple[str, str, list[str]]]:
    """(kind, path, methods) of every route of the app: ``http``, ``ws`` or ``static``
    (routers included into the app are expanded: FastAPI keeps them as one entry)."""
    app = create_app(ServeConfig(db="sqlite://"))
    out: list[tuple[str, str, list[str]]] = []

    def add(r: Any) -> None:
        if hasattr(r, "effective_route_contexts"):  # an included router
            for c in r.effective_route_contexts():
                add(getattr(c, "original_route", c) if not hasattr(c, "path") else c)
        elif isinstance(r, Mount):
            out.append(("static", r.path, []))
        elif isinstance(r, APIWebSocketRoute) or \
                isinstance(getattr(r, "original_route", None), APIWebSocketRoute):
            out.append(("ws", r.path, []))
        else:
            out.append(("http", r.path, sorted(getattr(r, "methods", None) or ["GET"])))

    for r in app.routes:
        add(r)
    assert any(p == "/api/games/{key}" for _, p, _ in out), out  # the expansion worked
    return out


PARAM = re.compile(r"\{(\w+)(?::\w+)?\}")


def test_every_route_refuses_a_private_tables_data_to_strangers(
        server: Server, clients: Callable[..., Client]) -> None:
    owner = clients()
    name = uid("Geheim")
    owner.register(name)
    made = [owner.create(game="skat", games=3, seats=["bot:random"] * 3, public=False),
            owner.create(game="baptisten", seats=["bot:random"] * 3, max_cards=2,
                         public=False),
            owner.create(game="skat", games=3, seats=["me", "bot:random", "bot:random"],
                         public=False)]
    tables = [(m["table"]["id"], m["invite"]) for m in made]
    for tid, invite in tables[:2]:
        _wait_over(owner, tid, invite)

    async def play_one() -> None:  # she plays one game at her own table
        ws = await owner.connect(tables[2][0])
        await play_random(ws, random.Random(7), kind("game_over"))
        await ws.close()
    asyncio.run(asyncio.wait_for(play_one(), 120))

    keys = [k for tid, invite in tables for k in _games(owner, tid, invite)]
    skat_keys = [k for tid, invite in (tables[0], tables[2]) for k in _games(owner, tid, invite)]
    assert len(keys) >= 3 + 1 + 1
    # her private tournament (issue 43): its id and invite are as secret as a table's
    r = owner.post("/api/tournaments", {"name": "Geheimturnier", "public": False})
    assert r.status_code == 200, r.text
    tournament = r.json()["tournament"]
    secrets = [tid for tid, _ in tables] + [inv for _, inv in tables] + keys \
        + [tournament["id"], tournament["invite"]]
    seqs = {tid: owner.get(f"/api/tables/{tid}", params={"invite": inv}).json()["table"]["seq"]
            for tid, inv in tables}

    # the walk reaches real data: she, and anybody with the invite, see the games
    anyone = clients()
    for key in keys[:2]:
        assert owner.get(f"/api/games/{key}").status_code == 200
        assert owner.get(f"/games/{key}").status_code == 200
    assert anyone.get(f"/api/games/{keys[0]}", params={"invite": tables[0][1]}).status_code \
        == 200
    assert keys[-1] in owner.get(f"/api/users/{name}").text  # her own page lists her game

    guest, stranger = clients(), clients()
    guest.guest(uid("Gast"))
    stranger.register(uid("Fremd"))
    values = {"table_id": [tid for tid, _ in tables], "key": keys, "name": [name],
              "seat": ["0"], "tournament_id": [tournament["id"]]}
    asked = 0
    walked: set[tuple[str, str]] = set()
    routes = _routes()
    kinds = {k for k, _, _ in routes}
    assert kinds == {"http", "ws", "static"}, kinds
    for kind_, path, methods in routes:
        params = PARAM.findall(path)
        unknown = set(params) - set(values)
        assert not unknown, f"a new route parameter {unknown} in {path}: add it to this walk"
        if kind_ == "static":
            assert path == "/static"  # the package's files: nothing of any table
            continue
        fills: list[dict[str, str]] = [{}]
        for p in params:
            fills = [{**f, p: v} for f in fills for v in values[p]]
        for fill in fills:
            url = path
            for p, v in fill.items():
                url = re.sub(r"\{" + p + r"(?::\w+)?\}", v, url)
            if kind_ == "ws":
                for who in (None, guest, stranger):
                    _ws_refused(server, url, who)
                    asked += 1
                continue
            for who in (anyone, guest, stranger):
                for query in ({}, {"invite": "wrong-invite"}):
                    for method in methods:
                        if method == "HEAD":
                            continue
                        r = who.http.request(method, url, params=query,
                                             json={} if method == "POST" else None)
                        asked += 1
                        walked.add((method, path))
                        # nothing but what was asked for may be named (a refusal may
                        # repeat the id it was given) ...
                        leaked = [s for s in secrets if s in r.text and s not in url]
                        assert not leaked, (method, url, query, r.status_code, leaked)
                        # ... and whatever names a private table or game is refused,
                        # but the table page itself: a shell whose socket is refused
                        if any(s in url for s in secrets) and path != "/t/{table_id}":
                            assert r.status_code in (401, 403, 404), (method, url, r.text)
    assert asked > 100
    # the routes that show or start a game's analysis were walked, both of them (starting
    # one is a POST since issue 38: a GET with a side effect could be an <img> elsewhere)
    assert {("GET", "/api/games/{key}/analysis"),
            ("POST", "/api/games/{key}/analysis")} <= walked, sorted(walked)
    for key in skat_keys:  # no stranger's request started an analysis of her games
        r = owner.get(f"/api/games/{key}/analysis")
        assert r.status_code == 404 and r.json()["error"]["code"] == "server.no_analysis", \
            r.text
    after = {tid: owner.get(f"/api/tables/{tid}", params={"invite": inv}).json()["table"]
             for tid, inv in tables}
    for tid, t in after.items():  # nobody sat down, closed or played anything
        assert t["seq"] >= seqs[tid]
        names = {s.get("name") for s in t["seats"] if s["kind"] == "person"}
        assert names <= {name}, names
    assert after[tables[2][0]]["status"] == "running"  # not closed by a stranger


def _ws_refused(server: Server, path: str, who: Client | None) -> None:
    async def go() -> tuple[list[str], int | None]:
        headers = {"Cookie": who.cookie_header()} if who is not None else {}
        texts: list[str] = []
        async with websockets.connect(server.ws + path, additional_headers=headers) as ws:
            try:
                while True:
                    texts.append(str(await asyncio.wait_for(ws.recv(), 10)))
            except websockets.ConnectionClosed as e:
                return texts, e.rcvd.code if e.rcvd else None
    texts, code = asyncio.run(go())
    assert code == 4404, (path, texts)
    assert len(texts) == 1 and '"server.no_such_table"' in texts[0], texts


def test_a_private_tables_games_are_not_listed_for_others(
        server: Server, clients: Callable[..., Client]) -> None:
    """The Bestenliste counts a private table's games but links none of them; the
    Baptistenskat ranking lists only public tables' games."""
    owner = clients()
    name = uid("Zaehlt")
    owner.register(name)
    made = owner.create(game="baptisten", seats=["me", "bot:random", "bot:random"],
                        max_cards=1, public=False)
    tid, invite = made["table"]["id"], made["invite"]

    async def play() -> None:
        ws = await owner.connect(tid)
        await play_random(ws, random.Random(3), kind("end"))
        await ws.close()
    asyncio.run(asyncio.wait_for(play(), 120))
    key = _games(owner, tid, invite)[0]
    viewer = clients()
    ranking = viewer.get("/api/baptisten/ranking").json()
    assert any(p["name"] == name and p["games"] == 1 for p in ranking["players"])
    assert key not in str(ranking) and tid not in str(ranking)
    page = viewer.get("/bestenliste").text
    assert name in page and key not in page and tid not in page
    player_page = viewer.get(f"/u/{name}").text
    assert name in player_page and key not in player_page and tid not in player_page
    mine = owner.get("/api/baptisten/ranking").json()
    assert key not in str(mine)  # the ranking's list is the public one, for everybody
