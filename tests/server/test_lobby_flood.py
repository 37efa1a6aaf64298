"""The lobby cannot be flooded cheaply (issue 38): it lists at most three tables of one
creator's account and three of one creator's address, and counts them before it takes
its newest 200, so that a few addresses full of tables do not push everybody else's
out.  Addresses are faked through ``X-Forwarded-For`` from a trusted proxy (127.0.0.1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import DB_KINDS
from tests.server.harness import Client, Server, database
from tests.server.proto_helpers import uid


@pytest.fixture(params=DB_KINDS)
def proxied(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A server with the site's default limits behind a proxy at 127.0.0.1."""
    with database(request.param, tmp_path) as url, \
            Server(url, env={"STICH_LIMITS": "", "STICH_HOUSEKEEPING": "0"},
                   args=["--forwarded-allow-ips", "127.0.0.1"]) as srv:
        yield srv


def _guest(srv: Server, address: str) -> Client:
    c = Client(srv)
    c.http.headers["X-Forwarded-For"] = address
    c.guest(uid("G"))
    return c


def _listed(c: Client) -> set[str]:
    r = c.get("/api/tables")
    assert r.status_code == 200, r.text
    return {t["id"] for t in r.json()["tables"]}


def test_four_guests_of_one_address_get_three_lines(proxied: Server) -> None:
    made = set()
    guests = [_guest(proxied, "198.51.100.7") for _ in range(4)]
    for c in guests:
        for _ in range(3):
            r = c.post("/api/tables", {"game": "skat", "seats": ["me", "person", "person"],
                                       "next_after": 0, "clock": 0})
            if r.status_code == 200:
                made.add(r.json()["table"]["id"])
    assert len(made) == 10  # the address's open tables (address_open_tables)
    assert len(_listed(guests[0]) & made) == 3
    for c in guests:
        c.close()


def test_many_addresses_do_not_push_a_table_out(proxied: Server) -> None:
    host = _guest(proxied, "203.0.113.1")
    mine = host.create(game="skat", seats=["me", "person", "person"])["table"]["id"]
    flood = set()
    for n in range(25):  # 25 addresses, 10 tables each: more than the lobby's 200 rows
        for c in (_guest(proxied, f"198.51.100.{n + 10}") for _ in range(2)):
            for _ in range(5):
                flood.add(c.create(game="skat", seats=["me", "person", "person"])
                          ["table"]["id"])
            c.close()
    assert len(flood) == 250
    listed = _listed(host)
    assert mine in listed
    assert len(listed & flood) == 25 * 3
    host.close()
