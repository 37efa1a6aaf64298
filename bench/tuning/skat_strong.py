"""``strong`` against two ``heuristic`` bots on duplicate Skat deals.

Each seeded deal is played once per seat with ``strong`` in that seat and two
``heuristic`` bots, and once per seat with ``heuristic`` in that seat (the same deal and
the same random seed), so the luck of the cards cancels: the figure is the difference
in list points per game of the seat's bot, with a 95 % interval (normal approximation
over the deal-and-seat pairs).  Also: how often each declares and wins as declarer, and
``strong``'s decision time (median, p99).

Run: ``python -m bench.tuning.skat_strong [--deals N] [--seed S] [--budget SECONDS] [--jobs J]
[--optimism POINTS]``.  ``stich arena skat --bots strong,easy,easy`` measures the same
difference with the arena's estimator; this script is the tuning tool (the bot's options
on the command line, per-deal lines with ``--verbose``).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from stich.bots import Bot, SkatHeuristicBot
from stich.bots.strong import SkatStrongBot, StrongSettings
from stich.cards import card_points
from stich.games.played import interval
from stich.skat import SkatRules, SkatState, SkatView
from stich.skat.actions import Action
from stich.skat.rules import GameType
from stich.skat.solver import Position, null_won, reaches

CLASSES = ("open-hand >= 61", "open-hand 53-60", "open-hand < 53", "Null won open",
           "Null lost open")


def open_class(state: SkatState) -> int:
    """Which class of :data:`CLASSES` the game about to be played is in (the declarer's
    result against open-handed defenders, the Skat counted)."""
    game = state.game
    assert game is not None
    pos = Position(game, state.hands, state.declarer, state.to_move)
    if game is GameType.NULL:
        return 3 if null_won(pos) else 4
    have = card_points(state.skat)
    if reaches(pos, 61 - have):
        return 0
    return 1 if reaches(pos, 53 - have) else 2


def play(deal_seed: int, seat: int, bot: Bot, other: Bot, rules: SkatRules,
         times: list[float] | None) -> tuple[int, bool, bool, int]:
    """(list points of ``seat``, whether it declared, whether it won as declarer, the
    open-hand class of its game (-1: not declared))."""
    state = SkatState.new(rules, seed=deal_seed)
    rng = random.Random(deal_seed * 31 + seat)
    klass = -1
    while not state.is_over:
        if (klass < 0 and state.phase.name == "PLAY" and state.declarer == seat
                and not state.tricks and not state.trick):
            klass = open_class(state)
        s = state.to_move
        b = bot if s == seat else other
        t0 = time.perf_counter()
        action = b.choose(state.view(s), rng)
        if s == seat and times is not None:
            times.append(time.perf_counter() - t0)
        state = state.apply(action)
    o = state.outcome()
    declared = o.kind == "game" and o.declarer == seat
    return o.scores[seat], declared, declared and o.won, klass if declared else -1


class Part:
    """``strong`` for some phases only (``auction``: bidding to declaration; ``play``:
    the cards), the heuristic for the rest: to see where the difference comes from."""

    name = "part"

    def __init__(self, strong: SkatStrongBot, part: str) -> None:
        self.strong = strong
        self.part = part
        self.heur = SkatHeuristicBot()

    def choose(self, view: SkatView, rng: random.Random) -> Action:
        play = view.phase == "PLAY"
        use = self.part == "all" or (self.part == "play") == play
        return (self.strong if use else self.heur).choose(view, rng)


Job = tuple[int, int, float, int, str, int, str, bool]


Row = tuple[int, int, int, bool, bool, bool, bool, int, int]


def one_deal(job: Job) -> list[Row]:
    """Every seat of one deal: (seat, strong's points, heuristic's points, strong
    declared, strong won, heuristic declared, heuristic won), strong's times appended."""
    deal_seed, _, budget, optimism, preset, worlds, part, infer = job
    rules = SkatRules.preset(preset)
    strong: Bot = Part(SkatStrongBot(budget=budget, optimism=optimism,
                                     min_worlds=min(4, worlds or 4),
                                     max_worlds=worlds or None, infer=infer), part)
    heur = SkatHeuristicBot()
    out = []
    for seat in range(3):
        s_pts, s_decl, s_won, s_class = play(deal_seed, seat, strong, heur, rules, TIMES)
        h_pts, h_decl, h_won, h_class = play(deal_seed, seat, heur, heur, rules, None)
        out.append((seat, s_pts, h_pts, s_decl, s_won, h_decl, h_won, s_class, h_class))
    return out


TIMES: list[float] = []


def _run(job: Job) -> tuple[list[Row], list[float]]:
    TIMES.clear()
    rows = one_deal(job)
    return rows, list(TIMES)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=0.3, help="strong's seconds per decision")
    ap.add_argument("--optimism", type=int, default=StrongSettings().optimism,
                    help="strong's optimism (card points, see stich.bots.strong.StrongSettings)")
    ap.add_argument("--preset", default="lothar")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=0,
                    help="a fixed number of sampled worlds per decision instead of the clock "
                         "(results independent of the machine's load)")
    ap.add_argument("--part", choices=["all", "auction", "play"], default="all",
                    help="strong only for these phases, the heuristic for the rest")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--no-infer", action="store_true",
                    help="card play: do not weigh the sampled worlds by the auction")
    args = ap.parse_args()
    diffs: list[int] = []
    times: list[float] = []
    decl = {"strong": [0, 0], "heuristic": [0, 0]}
    by_class = {name: [[0, 0] for _ in CLASSES] for name in decl}
    t_start = time.perf_counter()
    jobs = [(args.seed * 100_003 + d, d, args.budget, args.optimism, args.preset,
             args.worlds, args.part, not args.no_infer) for d in range(args.deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        for job, (rows, ts) in zip(jobs, pool.map(_run, jobs), strict=True):
            times.extend(ts)
            for seat, s_pts, h_pts, s_decl, s_won, h_decl, h_won, s_cl, h_cl in rows:
                for name, cl, won in (("strong", s_cl, s_won), ("heuristic", h_cl, h_won)):
                    if cl >= 0:
                        by_class[name][cl][0] += 1
                        by_class[name][cl][1] += won
                diffs.append(s_pts - h_pts)
                decl["strong"][0] += s_decl
                decl["strong"][1] += s_won
                decl["heuristic"][0] += h_decl
                decl["heuristic"][1] += h_won
                if args.verbose and s_pts != h_pts:
                    print(f"deal {job[1]} seat {seat}: strong {s_pts:+d} heuristic {h_pts:+d}")
    n = len(diffs)
    i = interval(diffs)  # n: three seats a deal
    times.sort()
    print(f"{args.deals} deals x 3 seats ({args.preset}, strong budget {args.budget} s, "
          f"worlds {args.worlds or 'by the clock'}, part {args.part}"
          f"{', no inference' if args.no_infer else ''}), "
          f"{time.perf_counter() - t_start:.0f} s")
    print(f"strong - heuristic, list points per game: {i.mean:+.1f} "
          f"(95 % interval {i.low:+.1f} .. {i.high:+.1f})")
    for name, (k, w) in decl.items():
        rate = f"{100 * w / k:.1f} %" if k else "-"
        print(f"{name}: declared {k} of {n} games, won {w} ({rate})")
    for name, rows_ in by_class.items():
        print(f"{name} as declarer, won by open-hand class: " + ", ".join(
            f"{c} {w}/{k}" for c, (k, w) in zip(CLASSES, rows_, strict=True) if k))
    if times:
        p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
        print(f"strong decision time: median {1000 * statistics.median(times):.0f} ms, "
              f"p99 {1000 * p99:.0f} ms, max {1000 * times[-1]:.0f} ms "
              f"({len(times)} decisions)")


if __name__ == "__main__":
    main()
