"""Accounts over real sockets: register, log in and out, the session cookie, refusals,
a guest who plays from an invite link and registers afterwards (the games become
theirs, in their player page and in the Bestenliste), and one name, one person at a
time (a guest holds its name while it has a live session)."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select, update

from stich.server.names import look_key, name_key
from stich.server.store.db import Store, sync_url, token_hash
from stich.server.store.models import Session, User
from tests.server.harness import Client, Server
from tests.server.proto_helpers import error_of, kind, plain_clients, play_random, table, uid


@pytest.fixture
def clients(server: Server) -> Iterator[Callable[..., Client]]:
    """The conftest's ``clients``, as :class:`PlainClient` s (no CA bundle per client)."""
    yield from plain_clients(server)


def _cookie_attrs(r: httpx.Response) -> tuple[str, dict[str, str]]:
    """The session cookie's value and its attributes (lower-case names) from Set-Cookie
    (a login also sets the browser's device cookie: ``test_lockout.py``)."""
    headers = [h for h in r.headers.get_list("set-cookie")
               if not h.startswith("stich_device=")]
    assert len(headers) == 1, headers
    first, *attrs = [p.strip() for p in headers[0].split(";")]
    name, _, value = first.partition("=")
    assert name == "stich_session"
    out = {}
    for a in attrs:
        k, _, v = a.partition("=")
        out[k.lower()] = v
    return value, out


def test_register_login_logout_and_me(clients: Callable[..., Client], server: Server) -> None:
    c = clients()
    name = uid("Reg")
    assert c.get("/api/me").json() == {"user": None}
    r = c.post("/api/register", {"name": name, "password": "geheim123"})
    assert r.status_code == 200, r.text
    user = r.json()["user"]
    assert user["name"] == name and user["guest"] is False and isinstance(user["id"], int)
    token, attrs = _cookie_attrs(r)
    assert len(token) >= 32
    assert "httponly" in attrs
    assert attrs["samesite"].lower() == "lax"
    assert attrs["path"] == "/"
    assert "secure" not in attrs  # plain http here; https would add Secure
    assert c.get("/api/me").json()["user"] == user

    # Log out: the cookie is cleared and the session ends on the server too.
    r = c.post("/api/logout")
    assert r.status_code == 200 and r.json() == {"user": None}
    value, attrs = _cookie_attrs(r)
    assert value in ("", '""') and attrs["max-age"] == "0"
    assert c.get("/api/me").json() == {"user": None}
    with httpx.Client(base_url=server.url, cookies={"stich_session": token}) as old:
        assert old.get("/api/me").json() == {"user": None}

    # Wrong password: 401 auth.bad_login, no cookie, still nobody.
    r = c.post("/api/login", {"name": name, "password": "geheim124"})
    assert error_of(r)[:2] == (401, "auth.bad_login")
    assert "set-cookie" not in r.headers
    assert c.get("/api/me").json() == {"user": None}
    # An unknown name is refused the same way (nothing tells which names exist).
    r = c.post("/api/login", {"name": uid("Nobody"), "password": "geheim123"})
    assert error_of(r)[:2] == (401, "auth.bad_login")

    # Log in again, the name in another case and with spaces around it.
    r = c.post("/api/login", {"name": f"  {name.upper()} ", "password": "geheim123"})
    assert r.status_code == 200, r.text
    assert r.json()["user"] == user
    token2, attrs = _cookie_attrs(r)
    assert token2 != token and "httponly" in attrs and attrs["samesite"].lower() == "lax"
    assert c.get("/api/me").json()["user"] == user


def test_refusals_speak_the_requested_language(clients: Callable[..., Client]) -> None:
    c = clients()
    r = c.post("/api/login?lang=de", {"name": uid(), "password": "geheim123"})
    assert error_of(r) == (401, "auth.bad_login", "Name oder Passwort falsch")
    r = c.post("/api/login", {"name": uid(), "password": "geheim123"},
               headers={"Accept-Language": "en-GB,en;q=0.8"})
    assert error_of(r) == (401, "auth.bad_login", "Wrong name or password")


def test_a_name_is_taken_whatever_its_case(clients: Callable[..., Client]) -> None:
    name = uid("Dup")
    clients().register(name)
    for other in (name.lower(), f" {name.swapcase()}  "):
        c = clients()
        r = c.post("/api/register", {"name": other, "password": "anderes123"})
        status, code, text = error_of(r)
        assert (status, code) == (409, "auth.name_taken"), other
        assert other.strip() in text
        assert c.get("/api/me").json() == {"user": None}
    # A guest can neither go by a registered name nor register it.
    g = clients()
    r = g.post("/api/guest", {"name": name.lower()})
    assert error_of(r)[:2] == (409, "auth.name_taken")
    assert g.get("/api/me").json() == {"user": None}
    assert g.guest(name + "x")["guest"] is True
    r = g.post("/api/register", {"name": name.lower(), "password": "geheim123"})
    assert error_of(r)[:2] == (409, "auth.name_taken")
    assert g.get("/api/me").json()["user"]["guest"] is True


def test_password_length(clients: Callable[..., Client]) -> None:
    c = clients()
    name = uid("Pw")
    r = c.post("/api/register", {"name": name, "password": "1234567"})
    assert error_of(r)[:2] == (400, "auth.password_short")
    assert "8" in error_of(r)[2]
    r = c.post("/api/register", {"name": name, "password": "x" * 201})
    assert error_of(r)[:2] == (400, "auth.password_long")
    # Nothing was made by the refusals.
    assert error_of(c.post("/api/login", {"name": name, "password": "1234567"}))[1] \
        == "auth.bad_login"
    assert c.get("/api/me").json() == {"user": None}
    r = c.post("/api/register", {"name": name, "password": "12345678"})
    assert r.status_code == 200, r.text


BAD_NAMES = ["", "   ", "x" * 25, "-dash", ".dot", "semi;colon", "quo'te", 'dou"ble',
             "<script>alert(1)</script>", "x'); DROP TABLE users;--", "a/b", "emoji😀",
             "back\\slash", "pct%20"]


@pytest.mark.parametrize("path", ["/api/register", "/api/guest"])
def test_invalid_names_are_refused(clients: Callable[..., Client], path: str) -> None:
    c = clients()
    for bad in BAD_NAMES:
        body: dict[str, Any] = {"name": bad}
        if path == "/api/register":
            body["password"] = "geheim123"
        r = c.post(path, body)
        assert error_of(r)[:2] == (400, "auth.name_invalid"), bad
        assert "set-cookie" not in r.headers
    assert c.get("/api/me").json() == {"user": None}
    if path == "/api/guest":
        # The longest name is fine, and so are letters of any script and inner spaces,
        # a run of them made one (the same check as for registering).
        for good in ("x" * 24, f"Jürgen  Öß-{uid('')[:5]}"):
            r = clients().post(path, {"name": good})
            assert r.status_code == 200, r.text
            assert r.json()["user"]["name"] == " ".join(good.split())


def test_a_guest_plays_from_an_invite_link_then_registers(
        clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    host = clients()
    host.guest(uid("Host"))  # a guest may open a table too
    made = host.create(game="skat", games=3, public=False,
                       seats=["person", "bot:easy", "bot:random"])
    tid, invite = made["table"]["id"], made["invite"]
    assert made["table"]["status"] == "waiting" and made["table"]["public"] is False
    assert tid not in [t["id"] for t in host.get("/api/tables").json()["tables"]]

    guest = clients()
    gname = uid("Gast")
    g = guest.guest(gname)
    assert g["guest"] is True and g["name"] == gname
    me = guest.get("/api/me").json()["user"]
    assert me == g
    twin = clients().post("/api/guest", {"name": gname})  # the name is the guest's now
    assert error_of(twin)[:2] == (409, "auth.name_taken")

    # Without the invite the private table does not exist for the guest.
    assert error_of(guest.post(f"/api/tables/{tid}/join", {}))[:2] \
        == (404, "server.no_such_table")
    assert error_of(guest.post(f"/api/tables/{tid}/join", {"invite": invite[:-1] + "x"}
                               ))[:2] == (404, "server.no_such_table")
    r = guest.post(f"/api/tables/{tid}/join", {"invite": invite})
    assert r.status_code == 200, r.text
    assert r.json()["you"] == 0
    info = table(guest, tid)  # seated: visible without the invite now
    assert info["status"] == "running"
    assert info["seats"][0]["name"] == gname and info["seats"][0]["kind"] == "person"

    # A guest is nobody in the Bestenliste and has no player page.
    assert gname not in _bestenliste(guest)
    assert error_of(guest.get(f"/api/users/{gname}"))[:2] == (404, "server.no_such_player")

    async def play() -> list[dict[str, Any]]:
        ws = await guest.connect(tid)
        await play_random(ws, random.Random(8), kind("end"))
        await ws.close()
        return ws.messages

    messages = run(play())
    overs = [m for m in messages if m.get("kind") == "game_over"]
    assert [m["data"]["number"] for m in overs] == [1, 2, 3]
    lst = guest.get(f"/api/tables/{tid}/list").json()["list"]
    assert len(lst["games"]) == 3

    # Still a guest: the finished games are not in the Bestenliste yet.
    assert gname not in _bestenliste(guest)

    # The guest registers (with the guest's cookie, under a new name): same account.
    new = uid("Neu")
    r = guest.post("/api/register", {"name": new, "password": "geheim123"})
    assert r.status_code == 200, r.text
    assert r.json()["user"] == {"id": me["id"], "name": new, "guest": False}
    assert guest.get("/api/me").json()["user"] == {"id": me["id"], "name": new,
                                                   "guest": False}
    # The games were at a private table: her page lists them to her (and to the other
    # players there), not to a stranger.
    outside = clients().get(f"/api/users/{new}")
    assert outside.status_code == 200 and outside.json()["games"] == []
    page = guest.get(f"/api/users/{new}")
    assert page.status_code == 200, page.text
    games = page.json()["games"]
    assert len(games) == 3
    assert sorted(g_["number"] for g_ in games) == [1, 2, 3]
    for g_ in games:
        assert g_["table"] == tid and g_["you"] == 0
        seat0 = next(p for p in g_["players"] if p["seat"] == 0)
        assert seat0["name"] == new and seat0["registered"] is True and seat0["bot"] is None
    assert page.json()["skat"]["lothar"]["games"] == 3

    row = _bestenliste(clients())[new]
    assert row["games"] == 3
    assert row["punktestand"] == lst["punktestand"][0]
    assert row["bilanz"] == lst["bilanz"][0]
    # The old guest name is nobody's page.
    assert clients().get(f"/api/users/{gname}").status_code == 404
    # And the new account logs in with its password.
    assert clients().post("/api/login", {"name": new, "password": "geheim123"}
                          ).status_code == 200


def _bestenliste(c: Client) -> dict[str, dict[str, Any]]:
    r = c.get("/api/bestenliste", params={"preset": "lothar"})
    assert r.status_code == 200, r.text
    return {p["name"]: p for p in r.json()["players"]}


# --- one name, one person at a time ------------------------------------------------------

def test_guests_racing_for_one_name(clients: Callable[..., Client]) -> None:
    """Seven guests ask for one name at the same moment: one gets it (the database's
    unique keys decide), the others are told it is taken."""
    name = uid("Race")
    people = [clients() for _ in range(7)]
    start = threading.Barrier(len(people))
    results: list[tuple[int, str]] = []

    def ask(c: Client) -> None:
        start.wait()
        r = c.post("/api/guest", {"name": name})
        results.append((r.status_code, r.json().get("error", {}).get("code", "")))

    threads = [threading.Thread(target=ask, args=(c,)) for c in people]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [(200, "")] + [(409, "auth.name_taken")] * 6, results
    holders = [c for c in people if c.get("/api/me").json()["user"] is not None]
    assert len(holders) == 1 and holders[0].get("/api/me").json()["user"]["name"] == name


def _expire(server: Server, token: str) -> None:
    """The session's 30 days are over (it stays in the database until the purge)."""
    engine = create_engine(sync_url(server.db))
    with engine.begin() as conn:
        conn.execute(update(Session).where(Session.token_hash == token_hash(token))
                     .values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    engine.dispose()


def test_a_guest_holds_its_name_while_it_has_a_session(server: Server,
                                                       clients: Callable[..., Client]
                                                       ) -> None:
    g = clients()
    name = uid("Gina")
    g.guest(name)
    for other in (name, name.swapcase(), f"  {name.upper()} "):
        r = clients().post("/api/register", {"name": other, "password": "geheim123"})
        assert error_of(r)[:2] == (409, "auth.name_taken"), other
        assert error_of(clients().post("/api/guest", {"name": other}))[:2] \
            == (409, "auth.name_taken")
    # the guest logs out: its name is free at once
    assert g.post("/api/logout").status_code == 200
    assert clients().register(name)["name"] == name
    # a guest whose browser becomes another guest lets go of its name
    g2, name2 = clients(), uid("Gerd")
    g2.guest(name2)
    g2.guest(uid("Gerd"))
    assert clients().guest(name2)["name"] == name2
    # a guest whose session expired lets go of it when somebody asks for it
    g3, name3 = clients(), uid("Gero")
    g3.guest(name3)
    _expire(server, str(g3.http.cookies["stich_session"]))
    assert clients().register(name3.lower())["name"] == name3.lower()
    # the browser's own guest may go by its name again (a new guest: the old one ends)
    g4, name4 = clients(), uid("Gabi")
    first = g4.guest(name4)
    again = g4.guest(name4)
    assert again["name"] == name4 and again["id"] != first["id"]


def _play_out(c: Client, tid: str) -> None:
    async def play() -> None:
        ws = await c.connect(tid)
        await play_random(ws, random.Random(3), kind("end"))
        await ws.close()
    asyncio.run(asyncio.wait_for(play(), 120))


def test_a_guest_who_registers_keeps_its_name_and_games(clients: Callable[..., Client]
                                                       ) -> None:
    g = clients()
    name = uid("Kurt")
    me = g.guest(name)
    tid = g.create(game="baptisten", seats=["me", "bot:random", "bot:random"],
                   max_cards=1)["table"]["id"]
    _play_out(g, tid)
    r = g.post("/api/register", {"name": name, "password": "geheim123"})
    assert r.status_code == 200, r.text
    assert r.json()["user"] == {"id": me["id"], "name": name, "guest": False}
    page = g.get(f"/api/users/{name}").json()
    assert len(page["games"]) == 1 and page["games"][0]["table"] == tid
    seat0 = next(p for p in page["games"][0]["players"] if p["seat"] == 0)
    assert seat0["name"] == name and seat0["registered"] is True


def test_a_guest_that_left_keeps_its_name_in_its_games(clients: Callable[..., Client]
                                                       ) -> None:
    """After the guest's last session the name is free; the games it finished show
    it still, and are not the games of whoever takes the name next."""
    g = clients()
    name = uid("Hugo")
    g.guest(name)
    tid = g.create(game="baptisten", seats=["me", "bot:random", "bot:random"],
                   max_cards=1)["table"]["id"]
    _play_out(g, tid)
    assert g.post("/api/logout").status_code == 200
    newcomer = clients()
    assert newcomer.register(name)["name"] == name
    games = newcomer.get(f"/api/tables/{tid}/games").json()["games"]
    assert games and games[0]["players"][0]["name"] == name
    assert newcomer.get(f"/api/users/{name}").json()["games"] == []


def test_the_purge_frees_the_names_of_guests_without_a_live_session(
        server: Server, clients: Callable[..., Client]) -> None:
    """The hourly purge (``Store.purge``, also ``stich admin purge``) frees the name of
    a guest whose session expired; a guest with a live session keeps its name."""
    gone, staying = clients(), clients()
    gone_id = gone.guest(uid("Pia"))["id"]
    staying_name = uid("Pit")
    staying_id = staying.guest(staying_name)["id"]
    _expire(server, str(gone.http.cookies["stich_session"]))

    async def purge() -> None:
        store = Store(server.db)
        try:
            await store.purge(30.0)
        finally:
            await store.close()
    asyncio.run(purge())
    engine = create_engine(sync_url(server.db))
    with engine.connect() as conn:
        keys = {uid_: (key, look) for uid_, key, look in conn.execute(
            select(User.id, User.name_key, User.look_key).where(
                User.id.in_([gone_id, staying_id])))}
    engine.dispose()
    assert keys[gone_id][0].startswith("guest:") and keys[gone_id][1] == keys[gone_id][0]
    assert keys[staying_id] == (name_key(staying_name), look_key(staying_name))
