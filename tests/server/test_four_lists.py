"""Skat tables of four in the lobby's list and in the Bestenliste (issue 42), over a real
server on SQLite and on PostgreSQL.

- The lobby's list (``GET /api/tables``) says how many seats a table has
  (``seat_count``), how many are free, and at a Skat table of four what the dealer who
  sits out sees (``dealer_sees``); a table of three and a Baptistenskat table have no
  ``dealer_sees``; a private table is not listed.
- The Bestenliste at four: two registered people and two bots play a private table of
  four to its end (eight games: everybody deals twice and sits those games out).  Every
  figure of ``GET /api/bestenliste`` is recomputed here from the finished games' records
  alone (each replayed by the engine): games played, games sat out (``sat_out``), the
  Punktestand and the Bilanz of n = 4 players (4 × own − the sum of all, the dealer who
  sat out with score 0).  A game's players mark the dealer who sat out.  A table of three
  gives no ``sat_out``.
- A stranger (nobody logged in, a registered player who was not there) sees what he saw
  before: the Bestenliste's figures, no key and no id of the private table's games, and
  every route of that table refused.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from stich.record import replay
from stich.skat_list import bilanz
from tests.server.harness import Client, Server
from tests.server.proto_helpers import uid
from tests.server.test_history import play

ROW_KEYS = {"rank", "name", "punktestand", "bilanz", "games", "declarer_won",
            "declarer_lost"}


@dataclass
class Four:
    """The private table of four, played to its end."""

    anna: Client
    ben: Client
    names: dict[int, str]  # the people's seats
    table: str
    invite: str
    games: list[dict[str, Any]]  # as GET /api/tables/{id}/games lists them
    records: list[dict[str, Any]]
    three: str  # Ben's table of three (isko)


@pytest.fixture(scope="module")
def four(server: Server) -> Iterator[Four]:
    anna, ben = Client(server), Client(server)
    names = {0: uid("Anna"), 1: uid("Ben")}
    anna.register(names[0])
    ben.register(names[1])
    made = anna.create(game="skat", preset="lothar", games=8, public=False,
                       seats=["me", "person", "bot:easy", "bot:random"])
    tid, invite = made["table"]["id"], made["invite"]
    r = ben.post(f"/api/tables/{tid}/join", {"seat": 1, "invite": invite})
    assert r.status_code == 200, r.text
    three = ben.create(game="skat", preset="isko", games=3,
                       seats=["bot:easy", "me", "bot:random"])["table"]["id"]

    async def go() -> None:
        sockets = [await anna.connect(tid), await ben.connect(tid, invite=invite)]
        await play(sockets, random.Random(11))
        for ws in sockets:
            await ws.close()
        ws = await ben.connect(three)
        await play([ws], random.Random(12))
        await ws.close()

    asyncio.run(asyncio.wait_for(go(), 240))
    r = anna.get(f"/api/tables/{tid}/games")
    assert r.status_code == 200, r.text
    games = r.json()["games"]
    records = [anna.get(f"/api/games/{g['id']}").json()["record"] for g in games]
    try:
        yield Four(anna, ben, names, tid, invite, games, records, three)
    finally:
        anna.close()
        ben.close()


def by_seat(rec: dict[str, Any]) -> tuple[list[int], Any]:
    """A game's list scores by table seat (the dealer who sat out: 0), from its record."""
    outcome = replay(rec).outcome()  # type: ignore[union-attr]
    scores = [0] * 4
    for pos, seat in enumerate(rec["seats"]):
        scores[seat] = outcome.scores[pos] * int(rec.get("bock", 1))
    return scores, outcome


def expected_row(f: Four, seat: int) -> dict[str, Any]:
    """A person's Bestenliste row recomputed from the records alone."""
    row = {"name": f.names[seat], "punktestand": 0, "bilanz": 0, "games": 0,
           "declarer_won": 0, "declarer_lost": 0, "sat_out": 0}
    for rec in f.records:
        scores, outcome = by_seat(rec)
        row["punktestand"] += scores[seat]
        row["bilanz"] += 4 * scores[seat] - sum(scores)
        if seat in rec["seats"]:
            row["games"] += 1
        else:
            row["sat_out"] += 1
        if outcome.kind == "game" and rec["seats"][outcome.declarer] == seat:
            row["declarer_won" if outcome.won else "declarer_lost"] += 1
    return row


def bestenliste(c: Client, **params: str) -> dict[str, dict[str, Any]]:
    r = c.get("/api/bestenliste", params=params)
    assert r.status_code == 200, r.text
    return {p["name"]: p for p in r.json()["players"]}


def test_the_bestenliste_counts_games_played_and_sat_out_at_four(four: Four) -> None:
    assert len(four.records) == 8
    # every seat dealt twice and sat those games out; the record names him
    sat = [next(s for s in range(4) if s not in rec["seats"]) for rec in four.records]
    assert sorted(sat) == [0, 0, 1, 1, 2, 2, 3, 3]
    rows = bestenliste(four.anna, preset="lothar")
    assert set(rows) == set(four.names.values())  # the bots are not ranked
    for seat, name in four.names.items():
        want = expected_row(four, seat)
        assert (want["games"], want["sat_out"]) == (6, 2)
        got = {k: v for k, v in rows[name].items() if k != "rank"}
        assert got == want
        # the same Bilanz and Punktestand as the table's own list (n = 4)
        lst = four.anna.get(f"/api/tables/{four.table}/list").json()["list"]
        assert lst["bilanz"][seat] == got["bilanz"]
        assert lst["punktestand"][seat] == got["punktestand"]
        assert lst["bilanz"] == bilanz(lst["punktestand"])
        # the player's page: the same figures
        page = four.anna.get(f"/api/users/{name}").json()
        assert page["skat"]["lothar"] == got
    # the Bilanz of all four seats sums to zero over the games (the bots' too)
    assert sum(4 * s[seat] - sum(s) for rec in four.records
               for s in [by_seat(rec)[0]] for seat in range(4)) == 0


def test_a_games_players_mark_the_dealer_who_sat_out(four: Four) -> None:
    for g, rec in zip(four.games, four.records, strict=True):
        assert [p["seat"] for p in g["players"]] == [0, 1, 2, 3]
        out = [p for p in g["players"] if p.get("sat_out")]
        assert len(out) == 1 and out[0]["sat_out"] is True
        assert out[0]["seat"] not in rec["seats"] and out[0]["name"] == rec["sat_out"]
        assert out[0]["score"] == 0 and not out[0]["declarer"]
        scores, _ = by_seat(rec)
        assert [p["bilanz"] for p in g["players"]] == bilanz(scores)
        assert all("sat_out" not in p for p in g["players"] if p is not out[0])


def test_a_table_of_three_has_no_games_sat_out(four: Four) -> None:
    rows = bestenliste(four.ben, preset="isko")
    ben = rows[four.names[1]]
    assert ben["games"] == 3 and "sat_out" not in ben
    assert set(ben) == ROW_KEYS
    games = four.ben.get(f"/api/tables/{four.three}/games").json()["games"]
    assert all("sat_out" not in p for g in games for p in g["players"])


def test_the_bestenliste_pages_show_the_games_sat_out(four: Four, server: Server) -> None:
    c = Client(server)
    try:
        de = {"Accept-Language": "de"}
        page = c.get("/bestenliste", params={"preset": "lothar"}, headers=de).text
        assert ">Ausgesetzt</th>" in page and "am Vierertisch gegeben" in page
        row = re.search(rf"<tr>\s*<td class=\"num\">\d+\.</td>\s*<th scope=\"row\">"
                        rf"<a href=\"/u/{four.names[0]}\">.*?</tr>", page, re.S)
        assert row is not None
        assert '<td class="num sat-out" data-label="Ausgesetzt">2</td>' in row.group(0)
        # under isko nobody sat out: no such column
        page = c.get("/bestenliste", params={"preset": "isko"}, headers=de).text
        assert "Ausgesetzt" not in page and four.names[1] in page
        en = c.get(f"/u/{four.names[0]}", headers={"Accept-Language": "en"}).text
        assert ">Sat out</th>" in en and 'data-label="Sat out">2</td>' in en
    finally:
        c.close()


def test_a_stranger_sees_no_more_than_before(four: Four, server: Server) -> None:
    nobody, zed = Client(server), Client(server)
    zed.register(uid("Zed"))
    keys = [g["id"] for g in four.games]
    try:
        for c in (nobody, zed):
            r = c.get("/api/bestenliste", params={"preset": "lothar"})
            assert r.status_code == 200
            for secret in [four.table, four.invite, *keys]:
                assert secret not in r.text
            rows = {p["name"]: p for p in r.json()["players"]}
            for name in four.names.values():  # the figures count every game, as before
                assert set(rows[name]) == ROW_KEYS | {"sat_out"}
                assert rows[name] == bestenliste(four.anna, preset="lothar")[name]
            for path in (f"/api/tables/{four.table}", f"/api/tables/{four.table}/games",
                         f"/api/tables/{four.table}/list"):
                r = c.get(path)
                assert (r.status_code, r.json()["error"]["code"]) == \
                    (404, "server.no_such_table"), (path, r.text)
            for key in keys:
                for path in (f"/api/games/{key}", f"/api/games/{key}/replay"):
                    r = c.get(path)
                    assert (r.status_code, r.json()["error"]["code"]) == \
                        (404, "server.no_such_game"), (path, r.text)
            page = c.get(f"/api/users/{four.names[0]}").json()
            assert page["games"] == []  # Anna played only at the private table
            assert page["skat"]["lothar"] == {k: v for k, v in rows[four.names[0]].items()
                                              if k != "rank"}
            html = c.get("/bestenliste", params={"preset": "lothar"}).text
            assert four.table not in html and not any(k in html for k in keys)
            assert four.table not in [t["id"] for t in
                                      c.get("/api/tables?status=over").json()["tables"]]
    finally:
        nobody.close()
        zed.close()


def test_the_lobby_lists_the_seats_and_what_the_dealer_sees(
        clients: Callable[..., Client]) -> None:
    """(The lobby lists at most three tables of one address: two rounds.)"""
    cora = clients()
    cora.guest(uid("Cora"))
    rounds = [
        {"four_all": ({"game": "skat", "seats": ["me", "person", "person", "bot:easy"],
                       "games": 4, "dealer_sees": "all"}, (4, 2, "all")),
         "four": ({"game": "skat", "seats": ["me", "person", "bot:easy", "bot:easy"],
                   "games": 4}, (4, 1, "nothing")),
         "private": ({"game": "skat", "seats": ["me", "person", "person", "bot:easy"],
                      "games": 4, "dealer_sees": "all", "public": False}, None)},
        {"three": ({"game": "skat", "seats": ["me", "person", "bot:easy"], "games": 3},
                   (3, 1, None)),
         "baptisten": ({"game": "baptisten", "seats": ["me", "person", "bot:easy",
                                                       "bot:easy"]}, (4, 1, None))},
    ]
    for tables in rounds:
        ids = {k: cora.create(**body)["table"]["id"] for k, (body, _) in tables.items()}
        try:
            for lang in ("de", "en"):
                r = clients(lang).get("/api/tables", params={"status": "waiting",
                                                             "lang": lang})
                assert r.status_code == 200, r.text
                listed = {t["id"]: t for t in r.json()["tables"]}
                for key, (_, want) in tables.items():
                    if want is None:  # a private table is not listed
                        assert ids[key] not in listed
                        continue
                    t = listed[ids[key]]
                    n, free, sees = want
                    assert (t["seat_count"], t["free"], t.get("dealer_sees")) == want, t
                    assert len(t["seats"]) == n
                    assert sum(s["kind"] == "free" for s in t["seats"]) == free
                    assert ("dealer_sees" in t) == (sees is not None)
                    assert all("user" not in s for s in t["seats"])
        finally:
            for tid in ids.values():
                cora.post(f"/api/tables/{tid}/close")


def test_a_deleted_account_is_named_nowhere_at_a_table_of_four(
        clients: Callable[..., Client]) -> None:
    """Deleting an account neutralises its name in the records of a table of four too,
    the one naming it as the dealer who sat out (``sat_out``) included."""
    c = clients()
    name = uid("Weg")
    c.register(name, "geheim123")
    tid = c.create(game="skat", preset="isko", games=4,
                   seats=["bot:easy", "bot:random", "me", "bot:easy"])["table"]["id"]

    async def go() -> None:
        ws = await c.connect(tid)
        await play([ws], random.Random(13))
        await ws.close()

    asyncio.run(asyncio.wait_for(go(), 120))
    keys = [g["id"] for g in c.get(f"/api/tables/{tid}/games").json()["games"]]
    before = [c.get(f"/api/games/{k}").json() for k in keys]
    assert [g["record"].get("sat_out") == name for g in before].count(True) == 1
    assert c.post("/api/me/delete", {"password": "geheim123"}).status_code == 200
    viewer = clients()
    for key in keys:
        game = viewer.get(f"/api/games/{key}").json()
        assert name not in str(game)
        me = game["game"]["players"][2]
        assert me["name"] == "(gelöscht)"
        if me.get("sat_out"):
            assert game["record"]["sat_out"] == "(gelöscht)"
        else:
            assert "(gelöscht)" in game["record"]["players"]
