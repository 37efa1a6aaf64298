"""Two settings of ``strong``'s auction against each other, paired on the same deals.

A setting is a JSON object of fields of ``strong``'s settings
(``stich.bots.strong.StrongSettings``; ``{}``: the defaults) and optionally ``"worlds"``
(the worlds per decision of the auction under this setting, else ``--worlds``; the card
play always samples ``--worlds``), e.g.
``'{"chance_by_points": [[61, 0.97], [55, 0.8], [49, 0.4]], "chance_below": 0.1}'``.
Each setting plays with a bot of its own.

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

Run: ``python -m bench.tuning.skat_strong_ab --a '{}' --b '{...}' [--deals 80] [--seed 1]
[--worlds 8] [--jobs 2] [--whole] [--rules lothar|isko]``.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

from bench.settings import frozen, settings_from
from bench.tuning.skat_strong import open_class
from stich.bots import SkatHeuristicBot
from stich.bots.strong import SkatStrongBot, StrongSettings
from stich.games.played import interval
from stich.skat import SkatRules, SkatState
from stich.skat.rules import GameType

Setting = tuple[StrongSettings, int | None]
"""The settings and the worlds of the auction (None: ``--worlds``)."""


def setting(text: str) -> Setting:
    return settings_from(text, StrongSettings())


def use(over: Setting, worlds: int, *, auction: bool) -> SkatStrongBot:
    """A bot of the setting ``over``, with its worlds for the auction or the card play."""
    settings, own = over
    n = own if auction and own is not None else worlds
    return SkatStrongBot(min_worlds=n, max_worlds=n, timer=frozen, settings=settings)


Result = tuple[int, bool, bool, bool, bool]


def play(seed: int, seat: int, worlds: int, b: Setting, a: Setting | None, *,
         whole: bool = False, rules: str = "lothar") -> Result:
    """(the seat's list points, whether setting ``a`` would have chosen differently
    somewhere in the auction (``whole``: or ``strong`` chose a card), declared, won as
    declarer) of the game under ``b``."""
    state = SkatState.new(SkatRules.preset(rules), seed=seed)
    easy = SkatHeuristicBot()
    b_auction, b_play = use(b, worlds, auction=True), use(b, worlds, auction=False)
    a_auction = use(a, worlds, auction=True) if a is not None else None
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
        elif a_auction is not None and view.phase != "PLAY":
            other = random.Random()
            other.setstate(rng.getstate())
            alt = a_auction.choose(view, other)
            action = b_auction.choose(view, rng)
            differs = differs or alt != action
        else:
            action = (b_play if view.phase == "PLAY" else b_auction).choose(view, rng)
            differs = differs or (whole and view.phase == "PLAY")
        state = state.apply(action)
    o = state.outcome()
    declared = o.kind == "game" and o.declarer == seat
    lost_at_bid = declared and not o.won and klass in (1, 2, 4)
    return o.scores[seat], differs, declared, declared and o.won, lost_at_bid


def one_deal(job: tuple[int, int, Setting, Setting, bool, str]
             ) -> list[tuple[Result, Result]]:
    seed, worlds, a, b, whole, rules = job
    out = []
    for seat in range(3):
        rb = play(seed, seat, worlds, b, a, whole=whole, rules=rules)
        ra = play(seed, seat, worlds, a, None, rules=rules) if rb[1] else rb
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
    i = interval(diffs)  # n: three seats a deal
    print(f"{args.deals} deals x 3 seats, {args.rules}, seed {args.seed}, {args.worlds} worlds, "
          f"{time.perf_counter() - t0:.0f} s; A = {args.a}; B = {args.b}")
    what = "the auction or the card play" if args.whole else "the auction"
    print(f"B - A, list points per game: {i.mean:+.2f} (95 % interval {i.low:+.2f} .. "
          f"{i.high:+.2f}); {what} differed in {differing} of {n} games")
    for name, (pts, dec, won, lost_bid) in tally.items():
        print(f"{name}: {pts:+d} list points, declared {dec}, won {won}, lost with open "
              f"cards too (lost at the bid) {lost_bid}")


if __name__ == "__main__":
    main()
