"""Uniformly random full Skat games through the public API: games per second.

Each game: a seeded deal, the auction, Hand or pick-up and discard, the declaration,
card play and scoring (``outcome()``), all under the ``lothar`` rules, every decision a
uniform choice among ``legal_actions()``.

When ``open_spiel`` (PyPI ``open-spiel``) is installed, OpenSpiel's ``skat`` is played
the same way from Python in the same run (chance nodes sampled from
``chance_outcomes()``, player nodes uniform over ``legal_actions()``, then
``returns()``), interleaved with ours in rounds so that both see the same machine load.
The last line is then ``stich/openspiel games per second ratio: R``.

Run: ``python bench/skat_playouts.py [--seconds S] [--rounds K]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

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


def openspiel_games(seconds: float, rng: random.Random) -> int:
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("skat")
    choice = rng.choice
    n = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(20):
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_action(choice(s.chance_outcomes())[0])
                else:
                    s.apply_action(choice(s.legal_actions()))
            s.returns()
            n += 1
    return n


def measure(fn: Callable[[float, random.Random], int], seconds: float,
            rng: random.Random) -> tuple[int, float]:
    t0 = time.perf_counter()
    n = fn(seconds, rng)
    return n, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds per round and engine")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: F401

        have_os = True
    except ImportError:
        have_os = False
        print("open_spiel not installed: measuring stich only (pip install open-spiel)")
    rng = random.Random(args.seed)
    totals = {"stich": [0, 0.0], "openspiel": [0, 0.0]}
    for r in range(args.rounds):
        engines = [("stich", stich_games)]
        if have_os:
            engines.append(("openspiel", openspiel_games))
        if r % 2:
            engines.reverse()
        for name, fn in engines:
            n, el = measure(fn, args.seconds, rng)
            totals[name][0] += n
            totals[name][1] += el
    s_rate = totals["stich"][0] / totals["stich"][1]
    print(f"stich skat (lothar): {totals['stich'][0]} games, {s_rate:,.0f} games per second")
    if have_os:
        o_rate = totals["openspiel"][0] / totals["openspiel"][1]
        print(f"openspiel skat: {totals['openspiel'][0]} games, {o_rate:,.0f} games per second")
        print(f"stich/openspiel games per second ratio: {s_rate / o_rate:.2f}")


if __name__ == "__main__":
    main()
