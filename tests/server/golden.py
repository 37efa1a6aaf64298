"""The golden run of the server: a fixed set of seeded tables of both games, played over
the protocol by people, bots and stand-ins, with a restart (kill -9) in the middle.

What it collects, in a form that is the same on every run of the same code:

- every message each connection received, in order (its own ``pong`` answers left out);
- every stored row of what was played: the tables (settings, summary), the event log,
  the finished games' records and their players' lines, and what the pages' JSON says
  (the table's list, the Baptistenskat sheet).

Ids, invites, tokens and game keys are random on every run: each is replaced by its
kind and the order of its first appearance (``<table1>``, ``<key2>``); times (a date,
a moment) are replaced by ``<time>``.  Everything else is kept byte for byte.

``tests/server/test_golden.py`` compares a run with ``tests/data/golden/server.json.gz``,
written by this module against the code before the game interface was restructured
(issue 41)::

    python -m tests.server.golden --write   # with PYTHONPATH pointing at that code
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import random
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from tests.server.harness import Server, TableSocket, database
from tests.server.proto_helpers import PlainClient, my_turn

GOLDEN = Path(__file__).parent.parent / "data" / "golden" / "server.json.gz"
ROOT = Path(__file__).resolve().parent.parent.parent

# keys whose values are moments or durations measured by a clock (never the game's)
TIME_KEYS = {"created_at", "finished_at", "updated_at", "at", "since", "deadline",
             "left", "date", "started_at", "time", "last_ok", "quiet", "lease_until",
             "ends_at", "until", "ms", "elapsed"}


class Names:
    """Random strings to stable names: ``<kind><n>`` by first appearance."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.counts: dict[str, int] = {}

    def add(self, value: str, kind: str) -> None:
        if value and value not in self.names:
            self.counts[kind] = self.counts.get(kind, 0) + 1
            self.names[value] = f"<{kind}{self.counts[kind]}>"

    def clean(self, obj: Any, key: str | None = None) -> Any:
        if isinstance(obj, dict):
            return {self.clean(k): self.clean(v, k) for k, v in obj.items()}
        if isinstance(obj, list):
            return [self.clean(v) for v in obj]
        if key in TIME_KEYS and obj is not None and not isinstance(obj, bool):
            return "<time>"
        if isinstance(obj, str):
            for value in sorted(self.names, key=len, reverse=True):
                if value in obj:
                    obj = obj.replace(value, self.names[value])
            return obj
        return obj


class GoldenServer(Server):
    """`stich serve` with repeatable table seeds (``tests/server/golden_server.py``);
    each start draws from its own stream."""

    starts = 0

    def start(self, timeout: float = 20.0) -> float:
        GoldenServer.starts += 1
        path = os.environ.get("PYTHONPATH", "")
        self.module = "tests.server.golden_server"
        self.env = {**self.env, "STICH_GOLDEN_SEED": str(1000 + GoldenServer.starts),
                    "PYTHONPATH": os.pathsep.join(p for p in (path, str(ROOT)) if p)}
        return super().start(timeout)


class Recorder:
    """The connections of a run, by name, and what each received."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self.got: dict[str, list[Any]] = {}

    def take(self, who: str, ws: TableSocket) -> None:
        """Keep what ``ws`` received since the last take (pongs left out)."""
        kept = self.got.setdefault(who, [])
        for m in ws.messages:
            if m["type"] != "pong":
                kept.append(m)
        ws.messages.clear()


async def settle(ws: TableSocket) -> None:
    """Read everything sent to ``ws`` before a ping's answer."""
    await ws.send({"type": "ping"})
    await ws.until(lambda m: m["type"] == "pong", 30)


async def play(ws: TableSocket, rng: random.Random, stop: Callable[[dict[str, Any]], bool],
               pause: Callable[[TableSocket], bool] | None = None) -> str:
    """Play the seat by ``rng`` whenever the latest message says it is its turn, until a
    message satisfies ``stop`` ("stop") or, at the seat's turn, ``pause(ws)`` ("pause")."""
    acted: set[int] = set()
    if my_turn(ws.view):  # the turn came with a message read before
        if pause is not None and pause(ws):
            return "pause"
        acted.add(ws.seq)
        assert ws.view is not None
        await ws.act(rng.choice(ws.view["legal"]))
    while True:
        msg = await ws.recv(60)
        assert msg["type"] != "error", (msg, ws.messages[-6:])
        if stop(msg):
            return "stop"
        if msg["type"] in ("event", "snapshot") and my_turn(ws.view) and ws.seq not in acted:
            # what the table sent with this event (a round's end) first: a person reads
            # the table before acting, and the test must not depend on how fast it reads
            before = len(ws.messages)
            await settle(ws)
            if any(stop(m) for m in ws.messages[before:]):
                return "stop"
            if not my_turn(ws.view) or ws.seq in acted:
                continue
            if pause is not None and pause(ws):
                return "pause"
            acted.add(ws.seq)
            assert ws.view is not None
            await ws.act(rng.choice(ws.view["legal"]))


def is_end(m: dict[str, Any]) -> bool:
    return m["type"] == "event" and m["kind"] == "end"


def game_overs(ws: TableSocket, rec: list[Any]) -> int:
    return sum(1 for m in (*rec, *ws.messages)
               if m["type"] == "event" and m["kind"] == "game_over")


async def person_and_bots(srv: Server, rec: Recorder, names: Names) -> str:
    """Anna (a guest) plays three Skat games with two bots, watched by Wim; the server is
    killed (kill -9) during the second game at Anna's turn and started again; both
    reconnect with the last event they saw."""
    anna, wim = PlainClient(srv, "de"), PlainClient(srv, "en")
    anna.guest("Anna")
    wim.guest("Wim")
    created = anna.create(game="skat", preset="lothar", games=3,
                          seats=["me", "person", "bot:random"])
    tid = created["table"]["id"]
    names.add(tid, "table")
    names.add(created["table"].get("invite") or "", "invite")
    a = await anna.connect(tid)
    await settle(a)
    w = await wim.connect(tid)
    await settle(w)
    await settle(a)
    r = anna.post(f"/api/tables/{tid}/seats/1/bot", {"bot": "easy"})
    assert r.status_code == 200, r.text
    await a.send({"type": "chat", "text": "Gut Blatt!"})
    rng = random.Random(41)
    got = await play(a, rng, is_end, pause=lambda ws: game_overs(ws, rec.got.get("Anna", [])) >= 1
                     and ws.view is not None and len(ws.view.get("legal", [])) > 0
                     and ws.view.get("phase") in ("play", "PLAY"))
    assert got == "pause"
    await settle(a)
    await settle(w)
    rec.take("Anna", a)
    rec.take("Wim", w)
    srv.kill()
    srv.start(90)
    a2 = await anna.connect(tid, since=a.seq)
    a2.view, a2.seq = a.view, a.seq  # what the page knew; what it missed updates it
    await settle(a2)
    w2 = await wim.connect(tid, since=w.seq)
    await settle(w2)
    await settle(a2)
    await play(a2, rng, is_end)
    await w2.until(is_end, 60)
    await settle(a2)
    await settle(w2)
    rec.take("Anna", a2)
    rec.take("Wim", w2)
    for ws in (a, w, a2, w2):
        await ws.close()
    for c in (anna, wim):
        c.close()
    return tid


async def two_people_one_leaves(srv: Server, rec: Recorder, names: Names) -> str:
    """Bea and Ben play Skat (ISkO) with a bot; Ben leaves the table for good after the
    first game and a stand-in plays his seat; Bea plays on to the end of three games."""
    bea, ben = PlainClient(srv, "en"), PlainClient(srv, "de")
    bea.guest("Bea")
    ben.guest("Ben")
    created = bea.create(game="skat", preset="isko", games=3,
                         seats=["me", "person", "person"])
    tid = created["table"]["id"]
    names.add(tid, "table")
    invite = created["table"].get("invite") or ""
    names.add(invite, "invite")
    b1 = await bea.connect(tid)
    await settle(b1)
    r = ben.post(f"/api/tables/{tid}/join", {"seat": 1, "invite": invite or None})
    assert r.status_code == 200, r.text
    b2 = await ben.connect(tid)
    await settle(b2)
    await settle(b1)
    r = bea.post(f"/api/tables/{tid}/seats/2/bot", {"bot": "easy"})
    assert r.status_code == 200, r.text

    async def ben_plays() -> None:
        await play(b2, random.Random(7),
                   lambda m: m["type"] == "event" and m["kind"] == "game_over")

    bea_task = asyncio.create_task(play(b1, random.Random(8), is_end))
    await ben_plays()
    await settle(b2)
    r = ben.post(f"/api/tables/{tid}/leave")
    assert r.status_code == 200, r.text
    await bea_task
    await b2.until(is_end, 60)
    await settle(b1)
    await settle(b2)
    rec.take("Bea", b1)
    rec.take("Ben", b2)
    for ws in (b1, b2):
        await ws.close()
    for c in (bea, ben):
        c.close()
    return tid


async def baptisten(srv: Server, rec: Recorder, names: Names) -> str:
    """Cara plays Baptistenskat (up to three cards, forehead round) with two bots, watched
    by Wim."""
    cara, wim = PlainClient(srv, "de"), PlainClient(srv, "de")
    cara.guest("Cara")
    wim.guest("Wim2")
    created = cara.create(game="baptisten", max_cards=3, variants=[2],
                          seats=["me", "person", "bot:random"])
    tid = created["table"]["id"]
    names.add(tid, "table")
    names.add(created["table"].get("invite") or "", "invite")
    c = await cara.connect(tid)
    await settle(c)
    w = await wim.connect(tid)
    await settle(w)
    await settle(c)
    r = cara.post(f"/api/tables/{tid}/seats/1/bot", {"bot": "easy"})
    assert r.status_code == 200, r.text
    await play(c, random.Random(3), is_end)
    await w.until(is_end, 60)
    await settle(c)
    await settle(w)
    rec.take("Cara", c)
    rec.take("Wim2", w)
    for ws in (c, w):
        await ws.close()
    for cl in (cara, wim):
        cl.close()
    return tid


async def bots_only(srv: Server, names: Names) -> list[str]:
    """Tables of bots alone (a registered creator, nobody seated), one of each game,
    played to the end (their records and lists are compared, not a watcher's messages:
    a watcher joins at a moment the bots choose)."""
    owner = PlainClient(srv, "en")
    owner.register("Olga")
    tids = []
    for body in ({"game": "skat", "preset": "lothar", "games": 3,
                  "seats": ["bot:easy", "bot:random", "bot:easy"]},
                 {"game": "baptisten", "max_cards": 2,
                  "seats": ["bot:easy", "bot:random", "bot:easy", "bot:random"]}):
        created = owner.create(**body)
        tid = created["table"]["id"]
        names.add(tid, "table")
        tids.append(tid)
    for tid in tids:
        for _ in range(600):
            t = owner.get(f"/api/tables/{tid}").json()["table"]
            if t["status"] == "over":
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError(f"bots-only table {tid} did not end")
    owner.close()
    return tids


def stored(url: str, tids: Sequence[str], names: Names) -> dict[str, Any]:
    """What the database holds of the tables, in table order."""
    from stich.server.store.db import sync_url

    engine = create_engine(sync_url(url))
    out: dict[str, Any] = {}
    try:
        with engine.connect() as conn:
            for tid in tids:
                row = conn.execute(text("SELECT game, rules, settings, status, summary, seq "
                                        "FROM tables WHERE id = :t"), {"t": tid}).one()
                settings = _json(row.settings)
                summary = _json(row.summary)
                games = conn.execute(text("SELECT id, key, number, game, rules, preset, record "
                                          "FROM games WHERE table_id = :t ORDER BY number"),
                                     {"t": tid}).all()
                for g in games:
                    names.add(g.key, "key")
                events = conn.execute(text("SELECT seq, kind, seat, data FROM events "
                                           "WHERE table_id = :t ORDER BY seq"),
                                      {"t": tid}).all()
                out[tid] = {
                    "table": {"game": row.game, "rules": row.rules, "settings": settings,
                              "status": row.status, "summary": summary, "seq": row.seq},
                    "events": [[e.seq, e.kind, e.seat, _json(e.data)] for e in events],
                    "games": [{
                        "key": g.key, "number": g.number, "game": g.game, "rules": g.rules,
                        "preset": g.preset, "record": _json(g.record),
                        "players": [dict(p._mapping) for p in conn.execute(text(
                            "SELECT seat, name, bot, score, bilanz, declarer, won, place, "
                            "standin, counts, user_id IS NOT NULL AS registered "
                            "FROM game_players WHERE game_id = :g ORDER BY seat"),
                            {"g": g.id}).all()],
                    } for g in games],
                }
    finally:
        engine.dispose()
    return out


def _json(v: Any) -> Any:
    return json.loads(v) if isinstance(v, str) else v


def pages(srv: Server, tids: Sequence[str]) -> dict[str, Any]:
    """What the table's pages are served as JSON: the list or sheet, the finished games."""
    c = PlainClient(srv, "en")
    out: dict[str, Any] = {}
    for tid in tids:
        t = c.get(f"/api/tables/{tid}").json()["table"]
        lst = c.get(f"/api/tables/{tid}/list")
        sheet = c.get(f"/api/tables/{tid}/sheet")
        games = c.get(f"/api/tables/{tid}/games").json()
        out[tid] = {"table": t,
                    "list": lst.json() if lst.status_code == 200 else lst.status_code,
                    "sheet": sheet.json() if sheet.status_code == 200 else sheet.status_code,
                    "games": games}
        for g in games.get("games", []):
            key = g.get("key") or g.get("id")
            r = c.get(f"/api/games/{key}")
            out[tid].setdefault("records", []).append(r.json())
            r = c.get(f"/api/games/{key}/replay")
            out[tid].setdefault("replays", []).append(
                r.json() if r.status_code == 200 else r.status_code)
    c.close()
    return out


async def _run(srv: Server, url: str) -> dict[str, Any]:
    names = Names()
    rec = Recorder(names)
    tids = [await person_and_bots(srv, rec, names),
            await two_people_one_leaves(srv, rec, names),
            await baptisten(srv, rec, names),
            *(await bots_only(srv, names))]
    db = stored(url, tids, names)
    served = pages(srv, tids)
    for who in rec.got:
        for m in rec.got[who]:
            _add_ids(m, names)
    _add_ids(served, names)
    return names.clean({"messages": rec.got, "stored": db, "pages": served})


_KEYISH = re.compile(r"^[A-Za-z0-9_-]{8,}$")


def _add_ids(obj: Any, names: Names, key: str | None = None) -> None:
    """Name the random strings a message or a page carries (game keys, invites, links)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            _add_ids(v, names, k)
    elif isinstance(obj, list):
        for v in obj:
            _add_ids(v, names)
    elif isinstance(obj, str) and key in ("key", "invite", "game_key", "table", "table_id") \
            and _KEYISH.match(obj):
        names.add(obj, "invite" if key == "invite" else "key" if "key" in key else "table")


def run_golden(kind: str, tmp: Path) -> dict[str, Any]:
    """One golden run on a fresh database of ``kind`` (``sqlite`` or ``postgresql``)."""
    with database(kind, tmp) as url:
        srv = GoldenServer(url, bot_delay=0.0)
        srv.start(90)
        try:
            return asyncio.run(asyncio.wait_for(_run(srv, url), 600))
        finally:
            srv.stop()


def dump(result: dict[str, Any]) -> str:
    return json.dumps(result, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        result = run_golden("sqlite", Path(tmp))
    text_ = dump(result)
    if "--write" in argv:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_bytes(gzip.compress(text_.encode(), mtime=0))
        print(f"wrote {GOLDEN} ({len(text_)} bytes)")
    else:
        sys.stdout.write(text_)


if __name__ == "__main__":
    main(sys.argv[1:])

