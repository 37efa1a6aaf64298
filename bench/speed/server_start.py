"""How fast ``stich serve`` is ready: from starting the process to ``/api/health``
answering (issue 8 asks for "ready in under 2 s").

Measured, each as the median of ``--runs`` starts (a new process each time, SIGTERM in
between):

- on a new SQLite database (the migrations create the schema);
- on an existing database (the migration check finds it up to date);
- on an existing database with ``--live`` live tables (each with a person and two or
  three bots, the bots' first moves played);
- on a database of ``--heavy-tables`` live tables with ``--heavy-actions`` random actions
  played at each (written straight into the database): the server replays every live
  table when it starts (since "the live tables load after the start", after it answers).

Then where the time goes: the import of the server (``python -X importtime -c "import
stich.server.app"``, the heaviest modules by their cumulative and own import time), and
the whole ``stich serve`` import chain as the process sees it.

The clock starts just before ``subprocess.Popen`` and stops when a GET of
``/api/health`` returns 200 (polled every 10 ms).  Python's own start is included, and
so is the CPU time the process used until then (``/proc/PID/stat``), which other jobs on
the same cores disturb less than the wall clock (the load average is printed).  The
server runs as an installed package would: with its bytecode cached (in a temporary
``PYTHONPYCACHEPREFIX``, even when ``PYTHONDONTWRITEBYTECODE`` is set), after one
unmeasured start.

Run: ``python -m bench.speed.server_start [--runs 5] [--live 50] [--heavy-tables 200]
[--heavy-actions 400] [--top 15]``.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.measure import cpu_seconds

TARGET_S = 2.0


ENV = dict(os.environ)


def start(db: str, env: dict[str, str] | None = None
          ) -> tuple[float, float, subprocess.Popen[str], str]:
    """Start ``stich serve`` on ``db`` (with ``env`` in its environment): the seconds
    until /api/health answers, the CPU seconds the process used until then, the process
    and its address."""
    args = [sys.executable, "-m", "stich", "serve", "--port", "0", "--db", db,
            "--bot-delay", "0"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env=ENV | (env or {}))
    assert proc.stdout is not None
    line = proc.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    if not m:
        err = proc.stderr.read() if proc.stderr else ""
        raise RuntimeError(f"the server did not start: {line!r} {err}")
    url = f"http://127.0.0.1:{m.group(1)}"
    with httpx.Client(timeout=2) as client:
        while True:
            try:
                if client.get(url + "/api/health").status_code == 200:
                    return time.perf_counter() - t0, cpu_seconds(proc.pid), proc, url
            except httpx.HTTPError:
                pass
            if time.perf_counter() - t0 > 60:
                stop(proc)
                raise RuntimeError("the server did not answer within 60 s")
            time.sleep(0.01)


def stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def populate(url: str, tables: int) -> None:
    """Live tables: a guest with two bots at each, the bots' first moves played."""
    for i in range(tables):
        with httpx.Client(base_url=url, timeout=30) as c:
            c.post("/api/guest", json={"name": f"S{i}"}).raise_for_status()
            c.post("/api/tables", json={"game": "skat" if i % 2 else "baptisten",
                                        "seats": ["me", "bot:easy", "bot:random"]
                                        if i % 2 else ["me", "bot:easy", "bot:random",
                                                       "bot:easy"]}).raise_for_status()
    time.sleep(1.0)  # the bots move until it is a person's turn


def populate_heavy(url: str, tables: int, actions: int) -> int:
    """Live tables written straight into the database: half Skat, half Baptistenskat,
    each with ``actions`` random legal actions played (persons without accounts)."""
    import random
    import secrets

    from sqlalchemy import create_engine, insert

    from stich.server.sitting import Sitting, TableSettings
    from stich.server.store.db import migrate, now, sync_url
    from stich.server.store.models import EventRow, TableRow
    from stich.server.wire import table_status, table_summary

    migrate(url)
    rng = random.Random(8)
    rows: list[dict[str, object]] = []
    event_rows: list[dict[str, object]] = []
    for i in range(tables):
        skat = i % 2 == 0
        settings = TableSettings(game="skat" if skat else "baptisten",
                                 rules="skat(preset=lothar)" if skat
                                 else "baptisten(preset=default)",
                                 seats=("person",) * (3 if skat else 4),
                                 seed=rng.getrandbits(63), games=0 if skat else 1,
                                 grace=3600)
        s = Sitting(settings)
        for seat in range(s.n_seats):
            for ev in s.plan_sit(seat, f"H{i}x{seat}", None):
                s.apply(ev)
        for _ in range(actions):
            seat = s.to_move_seat()
            if seat is None:
                break
            text = str(rng.choice(list(s.view(seat).legal_actions)))
            for ev in s.plan_act(seat, text):
                s.apply(ev)
        table_id = secrets.token_hex(5)
        rows.append({"id": table_id, "game": settings.game, "rules": settings.rules,
                     "settings": settings.to_dict(), "invite": secrets.token_hex(8),
                     "public": True, "status": table_status(s), "created_by": None,
                     "created_at": now(), "seq": s.seq, "summary": table_summary(s)})
        event_rows += [{"table_id": table_id, "seq": ev.seq, "kind": ev.kind, "seat": ev.seat,
                        "data": ev.data, "created_at": now()} for ev in s.events]
    engine = create_engine(sync_url(url))
    with engine.begin() as conn:
        conn.execute(insert(TableRow), rows)
        conn.execute(insert(EventRow), event_rows)
    engine.dispose()
    return len(event_rows)


def import_profile(top: int) -> list[tuple[float, float, str]]:
    """(cumulative ms, own ms, module) of ``import stich.server.app``, heaviest first."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import stich.server.app"],
                         capture_output=True, text=True, check=True, env=ENV).stderr
    rows = []
    for line in out.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
        if m:
            rows.append((int(m.group(2)) / 1000, int(m.group(1)) / 1000, m.group(4)))
    total = next((r for r in rows if r[2] == "stich.server.app"), None)
    rows.sort(reverse=True)
    return ([total] if total else []) + [r for r in rows if r is not total][:top]


def import_seconds(module: str, runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of a new process that imports ``module``."""
    walls, cpus = [], []
    for _ in range(runs):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import {module}"], check=True, env=ENV)
        walls.append(time.perf_counter() - t0)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--live", type=int, default=50, help="live tables for the third case")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--heavy-tables", type=int, default=200,
                    help="live tables of the fourth case (written straight into the database)")
    ap.add_argument("--heavy-actions", type=int, default=400,
                    help="actions played at each of those tables")
    args = ap.parse_args()
    load0 = os.getloadavg()[0]
    cases: dict[str, tuple[list[float], list[float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        # as an installed package runs: bytecode cached (here in a folder of its own,
        # also when PYTHONDONTWRITEBYTECODE is set), after one warm-up start
        ENV.pop("PYTHONDONTWRITEBYTECODE", None)
        ENV["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        _, _, proc, _ = start(f"sqlite:///{Path(tmp) / 'warm.db'}")
        stop(proc)
        new: tuple[list[float], list[float]] = ([], [])
        existing: tuple[list[float], list[float]] = ([], [])
        live: tuple[list[float], list[float]] = ([], [])
        for i in range(args.runs):
            db = f"sqlite:///{Path(tmp) / f'new{i}.db'}"
            for case in (new, existing):
                took, cpu, proc, _ = start(db)
                stop(proc)
                case[0].append(took)
                case[1].append(cpu)
        db = f"sqlite:///{Path(tmp) / 'live.db'}"
        _, _, proc, url = start(db)
        try:
            populate(url, args.live)
        finally:
            stop(proc)
        for _ in range(args.runs):
            took, cpu, proc, url = start(db)
            stop(proc)
            live[0].append(took)
            live[1].append(cpu)
        heavy_db = f"sqlite:///{Path(tmp) / 'heavy.db'}"
        n_events = populate_heavy(heavy_db, args.heavy_tables, args.heavy_actions)
        heavy: tuple[list[float], list[float]] = ([], [])
        for _ in range(args.runs):
            took, cpu, proc, url = start(heavy_db)
            stop(proc)
            heavy[0].append(took)
            heavy[1].append(cpu)
        cases = {"ready, new SQLite database:": new, "ready, existing database:": existing,
                 f"ready, existing database, {args.live} live tables:": live,
                 f"ready, {args.heavy_tables} live tables, {n_events} events:": heavy}
        imports = {m: import_seconds(m, args.runs) for m in
                   ("sys", "stich", "stich.server.app", "stich.server.main")}
        profile = import_profile(args.top)
    load1 = os.getloadavg()[0]

    print()
    print("== stich serve: from the start of the process to /api/health answering ==")
    print(f"note: {os.cpu_count()} cores, machine load average {load0:.1f} before, "
          f"{load1:.1f} after (other jobs slow the wall-clock figures down; the CPU "
          f"seconds the process used are less sensitive to that)")
    print("import time (python -X importtime -c 'import stich.server.app'), ms "
          "cumulative / own:")
    for cum, own, name in profile:
        print(f"  {cum:7.0f} {own:6.0f}  {name}")
    print("a new process importing (median wall / CPU): "
          + ", ".join(f"{'nothing' if m == 'sys' else m} {1000 * w:.0f}/{1000 * c:.0f} ms"
                      for m, (w, c) in imports.items()))
    for label, (walls, cpus) in cases.items():
        med = statistics.median(walls)
        ok = "met" if med < TARGET_S else "NOT met"
        print(f"{label:<43} median {med:5.2f} s (min {min(walls):.2f}, max "
              f"{max(walls):.2f}; CPU {statistics.median(cpus):.2f} s; {len(walls)} runs; "
              f"under {TARGET_S:g} s: {ok})")


if __name__ == "__main__":
    main()
