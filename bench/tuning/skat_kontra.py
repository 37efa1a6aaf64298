"""``strong`` against two ``easy`` bots in the arena under Kontra and Re: the arena's
figures, and every Kontra and Re said, by whom, and who won those games.

The games are the arena's own (:mod:`stich.arena`: the same duplicate deals, seeds and
rotations as ``stich arena skat --bots strong,easy,easy --deals N --seed S --rules R``,
played by :func:`stich.games.skat_arena.play`), with each bot wrapped so that its Kontra
and Re are counted.  Printed: the arena's difference ``strong − easy`` in list points per
game on the same deals in the same seat (95 % interval), each bot's mean, and per bot
that said them: the Kontras, how many of those games the defenders won (with a 95 %
interval of the share), the Re answers and how many of those the declarer won, and the
list points the doubled games brought the sayer's side.

With ``--worlds W`` the ``strong`` seat samples W worlds a decision and reads a clock
that does not move (``py:bench.tuning.skat_kontra:strong_fixed``, the same in the
arena: ``stich arena skat --bots py:bench.tuning.skat_kontra:strong_fixed,easy,easy``
plays W = 8), so its games do not depend on the machine's load; 0: the real ``strong``,
0.3 s a decision.

Run: ``python -m bench.tuning.skat_kontra [--deals N] [--seed S] [--rules RULES]
[--worlds W] [--jobs J]``.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench.settings import frozen
from stich.arena import (
    ENTRY_POINT,
    Match,
    bot_rng,
    entry_at,
    entry_point_bot,
    match_deal_seed,
    summarize,
)
from stich.bots.strong import SkatStrongBot
from stich.games import SKAT
from stich.games.played import ArenaDeal, PlayedGame, SeatResult
from stich.games.skat_arena import play
from stich.skat.actions import KONTRA, RE, Action
from stich.skat.view import SkatView

HOUSE = "skat(preset=lothar,kontra_re=yes,schieberamsch=yes,jungfrau=yes)"
FIXED_WORLDS = 8
"""The worlds a decision of :func:`strong_fixed` (``--worlds`` sets it)."""


def strong_fixed() -> SkatStrongBot:
    """``strong`` with :data:`FIXED_WORLDS` worlds a decision and a clock that does not
    move (an arena entry point: ``py:bench.tuning.skat_kontra:strong_fixed``)."""
    return SkatStrongBot(min_worlds=min(4, FIXED_WORLDS), max_worlds=FIXED_WORLDS,
                         timer=frozen)


SAID: list[tuple[str, int, str]] = []
"""The doublings of the game being played: (the bot's name, its seat, kontra or re)."""


class Counted:
    """A bot whose Kontra and Re are noted in :data:`SAID`."""

    def __init__(self, bot: Any, name: str) -> None:
        self.bot = bot
        self.name = name
        self.estimates = getattr(bot, "estimates", [])

    def choose(self, view: SkatView, rng: random.Random) -> Action:
        action: Action = self.bot.choose(view, rng)
        if action is KONTRA or action is RE:
            SAID.append((self.name, view.seat, str(action)))
        return action


Doubled = tuple[str, str, bool, int]
"""A doubled game: who said Kontra, who answered Re ("" if nobody), whether the
declarer won, the declarer's score."""


def play_deal(match: Match, k: int) -> tuple[list[PlayedGame], list[Doubled]]:
    """Every rotation of deal ``k``, as :func:`stich.arena.play_game` plays it, and its
    doubled games."""
    games: list[PlayedGame] = []
    doubled: list[Doubled] = []
    n = match.seats
    for rotation in range(n):
        results = [SeatResult(i, (i + rotation) % n) for i in range(n)]
        by_seat = [results[entry_at(s, rotation, n)] for s in range(n)]
        names = [match.bots[r.entry] for r in by_seat]
        deal = ArenaDeal(
            rules=match.rules, seed=match_deal_seed(match.seed, k), names=names,
            seats=by_seat, rngs=[bot_rng(match.seed, k, rotation, s) for s in range(n)],
            make=lambda name: Counted(_bot(name), _short(name)),
            inference=False, measure=random.Random(0))
        SAID.clear()
        cards = play(deal)
        games.append(PlayedGame(k, rotation, cards, results))
        kontra = [who for who, _, what in SAID if what == "kontra"]
        if kontra:
            re = [who for who, _, what in SAID if what == "re"]
            decl = next(r for r in by_seat if r.declared)
            doubled.append((kontra[0], re[0] if re else "", decl.won, decl.score))
    return games, doubled


def _bot(name: str) -> Any:
    """The bot of an arena name (a name of :mod:`stich.bots`, or ``py:module:factory``)."""
    return entry_point_bot(name) if name.startswith(ENTRY_POINT) else SKAT.make_bot(name)


def _short(name: str) -> str:
    return "strong" if name.endswith(":strong_fixed") else name


def _task(args: tuple[Match, int, int]) -> tuple[list[PlayedGame], list[Doubled]]:
    global FIXED_WORLDS
    match, k, FIXED_WORLDS = args
    return play_deal(match, k)


def share(k: int, n: int) -> str:
    """``k/n (p %, 95 %: low … high)``, the Wilson interval."""
    if n == 0:
        return "0/0"
    z = 1.96
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = 100 * (mid - half), 100 * (mid + half)
    return f"{k}/{n} ({100 * p:.0f} %, 95 %: {low:.0f} .. {high:.0f} %)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default=HOUSE, help="the rules (a preset or skat(...))")
    ap.add_argument("--worlds", type=int, default=0,
                    help="strong's worlds a decision, the clock frozen (0: 0.3 s a decision)")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    strong = "py:bench.tuning.skat_kontra:strong_fixed" if args.worlds else "strong"
    match = Match(SKAT.name, (strong, "easy", "easy"), args.deals, args.seed,
                  rules=SKAT.parse_rules(args.rules))
    t0 = time.perf_counter()
    tasks = [(match, k, args.worlds) for k in range(args.deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        done = list(pool.map(_task, tasks))
    games = [g for gs, _ in done for g in gs]
    doubled = [d for _, ds in done for d in ds]
    report = summarize(match, games)
    d = report["difference"]
    print(f"{args.deals} deals x 3 rotations, {match.rules_text}, seed {args.seed}, strong "
          f"{f'{args.worlds} worlds a decision' if args.worlds else '0.3 s a decision'}, "
          f"{time.perf_counter() - t0:.0f} s")
    print(f"strong - easy, list points per game: {d['mean']:+.2f} "
          f"(95 % interval {d['low']:+.2f} .. {d['high']:+.2f})")
    for name, f in report["by_name"].items():
        pg = f["per_game"]
        print(f"{_short(name)}: {pg['mean']:+.2f} a game, declared {f['declared']} of "
              f"{f['games']}, won {f['declarer_won']}")
    for who in ("strong", "easy"):
        mine = [x for x in doubled if x[0] == who]
        won = sum(not x[2] for x in mine)
        gain = -sum(x[3] for x in mine)
        print(f"Kontra by {who}: defenders won {share(won, len(mine))}; the declarer's "
              f"score in those games {-gain:+d} in all")
    for who in ("strong", "easy"):
        mine = [x for x in doubled if x[1] == who]
        print(f"Re by {who}: declarer won {share(sum(x[2] for x in mine), len(mine))}")


if __name__ == "__main__":
    main()
