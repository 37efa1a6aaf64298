"""Two settings of Baptistenskat's ``strong`` against each other, paired on the same deals.

A setting is a JSON object of module constants of ``stich.bots.baptisten_strong`` (``{}``:
the defaults) and optionally ``"worlds"`` (per decision, else ``--worlds``), e.g.
``'{"WEIGHTED_WORLDS": false, "BID_SIGMA": [0.8, 0.12], "BID_FLOOR": 0, "STAKE_EVEN":
null}'`` (the bot before 2026-12).  Each deal (a whole game) is played once per
seat with ``strong`` in that seat and ``easy`` in the others, under A and under B; the
``easy`` seats draw from the same random sources under both, so the games differ only
by ``strong``'s decisions.  The bot samples a fixed number of worlds per decision with a
clock that does not move, so the result does not depend on the machine's load.

Prints B − A in points per game (paired per deal; 95 % interval), both bid accuracies
and their paired difference in percentage points.

Run: ``python -m bench.tuning.baptisten_strong_ab --a '{...}' --b '{}' [--deals 30]
[--worlds 12] [--players 4] [--max-cards 10] [--rules default] [--seed 1] [--jobs 2]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import stich.bots.baptisten_strong as mod
from bench.settings import apply_setting, constants, frozen, setting
from stich.arena import BID_BUCKETS, match_deal_seed
from stich.baptisten import BaptistenRules, BaptistenState, draw_first_player
from stich.bots.baptisten import BaptistenHeuristicBot
from stich.games.played import bucket_rows, interval

DEFAULTS = constants(mod)


Result = tuple[int, int, int, list[tuple[float, bool]]]


def play(rules: BaptistenRules, seed: int, seat: int, worlds: int,
         over: dict[str, Any]) -> Result:
    """(the seat's total, rounds, exact rounds, (chance, exact) per bid) of one whole
    game."""
    apply_setting(mod, DEFAULTS, over)
    worlds = over.get("worlds", worlds)
    master = random.Random(seed)
    first, _ = draw_first_player(rules, master)
    state = BaptistenState.new(rules, seed=master.getrandbits(64), first=first)
    bot = mod.BaptistenStrongBot(min_worlds=worlds, max_worlds=worlds, timer=frozen)
    easy = BaptistenHeuristicBot()
    rngs = [random.Random(f"ab {seed} {seat} {s}") for s in range(rules.players)]
    while not state.is_over:
        s = state.to_move
        view = state.view(s)
        state = state.apply((bot if s == seat else easy).choose(view, rngs[s]))
    hits = [row.bids[seat] == row.tricks[seat] for row in state.sheet]
    chances = [(p, hit) for p, hit in zip(bot.estimates, hits, strict=True) if p is not None]
    return state.totals[seat], len(state.sheet), sum(hits), chances


Job = tuple[str, int, int, dict[str, Any], dict[str, Any]]


def one_deal(job: Job) -> list[tuple[Result, Result]]:
    rules_text, seed, worlds, a, b = job
    rules = BaptistenRules.parse(rules_text)
    return [(play(rules, seed, seat, worlds, a), play(rules, seed, seat, worlds, b))
            for seat in range(rules.players)]


def _interval(xs: list[float]) -> str:
    i = interval(xs)
    return f"{i.mean:+.2f} (95 % interval {i.low:+.2f} .. {i.high:+.2f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", default="{}", help="setting A (JSON), the reference")
    ap.add_argument("--b", default="{}", help="setting B (JSON)")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--worlds", type=int, default=12)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--max-cards", type=int, default=10)
    ap.add_argument("--rules", default="default", help="a preset (default, ohhell, …)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    a, b = setting(args.a, mod, DEFAULTS), setting(args.b, mod, DEFAULTS)
    rules = dataclasses.replace(BaptistenRules.preset(args.rules), players=args.players,
                                max_cards=args.max_cards)
    t0 = time.perf_counter()
    jobs: list[Job] = [(str(rules), match_deal_seed(args.seed, d), args.worlds, a, b)
                       for d in range(args.deals)]
    points: list[float] = []
    accuracy: list[float] = []
    tally = {"A": [0, 0, 0], "B": [0, 0, 0]}
    chances: dict[str, list[tuple[float, bool]]] = {"A": [], "B": []}
    with ProcessPoolExecutor(args.jobs) as pool:
        for rows in pool.map(one_deal, jobs):
            points.append(statistics.fmean(rb[0] - ra[0] for ra, rb in rows))
            accuracy.append(100 * statistics.fmean(rb[2] / rb[1] - ra[2] / ra[1]
                                                   for ra, rb in rows))
            for ra, rb in rows:
                for name, r in (("A", ra), ("B", rb)):
                    for i in range(3):
                        tally[name][i] += r[i]
                    chances[name] += r[3]
    print(f"{args.deals} deals x {args.players} seats, {rules}, seed {args.seed}, "
          f"{args.worlds} worlds, {time.perf_counter() - t0:.0f} s")
    print(f"A = {args.a}; B = {args.b}")
    print(f"B - A, points per game: {_interval(points)}")
    print(f"B - A, exact bids, percentage points: {_interval(accuracy)}")
    for name, (pts, rounds, exact) in tally.items():
        games = args.deals * args.players
        print(f"{name}: {pts / games:+.1f} points per game, bids exact {exact / rounds:.1%} "
              f"({exact} of {rounds}); the chance it gave its bids against how often they "
              "were exact:")
        for row in bucket_rows(chances[name], BID_BUCKETS):
            print(f"   {row['low']:.1f}-{row['high']:.1f}: {row['games']:5d} bids, mean "
                  f"chance {row['mean_chance']:.3f}, exact {row['win_rate']:.3f}")


if __name__ == "__main__":
    main()
