"""Tests of the benchmarks (``bench/``): the scripts a reader runs start from the
repository root as ``python -m bench.<kind>.<name>`` and print their figures, and the
benchmarks' own logic (imported as ``bench.<kind>.<name>``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SPEED = ("baptisten_cost", "baptisten_playouts", "dds", "env_steps", "server_load",
         "server_setup", "server_start", "skat_playouts", "tournament_page")
"""Speed: figures of time and memory, compared with a reference measured in the same
run (OpenSpiel, a fixed workload, a target)."""

TUNING = ("baptisten_bid_model", "baptisten_inference", "baptisten_strong",
          "baptisten_strong_ab", "ohhell_ismcts", "ratings", "skat_giveups",
          "skat_inference", "skat_kontra", "skat_null", "skat_ramsch", "skat_strong",
          "skat_strong_ab")
"""Tuning: how strong the bots play and what their settings are worth (paired runs on
the same deals, with 95 % intervals), and how fast the ratings tell them apart."""

SOAK = ("server_abuse", "server_crash", "server_leaks", "server_outage")
"""Soak and correctness: the server's test scenarios, longer and at scale."""

KINDS = {"speed": SPEED, "tuning": TUNING, "soak": SOAK}


def module_of(name: str) -> str:
    """``bench.<kind>.<name>`` of a script."""
    kind = next(k for k, names in KINDS.items() if name in names)
    return f"bench.{kind}.{name}"


def command(name: str) -> list[str]:
    """How a reader starts the script ``name`` (from the repository root)."""
    return [sys.executable, "-m", module_of(name)]


def run(name: str, *args: str, timeout: float = 120) -> str:
    """The standard output of the script ``name`` run from the repository root with
    ``args``; a failure shows its output."""
    done = subprocess.run([*command(name), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, (f"exit status {done.returncode}\n{done.stdout}\n"
                                  f"{done.stderr}")
    return done.stdout

