"""Nobody can lock an account out (issue 38), against a real `stich serve` with the site's
default limits, on SQLite and PostgreSQL.

Wrong passwords for a name from anywhere lock the name (after twenty, 5 s doubling up to
15 minutes): a slow, distributed guess at one name.  That lock is the attackers' doing,
so it must not keep the owner out: a browser that logged in to the account before (its
device cookie) and an address the account logged in from get through to the back-off of
their own address; everybody else gets the same refusal as for any locked name.  The
account's own password asked again (a new password, deleting the account) backs off per
account too, so that a stolen session cannot guess it from many addresses.

The server trusts ``X-Forwarded-For`` from 127.0.0.1 (``--forwarded-allow-ips``), as
behind a proxy: each made-up address stands for a person elsewhere.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.conftest import DB_KINDS
from tests.server.harness import Server, database
from tests.server.proto_helpers import error_of, uid

PASSWORD = "richtig-123"
_addresses = itertools.count(1)


@pytest.fixture(scope="module", params=DB_KINDS)
def strict(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Server]:
    """A server with the site's default limits, behind a made-up proxy (127.0.0.1)."""
    with database(request.param, tmp_path_factory.mktemp("lock")) as url:
        srv = Server(url, env={"STICH_LIMITS": "", "STICH_HOUSEKEEPING": "0"},
                     args=["--forwarded-allow-ips", "127.0.0.1"])
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()


def new_address() -> str:
    """An address nobody used yet (a documentation network, counted up)."""
    n = next(_addresses)
    return f"198.18.{n // 250}.{n % 250 + 1}"


class Browser:
    """A browser (its own cookies) at an address."""

    def __init__(self, server: Server, address: str | None = None) -> None:
        self.address = address or new_address()
        self.http = httpx.Client(base_url=server.url, timeout=30,
                                 headers={"X-Forwarded-For": self.address})

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(path, json=body)

    def login(self, name: str, password: str = PASSWORD) -> httpx.Response:
        return self.post("/api/login?lang=en", {"name": name, "password": password})

    def close(self) -> None:
        self.http.close()


@pytest.fixture
def browsers(strict: Server) -> Iterator[Any]:
    made: list[Browser] = []

    def make(address: str | None = None) -> Browser:
        b = Browser(strict, address)
        made.append(b)
        return b

    yield make
    for b in made:
        b.close()


def lock(server: Server, name: str) -> httpx.Response:
    """Wrong passwords for ``name``, two from each of many addresses (each stays below
    its own back-off), until the name is locked for at least 2 s more; the refusal."""
    for i in range(60):
        with httpx.Client(base_url=server.url, timeout=30,
                          headers={"X-Forwarded-For": new_address()}) as c:
            r = c.post("/api/login?lang=en", json={"name": name, "password": f"falsch-{i}"})
        if r.status_code == 429:
            if int(r.headers["retry-after"]) >= 2:
                return r
            time.sleep(int(r.headers["retry-after"]))  # then one more failure: longer
        else:
            assert error_of(r)[:2] == (401, "auth.bad_login"), r.text
    raise AssertionError("the name was never locked")


def test_others_wrong_passwords_do_not_lock_the_owner_out(strict: Server, browsers: Any
                                                          ) -> None:
    name = uid("Owner")
    home = browsers()
    r = home.post("/api/register", {"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    device = home.http.cookies["stich_device"]
    attrs = [h for h in r.headers.get_list("set-cookie") if h.startswith("stich_device=")]
    assert len(attrs) == 1 and "httponly" in attrs[0].lower() and "path=/" in attrs[0].lower()
    assert "max-age=31536000" in attrs[0].lower() and "samesite=lax" in attrs[0].lower()
    assert home.post("/api/logout").status_code == 200  # the browser stays known
    # the attacker has an account of their own: its browser is known, to that account
    attacker = browsers()
    assert attacker.post("/api/register", {"name": uid("Mallory"), "password": PASSWORD}
                         ).status_code == 200
    nobody = uid("Nobody")  # a name nobody has: locked alike

    refusal = lock(strict, name)
    assert error_of(refusal)[:2] == (429, "auth.too_many_attempts")
    assert error_of(lock(strict, nobody))[:2] == error_of(refusal)[:2]
    # a stranger: locked, with the right password too; the attacker's own known browser
    # is no key to another account
    for stranger in (browsers(), attacker):
        r = stranger.login(name)
        assert error_of(r)[:2] == (429, "auth.too_many_attempts"), r.text
        assert r.headers["retry-after"] and "set-cookie" not in r.headers
    # the owner's browser that registered: in
    lock(strict, name)
    r = home.login(name)
    assert r.status_code == 200, r.text
    assert home.http.cookies["stich_device"] == device  # the same browser, the same cookie
    # another browser of the owner at home (never logged in there): in, by the address
    lock(strict, name)
    assert browsers(home.address).login(name).status_code == 200
    # the owner's browser on a train (an address never seen): in, by its cookie
    lock(strict, name)
    train = browsers()
    train.http.cookies.set("stich_device", device, domain="127.0.0.1")
    assert train.login(name).status_code == 200
    # still locked for everybody else, the attacker's browser with a made-up cookie too
    lock(strict, name)
    attacker.http.cookies.set("stich_device", "x" * 43, domain="127.0.0.1")
    assert error_of(attacker.login(name))[:2] == (429, "auth.too_many_attempts")
    # the owner's own wrong passwords still back off at their address (three free)
    lock(strict, name)
    for _ in range(4):
        assert error_of(home.login(name, "vertippt1"))[:2] == (401, "auth.bad_login")
    assert error_of(home.login(name))[:2] == (429, "auth.too_many_attempts")


def test_a_new_password_forgets_the_thiefs_browser(strict: Server, browsers: Any) -> None:
    """A thief who logged in with a stolen password is known to the account; once the
    owner sets a new password, the thief's browser and address are strangers again."""
    name = uid("Robbed")
    owner = browsers()
    assert owner.post("/api/register", {"name": name, "password": PASSWORD}
                      ).status_code == 200
    thief = browsers()
    assert thief.login(name).status_code == 200
    lock(strict, name)
    assert thief.login(name).status_code == 200  # known: let through
    r = owner.post("/api/me/password", {"old": PASSWORD, "new": "neues-pass-1"})
    assert r.status_code == 200, r.text
    lock(strict, name)
    assert error_of(thief.login(name, "neues-pass-1"))[:2] == (429, "auth.too_many_attempts")
    assert owner.login(name, "neues-pass-1").status_code == 200


def test_the_own_password_backs_off_per_account_from_anywhere(strict: Server, browsers: Any
                                                              ) -> None:
    """With a stolen session, guesses of the account's password (to set a new one or to
    delete the account) from many addresses: five free, then the account waits."""
    name = uid("Stolen")
    owner = browsers()
    assert owner.post("/api/register", {"name": name, "password": PASSWORD}
                      ).status_code == 200
    session = owner.http.cookies["stich_session"]

    def thief() -> Browser:
        b = browsers()
        b.http.cookies.set("stich_session", session, domain="127.0.0.1")
        return b

    codes = []
    for i in range(8):
        r = thief().post("/api/me/password?lang=en", {"old": f"geraten-{i}", "new": "meins-123"})
        codes.append(error_of(r)[:2])
    assert codes == [(403, "auth.wrong_password")] * 6 + [(429, "auth.too_many_attempts")] * 2
    r = thief().post("/api/me/password", {"old": PASSWORD, "new": "meins-123"})
    assert error_of(r)[:2] == (429, "auth.too_many_attempts")  # the right one waits too
    assert int(r.headers["retry-after"]) >= 1
    r = thief().post("/api/me/delete", {"password": PASSWORD})
    assert error_of(r)[:2] == (429, "auth.too_many_attempts")
    assert owner.http.get("/api/me").json()["user"]["name"] == name  # nothing changed
