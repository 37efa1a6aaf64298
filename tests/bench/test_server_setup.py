"""``python -m bench.speed.server_setup``: a short run sets up a few tables against a real
server and prints the server's CPU per request of each kind, per table, and in reference
workloads."""

from __future__ import annotations

import re

from . import run


def test_a_short_run_prints_the_cost_of_each_request_and_of_a_table() -> None:
    # ten tables: the CPU is counted in ticks of 10 ms, and three creates of about 3 ms
    # each sometimes took none (a CI run measured "create 0.0")
    out = run("server_setup", "--tables", "10", "--repeat", "1", timeout=300)
    assert re.search(r"load average \d+\.\d before, \d+\.\d after; reference workload "
                     r"\d+\.\d\d ms", out), out
    m = re.search(r"^round 1: server CPU ms per request: guest (\S+)  create (\S+)  join (\S+)"
                  r"  connect (\S+)  ->  one table (\S+) ms \((\S+) reference workloads\)$",
                  out, re.M)
    assert m, out
    guest, create, join, connect, table, ref = (float(x) for x in m.groups())
    assert min(guest, create, join, connect) > 0 and ref > 0
    assert abs(table - (4 * guest + create + 3 * join + 4 * connect)) < 0.2
