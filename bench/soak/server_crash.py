"""Crash safety of `stich serve` under many kills: ``kill -9`` at random moments.

The run of ``tests/server/test_crash.py`` with many more kills: bots-only tables (at
least two running at every kill, each watched by a spectator socket) and a table where a
client plays a seat; the server is killed at a random moment (0.3 to 2 s apart) and
started again on the same database and port; the sockets reconnect.  At the end every
table is played to its end, and checked:

- every event a socket received is stored with the same content (the stored log renders
  exactly the message that was sent, view included), and each socket saw its events in
  order without gaps;
- every finished game's record replays with ``stich.record.verify`` to its result, its
  players agree with the table's list, and the list equals the one recomputed from the
  records.

Printed at the end: kills, events checked, games finished, mismatches (must be 0), and
the restart time (kill to ``/api/health`` answering) median and maximum.

Run: ``python -m bench.soak.server_crash [--kills N] [--db sqlite|postgresql] [--seed S]``
(PostgreSQL: a fresh database on ``$STICH_TEST_PG``, default
postgresql://postgres@127.0.0.1:5432/test, or on a throwaway server when none answers
there, see ``tests/services.py``; it is dropped afterwards).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tests.server.harness import Server, database
from tests.server.test_crash import BOT_DELAY, START, crash_run, shut_down


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kills", type=int, default=100, help="kill -9 this often (100)")
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--seed", type=int, default=None, help="seed of the kill moments")
    ap.add_argument("--bot-tables", type=int, default=2,
                    help="bots-only tables running at every kill (2)")
    ap.add_argument("--games", type=int, default=6, help="Skat games per table (6)")
    args = ap.parse_args()
    seed = random.randrange(2**32) if args.seed is None else args.seed
    print(f"server crash: {args.kills} kills on {args.db}, seed {seed}", flush=True)

    def progress(n: int, took: float) -> None:
        if n % 10 == 0 or n == args.kills:
            print(f"  {n} kills, last restart {took:.2f} s", flush=True)

    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp, database(args.db, Path(tmp)) as url:
        server = Server(url, bot_delay=BOT_DELAY)
        server.start(START)
        try:
            figs = asyncio.run(crash_run(server, url, args.kills, random.Random(seed),
                                         bot_tables=args.bot_tables, games=args.games,
                                         progress=progress))
        finally:
            shut_down(server)
    for p in figs.problems[:20]:
        print("  MISMATCH", p)
    r = figs.restarts
    print(f"db: {args.db}  seed: {seed}  wall time: {time.monotonic() - t0:.0f} s")
    print(f"kills: {figs.kills} (while tables were running: {figs.kills_while_running})")
    print(f"tables: {figs.tables}  reconnects: {figs.reconnects}")
    print(f"events checked: {figs.events_checked}")
    print(f"games finished: {figs.games_finished}")
    print(f"mismatches: {len(figs.problems)}")
    if r:
        print(f"restart time: median {statistics.median(r):.2f} s, max {max(r):.2f} s")
    return 1 if figs.problems else 0


if __name__ == "__main__":
    sys.exit(main())
