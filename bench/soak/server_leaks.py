"""Information hiding over real traffic, at scale: a monitor on every message sent to
every connection over thousands of games of both games.

A real ``stich serve`` (``--bot-delay 0``, SQLite in a temporary folder unless ``--db``
names a database) and tables played by clients over real WebSockets, several tables at a
time (``--parallel``): every person plays uniformly random legal actions from its own
view; each table has an anonymous spectator and one seated at another table; half of the
tables show spectators every hand.  Skat: presets lothar (Ramsch when all pass) and isko,
three persons or one person and two ``bot:easy``, six games a table.  Baptistenskat:
one game a table, 3 to 7 players, every variant (1 the double deck with the joker, 2
forehead, 3 trick scoring, 4 hook always, 5 must overtrump) and the decks elferraus,
skat and romme, ``max_cards`` 2 or 3.  Meanwhile every seat of an all-person table tries
to act for every other seat while that one holds its move, every table's creator acts at
every other table of its batch, spectators act at every seat's turn: all refused.

After each batch the monitor (``tests/server/monitor.py``) fetches the finished games'
records (``GET /api/users/{name}``, ``GET /api/games/{id}``) and the event logs, replays
them step by step, and checks every card code of every message against what its
receiver may know then.  Printed at the end: games per game type and variant, messages
and card tokens checked, leaks (must be 0), problems (must be 0), the refusals, and how
often Ouvert, Null, Hand, Ramsch, passed games and forehead rounds were played.  Exit
status 1 when anything leaked or went wrong.

Run: ``python -m bench.soak.server_leaks [--games N] [--parallel P] [--db URL] [--seed S]``.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import IO

from tests.server.harness import Server
from tests.server.monitor import Monitor, Names, Pool, Report, mix, run_batches


def _drain(server: Server, log: Path) -> None:
    """Copy the server's output into a file (an unread pipe would stall it)."""
    proc = server.proc
    assert proc is not None and proc.stdout is not None and proc.stderr is not None
    out = log.open("w", encoding="utf-8")
    lock = threading.Lock()

    def copy(stream: IO[str]) -> None:
        for line in stream:
            with lock:
                out.write(line)
                out.flush()

    for stream in (proc.stdout, proc.stderr):
        threading.Thread(target=copy, args=(stream,), daemon=True).start()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000,
                    help="games in all, about half Skat and half Baptistenskat")
    ap.add_argument("--parallel", type=int, default=12, help="tables played at once")
    ap.add_argument("--db", default=None, help="database URL (default: a new SQLite file)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stop the server on kill
    skat = max(3, args.games // 2 // 3 * 3)
    baptisten = max(1, args.games - skat)
    tables = mix(skat, baptisten, 6)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'leaks.db'}"
        server = Server(db, bot_delay=0.0)
        server.start()
        log = Path(tempfile.gettempdir()) / f"server_leaks-{server.port}.log"
        _drain(server, log)
        kind = db.split(":", 1)[0]
        print(f"server_leaks: {skat + baptisten} games ({skat} Skat, {baptisten} "
              f"Baptistenskat) at {len(tables)} tables, {args.parallel} at a time, on {kind} "
              f"(server log: {log})", flush=True)
        t0 = time.monotonic()

        def progress(rep: Report, done: int, total: int) -> None:
            games = rep.games["skat lothar"] + rep.games["skat isko"] + rep.games["baptisten"]
            print(f"  {done}/{total} tables, {games} games, {rep.messages} messages, "
                  f"{len(rep.leaks)} leaks, {time.monotonic() - t0:.0f} s", flush=True)

        async def go() -> tuple[Report, Counter[str]]:
            pool = Pool(server, args.parallel, Names())
            await pool.register()
            try:
                rep, outs = await run_batches(server, tables, Monitor(), pool, args.seed,
                                              progress=progress)
            finally:
                pool.close()
            refused: Counter[str] = Counter()
            for out in outs:
                refused.update(out.refused)
                refused["(reconnections)"] += out.reconnects
            return rep, refused

        try:
            rep, refused = asyncio.run(go())
        finally:
            server.stop()
    secs = time.monotonic() - t0
    games = rep.games["skat lothar"] + rep.games["skat isko"] + rep.games["baptisten"]
    print(f"\ngames: {games} ({rep.games['skat lothar'] + rep.games['skat isko']} Skat, "
          f"{rep.games['baptisten']} Baptistenskat) at {rep.tables} tables in {secs:.0f} s "
          f"({games / secs:.2f} games/s)")
    print("games per game type / variant:")
    for label, n in sorted(rep.games.items()):
        print(f"  {label:36} {n:6}")
    print("played:")
    for label, n in sorted(rep.seen.items()):
        print(f"  {label:36} {n:6}")
    print("refused (as they must be), and reconnections:")
    for code, n in sorted(refused.items()):
        print(f"  {code:36} {n:6}")
    print(f"actions replayed: {rep.actions}")
    print(f"messages checked: {rep.messages}")
    print(f"card tokens checked: {rep.card_tokens}")
    print(f"problems: {len(rep.problems)}")
    for p in rep.problems[:20]:
        print(f"  {p}")
    print(f"leaks: {len(rep.leaks)}")
    for leak in rep.leaks[:20]:
        print(f"  {leak}")
    return 1 if rep.leaks or rep.problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
