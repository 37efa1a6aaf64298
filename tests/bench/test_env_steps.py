"""``python -m bench.speed.env_steps``: a short run prints steps per second of every
engine (Skat's fast path and its adapters' loop), the load average, and the ratios
against OpenSpiel."""

from __future__ import annotations

import re

from . import run


def test_a_short_run_prints_the_rates_and_ratios() -> None:
    out = run("env_steps", "--seconds", "0.2", "--rounds", "1", "--batch", "4", timeout=300)
    assert re.search(r"load average before \d+\.\d\d, after \d+\.\d\d", out), out
    for name in ("stich skat", "stich skat loop", "openspiel skat", "stich baptisten",
                 "openspiel oh_hell"):
        m = re.search(rf"^{name} +([\d,]+) steps/s$", out, re.M)
        assert m and int(m.group(1).replace(",", "")) > 0, out
    ratios = re.findall(r"^ratio .*: (\d+\.\d\d) \(target ≥ 1\.5\)$", out, re.M)
    assert len(ratios) == 2 and all(float(r) > 0 for r in ratios), out
    # the adapters' loop, beside the fast path (no target of its own)
    assert re.search(r"^ratio stich skat loop / openspiel skat: \d+\.\d\d$", out, re.M), out
