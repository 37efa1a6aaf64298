"""A tournament on two servers at once (one PostgreSQL, one Redis), as with several
workers: its state lives in the database, never only in one process's memory.

Twelve people register at the same moment, half through each server: all twelve are
registered, once each (a registration that meets another at the same moment is tried
again, never lost).  The organiser's start pressed on both servers at once starts one
round, not two.  The round's four tables play through either server (the tables' leases
do that), and both servers then tell the same standings and the round as over."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests import services
from tests.server.harness import ROOMY, Client, Server, database
from tests.server.proto_helpers import uid
from tests.server.test_history import play

pytestmark = pytest.mark.needs("postgresql", "redis")

LIMITS = f"{ROOMY},tournaments_per_hour=1000,tournament_actions_per_min=1000"


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    with database("postgresql", tmp_path_factory.mktemp("tpair")) as url:
        redis = services.redis()
        a = Server(url, redis=redis, env={"STICH_LIMITS": LIMITS})
        b = Server(url, redis=redis, env={"STICH_LIMITS": LIMITS})
        try:
            a.start(60)
            b.start(60)
            yield a, b
        finally:
            a.stop()
            b.stop()


def _ok(r: Any) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return dict(r.json()["tournament"])


def test_a_tournament_on_two_servers(pair: tuple[Server, Server]) -> None:
    a, b = pair
    org = Client(a)
    org.register(uid("Org"))
    t = _ok(org.post("/api/tournaments", {"name": "Zwei Server", "games_three": 3,
                                          "games_four": 4, "clock": 0, "next_after": 0,
                                          "rounds": 1}))
    tid = t["id"]
    people = [Client(a if i % 2 else b) for i in range(12)]
    for p in people:
        p.register(uid("W"))
    with concurrent.futures.ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(
            lambda p: p.post(f"/api/tournaments/{tid}/register", {}), people))
    assert [r.status_code for r in answers] == [200] * 12, [r.text for r in answers]
    seen = _ok(Client(b).get(f"/api/tournaments/{tid}"))
    assert len(seen["players"]) == 12
    assert sorted(p["status"] for p in seen["players"]) == ["registered"] * 12
    # the organiser's start on both servers at once: one round
    org_b = Client(b)
    org_b.http.cookies.update(org.http.cookies)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        starts = list(pool.map(lambda c: c.post(f"/api/tournaments/{tid}/start"),
                               [org, org_b]))
    assert sorted(r.status_code for r in starts) == [200, 409], [r.text for r in starts]
    t = _ok(org.get(f"/api/tournaments/{tid}"))
    assert (t["round"], len(t["rounds_played"])) == (1, 1)
    tables = t["rounds_played"][0]["tables"]
    assert [len(x["seats"]) for x in tables] == [3, 3, 3, 3]
    links = [_ok(p.get(f"/api/tournaments/{tid}"))["you"]["table"].removeprefix("/t/")
             for p in people]

    async def go() -> None:
        sockets = [await p.connect(link) for p, link in zip(people, links, strict=True)]
        await play(sockets, random.Random(8))
        for ws in sockets:
            await ws.close()

    asyncio.run(asyncio.wait_for(go(), 240))
    ta, tb = _ok(org.get(f"/api/tournaments/{tid}")), _ok(org_b.get(f"/api/tournaments/{tid}"))
    assert ta["status"] == tb["status"] == "over"
    assert ta["standings"] == tb["standings"]
    assert all(s["series"] == 1 for s in ta["standings"])
    assert sum(x["games_played"] for x in ta["rounds_played"][0]["tables"]) == 12
    for c in [org, org_b, *people]:
        c.close()
