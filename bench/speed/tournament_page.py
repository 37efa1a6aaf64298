"""The tournament page's cost per request on the server: the page and its look when the
tournament did not change, and when it just changed (a series ended: the players of that
table open the page at the same moment, as the load benchmark's comparison of tournament
tables shows in the phase where a round's series end).

A real ``stich serve`` on a fresh SQLite database: a tournament of ``--players`` guests
(tables of three), round 1 started and played out by bots (the organiser replaces every
player, so the standings have every row and the round every table).
Then, in turns of ``--waves`` each:

- *quiet*: three players each load the page and look (``/api/tournaments/{id}``), the
  tournament unchanged;
- *changed*: the tournament is changed first (its version counted up in the database,
  as another worker's write does), then the same three pages and looks: the first
  reads the tournament whole and makes what every viewer sees alike;
- *ended*: in a second tournament of the same players, whose first round runs, a
  table's series ends (the organiser replaces its three players, the bots play the
  series out), then its three players each load the page and look: the first of them
  finds the table done, writes it so, reads the tournament and makes the standings
  anew (at most ``--players / 3 - 1`` such waves in all).

Measured: the server process's CPU (``/proc/PID/stat``) per wave, the median of
``--repeat`` turns.  With ``--against DIR`` a second server runs the source tree in
``DIR`` (``DIR/src`` first on its ``PYTHONPATH``, e.g. a ``git worktree`` of an older
commit) on its own database with the same tournament; the two are asked in turns, and
the ratio this tree / ``DIR`` is printed per kind (the machine's noise falls on both).

Run: ``python -m bench.speed.tournament_page [--players 75] [--waves 20] [--repeat 5]
[--against DIR]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from bench.measure import cpu_seconds
from bench.speed.server_start import start, stop

VIEWERS = 3  # the players of a table whose series ended
KINDS = {False: "quiet", True: "changed"}


def _ok(r: httpx.Response) -> dict[str, Any]:
    if r.status_code != 200:
        raise RuntimeError(f"{r.status_code}: {r.text[:300]}")
    got = r.json()
    assert isinstance(got, dict)
    return got


def _look_in(people: list[httpx.Client], tid: str) -> None:
    """Each of ``people`` loads the tournament's page and looks once."""
    for p in people:
        r = p.get(f"/tournaments/{tid}")
        if r.status_code != 200:
            raise RuntimeError(f"page: {r.status_code}")
        _ok(p.get(f"/api/tournaments/{tid}"))


LIMITS = ("guests_per_hour=1000000,registrations_per_hour=1000000,"
          "tournaments_per_hour=1000000,account_open_tournaments=1000000,"
          "tournament_actions_per_min=1000000")
"""The site's limits for the benchmark (one address makes all its guests)."""


class Site:
    """One server with its tournament, set up as the module's text says."""

    def __init__(self, tmp: Path, name: str, players: int, tree: str | None) -> None:
        env = {"STICH_LIMITS": LIMITS}
        if tree is not None:
            env["PYTHONPATH"] = f"{Path(tree).resolve() / 'src'}{os.pathsep}" \
                                + os.environ.get("PYTHONPATH", "")
        self.db = f"sqlite:///{tmp / (name + '.db')}"
        _, _, self.proc, url = start(self.db, env)
        self.pid = self.proc.pid
        org = self.org = httpx.Client(base_url=url, timeout=30)
        _ok(org.post("/api/register", json={"name": f"Org{name}", "password": "geheim123"}))
        t = _ok(org.post("/api/tournaments", json={
            "name": f"Bench {name}", "games_three": 3, "games_four": 4, "clock": 0,
            "next_after": 0, "bots": True, "bot_level": "random", "rounds": 3}))
        self.tid = str(t["tournament"]["id"])
        t = _ok(org.post("/api/tournaments", json={
            "name": f"Running {name}", "games_three": 3, "games_four": 4, "clock": 0,
            "next_after": 0, "bots": True, "bot_level": "random", "rounds": 3}))
        self.rid = str(t["tournament"]["id"])  # its first round runs (the "ended" waves)
        self.people = []
        by_name = {}
        for i in range(players):
            c = httpx.Client(base_url=url, timeout=30)
            _ok(c.post("/api/guest", json={"name": f"G{name}{i}"}))
            for tid in (self.tid, self.rid):
                _ok(c.post(f"/api/tournaments/{tid}/register", json={}))
            self.people.append(c)
            by_name[f"G{name}{i}"] = c
        running = _ok(org.post(f"/api/tournaments/{self.rid}/start"))["tournament"]
        ids = {p["name"]: p["id"] for p in running["players"]}
        # per table of the running round: its id, and its players' accounts and clients
        self.tables = [(x["link"].rsplit("/", 1)[-1], [ids[s["name"]] for s in x["seats"]],
                        [by_name[s["name"]] for s in x["seats"]])
                       for x in running["rounds_played"][0]["tables"]][:-1]
        shown = _ok(org.post(f"/api/tournaments/{self.tid}/start"))["tournament"]
        for p in shown["players"]:
            _ok(org.post(f"/api/tournaments/{self.tid}/replace", json={"user": p["id"]}))
        end = time.monotonic() + 300
        while _ok(org.get(f"/api/tournaments/{self.tid}"))["tournament"]["status"] != "between":
            if time.monotonic() > end:
                raise RuntimeError("round 1 did not end")
            time.sleep(0.5)
        self.engine = sa.create_engine(self.db)

    def wave(self, change: bool) -> None:
        if change:
            with self.engine.begin() as conn:
                conn.execute(sa.text("UPDATE tournaments SET version = version + 1 "
                                     "WHERE id = :id"), {"id": self.tid})
        _look_in(self.people[:VIEWERS], self.tid)

    def ended(self) -> float:
        """A series ends at a table of the running round (the organiser replaces its
        players, and the bots play it out): server CPU ms of its players' pages and
        looks right after (their tournament as read has changed, and the first of them
        finds the table done and writes it so)."""
        table_id, users, clients = self.tables.pop(0)
        for user in users:
            _ok(self.org.post(f"/api/tournaments/{self.rid}/replace", json={"user": user}))
        end = time.monotonic() + 60
        q = sa.text("SELECT count(*) FROM games WHERE table_id = :t")
        while True:
            with self.engine.connect() as conn:
                if conn.execute(q, {"t": table_id}).scalar_one() >= 3:
                    break
            if time.monotonic() > end:
                raise RuntimeError("the bots did not play the series out")
            time.sleep(0.05)
        time.sleep(0.5)  # the table's last events written
        c0 = cpu_seconds(self.pid)
        _look_in(clients, self.rid)
        return 1000 * (cpu_seconds(self.pid) - c0)

    def cost(self, change: bool, waves: int) -> float:
        """Server CPU ms per wave."""
        c0 = cpu_seconds(self.pid)
        for _ in range(waves):
            self.wave(change)
        return 1000 * (cpu_seconds(self.pid) - c0) / waves

    def close(self) -> None:
        for c in (self.org, *self.people):
            c.close()
        self.engine.dispose()
        stop(self.proc)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=75,
                    help="the tournament's players (a multiple of 3)")
    ap.add_argument("--waves", type=int, default=20, help="waves of each kind in a turn")
    ap.add_argument("--repeat", type=int, default=5, help="turns (the median is shown)")
    ap.add_argument("--against", default=None,
                    help="another source tree (DIR/src) to compare with, asked in turns")
    args = ap.parse_args()
    if args.players < 6 or args.players % 3:
        raise SystemExit("--players: a multiple of 3, at least 6")
    with tempfile.TemporaryDirectory() as tmp:
        sites = {"this": Site(Path(tmp), "A", args.players, None)}
        if args.against:
            sites["against"] = Site(Path(tmp), "B", args.players, args.against)
        try:
            got: dict[tuple[str, str], list[float]] = {}
            for s in sites.values():  # warm: the first page of a process
                s.wave(True)
            ended = max(1, (args.players // 3 - 1) // args.repeat)
            for _ in range(args.repeat):
                for change in (False, True):
                    for name, s in sites.items():
                        got.setdefault((name, KINDS[change]), []).append(
                            s.cost(change, args.waves))
                for name, s in sites.items():
                    got.setdefault((name, "ended"), []).append(
                        statistics.mean(s.ended() for _ in range(ended)))
        finally:
            for s in sites.values():
                s.close()
    print(f"== the tournament page: {args.players} players, round 1 played; "
          f"a wave = {VIEWERS} pages + {VIEWERS} looks; server CPU per wave, "
          f"median of {args.repeat} x {args.waves} waves ==")
    for kind in ("quiet", "changed", "ended"):
        mine = statistics.median(got[("this", kind)])
        line = f"{kind:<8} this tree {mine:6.2f} ms"
        if args.against:
            theirs = statistics.median(got[("against", kind)])
            line += f"   {args.against}: {theirs:6.2f} ms   ratio {mine / theirs:.3f}"
        print(line)


if __name__ == "__main__":
    main()
