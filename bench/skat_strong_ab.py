"""Two settings of ``strong``'s auction against each other, paired on the same deals.

A setting is a JSON object of module constants of ``stich.bots.strong`` (``{}``: the
defaults) and optionally ``"worlds"`` (the worlds per decision of the auction under this
setting, else ``--worlds``; the card play always samples ``--worlds``), e.g.
``'{"CHANCE_BY_POINTS": [[61, 0.97], [55, 0.8], [49, 0.4]], "CHANCE_BELOW": 0.1}'``.

Each deal is played once per seat with ``strong`` under setting B in that seat and two
``easy``; at every decision of the auction (bidding, Hand or Skat, the discard, the
declaration) setting A's choice is computed too, from the same random state.  Where A
would never choose differently, A's game is B's game; where it would, A's game is played
as well.  The figure is B − A in the seat's list points per game (95 % interval), with
how many games differed.  The bot samples a fixed number of worlds with a clock that does
not move, so the result does not depend on the machine's load; as a defender the seat
plays ``easy``'s cards (a defender's own list score is 0 whatever it plays).

With ``--whole`` A's game is also played where ``strong`` chose a card (as declarer or
in Ramsch): for constants of the card play, which the shortcut above cannot see;
"differed" then counts the games played twice.

Run: ``python bench/skat_strong_ab.py --a '{}' --b '{...}' [--deals 80] [--seed 1]
[--worlds 8] [--jobs 2] [--whole] [--rules lothar|isko]``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import _harness
import stich.bots.strong as strong_mod
from _harness import apply_setting, constants, frozen
from skat_strong import open_class
from stich.bots import SkatHeuristicBot
from stich.skat import SkatRules, SkatState
from stich.skat.rules import GameType

DEFAULTS = constants(strong_mod)


def setting(text: str) -> dict[str, Any]:
    return _harness.setting(text, strong_mod, DEFAULTS)


def use(over: dict[str, Any], bot: strong_mod.SkatStrongBot, worlds: int, *,
        auction: bool) -> None:
    apply_setting(strong_mod, DEFAULTS, over)
    bot.min_worlds = bot.max_worlds = over.get("worlds", worlds) if auction else worlds


Result = tuple[int, bool, bool, bool, bool]


def play(seed: int, seat: int, bot: strong_mod.SkatStrongBot, worlds: int,
         b: dict[str, Any], a: dict[str, Any] | None, *, whole: bool = False,
         rules: str = "lothar") -> Result:
    """(the seat's list points, whether setting ``a`` would have chosen differently
    somewhere in the auction (``whole``: or ``strong`` chose a card), declared, won as
    declarer) of the game under ``b``."""
    state = SkatState.new(SkatRules.preset(rules), seed=seed)
    easy = SkatHeuristicBot()
    rng = random.Random(seed * 31 + seat)
    differs = False
    klass = -1
    while not state.is_over:
        if (klass < 0 and state.phase.name == "PLAY" and state.declarer == seat
                and not state.tricks and not state.trick):
            klass = open_class(state)
        s = state.to_move
        view = state.view(s)
        if s != seat or (view.phase == "PLAY" and view.game is not GameType.RAMSCH
                         and view.declarer != seat):
            action = easy.choose(view, rng)
        elif a is not None and view.phase != "PLAY":
            other = random.Random()
            other.setstate(rng.getstate())
            use(a, bot, worlds, auction=True)
            alt = bot.choose(view, other)
            use(b, bot, worlds, auction=True)
            action = bot.choose(view, rng)
            differs = differs or alt != action
        else:
            use(b, bot, worlds, auction=view.phase != "PLAY")
            action = bot.choose(view, rng)
            differs = differs or (whole and view.phase == "PLAY")
        state = state.apply(action)
    o = state.outcome()
    declared = o.kind == "game" and o.declarer == seat
    lost_at_bid = declared and not o.won and klass in (1, 2, 4)
    return o.scores[seat], differs, declared, declared and o.won, lost_at_bid


def one_deal(job: tuple[int, int, dict[str, Any], dict[str, Any], bool, str]
             ) -> list[tuple[Result, Result]]:
    seed, worlds, a, b, whole, rules = job
    bot = strong_mod.SkatStrongBot(min_worlds=worlds, max_worlds=worlds, timer=frozen)
    out = []
    for seat in range(3):
        rb = play(seed, seat, bot, worlds, b, a, whole=whole, rules=rules)
        ra = play(seed, seat, bot, worlds, a, None, rules=rules) if rb[1] else rb
        out.append((ra, rb))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", default="{}", help="setting A (JSON), the reference")
    ap.add_argument("--b", default="{}", help="setting B (JSON)")
    ap.add_argument("--deals", type=int, default=80)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rules", default="lothar", choices=("lothar", "isko"))
    ap.add_argument("--whole", action="store_true",
                    help="play every game whole under both settings (card-play constants)")
    args = ap.parse_args()
    a, b = setting(args.a), setting(args.b)
    t0 = time.perf_counter()
    diffs: list[int] = []
    differing = 0
    tally = {"A": [0, 0, 0, 0], "B": [0, 0, 0, 0]}
    jobs = [(args.seed * 100_003 + d, args.worlds, a, b, args.whole, args.rules)
            for d in range(args.deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        for rows in pool.map(one_deal, jobs):
            for ra, rb in rows:
                diffs.append(rb[0] - ra[0])
                differing += rb[1]
                for name, r in (("A", ra), ("B", rb)):
                    tally[name][0] += r[0]
                    tally[name][1] += r[2]
                    tally[name][2] += r[3]
                    tally[name][3] += r[4]
    n = len(diffs)
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.inf
    print(f"{args.deals} deals x 3 seats, {args.rules}, seed {args.seed}, {args.worlds} worlds, "
          f"{time.perf_counter() - t0:.0f} s; A = {args.a}; B = {args.b}")
    what = "the auction or the card play" if args.whole else "the auction"
    print(f"B - A, list points per game: {mean:+.2f} (95 % interval {mean - half:+.2f} .. "
          f"{mean + half:+.2f}); {what} differed in {differing} of {n} games")
    for name, (pts, dec, won, lost_bid) in tally.items():
        print(f"{name}: {pts:+d} list points, declared {dec}, won {won}, lost with open "
              f"cards too (lost at the bid) {lost_bid}")


if __name__ == "__main__":
    main()
