"""``strong`` for Baptistenskat with a chosen time budget against ``easy``, through the
arena (duplicate deals, every seat rotation).

The arena's ``strong`` uses the default budget; this probe registers the search bot with
the given ``--budget`` (seconds per card decision) and ``--bid-factor`` under a name of
its own and prints its bid accuracy, ``easy``'s, the paired difference per game and the
decision times.

Run: ``python -m bench.tuning.baptisten_strong [--budget 0.02] [--bid-factor 4] [--deals 12]
[--players 4] [--max-cards 10] [--seed 1]``.
"""

from __future__ import annotations

import argparse

from stich.arena import Match, run_match
from stich.baptisten import BaptistenRules
from stich.bots.baptisten import BAPTISTEN_BOTS
from stich.bots.baptisten_strong import DEFAULT_BUDGET, BaptistenStrongBot


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    ap.add_argument("--bid-factor", type=float, default=4.0)
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--max-cards", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    budget, factor = a.budget, a.bid_factor
    BAPTISTEN_BOTS["probe"] = lambda: BaptistenStrongBot(budget, bid_factor=factor)
    rules = BaptistenRules(players=a.players, max_cards=a.max_cards)
    match = Match("baptisten", ("probe",) + ("easy",) * (a.players - 1), a.deals, a.seed,
                  rules=rules)
    d = run_match(match, 1)
    probe, easy, diff = d["by_name"]["probe"], d["by_name"]["easy"], d["difference"]
    print(f"budget {budget} s per card, {budget * factor} s per bid; {a.deals} deals, "
          f"{a.players} players, N = {a.max_cards}, seed {a.seed}")
    print(f"bid exact: strong {probe['bid_accuracy']:.1%}, easy {easy['bid_accuracy']:.1%}")
    print(f"strong - easy per game: {diff['mean']:+.1f} "
          f"(95 %: {diff['low']:+.1f} .. {diff['high']:+.1f})")
    t = probe["time_ms"]
    print(f"decision ms: median {t['median']:.1f}, p99 {t['p99']:.1f}")


if __name__ == "__main__":
    main()
