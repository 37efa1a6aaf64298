"""Outages under `stich serve` (issue 39): how long after the database or Redis comes
back until every table moves again and ``/api/health`` says 200.

The scenario of ``tests/server/test_outage.py`` (``tests/server/outage.py``), with
outages as long as asked: PostgreSQL stopped (``pg-stop``, a fast shutdown) and killed
(``pg-kill``, -9 of the postmaster) under two workers, Redis stopped under two workers
(``redis-stop``), SQLite on a full disk (``sqlite-full``, root only: a tmpfs).  A person
plays against two bots and two tables of bots alone are watched; each service is a
throwaway one of the run's own.

Printed per scenario and run: the seconds from the service's return to each table's next
event (nobody does anything; the person's table: her next try taken), to the health
check's 200, what the person was told when she acted during the outage, the sockets the
server closed (must be none), events lost, twice or not as stored (must be none), and the
log lines the outage wrote.

Run: ``python -m bench.soak.server_outage [--kinds pg-stop,pg-kill,redis-stop,sqlite-full]
[--outage 20] [--runs 1]``
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from tests import services
from tests.server.outage import KINDS, run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--outage", type=float, default=20.0, help="seconds away")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--watch", type=float, default=30.0,
                    help="seconds to wait for the tables after the return")
    args = ap.parse_args()
    worst: list[float] = []
    try:
        for kind in args.kinds.split(","):
            for n in range(args.runs):
                with tempfile.TemporaryDirectory() as tmp:
                    try:
                        rep = run(kind, Path(tmp), outage=args.outage, watch=args.watch)
                    except services.ServiceMissing as exc:
                        print(f"{kind}: skipped: {exc}")
                        break
                times = [t for t in rep.recovery.values() if t is not None]
                stuck = sum(1 for t in rep.recovery.values() if t is None)
                worst.append(max(times, default=float("nan")))
                told = [m.get("code") or m["type"] for m in rep.acted if m["type"] != "pong"]
                lines = [line.split(" ", 1)[1].strip() for line in rep.log
                         if " stich." in line][:6]
                print(f"{kind} run {n + 1}: outage {args.outage:.0f} s; tables moving again "
                      f"after {', '.join(f'{t:.2f}' for t in sorted(times))} s"
                      f"{f' ({stuck} NEVER)' if stuck else ''}; health 200 after "
                      f"{rep.health_back if rep.health_back is not None else 'NEVER'} s; "
                      f"the person was told {told or 'nothing'}, ping answered: "
                      f"{rep.ping_answered}; sockets closed by the server: "
                      f"{sum(1 for c in rep.closed.values() if c is not None)}; "
                      f"events lost/twice/not as stored: {len(rep.problems)}; "
                      f"log lines: {len(rep.log)}")
                for line in lines:
                    print(f"    {line}")
        if worst:
            print(f"slowest table after a return: median {statistics.median(worst):.2f} s, "
                  f"most {max(worst):.2f} s")
    finally:
        services.stop_all()


if __name__ == "__main__":
    main()
