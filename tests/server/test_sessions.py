"""Sessions and accounts against a real server, on SQLite and PostgreSQL: the Origin
check of sockets and changes, no session fixation, sockets that close with their
session, a new password, logging out everywhere, deleting an account, and names that
cannot pass for somebody else's."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import create_engine, update

from stich.server.store.db import sync_url, token_hash
from stich.server.store.models import Session
from tests.server.harness import Client, Server
from tests.server.proto_helpers import error_of, kind, plain_clients, play_random, uid


@pytest.fixture
def clients(server: Server) -> Iterator[Callable[..., Client]]:
    yield from plain_clients(server)


def _me(server: Server, token: str) -> Any:
    with httpx.Client(base_url=server.url, cookies={"stich_session": token}) as c:
        return c.get("/api/me").json()["user"]


def _token(c: Client) -> str:
    return str(c.http.cookies["stich_session"])


# --- Origin -----------------------------------------------------------------------------

def test_a_socket_from_another_origin_is_refused(server: Server,
                                                 clients: Callable[..., Client]) -> None:
    """A page on another port of the same host (same site: the Lax cookie goes along)
    must not read a player's hand."""
    c = clients()
    c.guest(uid("Orig"))
    tid = c.create(game="skat", seats=["me", "bot:random", "bot:random"])["table"]["id"]
    url = f"{server.ws}/ws/tables/{tid}"

    async def attempt(origin: str | None) -> dict[str, Any] | int:
        headers = {"Cookie": c.cookie_header()}
        if origin is not None:
            headers["Origin"] = origin
        try:
            async with websockets.connect(url, additional_headers=headers) as ws:
                return dict(__import__("json").loads(await asyncio.wait_for(ws.recv(), 10)))
        except websockets.InvalidStatus as e:
            return int(e.response.status_code)

    other_port = f"http://127.0.0.1:{server.port + 1}"
    assert asyncio.run(attempt(other_port)) == 403
    assert asyncio.run(attempt("https://evil.example")) == 403
    assert asyncio.run(attempt("null")) == 403
    welcome = asyncio.run(attempt(server.url))
    assert isinstance(welcome, dict) and welcome["you"] == 0  # its own pages: fine
    # the same address by https: a proxy in front ended TLS (without --public-url)
    welcome = asyncio.run(attempt(server.url.replace("http:", "https:")))
    assert isinstance(welcome, dict) and welcome["you"] == 0
    welcome = asyncio.run(attempt(None))  # a program, not a page in a browser
    assert isinstance(welcome, dict) and welcome["type"] == "welcome"


def test_changes_from_other_origins_are_refused(server: Server,
                                                clients: Callable[..., Client]) -> None:
    c = clients()
    c.guest(uid("Csrf"))
    token = _token(c)
    tid = c.create(game="skat", seats=["me", "person", "person"])["table"]["id"]
    for headers in ({"Origin": f"http://127.0.0.1:{server.port + 1}"},
                    {"Origin": "https://evil.example"},
                    {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}):
        for path in ("/api/logout", f"/api/tables/{tid}/leave", f"/api/tables/{tid}/close",
                     "/api/me/logout-all"):
            r = c.http.post(path + "?lang=en", headers=headers)
            assert error_of(r)[:2] == (403, "server.bad_origin"), (path, headers, r.text)
    assert _me(server, token) is not None  # still logged in: nothing happened
    seats = c.get(f"/api/tables/{tid}").json()["table"]["seats"]
    assert seats[0]["kind"] == "person"  # still seated
    ok = c.http.post("/api/logout", headers={"Origin": server.url, "Sec-Fetch-Site":
                                             "same-origin"})
    assert ok.status_code == 200 and _me(server, token) is None


# --- sessions -------------------------------------------------------------------------

def test_every_login_and_registration_ends_the_old_session(server: Server,
                                                           clients: Callable[..., Client]
                                                           ) -> None:
    c = clients()
    c.guest(uid("Fix"))
    guest_token = _token(c)
    name = uid("Fixed")
    c.register(name)
    assert _me(server, guest_token) is None  # the guest's token is no longer a session
    registered = _token(c)
    assert registered != guest_token and _me(server, registered)["name"] == name
    # a token planted in a browser (somebody else's) ends when that browser logs in
    planted = clients()
    planted.http.cookies.set("stich_session", registered, domain="127.0.0.1")
    r = planted.post("/api/login", {"name": name, "password": "geheim123"})
    assert r.status_code == 200
    assert _me(server, registered) is None and _token(planted) != registered


def test_a_new_guest_ends_the_old_session_and_an_expired_one_counts_for_nothing(
        server: Server, clients: Callable[..., Client]) -> None:
    c = clients()
    first = c.guest(uid("Gast"))
    old = _token(c)
    assert _me(server, old)["id"] == first["id"]
    second = c.guest(uid("Gast"))  # the same browser plays as another guest
    new = _token(c)
    assert new != old and _me(server, old) is None
    assert _me(server, new)["id"] == second["id"] != first["id"]
    engine = create_engine(sync_url(server.db))
    with engine.begin() as conn:  # the session's 30 days are over
        conn.execute(update(Session).where(Session.token_hash == token_hash(new))
                     .values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    engine.dispose()
    assert _me(server, new) is None
    assert error_of(c.post("/api/tables", {"game": "skat", "seats": ["me"] * 3}))[:2] \
        == (401, "auth.not_logged_in")


def _seated_socket_story(c: Client, tid: str, end_it: Callable[[], None]
                         ) -> tuple[int | None, list[dict[str, Any]]]:
    """Open a seated socket, end the session by ``end_it``, then act on the socket:
    the close code, and whatever came after ending."""
    async def story() -> tuple[int | None, list[dict[str, Any]]]:
        ws = await c.connect(tid)
        await ws.until(lambda m: m["type"] == "welcome")
        await ws.drain(0.3)
        await asyncio.to_thread(end_it)
        after: list[dict[str, Any]] = []
        try:
            for _ in range(50):
                await ws.act("18")
                after.append(await ws.recv(2))
        except websockets.ConnectionClosed as e:
            return (e.rcvd.code if e.rcvd else None), after
        except TimeoutError:
            return None, after
        return None, after
    return asyncio.run(asyncio.wait_for(story(), 60))


@pytest.mark.parametrize("how", ["logout", "logout_all", "password"])
def test_sockets_close_when_their_session_ends(server: Server, clients: Callable[..., Client],
                                               how: str) -> None:
    c = clients()
    name = uid("Sock")
    c.register(name, "geheim123")
    tid = c.create(game="skat", seats=["me", "person", "person"])["table"]["id"]
    other = clients()  # another device of the same account (for the new password)
    other.post("/api/login", {"name": name, "password": "geheim123"})

    def end() -> None:
        if how == "logout":
            assert c.post("/api/logout").status_code == 200
        elif how == "logout_all":
            assert other.post("/api/me/logout-all").status_code == 200
        else:
            r = other.post("/api/me/password", {"old": "geheim123", "new": "neues-pass"})
            assert r.status_code == 200, r.text

    code, after = _seated_socket_story(c, tid, end)
    assert code == 4401, (code, after)
    assert not any(m["type"] == "event" and m.get("kind") == "act" for m in after), after


def test_a_new_password(server: Server, clients: Callable[..., Client]) -> None:
    c = clients()
    name = uid("Pass")
    c.register(name, "altes-pass")
    second = clients()
    assert second.post("/api/login", {"name": name, "password": "altes-pass"}).status_code \
        == 200
    r = c.post("/api/me/password?lang=en", {"old": "falsches", "new": "neues-pass"})
    assert error_of(r)[:2] == (403, "auth.wrong_password")
    r = c.post("/api/me/password", {"old": "altes-pass", "new": "kurz"})
    assert error_of(r)[:2] == (400, "auth.password_short")
    assert c.post("/api/me/password", {"old": "altes-pass", "new": "neues-pass"}
                  ).status_code == 200
    assert c.get("/api/me").json()["user"]["name"] == name  # this session stays
    assert second.get("/api/me").json()["user"] is None  # every other one ended
    fresh = clients()
    assert error_of(fresh.post("/api/login", {"name": name, "password": "altes-pass"}))[1] \
        == "auth.bad_login"
    assert fresh.post("/api/login", {"name": name, "password": "neues-pass"}).status_code \
        == 200
    g = clients()
    g.guest(uid("NoPw"))
    assert error_of(g.post("/api/me/password", {"old": "", "new": "neues-pass"}))[:2] \
        == (403, "auth.registered_only")


def test_deleting_an_account(server: Server, clients: Callable[..., Client]) -> None:
    c = clients()
    name = uid("Weg")
    c.register(name, "geheim123")
    tid = c.create(game="baptisten", seats=["me", "bot:random", "bot:random"],
                   max_cards=1)["table"]["id"]
    r = c.post("/api/me/delete?lang=en", {"password": "geheim123"})
    assert error_of(r)[:2] == (409, "auth.still_seated")  # the table is running

    async def play() -> None:
        ws = await c.connect(tid)
        await play_random(ws, random.Random(5), kind("end"))
        await ws.close()
    asyncio.run(asyncio.wait_for(play(), 120))
    games = c.get(f"/api/tables/{tid}/games").json()["games"]
    assert games[0]["players"][0]["name"] == name
    assert error_of(c.post("/api/me/delete", {"password": "falsch123"}))[:2] \
        == (403, "auth.wrong_password")
    token = _token(c)
    assert c.post("/api/me/delete", {"password": "geheim123"}).status_code == 200
    assert _me(server, token) is None
    viewer = clients()
    game = viewer.get(f"/api/games/{games[0]['id']}").json()
    assert game["game"]["players"][0]["name"] == "(gelöscht)"
    assert game["record"]["players"][0] == "(gelöscht)"
    assert name not in str(game)
    listed = viewer.get(f"/api/tables/{tid}").json()["table"]["seats"][0]
    assert listed["name"] == "(gelöscht)"
    assert name not in viewer.get(f"/t/{tid}/zettel").text
    assert error_of(viewer.get(f"/api/users/{name}"))[1] == "server.no_such_player"
    assert clients().register(name)["name"] == name  # the name is free again


def test_a_guest_deletes_itself_without_a_password(server: Server,
                                                   clients: Callable[..., Client]) -> None:
    g = clients()
    g.guest(uid("GWeg"))
    assert g.post("/api/me/delete", {}).status_code == 200
    assert g.get("/api/me").json()["user"] is None


# --- names ------------------------------------------------------------------------------

def test_names_that_look_alike_are_one_name(server: Server,
                                            clients: Callable[..., Client]) -> None:
    base = uid("alice")  # latin letters and digits
    clients().register(base)
    lookalikes = [
        "\u0430" + base[1:],                       # Cyrillic а
        "".join(chr(ord(ch) + 0xFEE0) for ch in base),  # full-width
        base.upper(),
        "\u03b1" + base[1:],                       # Greek α
    ]
    for other in lookalikes:
        for path in ("/api/register", "/api/guest"):
            r = clients().post(path, {"name": other, "password": "geheim123"}
                               if path.endswith("register") else {"name": other})
            assert error_of(r)[:2] == (409, "auth.name_taken"), (path, other)
    # a full-width name is kept as its plain form
    wide = uid("Wide")
    made = clients().register("".join(chr(ord(ch) + 0xFEE0) for ch in wide))
    assert made["name"] == wide


def _asking(name: str) -> list[tuple[str, dict[str, str]]]:
    """The two ways to ask for a name: register, or play as a guest."""
    return [("/api/register", {"name": name, "password": "geheim123"}),
            ("/api/guest", {"name": name})]


def test_look_alike_capitals_and_words_of_two_scripts_are_no_new_names(
        server: Server, clients: Callable[..., Client]) -> None:
    """Issue 38: a capital that looks like a Latin capital is that letter, whatever its
    small letter looks like (``ΚΑΤΕ`` in Greek capitals, ``КАТЕ`` in Cyrillic ones); a
    word may not mix scripts (``Sveп`` with a Cyrillic п, ``Uωe`` with a Greek ω: the
    confusables data does not count those letters alike)."""
    digits = str(random.randrange(10**6, 10**7))
    clients().register(f"KATE{digits}")
    for other in (f"\u039a\u0391\u03a4\u0395{digits}", f"\u041a\u0410\u0422\u0415{digits}",
                  f"\u041aate{digits}", f"Kat\u0395{digits}"):
        for path, body in _asking(other):
            r = clients().post(path, body)
            assert error_of(r)[:2] == (409, "auth.name_taken"), (path, other)
    for taken, other in ((f"Sven{digits}", f"Sve\u043f{digits}"),
                         (f"Uwe{digits}", f"U\u03c9e{digits}")):
        clients().register(taken)
        for path, body in _asking(other):
            c = clients()
            r = c.post(path + "?lang=de", body)
            status, code, text = error_of(r)
            assert (status, code) == (400, "auth.name_scripts"), (path, other, r.text)
            assert other in text and "Schrift" in text
            assert c.get("/api/me").json()["user"] is None
    # a word of one script is a name in any script
    assert clients().register(f"\u0394\u03b7\u03bc\u03ae\u03c4\u03c1\u03b7\u03c2 {digits}"
                              )["name"].endswith(digits)


def test_a_long_case_fold_is_a_name_not_an_error(server: Server,
                                                 clients: Callable[..., Client]) -> None:
    """24 × ß folds to 48 letters: a valid name on every database (once a 500 on
    PostgreSQL whose traceback printed the password's hash)."""
    c = clients()
    made = c.register("ß" * 20 + uid("")[:4])
    assert made["name"].startswith("ßß")
    r = clients().post("/api/register", {"name": "ﷺ" * 24, "password": "geheim123"})
    assert error_of(r)[:2] == (400, "auth.name_invalid")
    time.sleep(0.2)
    assert not any("argon2" in line for line in server.log)
