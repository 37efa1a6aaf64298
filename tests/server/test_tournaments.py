"""Tournaments over the HTTP API on a real server, SQLite and PostgreSQL (issue 43,
point 2): create, list, show, register and withdraw (guests too), the organiser's
actions, every route refusing a stranger, and a small tournament played to its end
whose standings are computed again here from the stored game records alone.

The tournament of seven: round 1 draws a table of four and one of three (series of 4
and 3 games: short, each a multiple of its seats), everybody plays by random legal
moves over the protocol; round 2 is seated by the standings.  The check below knows
nothing of :mod:`stich.server.tournament`: it reads the ``games`` rows of the round's
tables, maps each record's positions to the table's seats (``seats``), multiplies by
the record's Bock factor, and scores the Preisskat list from the DSkV's rule as written
(list points, +50 per game won, −50 per game lost, +40 at three or +30 at four for every
game another player at the table lost), then ranks by score, games won, games lost.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import random
import re
import time
from collections.abc import Callable, Iterator
from html import escape, unescape
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from stich.server.store.db import sync_url
from stich.web.standings import signed
from tests.server.conftest import DB_KINDS
from tests.server.harness import ROOMY, Client, Server, database
from tests.server.proto_helpers import error_of, plain_clients, uid
from tests.server.test_history import play

OPEN_MOST = 3  # an organiser's open tournaments in this module
LIMITS = f"{ROOMY},tournaments_per_hour=1000,account_open_tournaments={OPEN_MOST}," \
         "tournament_actions_per_min=1000"


@pytest.fixture(scope="module", params=DB_KINDS)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Server]:
    tmp: Path = tmp_path_factory.mktemp("tournaments")
    with database(request.param, tmp) as url:
        srv = Server(url, bot_delay=0.0, env={"STICH_LIMITS": LIMITS})
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()


@pytest.fixture
def clients(server: Server) -> Iterator[Callable[..., Client]]:
    yield from plain_clients(server)


def person(clients: Callable[..., Client], prefix: str, guest: bool = False) -> Client:
    c = clients()
    if guest:
        c.guest(uid(prefix))
    else:
        c.register(uid(prefix))
    return c


def ok(r: Any) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return dict(r.json())


def create(c: Client, **body: Any) -> dict[str, Any]:
    body.setdefault("name", "Vereinsabend")
    return dict(ok(c.post("/api/tournaments", body))["tournament"])


def refused(r: Any, status: int, code: str) -> None:
    got = error_of(r)
    assert got[:2] == (status, code), got


def test_create_and_show(clients: Callable[..., Client]) -> None:
    org = person(clients, "Org")
    t = create(org, games_three=6, games_four=8, rounds=3)
    assert (t["status"], t["round"], t["rounds"], t["scoring"]) == ("registering", 0, 3,
                                                                    "seeger")
    assert (t["games_three"], t["games_four"], t["rules"]) == (6, 8, "skat(preset=isko)")
    assert t["you"]["organiser"] is True and t["invite"]
    # defaults: the Preisskat series
    d = create(org, name="Preisskat")
    assert (d["games_three"], d["games_four"]) == (36, 48)
    # a stranger sees a public one, without its invite
    stranger = clients()
    seen = ok(stranger.get(f"/api/tournaments/{t['id']}"))["tournament"]
    assert "invite" not in seen and seen["you"]["organiser"] is False
    listed = ok(stranger.get("/api/tournaments"))["tournaments"]
    assert t["id"] in {x["id"] for x in listed}
    assert "invite" not in str(listed)


@pytest.mark.parametrize(("body", "code"), [
    ({"games_three": 35}, "tournament.series"), ({"games_four": 30}, "tournament.series"),
    ({"games_three": 75}, "tournament.series"), ({"rounds": 0}, "tournament.rounds"),
    ({"rounds": 9}, "tournament.rounds"), ({"name": ""}, "tournament.name"),
    ({"name": "x" * 61}, "tournament.name"), ({"scoring": "bilanz"}, "tournament.scoring"),
    ({"seating": "swiss"}, "tournament.seating"), ({"clock": 301}, "server.clock"),
    ({"bot_level": "godlike"}, "server.bad_seat_spec"),
])
def test_bad_settings_refused(clients: Callable[..., Client], body: dict[str, Any],
                              code: str) -> None:
    org = person(clients, "Org")
    refused(org.post("/api/tournaments", {"name": "T", **body}), 400, code)


def test_too_large_input_refused(clients: Callable[..., Client]) -> None:
    org = person(clients, "Org")
    r = org.post("/api/tournaments", {"name": "x" * 5000})
    assert r.status_code in (413, 422), r.text
    r = org.post("/api/tournaments", {"name": "T", "surprise": 1})
    assert r.status_code == 422, r.text


def test_who_may_create(clients: Callable[..., Client]) -> None:
    refused(clients().post("/api/tournaments", {"name": "T"}), 401, "auth.not_logged_in")
    refused(person(clients, "G", guest=True).post("/api/tournaments", {"name": "T"}), 403,
            "auth.registered_only")
    org = person(clients, "Org")
    for _ in range(OPEN_MOST):
        create(org)
    refused(org.post("/api/tournaments", {"name": "T"}), 429, "tournament.open_tournaments")


def test_private_is_invisible_without_the_invite(clients: Callable[..., Client]) -> None:
    org = person(clients, "Org")
    t = create(org, public=False)
    tid, invite = t["id"], t["invite"]
    stranger = person(clients, "S")
    refused(stranger.get(f"/api/tournaments/{tid}"), 404, "tournament.no_such_tournament")
    refused(clients().get(f"/api/tournaments/{tid}"), 404, "tournament.no_such_tournament")
    refused(stranger.get(f"/api/tournaments/{tid}", params={"invite": "wrong"}), 404,
            "tournament.no_such_tournament")
    assert tid not in {x["id"] for x in ok(stranger.get("/api/tournaments"))["tournaments"]}
    refused(stranger.post(f"/api/tournaments/{tid}/register", {}), 404,
            "tournament.no_such_tournament")
    refused(stranger.post(f"/api/tournaments/{tid}/register", {"invite": "x" * 64}), 404,
            "tournament.no_such_tournament")
    # with the invite a guest registers, and sees it from then on without
    g = person(clients, "G", guest=True)
    got = ok(g.post(f"/api/tournaments/{tid}/register", {"invite": invite}))["tournament"]
    assert got["you"]["registered"] is True and "invite" not in got
    ok(g.get(f"/api/tournaments/{tid}"))
    refused(stranger.get(f"/api/tournaments/{tid}"), 404, "tournament.no_such_tournament")


def test_register_and_withdraw(clients: Callable[..., Client]) -> None:
    org = person(clients, "Org")
    tid = create(org)["id"]
    a, g = person(clients, "A"), person(clients, "G", guest=True)
    refused(clients().post(f"/api/tournaments/{tid}/register", {}), 401,
            "auth.not_logged_in")
    ok(a.post(f"/api/tournaments/{tid}/register", {}))
    refused(a.post(f"/api/tournaments/{tid}/register", {}), 400, "tournament.registered")
    t = ok(g.post(f"/api/tournaments/{tid}/register", {}))["tournament"]
    assert [p["status"] for p in t["players"]] == ["registered", "registered"]
    ok(a.post(f"/api/tournaments/{tid}/withdraw"))
    refused(a.post(f"/api/tournaments/{tid}/withdraw"), 400, "tournament.not_registered")
    t = ok(a.post(f"/api/tournaments/{tid}/register", {}))["tournament"]
    assert t["you"]["registered"] is True
    refused(person(clients, "S").post(f"/api/tournaments/{tid}/withdraw"), 400,
            "tournament.not_registered")
    refused(clients().get("/api/tournaments/" + "x" * 40), 404,
            "tournament.no_such_tournament")


def test_only_the_organiser_acts(clients: Callable[..., Client]) -> None:
    org = person(clients, "Org")
    tid = create(org)["id"]
    players = [person(clients, f"P{i}") for i in range(3)]
    for p in players:
        ok(p.post(f"/api/tournaments/{tid}/register", {}))
    for who, status, code in ((players[0], 403, "tournament.not_organiser"),
                              (person(clients, "S"), 403, "tournament.not_organiser"),
                              (person(clients, "G", guest=True), 403,
                               "tournament.not_organiser"),
                              (clients(), 401, "auth.not_logged_in")):
        for action, body in (("start", None), ("pause", None), ("resume", None),
                             ("end", None), ("replace", {"user": 1})):
            refused(who.post(f"/api/tournaments/{tid}/{action}", body), status, code)
    t = ok(org.get(f"/api/tournaments/{tid}"))["tournament"]
    assert t["status"] == "registering" and t["round"] == 0


def test_too_few_and_five(clients: Callable[..., Client]) -> None:
    org = person(clients, "Org")
    tid = create(org)["id"]
    for i in range(2):
        ok(person(clients, f"P{i}").post(f"/api/tournaments/{tid}/register", {}))
    refused(org.post(f"/api/tournaments/{tid}/start"), 400, "tournament.too_few")
    for i in range(3):
        ok(person(clients, f"Q{i}").post(f"/api/tournaments/{tid}/register", {}))
    r = org.post(f"/api/tournaments/{tid}/start", params={"lang": "de"})
    refused(r, 400, "tournament.five")
    assert "Bots" in error_of(r)[2]  # in words, in German
    ok(org.post(f"/api/tournaments/{tid}/end"))
    refused(org.post(f"/api/tournaments/{tid}/start"), 400, "tournament.over")


def test_pause_blocks_the_next_round(clients: Callable[..., Client]) -> None:
    org = person(clients, "Org")
    tid = create(org, games_three=3, games_four=4, clock=0, next_after=0)["id"]
    for i in range(3):
        ok(person(clients, f"P{i}").post(f"/api/tournaments/{tid}/register", {}))
    assert ok(org.post(f"/api/tournaments/{tid}/pause"))["tournament"]["paused"] is True
    refused(org.post(f"/api/tournaments/{tid}/pause"), 400, "tournament.paused")
    refused(org.post(f"/api/tournaments/{tid}/start"), 400, "tournament.paused")
    ok(org.post(f"/api/tournaments/{tid}/resume"))
    refused(org.post(f"/api/tournaments/{tid}/resume"), 400, "tournament.not_paused")


def test_five_with_bots_and_replacing_everybody(clients: Callable[..., Client]) -> None:
    """Five players with bots allowed: two tables of three, one seat a bot's.  The
    organiser replaces all five (no-shows) by bots; the bots play the series out, the
    round is over, and nobody's score counts (every seat is a bot's)."""
    org = person(clients, "Org")
    tid = create(org, games_three=3, games_four=4, clock=0, next_after=0, bots=True,
                 bot_level="random", rounds=1)["id"]
    people = [person(clients, f"P{i}", guest=i == 0) for i in range(5)]
    for p in people:
        ok(p.post(f"/api/tournaments/{tid}/register", {}))
    t = ok(org.post(f"/api/tournaments/{tid}/start"))["tournament"]
    tables = t["rounds_played"][0]["tables"]
    assert [len(x["seats"]) for x in tables] == [3, 3]
    assert sum(s["bot"] for x in tables for s in x["seats"]) == 1
    assert all(x["link"] for x in tables)  # the organiser gets every table's link
    mine = ok(people[0].get(f"/api/tournaments/{tid}"))["tournament"]
    assert mine["you"]["table"] and mine["you"]["table"].startswith("/t/")
    assert sum(x["link"] is not None for x in mine["rounds_played"][0]["tables"]) == 1
    refused(org.post(f"/api/tournaments/{tid}/start"), 409, "tournament.round_running")
    for p in t["players"]:
        ok(org.post(f"/api/tournaments/{tid}/replace", {"user": p["id"]}))
    refused(org.post(f"/api/tournaments/{tid}/replace", {"user": t["players"][0]["id"]}),
            400, "tournament.not_playing")
    end = time.monotonic() + 60.0
    while True:
        t = ok(org.get(f"/api/tournaments/{tid}"))["tournament"]
        if t["status"] == "over":
            break
        assert time.monotonic() < end, t
        time.sleep(0.3)
    assert all(x["done"] and x["games_played"] == 3 for x in t["rounds_played"][0]["tables"])
    assert all(s["bot"] for x in t["rounds_played"][0]["tables"] for s in x["seats"])
    assert {p["status"] for p in t["players"]} == {"replaced"}
    assert all(s["series"] == 0 and s["score"] == 0 for s in t["standings"])


@pytest.mark.parametrize("duplicate", [True, False])
def test_a_duplicate_round_deals_the_same_cards_at_every_table(
        clients: Callable[..., Client], duplicate: bool) -> None:
    """Six players, two tables of three: with ``duplicate`` the player in each seat of
    one table holds exactly the cards of the player in that seat of the other (and the
    same seat deals first); without it the deals differ."""
    org = person(clients, "Org")
    t = create(org, games_three=3, games_four=4, clock=0, next_after=0, rounds=1,
               duplicate=duplicate)
    assert t["duplicate"] is duplicate
    names = [uid(f"D{i}") for i in range(6)]
    people = {}
    for name in names:
        people[name] = clients()
        people[name].register(name)
        ok(people[name].post(f"/api/tournaments/{t['id']}/register", {}))
    started = ok(org.post(f"/api/tournaments/{t['id']}/start"))["tournament"]
    tables = started["rounds_played"][0]["tables"]
    assert [len(x["seats"]) for x in tables] == [3, 3]

    async def hands() -> list[dict[int, tuple[list[str], list[int]]]]:
        out = []
        for x in tables:
            seen: dict[int, tuple[list[str], list[int]]] = {}
            for seat in x["seats"]:
                c = people[seat["name"]]
                table = ok(c.get(f"/api/tournaments/{t['id']}"))["tournament"]["you"]["table"]
                ws = await c.connect(table.removeprefix("/t/"))
                await ws.until(lambda m: m["type"] == "snapshot")
                assert ws.view is not None
                seen[ws.you] = (sorted(ws.view["hand"]), ws.view["positions"])
                await ws.close()
            out.append(seen)
        return out

    a, b = asyncio.run(hands())
    assert set(a) == set(b) == {0, 1, 2}
    if duplicate:
        assert a == b
    else:
        assert a != b


# -- a small tournament played to its end ------------------------------------------------

def seeger_from_records(url: str, table_ids: list[str]) -> dict[str, dict[int, list[int]]]:
    """Per table and seat: [score, won, lost] of its Preisskat list, from the stored
    records (the DSkV's rule as written: see the module's docstring)."""
    engine = sa.create_engine(sync_url(url))
    out: dict[str, dict[int, list[int]]] = {}
    try:
        with engine.connect() as conn:
            for tid in table_ids:
                settings = conn.execute(sa.text("SELECT settings FROM tables WHERE id = :t"),
                                        {"t": tid}).scalar_one()
                if isinstance(settings, str):
                    settings = json.loads(settings)
                n = len(settings["seats"])
                points, won, lost = [0] * n, [0] * n, [0] * n
                rows = conn.execute(sa.text("SELECT record FROM games WHERE table_id = :t "
                                            "ORDER BY number"), {"t": tid}).scalars()
                for rec in rows:
                    if isinstance(rec, str):
                        rec = json.loads(rec)
                    res, pos = rec["result"], rec["seats"]
                    bock = int(rec.get("bock", 1))
                    for p, seat in enumerate(pos):
                        points[seat] += res["scores"][p] * bock
                    if res["kind"] == "game" and res.get("declarer") is not None:
                        seat = pos[res["declarer"]]
                        (won if res["won"] else lost)[seat] += 1
                per_lost = 40 if n == 3 else 30
                out[tid] = {s: [points[s] + 50 * won[s] - 50 * lost[s]
                                + per_lost * (sum(lost) - lost[s]), won[s], lost[s]]
                            for s in range(n)}
    finally:
        engine.dispose()
    return out


def standings_from_records(url: str, t: dict[str, Any]
                           ) -> tuple[list[tuple[int, int, int, int]], list[int]]:
    """The standings of the tournament ``t`` (as the API shows it) computed again from
    the stored records of every round's tables (:func:`seeger_from_records`): each
    player's place, score, games won and lost in the order of the ranking (score, then
    games won, then fewer games lost; a tie shares the place), and the players' ids in
    that order (a tie by name).  Every table must have played its whole series."""
    ids = {p["name"]: p["id"] for p in t["players"]}
    names = {p["id"]: p["name"] for p in t["players"]}
    mine: dict[int, list[int]] = {i: [0, 0, 0] for i in ids.values()}
    for played in t["rounds_played"]:
        tables = played["tables"]
        lines = seeger_from_records(url, [x["link"].removeprefix("/t/") for x in tables])
        for x in tables:
            got = lines[x["link"].removeprefix("/t/")]
            series = t["games_three"] if len(x["seats"]) == 3 else t["games_four"]
            assert x["games_played"] == series, x
            for seat, s in enumerate(x["seats"]):
                acc = mine[ids[s["name"]]]
                for k in range(3):
                    acc[k] += got[seat][k]
    order = sorted(mine, key=lambda i: (-mine[i][0], -mine[i][1], mine[i][2]))
    expected = []
    for i in order:
        place = next(j for j in order if mine[j] == mine[i])
        expected.append((order.index(place) + 1, mine[i][0], mine[i][1], mine[i][2]))
    return expected, sorted(order, key=lambda i: (-mine[i][0], -mine[i][1], mine[i][2],
                                                 names[i].casefold()))


def test_a_small_tournament_played_to_its_end(server: Server,
                                              clients: Callable[..., Client]) -> None:
    org = person(clients, "Org")
    t = create(org, games_three=3, games_four=4, clock=0, next_after=0, rounds=2)
    tid = t["id"]
    people = [person(clients, f"P{i}", guest=i % 3 == 0) for i in range(7)]
    for p in people:
        ok(p.post(f"/api/tournaments/{tid}/register", {}))
    tables_of_round: dict[int, list[dict[str, Any]]] = {}
    for round_no in (1, 2):
        t = ok(org.post(f"/api/tournaments/{tid}/start"))["tournament"]
        assert (t["status"], t["round"]) == ("running", round_no)
        tables = t["rounds_played"][round_no - 1]["tables"]
        assert sorted(len(x["seats"]) for x in tables) == [3, 4]
        tables_of_round[round_no] = tables
        links = []
        for p in people:
            you = ok(p.get(f"/api/tournaments/{tid}"))["tournament"]["you"]
            assert you["registered"] and you["table"], you
            links.append(you["table"].removeprefix("/t/"))
        assert sorted(links.count(x["link"].removeprefix("/t/")) for x in tables) == [3, 4]

        async def go(links: list[str] = links, seed: int = round_no) -> None:
            sockets = [await p.connect(link) for p, link in zip(people, links, strict=True)]
            await play(sockets, random.Random(seed))
            for ws in sockets:
                await ws.close()

        asyncio.run(asyncio.wait_for(go(), 180))
        t = ok(org.get(f"/api/tournaments/{tid}"))["tournament"]
        assert t["status"] == ("between" if round_no == 1 else "over"), t["status"]
        _pages_mark_each_viewer(org, people, clients(), tid, t)
        if round_no == 1:  # seated by the standings: the table of four has the best four
            best = {s["id"] for s in t["standings"][:4]}
    round2 = t["rounds_played"][1]["tables"]
    four = next(x for x in round2 if len(x["seats"]) == 4)
    names = {p["id"]: p["name"] for p in t["players"]}
    assert {s["name"] for s in four["seats"]} == {names[i] for i in best}
    expected, order = standings_from_records(server.db, t)
    assert [(s["place"], s["score"], s["won"], s["lost"]) for s in t["standings"]] == expected
    assert [s["id"] for s in t["standings"]] == order
    assert all(s["series"] == 2 for s in t["standings"])
    # each player's place as the page shows it
    for p in people:
        you = ok(p.get(f"/api/tournaments/{tid}"))["tournament"]["you"]
        assert you["place"] is not None and you["table"] is None
    refused(org.post(f"/api/tournaments/{tid}/start"), 400, "tournament.over")


def test_the_look_follows_the_games_played_while_a_round_runs(
        clients: Callable[..., Client]) -> None:
    """A round runs; the organiser's page looks after each game of a table (its players
    wait for it): the games played there count up one by one, in the look and on the
    page, while the other table has played none; after the series the table is done.
    (A look reads the tournament again only when it changed; while only games were
    played it reads just their numbers.)"""
    org = person(clients, "Org")
    tid = create(org, games_three=3, games_four=4, clock=0, next_after=0, rounds=1)["id"]
    people = [person(clients, f"P{i}") for i in range(6)]
    for p in people:
        ok(p.post(f"/api/tournaments/{tid}/register", {}))
    ok(org.post(f"/api/tournaments/{tid}/start"))
    links = [ok(p.get(f"/api/tournaments/{tid}"))["tournament"]["you"]["table"]
             for p in people]
    here = [p for p, link in zip(people, links, strict=True) if link == links[0]]
    assert len(here) == 3

    def tables() -> list[dict[str, Any]]:
        t = ok(org.get(f"/api/tournaments/{tid}"))["tournament"]
        return list(t["rounds_played"][0]["tables"])

    number = next(x["number"] for x in tables() if x["link"] == links[0])
    allowed = [1]  # the players act in games up to this one
    over: list[Any] = []  # the sockets that saw the series end

    async def go() -> None:
        sockets = [await p.connect(links[0].removeprefix("/t/")) for p in here]

        async def one(ws: Any) -> None:
            acted = -1
            while True:
                try:
                    msg = await ws.recv(0.2)
                except TimeoutError:
                    msg = None
                if msg and msg["type"] == "event" and msg["kind"] == "end":
                    over.append(ws)
                    return
                v = ws.view
                if v and v["legal"] and v["to_move"] == v["seat"] \
                        and v["number"] <= allowed[0] and ws.seq != acted:
                    acted = ws.seq
                    await ws.act(random.Random(ws.seq).choice(v["legal"]))

        async def look() -> None:
            for game in (1, 2, 3):
                # the game is stored: the next one is dealt (or the series ended)
                end = time.monotonic() + 60
                while not (over or any(ws.view and ws.view["number"] > game
                                       for ws in sockets)):
                    assert time.monotonic() < end
                    await asyncio.sleep(0.05)
                # the first look after it says so at once
                got = await asyncio.to_thread(tables)
                mine = next(x for x in got if x["number"] == number)
                assert mine["games_played"] == game, mine
                assert all(x["games_played"] == 0 for x in got if x is not mine)
                html = (await asyncio.to_thread(org.get, f"/tournaments/{tid}")).text
                assert f'<span data-played="1-{number}">{game}</span>' in html
                allowed[0] = game + 1

        await asyncio.gather(look(), *(one(ws) for ws in sockets))
        for ws in sockets:
            await ws.close()

    asyncio.run(asyncio.wait_for(go(), 180))
    mine = next(x for x in tables() if x["number"] == number)
    assert mine["done"] and mine["games_played"] == 3


def _pages_mark_each_viewer(org: Client, people: list[Client], stranger: Client, tid: str,
                            t: dict[str, Any]) -> None:
    """The tournament's page (HTML), as each viewer gets it, in turns and in both
    languages (the page is made of parts every viewer shares: the organiser's page
    first, then the players', then a stranger's): the organiser gets every table's
    link; a player their own tables' links, their own row and tables marked and no
    other's; a stranger (and nobody logged in) no link and no mark."""
    tables = [x for r in t["rounds_played"] for x in r["tables"]]
    ids = {p["name"]: p["id"] for p in t["players"]}
    for lang in ("de", "en"):
        html = org.get(f"/tournaments/{tid}", params={"lang": lang}).text
        assert html.count('href="/t/') == len(tables)
        assert 'class="pg-who me"' not in html and '<li class="me"' not in html
        for p in people:
            mine = ok(p.get(f"/api/tournaments/{tid}"))["tournament"]
            you = next(s for s in mine["standings"] if s["you"])
            html = p.get(f"/tournaments/{tid}", params={"lang": lang}).text
            links = set(re.findall(r'href="(/t/[^"]+)"', html))
            assert links == {x["link"] for r in mine["rounds_played"] for x in r["tables"]
                             if x["link"]}
            assert len(links) == t["round"]  # a table of theirs in every round
            rows = re.findall(r'<tr class="pg-who me">.*?</tr>', html, re.S)
            assert len(rows) == 1 and f">{you['name']}<" in rows[0], rows
            assert ids[you["name"]] == you["id"]
            assert html.count('<li class="me"') == t["round"]
            # the page carries what its looks compare (it need not look at once)
            watch = re.search(r"data-watch='([^']*)'", html)
            assert watch and json.loads(unescape(watch.group(1))) == mine["watch"]
            _page_shows(html, mine)
        for who in (stranger, Client(org.server)):
            html = who.get(f"/tournaments/{tid}", params={"lang": lang}).text
            assert 'href="/t/' not in html and 'class="pg-who me"' not in html
            assert '<li class="me"' not in html
            assert all(f">{s['name']}<" in html for s in t["standings"])


def _page_shows(html: str, t: dict[str, Any]) -> None:
    """Every standings row of the page has the place, name and score of ``t`` (the
    look), every table the games played: the parts the pages keep as made are the
    tournament's as it is."""
    for s in t["standings"]:
        assert re.search(
            rf'<td class="num">{s["place"]}\.</td>\s*<th scope="row">'
            rf'{re.escape(escape(s["name"]))}(?: <span class="tag">[^<]*</span>)?</th>\s*'
            rf'<td class="num" data-label="[^"]*"><b>{re.escape(signed(s["score"]))}</b>',
            html), s
    for r in t["rounds_played"]:
        for x in r["tables"]:
            assert (f'<span data-played="{r["round"]}-{x["number"]}">{x["games_played"]}'
                    "</span>") in html, x


def test_a_kill_in_the_middle_of_a_round_loses_nothing(
        server: Server, clients: Callable[..., Client]) -> None:
    """kill -9 of the server while a round's table plays: after the restart the
    tournament is where it was (its state is in the database), the table goes on from
    its last event, and once its series is over the round is."""
    org = person(clients, "Org")
    tid = create(org, games_three=9, games_four=4, clock=0, next_after=0, rounds=1)["id"]
    people = [person(clients, f"K{i}") for i in range(3)]
    for p in people:
        ok(p.post(f"/api/tournaments/{tid}/register", {}))
    t = ok(org.post(f"/api/tournaments/{tid}/start"))["tournament"]
    link = t["rounds_played"][0]["tables"][0]["link"].removeprefix("/t/")

    async def part(upto: int) -> None:
        """Random legal play until the table's log has ``upto`` events (a game and a
        half), then the sockets go as the server does."""
        sockets = [await p.connect(link) for p in people]
        rng = random.Random(5)

        async def one(ws: Any) -> None:
            while ws.seq < upto:
                msg = await ws.recv(30)
                if msg["type"] == "error":
                    assert msg["code"] == "server.stale", msg
                    continue
                v = ws.view
                if msg["type"] in ("event", "snapshot") and v and v["legal"] \
                        and v["to_move"] == v["seat"] and ws.seq < upto:
                    await ws.act(rng.choice(v["legal"]))

        await asyncio.wait_for(asyncio.gather(*(one(ws) for ws in sockets)), 60)
        for ws in sockets:
            await ws.close()

    async def rest() -> None:
        sockets = [await p.connect(link) for p in people]
        await asyncio.wait_for(play(sockets, random.Random(6)), 120)
        for ws in sockets:
            await ws.close()

    asyncio.run(part(60))
    server.kill()
    server.start(60)
    t = ok(org.get(f"/api/tournaments/{tid}"))["tournament"]
    assert (t["status"], t["round"]) == ("running", 1)
    played = t["rounds_played"][0]["tables"][0]["games_played"]
    assert 0 < played < 9, played
    asyncio.run(rest())
    t = ok(org.get(f"/api/tournaments/{tid}"))["tournament"]
    assert t["status"] == "over", t
    assert t["rounds_played"][0]["tables"][0]["games_played"] == 9
    lines = seeger_from_records(server.db, [link])[link]
    assert sorted((s["score"], s["won"], s["lost"]) for s in t["standings"]) == sorted(
        tuple(v) for v in lines.values())


def test_the_rates_are_bounded(tmp_path: Path) -> None:
    """Tournaments created per hour, and registrations and organiser's actions per
    minute, are counted per account (a server of its own with small limits)."""
    limits = f"{ROOMY},tournaments_per_hour=2,tournament_actions_per_min=3"
    with Server(f"sqlite:///{tmp_path / 'rates.db'}", bot_delay=0.0,
                env={"STICH_LIMITS": limits}) as srv:
        org, p = Client(srv), Client(srv)
        org.register(uid("Org"))
        p.register(uid("P"))
        tid = create(org)["id"]
        create(org)
        refused(org.post("/api/tournaments", {"name": "T"}), 429, "server.rate_limited")
        ok(p.post(f"/api/tournaments/{tid}/register", {}))
        ok(p.post(f"/api/tournaments/{tid}/withdraw"))
        ok(p.post(f"/api/tournaments/{tid}/register", {}))
        refused(p.post(f"/api/tournaments/{tid}/withdraw"), 429, "server.rate_limited")
        for c in (org, p):
            c.close()


def test_a_change_is_read_once_however_many_look(tmp_path: Path) -> None:
    """Twenty looks at once after a change (another worker renamed it: the database
    says so): the tournament is read whole once (``stich_tournament_reads_total``), all
    of them see the new name, and the looks after it read nothing."""
    token = "metrics-" + "t" * 24

    def reads(srv: Server) -> float:
        r = httpx.get(srv.url + "/metrics", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        return sum(float(line.rsplit(" ", 1)[1]) for line in r.text.splitlines()
                   if line.startswith("stich_tournament_reads_total "))

    with Server(f"sqlite:///{tmp_path / 'reads.db'}", bot_delay=0.0,
                env={"STICH_LIMITS": LIMITS, "STICH_METRICS_TOKEN": token}) as srv:
        org = Client(srv)
        org.register(uid("Org"))
        tid = create(org, games_three=3, games_four=4, clock=0)["id"]
        people = [Client(srv) for _ in range(20)]
        for i, p in enumerate(people):
            p.guest(uid(f"L{i}"))
            ok(p.post(f"/api/tournaments/{tid}/register", {}))
        ok(people[0].get(f"/api/tournaments/{tid}"))
        before = reads(srv)
        ok(people[0].get(f"/api/tournaments/{tid}"))
        assert reads(srv) == before  # nothing changed: nothing read
        # another worker renames it (its write counts the version up), as this one sees
        # it: in the database only
        engine = sa.create_engine(sync_url(srv.db))
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE tournaments SET name = 'Neuer Name',"
                                 " version = version + 1 WHERE id = :id"), {"id": tid})
        engine.dispose()
        before = reads(srv)
        with concurrent.futures.ThreadPoolExecutor(len(people)) as pool:
            seen = list(pool.map(lambda p: ok(p.get(f"/api/tournaments/{tid}")), people))
        assert all(t["tournament"]["name"] == "Neuer Name" for t in seen)
        assert reads(srv) == before + 1
        for p in people[:5]:
            ok(p.get(f"/api/tournaments/{tid}"))
        assert reads(srv) == before + 1
        for c in (org, *people):
            c.close()


def test_round_tables_are_not_the_organisers_own(tmp_path: Path) -> None:
    """A round's tables are the tournament's: with one open table allowed per account,
    the organiser of a running round of two tables may still open a table of his own,
    and that one counts (a second is refused)."""
    limits = f"{ROOMY},account_open_tables=1,tournaments_per_hour=10," \
             "tournament_actions_per_min=100"
    with Server(f"sqlite:///{tmp_path / 'own.db'}", bot_delay=0.0,
                env={"STICH_LIMITS": limits}) as srv:
        org = Client(srv)
        org.register(uid("Org"))
        tid = create(org, games_three=3, games_four=4, clock=0, rounds=1)["id"]
        people = [Client(srv) for _ in range(6)]
        for p in people:
            p.register(uid("P"))
            ok(p.post(f"/api/tournaments/{tid}/register", {}))
        t = ok(org.post(f"/api/tournaments/{tid}/start"))["tournament"]
        assert len(t["rounds_played"][0]["tables"]) == 2
        org.create(game="skat", seats=["me", "person", "person"])
        refused(org.post("/api/tables", {"game": "skat", "seats": ["me", "person", "person"]}),
                429, "server.open_tables")
        for c in (org, *people):
            c.close()
