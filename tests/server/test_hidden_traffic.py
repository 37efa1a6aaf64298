"""Information hiding over real traffic.

A monitor (``tests/server/monitor.py``) keeps every message every connection received
and checks, game by game, that no message carries a card its receiver may not see; what
a receiver may see is computed from the finished games' records replayed step by step,
not from the server's view code.  The same replay checks the tables' event logs: every
action by the seat whose turn it was.

Real traffic (``test_real_traffic_hides_every_hidden_card``), over real WebSockets, every
person a client playing random legal actions from its own view (steered towards each
kind of Skat game until it was played: Ramsch, passed, Hand, Ouvert, Null, Grand), with
two spectators a table (an anonymous one and a person seated at another table), a third
of the tables or more showing spectators every hand:

- SQLite: 15 Skat games (five tables of three: lothar and isko, three persons or one
  person and two ``bot:easy``) and 10 Baptistenskat games (one a table: 3 to 7 players,
  every variant 1-5 and the decks elferraus, skat, romme and romme-double-joker,
  ``max_cards`` 2 or 3), in three batches of five tables;
- PostgreSQL: 3 Skat games (one table) and 3 Baptistenskat games, one batch.

At the same time every seat tries to act for every other seat of an all-person table
while that seat holds its move (refused: ``server.not_your_turn``, and with a ``seat``
field ``server.bad_message``), every table's creator acts at every other table of its
batch (refused: ``server.spectator``), a spectator acts at every seat's turn (refused),
a taken seat cannot be joined nor a running table, and the logs show no action by a
wrong seat.  Now and then a spectator, or the person at a table with bots, drops its
connection and connects again (asking for the missed events, or for a snapshot): those
connections are monitored too.  ``bench/soak/server_leaks.py`` runs the same over 2,000 games.

The monitor itself is shown to fail on hand-made leaks, and to agree with the server's
own rendering (``stich.server.wire``) over whole in-process tables.  Two server bugs it
found have tests of their own: a person who stood up kept the seat's connection (saw
the next person's hand, could act for them), and a write the database refused stayed
applied in memory (players saw events the log does not hold).
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from stich.server.sitting import Sitting, TableSettings
from stich.server.wire import SPECTATOR, event_texts
from tests.server.harness import Server
from tests.server.monitor import (
    LoggedEvent,
    Monitor,
    Names,
    Pool,
    Report,
    Wishes,
    client,
    mix,
    read_events,
    run_batches,
    table_records,
)

# --- the monitor on in-process tables ---------------------------------------------------


def _sitting_traffic(settings: TableSettings, seed: int
                     ) -> tuple[Sitting, dict[int | None, list[dict[str, Any]]]]:
    """A whole table played by random legal actions in process, every event rendered
    for every seat and for spectators by the server's wire code (as the hub sends it)."""
    rng = random.Random(seed)
    s = Sitting(settings)
    msgs: dict[int | None, list[dict[str, Any]]] = {r: [] for r in range(len(settings.seats))}
    msgs[None] = []

    def apply(events: list[Any]) -> None:
        for ev in events:
            s.apply(ev)
            texts = event_texts(s, ev, [*range(len(settings.seats)), SPECTATOR])
            for r, out in msgs.items():
                out.append(json.loads(texts[SPECTATOR if r is None else r]))

    apply(s.plan_start())
    while not s.over:
        seat = s.to_move_seat()
        assert seat is not None
        action = rng.choice(s.view(seat).legal_actions)
        apply(s.plan_act(seat, str(action), by="bot"))
    return s, msgs


def _check(s: Sitting, msgs: dict[int | None, list[dict[str, Any]]],
           extra: dict[int | None, list[dict[str, Any]]] | None = None) -> Report:
    mon = Monitor()
    mon.table("t", s.settings.game, s.settings.rules, s.settings.show_hands)
    for r, out in msgs.items():
        mon.watch("t", r, out + (extra or {}).get(r, []))
    events = [LoggedEvent(e.seq, e.kind, e.seat, e.data) for e in s.events]
    return mon.check("t", events, s.finished)


SKAT = TableSettings(game="skat", rules="skat(preset=lothar)", games=9,
                     seats=("bot:random",) * 3, seed=11)


@pytest.mark.parametrize("settings", [
    SKAT,
    TableSettings(game="skat", rules="skat(preset=isko)", games=9, seats=("bot:random",) * 3,
                  seed=5, show_hands=True),
    TableSettings(game="baptisten", rules="baptisten(preset=default,players=4,max_cards=3,"
                  "variants=2+3)", seats=("bot:random",) * 4, seed=3),
    TableSettings(game="baptisten", rules="baptisten(preset=default,deck=romme-double-joker,"
                  "players=5,max_cards=3,variants=2+4+5)", seats=("bot:random",) * 5, seed=8),
    TableSettings(game="baptisten", rules="baptisten(preset=default,deck=skat,players=4,"
                  "max_cards=7)", seats=("bot:random",) * 4, seed=2, show_hands=True),
])
def test_the_monitor_agrees_with_the_servers_rendering(settings: TableSettings) -> None:
    s, msgs = _sitting_traffic(settings, 1)
    rep = _check(s, msgs)
    assert rep.leaks == [] and rep.problems == []
    assert rep.messages == sum(len(m) for m in msgs.values())
    assert rep.card_tokens > 100 * len(s.finished)
    assert rep.actions == sum(len(r["actions"]) for r in s.finished)


def _skat_game_one(s: Sitting) -> tuple[dict[str, Any], list[int]]:
    """The first game's record and the seqs of its events (deal to game over)."""
    rec = s.finished[0]
    deal = next(e.seq for e in s.events if e.kind == "deal")
    over = next(e.seq for e in s.events if e.kind == "game_over")
    return rec, list(range(deal, over + 1))


def _msg(seq: int, view: dict[str, Any]) -> dict[str, Any]:
    return {"type": "event", "seq": seq, "kind": "act", "seat": 0,
            "data": {"text": "18", "by": "bot"}, "view": view}


def test_the_monitor_reports_another_seats_card() -> None:
    s, msgs = _sitting_traffic(SKAT, 1)
    rec, seqs = _skat_game_one(s)
    seat0_pos = rec["seats"].index(0)
    other = rec["deal"]["hands"][(seat0_pos + 1) % 3].split()
    played = {a for a in rec["actions"] if len(a) == 2 and a[0] in "CSHD"}
    card = next(c for c in other if c in played)  # held until played: hidden before
    first = seqs[1]  # the first action: nothing played yet
    leak = {0: [{**msgs[0][first - 1], "view": {"hand": [card]}}]}
    rep = _check(s, msgs, leak)
    assert [(x.receiver, x.seq, x.card) for x in rep.leaks] == [(0, first, card)]
    assert "view.hand" in str(rep.leaks[0])


def test_the_monitor_reports_a_hand_card_to_a_spectator_and_the_skat() -> None:
    s, msgs = _sitting_traffic(SKAT, 1)
    rec, seqs = _skat_game_one(s)
    hand = rec["deal"]["hands"][0].split()
    skat = rec["deal"]["skat"].split()
    mid = seqs[len(seqs) // 2]
    played_by_then = set()
    for e in s.events:
        if e.seq <= mid and e.kind == "act" and e.seq >= seqs[0]:
            played_by_then.add(str(e.data["text"]))
    card = next(c for c in hand if c not in played_by_then)
    extra = {None: [_msg(mid, {"trick": [[0, card]]})],
             1: [{"type": "error", "code": "x", "text": f"not {skat[0]}", "seq": seqs[0]}]}
    rep = _check(s, msgs, extra)
    found = {(x.receiver, x.card) for x in rep.leaks}
    assert (None, card) in found and (1, skat[0]) in found and len(found) == 2
    # once the game is over, everything may be shown
    over = {None: [_msg(seqs[-1], {"deal": {"hands": rec["deal"]["hands"]}})]}
    assert _check(s, msgs, over).leaks == []


def test_the_monitor_reports_an_own_forehead_card_and_a_copy_too_many() -> None:
    for seed in range(1, 50):  # a deal where seat 0's card is no other card's twin
        settings = TableSettings(
            game="baptisten", seed=seed, seats=("bot:random",) * 3,
            rules="baptisten(preset=default,deck=romme-double-joker,players=3,max_cards=2,"
                  "variants=2)")
        s, msgs = _sitting_traffic(settings, 2)
        rec = s.finished[0]
        first = rec["deals"][0]
        own = first["hands"][0]  # seat 0's forehead card in round 1
        if own not in (first["trump"], first["hands"][1], first["hands"][2]):
            break
    theirs = first["hands"][1]
    start = next(e.seq for e in s.events if e.kind == "start")
    extra = {0: [_msg(start, {"others": [[own], [theirs], []]})],
             1: [_msg(start, {"others": [[own], [], []]})]}
    rep = _check(s, msgs, extra)
    assert [(x.receiver, x.card) for x in rep.leaks] == [(0, own)]
    # round 2 (two cards each): a code shown twice where the seat knows one copy
    r2 = next(e.seq for e in s.events if e.kind == "round_over")
    hand = rec["deals"][1]["hands"][0].split()
    trump = rec["deals"][1]["trump"]
    single = next(c for c in hand if hand.count(c) == 1 and c != trump)
    extra = {0: [_msg(r2, {"hand": [single, single]})]}
    rep = _check(s, msgs, extra)
    assert [(x.receiver, x.card, x.shown, x.allowed) for x in rep.leaks] == [(0, single, 2, 1)]


def test_the_monitor_reports_an_action_by_a_wrong_seat() -> None:
    s, msgs = _sitting_traffic(SKAT, 1)
    mon = Monitor()
    mon.table("t", "skat", SKAT.rules, False)
    for r, out in msgs.items():
        mon.watch("t", r, out)
    events = [LoggedEvent(e.seq, e.kind, e.seat, e.data) for e in s.events]
    i = next(i for i, e in enumerate(events) if e.kind == "act")
    wrong = events[i].seat
    assert wrong is not None
    events[i] = LoggedEvent(events[i].seq, "act", (wrong + 1) % 3, events[i].data)
    rep = mon.check("t", events, s.finished)
    assert any(f"an action by seat {(wrong + 1) % 3} when it was seat {wrong}'s turn" in p
               for p in rep.problems)
    assert rep.leaks == []


# --- real traffic -----------------------------------------------------------------------

def _play(server: Server, skat: int, baptisten: int, batch: int) -> tuple[Report, list[Any]]:
    async def go() -> tuple[Report, list[Any]]:
        pool = Pool(server, batch, Names())
        await pool.register()
        try:
            return await run_batches(server, mix(skat, baptisten, 3), Monitor(), pool,
                                     seed=8, wishes=Wishes())
        finally:
            pool.close()
    return asyncio.run(asyncio.wait_for(go(), 600))


def test_real_traffic_hides_every_hidden_card(server: Server) -> None:
    sqlite = server.db.startswith("sqlite")
    skat, baptisten, batch = (15, 10, 5) if sqlite else (3, 3, 4)
    rep, outs = _play(server, skat, baptisten, batch)
    assert rep.problems == []
    assert rep.leaks == [], "\n".join(map(str, rep.leaks[:20]))
    assert rep.games["skat lothar"] + rep.games["skat isko"] == skat
    assert rep.games["baptisten"] == baptisten
    assert rep.messages > 100 * (skat + baptisten) and rep.card_tokens > 5 * rep.messages
    if sqlite:  # the persons steer towards each kind of game until it was played
        for kind in ("skat game", "skat ramsch", "skat passed", "skat ouvert", "skat null",
                     "skat hand", "skat grand", "baptisten forehead rounds"):
            assert rep.seen[kind] > 0, kind
        for v in range(1, 6):
            assert rep.games[f"baptisten variant {v}"] > 0
        for n in range(3, 8):
            assert rep.games[f"baptisten {n} players"] > 0
        for deck in ("elferraus", "skat", "romme", "romme-double-joker"):
            assert rep.games[f"baptisten deck {deck}"] > 0
    # every seat of an all-person table was refused acting for every other seat
    for out in outs:
        n = len(out.spec.seats)
        if out.spec.persons == list(range(n)):
            assert out.pairs == {(a, b) for a in range(n) for b in range(n) if a != b}
        else:
            assert out.refused["server.not_your_turn"] + out.refused["server.stale"] > 0
        assert out.refused["server.spectator"] > 0
    assert sum(o.reconnects for o in outs) > 0
    for out in outs:  # at each other table of the batch: each seat, pause, resume, end
        assert out.refused["server.spectator"] >= 6 * (batch - 1)
    assert sum(o.refused["server.seat_taken"] for o in outs) == \
        sum(1 for o in outs if len(o.spec.persons) > 1)


def test_a_person_who_left_a_seat_neither_sees_nor_acts_for_it(
        server: Server, run: Callable[..., Any]) -> None:
    """Ben sits, connects and stands up again; Cid takes his seat.  Ben's connection is
    a spectator's from then on: it shows no hand of Cid's and cannot act for him."""
    a, b, c, d = (client(server) for _ in range(4))
    tag = uuid.uuid4().hex[:6]
    a.register(f"Ann{tag}")  # her page lists the games
    for cl, n in ((b, "Ben"), (c, "Cid"), (d, "Dora")):
        cl.guest(f"{n}{tag}")
    tid = a.create(game="skat", games=3, seats=["me", "person", "person"])["table"]["id"]
    assert b.post(f"/api/tables/{tid}/join", {"seat": 1}).json()["you"] == 1
    mon = Monitor()
    mon.table(tid, "skat", "skat(preset=lothar)", False)

    async def go() -> None:
        wa, wb = await a.connect(tid), await b.connect(tid)
        assert (await wb.recv())["you"] == 1
        assert b.post(f"/api/tables/{tid}/leave").status_code == 200
        assert c.post(f"/api/tables/{tid}/join", {"seat": 1}).json()["you"] == 1
        wc = await c.connect(tid)
        assert d.post(f"/api/tables/{tid}/join", {"seat": 2}).json()["you"] == 2
        wd = await d.connect(tid)
        mon.watch(tid, 0, wa.messages)
        mon.watch(tid, None, wb.messages)
        mon.watch(tid, 1, wc.messages)
        mon.watch(tid, 2, wd.messages)
        socks = {0: wa, 1: wc, 2: wd}
        rng = random.Random(3)
        tried = 0
        done = 0
        while done < 3:
            for seat, ws in socks.items():
                try:
                    msg = await ws.recv(0.05)
                except TimeoutError:
                    continue
                if msg["type"] == "event" and msg["kind"] == "end":
                    done += 1
                    continue
                v = msg.get("view")
                if msg["type"] not in ("event", "snapshot") or not v:
                    continue
                if v["legal"] and v["to_move"] == v["seat"]:
                    if seat == 1 and tried < 5:  # Ben acts for Cid's seat first
                        tried += 1
                        await wb.act(v["legal"][0], seq=msg["seq"])
                        await wb.send({"type": "ping"})
                        codes = []
                        while (m := await wb.recv())["type"] != "pong":
                            codes += [m["code"]] if m["type"] == "error" else []
                        assert codes == ["server.spectator"]
                    await ws.act(rng.choice(v["legal"]), seq=msg["seq"])
        await wb.drain(0.3)
        for ws in (wa, wb, wc, wd):
            await ws.close()
        assert tried == 5

    run(go())
    events = read_events(server.db, tid)
    records = table_records(a, f"Ann{tag}", tid)
    assert len(records) == 3
    rep = mon.check(tid, events, records)
    assert rep.problems == [] and rep.leaks == [], rep.leaks[:5]
    assert all(e.seat in (0, 1, 2) for e in events if e.kind == "act")



def test_a_write_the_database_refuses_changes_nothing(tmp_path: Path,
                                                      run: Callable[..., Any]) -> None:
    """While another process holds SQLite's write lock past the server's busy timeout,
    an action is refused (server.not_saved) and the table stays as stored: no event is
    shown that the log does not hold, and the same action succeeds afterwards."""
    path = tmp_path / "locked.db"
    server = Server(f"sqlite:///{path}", bot_delay=0.0)
    server.start()
    try:
        a = client(server)
        name = f"Ann{uuid.uuid4().hex[:6]}"
        a.register(name)
        tid = a.create(game="skat", games=3, seats=["me", "bot:easy", "bot:easy"])["table"]["id"]
        mon = Monitor()
        mon.table(tid, "skat", "skat(preset=lothar)", False)
        refused: list[str] = []

        async def go() -> None:
            ws = await a.connect(tid)
            mon.watch(tid, 0, ws.messages)
            rng = random.Random(5)
            locked = False
            while True:
                msg = await ws.recv(30)
                if msg["type"] == "event" and msg["kind"] == "end":
                    break
                v = msg.get("view")
                if msg["type"] not in ("event", "snapshot") or not v \
                        or not (v["legal"] and v["to_move"] == v["seat"]):
                    continue
                action = rng.choice(v["legal"])
                if not locked:  # once: the same action with the database locked
                    locked = True
                    db = sqlite3.connect(path, timeout=0)
                    db.execute("BEGIN EXCLUSIVE")
                    try:
                        await ws.act(action, seq=msg["seq"])
                        await ws.send({"type": "ping"})
                        while (m := await ws.recv(30))["type"] != "pong":
                            if m["type"] == "error":
                                refused.append(m["code"])
                    finally:
                        db.rollback()
                        db.close()
                await ws.act(action, seq=msg["seq"])
            await ws.close()

        run(go())
        assert refused == ["server.not_saved"]
        events = read_events(server.db, tid)
        rep = mon.check(tid, events, table_records(a, name, tid))
        assert rep.problems == [] and rep.leaks == []
        assert rep.actions > 30 and len(table_records(a, name, tid)) == 3
    finally:
        server.stop()
