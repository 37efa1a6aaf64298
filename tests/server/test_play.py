"""Playing at a table over real sockets: every connection sees only its seat's view,
spectators the public one (or every hand where the table shows them), every change is a
numbered event, stale numbers, illegal actions and actions out of turn are refused and
change nothing, and a pause stops the bots."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from stich.cards import Card, format_cards
from tests.server.harness import Client, Server, TableSocket
from tests.server.proto_helpers import (
    barrier,
    catch_up,
    kind,
    my_turn,
    next_error,
    plain_clients,
    play_random,
    table,
    uid,
    wait_my_turn,
)

CARDS = frozenset(format_cards((1 << 32) - 1).split())

@pytest.fixture
def clients(server: Server) -> Iterator[Callable[..., Client]]:
    """The conftest's ``clients``, as :class:`PlainClient` s (no CA bundle per client)."""
    yield from plain_clients(server)


def _guest(clients: Callable[..., Client], prefix: str = "G", lang: str = "en") -> Client:
    c = clients(lang)
    c.guest(uid(prefix))
    return c


def _cards(*lists: Any) -> set[str]:
    """Every card code in (nested) lists of codes and action texts."""
    out: set[str] = set()
    for x in lists:
        if isinstance(x, str):
            out |= {w for w in x.split() if w in CARDS}
        elif isinstance(x, list | tuple):
            out |= _cards(*x)
    return out


def _private(v: dict[str, Any]) -> set[str]:
    """The cards a view shows that only its seat may know."""
    return _cards(v["hand"], v["skat"], v["discarded"], v["legal"])


def _events(ws: TableSocket) -> list[dict[str, Any]]:
    return [m for m in ws.messages if m["type"] == "event"]


def _consecutive(ws: TableSocket, first: int) -> list[dict[str, Any]]:
    """The connection's events, numbered from ``first`` without a gap, up to the end of
    the first game."""
    evs = _events(ws)
    assert [e["seq"] for e in evs] == list(range(first, first + len(evs)))
    end = next(i for i, e in enumerate(evs) if e["kind"] == "game_over")
    return evs[:end + 1]


def _mover(v: dict[str, Any]) -> int | None:
    """The table seat whose turn it is in a Skat view (None when the game is over)."""
    if v["phase"] == "OVER":
        return None
    return int(v["positions"][v["to_move"]])


def test_each_seat_sees_only_its_own_view(clients: Callable[..., Client],
                                          run: Callable[..., Any]) -> None:
    a, b, s = _guest(clients, "A"), _guest(clients, "B"), _guest(clients, "S")
    made = a.create(game="skat", games=3, seats=["me", "person", "bot:easy"], grace=3600)
    tid = made["table"]["id"]
    rng = random.Random(5)

    async def story() -> tuple[TableSocket, TableSocket, TableSocket, int, int]:
        wa = await a.connect(tid)
        wsp = await s.connect(tid)
        a_first = (await wa.recv())["seq"] + 1
        s_first = (await wsp.recv())["seq"] + 1
        assert a_first == s_first == 3  # A and the bot sat down
        await wa.drain()
        r = b.post(f"/api/tables/{tid}/join", {})
        assert r.status_code == 200 and r.json()["you"] == 1
        wb = await b.connect(tid, since=a_first - 1)  # the events since then
        welcome = await wb.recv()
        assert welcome["you"] == 1 and welcome["table"]["status"] == "running"

        out_of_turn_checked = False
        while True:
            msg = await wa.recv()
            assert msg["type"] != "error", msg
            if msg["type"] != "event" or msg["view"] is None:
                continue
            if msg["kind"] == "game_over":
                break
            mover = _mover(msg["view"])
            n = msg["seq"]
            if mover == 0:
                assert my_turn(msg["view"])
                await wa.act(rng.choice(msg["view"]["legal"]), seq=n)
            elif mover == 1:
                if not out_of_turn_checked:
                    await wa.act("pass", seq=n)
                    err = await next_error(wa)
                    assert err["code"] == "server.not_your_turn" and err["seq"] == n
                    assert err["text"] == "It is not your turn"
                    assert table(a, tid)["seq"] == n
                    out_of_turn_checked = True
                await catch_up(wb, n)
                assert wb.view is not None and my_turn(wb.view), wb.view
                await wb.act(rng.choice(wb.view["legal"]), seq=n)
        assert out_of_turn_checked
        await wb.until(kind("game_over"))
        await wsp.until(kind("game_over"))

        # The spectator cannot act at all; a ping still answers.
        for m in ({"type": "act", "seq": wsp.seq, "action": "pass"}, {"type": "pause"},
                  {"type": "resume"}, {"type": "end"}):
            await wsp.send(m)
            err = await next_error(wsp)
            assert err["code"] == "server.spectator", m
            assert err["text"] == "You are watching this table; only its players can do that"
        assert not [m for m in await barrier(wsp) if m["type"] != "event"]
        for w in (wa, wb, wsp):
            await w.close()
        return wa, wb, wsp, a_first, s_first

    wa, wb, wsp, a_first, s_first = run(story())

    # Every state change is an event, numbered without gaps, for each connection.
    a_evs = _consecutive(wa, a_first)
    b_evs = _consecutive(wb, a_first)
    s_evs = _consecutive(wsp, s_first)
    over = a_evs[-1]
    assert over["kind"] == "game_over" and over["data"]["number"] == 1
    assert b_evs[-1]["seq"] == s_evs[-1]["seq"] == over["seq"]
    assert [e["kind"] for e in a_evs[:3]] == ["seat", "start", "deal"]
    assert [e["kind"] for e in a_evs] == [e["kind"] for e in b_evs]
    assert [e["kind"] for e in a_evs] == [e["kind"] for e in s_evs]

    # When the game is over, the view shows the whole deal (every seat, spectators too).
    deal = over["view"]["deal"]
    assert deal == b_evs[-1]["view"]["deal"] == s_evs[-1]["view"]["deal"]
    positions = over["view"]["positions"]
    hands = [set(deal["hands"][positions.index(seat)]) for seat in range(3)]
    skat = set(deal["skat"])
    assert all(len(h) == 10 for h in hands) and len(skat) == 2
    assert len(set().union(*hands, skat)) == 32

    for seat, evs in ((0, a_evs), (1, b_evs)):
        others = set().union(*(h for i, h in enumerate(hands) if i != seat))
        mine = hands[seat]
        dealt = next(e for e in evs if e["kind"] == "deal")
        assert set(dealt["view"]["hand"]) == mine
        for e in evs:
            v = e["view"]
            if v is None:
                continue
            if v["phase"] == "OVER":  # the last action's view already shows the deal
                assert v["deal"] == deal, e
                continue
            assert v["deal"] is None, e
            assert v["positions"][v["seat"]] == seat
            assert "hands" not in v
            assert _private(v) <= mine | skat, e
            assert not _private(v) & others, e
            if v["skat"]:
                assert v["declarer"] == v["seat"], e
            if e["kind"] == "act" and e["data"]["text"].startswith("discard") \
                    and v["declarer"] != v["seat"]:
                assert e["data"]["text"] == "discard"  # the cards put away stay hidden

    for e in s_evs:
        v = e["view"]
        if v is None:
            continue
        assert v["seat"] is None and "hands" not in v, e
        assert v["deal"] == (deal if v["phase"] == "OVER" else None), e
        assert v["hand"] == v["skat"] == v["discarded"] == v["legal"] == [], e
        if e["kind"] == "act" and e["data"]["text"].startswith("discard"):
            assert e["data"]["text"] == "discard"


def test_spectators_see_every_hand_where_the_table_shows_them(
        clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    a, s = _guest(clients, "A"), _guest(clients, "S")
    tid = a.create(game="skat", games=0, seats=["me", "bot:random", "bot:easy"],
                   show_hands=True, grace=3600)["table"]["id"]
    assert table(s, tid)["show_hands"] is True

    def played_over(m: dict[str, Any]) -> bool:  # a game over after some tricks
        return kind("game_over")(m) and bool(m["view"]["tricks"])

    async def story() -> tuple[TableSocket, TableSocket]:
        wsp = await s.connect(tid)
        wa = await a.connect(tid)
        over = await play_random(wa, random.Random(11), played_over)
        await wsp.until(lambda m: m["type"] == "event" and m["seq"] == over["seq"])
        await wsp.act("pass")
        assert (await next_error(wsp))["code"] == "server.spectator"
        await wa.close()
        await wsp.close()
        return wa, wsp

    wa, wsp = run(story())
    over = next(m for m in wsp.messages if played_over(m))
    final = over["view"]
    assert final["deal"] is not None and len(final["hands"]) == 3
    number = final["number"]

    def views(ws: TableSocket) -> dict[int, dict[str, Any]]:
        return {m["seq"]: m["view"] for m in ws.messages if m["type"] in ("event", "snapshot")
                and m["view"] is not None and m["view"]["number"] == number
                and m["seq"] <= over["seq"]}

    a_views, s_views = views(wa), views(wsp)
    common = sorted(set(a_views) & set(s_views))
    assert len(common) > 3 + 3  # the bidding, and a trick at least
    for n in common:
        av, sv = a_views[n], s_views[n]
        if av["phase"] == "OVER":
            continue
        assert sv["seat"] is None and sv["hand"] == [] and sv["legal"] == []
        assert len(sv["hands"]) == 3
        pos = av["seat"]
        assert sorted(sv["hands"][pos]) == sorted(av["hand"]), n
        held = [len(h) for h in sv["hands"]]
        assert held == sv["cards_held"], n
        for p in range(3):
            assert set(sv["hands"][p]) <= set(final["deal"]["hands"][p]) | \
                set(final["deal"]["skat"]), n
        assert not set(sv["hands"][0]) & set(sv["hands"][1])


def test_stale_numbers_and_illegal_actions_change_nothing(
        clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    a = _guest(clients, "A")
    tid = a.create(game="skat", games=0, seats=["bot:easy", "me", "bot:random"],
                   grace=3600)["table"]["id"]
    rng = random.Random(2)

    async def story() -> None:
        wa = await a.connect(tid)
        a.lang = "de"
        wd = await a.connect(tid)  # the same player once more, in German
        view = await wait_my_turn(wa)
        n = wa.seq
        legal = view["legal"][0]
        for seen in (n - 1, n + 1, 0, 10**30):
            await wa.act(legal, seq=seen)
            err = await next_error(wa)
            assert err["code"] == "server.stale" and err["seq"] == n, err
            assert err["text"] == (f"The table has moved on (event {n}, you saw {seen}): "
                                   "look again")
        await wd.act(legal, seq=n - 1)
        err = await next_error(wd)
        assert err["code"] == "server.stale"
        assert err["text"].startswith(f"Am Tisch ist inzwischen etwas passiert (Ereignis {n}")
        await wa.act("foo", seq=n)
        err = await next_error(wa)
        assert err["code"] == "game.unreadable_action" and "Cannot read action 'foo'" \
            in err["text"]
        assert not [m for m in await barrier(wa) if m["type"] == "event"]
        assert table(a, tid)["seq"] == n == wa.seq

        # Play on until a card must follow suit, then play another one.
        tried = False
        while not tried:
            view = await wait_my_turn(wa, timeout=60)
            n = wa.seq
            off = set(view["hand"]) - set(view["legal"])
            if view["phase"] == "PLAY" and view["trick"] and off:
                card = sorted(off)[0]
                await wa.act(card, seq=n)
                en = await next_error(wa)
                await wd.act(card, seq=n)
                de = await next_error(wd)
                assert en["code"] == de["code"] == "skat.must_follow"
                assert en["text"].startswith("You must follow "), en
                assert de["text"].startswith("Du musst ") and " bedienen: du hast " in \
                    de["text"], de
                # the cards named in words, as the table shows them (Grün 8, Grün König)
                held = en["text"].split(": you hold ", 1)[1]
                must = {str(Card.parse(w)) for w in held.split(",")}
                assert must and must <= set(view["legal"])
                assert not [m for m in await barrier(wa) if m["type"] == "event"]
                assert table(a, tid)["seq"] == n
                tried = True
            await wa.act(rng.choice(view["legal"]), seq=n)
            ev = await wa.until(lambda m: m["type"] == "event" or m["type"] == "error")
            assert ev["type"] == "event" and ev["seq"] == n + 1 and ev["seat"] == 1, ev
        await wa.close()
        await wd.close()

    run(story())


def test_a_pause_stops_the_bots_until_a_player_resumes(clients: Callable[..., Client],
                                                       run: Callable[..., Any]) -> None:
    a = _guest(clients, "A")
    tid = a.create(game="skat", games=0, seats=["me", "bot:easy", "bot:random"],
                   grace=3600)["table"]["id"]
    rng = random.Random(4)

    async def story() -> int:
        ws = await a.connect(tid)
        await ws.send({"type": "resume"})
        assert (await next_error(ws))["code"] == "server.not_paused"
        tries = 0
        while True:
            tries += 1
            view = await wait_my_turn(ws)
            # The action and the pause at once: the pause lands while a bot is to move.
            await ws.act(rng.choice(view["legal"]))
            await ws.send({"type": "pause"})
            pause = await ws.until(lambda m: m["type"] == "error" or m.get("kind") == "pause")
            assert pause["type"] == "event" and pause["seat"] == 0, pause
            n = pause["seq"]
            info = table(a, tid)
            assert info["paused_by"] == 0 and info["seq"] == n
            v = pause["view"]
            if _mover(v) not in (0, None):
                break  # a bot's turn, paused: the test proper
            await ws.send({"type": "resume"})
            await ws.until(kind("resume"))
            assert tries < 10, "the pause never met a bot's turn"
        # Nothing happens while paused.
        await ws.drain(quiet=1.5)
        assert ws.seq == n
        assert [m for m in ws.messages if m["type"] == "event"][-1]["seq"] == n
        assert table(a, tid)["seq"] == n
        await ws.act("pass")
        err = await next_error(ws)
        assert err["code"] == "server.paused" and err["seq"] == n
        await ws.send({"type": "pause"})
        assert (await next_error(ws))["code"] == "server.already_paused"
        # Resumed, the bot moves at once.
        await ws.send({"type": "resume"})
        resumed = await ws.until(kind("resume"))
        assert resumed["seq"] == n + 1 and resumed["seat"] == 0
        moved = await ws.until(lambda m: m["type"] == "event")
        assert moved["kind"] == "act" and moved["data"]["by"] == "bot", moved
        assert moved["seat"] == _mover(v)
        assert table(a, tid)["paused_by"] is None
        await ws.close()
        return tries

    run(story())


def test_baptisten_forehead_round_shows_the_others_cards_never_ones_own(
        clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    a, b, s = _guest(clients, "A"), _guest(clients, "B"), _guest(clients, "S")
    made = a.create(game="baptisten", seats=["me", "person", "bot:random"], variants=[2],
                    max_cards=1, grace=3600)
    tid = made["table"]["id"]
    assert made["table"]["rules"] == "baptisten(preset=default,players=3,max_cards=1,variants=2)"
    rng = random.Random(6)

    async def story() -> tuple[TableSocket, TableSocket, TableSocket]:
        wa = await a.connect(tid)
        wsp = await s.connect(tid)
        first = (await wa.recv())["seq"]
        assert b.post(f"/api/tables/{tid}/join", {}).status_code == 200
        wb = await b.connect(tid, since=first)
        while True:
            msg = await wa.recv()
            assert msg["type"] != "error", msg
            if msg["type"] != "event" or msg["view"] is None:
                continue
            if msg["kind"] == "end":
                break
            v, n = msg["view"], msg["seq"]
            if v["phase"] == "OVER":
                continue
            if v["to_move"] == 0:
                await wa.act(rng.choice(v["legal"]), seq=n)
            elif v["to_move"] == 1:
                await catch_up(wb, n)
                assert wb.view is not None and my_turn(wb.view)
                await wb.act(rng.choice(wb.view["legal"]), seq=n)
        await wb.until(kind("end"))
        await wsp.until(kind("end"))
        for w in (wa, wb, wsp):
            await w.close()
        return wa, wb, wsp

    wa, wb, wsp = run(story())
    seen: dict[int, dict[int, list[str]]] = {0: {}, 1: {}}  # by viewer: seat -> card seen
    played: dict[int, str] = {}
    for viewer, ws in ((0, wa), (1, wb)):
        for e in _events(ws):
            v = e["view"]
            if v is None:
                continue
            for leader, cards, _ in v["round_tricks"]:
                for i, card in enumerate(cards):
                    played[(leader + i) % 3] = card
            if v["phase"] == "OVER":
                continue
            assert v["seat"] == viewer and v["hand"] == [], e  # never one's own card
            assert v["others"][viewer] == [], e
            for seat, cards in enumerate(v["others"]):
                if seat != viewer and cards:
                    assert len(cards) == 1
                    seen[viewer].setdefault(seat, cards)
            for seat, card in v["trick"]:
                played[seat] = card
    assert set(seen[0]) == {1, 2} and set(seen[1]) == {0, 2}
    assert seen[0][2] == seen[1][2]  # both see the bot's card
    assert played == {0: seen[1][0][0], 1: seen[0][1][0], 2: seen[0][2][0]}
    for e in _events(wsp):
        v = e["view"]
        if v is None or v["phase"] == "OVER":
            continue
        assert v["seat"] is None and v["hand"] == [] and v["legal"] == [], e
        assert v["others"] == [[], [], []] and v["hooked"] is None, e
    sheet = a.get(f"/api/tables/{tid}/sheet").json()["sheet"]
    assert len(sheet["rounds"]) == 1
