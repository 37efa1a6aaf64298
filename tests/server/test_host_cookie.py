"""The session cookie of a site on HTTPS is ``__Host-stich_session`` (issue 38), against a
real `stich serve` started as on the internet (``--public-url https://…``), on SQLite and
PostgreSQL.

A cookie named so is set only by this host over HTTPS, with ``Secure``, ``Path=/`` and no
``Domain``: a page of a sibling host (``evil.example.org`` beside ``skat.example.org``)
or of another port cannot set it.  A plain ``stich_session`` can be set by such a page,
so on HTTPS it counts for nothing: nobody can log a visitor in as their own guest.  The
test speaks plain http to the server's port, as the TLS proxy in front of it does (the
public URL says the site is on HTTPS); it sends its cookies by hand (a Secure cookie
never goes over plain http from a browser's jar)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import create_engine, select

from stich.server.store.db import sync_url, token_hash
from stich.server.store.models import Session
from tests.server.conftest import DB_KINDS
from tests.server.harness import Server, database
from tests.server.proto_helpers import error_of, uid

PUBLIC = "https://skat.example.org"


@pytest.fixture(scope="module", params=DB_KINDS)
def https(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[Server]:
    with database(request.param, tmp_path_factory.mktemp("host")) as url:
        srv = Server(url, args=["--public-url", PUBLIC])
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()


def set_cookies(r: httpx.Response) -> dict[str, tuple[str, dict[str, str]]]:
    """The cookies a response sets: name → (value, attributes with lower-case names)."""
    out = {}
    for header in r.headers.get_list("set-cookie"):
        first, *attrs = [p.strip() for p in header.split(";")]
        name, _, value = first.partition("=")
        out[name] = (value, {k.lower(): v for k, _, v in (a.partition("=") for a in attrs)})
    return out


def me(server: Server, cookie: str) -> Any:
    with httpx.Client(base_url=server.url, headers={"Cookie": cookie}) as c:
        return c.get("/api/me").json()["user"]


def test_over_https_the_session_cookie_is_the_hosts_alone(https: Server) -> None:
    name = uid("Host")
    with httpx.Client(base_url=https.url) as c:
        r = c.post("/api/register", json={"name": name, "password": "geheim123"})
    assert r.status_code == 200, r.text
    cookies = set_cookies(r)
    assert "stich_session" not in cookies
    token, attrs = cookies["__Host-stich_session"]
    assert "secure" in attrs and "httponly" in attrs and attrs["path"] == "/"
    assert attrs["samesite"].lower() == "lax" and "domain" not in attrs
    _, attrs = cookies["__Host-stich_device"]
    assert "secure" in attrs and attrs["path"] == "/" and "domain" not in attrs
    assert me(https, f"__Host-stich_session={token}")["name"] == name
    # the same session's token planted as a plain cookie (as a sibling host could):
    # nobody is logged in by it, over HTTP or the table socket, and it changes nothing
    planted = f"stich_session={token}"
    assert me(https, planted) is None
    with httpx.Client(base_url=https.url, headers={"Cookie": planted}) as c:
        r = c.post("/api/tables", json={"game": "skat", "seats": ["me", "bot:random",
                                                                  "bot:random"]})
        assert error_of(r)[:2] == (401, "auth.not_logged_in")
    with httpx.Client(base_url=https.url,
                      headers={"Cookie": f"__Host-stich_session={token}"}) as c:
        r = c.post("/api/tables", json={"game": "skat", "seats": ["me", "person", "person"]})
        assert r.status_code == 200, r.text
        tid = r.json()["table"]["id"]
    assert _seat_on_socket(https, tid, planted) is None
    assert _seat_on_socket(https, tid, f"__Host-stich_session={token}") == 0
    # beside a planted one (an attacker's guest), the browser's own cookie counts
    with httpx.Client(base_url=https.url) as other:
        r = other.post("/api/guest", json={"name": uid("Mallory")})
        theirs = set_cookies(r)["__Host-stich_session"][0]
    both = f"stich_session={theirs}; __Host-stich_session={token}"
    assert me(https, both)["name"] == name
    assert me(https, f"__Host-stich_session={theirs}; stich_session={token}")["name"] != name


def _seat_on_socket(server: Server, tid: str, cookie: str) -> int | None:
    """The seat a table socket with this cookie is welcomed at (None: a watcher)."""
    async def go() -> int | None:
        async with websockets.connect(f"{server.ws}/ws/tables/{tid}?lang=en",
                                      additional_headers={"Cookie": cookie}) as ws:
            welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert welcome["type"] == "welcome", welcome
            you: int | None = welcome["you"]
            return you
    return asyncio.run(asyncio.wait_for(go(), 30))


def test_a_browser_logged_in_before_logs_in_once_more(https: Server) -> None:
    """A browser with a plain ``stich_session`` from before the change is nobody on
    HTTPS; when it logs in, that old session ends and its cookie is deleted."""
    name = uid("Before")
    with httpx.Client(base_url=https.url) as c:
        r = c.post("/api/register", json={"name": name, "password": "geheim123"})
        old = set_cookies(r)["__Host-stich_session"][0]  # stands for the old cookie's token
    assert me(https, f"stich_session={old}") is None
    with httpx.Client(base_url=https.url, headers={"Cookie": f"stich_session={old}"}) as c:
        r = c.post("/api/login", json={"name": name, "password": "geheim123"})
    assert r.status_code == 200, r.text
    cookies = set_cookies(r)
    new = cookies["__Host-stich_session"][0]
    assert cookies["stich_session"][1]["max-age"] == "0"  # the plain one: deleted
    assert me(https, f"__Host-stich_session={new}")["name"] == name
    engine = create_engine(sync_url(https.db))
    with engine.connect() as conn:
        left = conn.execute(select(Session.token_hash).where(
            Session.token_hash.in_([token_hash(old), token_hash(new)]))).scalars().all()
    engine.dispose()
    assert left == [token_hash(new)]  # the old session ended
    with httpx.Client(base_url=https.url,
                      headers={"Cookie": f"__Host-stich_session={new}"}) as c:
        r = c.post("/api/logout")
    value, attrs = set_cookies(r)["__Host-stich_session"]
    assert value in ("", '""') and attrs["max-age"] == "0" and "secure" in attrs
    assert me(https, f"__Host-stich_session={new}") is None
