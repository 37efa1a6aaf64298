"""What a Null is worth: ``strong``'s open-hand estimate against Nulls played out.

For every seat of every seeded deal whose ten cards are a Null candidate
(``null_badness`` at most ``--badness``), the seat's auction estimate is computed as
``strong`` computes it (``--worlds`` worlds sampled from its view before the bidding:
the share of worlds in which the Null is won against open-handed defenders, picked up
with the heuristic's Null discard, and played Hand); then the seat declares the Null
(picked up, Hand, Ouvert, Ouvert Hand: every kind asked for) and ``strong`` plays it out
against two ``easy`` (or ``strong``, ``--defenders strong``) defenders with a fixed
number of worlds and a clock that does not move.

The table is the share of open-won worlds by bucket against how often the Null was won,
per kind, beside what ``strong`` assumes today (``NULL_CHANCE``, ``NULL_OUVERT_CHANCE``:
``lost + share · (won − lost)``).  It says where a Null pays: under Seeger–Fabian a Null
won gives value + 50, lost −2 · value − 50.

Run: ``python -m bench.tuning.skat_null [--deals 400] [--seed 1] [--badness 3] [--worlds 16]
[--jobs 2] [--defenders easy|strong] [--rules lothar|isko]``.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

from bench.settings import frozen
from stich.bots import SkatHeuristicBot
from stich.bots.skat_eval import null_badness
from stich.bots.strong import SkatStrongBot, StrongSettings, sample_world
from stich.bots.strong.auction import discard_for
from stich.skat import SkatRules, SkatState
from stich.skat.actions import HAND, PASS, PICKUP, Declare, Discard
from stich.skat.rules import GameType
from stich.skat.solver import Position, null_won

KINDS = (("null", False, False), ("null hand", True, False), ("null ouvert", False, True),
         ("null ouvert hand", True, True))
BUCKETS = ((0.0, 0.0), (0.0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1.0), (1.0, 1.0))

Row = tuple[str, float, bool, int]  # kind, open-won share, won, declarer's list points


def _share(state: SkatState, seat: int, worlds: int, rng: random.Random
           ) -> tuple[float, float]:
    """The open-won share of the worlds for a picked-up Null and a Null Hand, from the
    seat's view before the bidding."""
    view = state.view(seat)
    pick = hand = 0
    for _ in range(worlds):
        hands, skat = sample_world(view, rng)
        twelve = view.hand | skat
        keep, _away = discard_for(twelve, GameType.NULL)
        h = list(hands)
        h[seat] = keep
        pick += null_won(Position(GameType.NULL, (h[0], h[1], h[2]), seat, 0))
        hand += null_won(Position(GameType.NULL, hands, seat, 0))
    return pick / worlds, hand / worlds


def _declared(state: SkatState, seat: int, hand: bool, ouvert: bool) -> SkatState:
    """The deal with ``seat`` the only bidder and the Null declared."""
    while state.phase.name == "BIDDING":
        legal = state.view(state.to_move).legal_actions
        action = PASS
        if state.to_move == seat:
            action = next((a for a in legal if a != PASS), PASS)
            if action is PASS:
                raise RuntimeError("the seat could not bid")
        state = state.apply(action)
    assert state.declarer == seat, "only the seat bid"
    if hand:
        state = state.apply(HAND)
    else:
        state = state.apply(PICKUP)
        twelve = state.view(seat).hand
        _keep, away = discard_for(twelve, GameType.NULL)
        state = state.apply(Discard(away))
    return state.apply(Declare(GameType.NULL, hand=hand, ouvert=ouvert))


def one_deal(job: tuple[int, float, int, str, str]) -> list[Row]:
    seed, badness, worlds, defenders, rules_name = job
    rules = SkatRules.preset(rules_name)
    fresh = SkatState.new(rules, seed=seed)
    easy = SkatHeuristicBot()
    player = SkatStrongBot(min_worlds=8, max_worlds=8, timer=frozen)
    defender = player if defenders == "strong" else easy
    out: list[Row] = []
    for seat in range(3):
        if null_badness(fresh.view(seat).hand) > badness:
            continue
        rng = random.Random(seed * 7 + seat)
        pick_share, hand_share = _share(fresh, seat, worlds, rng)
        for name, hand, ouvert in KINDS:
            state = _declared(fresh, seat, hand, ouvert)
            play_rng = random.Random(seed * 11 + seat)
            while not state.is_over:
                s = state.to_move
                bot = player if s == seat else defender
                state = state.apply(bot.choose(state.view(s), play_rng))
            o = state.outcome()
            out.append((name, hand_share if hand else pick_share, bool(o.won),
                        o.scores[seat]))
    return out


def _in_bucket(share: float, lo: float, hi: float) -> bool:
    """0 and 1 are buckets of their own; the others are (lo, hi], the last (lo, 1)."""
    if lo == hi:
        return share == lo
    return lo < share <= hi and share < 1.0


def _assumed(share: float, ouvert: bool) -> float:
    settings = StrongSettings()  # the bot's
    lost, won = settings.null_ouvert_chance if ouvert else settings.null_chance
    return lost + share * (won - lost)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--badness", type=float, default=3.0)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--defenders", choices=("easy", "strong"), default="easy")
    ap.add_argument("--rules", choices=("lothar", "isko"), default="lothar")
    args = ap.parse_args()
    t0 = time.perf_counter()
    jobs = [(args.seed * 100_003 + d, args.badness, args.worlds, args.defenders, args.rules)
            for d in range(args.deals)]
    rows: list[Row] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(one_deal, jobs):
            rows.extend(part)
    print(f"{args.deals} deals, {args.rules}, seed {args.seed}, hands with null_badness <= "
          f"{args.badness}: {len(rows) // len(KINDS)}, {args.worlds} worlds, defenders "
          f"{args.defenders}, {time.perf_counter() - t0:.0f} s")
    for name, _hand, ouvert in KINDS:
        mine = [r for r in rows if r[0] == name]
        if not mine:
            continue
        won = sum(r[2] for r in mine)
        pts = sum(r[3] for r in mine) / len(mine)
        print(f"\n{name}: {len(mine)} played, {won} won ({won / len(mine):.0%}), "
              f"{pts:+.1f} list points a game")
        print("  open-won share | games | won | strong assumes | list points a game")
        for lo, hi in BUCKETS:
            part = [r for r in mine if _in_bucket(r[1], lo, hi)]
            if not part:
                continue
            w = sum(r[2] for r in part)
            mean = sum(r[1] for r in part) / len(part)
            label = f"{lo:.2f}" if lo == hi else f"{lo:.2f}-{hi:.2f}"
            print(f"  {label:>14} | {len(part):5d} | {w:3d} ({w / len(part):4.0%}) | "
                  f"{_assumed(mean, ouvert):.2f} | {sum(r[3] for r in part) / len(part):+.1f}")


if __name__ == "__main__":
    main()
