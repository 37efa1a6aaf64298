"""The lobby over real sockets: listing public tables and hiding private ones, creating
Skat and Baptistenskat tables (rules strings, seats, refusals), joining, leaving, bots
on seats, the start once every seat is taken, and ending an open-ended list."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import websockets

from stich.baptisten import BaptistenRules
from tests.server.harness import Client, Server
from tests.server.proto_helpers import (
    barrier,
    error_of,
    kind,
    plain_clients,
    play_random,
    table,
    uid,
)


@pytest.fixture
def clients(server: Server) -> Iterator[Callable[..., Client]]:
    """The conftest's ``clients``, as :class:`PlainClient` s (no CA bundle per client)."""
    yield from plain_clients(server)


def _person(clients: Callable[..., Client], prefix: str = "L") -> Client:
    """Someone at the lobby: a guest (a name alone is enough to open and join tables;
    registered accounts are the business of test_accounts)."""
    c = clients()
    c.guest(uid(prefix))
    return c


def test_public_tables_are_listed_private_ones_only_by_invite(
        clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    host = _person(clients, "Host")
    pub = host.create(game="skat", seats=["me", "person", "person"])
    priv = host.create(game="skat", seats=["me", "person", "person"], public=False)
    pid, vid, invite = pub["table"]["id"], priv["table"]["id"], priv["invite"]
    assert priv["invite_path"] == f"/t/{vid}?invite={invite}"
    assert priv["invite_url"] == host.server.url + priv["invite_path"]  # no --public-url
    assert pub["table"]["invite"] == pub["invite"]  # the creator sits there: they see it

    other = clients()  # not even logged in
    listed = other.get("/api/tables").json()["tables"]
    ids = [t["id"] for t in listed]
    assert pid in ids and vid not in ids
    row = next(t for t in listed if t["id"] == pid)
    assert row["status"] == "waiting" and row["free"] == 2 and row["bots"] == 0
    assert row["rules"] == "skat(preset=lothar)" and row["games"] == 36
    assert "invite" not in row and all("user" not in s for s in row["seats"])
    assert pid in [t["id"] for t in other.get("/api/tables?status=waiting").json()["tables"]]
    assert pid not in [t["id"] for t in other.get("/api/tables?status=running").json()["tables"]]

    # A public table is visible to anyone, its invite only to those who sit there.
    seen = table(other, pid)
    assert seen["id"] == pid and seen["invite"] is None
    # A private table does not exist without its invite (nor with a wrong one).
    for params in (None, {"invite": "wrong"}, {"invite": invite[:-1]}):
        r = other.get(f"/api/tables/{vid}", params=params)
        assert error_of(r)[:2] == (404, "server.no_such_table"), params
    assert error_of(other.get(f"/api/tables/{vid}/list"))[:2] == (404, "server.no_such_table")
    seen = table(other, vid, invite=invite)
    assert seen["id"] == vid and seen["public"] is False and seen["invite"] == invite
    assert other.get(f"/api/tables/{vid}/list", params={"invite": invite}).status_code == 200
    # An unknown table is the same 404.
    assert error_of(other.get("/api/tables/nosuchtbl"))[:2] == (404, "server.no_such_table")

    async def sockets() -> None:
        ws = await other.connect(vid)
        msg = await ws.recv()
        assert msg["type"] == "error" and msg["code"] == "server.no_such_table"
        with pytest.raises(websockets.ConnectionClosed) as e:
            await ws.recv()
        assert e.value.rcvd is not None and e.value.rcvd.code == 4404
        ws = await other.connect(vid, invite=invite)
        welcome = await ws.recv()
        assert welcome["type"] == "welcome" and welcome["you"] is None
        assert welcome["table"]["id"] == vid
        await ws.close()

    run(sockets())


def test_create_skat_presets_and_list_lengths(clients: Callable[..., Client]) -> None:
    c = _person(clients)
    seats = ["me", "person", "person"]
    t = c.create(seats=seats)["table"]  # Skat is the default game
    assert (t["game"], t["rules"], t["preset"], t["games"]) == \
        ("skat", "skat(preset=lothar)", "lothar", 36)
    t = c.create(game="skat", preset="isko", games=3, seats=seats)["table"]
    assert (t["rules"], t["preset"], t["games"]) == ("skat(preset=isko)", "isko", 3)
    t = c.create(game="skat", games=0, seats=seats)["table"]
    assert t["games"] == 0 and t["status"] == "waiting"
    t = c.create(game="skat", games=999, seats=seats)["table"]
    assert t["games"] == 999
    for games in (1, 2, 4, 35, 998):
        status, code, text = error_of(c.post("/api/tables", {"game": "skat", "games": games,
                                                             "seats": seats}))
        assert (status, code) == (400, "server.games_count"), games
        assert str(games) in text
    for games in (-3, 1002):
        assert error_of(c.post("/api/tables", {"games": games, "seats": seats}))[:2] \
            == (422, "server.bad_message")


BAPTISTEN = [
    # (request, rules string, (players, deck, max_cards, variants))
    ({"seats": 3}, "baptisten(preset=default,players=3)", (3, "elferraus", 10, ())),
    ({"seats": 10}, "baptisten(preset=default,players=10,max_cards=8)",
     (10, "elferraus", 8, ())),
    ({"seats": 15, "variants": [1]},
     "baptisten(preset=default,deck=romme-double-joker,players=15,max_cards=7)",
     (15, "romme-double-joker", 7, ())),
    ({"seats": 4, "deck": "romme", "max_cards": 5},
     "baptisten(preset=default,deck=romme,max_cards=5)", (4, "romme", 5, ())),
    ({"seats": 4, "variants": [2]}, "baptisten(preset=default,variants=2)",
     (4, "elferraus", 10, (2,))),
    ({"seats": 4, "variants": [3]}, "baptisten(preset=default,variants=3)",
     (4, "elferraus", 10, (3,))),
    ({"seats": 4, "variants": [4, 5]}, "baptisten(preset=default,variants=4+5)",
     (4, "elferraus", 10, (4, 5))),
    ({"seats": 5, "deck": "skat-double", "max_cards": 3, "variants": [5, 4, 3, 2]},
     "baptisten(preset=default,deck=skat-double,players=5,max_cards=3,variants=2+3+4+5)",
     (5, "skat-double", 3, (2, 3, 4, 5))),
    ({"seats": 3, "variants": [1, 2]},
     "baptisten(preset=default,deck=romme-double-joker,players=3,variants=2)",
     (3, "romme-double-joker", 10, (2,))),
]


@pytest.mark.parametrize(("req", "rules", "fields"), BAPTISTEN,
                         ids=[r for _, r, _ in BAPTISTEN])
def test_create_baptisten_tables(clients: Callable[..., Client], req: dict[str, Any],
                                 rules: str, fields: tuple[Any, ...]) -> None:
    c = _person(clients)
    seats = ["me"] + ["person"] * (req["seats"] - 1)
    made = c.create(**{**req, "game": "baptisten", "seats": seats})
    t = made["table"]
    assert t["game"] == "baptisten" and t["rules"] == rules and t["games"] == 1
    assert len(t["seats"]) == req["seats"] and t["status"] == "waiting"
    r = BaptistenRules.parse(t["rules"])
    assert (r.players, r.deck, r.max_cards, r.variants) == fields
    assert table(c, t["id"])["rules"] == rules


def test_baptisten_presets_keep_their_scoring(clients: Callable[..., Client]) -> None:
    c = _person(clients)
    t = c.create(game="baptisten", preset="ohhell", seats=["me", "person", "person"])["table"]
    assert BaptistenRules.parse(t["rules"]) == BaptistenRules.preset("ohhell")
    assert t["rules"] == "baptisten(preset=ohhell)"


BAD_SETTINGS = [
    ({"games": 4}, 400, "server.games_count"),
    ({"seats": ["me", "person"]}, 400, "server.skat_seats"),
    ({"seats": ["me", "person", "person", "person", "person"]}, 400, "server.skat_seats"),
    ({"seats": ["me"]}, 422, "server.bad_message"),
    ({"seats": ["me", "person", "bot:hard"]}, 400, "server.bad_seat_spec"),
    ({"seats": ["me", "person", "robot"]}, 400, "server.bad_seat_spec"),
    ({"seats": ["me", "person", ""]}, 400, "server.bad_seat_spec"),
    ({"games": "3"}, 422, "server.bad_message"),  # JSON types: a number, not a text
    ({"public": "yes"}, 422, "server.bad_message"),
    ({"grace": 1}, 400, "server.grace"),
    ({"grace": 3601}, 400, "server.grace"),
    ({"preset": "nope"}, 400, "rules.unknown_preset"),
    ({"rules": "nonsense"}, 400, "rules.not_a_rule_string"),
    ({"rules": "skat(preset=lothar,foo=1)"}, 400, "rules.unknown_option"),
    ({"game": "poker"}, 422, "server.bad_message"),
    ({"game": "baptisten", "seats": ["me", "person"]}, 400, "baptisten.too_few_players"),
    ({"game": "baptisten", "seats": ["me"] + ["person"] * 11}, 400,
     "baptisten.too_many_players"),
    ({"game": "baptisten", "seats": ["me"] + ["person"] * 15}, 422, "server.bad_message"),
    ({"game": "baptisten", "seats": ["me", "person", "person"], "variants": [6]}, 400,
     "server.bad_variant"),
    ({"game": "baptisten", "seats": ["me", "person", "person"], "variants": [0]}, 400,
     "server.bad_variant"),
    ({"game": "baptisten", "seats": ["me", "person", "person"], "variants": [1],
      "deck": "elferraus"}, 400, "server.variant_deck"),
    ({"game": "baptisten", "seats": ["me", "person", "person"], "deck": "tarot"}, 400,
     "cards.unknown_deck"),
    ({"game": "baptisten", "seats": ["me", "person", "person"], "max_cards": 27}, 400,
     "baptisten.max_cards"),
    ({"game": "baptisten", "seats": ["me", "person", "person"], "max_cards": 0}, 422,
     "server.bad_message"),
    ({"game": "baptisten", "seats": ["me", "person", "person"],
      "rules": "baptisten(players=4)"}, 400, "server.seat_count"),
    ({"game": "baptisten", "seats": ["me", "person", "person"], "preset": "nope"}, 400,
     "rules.unknown_preset"),
]


def test_bad_table_settings_are_refused_clearly(clients: Callable[..., Client]) -> None:
    c = _person(clients)
    before = {t["id"] for t in c.get("/api/tables?status=open").json()["tables"]}
    for body, status, code in BAD_SETTINGS:
        r = c.post("/api/tables", body)
        assert error_of(r)[:2] == (status, code), (body, r.text)
    # In German on request, and nothing was made.
    r = c.post("/api/tables?lang=de", {"games": 4})
    assert error_of(r)[2] == ("Eine Skatliste hat ein Vielfaches von 3 Spielen (oder 0 "
                              "für offen), nicht 4")
    r = c.post("/api/tables?lang=en", {"games": 4})
    assert error_of(r)[2] == ("A Skat list has a multiple of 3 games (or 0 for "
                              "open-ended), not 4")
    assert {t["id"] for t in c.get("/api/tables?status=open").json()["tables"]} == before
    # Nobody logged in: nothing to create.
    assert error_of(clients().post("/api/tables", {}))[:2] == (401, "auth.not_logged_in")


def test_seats_join_leave_bots_and_the_start(clients: Callable[..., Client],
                                             run: Callable[..., Any]) -> None:
    host = _person(clients, "Host")
    made = host.create(game="baptisten", seats=["person", "me", "person", "person",
                                                "bot:random"])
    t, tid = made["table"], made["table"]["id"]
    kinds = [s["kind"] for s in t["seats"]]
    assert kinds == ["free", "person", "free", "free", "bot"]
    assert t["seats"][4]["bot"] == "random" and t["seats"][4]["name"]
    assert t["seats"][1]["name"] == host.get("/api/me").json()["user"]["name"]

    b, c, d = (_person(clients, n) for n in ("B", "C", "D"))
    nobody = clients()
    assert error_of(nobody.post(f"/api/tables/{tid}/join", {}))[:2] \
        == (401, "auth.not_logged_in")

    async def story() -> None:
        ws = await host.connect(tid)
        welcome = await ws.recv()
        assert welcome["type"] == "welcome" and welcome["you"] == 1
        start_seq = welcome["seq"]
        await ws.drain()

        # The first free seat, or the one asked for.
        r = b.post(f"/api/tables/{tid}/join", {})
        assert r.status_code == 200 and r.json()["you"] == 0, r.text
        r = c.post(f"/api/tables/{tid}/join", {"seat": 3})
        assert r.status_code == 200 and r.json()["you"] == 3, r.text
        assert error_of(d.post(f"/api/tables/{tid}/join", {"seat": 3}))[:2] \
            == (409, "server.seat_taken")
        assert error_of(d.post(f"/api/tables/{tid}/join", {"seat": 0}))[:2] \
            == (409, "server.seat_taken")
        assert error_of(d.post(f"/api/tables/{tid}/join", {"seat": 1}))[:2] \
            == (409, "server.seat_taken")
        assert error_of(d.post(f"/api/tables/{tid}/join", {"seat": 9}))[:2] \
            == (404, "server.no_such_seat")
        assert error_of(b.post(f"/api/tables/{tid}/join", {}))[:2] \
            == (409, "server.already_seated")
        # Only a player of the table fills a seat with a bot, a free seat, a known bot.
        assert error_of(d.post(f"/api/tables/{tid}/seats/2/bot", {}))[:2] \
            == (403, "server.not_seated")
        assert error_of(host.post(f"/api/tables/{tid}/seats/0/bot", {}))[:2] \
            == (409, "server.seat_taken")
        assert error_of(host.post(f"/api/tables/{tid}/seats/2/bot", {"bot": "hard"}))[:2] \
            == (400, "bots.unknown")
        # C stands up again: the seat is free, and leaving twice is refused.
        r = c.post(f"/api/tables/{tid}/leave")
        assert r.status_code == 200 and r.json()["table"]["seats"][3]["kind"] == "free"
        assert error_of(c.post(f"/api/tables/{tid}/leave"))[:2] == (403, "server.not_seated")
        assert table(host, tid)["status"] == "waiting"
        # D takes the first free seat (2), a bot the last one (3): every seat is taken.
        r = d.post(f"/api/tables/{tid}/join", {})
        assert r.status_code == 200 and r.json()["you"] == 2, r.text
        r = b.post(f"/api/tables/{tid}/seats/3/bot", {"bot": "easy"})
        assert r.status_code == 200, r.text

        msgs = [m for m in await barrier(ws) if m["type"] == "event"]
        assert [m["seq"] for m in msgs] == list(range(start_seq + 1, start_seq + 1 + len(msgs)))
        assert [(m["kind"], m["seat"]) for m in msgs] == [
            ("seat", 0), ("seat", 3), ("leave", 3), ("seat", 2), ("seat", 3), ("start", None)]
        assert msgs[-1]["view"] is not None and msgs[-2]["view"] is None
        assert msgs[-1]["view"]["seat"] == 1 and msgs[-1]["view"]["game"] == "baptisten"
        assert msgs[1]["data"]["bot"] is None and msgs[4]["data"]["bot"] == "easy"
        await ws.close()

    run(story())
    info = table(host, tid)
    assert info["status"] == "running"
    assert [s["kind"] for s in info["seats"]] == ["person", "person", "person", "bot", "bot"]
    assert tid in [x["id"] for x in clients().get("/api/tables?status=running").json()["tables"]]
    # Once started, seats stay as they are: leaving now is for good (a bot plays the
    # seat, which keeps its person, marked "quit").
    e = _person(clients, "E")
    assert error_of(e.post(f"/api/tables/{tid}/join", {}))[:2] == (409, "server.started")
    assert error_of(b.post(f"/api/tables/{tid}/seats/4/bot", {}))[:2] == (409, "server.started")
    seat_b = [s["name"] for s in info["seats"]].index(b.get("/api/me").json()["user"]["name"])
    r = b.post(f"/api/tables/{tid}/leave")
    assert r.status_code == 200, r.text
    after = table(host, tid)["seats"]
    assert after[seat_b]["kind"] == "person" and after[seat_b]["quit"] is True
    assert [s["kind"] for s in after] == ["person", "person", "person", "bot", "bot"]
    assert error_of(b.post(f"/api/tables/{tid}/leave"))[:2] == (403, "server.not_seated")


def test_people_who_join_at_the_same_moment_each_get_a_free_seat(
        clients: Callable[..., Client]) -> None:
    """Eight people click "join" on a nine-seat table at once: each gets a seat of their
    own, none is told the seat is taken while seats are free, and the table starts."""
    host = _person(clients, "Host")
    tid = host.create(game="baptisten", seats=["me"] + ["person"] * 8)["table"]["id"]
    people = [_person(clients, f"J{i}") for i in range(8)]
    go = threading.Barrier(len(people))

    def join(c: Client) -> tuple[int, Any]:
        go.wait()
        r = c.post(f"/api/tables/{tid}/join", {})
        return r.status_code, r.json()

    with ThreadPoolExecutor(len(people)) as pool:
        answers = list(pool.map(join, people))
    assert [status for status, _ in answers] == [200] * 8, answers
    assert sorted(body["you"] for _, body in answers) == list(range(1, 9))
    t = table(host, tid)
    assert t["status"] == "running" and all(s["kind"] == "person" for s in t["seats"])


def test_a_skat_table_starts_with_the_third_player(clients: Callable[..., Client],
                                                   run: Callable[..., Any]) -> None:
    host = _person(clients, "Host")
    made = host.create(game="skat", games=3, seats=["me", "person", "person"])
    tid = made["table"]["id"]
    b, c = _person(clients, "B"), _person(clients, "C")

    async def story() -> None:
        ws = await host.connect(tid)
        await ws.drain()
        assert b.post(f"/api/tables/{tid}/join", {}).status_code == 200
        assert c.post(f"/api/tables/{tid}/join", {}).status_code == 200
        msgs = [m for m in await barrier(ws) if m["type"] == "event"]
        assert [m["kind"] for m in msgs] == ["seat", "seat", "start", "deal"]
        assert msgs[2]["data"]["first"] in (0, 1, 2)
        view = msgs[3]["view"]
        assert view["game"] == "skat" and view["number"] == 1 and len(view["hand"]) == 10
        assert sorted(view["positions"]) == [0, 1, 2]
        await ws.close()

    run(story())
    assert error_of(clients().post(f"/api/tables/{tid}/join", {}))[:2] \
        == (401, "auth.not_logged_in")


def test_a_watcher_who_sits_down_plays_on_the_same_connection(
        clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    """A person watching a table takes a seat over HTTP: the open socket is told so (a
    new ``welcome`` naming the seat) and receives that seat's view from then on, with no
    reconnect; one who stands up again watches on the same socket."""
    host = _person(clients, "Host")
    tid = host.create(game="skat", games=3, seats=["me", "person", "person"]
                      )["table"]["id"]
    b, c = _person(clients, "B"), _person(clients, "C")

    async def story() -> None:
        bs, cs = await b.connect(tid), await c.connect(tid)
        for ws in (bs, cs):
            w = await ws.recv()
            assert w["type"] == "welcome" and w["you"] is None
            await ws.drain()
        # C sits down and stands up again: C's socket watches again, B's saw it all.
        assert c.post(f"/api/tables/{tid}/join", {}).json()["you"] == 1
        w = await cs.until(lambda m: m["type"] == "welcome")
        assert w["you"] == 1 and w["table"]["seats"][1]["connected"] is True
        assert c.post(f"/api/tables/{tid}/leave").status_code == 200
        w = await cs.until(lambda m: m["type"] == "welcome")
        assert w["you"] is None and w["table"]["seats"][1]["kind"] == "free"
        # B sits down, a bot takes the last seat: the table starts, and B's socket
        # holds B's ten cards.
        seen = [m.get("kind") for m in await barrier(bs)]
        assert seen == ["seat", "leave"], seen  # C's coming and going, as a watcher sees it
        assert b.post(f"/api/tables/{tid}/join", {}).json()["you"] == 1
        assert host.post(f"/api/tables/{tid}/seats/2/bot", {"bot": "easy"}).status_code == 200
        got = await barrier(bs)
        kinds = [(m["type"], m.get("kind")) for m in got]
        assert kinds[:2] == [("event", "seat"), ("welcome", None)], kinds
        assert got[1]["you"] == 1
        deal = next(m for m in got if m.get("kind") == "deal")
        dv = deal["view"]  # Skat views count positions; `positions` maps them to seats
        assert dv["positions"][dv["seat"]] == 1 and len(dv["hand"]) == 10
        # B acts for the seat on that socket, C's socket shows no hand at all.
        watched = [m for m in await barrier(cs) if m["type"] == "event"]
        assert watched and all(m["view"].get("hand") in (None, []) for m in watched
                               if m["view"] is not None)
        for ws in (bs, cs):
            await ws.close()

    run(story())


def test_an_open_ended_list_ends_after_the_running_game(clients: Callable[..., Client],
                                                       run: Callable[..., Any]) -> None:
    c = _person(clients)
    tid = c.create(game="skat", games=0, seats=["bot:random", "me", "bot:easy"]
                   )["table"]["id"]
    fixed = c.create(game="skat", games=3, seats=["me", "person", "person"])["table"]["id"]

    async def play() -> list[dict[str, Any]]:
        ws = await c.connect(fixed)
        await ws.send({"type": "end"})
        err = await ws.until(lambda m: m["type"] == "error")
        assert err["code"] == "server.not_open_ended"
        await ws.close()

        ws = await c.connect(tid)
        await ws.recv()  # welcome
        await ws.send({"type": "end"})
        ending = await ws.until(kind("ending"))
        assert ending["seat"] == 1
        await ws.send({"type": "end"})
        err = await ws.until(lambda m: m["type"] == "error")
        assert err["code"] == "server.not_open_ended"
        await play_random(ws, random.Random(3), kind("end"))
        await ws.send({"type": "end"})
        err = await ws.until(lambda m: m["type"] == "error")
        assert err["code"] == "server.table_over"
        await ws.close()
        return ws.messages

    msgs = run(play())
    overs = [m for m in msgs if m.get("kind") == "game_over"]
    assert len(overs) == 1 and overs[0]["data"]["number"] == 1
    assert not [m for m in msgs if m.get("kind") == "deal" and m["data"]["number"] > 1]
    info = table(c, tid)
    assert info["status"] == "over" and info["games"] == 0 and info["games_played"] == 1
    assert len(c.get(f"/api/tables/{tid}/list").json()["list"]["games"]) == 1
    assert tid not in [t["id"] for t in c.get("/api/tables").json()["tables"]]
    assert tid in [t["id"] for t in c.get("/api/tables?status=over").json()["tables"]]
