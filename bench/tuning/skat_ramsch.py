"""``strong``'s Ramsch card play against the rule-based card, on the same Ramsch games.

Deals whose auction, bid by three ``easy`` bots, ends with everybody passing (Ramsch
under ``lothar``) are played from the first card twice per seat: with ``strong`` in that
seat choosing by played-out worlds (``ramsch_rollouts`` on, ``StrongSettings``) and with
the rule-based card (off), the other two seats ``easy``, the same random seeds.  The
figure is the seat's Ramsch score (rollouts − rule-based) per game with a 95 % interval.
The bot samples a
fixed number of worlds and its clock does not move, so the result does not depend on the
machine's load.

Run: ``python -m bench.tuning.skat_ramsch [--deals 3000] [--worlds 20] [--jobs 2]``.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

from bench.settings import frozen
from stich.bots import SkatHeuristicBot
from stich.bots.strong import SkatStrongBot, StrongSettings
from stich.games.played import interval
from stich.skat import SkatRules, SkatState
from stich.skat.rules import GameType


def one_deal(job: tuple[int, int]) -> list[tuple[int, int]]:
    """Per seat (rule-based score, rollout score); empty unless the deal is Ramsch."""
    seed, worlds = job
    rules = SkatRules.preset("lothar")
    easy = SkatHeuristicBot()
    start = SkatState.new(rules, seed=seed)
    rng = random.Random(seed)
    while start.phase.name == "BIDDING":
        start = start.apply(easy.choose(start.view(start.to_move), rng))
    if start.game is not GameType.RAMSCH:
        return []
    bots = {rollouts: SkatStrongBot(min_worlds=worlds, max_worlds=worlds, timer=frozen,
                                    settings=StrongSettings(ramsch_rollouts=rollouts))
            for rollouts in (False, True)}
    out = []
    for seat in range(3):
        scores = []
        for rollouts in (False, True):
            bot = bots[rollouts]
            state = start
            r = random.Random(seed * 7 + seat)
            while not state.is_over:
                b = bot if state.to_move == seat else easy
                state = state.apply(b.choose(state.view(state.to_move), r))
            scores.append(state.outcome().scores[seat])
        out.append((scores[0], scores[1]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=3000, help="deals tried (about 10 %% are Ramsch)")
    ap.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    ap.add_argument("--worlds", type=int, default=20, help="sampled worlds per decision")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    t0 = time.perf_counter()
    diffs: list[int] = []
    plain = rolled = 0
    jobs = [(args.seed + d, args.worlds) for d in range(args.deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        for rows in pool.map(one_deal, jobs, chunksize=20):
            for a, b in rows:
                diffs.append(b - a)
                plain += a
                rolled += b
    n = len(diffs)
    if n < 2:
        print(f"{n} Ramsch seat-games: too few")
        return
    i = interval(diffs)
    print(f"{args.deals} deals, {n // 3} Ramsch, {n} seat-games, {args.worlds} worlds, "
          f"{time.perf_counter() - t0:.0f} s")
    print(f"Ramsch score per game: rule-based card {plain / n:.2f}, "
          f"played-out worlds {rolled / n:.2f}")
    print(f"played-out - rule-based: {i.mean:+.2f} (95 % interval {i.low:+.2f} .. "
          f"{i.high:+.2f})")


if __name__ == "__main__":
    main()
