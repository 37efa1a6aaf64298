"""The Tagesskat (issue 43, point 3) over the HTTP API and the protocol, on SQLite and on
PostgreSQL: two accounts and a guest play the day's set; everybody was dealt the same
cards in the same positions; the day's leaderboard ranks them by the Preisskat score,
recomputed here from the stored games alone, and shows the bots' own result on the same
cards; one set per account and day; nobody sees another's table or games; a stranger
cannot play."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from stich.record import replay
from tests.server.conftest import DB_KINDS
from tests.server.harness import ROOMY, Client, Server, TableSocket, database
from tests.server.proto_helpers import error_of, uid

GAMES = 12  # a day's set


@dataclass
class Day:
    clients: list[Client]
    names: list[str]
    tables: list[str]
    records: list[list[dict[str, Any]]]  # per player: the records of their games


@pytest.fixture(scope="module", params=DB_KINDS)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Server]:
    with database(request.param, tmp_path_factory.mktemp("daily")) as url:
        srv = Server(url, bot_delay=0.0, env={"STICH_LIMITS": ROOMY})
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()


@pytest.fixture(scope="module")
def day(server: Server) -> Iterator[Day]:
    clients = [Client(server), Client(server), Client(server)]
    names = [uid("Tag"), uid("Skat"), uid("Gast")]
    clients[0].register(names[0])
    clients[1].register(names[1])
    clients[2].guest(names[2])
    tables = []
    for c in clients:
        r = c.post("/api/daily/play")
        assert r.status_code == 200, r.text
        tables.append(r.json()["table"])

    async def play(ws: TableSocket, rng: random.Random) -> None:
        """Random legal moves; "Weiter" after each game (the table waits for it)."""
        while True:
            msg = await ws.recv(30)
            assert msg["type"] != "error", msg
            if msg["type"] == "event" and msg["kind"] == "end":
                return
            if msg["type"] == "event" and msg["kind"] == "game_over":
                await ws.send({"type": "ready"})
            v = ws.view
            if msg["type"] in ("event", "snapshot") and v and v["legal"] \
                    and v["to_move"] == v["seat"]:
                await ws.act(rng.choice(v["legal"]))

    async def go() -> None:
        for i, (c, tid) in enumerate(zip(clients, tables, strict=True)):
            ws = await c.connect(tid)
            await play(ws, random.Random(30 + i))
            await ws.close()

    asyncio.run(asyncio.wait_for(go(), 300))
    records = []
    for c, tid in zip(clients, tables, strict=True):
        r = c.get(f"/api/tables/{tid}/games")
        assert r.status_code == 200, r.text
        games = r.json()["games"]
        assert len(games) == GAMES
        records.append([c.get(f"/api/games/{g['id']}").json()["record"] for g in games])
    try:
        yield Day(clients, names, tables, records)
    finally:
        for c in clients:
            c.close()


def own_line(records: list[dict[str, Any]]) -> dict[str, int]:
    """The first seat's Preisskat line from its games' records alone (the DSkV's count:
    the list points, 50 for each game won as declarer, minus 50 for each lost, 40 for each
    game another at the table of three lost)."""
    points = won = lost = others_lost = 0
    for rec in records:
        outcome = replay(rec).outcome()  # type: ignore[union-attr]
        seats = rec["seats"]  # table seat by position
        points += outcome.scores[seats.index(0)]
        if outcome.kind == "game":
            mine = seats[outcome.declarer] == 0
            if outcome.won and mine:
                won += 1
            elif not outcome.won:
                if mine:
                    lost += 1
                else:
                    others_lost += 1
    return {"points": points, "won": won, "lost": lost, "others_lost": others_lost,
            "score": points + 50 * (won - lost) + 40 * others_lost}


def test_everybody_is_dealt_the_same_cards_in_the_same_seats(day: Day) -> None:
    first = day.records[0]
    for other in day.records[1:]:
        for a, b in zip(first, other, strict=True):
            assert a["deal"] == b["deal"] and a["seats"] == b["seats"]
    # and the day's tables are not the same table: three tables, each with its player
    assert len(set(day.tables)) == 3


def test_the_leaderboard_ranks_by_the_preisskat_score_from_the_stored_games(
        day: Day) -> None:
    r = day.clients[0].get("/api/daily")
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["today"] and got["set"]["games"] == GAMES
    rows = {row["name"]: row for row in got["board"]}
    lines = [own_line(recs) for recs in day.records]
    for name, line in zip(day.names, lines, strict=True):
        row = rows[name]
        assert (row["score"], row["won"], row["lost"], row["days"]) == (
            line["score"], line["won"], line["lost"], 1), (name, row, line)
        assert row["difference"] == row["score"] - row["bots"] == line["score"] \
            - got["bots"]["score"]
    assert rows[day.names[2]]["guest"] and not rows[day.names[0]]["guest"]
    # ranked: score, then more games won, then fewer lost
    order = [(-row["score"], -row["won"], row["lost"]) for row in got["board"]]
    assert order == sorted(order)
    assert got["board"][0]["place"] == 1
    # the week's board holds today's sets
    week = {row["name"]: row for row in got["week_board"]}
    assert week[day.names[1]]["score"] == lines[1]["score"]
    # one's own line
    assert got["you"]["table"] == day.tables[0] and got["you"]["finished"]
    assert got["you"]["line"]["score"] == lines[0]["score"]


def test_the_bots_own_result_is_that_of_bots_on_the_same_cards(day: Day) -> None:
    from stich.server.daily import reference
    from stich.server.sitting import TableSettings

    got = day.clients[1].get("/api/daily").json()
    # the bots' table as the day's tables are, but the seed is the server's secret: the
    # bots' line is checked by its sum instead (its parts add up, as every line's)
    b = got["bots"]
    assert b["score"] == b["points"] + 50 * (b["won"] - b["lost"]) + 40 * b["others_lost"]
    # and the reference itself is deterministic for a seed
    st = TableSettings(game="skat", rules=got["set"]["rules"],
                       seats=("person", "bot:easy", "bot:easy"), seed=7, games=GAMES,
                       public=False, scoring="seeger")
    assert reference(st.to_dict()) == reference(st.to_dict())


def test_who_has_not_finished_sees_no_result_of_today(day: Day, server: Server) -> None:
    c = Client(server)
    try:
        c.register(uid("Spaet"))
        r = c.post("/api/daily/play")  # started, not finished
        assert r.status_code == 200, r.text
        seen = c.get("/api/daily").json()
        assert seen["you"]["table"] == r.json()["table"] and not seen["you"]["finished"]
        assert not seen["revealed"] and seen["board"] == [] and seen["bots"] is None
        assert seen["week_board"] == [] and seen["finished"] == 3
    finally:
        c.close()


def test_one_set_per_account_and_day(day: Day) -> None:
    again = day.clients[0].post("/api/daily/play")
    assert again.status_code == 200 and again.json()["table"] == day.tables[0]


def test_nobody_sees_anothers_table_or_games(day: Day, server: Server) -> None:
    other = day.clients[1]
    r = other.get(f"/api/tables/{day.tables[0]}")
    assert error_of(r)[1] == "server.no_such_table"
    r = other.get(f"/api/tables/{day.tables[0]}/games")
    assert error_of(r)[1] == "server.no_such_table"
    key = day.clients[0].get(f"/api/tables/{day.tables[0]}/games").json()["games"][0]["id"]
    assert error_of(other.get(f"/api/games/{key}"))[1] == "server.no_such_game"
    stranger = Client(server)
    try:
        assert error_of(stranger.get(f"/api/games/{key}"))[1] == "server.no_such_game"
        # a stranger sees how many finished today, but no result of today (they tell
        # something of today's cards), and cannot play
        seen = stranger.get("/api/daily").json()
        assert seen["you"] is None and seen["finished"] >= 3 and not seen["revealed"]
        assert seen["board"] == [] and seen["bots"] is None
        assert seen["week_board"] == []
        assert "seed" not in str(seen)
        r = stranger.post("/api/daily/play")
        assert r.status_code == 401 and error_of(r)[1] == "auth.not_logged_in"
        # the table list does not show the day's tables
        listed = stranger.get("/api/tables").json()
        assert day.tables[0] not in str(listed)
    finally:
        stranger.close()


def test_a_day_to_come_or_no_day_is_refused(day: Day) -> None:
    c = day.clients[0]
    for bad in ("2999-01-01", "gestern", "2026-13-01", "x" * 500):
        r = c.get("/api/daily", params={"day": bad, "lang": "de"})
        status, code, text = error_of(r)
        assert status == 400 and code == "server.daily_day" and "JJJJ-MM-TT" in text
    # a day gone by that nobody played: no set
    r = c.get("/api/daily", params={"day": "2020-01-01"})
    assert r.status_code == 200 and r.json()["set"] is None
