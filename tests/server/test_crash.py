"""Crash safety: ``kill -9`` of `stich serve` at random moments while bots play.

Several bots-only tables run at once (a registered creator, nobody seated, each watched
by a spectator socket) and one table where a test client plays a seat.  Every event a
socket was sent counts as acknowledged.  The server is killed at random moments and
started again on the same database and port; the sockets reconnect with ``since`` set to
the last event they saw; the snapshot they get then must keep every line of the list
they were told before.  Afterwards:

- every event a client received is in the database with the same content: the stored
  log, replayed, renders exactly the message the client got (view included);
- each socket saw the events in order, without gaps (a snapshot starts a connection);
- every table finishes; every finished game's record (``GET /api/games/{id}``) replays
  with :func:`stich.record.verify` to its stored result, its players' lines agree with
  the table's list, and the list (``GET /api/tables/{id}/list``) equals the one
  recomputed from the records alone.

The helpers here are shared with ``tests/server/test_scale_out.py`` and
``bench/soak/server_crash.py`` (which runs the same with 100 kills and prints figures).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import websockets
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from stich.core import RecordError
from stich.record import verify
from stich.server.sitting import Event, Sitting, TableSettings
from stich.server.store.db import sync_url
from stich.server.store.models import EventRow, GameRow, TableRow
from stich.server.wire import SPECTATOR, event_message
from stich.skat import SkatRules
from stich.skat_list import SkatList
from tests.server.conftest import DB_KINDS
from tests.server.harness import Client, Server, database

START = 90.0  # seconds a (re)start may take on a busy machine before it counts as failed

def shut_down(server: Server) -> None:
    """Stop a server (SIGTERM), then kill what is left of its process group: a bot
    process that the server started again while it was shutting down outlives it."""
    group = server.proc.pid if server.proc is not None else None
    server.stop()
    if group is not None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGKILL)


# --- reading the database directly (what survived) ----------------------------------------


def db_session(url: str) -> Any:
    """A synchronous SQLAlchemy session on the server's database (a context manager)."""
    engine = create_engine(sync_url(url))

    @contextlib.contextmanager
    def session() -> Any:
        try:
            with Session(engine) as s:
                yield s
        finally:
            engine.dispose()

    return session()


def stored_events(url: str, table_id: str) -> tuple[TableSettings, list[Event]]:
    with db_session(url) as s:
        row = s.get(TableRow, table_id)
        assert row is not None, table_id
        rows = s.execute(select(EventRow).where(EventRow.table_id == table_id)
                         .order_by(EventRow.seq)).scalars()
        return (TableSettings.from_dict(row.settings),
                [Event(r.seq, r.kind, r.seat, dict(r.data)) for r in rows])


def table_row(url: str, table_id: str) -> dict[str, Any]:
    with db_session(url) as s:
        row = s.get(TableRow, table_id)
        assert row is not None, table_id
        return {"status": row.status, "seq": row.seq, "lease_owner": row.lease_owner,
                "lease_until": row.lease_until}


def game_ids(url: str, table_id: str) -> list[str]:
    """The keys (the addresses) of a table's finished games, in their order."""
    with db_session(url) as s:
        q = select(GameRow.key).where(GameRow.table_id == table_id).order_by(GameRow.number)
        return list(s.execute(q).scalars())


def _plain(x: Any) -> Any:
    return json.loads(json.dumps(x))


def check_received(url: str, table_id: str,
                   received: Sequence[tuple[int, dict[str, Any]]]) -> tuple[int, list[str]]:
    """Compare every event message a client received (receiver, message) with the one
    the stored log renders for that receiver.  Returns (messages checked, problems)."""
    settings, events = stored_events(url, table_id)
    problems = []
    if [e.seq for e in events] != list(range(1, len(events) + 1)):
        problems.append(f"{table_id}: stored seqs not 1..{len(events)}")
    wanted: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    for receiver, msg in received:
        wanted.setdefault(msg["seq"], []).append((receiver, msg))
    sitting = Sitting(settings)
    for ev in events:
        sitting.apply(ev)
        for receiver, msg in wanted.pop(ev.seq, []):
            want = _plain(event_message(sitting, ev, receiver))
            if want != msg:
                problems.append(f"{table_id} seq {ev.seq} receiver {receiver}: "
                                f"sent {str(msg)[:300]} but stored {str(want)[:300]}")
    for seq, lost in wanted.items():
        problems.append(f"{table_id}: event {seq} was sent to {len(lost)} socket(s) "
                        f"but is not stored (the log has {len(events)})")
    return len(received), problems


def check_games(client: Client, url: str, table_id: str) -> tuple[int, list[str]]:
    """Every finished game of a Skat table: its record (over HTTP) replays to the stored
    result, its players' lines match the list, and the list is the one recomputed from
    the records.  Returns (games, problems)."""
    problems: list[str] = []
    records = []
    for gid in game_ids(url, table_id):
        r = client.get(f"/api/games/{gid}")
        if r.status_code != 200:
            problems.append(f"game {gid}: HTTP {r.status_code}")
            continue
        body = r.json()
        rec = body["record"]
        try:
            state = verify(rec)
        except RecordError as e:
            problems.append(f"game {gid} of {table_id}: record does not replay: {e}")
            continue
        records.append((body["game"], rec, state))
    numbers = [g["number"] for g, _, _ in records]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"{table_id}: game numbers {numbers}")
    lst = client.get(f"/api/tables/{table_id}/list").json()["list"]
    if not records:
        if lst["games"]:
            problems.append(f"{table_id}: the list has games but no record is stored")
        return 0, problems
    first = records[0][1]
    names = ["", "", ""]
    for pos, seat in enumerate(first["seats"]):
        names[seat] = first["players"][pos]
    table = SkatList(names, SkatRules.parse(first["rules"]), first_dealer=first["seats"][2])
    for game, rec, state in records:
        entry = table.record_game(state.outcome(), tuple(rec["seats"]))
        scores = {p["seat"]: p["score"] for p in game["players"]}
        if [scores.get(i) for i in range(3)] != list(entry.scores):
            problems.append(f"game {game['id']}: players' scores {scores} but the record "
                            f"gives {entry.scores}")
    want = _plain({**table.to_dict(), "players": names,
                   "games_planned": lst.get("games_planned")})
    # the table's own marks (seats a stand-in or the clock moved for): seats, no more
    for g in lst["games"]:
        marks = g.pop("standin", None)
        if not isinstance(marks, list) or marks != sorted(set(marks)) or \
                not all(m in (0, 1, 2) for m in marks):
            problems.append(f"{table_id}: game {g.get('number')} stand-in marks {marks!r}")
    if want != lst:
        problems.append(f"{table_id}: list {str(lst)[:400]} but the records give "
                        f"{str(want)[:400]}")
    return len(records), problems


# --- a socket that follows a table across restarts -----------------------------------------


class Follower:
    """One client at one table: a spectator, or a seat that plays random legal actions.
    Reconnects (``since`` = the last event seen) whenever the server went away, until the
    table's ``end``.  Keeps every event message received and every ordering problem."""

    def __init__(self, client: Client, table_id: str, *, up: asyncio.Event,
                 play: bool = False, rng: random.Random | None = None,
                 server: Server | None = None) -> None:
        self.client, self.table_id, self.up, self.play = client, table_id, up, play
        self.server = server
        self.rng = rng or random.Random(0)
        self.seq = 0
        self.view: dict[str, Any] | None = None  # the last one received
        self.receiver = SPECTATOR
        self.events: list[dict[str, Any]] = []
        self.lines: dict[int, dict[str, Any]] = {}  # the list's lines announced so far
        self.problems: list[str] = []
        self.connections = 0
        self.snapshots = 0
        self.done = False

    async def run(self, timeout: float = 60.0) -> None:
        while not self.done:
            await self.up.wait()
            try:
                ws = await self.client.connect(
                    self.table_id, since=self.seq if self.connections else None,
                    server=self.server)
            except (OSError, websockets.exceptions.WebSocketException):
                await asyncio.sleep(0.05)
                continue
            self.connections += 1
            try:
                await self._follow(ws, timeout)
            except websockets.exceptions.ConnectionClosed:
                pass
            finally:
                with contextlib.suppress(Exception):
                    await ws.close()

    async def _follow(self, ws: Any, timeout: float) -> None:
        while True:
            msg = await ws.recv(timeout)
            kind = msg["type"]
            if kind == "welcome":
                self.receiver = SPECTATOR if msg["you"] is None else msg["you"]
                if msg["seq"] > self.seq:
                    continue  # a snapshot or the missed events follow
                if msg["table"]["status"] == "over":
                    self.done = True
                    return
                # nothing new: the last view stands (an action sent just before the
                # server went away may be lost: send it again)
            elif kind == "snapshot":
                if msg["seq"] < self.seq:
                    self.problems.append(f"snapshot {msg['seq']} after event {self.seq}")
                self.seq, self.view = msg["seq"], msg["view"]
                self.snapshots += 1
                games = (msg.get("list") or {}).get("games", [])
                for number, line in self.lines.items():  # what was told stands
                    if number > len(games) or games[number - 1] != line:
                        self.problems.append(f"{self.table_id}: line {number} was {line} "
                                             f"but the snapshot after it has "
                                             f"{games[number - 1:number]}")
                if msg["table"]["status"] == "over":
                    self.done = True
                    return
            elif kind == "event":
                if msg["seq"] != self.seq + 1:
                    self.problems.append(f"{self.table_id}: event {msg['seq']} after "
                                         f"{self.seq}")
                self.seq, self.view = msg["seq"], msg["view"]
                self.events.append(msg)
                if msg["kind"] == "game_over":
                    self.lines[msg["data"]["number"]] = msg["data"]["line"]
                if msg["kind"] == "end":
                    self.done = True
                    return
            elif kind == "error":
                if msg["code"] != "server.stale":
                    self.problems.append(f"{self.table_id}: error {msg}")
                continue
            else:
                continue
            v = self.view
            if self.play and v and v.get("legal") and v["to_move"] == v["seat"]:
                await ws.act(self.rng.choice(v["legal"]), seq=self.seq)


# --- the crash run -------------------------------------------------------------------------


@dataclass
class CrashFigures:
    kills: int = 0
    kills_while_running: int = 0  # kills while at least one table was not over
    restarts: list[float] = field(default_factory=list)
    tables: int = 0
    events_checked: int = 0
    games_finished: int = 0
    reconnects: int = 0
    problems: list[str] = field(default_factory=list)


def _name(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


async def crash_run(server: Server, url: str, kills: int, rng: random.Random, *,
                    bot_tables: int = 2, games: int = 6,
                    pause: tuple[float, float] = (0.3, 2.0),
                    progress: Callable[[int, float], None] | None = None) -> CrashFigures:
    """Bots-only tables (at least ``bot_tables`` running at every kill) and one table
    where a client plays a seat (a new one when it ends); ``kills`` times: run for a
    random moment, kill -9, start again on the same database and port.  Then let every
    table finish and check everything."""
    figs = CrashFigures()
    up = asyncio.Event()
    up.set()
    creator, person = Client(server), Client(server)
    await asyncio.to_thread(creator.register, _name("Wirt"))
    await asyncio.to_thread(person.register, _name("Gast"))
    followers: list[Follower] = []
    tasks: list[asyncio.Task[None]] = []

    async def open_table(play: bool) -> None:
        who = person if play else creator
        seats = ["me", "bot:easy", "bot:random"] if play else \
            ["bot:easy", "bot:random", "bot:easy"]
        t = await asyncio.to_thread(who.create, game="skat", games=games, seats=seats,
                                    grace=60)
        f = Follower(who, t["table"]["id"], up=up, play=play,
                     rng=random.Random(rng.random()))
        followers.append(f)
        tasks.append(asyncio.create_task(f.run()))

    try:
        for i in range(kills):
            while sum(not f.done and not f.play for f in followers) < bot_tables:
                await open_table(False)
            if not any(not f.done and f.play for f in followers):
                await open_table(True)
            await asyncio.sleep(rng.uniform(*pause))
            running = sum(table_row(url, f.table_id)["status"] != "over" for f in followers)
            if not running:
                # On a quick machine every table may be over already (bots alone play
                # six games in a tenth of a second): a kill must still land in the middle
                # of play, so open a table where a person plays with bots (they wait
                # BOT_DELAY before each move then) and kill soon after.
                await open_table(True)
                await asyncio.sleep(rng.uniform(0.02, 0.1))
                running = sum(table_row(url, f.table_id)["status"] != "over"
                              for f in followers)
            server.kill()
            up.clear()
            figs.kills += 1
            figs.kills_while_running += running > 0
            took = await asyncio.to_thread(server.start, START)
            figs.restarts.append(took)
            up.set()
            if progress is not None:
                progress(i + 1, took)
        await asyncio.wait_for(asyncio.gather(*tasks), 60 + 5 * len(followers))
    finally:
        for t in tasks:
            t.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.gather(*tasks, return_exceptions=True)

    figs.tables = len(followers)
    for f in followers:
        figs.problems += f.problems
        figs.reconnects += f.connections - 1
        n, problems = await asyncio.to_thread(
            check_received, url, f.table_id, [(f.receiver, m) for m in f.events])
        figs.events_checked += n
        figs.problems += problems
        row = table_row(url, f.table_id)
        if row["status"] != "over":
            figs.problems.append(f"{f.table_id}: not finished ({row})")
        n, problems = await asyncio.to_thread(check_games, creator, url, f.table_id)
        figs.games_finished += n
        figs.problems += problems
        if n != games:
            figs.problems.append(f"{f.table_id}: {n} games stored, {games} planned")
    creator.close()
    person.close()
    return figs


KILLS = 4  # per database kind (bench/soak/server_crash.py does 100)
BOT_DELAY = 0.05  # seconds a bot waits before its move at a table where a person plays


def seed_from_env() -> int:
    return int(os.environ.get("STICH_CRASH_SEED") or random.randrange(2**32))


@pytest.mark.parametrize("kind", DB_KINDS)
def test_kill_9_at_random_moments_loses_no_acknowledged_event(kind: str,
                                                              tmp_path: Path) -> None:
    seed = seed_from_env()
    with database(kind, tmp_path) as url:
        server = Server(url, bot_delay=BOT_DELAY)
        server.start(START)
        t0 = time.monotonic()
        try:
            figs = asyncio.run(crash_run(server, url, KILLS, random.Random(seed)))
        finally:
            shut_down(server)
    where = f"(seed {seed}, {time.monotonic() - t0:.0f} s)"
    assert figs.problems == [], where
    assert figs.kills == figs.kills_while_running == KILLS, where
    assert figs.reconnects >= KILLS, where  # every kill cut the sockets; they came back
    assert figs.events_checked > 200, where
    assert figs.games_finished == 6 * figs.tables >= 18, where
