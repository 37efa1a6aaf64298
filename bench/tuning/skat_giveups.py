"""What a solver question that gave up in ``strong``'s auction was really worth.

``strong`` asks the solver, per sampled world, whether a game reaches 61, 55 or 49 card
points against open-handed defenders (``chance_by_points`` of its settings); a question
that runs out of nodes counts with ``gave_up_chance``.  This plays the auctions of
seeded ``lothar`` deals (``strong`` in each seat in turn, clocked, two ``easy``), keeps
every question of ``strong``'s auction decisions, solves each that gave up again with a
node limit 100 times larger, and prints, per threshold where it gave up, the mean chance
of the true answers by the table: the figure ``gave_up_chance`` should hold.

Run: ``python -m bench.tuning.skat_giveups [--deals 60] [--seed 5] [--jobs 2]``.
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import stich.bots.strong.questions as questions
from stich.bots import SkatHeuristicBot
from stich.bots.strong import SkatStrongBot, StrongSettings
from stich.skat import SkatRules, SkatState
from stich.skat.rules import GameType
from stich.skat.solver import Position, SearchLimit, reaches

Question = tuple[GameType, tuple[int, int, int], int, int, float]
ASKED: list[Question] = []
_CHANCE = questions.chance
SETTINGS = StrongSettings()  # the bot's, the defaults
AUCTION = ("BIDDING", "SKAT", "DISCARD", "DECLARE")


def _recording(clock: Any, game: GameType, hands: tuple[int, int, int], declarer: int,
               have: int, settings: StrongSettings) -> float:
    got = _CHANCE(clock, game, hands, declarer, have, settings)
    ASKED.append((game, hands, declarer, have, got))
    return got


def true_chance(game: GameType, hands: tuple[int, int, int], declarer: int,
                have: int) -> float | None:
    """The table's chance for the open-hand truth (None: unsolved within the limit)."""
    pos = Position(game, hands, declarer, 0)
    for points, chance in SETTINGS.chance_by_points:
        try:
            if reaches(pos, points - have, nodes=40_000_000):
                return chance
        except SearchLimit:
            return None
    return SETTINGS.chance_below


def one_deal(deal: int) -> tuple[int, list[tuple[int, float | None]]]:
    """(questions asked, (threshold index where it gave up, true chance) per give-up)."""
    questions.chance = _recording  # every game the auction asks about goes through it
    rules = SkatRules.preset("lothar")
    easy = SkatHeuristicBot()
    mine: list[Question] = []
    for seat in range(3):
        bot = SkatStrongBot(settings=SETTINGS)
        state = SkatState.new(rules, seed=deal)
        rng = random.Random(deal * 31 + seat)
        while not state.is_over and state.phase.name in AUCTION:
            s = state.to_move
            ASKED.clear()
            action = (bot if s == seat else easy).choose(state.view(s), rng)
            if s == seat:
                mine.extend(ASKED)
            state = state.apply(action)
    gave_up = []
    for game, hands, declarer, have, got in mine:
        index = _gave_up_at(got)
        if index is not None:
            gave_up.append((index, true_chance(game, hands, declarer, have)))
    return len(mine), gave_up


def _gave_up_at(got: float) -> int | None:
    """The threshold index a chance given for a give-up stands for (None: answered)."""
    answered = {c for _, c in SETTINGS.chance_by_points} | {SETTINGS.chance_below}
    if got in answered:
        return None
    table = SETTINGS.gave_up_chance
    for i, (_, chance) in enumerate(SETTINGS.chance_by_points):
        if got == (table[i] if table else chance / 2 + 0.25):
            return i
    raise ValueError(f"not a chance of the table: {got}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    t0 = time.perf_counter()
    asked = 0
    truths: dict[int, list[float]] = collections.defaultdict(list)
    unsolved = 0
    deals = [args.seed * 100_003 + d for d in range(args.deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        for n, gave_up in pool.map(one_deal, deals):
            asked += n
            for index, truth in gave_up:
                if truth is None:
                    unsolved += 1
                else:
                    truths[index].append(truth)
    total = sum(len(v) for v in truths.values()) + unsolved
    print(f"{args.deals} deals, seed {args.seed}, {time.perf_counter() - t0:.0f} s: "
          f"{asked} questions in strong's auctions, {total} gave up "
          f"({unsolved} unsolved again)")
    for index, (points, _) in enumerate(SETTINGS.chance_by_points):
        got = truths.get(index, [])
        if got:
            print(f"gave up at {points}: {len(got)}, true chance by the table "
                  f"{statistics.fmean(got):.3f} "
                  f"({dict(sorted(collections.Counter(got).items()))})")


if __name__ == "__main__":
    main()
