"""How the rule-based bot's Baptistenskat bids scatter around ``strong``'s hand estimate.

``strong`` weighs each sampled world by how well the bids said fit it: a Gaussian of the
bid around :func:`stich.bots.baptisten_strong.hand_estimate` of that seat's hand, with a
spread ``a + b · cards`` (``BID_SIGMA``).  This probe plays whole games of ``easy`` (the
model of how the others bid), and per round size prints the bias and the standard
deviation of (bid − estimate), the fitted ``a`` and ``b`` (least squares over the round
sizes), and the spread the bot uses.

Run: ``python -m bench.tuning.baptisten_bid_model [--games 40] [--players 4] [--max-cards 10]``.
"""

from __future__ import annotations

import argparse
import random
import statistics

from stich.baptisten import BaptistenRules, BaptistenState
from stich.baptisten.actions import BBid
from stich.bots.baptisten import BaptistenHeuristicBot
from stich.bots.baptisten_strong import BID_SIGMA, Knowledge, hand_estimate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--max-cards", type=int, default=10)
    a = ap.parse_args()
    rules = BaptistenRules(players=a.players, max_cards=a.max_cards)
    easy = BaptistenHeuristicBot()
    residuals: dict[int, list[float]] = {}
    for g in range(a.games):
        state = BaptistenState.new(rules, seed=g, first=g % a.players)
        rng = random.Random(g)
        while not state.is_over:
            view = state.view(state.to_move)
            action = easy.choose(view, rng)
            if (view.phase == "BIDDING" and not view.forehead and view.cards >= 2
                    and isinstance(action, BBid)):
                k = Knowledge(view)
                est = hand_estimate(k.deck, k.trump, k.n, view.hand)
                residuals.setdefault(view.cards, []).append(action.tricks - est)
            state = state.apply(action)
    sa, sb = BID_SIGMA
    print(f"{a.games} games of easy, {a.players} players, N = {a.max_cards}")
    print("cards  bids   bias    sd   bot's sigma")
    xs, ys = [], []
    for c in sorted(residuals):
        r = residuals[c]
        sd = statistics.pstdev(r)
        xs.append(float(c))
        ys.append(sd)
        print(f"{c:5d} {len(r):5d} {statistics.fmean(r):+6.2f} {sd:5.2f} {sa + sb * c:8.2f}")
    fit = statistics.linear_regression(xs, ys)
    print(f"fitted sd = {fit.intercept:.2f} + {fit.slope:.3f} * cards; "
          f"the bot uses {sa} + {sb} * cards")


if __name__ == "__main__":
    main()
