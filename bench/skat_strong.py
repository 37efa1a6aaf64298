"""``strong`` against two ``heuristic`` bots on duplicate Skat deals.

Each seeded deal is played once per seat with ``strong`` in that seat and two
``heuristic`` bots, and once per seat with ``heuristic`` in that seat (the same deal and
the same random seed), so the luck of the cards cancels: the figure is the difference
in list points per game of the seat's bot, with a 95 % interval (normal approximation
over the deal-and-seat pairs).  Also: how often each declares and wins as declarer, and
``strong``'s decision time (median, p99).

Run: ``python bench/skat_strong.py [--deals N] [--seed S] [--budget SECONDS]``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from stich.bots import Bot, SkatHeuristicBot
from stich.bots.strong import SkatStrongBot
from stich.skat import SkatRules, SkatState


def play(deal_seed: int, seat: int, bot: Bot, other: Bot, rules: SkatRules,
         times: list[float] | None) -> tuple[int, bool, bool]:
    """(list points of ``seat``, whether it declared, whether it won as declarer)."""
    state = SkatState.new(rules, seed=deal_seed)
    rng = random.Random(deal_seed * 31 + seat)
    while not state.is_over:
        s = state.to_move
        b = bot if s == seat else other
        t0 = time.perf_counter()
        action = b.choose(state.view(s), rng)
        if s == seat and times is not None:
            times.append(time.perf_counter() - t0)
        state = state.apply(action)
    o = state.outcome()
    declared = o.kind == "game" and o.declarer == seat
    return o.scores[seat], declared, declared and o.won


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=0.3, help="strong's seconds per decision")
    ap.add_argument("--preset", default="lothar")
    args = ap.parse_args()
    rules = SkatRules.preset(args.preset)
    strong = SkatStrongBot(budget=args.budget)
    heur = SkatHeuristicBot()
    diffs: list[int] = []
    times: list[float] = []
    decl = {"strong": [0, 0], "heuristic": [0, 0]}
    t_start = time.perf_counter()
    for d in range(args.deals):
        deal_seed = args.seed * 100_003 + d
        for seat in range(3):
            s_pts, s_decl, s_won = play(deal_seed, seat, strong, heur, rules, times)
            h_pts, h_decl, h_won = play(deal_seed, seat, heur, heur, rules, None)
            diffs.append(s_pts - h_pts)
            decl["strong"][0] += s_decl
            decl["strong"][1] += s_won
            decl["heuristic"][0] += h_decl
            decl["heuristic"][1] += h_won
    n = len(diffs)
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.inf
    times.sort()
    print(f"{args.deals} deals x 3 seats ({args.preset}, strong budget {args.budget} s), "
          f"{time.perf_counter() - t_start:.0f} s")
    print(f"strong - heuristic, list points per game: {mean:+.1f} "
          f"(95 % interval {mean - half:+.1f} .. {mean + half:+.1f})")
    for name, (k, w) in decl.items():
        rate = f"{100 * w / k:.1f} %" if k else "-"
        print(f"{name}: declared {k} of {n} games, won {w} ({rate})")
    if times:
        p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
        print(f"strong decision time: median {1000 * statistics.median(times):.0f} ms, "
              f"p99 {1000 * p99:.0f} ms, max {1000 * times[-1]:.0f} ms "
              f"({len(times)} decisions)")


if __name__ == "__main__":
    main()
