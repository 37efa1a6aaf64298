"""Preisskat tables (issue 43): a Skat table scored by the Preisskat list (Seeger-Fabian,
docs/skat.md "Preisskat"), over a real server on SQLite and on PostgreSQL.

- Creating: ``scoring: "seeger"`` gives a series of 36 games at three seats and 48 at
  four unless ``games`` says otherwise; a series that is not a positive multiple of the
  seats (open-ended 0 included), an unknown scoring, and Preisskat at a Baptistenskat
  table are refused in words.  The table says ``scoring`` (the lobby's row, the table's
  info); a classic table does not.
- Playing: a short series at three (3 games) and at four (4 games), one person and bots,
  played to the end over the websocket.  The list (``GET /api/tables/{id}/list`` and the
  snapshot) carries a ``seeger`` part equal to the Preisskat lines recomputed from the
  stored games' records alone (each replayed by the engine) by the independent oracle;
  the printable list (``/t/{id}/list``) shows the same figures in German and English.
  A classic table's list has no ``seeger`` part.
- A stranger sees nothing of the private tables.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from stich.record import replay
from tests.server.harness import Client, Server
from tests.server.proto_helpers import uid
from tests.server.test_history import play
from tests.skat import preisskat_oracle as oracle


def error_of(r: Any) -> tuple[int, str, str]:
    err = r.json()["error"]
    return r.status_code, err["code"], err["text"]


@dataclass
class Series:
    table: str
    invite: str
    seats: int
    records: list[dict[str, Any]]


@dataclass
class Played:
    anna: Client
    three: Series
    four: Series
    classic: str


def _series(c: Client, seats: list[str], games: int) -> Series:
    made = c.create(game="skat", preset="lothar", games=games, public=False,
                    scoring="seeger", next_after=0, seats=seats)
    tid = made["table"]["id"]
    assert made["table"]["scoring"] == "seeger" and made["table"]["games"] == games

    async def go() -> None:
        ws = await c.connect(tid)
        await play([ws], random.Random(len(seats)))
        await ws.close()

    asyncio.run(asyncio.wait_for(go(), 240))
    games_ = c.get(f"/api/tables/{tid}/games").json()["games"]
    records = [c.get(f"/api/games/{g['id']}").json()["record"] for g in games_]
    assert len(records) == games
    return Series(tid, made["invite"], len(seats), records)


@pytest.fixture(scope="module")
def played(server: Server) -> Iterator[Played]:
    anna = Client(server)
    anna.register(uid("Anna"))
    three = _series(anna, ["me", "bot:random", "bot:easy"], 3)
    four = _series(anna, ["bot:random", "me", "bot:easy", "bot:random"], 4)
    classic = anna.create(game="skat", preset="lothar", games=3, public=False,
                          seats=["me", "bot:random", "bot:easy"])["table"]["id"]

    async def go() -> None:
        ws = await anna.connect(classic)
        await play([ws], random.Random(5))
        await ws.close()

    asyncio.run(asyncio.wait_for(go(), 240))
    try:
        yield Played(anna, three, four, classic)
    finally:
        anna.close()


def expected(s: Series) -> list[oracle.Line]:
    """The Preisskat lines from the stored records alone (replayed by the engine)."""
    games = []
    for rec in s.records:
        outcome = replay(rec).outcome()  # type: ignore[union-attr]
        scores = [0] * s.seats
        for pos, seat in enumerate(rec["seats"]):
            scores[seat] = outcome.scores[pos] * int(rec.get("bock", 1))
        declarer = rec["seats"][outcome.declarer] if outcome.kind == "game" else None
        games.append(oracle.Game(s.seats, declarer, outcome.won if declarer is not None
                                 else None, tuple(scores)))
    return oracle.series(s.seats, games)


def _check(c: Client, s: Series) -> None:
    lst = c.get(f"/api/tables/{s.table}/list").json()["list"]
    want = expected(s)
    k = 40 if s.seats == 3 else 30
    assert lst["seeger"]["won_each"] == 50 and lst["seeger"]["others_each"] == k
    got = lst["seeger"]["lines"]
    assert [(g["points"], g["won"], g["lost"], g["others_lost"], g["score"], g["place"])
            for g in got] == [(w.punkte, w.won, w.lost, w.others_lost, w.leistung, w.place)
                              for w in want]
    assert all(g["won_points"] == 50 * g["won"] and g["lost_points"] == -50 * g["lost"]
               and g["others_points"] == k * g["others_lost"] for g in got)
    assert [g["points"] for g in got] == lst["punktestand"]
    # the printable list, German and English: the foot's rows with the same figures
    for lang, title, won_row, place in (("de", "Preisskat-Liste", "Gewonnene Spiele × 50",
                                         "Platz"),
                                        ("en", "Preisskat list", "Games won × 50", "Place")):
        page = c.get(f"/t/{s.table}/list", headers={"Accept-Language": lang}).text
        assert f"<h1>{title}</h1>" in page and won_row in page
        row = re.search(r'<tr class="pg-preisskat pg-leistung">(.*?)</tr>', page, re.S)
        assert row is not None
        cells = re.findall(r"<b>([^<]*)</b>", row.group(1))
        assert [int(x.replace("−", "-").replace("\u2212", "-").replace(".", ""))
                for x in cells] == [w.leistung for w in want]
        places = re.search(r'<tr class="pg-preisskat pg-place">(.*?)</tr>', page, re.S)
        assert places is not None and re.findall(r"<b>(\d+)\.</b>", places.group(1)) \
            == [str(w.place) for w in want]
        assert place in places.group(1)
    assert "Preisskat (3 Spiele)" in c.get(f"/t/{s.table}/list",
                                            headers={"Accept-Language": "de"}).text \
        or s.seats == 4


def test_a_series_at_three(played: Played) -> None:
    _check(played.anna, played.three)


def test_a_series_at_four_gives_the_dealer_who_sat_out_thirty(played: Played) -> None:
    _check(played.anna, played.four)
    # every lost game gives each of the three others 30, the dealer who sat out included
    lines = expected(played.four)
    assert sum(ln.others_lost for ln in lines) == 3 * sum(ln.lost for ln in lines)


def test_the_snapshot_carries_the_preisskat_part(played: Played) -> None:
    async def go() -> tuple[dict[str, Any], dict[str, Any]]:
        ws = await played.anna.connect(played.three.table)
        snap = await ws.until(lambda m: m.get("type") == "snapshot")
        await ws.close()
        ws = await played.anna.connect(played.classic)
        classic = await ws.until(lambda m: m.get("type") == "snapshot")
        await ws.close()
        return snap, classic

    snap, classic = asyncio.run(asyncio.wait_for(go(), 30))
    want = expected(played.three)
    assert [ln["score"] for ln in snap["list"]["seeger"]["lines"]] == [w.leistung for w in want]
    assert snap["table"]["scoring"] == "seeger"
    # a classic table: no seeger part, no scoring word (its list is as it always was)
    assert len(classic["list"]["games"]) == 3
    assert "seeger" not in classic["list"] and "scoring" not in classic["table"]
    r = played.anna.get(f"/api/tables/{played.classic}/list").json()["list"]
    assert "seeger" not in r and r["punktestand"]
    page = played.anna.get(f"/t/{played.classic}/list",
                           headers={"Accept-Language": "en"}).text
    assert "pg-preisskat" not in page and "<h1>Skat list</h1>" in page


def test_defaults_and_refusals(server: Server) -> None:
    c = Client(server)
    c.register(uid("Ben"))
    try:
        made = c.create(game="skat", scoring="seeger", public=False,
                        seats=["me", "person", "person"])
        assert made["table"]["games"] == 36 and made["table"]["scoring"] == "seeger"
        c.post(f"/api/tables/{made['table']['id']}/close")
        made = c.create(game="skat", scoring="seeger", public=True,
                        seats=["me", "person", "person", "person"])
        assert made["table"]["games"] == 48
        row = next(t for t in c.get("/api/tables").json()["tables"]
                   if t["id"] == made["table"]["id"])
        assert row["scoring"] == "seeger" and row["games"] == 48
        c.post(f"/api/tables/{made['table']['id']}/close")
        for body, code in (({"games": 10, "seats": ["me", "person", "person", "person"]},
                            "table.preisskat_games"),
                           ({"games": 0, "seats": ["me", "person", "person"]},
                            "table.preisskat_games"),
                           ({"games": 4, "seats": ["me", "person", "person"]},
                            "table.preisskat_games")):
            r = c.post("/api/tables", {"game": "skat", "scoring": "seeger", **body})
            status, got, message = error_of(r)
            assert (status, got) == (400, code), r.text
            assert "Preisskat" in message
        r = c.post("/api/tables", {"game": "skat", "scoring": "bogus",
                                   "seats": ["me", "person", "person"]})
        assert error_of(r)[:2] == (400, "server.scoring")
        r = c.post("/api/tables", {"game": "baptisten", "scoring": "seeger",
                                   "seats": ["me", "person", "person"]})
        assert error_of(r)[:2] == (400, "server.scoring_skat")
        # German words for a refused series
        r = c.post("/api/tables", {"game": "skat", "scoring": "seeger", "games": 5,
                                   "seats": ["me", "person", "person"]},
                   headers={"Accept-Language": "de"})
        assert "Preisskat-Serie" in error_of(r)[2]
    finally:
        c.close()


def test_a_stranger_sees_nothing_of_the_private_series(played: Played, server: Server) -> None:
    nobody, zed = Client(server), Client(server)
    zed.register(uid("Zed"))
    try:
        for c in (nobody, zed):
            for path in (f"/api/tables/{played.three.table}/list",
                         f"/api/tables/{played.four.table}"):
                r = c.get(path)
                assert r.status_code == 404, r.text
            page = c.get(f"/t/{played.three.table}/list")
            assert page.status_code == 404 and "pg-preisskat" not in page.text
    finally:
        nobody.close()
        zed.close()
