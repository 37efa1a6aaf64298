"""``python -m bench.soak.server_outage``: a short Redis outage under two workers prints how
soon every table moved again, with nobody's socket closed and no event lost."""

from __future__ import annotations

import re

from . import run


def test_a_short_outage_prints_the_recovery_times() -> None:
    out = run("server_outage", "--kinds", "redis-stop", "--outage", "3", "--watch", "15",
              timeout=300)
    m = re.search(r"^redis-stop run 1: outage 3 s; tables moving again after "
                  r"([\d., ]+) s; .* sockets closed by the server: (\d+); "
                  r"events lost/twice/not as stored: (\d+);", out, re.M)
    assert m, out
    times = [float(t) for t in m.group(1).split(", ")]
    assert len(times) == 3 and max(times) <= 10.0
    assert m.group(2) == "0" and m.group(3) == "0"
    assert re.search(r"slowest table after a return: median \d+\.\d\d s, most \d+\.\d\d s",
                     out), out
