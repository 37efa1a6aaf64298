"""What the said bids tell Baptistenskat's ``strong`` about the true cards.

Whole games of ``easy`` (the others' bids and play as the model expects them); at every
card decision of every seat (all bids said), :func:`stich.bots.baptisten_strong.belief_gain`
measures the log-likelihood (nats) the bid-weighted worlds give the true hands over the
plain sampler.  Printed by round size and overall with 95 % intervals, for the bot's
spread (``BID_SIGMA``, ``BID_FLOOR``) or the one given.

Run: ``python -m bench.tuning.baptisten_inference [--games 10] [--players 4] [--max-cards 10]
[--sigma 0.8,0.12] [--floor 0] [--samples 100]``.
"""

from __future__ import annotations

import argparse
import random

import stich.bots.baptisten_strong as mod
from stich.baptisten import BaptistenRules, BaptistenState
from stich.bots.baptisten import BaptistenHeuristicBot
from stich.games.played import interval


def _ci(xs: list[float]) -> str:
    i = interval(xs)
    return f"{i.mean:+.3f} ({i.low:+.3f} .. {i.high:+.3f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--max-cards", type=int, default=10)
    ap.add_argument("--sigma", default=None, help="a,b: the spread a + b * cards")
    ap.add_argument("--floor", type=float, default=None)
    ap.add_argument("--samples", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.sigma:
        sa, sb = (float(x) for x in a.sigma.split(","))
        mod.BID_SIGMA = (sa, sb)
    if a.floor is not None:
        mod.BID_FLOOR = a.floor
    rules = BaptistenRules(players=a.players, max_cards=a.max_cards)
    easy = BaptistenHeuristicBot()
    measure = random.Random(a.seed)
    by_cards: dict[int, list[float]] = {}
    for g in range(a.games):
        state = BaptistenState.new(rules, seed=a.seed * 1000 + g, first=g % a.players)
        rng = random.Random(g)
        while not state.is_over:
            view = state.view(state.to_move)
            if view.phase == "PLAY" and view.cards >= 2 and not view.forehead:
                gain = mod.belief_gain(view, state.hands, measure, a.samples)
                by_cards.setdefault(view.cards, []).append(gain)
            state = state.apply(easy.choose(view, rng))
    print(f"{a.games} games of easy, {a.players} players, N = {a.max_cards}; "
          f"BID_SIGMA {mod.BID_SIGMA}, BID_FLOOR {mod.BID_FLOOR}, {a.samples} samples")
    print("cards  decisions  gain in nats (95 %)")
    for c in sorted(by_cards):
        print(f"{c:5d} {len(by_cards[c]):10d}  {_ci(by_cards[c])}")
    every = [x for xs in by_cards.values() for x in xs]
    print(f"all   {len(every):10d}  {_ci(every)}")


if __name__ == "__main__":
    main()
