"""Measuring a server process from outside: its CPU and memory from ``/proc``,
nearest-rank percentiles of latencies, and the fixed reference workload that makes CPU
figures compare between machines (``bench.speed.server_load``, ``server_setup``,
``server_start``; ``bench.soak.server_abuse``).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100); NaN for no values."""
    if not values:
        return float("nan")
    s = sorted(values)
    k = max(0, min(len(s) - 1, math.ceil(q / 100 * len(s)) - 1))
    return s[k]


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of a process, in kB."""
    out: dict[str, int] = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(rest.split()[0])
    return out


def renice(pid: int, nice: int) -> None:
    """Every thread of a process (later threads inherit it from the main thread)."""
    for task in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(ProcessLookupError):
            os.setpriority(os.PRIO_PROCESS, int(task), nice)


def reference_ms() -> float:
    """The time of a fixed pure-Python workload (stdlib JSON, sorting, arithmetic; the
    best of 25 runs, in ms): the server's CPU per action divided by it compares
    machines of different speed.  It depends on nothing of stich's."""
    data = {f"k{i}": [i, str(i) * 3, {"x": i * 0.5, "y": [i, i + 1]}] for i in range(300)}
    best = math.inf
    for _ in range(25):  # the best of many short runs: the machine's own speed
        t0 = time.perf_counter()
        for _ in range(4):
            text = json.dumps(data)
            json.loads(text)
            sorted(data, key=lambda k: (len(k), k[::-1]))
            sum(i * i % 7 for i in range(5000))
        best = min(best, time.perf_counter() - t0)
    return 1000 * best


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (its own threads, not its children)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
