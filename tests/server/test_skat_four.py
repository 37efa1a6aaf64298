"""Skat tables of four on the server (issue 42): the dealer sits each game out.

- In process: the monitor (``tests/server/monitor.py``) checks every message of whole
  four-seat tables under house rules, rendered by the server's wire code, with
  ``dealer_sees`` ``nothing`` (the dealer who sits out gets what a watcher gets: no hidden
  card) and ``all`` (every hand); a monitor told ``nothing`` of a table that shows the
  dealer every hand reports the leaks (the check has teeth).
- Over the protocol: creating a table of four, and the refusals of a fifth seat, a bad
  ``dealer_sees``, ``dealer_sees`` at a table that has no dealer who sits out, a list of
  games that is no multiple of four, the dealer who sits out acting, a seat acting for
  another; real traffic of four-seat tables (every person a client playing random legal
  actions) through the leak monitor; and a table of four with house rules, a bot in one
  seat, played to its end with a kill -9 and a restart of the server in the middle, whose
  list equals the sums of the independent oracle (``tests/skat/house_oracle.py``) over
  the stored records.
"""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import websockets

from stich.server.sitting import Sitting, TableSettings
from stich.server.wire import SPECTATOR, event_texts, view_json
from tests.server.conftest import DB_KINDS
from tests.server.harness import Client, Server, TableSocket, database
from tests.server.monitor import (
    LoggedEvent,
    Monitor,
    Names,
    Pool,
    TableSpec,
    run_batches,
)
from tests.skat.house_oracle import evaluate

HOUSE = "skat(preset=lothar,kontra_re=yes,schieberamsch=yes,jungfrau=yes)"


def uid(prefix: str) -> str:
    return prefix + uuid.uuid4().hex[:6]


# --- in process -------------------------------------------------------------------------


def _traffic(settings: TableSettings, seed: int
             ) -> tuple[Sitting, dict[int | None, list[dict[str, Any]]]]:
    """A whole table of random legal actions, every event rendered for every seat and a
    spectator (as the hub sends it); each seat's rendering checked against
    :func:`view_json` (a snapshot shows the same)."""
    rng = random.Random(seed)
    s = Sitting(settings)
    n = len(settings.seats)
    msgs: dict[int | None, list[dict[str, Any]]] = {r: [] for r in range(n)}
    msgs[None] = []

    def apply(events: list[Any]) -> None:
        for ev in events:
            s.apply(ev)
            texts = event_texts(s, ev, [*range(n), SPECTATOR])
            for r, out in msgs.items():
                out.append(json.loads(texts[SPECTATOR if r is None else r]))
            for r in range(n):
                assert msgs[r][-1]["view"] == view_json(s, r)

    apply(s.plan_start())
    while not s.over:
        seat = s.to_move_seat()
        assert seat is not None and not s.sits_out(seat)
        apply(s.plan_act(seat, str(rng.choice(s.view(seat).legal_actions)), by="bot"))
    return s, msgs


def _check(s: Sitting, msgs: dict[int | None, list[dict[str, Any]]], dealer_sees: str) -> Any:
    mon = Monitor()
    mon.table("t", "skat", s.settings.rules, s.settings.show_hands, (), dealer_sees)
    for r, out in msgs.items():
        mon.watch("t", r, out)
    events = [LoggedEvent(e.seq, e.kind, e.seat, e.data) for e in s.events]
    return mon.check("t", events, s.finished)


def _four(dealer_sees: str, seed: int = 3) -> TableSettings:
    return TableSettings(game="skat", rules=HOUSE, games=8, seats=("bot:random",) * 4,
                         seed=seed, dealer_sees=dealer_sees)


@pytest.mark.parametrize("dealer_sees", ["nothing", "all"])
def test_the_monitor_finds_no_leak_at_a_table_of_four(dealer_sees: str) -> None:
    s, msgs = _traffic(_four(dealer_sees), 1)
    rep = _check(s, msgs, dealer_sees)
    assert rep.leaks == [] and rep.problems == []
    assert rep.messages == sum(len(m) for m in msgs.values())
    assert rep.actions == sum(len(r["actions"]) for r in s.finished) and len(s.finished) == 8
    # every seat sat out twice, and was never asked to act then
    names = s.names()
    assert sorted(names.index(r["sat_out"]) for r in s.finished) == [0, 0, 1, 1, 2, 2, 3, 3]
    for r in range(4):
        for m in msgs[r]:
            v = m["view"]
            if v is not None and r not in v["positions"]:
                assert v["seat"] is None and v["legal"] == [] and v["hand"] == []
                if dealer_sees == "nothing":  # exactly what a watcher gets
                    assert "hands" not in v
                else:
                    assert len(v["hands"]) == 3


def test_the_sitting_out_dealer_sees_what_a_watcher_sees() -> None:
    _, msgs = _traffic(_four("nothing", seed=5), 2)
    same = 0
    for r in range(4):
        for mine, theirs in zip(msgs[r], msgs[None], strict=True):
            v = mine["view"]
            if v is not None and r not in v["positions"]:
                assert mine == theirs
                same += 1
    assert same > 100


def test_the_monitor_reports_the_hands_shown_to_a_dealer_who_may_see_nothing() -> None:
    s, msgs = _traffic(_four("all", seed=7), 3)
    rep = _check(s, msgs, "nothing")
    assert rep.leaks and all(x.receiver is not None for x in rep.leaks)
    assert {x.receiver for x in rep.leaks} <= {s.names().index(r["sat_out"]) for r in s.finished}
    assert all(".view.hands" in str(x) for x in rep.leaks)


# --- over the protocol --------------------------------------------------------------------


def _error(r: Any) -> tuple[int, str]:
    return r.status_code, r.json().get("error", {}).get("code")


def test_a_table_of_four_is_created_and_strangers_are_refused(
        clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    c = clients()
    c.guest(uid("F"))
    base = {"game": "skat", "next_after": 0, "clock": 0}
    for body, want in [
        ({"seats": ["me", "bot:easy", "bot:easy", "bot:easy", "bot:easy"]}, "server.skat_seats"),
        ({"seats": ["me", "bot:easy"]}, "server.skat_seats"),
        ({"seats": ["me", "bot:easy", "bot:easy", "bot:easy"], "games": 6},
         "server.games_count_seats"),
        ({"seats": ["me", "bot:easy", "bot:easy", "bot:easy"], "dealer_sees": "peek"},
         "server.dealer_sees"),
        ({"seats": ["me", "bot:easy", "bot:easy", "bot:easy"], "dealer_sees": "ALL"},
         "server.dealer_sees"),
        ({"seats": ["me", "bot:easy", "bot:easy"], "dealer_sees": "all"},
         "server.dealer_sees_four"),
        ({"game": "baptisten", "seats": ["me", "bot:easy", "bot:easy", "bot:easy"],
          "dealer_sees": "nothing"}, "server.dealer_sees_four"),
    ]:
        r = c.post("/api/tables", {**base, **body})
        assert _error(r) == (400, want), (body, r.text)
        assert r.json()["error"]["text"]
    r = c.post("/api/tables", {**base, "seats": ["me", "person", "person", "bot:easy"],
                               "games": 4, "dealer_sees": 1})
    assert r.status_code in (400, 422) and "error" in r.json()
    # three seats: the table's info is as it always was (no dealer_sees)
    three = c.create(game="skat", seats=["me", "bot:easy", "bot:easy"], games=3)["table"]
    assert "dealer_sees" not in three
    c.post(f"/api/tables/{three['id']}/close")
    made = c.create(game="skat", seats=["me", "person", "person", "bot:easy"], games=4,
                    rules=HOUSE)["table"]
    assert made["dealer_sees"] == "nothing" and len(made["seats"]) == 4
    tid = made["id"]
    others = [clients() for _ in range(2)]
    for i, o in enumerate(others):
        o.guest(uid("G"))
        if i == 0:  # a fifth seat does not exist
            r = o.post(f"/api/tables/{tid}/join", {"seat": 4})
            assert _error(r)[1] == "server.no_such_seat", r.text
        r = o.post(f"/api/tables/{tid}/join", {"seat": i + 1})
        assert r.status_code == 200, r.text

    async def go() -> None:
        socks = {0: await c.connect(tid), 1: await others[0].connect(tid),
                 2: await others[1].connect(tid)}
        for ws in socks.values():
            await ws.until(lambda m: m["type"] == "snapshot")
        # wait until a person's seat sits out or it is a person's turn
        view: dict[str, Any] | None = None
        for _ in range(200):
            await socks[0].drain(0.3)
            view = socks[0].view
            if view is not None and view["phase"] != "OVER":
                break
        assert view is not None
        positions = view["positions"]
        dealer = next(i for i in range(4) if i not in positions)
        mover = positions[view["to_move"]]
        seq = socks[0].seq
        if dealer in socks:  # the dealer who sits out is never asked and may not act
            ws = socks[dealer]
            await ws.drain(0.3)
            assert ws.view is not None and ws.view["seat"] is None and ws.view["legal"] == []
            assert ws.view["hand"] == [] and "hands" not in ws.view
            await ws.act("18", seq=ws.seq)
            err = await ws.until(lambda m: m["type"] == "error")
            assert err["code"] in ("server.not_your_turn", "server.stale"), err
        for s, ws in socks.items():  # a seat acting for another seat
            if s != mover:
                await ws.send({"type": "act", "seq": seq, "action": "pass", "seat": mover})
                err = await ws.until(lambda m: m["type"] == "error")
                assert err["code"] == "server.bad_message", err
                break
        for ws in socks.values():
            await ws.close()

    run(go())
    c.post(f"/api/tables/{tid}/close")


def test_real_traffic_at_tables_of_four_hides_every_hidden_card(
        server: Server, run: Callable[..., Any]) -> None:
    """Real clients at two tables of four under house rules (all persons, and three
    persons with a bot), ``dealer_sees`` ``nothing`` and ``all``, each with spectators;
    the monitor finds no card a receiver may not see."""
    names = Names()
    pool = Pool(server, 2, names)
    monitor = Monitor()
    specs = [
        (TableSpec("skat", ["person"] * 4,
                   {"rules": HOUSE, "games": 4, "dealer_sees": "nothing"},
                   ("skat four nothing",)), False),
        (TableSpec("skat", ["person", "person", "bot:easy", "person"],
                   {"rules": HOUSE, "games": 4, "dealer_sees": "all"},
                   ("skat four all",)), False),
    ]

    async def go() -> Any:
        await pool.register()
        return await run_batches(server, specs, monitor, pool, seed=42)

    try:
        rep, outs = run(go())
    finally:
        pool.close()
    assert rep.problems == [], rep.problems[:5]
    assert rep.leaks == [], [str(x) for x in rep.leaks[:5]]
    assert rep.tables == 2 and rep.games["skat four nothing"] == 4 \
        and rep.games["skat four all"] == 4
    assert rep.card_tokens > 1000
    refused = sum((o.refused for o in outs), start=type(outs[0].refused)())
    assert refused["server.not_your_turn"] > 0 and refused["server.spectator"] > 0


# --- a table of four with house rules, played over the protocol with a restart -----------


def _choose(legal: list[str], rng: random.Random) -> str:
    """A random legal action, leaning towards the house rules: Kontra and Re when they
    may be said, passing in the auction (Ramsch, so Schieberamsch), pushing the Skat."""
    for word, p in (("kontra", 0.6), ("re", 0.6), ("schieben", 0.5)):
        if word in legal and rng.random() < p:
            return word
    if "pass" in legal and rng.random() < 0.6:
        return "pass"
    return rng.choice(legal)


class _Player:
    def __init__(self, seat: int, client: Client, rng: random.Random) -> None:
        self.seat, self.client, self.rng = seat, client, rng
        self.ws: TableSocket | None = None
        self.sat_out_views = 0
        self.problems: list[str] = []

    async def play(self, tid: str, since: int | None, stop: Callable[[dict[str, Any]], bool]
                   ) -> bool:
        """Play until the table ends (True) or ``stop`` says so / the server goes (False)."""
        self.ws = ws = await self.client.connect(tid, since=since)
        try:
            while True:
                msg = await ws.recv(60)
                if msg["type"] == "welcome" and msg["you"] != self.seat:
                    self.problems.append(f"welcomed as {msg['you']}")
                if msg["type"] == "error" and msg["code"] not in ("server.stale",):
                    self.problems.append(f"seat {self.seat}: {msg}")
                if (msg["type"] == "event" and msg["kind"] == "end") or (
                        msg["type"] == "snapshot" and msg["table"]["status"] == "over"):
                    return True
                if stop(msg):
                    return False
                v = msg.get("view") if msg["type"] in ("event", "snapshot") else None
                if not v or v.get("phase") == "OVER":
                    continue
                if self.seat not in v["positions"]:
                    self.sat_out_views += 1
                    if v["legal"] or v["hand"] or v["seat"] is not None:
                        self.problems.append(f"seat {self.seat} sits out and got {v}")
                    continue
                if v["legal"] and v["to_move"] == v["seat"]:
                    await ws.act(_choose(v["legal"], self.rng), seq=int(msg["seq"]))
        except (websockets.ConnectionClosed, TimeoutError) as e:
            if isinstance(e, TimeoutError):
                self.problems.append(f"seat {self.seat}: no message for 60 s")
            return False


def _oracle_totals(records: list[dict[str, Any]], seats: int) -> tuple[list[int], list[Any]]:
    totals = [0] * seats
    results = []
    for rec in records:
        res = evaluate(rec["rules"], rec["deal"]["hands"], rec["deal"]["skat"], rec["actions"])
        results.append(res)
        bock = int(rec.get("bock", 1))
        for pos, seat in enumerate(rec["seats"]):
            totals[seat] += res.scores[pos] * bock
    return totals, results


@pytest.mark.parametrize("db_kind", DB_KINDS)
def test_a_table_of_four_with_house_rules_survives_a_restart_and_agrees_with_the_oracle(
        db_kind: str, tmp_path: Path, run: Callable[..., Any]) -> None:
    with database(db_kind, tmp_path) as url:
        srv = Server(url, bot_delay=0.0)
        srv.start()
        people = [Client(srv) for _ in range(3)]
        try:
            people[0].register(uid("Anna"))
            for p in people[1:]:
                p.guest(uid("Gast"))
            made = people[0].create(game="skat", rules=HOUSE, games=8,
                                    seats=["me", "person", "bot:easy", "person"])["table"]
            tid = made["id"]
            for seat, p in ((1, people[1]), (3, people[2])):
                r = p.post(f"/api/tables/{tid}/join", {"seat": seat})
                assert r.status_code == 200, r.text
            rng = random.Random(7)
            players = [_Player(seat, p, random.Random(rng.random()))
                       for seat, p in zip((0, 1, 3), people, strict=True)]

            def in_game_four(msg: dict[str, Any]) -> bool:  # the kill: game 4 is running
                v = msg.get("view") if msg["type"] == "event" else None
                return bool(msg["type"] == "event" and msg["kind"] == "act" and v
                            and v.get("number") == 4 and len(v.get("tricks", [])) >= 2)

            async def first() -> None:
                tasks = [asyncio.create_task(p.play(tid, None, in_game_four)) for p in players]
                done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                assert not any(t.result() for t in done), "the table ended before the kill"
                srv.kill()
                await asyncio.gather(*tasks)

            run(first())
            srv.start()

            async def second() -> list[bool]:
                # (each asks for a snapshot: the view it must act on)
                return await asyncio.gather(*(p.play(tid, None, lambda m: False)
                                              for p in players))

            ended = run(second())
            assert ended == [True, True, True], [p.problems[:3] for p in players]
            for p in players:
                assert p.problems == [], p.problems[:3]
                assert p.sat_out_views > 0  # every person sat out at least once
            lst = people[0].get(f"/api/tables/{tid}/list").json()["list"]
            games = people[0].get(f"/api/tables/{tid}/games").json()["games"]
            assert [g["number"] for g in games] == list(range(1, 9))
            records = [people[0].get(f"/api/games/{g['id']}").json()["record"] for g in games]
        finally:
            for p in people:
                p.close()
            srv.stop()
    assert len(lst["games"]) == 8 and len(lst["players"]) == 4
    totals, results = _oracle_totals(records, 4)
    assert lst["punktestand"] == totals
    # the house rules were played (the persons lean to Kontra, passing and pushing)
    assert any(r.kontra or r.pushes for r in results)
    # game by game: the oracle's scores at the right seats, the dealer who sat out 0
    for line, rec, res in zip(lst["games"], records, results, strict=True):
        want = [0] * 4
        for pos, seat in enumerate(rec["seats"]):
            want[seat] = res.scores[pos]
        assert line["scores"] == want
        assert rec["sat_out"] == lst["players"][line["dealer"]]
        assert line["dealer"] not in rec["seats"]
        assert len(rec["players"]) == 3
    assert sorted(lst["players"].index(rec["sat_out"]) for rec in records) \
        == [0, 0, 1, 1, 2, 2, 3, 3]
    s = sum(totals)
    assert lst["bilanz"] == [4 * t - s for t in totals]
