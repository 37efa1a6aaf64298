"""``bench/server_outage.py``: a short Redis outage under two workers prints how soon
every table moved again, with nobody's socket closed and no event lost."""

from __future__ import annotations

import re
import subprocess
import sys

from . import BENCH_DIR


def test_a_short_outage_prints_the_recovery_times() -> None:
    out = subprocess.run([sys.executable, str(BENCH_DIR / "server_outage.py"), "--kinds",
                          "redis-stop", "--outage", "3", "--watch", "15"],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    m = re.search(r"^redis-stop run 1: outage 3 s; tables moving again after "
                  r"([\d., ]+) s; .* sockets closed by the server: (\d+); "
                  r"events lost/twice/not as stored: (\d+);", out, re.M)
    assert m, out
    times = [float(t) for t in m.group(1).split(", ")]
    assert len(times) == 3 and max(times) <= 10.0
    assert m.group(2) == "0" and m.group(3) == "0"
    assert re.search(r"slowest table after a return: median \d+\.\d\d s, most \d+\.\d\d s",
                     out), out
