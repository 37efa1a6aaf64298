"""Uniformly random full Skat games through the public API: games per second.

Each game: a seeded deal, the auction, Hand or pick-up and discard, the declaration,
card play and scoring (``outcome()``), all under the ``lothar`` rules, every decision a
uniform choice among ``legal_actions()``.

When ``open_spiel`` (PyPI ``open-spiel``) is installed, OpenSpiel's ``skat`` is played
the same way from Python in the same run (chance nodes sampled from
``chance_outcomes()``, player nodes uniform over ``legal_actions()``, then
``returns()``), interleaved with ours in rounds so that both see the same machine load.
The last line is then ``stich/openspiel games per second ratio: R``.

Run: ``python -m bench.speed.skat_playouts [--seconds S] [--rounds K]``.
"""

from __future__ import annotations

import argparse
import random
import time

from bench.engines import have_openspiel, interleave, openspiel_engine, rate
from stich.skat import SkatRules, SkatState


def stich_games(seconds: float, rng: random.Random) -> int:
    rules = SkatRules.preset("lothar")
    choice = rng.choice
    n = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(20):
            s = SkatState.new(rules, rng=rng)
            while not s.is_over:
                s = s.apply(choice(s.legal_actions()))
            s.outcome()
            n += 1
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds per round and engine")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    engines = [("stich", stich_games)]
    have_os = have_openspiel()
    if have_os:
        engines.append(("openspiel", openspiel_engine("skat")))
    totals = interleave(engines, args.seconds, args.rounds, random.Random(args.seed))
    s_rate = rate(totals["stich"])
    print(f"stich skat (lothar): {totals['stich'][0]} games, {s_rate:,.0f} games per second")
    if have_os:
        o_rate = rate(totals["openspiel"])
        print(f"openspiel skat: {totals['openspiel'][0]} games, {o_rate:,.0f} games per second")
        print(f"stich/openspiel games per second ratio: {s_rate / o_rate:.2f}")


if __name__ == "__main__":
    main()
