"""Uniformly random Baptistenskat games and ``ohhell`` rounds through the public API.

Two measurements, every decision a uniform choice among ``legal_actions()``:

- whole games of Baptistenskat with the default table (4 players, N = 10, Elfer raus:
  19 rounds with bids, stakes and the mandatory 40s), ending with ``outcome()``;
- single rounds of the ``ohhell`` preset with 4 players, the number of tricks drawn
  uniformly from 1 … 12 and the first player (the one after the dealer) uniformly, as
  OpenSpiel's chance nodes do, each dealt from a seeded shuffle.

When ``open_spiel`` (PyPI ``open-spiel``) is installed, OpenSpiel's
``oh_hell(players=4)`` is played the same way from Python in the same run (chance nodes
sampled from ``chance_outcomes()``, player nodes uniform over ``legal_actions()``, then
``returns()``), interleaved with ours in rounds so that both see the same machine load.
The last line is then ``stich/openspiel games per second ratio: R`` (``ohhell`` rounds
against ``oh_hell`` games).

Run: ``python -m bench.speed.baptisten_playouts [--seconds S] [--rounds K]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time

from bench.engines import have_openspiel, interleave, openspiel_engine, rate
from stich.baptisten import BaptistenRules, BaptistenState

PLAYERS = 4
MAX_TRICKS = (52 - 1) // PLAYERS  # OpenSpiel deals 1 … 12 tricks to 4 players


def whole_games(seconds: float, rng: random.Random) -> int:
    rules = BaptistenRules(players=PLAYERS, max_cards=10)
    choice = rng.choice
    n = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(2):
            s = BaptistenState.new(rules, rng=rng)
            while not s.is_over:
                s = s.apply(choice(s.legal_actions()))
            s.outcome()
            n += 1
    return n


def ohhell_rounds(seconds: float, rng: random.Random) -> int:
    base = BaptistenRules.preset("ohhell")
    rules = [dataclasses.replace(base, players=PLAYERS, max_cards=k)
             for k in range(1, MAX_TRICKS + 1)]
    choice = rng.choice
    randrange = rng.randrange
    n = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(20):
            s = BaptistenState.new(choice(rules), rng=rng, first=randrange(PLAYERS))
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
    engines = [("whole", whole_games), ("ohhell", ohhell_rounds)]
    have_os = have_openspiel()
    if have_os:
        engines.append(("openspiel", openspiel_engine("oh_hell", {"players": PLAYERS})))
    totals = interleave(engines, args.seconds, args.rounds, random.Random(args.seed))
    w_rate, s_rate = rate(totals["whole"]), rate(totals["ohhell"])
    print(f"stich baptisten (4 players, N=10, elferraus, whole games): "
          f"{totals['whole'][0]} games, {w_rate:,.1f} games per second")
    print(f"stich ohhell (4 players, 1..{MAX_TRICKS} tricks, single rounds): "
          f"{totals['ohhell'][0]} games, {s_rate:,.0f} games per second")
    if have_os:
        o_rate = rate(totals["openspiel"])
        print(f"openspiel oh_hell (players=4): {totals['openspiel'][0]} games, "
              f"{o_rate:,.0f} games per second")
        print(f"stich/openspiel games per second ratio: {s_rate / o_rate:.2f}")


if __name__ == "__main__":
    main()
