"""The server under load: many tables at once, each with its players on WebSockets.

A real ``stich serve`` (``--bot-delay 0``, a fresh SQLite or PostgreSQL database) and, in
separate processes, a load generator: ``--tables`` tables (half Skat with three players,
half Baptistenskat with four; every player a guest account with its own session cookie
and its own WebSocket on loopback).  At each table the client whose turn it is waits a
random time (exponential, mean ``1 / --rate`` seconds) after the last event and then
sends a random legal action of its view, so each table makes about ``--rate`` actions a
second (a little less: the wait starts only when the previous event has arrived).

Measured, after ``--warmup`` seconds, over ``--seconds``:

- latency: from sending an action until *every* client of the table has received the
  event with that action (``p50``/``p99`` of the slowest client per action; also over
  every single delivery), timed in the load generator with ``time.perf_counter`` (all
  clients of a table live in the same load-generator process);
- actions/s completed (every client got it), refusals (should be 0);
- the server process's memory: ``VmRSS`` (and the peak ``VmHWM``) from
  ``/proc/PID/status``; its CPU use and the load generator's (``/proc/PID/stat``);
- the server's CPU per action, also divided by the time of a fixed reference workload
  (:func:`reference_ms`, measured before and after) so that machines compare.

At the end of a game (a round) each client says "Weiter" (``ready``) after a random
wait like an action's, as a player clicks it when the table waits for everybody.

``--find-max`` raises the rate per table step by step (``--step`` times each time,
``--step-seconds`` per step) until p99 passes 50 ms, and prints the most actions/s one
server process sustained with p99 <= 50 ms.

The machine's cores are shared by the server and the load generator: on a 2-core machine
the generator takes a good part of the second core (its CPU use is printed), so the
figures are a lower bound of what the server alone could do.  When other jobs run on the
same machine (the load average is printed), ``--nice -10`` (as root) gives the server
and the generator the cores first; the database server keeps its own priority.

``--tournament`` (issue 43) compares tournament tables with ordinary ones on one server
process: ``--tables`` tables of each kind, all Skat at three with the same rules
(``--skat-rules``, default ``skat(preset=isko)``), Preisskat scoring and series of
``--series`` games, no turn clock, a wait for "Weiter" after each game.  The ordinary
tables come from the lobby; when a series ends its three players set up the next (one
goes to the lobby and creates it, the others follow its invite's link and join).  The
tournament tables are the rounds of tournaments of ``--tournament-size`` tables (a
registered organiser, guests as players): when a series ends its players go to the
tournament's page, which looks every 10 s and reloads on a change as ``tournament.js``
does, until it shows their next table, which they follow; the organiser keeps the page
open and starts the next round as soon as it shows the last one over (a new tournament
after the eighth).  Every page is loaded as a browser loads it: its HTML and what its
scripts ask for at once (the lobby: the rules' form and the open tables; a table's page:
the table; every page: the tables one sits at); ``--api-only`` leaves out all pages but
the tournament's (as the benchmark was before 2026-12-07's evening: it charged the
tournament's players for their page and the ordinary players for none).  Both kinds are
set up at once; then a phase
with nobody acting (the server's own CPU), and ``--phases`` phases of ``--seconds`` in
the order ordinary, tournament, tournament, ordinary, ... (a drift of the machine or the
growing database falls on both kinds alike): in each one kind plays and the other waits
at its tables, so the phase's server CPU is that kind's.  Printed per phase and per kind:
actions/s, tables playing, p50/p99, the server's CPU per action (all of it, and less the
idle share: "net"), and the ratio tournament/ordinary with the spread of the phases of
one kind as the noise.

Run: ``python -m bench.speed.server_load [--db sqlite|postgresql] [--tables 200] [--rate 2.0]
[--seconds 60] [--warmup 10] [--procs 1] [--find-max [--step 1.3] [--step-seconds 20]]
[--nice -10] [--ws-compression]``, or ``python -m bench.speed.server_load --tournament
[--tables 50] [--tournament-size 25] [--series 3] [--phases 4] [--api-only] [...]``
(PostgreSQL: a new database on ``$STICH_TEST_PG``, default
``postgresql://postgres@127.0.0.1:5432/test``, or on a throwaway server when none answers
there, see ``tests/services.py``; dropped afterwards).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import html as html_lib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.measure import cpu_seconds, percentile, proc_status, reference_ms, renice

ROOT = Path(__file__).resolve().parents[2]
"""The repository's root: the load generator's processes run ``-m bench.speed.server_load``
from there."""

TARGET_P99_MS = 50.0

# --tournament: the tournaments' tables and the ordinary ones alike
NEXT_AFTER = 10  # seconds a table waits for "Weiter" after a game (a tournament's default)
ROUNDS = 8  # a tournament's rounds (the most): a new tournament follows the last
POLL = 10.0  # seconds between the tournament page's looks (tournament.js)
KIND_NAMES = {"plain": "ordinary", "tournament": "tournament", "idle": "idle"}


# --- the load generator (a child process) ------------------------------------------------

@dataclass
class Stats:
    every: list[float] = field(default_factory=list)  # one per (action, client), seconds
    slowest: list[float] = field(default_factory=list)  # one per action: its last client
    actions: int = 0
    sent: int = 0
    errors: int = 0
    why: dict[str, int] = field(default_factory=dict)  # the refusals by code
    ended: int = 0
    readies: int = 0  # "Weiter" after a game or round, when the table waits for it
    lag: list[float] = field(default_factory=list)  # the generator's own event-loop lag
    # the comparison (--tournament) only:
    playing: list[int] = field(default_factory=list)  # tables playing, every 0.5 s
    looks: int = 0  # GET /api/tournaments/{id}: the tournament page's look every 10 s
    pages: int = 0  # GET /tournaments/{id}: the page loaded (and reloaded on a change)
    rounds: int = 0  # rounds started by the organisers (and tournaments begun anew)
    visits: int = 0  # the lobby's and the tables' pages (with what their scripts ask)


@dataclass
class Player:
    table: Table
    token: str
    seat: int = -1
    ws: Any = None
    seq: int = 0
    view: dict[str, Any] | None = None
    waiting: bool = False


@dataclass
class Table:
    game: str
    id: str = ""
    players: list[Player] = field(default_factory=list)
    pending: dict[int, list[float]] = field(default_factory=dict)  # seq -> [t_sent, left]
    over: bool = False
    last: float = 0.0
    # "" in the default mix; with --tournament "plain" (an ordinary table) or "tournament"
    kind: str = ""
    between: bool = False  # after a game: the table waits for "Weiter"

    def full(self) -> bool:
        """Every seat's player is at the table (a round's players come one by one)."""
        return len(self.players) == 3 and all(p.ws is not None for p in self.players)


@dataclass
class Tour:
    """A tournament of the comparison: its organiser (a registered account), its
    players (guests, three per table) and the id of the tournament they play now (a new
    one once all its rounds are played)."""

    n: int  # its number (names its people)
    size: int  # tables a round
    org: str = ""  # the organiser's session
    id: str = ""
    players: list[TourPlayer] = field(default_factory=list)


@dataclass
class TourPlayer:
    tour: Tour
    token: str
    table: str = ""  # the id of the table of its latest round


class Generator:
    def __init__(self, http: str, ws: str, games: list[str], seed: int,
                 skat_rules: str | None = None, series: int = 0,
                 browser: bool = False) -> None:
        self.http, self.wsurl = http, ws
        # --tournament: the players load the pages a browser loads (the lobby, a
        # table's page, the tournament's) with what their scripts ask for at once
        self.browser = browser
        self.skat_rules = skat_rules
        self.series = series  # --tournament: the games of a series (both kinds)
        self.tables = [Table(g) for g in games]
        self.tours: list[Tour] = []
        self.tour_tables: dict[str, Table] = {}  # the tournaments' tables playing, by id
        self.tour_players: dict[str, TourPlayer] = {}  # by session
        # per kind of table, whether its players act (--tournament: one kind at a time)
        self.go = {kind: asyncio.Event() for kind in ("", "plain", "tournament")}
        for ev in self.go.values():
            ev.set()
        self.rng = random.Random(seed)
        self.rate = 1.0
        self.stats = Stats()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.setup_gate = asyncio.Semaphore(8)
        # one client for every player (the session cookie goes in each request's
        # header; the client's own cookie jar keeps nothing: every player is a browser
        # of its own, and a new guest from a browser that has a session ends it)
        from http import cookiejar

        import httpx

        keep_none = cookiejar.CookieJar(cookiejar.DefaultCookiePolicy(allowed_domains=[]))
        self.http_client = httpx.AsyncClient(base_url=http, timeout=60,
                                             cookies=keep_none, trust_env=False)

    # setting up: guests, a table, the others join by the invite; then the sockets
    async def guest(self, name: str) -> str:
        r = await self.http_client.post("/api/guest", json={"name": name})
        r.raise_for_status()
        return str(r.cookies["stich_session"])

    async def post(self, token: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = await self.http_client.post(path, json=body,
                                        headers={"Cookie": f"stich_session={token}"})
        r.raise_for_status()
        return dict(r.json())

    async def visit(self, token: str, path: str) -> str:
        """A page as a browser loads it (``--tournament``, unless ``--api-only``): the
        HTML (returned) and what its scripts ask for at once (``site.js``, every page:
        the tables one sits at; ``lobby.js``: the rules' form and the open tables;
        ``table.js``: the table)."""
        calls = ["/api/me/seats"]
        if path == "/":
            calls += ["/api/rules/skat", "/api/tables?status=open"]
        elif path.startswith("/t/"):
            table_id, _, query = path[3:].partition("?")
            calls.append(f"/api/tables/{table_id}" + (f"?{query}" if query else ""))
        html = str(await self.get(token, path))
        for p in calls:
            await self.get(token, p)
        return html

    async def other_page(self, token: str, path: str) -> None:
        """The lobby or a table's page (:meth:`visit`), counted as such."""
        self.stats.visits += 1
        await self.visit(token, path)

    async def make_table(self, t: Table, n: int, tokens: list[str] | None = None) -> None:
        browser = self.browser and t.kind == "plain" and tokens is not None
        async with self.setup_gate:
            t.players, t.pending, t.over, t.between = [], {}, False, False
            n_seats = 3 if t.game == "skat" else 4
            if tokens is None:
                tokens = [await self.guest(f"P{n}x{i}") for i in range(n_seats)]
            body: dict[str, Any] = {"game": t.game, "seats": ["me"] + ["person"]
                                    * (n_seats - 1), "grace": 3600}
            if t.kind == "plain":  # a tournament's table, but from the lobby
                body = {"game": t.game, "seats": ["me", "person", "person"],
                        **self.series_settings()}
            elif t.game == "skat":
                body["games"] = 0  # an open-ended list: it never ends
            if t.game == "skat" and self.skat_rules:
                body["rules"] = self.skat_rules
            if browser:  # the series is over: back to the lobby, where one sets it up
                await self.other_page(tokens[0], "/")
            made = await self.post(tokens[0], "/api/tables", body)
            t.id = made["table"]["id"]
            if browser:  # the lobby opens the new table's page
                await self.other_page(tokens[0], f"/t/{t.id}")
            for token in tokens[1:]:
                if browser:  # the others follow the invite's link
                    await self.other_page(token, f"/t/{t.id}?invite={made['invite']}")
                await self.post(token, f"/api/tables/{t.id}/join", {"invite": made["invite"]})
            t.players = [Player(t, token) for token in tokens]
            for p in t.players:
                await self.connect(p)
            t.last = time.perf_counter()

    async def connect(self, p: Player) -> None:
        import websockets

        p.ws = await websockets.connect(
            f"{self.wsurl}/ws/tables/{p.table.id}?lang=en",
            additional_headers={"Cookie": f"stich_session={p.token}"},
            max_size=2**22, open_timeout=60)
        self.spawn(self.read(p))

    def series_settings(self) -> dict[str, Any]:
        """What a tournament's table is (``stich.server.tournament_store._table``), as
        the lobby's settings: a private Preisskat series, no turn clock (the idle half
        would be played by its bots), a wait for "Weiter" after each game."""
        return {"games": self.series, "scoring": "seeger", "public": False, "clock": 0,
                "next_after": NEXT_AFTER}

    def spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # playing
    async def read(self, p: Player) -> None:
        t = p.table
        clock = time.perf_counter
        try:
            async for raw in p.ws:
                now = clock()
                msg = json.loads(raw)
                kind = msg["type"]
                if kind == "event" or kind == "snapshot":
                    seq = msg["seq"]
                    if seq > p.seq:
                        p.seq = seq
                    p.view = msg["view"]
                    if kind == "event":
                        t.last = now
                        ek = msg["kind"]
                        stats = self.stats
                        if ek == "act":
                            pend = t.pending.get(seq)
                            if pend is not None:
                                took = now - pend[0]
                                stats.every.append(took)
                                pend[1] -= 1
                                if pend[1] == 0:
                                    del t.pending[seq]
                                    stats.slowest.append(took)
                                    stats.actions += 1
                        elif ek == "end" and not t.over:
                            t.over, t.between = True, False
                            self.stats.ended += 1
                            self.spawn(self.after_series(t) if t.kind == "tournament"
                                       else self.renew(t))
                        elif (ek in ("game_over", "round_over")
                              and (msg.get("data") or {}).get("wait")):
                            # the table waits for "Weiter": the player clicks it
                            t.between = True
                            self.spawn(self.ready_later(p))
                        elif ek in ("deal", "next"):
                            t.between = False
                    self.maybe_act(p)
                elif kind == "welcome":
                    p.seat = msg["you"]
                elif kind == "error":
                    self.stats.errors += 1
                    code = str(msg.get("code"))
                    self.stats.why[code] = self.stats.why.get(code, 0) + 1
                    if self.stats.errors <= 5:
                        print(f"refused: {msg}", file=sys.stderr, flush=True)
                    self.maybe_act(p)
        except Exception as e:  # a closed socket ends its reader
            if not isinstance(e, ConnectionError) and "ConnectionClosed" not in type(e).__name__:
                print(f"reader: {e!r}", file=sys.stderr, flush=True)

    def my_turn(self, p: Player) -> bool:
        v = p.view
        return bool(v and v.get("legal") and v.get("to_move") == v.get("seat")
                    and not p.table.over)

    def maybe_act(self, p: Player) -> None:
        if not p.waiting and self.my_turn(p) and self.go[p.table.kind].is_set():
            p.waiting = True
            self.spawn(self.act_later(p))

    async def act_later(self, p: Player) -> None:
        await asyncio.sleep(self.rng.expovariate(self.rate))
        p.waiting = False
        if not self.my_turn(p) or not self.go[p.table.kind].is_set():
            return  # (a paused kind's players act again when it goes on: resume)
        assert p.view is not None
        action = self.rng.choice(p.view["legal"])
        seq = p.seq
        p.table.pending[seq + 1] = [time.perf_counter(), len(p.table.players)]
        self.stats.sent += 1
        try:
            await p.ws.send(json.dumps({"type": "act", "seq": seq, "action": action}))
        except Exception:
            self.stats.errors += 1
            self.stats.why["(not sent)"] = self.stats.why.get("(not sent)", 0) + 1

    async def ready_later(self, p: Player) -> None:
        await asyncio.sleep(self.rng.expovariate(self.rate))
        go = self.go[p.table.kind]
        if not go.is_set():  # its kind paused: the click waits, unless the wait ran out
            await go.wait()
            if not p.table.between:
                return
        self.stats.readies += 1
        try:
            await p.ws.send(json.dumps({"type": "ready"}))
        except Exception:
            self.stats.errors += 1
            self.stats.why["(not sent)"] = self.stats.why.get("(not sent)", 0) + 1

    async def renew(self, t: Table) -> None:
        """A Baptistenskat table came to its end: four new guests sit at a new one.  An
        ordinary table of the comparison (``--tournament``) ended its series: the same
        three set up the next one (one creates it, the others join by its invite)."""
        old = t.players
        for p in old:
            with contextlib.suppress(Exception):
                await p.ws.close()
        if t.kind == "plain":
            await self.make_table(t, 0, [p.token for p in old])
            return
        # a number no other table has (a guest holds its name while its session lives)
        await self.make_table(t, self.rng.randrange(10**6, 10**12))

    # --tournament: the tournaments' organisers and players, and the kinds in turns
    def pause(self, kind: str) -> None:
        self.go[kind].clear()

    def resume(self, kind: str) -> None:
        self.go[kind].set()
        for t in [*self.tables, *self.tour_tables.values()]:
            if t.kind == kind:
                for p in t.players:
                    self.maybe_act(p)

    async def get(self, token: str, path: str) -> Any:
        r = await self.http_client.get(path, headers={"Cookie": f"stich_session={token}"})
        r.raise_for_status()
        return r.json() if path.startswith("/api/") else r.text

    async def look(self, token: str, tour: Tour) -> dict[str, Any]:
        """The tournament page's look (``tournament.js``, every 10 s)."""
        self.stats.looks += 1
        return dict((await self.get(token, f"/api/tournaments/{tour.id}"))["tournament"])

    async def page(self, token: str, tour: Tour, tab: OpenPage) -> None:
        """The tournament's page, loaded (first, or after a change): what it shows (the
        state it carries: ``data-watch``, ``data-status``, your table's link)."""
        self.stats.pages += 1
        path = f"/tournaments/{tour.id}"
        tab.took(await self.visit(token, path) if self.browser else await self.get(token, path))

    async def begin(self, tour: Tour) -> None:
        """A new tournament: the organiser creates it, its players register, the
        organiser starts its first round."""
        made = await self.post(tour.org, "/api/tournaments", {
            "name": f"Bench {tour.n}", "rules": self.skat_rules, "scoring": "seeger",
            "rounds": ROUNDS, "games_three": self.series, "games_four": 4 * self.series // 3,
            "clock": 0, "next_after": NEXT_AFTER})
        tour.id = made["tournament"]["id"]
        for tp in tour.players:
            await self.post(tp.token, f"/api/tournaments/{tour.id}/register", {})
        await self.post(tour.org, f"/api/tournaments/{tour.id}/start", {})

    async def make_tour(self, tour: Tour) -> None:
        async with self.setup_gate:
            r = await self.http_client.post("/api/register", json={
                "name": f"Org{tour.n}", "password": "geheim123"})
            r.raise_for_status()
            tour.org = str(r.cookies["stich_session"])
            tour.players = [TourPlayer(tour, await self.guest(f"T{tour.n}x{i}"))
                            for i in range(3 * tour.size)]
            for tp in tour.players:
                self.tour_players[tp.token] = tp
            await self.begin(tour)
            for tp in tour.players:
                link = (await self.look(tp.token, tour))["you"]["table"]
                await self.sit_down(tp, link)

    async def sit_down(self, tp: TourPlayer, link: str) -> None:
        """The player follows the link to its table (``/t/<id>``) and connects."""
        table_id = link.rsplit("/", 1)[-1]
        if self.browser and tp.table:  # (the first round's are set up like the lobby's)
            await self.other_page(tp.token, link)
        tp.table = table_id
        t = self.tour_tables.get(table_id)
        if t is None:
            t = self.tour_tables[table_id] = Table("skat", id=table_id, kind="tournament",
                                                   last=time.perf_counter())
        p = Player(t, tp.token)
        t.players.append(p)
        await self.connect(p)

    async def after_series(self, t: Table) -> None:
        """A tournament's table ended its series: its players go to the tournament's
        page until it shows their next table."""
        self.tour_tables.pop(t.id, None)
        for p in t.players:
            with contextlib.suppress(Exception):
                await p.ws.close()
        for p in t.players:
            self.spawn(self.wander(self.tour_players[p.token]))

    async def wander(self, tp: TourPlayer) -> None:
        """A player between series, on the tournament's page: it is loaded, looks every
        :data:`POLL` s and loads again on a change, as ``tournament.js`` does
        (:meth:`OpenPage.reloads`), until it shows a new table (a round started: shown
        in place), which the player follows."""
        tab = OpenPage()
        while True:
            await self.go["tournament"].wait()
            try:
                if tab.reload:
                    await self.page(tp.token, tp.tour, tab)
                elif tab.reloads(await self.look(tp.token, tp.tour)):
                    continue
                if tab.link and tab.link.rsplit("/", 1)[-1] != tp.table:
                    await self.sit_down(tp, tab.link)  # the page shows it: go there
                    return
            except Exception as e:
                self.refused(e)
            await asyncio.sleep(POLL)

    async def organise(self, tour: Tour) -> None:
        """The organiser keeps the tournament's page open (it looks every :data:`POLL`
        s, loads again on a change) and starts the next round as soon as it shows the
        last one over; a tournament whose rounds are all played is followed by a new one."""
        tab = OpenPage()
        while True:
            await self.go["tournament"].wait()
            try:
                if tab.reload:
                    await self.page(tour.org, tour, tab)
                    if tab.status in ("between", "over"):
                        if tab.status == "between":
                            await self.post(tour.org, f"/api/tournaments/{tour.id}/start", {})
                        else:
                            await self.begin(tour)
                        self.stats.rounds += 1
                        tab = OpenPage()  # the page loads again after the button
                        continue
                elif tab.reloads(await self.look(tour.org, tour)):
                    continue
            except Exception as e:
                self.refused(e)
            await asyncio.sleep(POLL)

    def refused(self, e: Exception) -> None:
        """A request of a tournament's page refused (counted as a refusal)."""
        code = getattr(getattr(e, "response", None), "status_code", None)
        why = f"http {code}" if code else type(e).__name__
        self.stats.errors += 1
        self.stats.why[why] = self.stats.why.get(why, 0) + 1
        if self.stats.errors <= 5:
            print(f"tournament page: {e!r}", file=sys.stderr, flush=True)

    async def watch_tables(self) -> None:
        """Every 0.5 s: how many tables of the kinds going on are playing (all their
        players at the table, the series not over)."""
        while True:
            await asyncio.sleep(0.5)
            self.stats.playing.append(sum(
                1 for t in [*self.tables, *self.tour_tables.values()]
                if self.go[t.kind].is_set() and not t.over and t.full()))

    async def watch_lag(self) -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(0.05)
            self.stats.lag.append(time.perf_counter() - t0 - 0.05)

    def stuck(self, now: float) -> int:
        return sum(1 for t in [*self.tables, *self.tour_tables.values()]
                   if not t.over and now - t.last > 5.0 and self.go[t.kind].is_set()
                   and (t.kind != "tournament" or t.full()))


MINOR_RELOAD = 30.0
"""Seconds a tournament page stays before a change of the standings alone reloads it
(``tournament.js``)."""


def page_reloads(seen: list[str] | None, key: list[str], age: float) -> bool:
    """Whether the page reloads on a look that answers ``key`` (its ``watch``:
    ``tournament.js``): at once when the first part changed (a round started or over,
    paused, your table), when the second did (the standings moved) once the page is
    :data:`MINOR_RELOAD` s old."""
    return seen is not None and (key[0] != seen[0]
                                 or (key[1] != seen[1] and age >= MINOR_RELOAD))


_WATCH = re.compile(r"data-watch='([^']*)'")
_STATUS = re.compile(r'data-status="([a-z]+)"')
_LINK = re.compile(r'id="tn-table" href="([^"]+)"')


@dataclass
class OpenPage:
    """A tournament page open in a browser as ``tournament.js`` keeps it: whether it is
    to be loaded, when it was, what it showed (its status, your table's link) and the
    ``watch`` its looks compare."""

    reload: bool = True
    loaded: float = 0.0
    seen: list[str] | None = None
    status: str = ""
    link: str | None = None

    def took(self, html: str) -> None:
        """The page loaded: what it carries."""
        self.reload, self.loaded = False, time.monotonic()
        watch, status = _WATCH.search(html), _STATUS.search(html)
        link = _LINK.search(html)
        self.seen = json.loads(html_lib.unescape(watch.group(1))) if watch else None
        self.status = status.group(1) if status else ""
        self.link = html_lib.unescape(link.group(1)) if link else None

    def reloads(self, got: dict[str, Any]) -> bool:
        """Take a look's answer; whether the page loads again on it.  A round that
        started with a table of yours is shown without (``yourNextTable``)."""
        key = list(got["watch"])
        link = got["you"]["table"]
        if (self.seen is not None and key[0] != self.seen[0] and got["status"] == "running"
                and not got["paused"] and link and link != self.link):
            self.seen, self.link = key, link
            return False
        if page_reloads(self.seen, key, time.monotonic() - self.loaded):
            self.reload = True
            return True
        if self.seen is None or key == self.seen:
            self.seen = key
        return False


async def child_main() -> None:
    lines: asyncio.Queue[str] = asyncio.Queue()
    loop = asyncio.get_running_loop()
    threading.Thread(target=lambda: [loop.call_soon_threadsafe(lines.put_nowait, s)
                                     for s in sys.stdin], daemon=True).start()
    cfg = json.loads(await lines.get())
    gen = Generator(cfg["http"], cfg["ws"], cfg["games"], cfg["seed"], cfg.get("skat_rules"),
                    cfg.get("series", 0), cfg.get("browser", False))
    gen.rate = cfg["rate"]
    compare = bool(cfg.get("plain") or cfg.get("tours"))
    if compare:  # nobody acts until the first phase names its kind
        gen.pause("plain")
        gen.pause("tournament")
    gen.tables += [Table("skat", kind="plain") for _ in range(cfg.get("plain", 0))]
    first = cfg["first"]
    gen.tours = [Tour(first + len(gen.tables) + i, size)
                 for i, size in enumerate(cfg.get("tours", []))]
    t0 = time.perf_counter()
    await asyncio.gather(*(gen.make_table(t, first + i) for i, t in enumerate(gen.tables)),
                         *(gen.make_tour(tour) for tour in gen.tours))
    gc.freeze()  # the generator's own collector pauses would count as latency
    every = [*gen.tables, *gen.tour_tables.values()]
    reply({"ready": len(every), "clients": sum(len(t.players) for t in every),
           "setup_s": time.perf_counter() - t0})
    gen.spawn(gen.watch_lag())
    if compare:
        gen.spawn(gen.watch_tables())
        for tour in gen.tours:
            gen.spawn(gen.organise(tour))
    for p in (p for t in gen.tables for p in t.players):
        gen.maybe_act(p)
    me = os.getpid()
    while True:
        cmd = json.loads(await lines.get())
        if cmd["cmd"] == "quit":
            break
        gen.rate = cmd["rate"]
        if cmd.get("kind"):  # --tournament: this kind plays, the other waits ("idle": both)
            for kind in ("plain", "tournament"):
                if kind == cmd["kind"]:
                    gen.resume(kind)
                else:
                    gen.pause(kind)
        await asyncio.sleep(cmd["warmup"])
        gen.stats = Stats()
        c0, w0 = cpu_seconds(me), time.perf_counter()
        await asyncio.sleep(cmd["seconds"])
        st, el = gen.stats, time.perf_counter() - w0
        reply({"every": st.every, "slowest": st.slowest, "actions": st.actions,
               "sent": st.sent, "errors": st.errors, "why": st.why, "ended": st.ended,
               "lag_p99": percentile(st.lag, 99), "cpu": (cpu_seconds(me) - c0) / el,
               "elapsed": el, "stuck": gen.stuck(time.perf_counter()),
               "playing": sum(st.playing) / max(len(st.playing), 1), "looks": st.looks,
               "pages": st.pages, "rounds": st.rounds, "visits": st.visits})
    for t in [*gen.tables, *gen.tour_tables.values()]:
        for p in t.players:
            with contextlib.suppress(Exception):
                await p.ws.close()
    await gen.http_client.aclose()


def reply(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


# --- the conductor -----------------------------------------------------------------------

class FsyncProbe:
    """Writes 4 KB and fsyncs it every 100 ms in a thread: the disk's commit latency
    during a step (the floor under a durable commit, SQLite's or PostgreSQL's)."""

    def __init__(self, folder: str) -> None:
        self.path = os.path.join(folder, "fsync-probe")
        self.times: list[float] = []
        self.running = False

    def start(self) -> None:
        self.times, self.running = [], True
        threading.Thread(target=self._run, daemon=True).start()

    def stop(self) -> list[float]:
        self.running = False
        return self.times

    def _run(self) -> None:
        with open(self.path, "wb") as f:
            while self.running:
                t0 = time.perf_counter()
                f.write(b"x" * 4096)
                f.flush()
                os.fsync(f.fileno())
                self.times.append(time.perf_counter() - t0)
                time.sleep(0.1)


class Drain:
    """Reads a child's pipe in a thread (so it never fills up); keeps the last lines."""

    def __init__(self, stream: Any) -> None:
        self.tail: deque[str] = deque(maxlen=20)
        threading.Thread(target=self._run, args=(stream,), daemon=True).start()

    def _run(self, stream: Any) -> None:
        for line in stream:
            self.tail.append(line.rstrip())


@dataclass
class Step:
    rate: float  # per table, offered
    actions_s: float
    p50: float  # ms, slowest client per action
    p99: float
    p50_every: float
    p99_every: float
    errors: int
    server_cpu: float  # share of one core
    load_cpu: float
    rss_mb: float
    hwm_mb: float
    lag_p99: float
    stuck: int
    ended: int = 0  # tables that came to their end (and were set up anew) in the step
    why: dict[str, int] = field(default_factory=dict)  # the refusals by code
    fsync_p50: float = float("nan")
    fsync_p99: float = float("nan")
    # --tournament: the kind of table that played, its tables playing on average, the
    # tournament pages' requests, the rounds started; the latencies (for the kind's own)
    kind: str = ""
    playing: float = 0.0
    looks: int = 0
    pages: int = 0
    rounds: int = 0
    visits: int = 0
    slowest: list[float] = field(default_factory=list, repr=False)


class Conductor:
    """The load generator's processes, each with its ``part`` of the tables: ``games``
    (the default mix: a list of ``skat`` and ``baptisten``), ``skat_rules``; with
    ``--tournament`` also ``plain`` (ordinary tables), ``tours`` (the tournaments'
    sizes in tables) and ``series``."""

    def __init__(self, server: Any, parts: list[dict[str, Any]], rate: float,
                 seed: int, nice: int | None = None) -> None:
        self.server = server
        self.children: list[subprocess.Popen[str]] = []
        self.drains: list[Drain] = []
        first = 0
        for i, part in enumerate(parts):
            count = len(part["games"]) + part.get("plain", 0) + len(part.get("tours", []))
            if not count:
                continue
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(
                [str(ROOT), os.environ.get("PYTHONPATH", "")])}
            child = subprocess.Popen([sys.executable, "-m", "bench.speed.server_load", "--child"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env)
            assert child.stdin is not None and child.stderr is not None
            self.drains.append(Drain(child.stderr))
            child.stdin.write(json.dumps({"http": server.url, "ws": server.ws, **part,
                                          "seed": seed + i, "rate": rate,
                                          "first": first}) + "\n")
            child.stdin.flush()
            first += count
            self.children.append(child)
            if nice is not None:
                renice(child.pid, nice)
        self.clients = 0
        self.setup_s = 0.0
        for child in self.children:
            r = self.read(child)
            self.clients += r["clients"]
            self.setup_s = max(self.setup_s, r["setup_s"])

    def read(self, child: subprocess.Popen[str]) -> dict[str, Any]:
        assert child.stdout is not None
        line = child.stdout.readline()
        if not line:
            err = "\n".join(d for dr in self.drains for d in dr.tail)
            raise RuntimeError(f"the load generator stopped:\n{err}")
        return dict(json.loads(line))

    def step(self, rate: float, warmup: float, seconds: float,
             probe: FsyncProbe | None = None, kind: str = "") -> Step:
        """One measurement; with ``kind`` (``--tournament``) that kind of table plays
        and the other waits (from the warm-up on)."""
        pid = self.server.proc.pid
        for child in self.children:
            assert child.stdin is not None
            child.stdin.write(json.dumps({"cmd": "run", "rate": rate, "warmup": warmup,
                                          "seconds": seconds, "kind": kind}) + "\n")
            child.stdin.flush()
        time.sleep(warmup)
        if probe is not None:
            probe.start()
        c0, w0 = cpu_seconds(pid), time.perf_counter()
        rss: list[int] = []
        while time.perf_counter() - w0 < seconds:
            time.sleep(min(1.0, max(0.0, seconds - (time.perf_counter() - w0))))
            rss.append(proc_status(pid)["VmRSS"])
        server_cpu = (cpu_seconds(pid) - c0) / (time.perf_counter() - w0)
        fsyncs = probe.stop() if probe is not None else []
        results = [self.read(c) for c in self.children]
        every = [x for r in results for x in r["every"]]
        slowest = [x for r in results for x in r["slowest"]]
        el = max(r["elapsed"] for r in results)
        status = proc_status(pid)
        return Step(rate=rate, actions_s=sum(r["actions"] for r in results) / el,
                    p50=1000 * percentile(slowest, 50), p99=1000 * percentile(slowest, 99),
                    p50_every=1000 * percentile(every, 50),
                    p99_every=1000 * percentile(every, 99),
                    errors=sum(r["errors"] for r in results), server_cpu=server_cpu,
                    load_cpu=sum(r["cpu"] for r in results), rss_mb=status["VmRSS"] / 1024,
                    hwm_mb=status["VmHWM"] / 1024,
                    lag_p99=1000 * max(r["lag_p99"] for r in results),
                    stuck=sum(r["stuck"] for r in results),
                    ended=sum(r["ended"] for r in results),
                    why={k: sum(r["why"].get(k, 0) for r in results)
                         for k in sorted({k for r in results for k in r["why"]})},
                    fsync_p50=1000 * percentile(fsyncs, 50),
                    fsync_p99=1000 * percentile(fsyncs, 99), kind=kind,
                    playing=sum(r["playing"] for r in results),
                    looks=sum(r["looks"] for r in results),
                    pages=sum(r["pages"] for r in results),
                    rounds=sum(r["rounds"] for r in results),
                    visits=sum(r.get("visits", 0) for r in results),
                    slowest=slowest if kind else [])

    def close(self) -> None:
        for child in self.children:
            with contextlib.suppress(Exception):
                assert child.stdin is not None
                child.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
                child.stdin.flush()
        for child in self.children:
            try:
                child.wait(15)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


def _why(s: Step) -> str:
    """The refusals' codes, e.g. `` (server.stale 1)``; nothing when none."""
    if not s.why:
        return ""
    return " (" + ", ".join(f"{k} {n}" for k, n in s.why.items()) + ")"


def show_step(s: Step, tables: int) -> str:
    return (f"rate/table {s.rate:5.2f}  offered {s.rate * tables:6.0f}/s  done "
            f"{s.actions_s:6.1f}/s  p50 {s.p50:6.1f} ms  p99 {s.p99:6.1f} ms  "
            f"(every client: p50 {s.p50_every:5.1f}, p99 {s.p99_every:5.1f})  "
            f"server CPU {100 * s.server_cpu:3.0f}% "
            f"({1000 * s.server_cpu / max(s.actions_s, 1e-9):.2f} ms/action)  "
            f"load CPU {100 * s.load_cpu:3.0f}%  "
            f"RSS {s.rss_mb:5.0f} MB  refused {s.errors}{_why(s)}  stuck {s.stuck}  "
            f"tables ended and set up anew {s.ended}  "
            f"gen-lag p99 {s.lag_p99:4.1f} ms  fsync p50/p99 {s.fsync_p50:.1f}/"
            f"{s.fsync_p99:.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--rate", type=float, default=2.0, help="actions/s per table")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--warmup", type=float, default=10.0)
    ap.add_argument("--procs", type=int, default=1, help="load-generator processes")
    ap.add_argument("--skat-share", type=float, default=0.5,
                    help="the share of Skat tables (the rest Baptistenskat)")
    ap.add_argument("--find-max", action="store_true")
    ap.add_argument("--step", type=float, default=1.3)
    ap.add_argument("--step-seconds", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skat-rules", default=None,
                    help="the rules of the Skat tables (a rule string; default: the preset), "
                         "e.g. 'skat(preset=lothar,kontra_re=yes,schieberamsch=yes)'")
    ap.add_argument("--nice", type=int, default=None,
                    help="run the server and the load generator at this niceness (e.g. -10, "
                         "as root) so that other jobs on a shared machine disturb less")
    ap.add_argument("--ws-compression", action="store_true",
                    help="start the server with --ws-compression (permessage-deflate)")
    ap.add_argument("--tournament", action="store_true",
                    help="compare --tables tournament tables with as many ordinary Skat "
                         "tables of the same rules, in phases of --seconds taking turns")
    ap.add_argument("--tournament-size", type=int, default=25,
                    help="with --tournament: the tables of one tournament (1 to 40)")
    ap.add_argument("--series", type=int, default=3,
                    help="with --tournament: the games of a series, both kinds (a "
                         "multiple of 3, at most 72)")
    ap.add_argument("--phases", type=int, default=4,
                    help="with --tournament: phases, in the order ordinary, tournament, "
                         "tournament, ordinary, ... (at least 2)")
    ap.add_argument("--api-only", action="store_true",
                    help="with --tournament: the players load no page but the tournament's "
                         "(the lobby's and the tables' pages left out, as before "
                         "2026-12-07's evening)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        try:
            import uvloop

            uvloop.install()
        except ImportError:
            pass
        asyncio.run(child_main())
        return
    if args.tournament:
        compare(args)
        return

    from tests.server.harness import Server, database

    n_skat = round(args.tables * args.skat_share)
    games = ["skat"] * n_skat + ["baptisten"] * (args.tables - n_skat)
    random.Random(args.seed).shuffle(games)
    load0 = os.getloadavg()
    ref0 = reference_ms()
    with tempfile.TemporaryDirectory() as tmp, database(args.db, Path(tmp)) as url:
        server = Server(url, bot_delay=0.0,
                        args=["--ws-compression"] if args.ws_compression else [])
        cond: Conductor | None = None
        try:
            took = server.start(timeout=60)
            assert server.proc is not None and server.proc.stdout and server.proc.stderr
            out, err = Drain(server.proc.stdout), Drain(server.proc.stderr)
            idle = proc_status(server.proc.pid)
            print(f"server (pid {server.proc.pid}) ready in {took:.2f} s on {args.db}; "
                  f"RSS {idle['VmRSS'] / 1024:.0f} MB", flush=True)
            if args.nice is not None:
                renice(server.proc.pid, args.nice)
            cond = Conductor(server, [{"games": games[i::args.procs],
                                       "skat_rules": args.skat_rules}
                                      for i in range(args.procs)],
                             args.rate, args.seed, args.nice)
            probe = FsyncProbe(tmp)
            loaded = proc_status(server.proc.pid)
            print(f"{args.tables} tables ({n_skat} Skat, {args.tables - n_skat} "
                  f"Baptistenskat), {cond.clients} WebSocket clients, set up in "
                  f"{cond.setup_s:.1f} s; server RSS {loaded['VmRSS'] / 1024:.0f} MB",
                  flush=True)
            steps: list[Step] = []
            if not args.find_max:
                s = cond.step(args.rate, args.warmup, args.seconds, probe)
                print(show_step(s, args.tables), flush=True)
                steps.append(s)
            else:
                rate, warm = args.rate, args.warmup
                while True:
                    s = cond.step(rate, warm, args.step_seconds, probe)
                    print(show_step(s, args.tables), flush=True)
                    steps.append(s)
                    warm = 3.0
                    if s.p99 > TARGET_P99_MS or s.errors or s.stuck:
                        break
                    rate *= args.step
        finally:
            if cond is not None:
                cond.close()
            server.stop()
            if server.proc is None and "err" in locals() and err.tail:
                print("server stderr (last lines):", *err.tail, sep="\n  ")
        del out
    load1 = os.getloadavg()
    report(args, steps, n_skat, cond, loaded, (load0[0], load1[0]), (ref0, reference_ms()))


def report(args: argparse.Namespace, steps: list[Step], n_skat: int, cond: Conductor,
           loaded: dict[str, int], load: tuple[float, float],
           ref: tuple[float, float]) -> None:
    cores = os.cpu_count()
    print()
    print(f"== stich serve under load: {args.db}, {args.tables} tables ({n_skat} Skat x3, "
          f"{args.tables - n_skat} Baptistenskat x4 = {cond.clients} WebSocket clients on "
          f"loopback), one server process, --bot-delay 0 ==")
    print(f"note: {cores} cores shared by the server and {len(cond.children)} load-generator "
          f"process(es); the generator's CPU is shown, the figures are a lower bound; "
          f"machine load average {load[0]:.1f} before, {load[1]:.1f} after"
          + (f"; server and load generator at nice {args.nice}" if args.nice is not None
             else ""))
    if not args.find_max:
        s = steps[0]
        ok = "met" if s.p99 <= TARGET_P99_MS else "NOT met"
        print(f"offered   {args.rate:g} actions/s per table = {args.rate * args.tables:.0f} "
              f"actions/s; done {s.actions_s:.1f} actions/s over {args.seconds:g} s "
              f"(after {args.warmup:g} s warm-up), refused {s.errors}{_why(s)}, stuck tables "
              f"{s.stuck}")
        print(f"latency   action -> event at every client of its table: p50 {s.p50:.1f} ms, "
              f"p99 {s.p99:.1f} ms (target p99 <= {TARGET_P99_MS:.0f} ms: {ok})")
        print(f"          per delivery (each client): p50 {s.p50_every:.1f} ms, "
              f"p99 {s.p99_every:.1f} ms")
        print(f"memory    server VmRSS {s.rss_mb:.0f} MB (peak VmHWM {s.hwm_mb:.0f} MB; "
              f"{loaded['VmRSS'] / 1024:.0f} MB right after the set-up)")
        per = 1000 * s.server_cpu / s.actions_s if s.actions_s else float("nan")
        print(f"CPU       server {100 * s.server_cpu:.0f}% of a core ({per:.2f} ms a action), "
              f"load generator {100 * s.load_cpu:.0f}%")
        unit = min(ref)
        print(f"          the reference workload took {ref[0]:.1f} ms before and {ref[1]:.1f} "
              f"ms after: CPU per action = {per / unit:.3f} reference workloads (machine-"
              f"independent; {per:.2f} ms / {unit:.1f} ms)")
        print(f"machine   the disk's fsync of 4 KB meanwhile: p50 {s.fsync_p50:.1f} ms, p99 "
              f"{s.fsync_p99:.1f} ms (every commit waits for one); the load generator's own "
              f"event-loop lag p99 {s.lag_p99:.1f} ms")
        return
    good = [s for s in steps if s.p99 <= TARGET_P99_MS and not s.errors and not s.stuck]
    for s in steps:
        print(show_step(s, args.tables))
    if good:
        best = max(good, key=lambda s: s.actions_s)
        print(f"most actions/s with p99 <= {TARGET_P99_MS:.0f} ms: {best.actions_s:.0f} "
              f"(rate {best.rate:.2f}/table, p50 {best.p50:.1f} ms, p99 {best.p99:.1f} ms, "
              f"server CPU {100 * best.server_cpu:.0f}%, load generator "
              f"{100 * best.load_cpu:.0f}%, RSS {best.rss_mb:.0f} MB)")
    else:
        print(f"p99 was over {TARGET_P99_MS:.0f} ms already at the first step")


# --- --tournament: tournament tables against ordinary ones --------------------------------

def compare(args: argparse.Namespace) -> None:
    """``--tables`` tournament tables and as many ordinary Skat tables on one server
    process, both kinds set up at once and played in phases taking turns (ordinary,
    tournament, tournament, ordinary, ...: a drift of the machine or of the growing
    database over the run falls on both alike); in each phase one kind plays and the
    other waits at its tables (sockets open, nobody acting), so the server's CPU of the
    phase is that kind's."""
    from tests.server.harness import ROOMY, Server, database

    n = args.tables
    if not 1 <= args.tournament_size <= 40:
        raise SystemExit("--tournament-size: 1 to 40 tables (a tournament takes at most "
                         "120 players)")
    if args.series <= 0 or args.series % 3 or args.series > 72:
        raise SystemExit("--series: a multiple of 3, at most 72")
    if args.phases < 2:
        raise SystemExit("--phases: at least 2 (one of each kind)")
    k = -(-n // args.tournament_size)
    sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]
    rules = args.skat_rules or "skat(preset=isko)"  # a tournament's default
    parts = [{"games": [], "plain": n // args.procs + (1 if i < n % args.procs else 0),
              "tours": sizes[i::args.procs], "series": args.series, "skat_rules": rules,
              "browser": not args.api_only}
             for i in range(args.procs)]
    limits = (f"{ROOMY},tournaments_per_hour=1000000,account_open_tournaments=1000000,"
              "tournament_actions_per_min=1000000")
    order = ["plain", "tournament", "tournament", "plain"]
    load0 = os.getloadavg()
    ref0 = reference_ms()
    steps: list[Step] = []
    with tempfile.TemporaryDirectory() as tmp, database(args.db, Path(tmp)) as url:
        server = Server(url, bot_delay=0.0, env={"STICH_LIMITS": limits},
                        args=["--ws-compression"] if args.ws_compression else [])
        cond: Conductor | None = None
        try:
            took = server.start(timeout=60)
            assert server.proc is not None
            print(f"server (pid {server.proc.pid}) ready in {took:.2f} s on {args.db}; "
                  f"RSS {proc_status(server.proc.pid)['VmRSS'] / 1024:.0f} MB", flush=True)
            if args.nice is not None:
                renice(server.proc.pid, args.nice)
            cond = Conductor(server, parts, args.rate, args.seed, args.nice)
            probe = FsyncProbe(tmp)
            print(f"{n} ordinary Skat tables and {n} tournament tables ({k} tournament(s) of "
                  f"{', '.join(map(str, sizes))} tables), {cond.clients} WebSocket clients, "
                  f"set up in {cond.setup_s:.1f} s; server RSS "
                  f"{proc_status(server.proc.pid)['VmRSS'] / 1024:.0f} MB", flush=True)
            for i, kind in enumerate(["idle"] + [order[i % 4] for i in range(args.phases)]):
                s = cond.step(args.rate, args.warmup, args.seconds, probe, kind)
                print(show_phase(i, s), flush=True)
                steps.append(s)
        finally:
            if cond is not None:
                cond.close()
            server.stop()
    load1 = os.getloadavg()
    report_compare(args, rules, steps, (load0[0], load1[0]), (ref0, reference_ms()))


def show_phase(number: int, s: Step) -> str:
    if s.kind == "idle":
        return (f"phase {number} idle        nobody acts: server CPU {100 * s.server_cpu:.1f}% "
                f"of a core  RSS {s.rss_mb:.0f} MB")
    what = (f"series ended {s.ended}, rounds started {s.rounds}, tournament page "
            f"{s.pages} loads + {s.looks} looks" if s.kind == "tournament"
            else f"series ended (and set up anew) {s.ended}")
    if s.visits:
        what += f", other pages {s.visits}"
    return (f"phase {number} {KIND_NAMES[s.kind]:<10}  done {s.actions_s:5.1f} actions/s  "
            f"tables playing {s.playing:4.1f}  p50 {s.p50:5.1f} ms  p99 {s.p99:5.1f} ms  "
            f"server CPU {100 * s.server_cpu:3.0f}% "
            f"({1000 * s.server_cpu / max(s.actions_s, 1e-9):.3f} ms/action)  "
            f"load CPU {100 * s.load_cpu:3.0f}%  RSS {s.rss_mb:.0f} MB  "
            f"refused {s.errors}{_why(s)}  stuck {s.stuck}  {what}")


def per_action(steps: list[Step], idle: float = 0.0) -> float:
    """The server's CPU per action over phases of equal length, in ms: all their CPU
    (less ``idle``, the server's own share of a core while nobody acts) over all their
    actions."""
    done = sum(s.actions_s for s in steps)
    cpu = sum(s.server_cpu - idle for s in steps)
    return 1000 * cpu / done if done else float("nan")


def report_compare(args: argparse.Namespace, rules: str, steps: list[Step],
                   load: tuple[float, float], ref: tuple[float, float]) -> None:
    """Per kind: actions/s, latency, the server's CPU per action (all of it, and less
    what the server spends while nobody acts); their ratio, and whether it is beyond
    the noise (the spread of the phases of one kind)."""
    unit = min(ref)
    idle = next(s.server_cpu for s in steps if s.kind == "idle")
    played = [s for s in steps if s.kind != "idle"]
    print()
    print(f"== ordinary tables against tournament tables: {args.db}, {args.tables} + "
          f"{args.tables} Skat tables of three ({rules}, Preisskat, series of {args.series} "
          f"games, a new one when a series ends), one server process, --bot-delay 0 ==")
    print(f"note: {len(played)} phases of {args.seconds:g} s (after {args.warmup:g} s warm-up "
          f"each), one kind playing at {args.rate:g} actions/s per table while the other "
          f"waits; {os.cpu_count()} cores shared with the load generator; machine load "
          f"average {load[0]:.1f} before, {load[1]:.1f} after")
    print("pages     " + ("the players load no page but the tournament's (--api-only)"
                          if args.api_only else
                          "the players load the pages a browser loads: the lobby (who sets "
                          "up the next table), a table's page, the tournament's page, each "
                          "with what its scripts ask for at once"))
    print(f"idle      nobody acting, all {2 * args.tables} tables open: server CPU "
          f"{100 * idle:.1f}% of a core (taken off below: 'net')")
    figures: dict[str, tuple[float, float]] = {}
    spread = 0.0
    for kind in ("plain", "tournament"):
        mine = [s for s in played if s.kind == kind]
        gross, net = per_action(mine), per_action(mine, idle)
        figures[kind] = (gross, net)
        each = [per_action([s], idle) for s in mine]
        if len(each) > 1:
            spread = max(spread, (max(each) - min(each)) / (sum(each) / len(each)))
        slowest = [x for s in mine for x in s.slowest]
        label = f"{KIND_NAMES[kind]} tables:"
        print(f"{label:<19} {sum(s.actions_s for s in mine) / len(mine):.1f} actions/s "
              f"({sum(s.playing for s in mine) / len(mine):.1f} tables playing), p50 "
              f"{1000 * percentile(slowest, 50):.1f} ms, p99 "
              f"{1000 * percentile(slowest, 99):.1f} ms, server CPU {gross:.3f} ms/action, "
              f"net {net:.3f} ms/action = {net / unit:.3f} reference workloads (phases: "
              f"{', '.join(f'{x:.3f}' for x in each)} ms net)")
    ratio = figures["tournament"][1] / figures["plain"][1]
    if len(played) < 4:
        verdict = "one phase of each kind: no measure of the noise, run --phases 4 or more"
    elif abs(ratio - 1) <= spread:
        verdict = (f"the phases of one kind differ by up to {100 * spread:.0f} %: "
                   "within the noise")
    else:
        verdict = (f"the phases of one kind differ by up to {100 * spread:.0f} %: the "
                   f"tournament tables cost {'more' if ratio > 1 else 'less'}, beyond the "
                   "noise")
    print(f"ratio tournament/ordinary, server CPU per action: {ratio:.3f} net, "
          f"{figures['tournament'][0] / figures['plain'][0]:.3f} in all ({verdict}; the "
          f"reference workload took {ref[0]:.1f} ms before and {ref[1]:.1f} ms after)")

if __name__ == "__main__":
    main()
